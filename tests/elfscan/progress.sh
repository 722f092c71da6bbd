#!/bin/sh
# On a terminal, elfscan's progress line never shares a line with a
# message: each message starts its own line, and the progress line is
# erased at the end. A pseudo-terminal (python3's pty) watches a scan of a
# generated tree of 40,000 files, one in twenty a malformed ELF file (a
# message each), long enough for the line to be drawn several times. The
# erasing itself is checked deterministically in tests/elfscan/unit/check_report.
. "$top_srcdir/tests/lib.sh"
need python3
: "${ELFSCAN:?}"

python3 - "$T/tree" <<'PY'
import os, sys
top = sys.argv[1]
for d in range(40):
    p = os.path.join(top, "d%02d" % d)
    os.makedirs(p)
    for f in range(1000):
        with open(os.path.join(p, "f%04d" % f), "wb") as fh:
            fh.write(b"\x7fELF\x09junk" if f % 20 == 0 else b"text %d\n" % f)
PY
python3 - "$ELFSCAN" "$T/tree" "$T/tty" <<'PY'
import os, pty, sys
elfscan, tree, out = sys.argv[1:]
pid, fd = pty.fork()
if pid == 0:
    os.execv(elfscan, [elfscan, "-q", "-j1", tree])
data = b""
while True:
    try:
        chunk = os.read(fd, 65536)
    except OSError:
        break
    if not chunk:
        break
    data += chunk
os.waitpid(pid, 0)
open(out, "wb").write(data)
PY
python3 - "$T/tty" >"$T/lines" <<'PY'
import sys
data = open(sys.argv[1], "rb").read().decode("utf-8", "replace")
lines = data.replace("\r\n", "\n").split("\n")
drawn = data.count("files/s")
messages = [l for l in lines if "elfscan: " in l]
print("drawn", "yes" if drawn > 0 else "no")
print("messages", len(messages))
bad = [l for l in messages if not l.rsplit("\r", 1)[-1].replace("\x1b[K", "").startswith("elfscan: ")]
print("mixed", len(bad))
for l in bad[:3]:
    print("mixed:", repr(l[-160:]))
print("left", repr(lines[-1].rsplit("\r", 1)[-1].replace("\x1b[K", "")))
PY
cat "$T/lines"
expect "every malformed file said" "$(sed -n 's/^messages //p' "$T/lines")" 2000
expect "no message on the progress line" "$(sed -n 's/^mixed //p' "$T/lines")" 0
expect "the progress line is erased at the end" "$(sed -n 's/^left //p' "$T/lines")" "''"
finish
