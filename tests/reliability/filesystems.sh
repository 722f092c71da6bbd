#!/bin/sh
# When the file system fails under chstk: a tmpfs with no free block, one
# that fills up halfway through the copy, one with no free inode, a file
# size limit (ulimit -f), a read-only tmpfs, a read-only bind mount of a
# directory, and a directory that is removed, moved or replaced, or a file
# that is replaced or changed, while chstk rewrites (failshim.so runs the
# change at the chosen step). Each failure exits 1 with one line naming
# the step and the reason, leaves the file (or whatever now holds its name)
# byte for byte as it was, leaves no temporary file, and gives back every
# block and inode it took (df's view of the tmpfs). Both kinds of temporary
# file are tried: O_TMPFILE and a named one.
. "$top_srcdir/tests/lib.sh"
need gcc mount umount dd readelf
: "${FAILSHIM:?}"
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"

mounts=
trap 'for m in $mounts; do umount "$m"; done; rm -rf "$T"' EXIT
trap 'exit 1' HUP INT TERM
# tmpfs DIR OPTIONS
tmpfs() {
	mkdir -p "$1" && mount -t tmpfs -o "$2" chstk-test "$1" &&
	    mounts="$1 $mounts"
}
tmpfs "$T/probe" size=64k 2>"$T/err" ||
    skip "this system refuses to mount a tmpfs: $(cat "$T/err")"

gcc -o "$T/prog" "$FIX/hello.c" || fail "build the program"
# A bigger program, its data random so that no part of it looks like
# another: the copy stops in the middle when the disk fills.
head -c 400000 /dev/urandom >"$T/random"
printf '\t.section .rodata\n\t.incbin "%s"\n\t.section .note.GNU-stack,"",@progbits\n' \
    "$T/random" >"$T/blob.s"
gcc -o "$T/big" "$FIX/hello.c" "$T/blob.s" || fail "build the big program"

# The free blocks and inodes of a tmpfs (the tests' own file system, which
# nothing else writes to), or nothing.
space() {
	[ "$(stat -f -c %T "$1")" = tmpfs ] &&
	    stat -f -c '%f blocks, %d inodes free' "$1"
}
# A file size limit for chstk alone (the test's cp must not be limited).
printf '#!/bin/sh\nulimit -f 4\nexec "$@"\n' >"$T/limited"
chmod +x "$T/limited"

# refused NAME FILE PATTERN [VAR=VALUE...]: chstk -e FILE fails cleanly.
refused() {
	name=$1 f=$2 pattern=$3
	shift 3
	d=$(dirname "$f")
	cp "$f" "$T/saved"
	before=$(space "$d")
	${limit:-} env "$@" LD_PRELOAD="$FAILSHIM" "$CHSTK" -e "$f" >"$T/out" 2>"$T/err"
	expect "$name: exit status" "$?" 1
	expect_match "$name: the message" "$(cat "$T/err")" "chstk: $f: $pattern"
	expect "$name: one line" "$(wc -l <"$T/err")" 1
	cmp -s "$f" "$T/saved" && pass "$name: byte-identical" ||
	    fail "$name: the file changed"
	expect "$name: no temporary file" "$(find "$d" -name '*.chstk-*' | wc -l)" 0
	expect "$name: every block and inode given back" "$(space "$d")" "$before"
}

# Fill DIR's file system, leaving KB kilobytes free.
fill() {
	avail=$(stat -f -c '%a * %S / 1024' "$1")
	kb=$(($avail - $2))
	[ "$kb" -gt 0 ] && dd if=/dev/zero of="$1/fill" bs=1k count="$kb" status=none
}

for mode in tmpfile named; do
	[ $mode = named ] && set -- FAILSHIM_NO_TMPFILE=1 || set --
	m="$mode temp"

	tmpfs "$T/$mode/full" size=1m
	cp "$T/prog" "$T/$mode/full/prog"
	fill "$T/$mode/full" 0
	refused "$m: no free block" "$T/$mode/full/prog" \
	    "cannot write temporary file: No space left on device" "$@"

	tmpfs "$T/$mode/half" size=2m
	cp "$T/big" "$T/$mode/half/big"
	fill "$T/$mode/half" 128
	refused "$m: full halfway through the copy" "$T/$mode/half/big" \
	    "cannot write temporary file: No space left on device" "$@"

	tmpfs "$T/$mode/inodes" size=1m,nr_inodes=4
	cp "$T/prog" "$T/$mode/inodes/prog"
	i=0
	while : >"$T/$mode/inodes/f$i" 2>/dev/null; do i=$((i + 1)); done
	refused "$m: no free inode" "$T/$mode/inodes/prog" \
	    "cannot create temporary file: No space left on device" "$@"

	mkdir -p "$T/$mode/limit"
	cp "$T/prog" "$T/$mode/limit/prog"
	limit=$T/limited
	refused "$m: ulimit -f" "$T/$mode/limit/prog" \
	    "cannot write temporary file: File too large" "$@"
	limit=

	tmpfs "$T/$mode/ro" size=1m
	cp "$T/prog" "$T/$mode/ro/prog"
	mount -o remount,ro "$T/$mode/ro" || fail "remount read-only"
	refused "$m: read-only tmpfs" "$T/$mode/ro/prog" \
	    "cannot create temporary file: Read-only file system" "$@"

	mkdir -p "$T/$mode/rw" "$T/$mode/robind"
	cp "$T/prog" "$T/$mode/rw/prog"
	mount --bind "$T/$mode/rw" "$T/$mode/robind" &&
	    mounts="$T/$mode/robind $mounts" &&
	    mount -o remount,bind,ro "$T/$mode/robind" || fail "bind mount read-only"
	refused "$m: read-only bind mount" "$T/$mode/robind/prog" \
	    "cannot create temporary file: Read-only file system" "$@"
	cmp -s "$T/$mode/rw/prog" "$T/prog" && pass "$m: read-only bind mount: the file beneath kept" ||
	    fail "$m: read-only bind mount: the file beneath changed"
done

# The directory disappears: removed at the last moments of the rewrite.
# gone NAME STEP PATTERN [VAR=VALUE...]
gone() {
	name=$1 call=$2 pattern=$3
	shift 3
	mkdir -p "$T/p/d"
	cp "$T/prog" "$T/p/d/prog"
	listing=$(ls -A "$T/p")
	env "$@" FAILSHIM_CALL="$call" FAILSHIM_RUN="rm -rf $T/p/d" \
	    LD_PRELOAD="$FAILSHIM" "$CHSTK" -e "$T/p/d/prog" >"$T/out" 2>"$T/err"
	expect "$name: exit status" "$?" 1
	expect "$name: the message" "$(cat "$T/err")" "chstk: $T/p/d/prog: $pattern"
	expect "$name: nothing left beside the directory" "$(ls -A "$T/p")" \
	    "$(echo "$listing" | grep -vx d)"
	expect "$name: no temporary file anywhere" "$(find "$T" -name '*.chstk-*' | wc -l)" 0
}
gone "directory removed before the sync" fsync \
    "the file was removed while it was being rewritten"
gone "directory removed before the sync, named temp" fsync \
    "the file was removed while it was being rewritten" FAILSHIM_NO_TMPFILE=1
gone "directory removed before naming the temp" linkat \
    "cannot name temporary file: No such file or directory"
gone "directory removed before the rename, named temp" renameat \
    "cannot rename temporary file over the original: No such file or directory" \
    FAILSHIM_NO_TMPFILE=1

# Moved away: the file is rewritten where it now is, and nowhere else.
mkdir -p "$T/mv/d"
cp "$T/prog" "$T/mv/d/prog"
FAILSHIM_CALL=fsync FAILSHIM_RUN="mv $T/mv/d $T/mv/moved" LD_PRELOAD="$FAILSHIM" \
    "$CHSTK" -e "$T/mv/d/prog"
expect "directory moved: exit status" "$?" 0
expect "directory moved: the file rewritten where it went" "$(readelf_stack "$T/mv/moved/prog")" RWE
expect "directory moved: it runs, with an executable stack" \
    "$("$T/mv/moved/prog" | stack_of)" "$(expected_stack exec 64)"
expect "directory moved: nothing at the old path" "$(ls -A "$T/mv")" moved
expect "directory moved: no temporary file" "$(find "$T/mv" -name '*.chstk-*' | wc -l)" 0

# Replaced by another directory holding another file of the same name:
# that file is not touched; the rewrite stays in the directory it opened.
mkdir -p "$T/rep/d"
cp "$T/prog" "$T/rep/d/prog"
gcc -no-pie -o "$T/other" "$FIX/hello.c" || fail "build the other program"
FAILSHIM_CALL=fsync LD_PRELOAD="$FAILSHIM" \
    FAILSHIM_RUN="mv $T/rep/d $T/rep/old && mkdir $T/rep/d && cp $T/other $T/rep/d/prog" \
    "$CHSTK" -e "$T/rep/d/prog" 2>"$T/err"
expect "directory replaced: exit status" "$?" 0
expect "directory replaced: the file it opened rewritten" "$(readelf_stack "$T/rep/old/prog")" RWE
cmp -s "$T/rep/d/prog" "$T/other" && pass "directory replaced: the new one's file untouched" ||
    fail "directory replaced: chstk wrote into a directory it did not open"
expect "directory replaced: no temporary file" "$(find "$T/rep" -name '*.chstk-*' | wc -l)" 0

# The file itself replaced, or changed in place, before the rename.
mkdir -p "$T/f"
cp "$T/prog" "$T/f/prog"
cp "$T/other" "$T/f/other"
FAILSHIM_CALL=fsync FAILSHIM_RUN="mv $T/f/other $T/f/prog" LD_PRELOAD="$FAILSHIM" \
    "$CHSTK" -e "$T/f/prog" 2>"$T/err"
expect "file replaced: exit status" "$?" 1
expect "file replaced: the message" "$(cat "$T/err")" \
    "chstk: $T/f/prog: the file changed while it was being rewritten"
cmp -s "$T/f/prog" "$T/other" && pass "file replaced: the replacement kept" ||
    fail "file replaced: the replacement was overwritten"
cp "$T/prog" "$T/f/prog"
cp "$T/prog" "$T/f/grown"
echo tail >>"$T/f/grown"
FAILSHIM_CALL=fsync FAILSHIM_RUN="echo tail >>$T/f/prog" LD_PRELOAD="$FAILSHIM" \
    "$CHSTK" -e "$T/f/prog" 2>"$T/err"
expect "file changed in place: exit status" "$?" 1
expect "file changed in place: the message" "$(cat "$T/err")" \
    "chstk: $T/f/prog: the file changed while it was being rewritten"
cmp -s "$T/f/prog" "$T/f/grown" && pass "file changed in place: the change kept" ||
    fail "file changed in place: the change was lost"
expect "files changed: no temporary file" "$(find "$T/f" -name '*.chstk-*' | wc -l)" 0
finish
