#!/bin/sh
# Every step of the write path, made to fail in turn by failshim.so: the
# creation of the temporary file, the copy (copy_file_range and pwrite),
# the truncation libelf does, fsync, fchown, fchmod, the copy of extended
# attributes, the naming of an O_TMPFILE (linkat) and the rename. Each
# time chstk exits 1 with one line naming the step and the system's
# reason, the file keeps its bytes, owner, mode and attributes, and no
# temporary file is left. Both ways of making the temporary file are
# tried: O_TMPFILE and a named ".NAME.chstk-XXXXXX" (as on file systems
# without O_TMPFILE). Programs, objects (flags flipped in place, or the
# note added by libelf's rebuild) and archives take different paths to
# the temporary file; each is tried. Where a step has a fallback (an
# O_TMPFILE named through /proc, a copy without copy_file_range) the
# fallback's result must be the same file an unimpeded chstk writes.
. "$top_srcdir/tests/lib.sh"
need gcc as ar cmp setfattr getfattr
: "${FAILSHIM:?}"
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"

mkdir "$T/src" "$T/w" "$T/ref"
gcc -o "$T/src/prog" "$FIX/hello.c" &&
    gcc -c -o "$T/src/note.o" "$FIX/lib.c" &&
    printf '\t.text\n\tret\n' | as -o "$T/src/nonote.o" &&
    (cd "$T/src" && ar rc lib.a note.o nonote.o) || fail "build the fixtures"
# What an unimpeded chstk -e writes, for the fallbacks to match.
for f in prog note.o nonote.o lib.a; do
	cp "$T/src/$f" "$T/ref/$f"
	"$CHSTK" -e "$T/ref/$f" || fail "chstk -e $f"
done

# What must not change: the bytes, and the owner, mode and attributes.
meta() { stat -c '%u:%g %a %i' "$1"; getfattr -d -m - --absolute-names "$1" 2>/dev/null | sed 1d; }

# fault NAME FILE PATTERN VAR=VALUE...: chstk -e fails at the step the
# variables select, with a message matching PATTERN, and leaves no trace.
fault() {
	name=$1 f=$2 pattern=$3
	shift 3
	cp -p "$T/src/$f" "$T/w/$f"
	[ -n "${owner:-}" ] && chown "$owner" "$T/w/$f"
	[ -n "${xattr:-}" ] && setfattr -n user.reliability -v kept "$T/w/$f"
	before=$(meta "$T/w/$f")
	env "$@" LD_PRELOAD="$FAILSHIM" "$CHSTK" -e "$T/w/$f" >"$T/out" 2>"$T/err"
	expect "$name: exit status" "$?" 1
	expect_match "$name: the message names the step" "$(cat "$T/err")" \
	    "chstk: $T/w/$f: $pattern"
	expect "$name: one line" "$(wc -l <"$T/err")" 1
	cmp -s "$T/w/$f" "$T/src/$f" && pass "$name: byte-identical" ||
	    fail "$name: the file changed"
	expect "$name: owner, mode, inode, attributes" "$(meta "$T/w/$f")" "$before"
	expect "$name: no temporary file" "$(find "$T/w" -name '*.chstk-*' | wc -l)" 0
	rm -f "$T/w/$f"
}

# works NAME FILE VAR=VALUE...: a failure with a fallback; chstk -e
# succeeds and writes what an unimpeded chstk writes.
works() {
	name=$1 f=$2
	shift 2
	cp "$T/src/$f" "$T/w/$f"
	env "$@" LD_PRELOAD="$FAILSHIM" "$CHSTK" -e "$T/w/$f" 2>"$T/err"
	expect "$name: exit status" "$?" 0
	expect "$name: nothing on stderr" "$(cat "$T/err")" ""
	cmp -s "$T/w/$f" "$T/ref/$f" && pass "$name: the same result" ||
	    fail "$name: not what chstk writes unimpeded"
	expect "$name: no temporary file" "$(find "$T/w" -name '*.chstk-*' | wc -l)" 0
	rm -f "$T/w/$f"
}

for mode in tmpfile named; do
	[ $mode = named ] && set -- FAILSHIM_NO_TMPFILE=1 || set --
	m="$mode temp"
	fault "$m: create" prog "cannot create temporary file: Input/output error" \
	    "$@" FAILSHIM_CALL=openat
	fault "$m: create, disk full" prog "cannot create temporary file: No space left on device" \
	    "$@" FAILSHIM_CALL=openat FAILSHIM_ERRNO=ENOSPC
	for f in prog note.o lib.a; do
		fault "$m: $f: copy_file_range" "$f" "cannot write temporary file: Input/output error" \
		    "$@" FAILSHIM_CALL=copy_file_range
		fault "$m: $f: pwrite" "$f" "cannot write temporary file: Input/output error" \
		    "$@" FAILSHIM_CALL=pwrite
		fault "$m: $f: pwrite while copying" "$f" "cannot write temporary file: No space left on device" \
		    "$@" FAILSHIM_NO_COPY_FILE_RANGE=1 FAILSHIM_CALL=pwrite FAILSHIM_ERRNO=ENOSPC
		fault "$m: $f: the last pwrite, quota" "$f" "cannot write temporary file: Disk quota exceeded" \
		    "$@" FAILSHIM_NO_COPY_FILE_RANGE=1 FAILSHIM_CALL=pwrite FAILSHIM_NTH=2 FAILSHIM_COUNT=0 FAILSHIM_ERRNO=EDQUOT
		works "$m: $f: no copy_file_range" "$f" "$@" FAILSHIM_NO_COPY_FILE_RANGE=1
	done
	fault "$m: nonote.o: libelf's pwrite" nonote.o "cannot write temporary file: Input/output error" \
	    "$@" FAILSHIM_CALL=pwrite
	fault "$m: nonote.o: libelf's ftruncate" nonote.o "cannot write temporary file: File too large" \
	    "$@" FAILSHIM_CALL=ftruncate FAILSHIM_ERRNO=EFBIG
	for f in prog nonote.o lib.a; do
		fault "$m: $f: fsync" "$f" "cannot sync temporary file: Input/output error" \
		    "$@" FAILSHIM_CALL=fsync
		fault "$m: $f: rename" "$f" "cannot rename temporary file over the original: Input/output error" \
		    "$@" FAILSHIM_CALL=renameat
	done
	owner=nobody:nogroup
	fault "$m: fchown" prog "cannot keep owner and group: Operation not permitted" \
	    "$@" FAILSHIM_CALL=fchown FAILSHIM_ERRNO=EPERM
	owner=
	fault "$m: fchmod" prog "cannot keep mode: Operation not permitted" \
	    "$@" FAILSHIM_CALL=fchmod FAILSHIM_ERRNO=EPERM
	xattr=yes
	fault "$m: fsetxattr" prog "cannot copy extended attribute user.reliability: No space left on device" \
	    "$@" FAILSHIM_CALL=fsetxattr FAILSHIM_ERRNO=ENOSPC
	xattr=
done

# Naming the O_TMPFILE: linkat with AT_EMPTY_PATH, then through /proc.
fault "linkat, both ways" prog "cannot name temporary file: Input/output error" \
    FAILSHIM_CALL=linkat FAILSHIM_COUNT=0
works "linkat, the first way only" prog FAILSHIM_CALL=linkat
finish
