#!/bin/sh
# Every manual page is well-formed mdoc: mandoc's linter finds nothing at
# the warning level, each page has EXIT STATUS (sections 1 and 8) and
# EXAMPLES, and each Sx names a section of its page or of the page it
# names (mandoc does not look). elfscan's manual is elfscan(1) and its topic pages, every
# man/elfscan*.[1-8]: each option elfscan's table takes has an entry in
# elfscan(1), and its full text in one page: there, or in the one topic
# page that entry points to; each topic page is named in the SEE ALSO of
# elfscan(1) and in --help, which fits a terminal (24 lines, 80 columns);
# each page is installed (man/local.mk, debian/*.install, chstk.spec.in).
# The RULES table, rendered by groff (man -l) and by mandoc, is what
# elfscan --rules prints: one row per machine, in the same order, each
# word in its header's column. The Profiles table lists, in order, the
# promises elfscan --list says are checked (profile, property, where).
. "$top_srcdir/tests/lib.sh"
: "${ELFSCAN:?}"
need mandoc man groff col
# The Sx references of the mdoc pages named that name no section of
# their page, or of the page they name after it ("Sx RULES No in Xr
# elfscan-system 7"): a title runs to a lone delimiter or a macro.
dangling_sx() {
	awk 'FNR == 1 { page = FILENAME; sub(/.*\//, "", page) }
	/^\.S[hs] / { title[page, substr($0, 5)] = 1 }
	/(^\.| )Sx / {
		for (i = 1; i <= NF; i++) if ($i == "Sx") {
			t = ""
			for (j = i + 1; j <= NF && $j !~ /^([.,:;)(]|No|Ns|Pc|Pq|Po|Xr|Li|Cm|Fl|Ar|Dq|Qq)$/; j++)
				t = t (t == "" ? "" : " ") $j
			to = page
			if ($j == "No" && $(j + 1) == "in" && $(j + 2) == "Xr")
				to = $(j + 3) "." $(j + 4)
			ref[to, t] = page ":" FNR
		}
	}
	END {
		for (k in ref) if (!(k in title)) {
			split(k, part, SUBSEP)
			print ref[k] ": Sx " part[2] " in " part[1]
		}
	}' "$@" | sort
}
for page in "$top_srcdir"/man/*.[1-9]; do
	name=$(basename "$page")
	expect "$name: mandoc -T lint" "$(mandoc -T lint -W warning "$page" 2>&1 | sed "s|$top_srcdir/||")" ""
	case $name in *.1|*.8)
		expect "$name: has EXIT STATUS" "$(grep -c '^\.Sh EXIT STATUS' "$page")" 1 ;;
	esac
	expect "$name: has EXAMPLES" "$(grep -c '^\.Sh EXAMPLES' "$page")" 1
done
expect "each Sx names a section of its page, or of the page it names" \
    "$(dangling_sx "$top_srcdir"/man/*.[1-9])" ""

# elfscan's pages, and the one of them that holds a line matching $1.
pages=$(ls "$top_srcdir"/man/elfscan*.[1-8])
topics=$(ls "$top_srcdir"/man/elfscan?*.[1-8])
page_with() { grep -l -- "$1" $pages; }
one_page() { expect "one page of elfscan's holds $1" "$(echo "$2" | grep -c .)" 1; }
# The options an mdoc page has an entry for, each with the pages its entry
# points to: "--quiet", "-q", "--require elfscan-hardening.7".
entries() {
	awk '/^\.It Fl/ { flush(); n = 0
		for (i = 2; i <= NF; i++) if ($(i - 1) == "Fl") opt[++n] = "-" $i
		next }
	/^\.(It|El)/ { flush(); n = 0; next }
	/^\.Xr elfscan-/ { ref[$2 "." $3] = 1 }
	function flush(  i, r, to) {
		for (i = 1; i <= n; i++) {
			to = ""
			for (r in ref) to = to " " r
			print opt[i] to
		}
		delete ref
	}
	END { flush() }' "$1" | sort -u
}
# Each option of the table in main.c: "--name", and "-c" for the short
# ones in shortopts.
main_c=$top_srcdir/src/elfscan/main.c
sed -n '/longopts\[\] = {/,/NULL, 0, NULL, 0/s/^\t*{ "\([a-z0-9-]*\)".*/--\1/p' "$main_c" >"$T/options"
sed -n 's/^static const char shortopts\[\] = ":*\([^"]*\)";/\1/p' "$main_c" |
    tr -d ':' | fold -w 1 | sed 's/^/-/' >>"$T/options"
expect_match "main.c: elfscan's options" "$(wc -l <"$T/options")" "[2-9][0-9]"
entries "$top_srcdir/man/elfscan.1" >"$T/brief"
for topic in $topics; do entries "$topic" | sed "s|\$| $(basename "$topic")|"; done >"$T/full"
while read -r opt; do
	brief=$(awk -v o="$opt" '$1 == o' "$T/brief")
	full=$(awk -v o="$opt" '$1 == o { print $NF }' "$T/full" | sort -u)
	if [ -z "$brief" ]; then
		fail "elfscan.1 has no entry for $opt"
	elif [ "$(echo "$full" | grep -c .)" -gt 1 ]; then
		fail "$opt has its full text in several topic pages:" $full
	elif [ -n "$full" ] && ! echo "$brief" | tr ' ' '\n' | grep -qxF "$full"; then
		fail "$opt has its full text in $full, which elfscan.1's entry does not point to"
	fi
done <"$T/options"
cut -d ' ' -f 1 "$T/brief" "$T/full" | sort -u | grep -vxF -f "$T/options" >"$T/stale"
expect "elfscan's pages document no option elfscan does not take" "$(cat "$T/stale")" ""
pass "each of the $(wc -l <"$T/options") options of main.c has an entry in elfscan.1 and its full text in one page"

"$ELFSCAN" --help >"$T/help"
expect "elfscan --help fits a terminal: at most 24 lines" "$(awk 'END { print (NR <= 24) ? "yes" : NR " lines" }' "$T/help")" yes
expect "elfscan --help fits a terminal: lines of at most 80 columns" "$(expand "$T/help" | awk 'length > 80')" ""
sed -n '/^\.Sh SEE ALSO/,/^\.Sh /p' "$top_srcdir/man/elfscan.1" >"$T/see-also"
for page in $pages; do
	name=$(basename "$page")
	base=${name%.*} sec=${name##*.}
	tr -s ' \t\\' '\n\n\n' <"$top_srcdir/man/local.mk" | grep -qxF "man/$name" ||
	    fail "$name: not in dist_man_MANS of man/local.mk"
	grep -qx "usr/share/man/man$sec/$name" "$top_srcdir"/debian/*.install ||
	    fail "$name: not in debian/*.install"
	grep -qxF "%{_mandir}/man$sec/$name*" "$top_srcdir/chstk.spec.in" ||
	    fail "$name: not in chstk.spec.in"
	[ "$name" = elfscan.1 ] && continue
	grep -q "^\.Xr $base $sec\( ,\)*\$" "$T/see-also" || fail "elfscan.1: SEE ALSO does not name $base($sec)"
	grep -qF "$base($sec)" "$T/help" || fail "elfscan --help does not name $base($sec)"
done
pass "each of elfscan's $(echo "$pages" | wc -l) pages is installed, and each topic page named in elfscan.1 SEE ALSO and --help"

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
rules_page=$(page_with '^\.Sh RULES$')
one_page "RULES" "$rules_page"
for renderer in groff mandoc; do
	"render_$renderer" "$rules_page" | table >"$T/$renderer"
	expect "$(basename "$rules_page") RULES under $renderer: the rows of elfscan --rules, a machine a line" \
	    "$(words <"$T/$renderer")" "$(cat "$T/rules")"
	expect "$(basename "$rules_page") RULES under $renderer: each word in its header's column" \
	    "$(misaligned <"$T/$renderer")" ""
done
# The checked promises: rows of --list whose property is not "-".
checked() { awk '/^[a-z]/ && $1 !~ /:$/ && $2 != "-" { print $1, $2, $3 }'; }
"$ELFSCAN" --list | checked >"$T/promises"
expect_match "elfscan --list prints promises" "$(wc -l <"$T/promises")" "[1-9][0-9]*"
profiles_page=$(page_with '^\.Ss Profiles$')
one_page "Profiles" "$profiles_page"
for renderer in groff mandoc; do
	"render_$renderer" "$profiles_page" |
	    sed -n '/^ *PROFILE  *PROPERTY  *WHERE  *FLAGS *$/,/^ *$/p' | sed 's/^ *//' | checked >"$T/$renderer-profiles"
	expect "$(basename "$profiles_page") Profiles under $renderer: the promises of elfscan --list" \
	    "$(cat "$T/$renderer-profiles")" "$(cat "$T/promises")"
done
# The properties --require takes, as its page lists them: each one
# elfscan takes, and each one its --help names.
require_page=$(page_with '^are required of every image')
one_page "the properties --require takes" "$require_page"
awk '/^\.It Fl -require/ { p = 1; next } p && /^are required/ { exit }
    p && /^\.(Pq )?Cm / { print }' "$require_page" |
    tr ' ,' '\n\n' | grep -E '^[a-z][a-z-]+$' | grep -vx -e Cm -e Pq >"$T/props"
expect_match "$(basename "$require_page"): --require's properties" "$(wc -l <"$T/props")" "[1-9][0-9]"
"$ELFSCAN" --help | tr -s ' (),\n' '\n' >"$T/help-words"
mkdir "$T/empty"
while read -r prop; do
	"$ELFSCAN" -q --require "$prop" "$T/empty" >/dev/null 2>"$T/err"
	[ $? -le 1 ] || fail "elfscan --require $prop: $(cat "$T/err")"
	grep -qx -- "$prop" "$T/help-words" || fail "elfscan --help does not name $prop"
done <"$T/props"
pass "elfscan takes each of the $(wc -l <"$T/props") properties $(basename "$require_page") lists, and --help names them"
finish
