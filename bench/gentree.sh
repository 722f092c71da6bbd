#!/bin/sh
# bench/gentree.sh - make a tree of many small files for the memory check:
#
#   bench/gentree.sh DIR [FILES]     default: 1,000,000 files
#
# 1,000 files a directory, in directories two levels deep. Most files are
# empty or a few bytes of text; one in a thousand is a copy of a real ELF
# program, one in ten thousand a program without PT_GNU_STACK.
set -eu
dir=${1:?usage: gentree.sh DIR [FILES]}
n=${2:-1000000}
elf=${ELF:-/usr/bin/true}
mkdir -p "$dir"
python3 - "$dir" "$n" "$elf" <<'PY'
import os, sys
top, n, elf = sys.argv[1], int(sys.argv[2]), sys.argv[3]
data = open(elf, "rb").read()
# The same program with its PT_GNU_STACK entry turned into PT_NULL (a test
# fixture for the scanner only: it is not run).
unmarked = bytearray(data)
phoff = int.from_bytes(data[32:40], "little")
phnum = int.from_bytes(data[56:58], "little")
for i in range(phnum):
    at = phoff + 56 * i
    if int.from_bytes(data[at:at + 4], "little") == 0x6474e551:
        unmarked[at:at + 56] = bytes(56)
for i in range(n):
    d = os.path.join(top, f"{i // 100000:02d}", f"{i // 1000 % 100:02d}")
    if i % 1000 == 0:
        os.makedirs(d, exist_ok=True)
    p = os.path.join(d, f"f{i % 1000:03d}")
    with open(p, "wb") as f:
        if i % 10000 == 5000:
            f.write(unmarked)
        elif i % 1000 == 500:
            f.write(data)
        elif i % 10 == 0:
            f.write(b"some text %d\n" % i)
PY
echo "$dir: $n files"
