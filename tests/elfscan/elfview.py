"""What binutils' readelf (and the other tools the checkers ask) says of a
file: the one place the tests' Python checkers (check_json.py and
check_hardening.py) run them, in the C locale, so that their output reads
the same on every machine.
"""
import os
import subprocess


def run(argv):
    """(exit status, stdout, stderr) of argv, in the C locale."""
    p = subprocess.run(argv, capture_output=True, text=True,
                       env=dict(os.environ, LC_ALL="C"))
    return p.returncode, p.stdout, p.stderr


def readelf(*args):
    """readelf -W's output: whole lines, nothing cut."""
    return run(["readelf", "-W", *args])[1]


def readable(path):
    """Does readelf read the headers without an error?"""
    status, _, err = run(["readelf", "-W", "-h", "-l", path])
    return status == 0 and "Error" not in err
