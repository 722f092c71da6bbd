#!/bin/sh
# Every manual page is well-formed mdoc: mandoc's linter finds nothing at
# the warning level, and each page has EXIT STATUS (sections 1 and 8) and
# EXAMPLES. The RULES table of elfscan(1), rendered by groff (man -l) and
# by mandoc, is what elfscan --rules prints: one row per machine, in the
# same order, each word in its header's column. Its PROFILES table lists,
# in order, the promises elfscan --list says are checked (profile,
# property, where).
. "$top_srcdir/tests/lib.sh"
: "${ELFSCAN:?}"
need mandoc man groff col
for page in "$top_srcdir"/man/*.[1-9]; do
	name=$(basename "$page")
	expect "$name: mandoc -T lint" "$(mandoc -T lint -W warning "$page" 2>&1 | sed "s|$top_srcdir/||")" ""
	case $name in *.1|*.8)
		expect "$name: has EXIT STATUS" "$(grep -c '^\.Sh EXIT STATUS' "$page")" 1 ;;
	esac
	expect "$name: has EXAMPLES" "$(grep -c '^\.Sh EXAMPLES' "$page")" 1
done

# The page as each renderer lays it out, 80 columns, tabs expanded.
render_groff() { MANWIDTH=80 MANPAGER=cat PAGER=cat man -l "$1" 2>/dev/null | col -bx; }
render_mandoc() { mandoc -T ascii -O width=78 "$1" | col -bx; }
# The lines from the table's header to the blank line after it.
table() { sed -n '/^ *MACHINE  *CLASS  *KERNEL-STACK  *RIE  *GLIBC *$/,/^ *$/p' | sed '/^ *$/d'; }
# The rows whose words do not start where the header's do.
misaligned() {
	awk '{
		n = 0; at = 1; line = $0
		while (match(substr(line, at), /[^ ]+/)) {
			start[++n] = at + RSTART - 1; at = start[n] + RLENGTH
		}
		if (NR == 1) { cols = n; for (i = 1; i <= n; i++) col[i] = start[i]; next }
		ok = n == cols
		for (i = 1; ok && i <= n; i++) ok = start[i] == col[i]
		if (!ok) print
	}'
}
words() { awk '{ $1 = $1; print }'; }
"$ELFSCAN" --rules | words >"$T/rules"
[ "$(wc -l <"$T/rules")" -gt 1 ] && pass "elfscan --rules prints a table to compare with" ||
    fail "elfscan --rules prints no table: $(cat "$T/rules")"
for renderer in groff mandoc; do
	"render_$renderer" "$top_srcdir/man/elfscan.1" | table >"$T/$renderer"
	expect "elfscan.1 RULES under $renderer: the rows of elfscan --rules, a machine a line" \
	    "$(words <"$T/$renderer")" "$(cat "$T/rules")"
	expect "elfscan.1 RULES under $renderer: each word in its header's column" \
	    "$(misaligned <"$T/$renderer")" ""
done
# The checked promises: rows of --list whose property is not "-".
checked() { awk '/^[a-z]/ && $1 !~ /:$/ && $2 != "-" { print $1, $2, $3 }'; }
"$ELFSCAN" --list | checked >"$T/promises"
expect_match "elfscan --list prints promises" "$(wc -l <"$T/promises")" "[1-9][0-9]*"
for renderer in groff mandoc; do
	"render_$renderer" "$top_srcdir/man/elfscan.1" |
	    sed -n '/^ *PROFILE  *PROPERTY  *WHERE  *FLAGS *$/,/^ *$/p' | sed 's/^ *//' | checked >"$T/$renderer-profiles"
	expect "elfscan.1 PROFILES under $renderer: the promises of elfscan --list" \
	    "$(cat "$T/$renderer-profiles")" "$(cat "$T/promises")"
done
# The properties --require takes, as elfscan(1) lists them: each one
# elfscan takes, and each one its --help names.
awk '/^\.It Fl -require/ { p = 1; next } p && /^are required/ { exit }
    p && /^\.(Pq )?Cm / { print }' "$top_srcdir/man/elfscan.1" |
    tr ' ,' '\n\n' | grep -E '^[a-z][a-z-]+$' | grep -vx -e Cm -e Pq >"$T/props"
expect_match "elfscan.1: --require's properties" "$(wc -l <"$T/props")" "[1-9][0-9]"
"$ELFSCAN" --help | tr -s ' (),\n' '\n' >"$T/help-words"
mkdir "$T/empty"
while read -r prop; do
	"$ELFSCAN" -q --require "$prop" "$T/empty" >/dev/null 2>"$T/err"
	[ $? -le 1 ] || fail "elfscan --require $prop: $(cat "$T/err")"
	grep -qx -- "$prop" "$T/help-words" || fail "elfscan --help does not name $prop"
done <"$T/props"
pass "elfscan takes each of the $(wc -l <"$T/props") properties elfscan.1 lists, and --help names them"
finish
