#!/bin/sh
# Each directory is scanned once, by device and inode (elfscan(1)): a bind
# mount that shows a directory a second time, and a symbolic link loop on
# another file system, mounted inside the tree, end. The mounts are made
# in a mount namespace of the test's own; stat says that the bind mount
# shows the same directory (device and inode) and that the tmpfs is
# another device, so that both kinds of directory the walk records are
# met: those of the first directory's device and the others.
. "$top_srcdir/tests/lib.sh"
need gcc unshare mount stat timeout python3
: "${ELFSCAN:?}"

M=$T/m
mkdir -p "$M/a" "$M/t"
gcc -o "$M/a/prog" "$FIX/hello.c" || fail "build the program"

# scan OUT ELFSCAN-OPTIONS...: in the namespace, with a tmpfs at t
# holding a program, a link to itself and a bind mount of a at t/b.
scan() {
	out=$1
	shift
	unshare --mount --propagation private /bin/sh -c '
		m=$1 out=$2
		shift 2
		mount -t tmpfs chstk-test "$m/t" &&
		    cp "$m/a/prog" "$m/t/prog2" && ln -s . "$m/t/loop" &&
		    mkdir "$m/t/b" && mount --bind "$m/a" "$m/t/b" || exit 99
		stat -c "%d:%i" "$m/a" "$m/t/b" "$m" "$m/t" >"$out.stat"
		timeout 60 "$@" >"$out" 2>"$out.err"
		echo $? >"$out.status"' sh "$M" "$out" "$ELFSCAN" "$@" ||
	    fail "mount in a namespace of its own"
}
# paths OUT: the programs reported, sorted; a's, met first through the
# bind mount or not (whichever walker gets there first), named a/prog.
paths() {
	python3 -c '
import json, sys
names = (json.loads(l)["path"][len(sys.argv[2]) + 1:] for l in open(sys.argv[1]))
print(" ".join(sorted("a/prog" if n == "t/b/prog" else n for n in names)))' "$1" "$M"
}

scan "$T/plain" --format=json --no-progress "$M"
set -- $(cat "$T/plain.stat")
expect "stat: t/b is a shown again" "$2" "$1"
[ "${3%%:*}" != "${4%%:*}" ] && pass "stat: t is another device" ||
    fail "stat: t is on the tree's device ($3, $4)"
expect "physical: exit status" "$(cat "$T/plain.status")" 0
expect "physical: each program once" \
    "$(paths "$T/plain")" "a/prog t/prog2"

scan "$T/follow" --format=json --no-progress -L "$M"
expect "-L: exit status" "$(cat "$T/follow.status")" 0
expect "-L: the loop on the tmpfs ends, each program once" \
    "$(paths "$T/follow")" "a/prog t/prog2"
expect "-L: no error" "$(cat "$T/follow.err")" ""
finish
