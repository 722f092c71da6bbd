#!/bin/sh
# A file marked immutable or append-only (chattr +i, +a), or one in a
# directory so marked, cannot be renamed over: chstk refuses it before it
# writes anything, with one line that says which attribute, and the file
# keeps its bytes and inode. strace shows it made no temporary file and
# tried no rename; lsattr shows the attribute was set. A file already as
# asked is left alone without an error, and once the attribute is cleared
# the same file is rewritten. The file system is an ext4 image of the
# test's own on a loop device, the same on every machine (tmpfs has these
# attributes only since Linux 6.0); like the other tests that mount, it
# needs root.
. "$top_srcdir/tests/lib.sh"
need gcc readelf mkfs.ext4 mount umount chattr lsattr strace

mounted=
trap '[ -n "$mounted" ] && umount "$mounted"; rm -rf "$T"' EXIT
trap 'exit 1' HUP INT TERM
mkdir "$T/fs"
truncate -s 8M "$T/ext4.img" && mkfs.ext4 -q -F "$T/ext4.img" ||
    fail "make the ext4 image"
mount -o loop "$T/ext4.img" "$T/fs" 2>"$T/err" ||
    skip "this system refuses to mount an ext4 image: $(cat "$T/err")"
mounted=$T/fs

gcc -o "$T/prog" "$FIX/hello.c" || fail "build the program"
expect "the program starts noexec, by readelf" "$(readelf_stack "$T/prog")" RW

# refused NAME FLAG WHERE MESSAGE: with chattr +FLAG on the file (WHERE
# file) or its directory (WHERE dir), chstk -e fails cleanly.
refused() {
	name=$1 flag=$2 where=$3 message=$4
	d=$T/fs/$name
	mkdir "$d"
	cp "$T/prog" "$d/prog"
	target=$d/prog
	[ "$where" = dir ] && target=$d
	chattr "+$flag" "$target" || fail "$name: chattr +$flag"
	expect_match "$name: lsattr shows +$flag" \
	    "$(lsattr -d "$target" | cut -d' ' -f1)" "*$flag*"
	inode=$(stat -c %i "$d/prog")
	# A build under the sanitizers: LeakSanitizer cannot work under
	# ptrace, so this one run does not look for leaks (the others do).
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
	    strace -f -qq -e trace=openat,linkat,renameat,renameat2 \
	    -o "$T/trace" "$CHSTK" -e "$d/prog" >"$T/out" 2>"$T/err"
	expect "$name: exit status" "$?" 1
	expect "$name: the message" "$(cat "$T/err")" "chstk: $d/prog: $message"
	cmp -s "$d/prog" "$T/prog" && pass "$name: byte-identical" ||
	    fail "$name: the file changed"
	expect "$name: same inode" "$(stat -c %i "$d/prog")" "$inode"
	expect "$name: no temporary file made, by strace" \
	    "$(grep -c -e O_TMPFILE -e '\.chstk-' "$T/trace")" 0
	expect "$name: no rename tried, by strace" \
	    "$(grep -c '^[0-9]* *rename' "$T/trace")" 0
	expect "$name: a file already as asked is left alone" \
	    "$("$CHSTK" -E "$d/prog" 2>&1; echo "status $?")" "status 0"
	chattr "-$flag" "$target" || fail "$name: chattr -$flag"
	"$CHSTK" -e "$d/prog" || fail "$name: chstk -e once cleared"
	expect "$name: rewritten once cleared, by readelf" "$(readelf_stack "$d/prog")" RWE
	expect "$name: nothing left beside it" "$(ls -A "$d")" prog
}

refused immutable i file "cannot rewrite: the file is immutable (chattr +i)"
refused append-only a file "cannot rewrite: the file is append-only (chattr +a)"
refused immutable-dir i dir "cannot rewrite: its directory is immutable (chattr +i)"
refused append-only-dir a dir "cannot rewrite: its directory is append-only (chattr +a)"
finish
