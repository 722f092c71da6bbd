#!/bin/sh
# Every manual page is well-formed mdoc: mandoc's linter finds nothing at
# the warning level, and each page has EXIT STATUS (sections 1 and 8) and
# EXAMPLES.
. "$top_srcdir/tests/lib.sh"
need mandoc
for page in "$top_srcdir"/man/*.[1-9]; do
	name=$(basename "$page")
	expect "$name: mandoc -T lint" "$(mandoc -T lint -W warning "$page" 2>&1 | sed "s|$top_srcdir/||")" ""
	case $name in *.1|*.8)
		expect "$name: has EXIT STATUS" "$(grep -c '^\.Sh EXIT STATUS' "$page")" 1 ;;
	esac
	expect "$name: has EXAMPLES" "$(grep -c '^\.Sh EXAMPLES' "$page")" 1
done
finish
