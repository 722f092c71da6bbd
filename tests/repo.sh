#!/bin/sh
# No build product is tracked: in a git checkout, no tracked file matches
# .gitignore (a tracked product is deleted by `make clean`, and it bloats
# every clone). Outside a checkout (a release tarball) there is nothing to
# judge, and the test says so.
. "$top_srcdir/tests/lib.sh"
need git
if ! git -C "$top_srcdir" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	skip "$top_srcdir is not a git checkout"
fi
tracked=$(git -C "$top_srcdir" ls-files -ci --exclude-standard)
expect "no tracked file matches .gitignore" "$tracked" ""
finish
