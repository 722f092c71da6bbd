#!/bin/sh
# elfscan's options and exit statuses: -q, -0 into chstk --files-from (after
# which only W^X findings remain), --summary's counts, --allow, -x, the
# default roots, and status 0, 1 and 2 (bad option, missing path, a
# directory the user cannot read, with 2 winning over 1).
. "$top_srcdir/tests/lib.sh"
need gcc clang ld.lld nasm setpriv python3
: "${ELFSCAN:?}"
S() { "$ELFSCAN" --no-progress "$@"; }

D=$T/tree
mkdir -p "$D/a" "$D/b"
LLD="clang -fuse-ld=lld -Wl,-z,nognustack"
gcc -o "$D/a/clean" "$FIX/hello.c" &&
    gcc -z execstack -o "$D/a/exec" "$FIX/hello.c" &&
    $LLD -shared -fPIC -o "$D/b/libabsent.so" "$FIX/lib.c" &&
    nasm -f bin -DPFLAGS=7 -o "$D/b/wx" "$FIX/tiny64.asm" || fail "build"

mkdir "$T/clean" && cp "$D/a/clean" "$T/clean/"
S "$T/clean" >/dev/null
expect "a clean tree: exit 0" "$?" 0
S "$D" >/dev/null
expect "findings: exit 1" "$?" 1
S --bogus "$D" >/dev/null 2>&1
expect "a bad option: exit 2" "$?" 2
S --format=xml "$D" >/dev/null 2>&1
expect "a bad format: exit 2" "$?" 2
S "$D" "$T/missing" >/dev/null 2>"$T/err"
expect "a missing path: exit 2, though findings" "$?" 2
expect_match "a missing path: said" "$(cat "$T/err")" "*missing: cannot stat: No such file or directory*"

expect "-q: only files with findings" "$(S -q --no-header "$D" | awk '{ print $NF }' | sort | tr '\n' ' ')" \
    "$D/a/exec $D/b/libabsent.so $D/b/wx "
expect "-q on a clean tree prints nothing" "$(S -q "$T/clean")" ""
expect "-0: NUL-separated paths with findings" \
    "$(S -0 "$D" | tr '\0' '\n' | sort | tr '\n' ' ')" "$D/a/exec $D/b/libabsent.so $D/b/wx "

# --summary counts what it saw.
S -q --summary "$D" >"$T/sum"
expect_match "--summary in text" "$(tail -1 "$T/sum")" "4 files in 3 directories, 4 ELF images: 1 exec, 1 noexec, 2 absent; 3 with an executable stack, 3 with findings, 0 allowed, 0 errors; *"
expect "--summary in JSON" "$(S --format=json --summary "$D" | python3 -c '
import json, sys
s = [json.loads(l) for l in sys.stdin][-1]["summary"]
print(s["files"], s["images"], s["exec"], s["noexec"], s["absent"], s["with_findings"])')" \
    "4 4 1 1 2 3"

# --allow: the allowed files keep their W^X finding, nothing else; the
# others keep all theirs.
printf '# allowed an executable stack\n\n%s/b/*\n' "$D" >"$T/allow"
S -q --allow "$T/allow" --format=json "$D" >"$T/allowed.json"
expect "--allow waives the stack findings" "$(python3 -c '
import json, sys
for l in open(sys.argv[1]):
    r = json.loads(l); print(r["path"].split("/")[-1], r["allowed"], ",".join(r["findings"]))' "$T/allowed.json" | sort)" \
    "exec False exec-stack
wx True wx-segment"
S --allow "$T/no-such-list" "$D" >/dev/null 2>&1
expect "--allow with a missing list: exit 2" "$?" 2

# -x stays on one file system: a tmpfs mounted inside is skipped.
mkdir "$D/mnt"
if mount -t tmpfs chstk-test "$D/mnt" 2>/dev/null; then
	cp "$D/a/exec" "$D/mnt/exec-elsewhere"
	expect "without -x the mount is scanned" "$(S -q "$D" | grep -c exec-elsewhere)" 1
	expect "-x skips it" "$(S -q -x "$D" | grep -c exec-elsewhere)" 0
	umount "$D/mnt"
else
	echo "note: cannot mount a tmpfs here; -x checked on one file system only"
	expect "-x scans its own file system" "$(S -q -x "$D" | grep -c 'a/exec')" 1
fi

# Without a path: $PATH and the linker's directories. $PATH holds only
# the test's directories, so the program itself is run, not libtool's
# wrapper (a shell script that needs the system's tools on $PATH).
mkdir "$T/pathdir" "$T/pathdir2" && cp "$D/a/exec" "$T/pathdir/exec-on-path" &&
    cp "$D/a/exec" "$T/pathdir2/exec-on-path2"
real=$(dirname "$ELFSCAN")/.libs/elfscan
[ -x "$real" ] || real=$ELFSCAN
libs=$top_builddir/lib/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
expect "no path: the programs of \$PATH" \
    "$(PATH="$T/pathdir:$T/pathdir2" LD_LIBRARY_PATH=$libs "$real" --no-progress -q 2>"$T/err" |
    grep -o 'exec-on-path.*' | sort | tr '\n' ' ')" "exec-on-path exec-on-path2 "
expect "no path: nothing said of a missing tool" "$(grep "not found" "$T/err")" ""
expect "no path: the linker's directories" \
    "$(PATH="$T/pathdir" LD_LIBRARY_PATH=$libs "$real" --no-progress --format=json 2>/dev/null |
    grep -c '"path":"[^"]*/x86_64-linux-gnu/libc.so.6"')" 1

# The pipe of the man page, on a copy: mark everything found noexec. The
# W^X finding remains: it is not a marking chstk can change.
cp -a "$D" "$T/copy"
S -0 "$T/copy" | "$CHSTK" -E --files-from - -0
expect "-0 into chstk -E: done" "$?" 0
expect "after chstk -E, only W^X is left" \
    "$(S -q --format=json "$T/copy" | python3 -c '
import json, sys
for l in sys.stdin:
    r = json.loads(l); print(r["path"].split("/")[-1], r["stack"], ",".join(r["findings"]))')" \
    "wx noexec wx-segment"

# Progress: a line on a terminal's standard error (script(1) gives one)
# while a scan runs, none when it is not a terminal or with --no-progress.
# The tree is one the test builds, and how long a scan lasts is not left to
# the machine's speed: failshim.so holds each scan as it opens the file
# "hold-here" until the test lets it go. The scans without progress are
# held first; the one with progress is let go only once its progress line
# has been seen, and the others after it: they ran all that time.
need script
: "${FAILSHIM:?}"
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
M=$T/many
for d in 1 2 3; do
	mkdir -p "$M/sub$d" && cp "$D/a/clean" "$D/a/exec" "$M/sub$d/" || fail "build the tree for progress"
done
cp "$D/a/clean" "$M/sub2/hold-here"
# held NAME TTY ARGS...: elfscan -j1 ARGS in the background, held at
# hold-here until $T/NAME.go exists; its report in $T/NAME.out, its
# standard error in $T/NAME.tty, on a terminal (under script) if TTY is yes.
# failshim.so holds an open made through the C library: the scan reads
# one file at a time (ELFSCAN_READER=threads), not through io_uring.
held() {
	name=$1 tty=$2
	shift 2
	rm -f "$T/$name.go" "$T/$name.go.held"
	hold="LD_PRELOAD=$FAILSHIM FAILSHIM_HOLD=hold-here FAILSHIM_HOLD_UNTIL=$T/$name.go ELFSCAN_READER=threads"
	if [ "$tty" = yes ]; then
		script -qec "env $hold \"$ELFSCAN\" -j1 $* >\"$T/$name.out\"" /dev/null \
		    >"$T/$name.tty" 2>&1 &
	else
		env $hold "$ELFSCAN" -j1 "$@" >"$T/$name.out" 2>"$T/$name.tty" &
	fi
	eval "pid_$name=\$!"
}
# await WHAT COMMAND...: until COMMAND succeeds; the safety net, $hang s,
# only a broken scan reaches.
await() {
	what=$1
	shift
	n=0
	until "$@"; do
		n=$((n + 1))
		[ $n -lt $((hang * 10)) ] || { fail "$what: not after $hang s"; return 1; }
		sleep 0.1
	done
}
held plain no "$M"
held quiet yes --no-progress "$M"
await "the scans without progress held" test -e "$T/plain.go.held" -a -e "$T/quiet.go.held"
held shown yes "$M"
await "the scan with progress held" test -e "$T/shown.go.held"
await "progress on a terminal" grep -q 'files/s' "$T/shown.tty" && pass "progress on a terminal"
: >"$T/shown.go"
wait $pid_shown
: >"$T/plain.go" && : >"$T/quiet.go"
wait $pid_plain $pid_quiet
for name in plain quiet shown; do
	expect "$name: the held scan ended with the whole report" \
	    "$(grep -c '/many/sub[123]/' "$T/$name.out")" 7
done
expect_match "progress names a directory" "$(tr '\r' '\n' <"$T/shown.tty" | grep 'files/s' | tail -1)" \
    "* file*, * ELF, * files/s  */many*"
expect "no progress when standard error is not a terminal" "$(cat "$T/plain.tty")" ""
expect "--no-progress on a terminal" "$(grep -c 'files/s' "$T/quiet.tty")" 0

# A directory the user cannot read: reported, and status 2 over 1.
nobody_setup
mkdir -p "$T/shut/locked" && cp "$D/a/exec" "$T/shut/" && chmod 700 "$T/shut/locked" &&
    chmod 755 "$T/shut"
as_nobody "$N/bin/elfscan" --no-progress -q "$T/shut" >"$T/out" 2>"$T/err"
expect "an unreadable directory: exit 2" "$?" 2
expect_match "an unreadable directory: said" "$(cat "$T/err")" \
    "*shut/locked: cannot open directory: Permission denied*"
expect_match "an unreadable directory: the rest scanned" "$(cat "$T/out")" "*shut/exec*"
finish
