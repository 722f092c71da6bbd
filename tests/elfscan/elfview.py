"""What binutils' readelf (and the other tools the checkers ask) says of a
file: the one place the tests' Python checkers (check_json.py,
check_hardening.py, check_names.py) run them, in the C locale, so that
their output reads the same on every machine.
"""
import os
import re
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


def symbols(path, dynamic):
    """(index, name, section index) of each named symbol of the dynamic
    (--dyn-syms) or static (-s) symbol table, as readelf -W shows them;
    the name without its @VERSION, the section index UND for a
    reference."""
    out = readelf("--dyn-syms" if dynamic else "--syms", path)
    syms = []
    for line in out.splitlines():
        m = re.match(r"\s*(\d+): [0-9a-f]+\s+\S+\s+\S+\s+\S+\s+\S+\s+(\S+)"
                     r" (\S+)", line)
        if m:
            syms.append((int(m.group(1)), m.group(3).split("@")[0],
                         m.group(2)))
    return syms


def strings(path, section):
    """{string: offset} of the strings of a string table, as readelf -p
    shows them (the first offset when a string appears twice)."""
    found = {}
    for line in readelf("-p", section, path).splitlines():
        m = re.match(r"\s*\[\s*([0-9a-f]+)\]  (.*)", line)
        if m:
            found.setdefault(m.group(2), int(m.group(1), 16))
    return found


def section(path, name):
    """(offset, size) of the section called name, or None."""
    for line in readelf("-S", path).splitlines():
        f = line.replace("[ ", "[").split()
        if len(f) > 6 and f[1] == name:
            return int(f[4], 16), int(f[5], 16)
    return None
