#!/bin/sh
# What elfscan asks of the kernel for each file, as strace sees it: one
# read of the head tells what a file is and holds the ELF header and
# program headers, which the library takes from it (chstk_scan_fd_with, its head);
# a shared object or PIE adds one read for its dynamic section; an object
# is served by the library's blocks, one read per block at most for a small
# one; an archive's small members are read in runs of four blocks; a text
# file costs its one read, and one more that finds its end when it is
# shorter than the bytes that tell a format; a program one fstat, for
# whether it is cut short. Those counts are the reader's
# that makes one system call after another (ELFSCAN_READER=threads): the
# io_uring reader opens, reads and closes the heads through its rings,
# which strace does not see, and the library's reads after the head are
# the same. Counts of system calls, not times: the verdict does not depend
# on the machine's load.
. "$top_srcdir/tests/lib.sh"
need gcc ar strace readelf stat
: "${ELFSCAN:?}"

D=$T/tree
mkdir -p "$D" "$T/objs"
gcc -o "$D/pie" "$FIX/hello.c" &&
    gcc -no-pie -o "$D/nopie" "$FIX/hello.c" &&
    gcc -static -o "$D/static" "$FIX/hello.c" &&
    gcc -shared -fPIC -o "$D/lib.so" "$FIX/lib.c" &&
    gcc -c -o "$D/one.o" "$FIX/lib.c" ||
    fail "build the tree"
# An archive of forty objects: more blocks than the library keeps.
i=0
while [ "$i" -lt 40 ]; do
	cp "$D/one.o" "$T/objs/m$i.o"
	i=$((i + 1))
done
(cd "$T/objs" && ar rcS "$D/many.a" m*.o) || fail "build the archive"
printf 'hello\n' >"$D/text"
printf 'a line of text longer than the head of an ar archive\n' >"$D/notes"

# -y names the file behind each descriptor; -ff follows the libtool
# wrapper's exec and elfscan's threads, each to its own file, so that no
# call is split across lines.
ELFSCAN_READER=threads strace -ff -y -qq -o "$T/trace" "$ELFSCAN" -q --no-progress "$D" >/dev/null 2>"$T/err"
cat "$T"/trace.* >"$T/calls"
expect "elfscan ran under strace" "$(grep -c '^pread64(' "$T/calls" | awk '$1 > 0 { print "yes" }')" yes

# calls NAME SYSCALL: how many times SYSCALL read the file NAME of the tree.
calls() { grep -c "^$2([0-9]*<$D/$1>" "$T/calls"; }
# bytes NAME: the bytes pread64 returned from it.
bytes() {
	grep "^pread64([0-9]*<$D/$1>" "$T/calls" | awk '{ s += $NF } END { print s + 0 }'
}
# others NAME: the system calls that touched it but open, pread64, fstat
# and close.
others() {
	grep "<$D/$1>" "$T/calls" | sed 's/(.*//' |
	    grep -vxE 'openat|pread64|newfstatat|close' | sort -u | tr '\n' ' '
}
blocks() { echo $((($(stat -c %s "$D/$1") + 4095) / 4096)); }

for f in pie nopie static lib.so one.o many.a text notes; do
	expect "$f: only opened, read with pread64, fstat'ed and closed" "$(others "$f")" ""
done
expect "notes: one read" "$(calls notes pread64)" 1
expect "text, 6 bytes: its read and one that finds its end" "$(calls text pread64)" 2
expect "a program without a dynamic section: one read" "$(calls static pread64)" 1
expect "nopie: one read (ET_EXEC: its dynamic section is not read)" "$(calls nopie pread64)" 1
# The dynamic section says whether an ET_DYN file is a program: unless it
# lies in the head, it costs a read.
for f in pie lib.so; do
	dyn=$(readelf -lW "$D/$f" | awk '$1 == "DYNAMIC" { print $2 }')
	want=2
	[ $((dyn + 0)) -lt 4096 ] && want=1
	expect "$f: the head and the dynamic section (at $dyn)" "$(calls "$f" pread64)" "$want"
done
n=$(calls one.o pread64)
expect "one.o: the head, then one read per block at most, $n for $(blocks one.o) blocks" \
    "$(echo "$n" | awk -v b="$(blocks one.o)" '$1 > 0 && $1 <= b + 1 { print "yes" }')" yes
n=$(calls many.a pread64)
expect "many.a: small members in runs, one read per four blocks and the head, $n for $(blocks many.a) blocks" \
    "$(echo "$n" | awk -v b="$(blocks many.a)" '$1 > 0 && $1 <= (b + 3) / 4 + 2 { print "yes" }')" yes
expect "many.a: read once or so, not byte by byte" \
    "$(bytes many.a | awk -v s="$(stat -c %s "$D/many.a")" '$1 <= 2 * s + 8192 { print "yes" }')" yes
# elfscan vouches that what it lists is a regular file: the library asks
# a file's size only for a check that the bytes it read cannot answer:
# whether a program's segments and section headers lie within it (one
# question, at the furthest end), never for a text file.
for f in pie nopie static lib.so; do
	expect "$f: one fstat, whether its segments lie within it" \
	    "$(calls "$f" newfstatat)" 1
done
expect "text: no fstat" "$(calls text newfstatat)" 0
expect "many.a: one fstat, its members are checked against its size" "$(calls many.a newfstatat)" 1

# The io_uring reader: the same reads after the head, and no system call
# of its own for a file but those the library makes.
cp "$T/calls" "$T/threads"
"$ELFSCAN" --version | grep -qx 'reader: io_uring' ||
    { echo "note: $("$ELFSCAN" --version | sed -n 's/^reader: //p'): the io_uring reader is not checked here"; finish; }
# library_reads NAME: the reads of NAME in the threads' trace but those of
# its head, the 1024 bytes from offset 0 (read on from where a read ended).
library_reads() {
	grep "^pread64([0-9]*<$D/$1>" "$T/threads" |
	    sed -n 's/.*, \([0-9]*\), \([0-9]*\)) = .*/\1 \2/p' |
	    awk '$1 + $2 != 1024' | grep -c .
}
rm -f "$T"/trace.*
strace -ff -y -qq -o "$T/trace" "$ELFSCAN" -q --no-progress "$D" >/dev/null 2>"$T/err"
cat "$T"/trace.* >"$T/calls"
expect "io_uring: the rings were entered" "$(grep -c '^io_uring_enter(' "$T/calls" | awk '$1 > 0 { print "yes" }')" yes
# opens NAME TRACE: the openat and close calls of NAME in TRACE.
opens() {
	grep -c -e "^openat([0-9]*<$D>, \"$1\"" -e "^close([0-9]*<$D/$1>)" "$2"
}
for f in pie nopie static lib.so one.o many.a text notes; do
	expect "threads: $f: opened and closed by system calls" "$(opens "$f" "$T/threads")" 2
	expect "io_uring: $f: not opened or closed by a system call" "$(opens "$f" "$T/calls")" 0
	expect "io_uring: $f: the library's reads, those of the head left out" \
	    "$(calls "$f" pread64)" "$(library_reads "$f")"
done
finish
