#!/bin/sh
# Bad input gets a clear error and loses nothing: for each kind of broken,
# unsupported or inaccessible file, chstk exits 1 with "chstk: FILE: reason",
# the file stays byte for byte as it was, no temporary file is left, and the
# other files on the command line are still processed.
. "$top_srcdir/tests/lib.sh"
need gcc readelf setpriv timeout

gcc -o "$T/prog" "$FIX/hello.c" && gcc -c -o "$T/obj.o" "$FIX/lib.c" || fail "build"
mkdir "$T/d"

# refused FILE OPTION MESSAGE-PATTERN: chstk fails cleanly on FILE
refused() {
	[ -f "$1" ] && cp "$1" "$T/saved"
	timeout $hang "$CHSTK" "$2" "$1" >"$T/out" 2>"$T/err"
	status=$?
	expect "$(basename "$1") $2: exit status" "$status" 1
	expect_match "$(basename "$1") $2: message" "$(cat "$T/err")" "chstk: $1: $3"
	if [ -f "$1" ]; then
		cmp -s "$1" "$T/saved" && pass "$(basename "$1") $2: byte-identical" ||
		    fail "$(basename "$1") $2: the file changed"
	fi
	expect "$(basename "$1") $2: no temporary file" \
	    "$(find "$T" -name '*.chstk-*' | wc -l)" 0
}

printf 'just text\n' >"$T/d/text"
refused "$T/d/text" -E "not an ELF file"
: >"$T/d/empty"
refused "$T/d/empty" -e "not an ELF file"
head -c 30 "$T/prog" >"$T/d/short"
refused "$T/d/short" -E "ELF header runs past the end of the file"
head -c 200 "$T/prog" >"$T/d/cut"
refused "$T/d/cut" -e "program header table runs past the end of the file"
refused "$T/d/cut" -v "program header table runs past the end of the file"

cp "$T/prog" "$T/d/entsize"
poke "$T/d/entsize" 54 '\040'
refused "$T/d/entsize" -e "program header table entry size is 32, not 56"
cp "$T/prog" "$T/d/phoff"
poke "$T/d/phoff" 32 '\000\377\377\377\377\377\377\377'
refused "$T/d/phoff" -e "program header table runs past the end of the file"
cp "$T/prog" "$T/d/phnum"
poke "$T/d/phnum" 56 '\376\377'
refused "$T/d/phnum" -E "program header table runs past the end of the file"
cp "$T/prog" "$T/d/class"
poke "$T/d/class" 4 '\003'
refused "$T/d/class" -e "invalid ELF class 3"
cp "$T/prog" "$T/d/core"
poke "$T/d/core" 16 '\004'
refused "$T/d/core" -e "cannot mark a core file"
expect "a core file can still be viewed" "$("$CHSTK" -q "$T/d/core")" "- $T/d/core"

cp "$T/obj.o" "$T/d/shoff.o"
poke "$T/d/shoff.o" 40 '\000\000\000\001\000\000\000\000'
refused "$T/d/shoff.o" -d "section header table runs past the end of the file"
cp "$T/obj.o" "$T/d/strndx.o"
poke "$T/d/strndx.o" 62 '\310\000'
refused "$T/d/strndx.o" -e "section name table index 200 out of range"

(cd "$T" && ar rc d/lib.a obj.o)
head -c 100 "$T/d/lib.a" >"$T/d/cut.a"
refused "$T/d/cut.a" -e "archive member header runs past the end of the file"
cp "$T/d/lib.a" "$T/d/badhdr.a"
poke "$T/d/badhdr.a" 66 'xx'
refused "$T/d/badhdr.a" -e "member at offset 8: bad header"

refused "$T/d" -e "not a regular file"
mkfifo "$T/d/fifo"
refused "$T/d/fifo" -e "not a regular file"
refused "$T/d/fifo" -q "not a regular file"
# One missing file, one message, whatever the option and wherever the
# path ends: a missing file, a missing directory on the way, a dangling
# symbolic link.
ln -s none "$T/d/dangling"
for missing in "$T/d/none" "$T/d/nodir/none" "$T/d/dangling"; do
	for opt in -e -E -d -v -q; do
		"$CHSTK" $opt "$missing" >"$T/out" 2>"$T/err"
		status=$?
		name="missing file, $opt ${missing#$T/d/}"
		expect "$name: exit status" "$status" 1
		expect "$name: message" "$(cat "$T/err")" \
		    "chstk: $missing: cannot open: No such file or directory"
	done
done

# A failure on one file does not stop the others.
cp "$T/prog" "$T/d/good"
"$CHSTK" -e "$T/d/text" "$T/d/good" 2>/dev/null
expect "one bad file among two: exit status" "$?" 1
expect "one bad file among two: the good one changed" "$(readelf_stack "$T/d/good")" RWE

# What root would pass through: a file nobody cannot read, a directory
# nobody cannot write.
nobody_setup
mkdir "$T/ro"
cp "$T/prog" "$T/ro/prog"
chown -R nobody:nogroup "$T/ro"
chmod 555 "$T/ro"
cp "$T/ro/prog" "$T/saved"
as_nobody "$N/bin/chstk" -e "$T/ro/prog" 2>"$T/err"
expect "read-only directory: exit status" "$?" 1
expect "read-only directory: message" "$(cat "$T/err")" \
    "chstk: $T/ro/prog: cannot create temporary file: Permission denied"
cmp -s "$T/ro/prog" "$T/saved" && pass "read-only directory: byte-identical" ||
    fail "read-only directory: the file changed"
expect "read-only directory: -q still works" \
    "$(as_nobody "$N/bin/chstk" -q "$T/ro/prog")" "- $T/ro/prog"
mkdir "$T/rw"
cp "$T/prog" "$T/rw/secret"
chmod 600 "$T/rw/secret"
chown nobody:nogroup "$T/rw"
as_nobody "$N/bin/chstk" -e "$T/rw/secret" 2>"$T/err"
expect "unreadable file: exit status" "$?" 1
expect "unreadable file: message" "$(cat "$T/err")" \
    "chstk: $T/rw/secret: cannot open: Permission denied"
expect "unreadable file: no temporary file" "$(ls -A "$T/rw")" secret

# What a user may rewrite is what execstack(8) may: a file in a directory
# the user can write, given back its owner and mode. (prelink's execstack,
# built from its last source and run as nobody, rewrites a mode 0444 file
# nobody owns into a new inode and exits 0, and fails on a file owned by
# root when it gives the new file root's owner.) Only the directory's write
# permission counts, not the file's: a read-only file the user owns is
# rewritten and stays read-only; one owned by someone else is refused,
# since its owner cannot be kept, and stays as it was.
mkdir "$T/own"
cp "$T/prog" "$T/own/mine"
cp "$T/prog" "$T/own/roots"
chmod 444 "$T/own/mine" "$T/own/roots"
chown nobody:nogroup "$T/own" "$T/own/mine"
inode=$(stat -c %i "$T/own/mine")
as_nobody "$N/bin/chstk" -e "$T/own/mine" 2>"$T/err"
expect "read-only file of one's own: exit status" "$?" 0
expect "read-only file of one's own: rewritten, by readelf" "$(readelf_stack "$T/own/mine")" RWE
expect "read-only file of one's own: still 0444 and nobody's" \
    "$(stat -c '%a %U' "$T/own/mine")" "444 nobody"
[ "$(stat -c %i "$T/own/mine")" != "$inode" ] &&
    pass "read-only file of one's own: a new inode" ||
    fail "read-only file of one's own: the same inode"
inode=$(stat -c %i "$T/own/roots")
as_nobody "$N/bin/chstk" -e "$T/own/roots" 2>"$T/err"
expect "someone else's file: exit status" "$?" 1
expect "someone else's file: message" "$(cat "$T/err")" \
    "chstk: $T/own/roots: cannot keep owner and group: Operation not permitted"
cmp -s "$T/own/roots" "$T/prog" && pass "someone else's file: byte-identical" ||
    fail "someone else's file: the file changed"
expect "someone else's file: same inode" "$(stat -c %i "$T/own/roots")" "$inode"
expect "someone else's file: no temporary file" "$(ls -A "$T/own")" "mine
roots"
finish
