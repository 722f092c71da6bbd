#!/bin/sh
# Files over 4 GiB on a 32-bit host (HOST_RUN: the i386 build). A sparse
# copy of a real x86-64 program with its program and section header tables
# moved past 4 GiB is read, and rewritten by -e then -d (4 GiB written each
# time): readelf reads the marking at 4 GiB after each, the result is byte
# for byte what this machine's chstk makes, and elfscan reports alike. An archive member
# claiming 4 GiB and 64 bytes (the archive is that big) is scanned in place,
# and refused with a clear message when it would have to be read whole, the
# archive untouched: its size does not fit a 32-bit size_t.
. "$top_srcdir/tests/lib.sh"
: "${ELFSCAN:?}" "${HOST_RUN:?}"
need gcc python3 readelf cmp

gcc -o "$T/prog" "$FIX/hello.c" && gcc -c -o "$T/lib.o" "$FIX/lib.c" ||
    fail "build the fixtures"
# The headers' tables copied to FAR (4 GiB and 64 KiB) and FAR + 4 KiB,
# e_phoff, e_shoff and PT_PHDR's offset pointed there; a hole between.
python3 - "$T/prog" "$T/big" "$T/native" <<'EOF' || fail "build the big program"
import struct, sys
FAR = (4 << 30) + (64 << 10)
d = bytearray(open(sys.argv[1], "rb").read())
phoff, shoff = struct.unpack_from("<QQ", d, 32)
phentsize, phnum, shentsize, shnum = struct.unpack_from("<HHHH", d, 54)
ph = d[phoff:phoff + phentsize * phnum]
sh = d[shoff:shoff + shentsize * shnum]
for i in range(phnum):
    if struct.unpack_from("<I", ph, i * phentsize)[0] == 6:  # PT_PHDR
        struct.pack_into("<Q", ph, i * phentsize + 8, FAR)
struct.pack_into("<QQ", d, 32, FAR, FAR + 4096)
for name in sys.argv[2:]:
    with open(name, "wb") as f:
        f.write(d)
        f.seek(FAR)
        f.write(ph)
        f.seek(FAR + 4096)
        f.write(sh)
EOF
expect "the program header table past 4 GiB, by readelf" \
    "$(readelf -hW "$T/big" 2>/dev/null | awk '/Start of program headers/ { print ($5 >= 4294967296) }')" 1
expect "as built: noexec, by readelf" "$(readelf_stack "$T/big")" RW
for opt in -e -d; do
	expect "i386: chstk $opt: status" "$($HOST_RUN chstk "$opt" "$T/big"; echo $?)" 0
	expect "i386: chstk $opt: by readelf" "$(readelf_stack "$T/big")" \
	    "$([ $opt = -e ] && echo RWE || echo none)"
	"$CHSTK" "$opt" "$T/native"
	expect "i386: chstk -q after $opt" "$($HOST_RUN chstk -q "$T/big")" \
	    "$("$CHSTK" -q "$T/native" | sed 's/native$/big/')"
done
expect "i386: chstk -e, -d: the bytes of this machine's chstk" \
    "$(cmp "$T/big" "$T/native" && echo same)" same
rm -f "$T/native"
expect "i386: elfscan reads it as this machine's does" \
    "$($HOST_RUN elfscan --format=json --no-progress "$T/big" 2>&1; echo $?)" \
    "$("$ELFSCAN" --format=json --no-progress "$T/big" 2>&1; echo $?)"

# "!<arch>\n", a member header claiming 4 GiB + 64 bytes, an object, a hole.
size=$(((4 << 30) + 64))
printf '!<arch>\n%-16s%-12s%-6s%-6s%-8s%-10s`\n' big.o/ 0 0 0 644 "$size" \
    >"$T/big.a"
cat "$T/lib.o" >>"$T/big.a"
truncate -s $((8 + 60 + size)) "$T/big.a"
before=$(stamp "$T/big.a")
expect "i386: elfscan scans the member in place as this machine's does" \
    "$($HOST_RUN elfscan --format=json --no-progress "$T/big.a" 2>&1; echo $?)" \
    "$("$ELFSCAN" --format=json --no-progress "$T/big.a" 2>&1; echo $?)"
out=$($HOST_RUN chstk -e "$T/big.a" 2>&1)
expect "i386: chstk -e: status 1" "$?" 1
expect_match "i386: chstk -e: the member's size refused" "$out" \
    "chstk: $T/big.a: member big.o: cannot read: $size bytes do not fit in this machine's address space"
expect "i386: chstk -e: the archive untouched" "$(stamp "$T/big.a")" "$before"
finish
