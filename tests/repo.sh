#!/bin/sh
# No build product is tracked: in a git checkout, no tracked file matches
# .gitignore (a tracked product is deleted by `make clean`, and it bloats
# every clone). Outside a checkout (a release tarball, on a machine that
# may have no git, or unpacked inside some other checkout as make
# distcheck does) there is nothing to judge, and the test says so; a
# checkout is a source tree with its own .git, which needs git to judge.
. "$top_srcdir/tests/lib.sh"
[ -e "$top_srcdir/.git" ] || skip "$top_srcdir is not a git checkout"
need git
# A git that cannot read the checkout (not owned by this user, say) must
# not pass for one that found nothing.
if tracked=$(git -C "$top_srcdir" ls-files -ci --exclude-standard 2>"$T/err"); then
	expect "no tracked file matches .gitignore" "$tracked" ""
else
	fail "git ls-files: $(head -1 "$T/err")"
fi
finish
