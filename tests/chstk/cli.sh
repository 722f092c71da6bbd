#!/bin/sh
# The command line: the seed's options and execstack's spellings, the exact
# -q and -v formats, many files per call, --files-from with newline and NUL
# lists, and the documented exit statuses.
. "$top_srcdir/tests/lib.sh"
need gcc readelf

gcc -o "$T/p1" "$FIX/hello.c" && cp "$T/p1" "$T/p2" && cp "$T/p1" "$T/p3" &&
    gcc -c -o "$T/o.o" "$FIX/lib.c" || fail "build"

"$CHSTK" --help >"$T/out"
expect "--help: exit status" "$?" 0
expect_match "--help names the options" "$(cat "$T/out")" "*-e, -s, --set-execstack*-q, --query*Exit status*"
expect_match "--version" "$("$CHSTK" --version)" "chstk [0-9]*.[0-9]*"
"$CHSTK" "$T/p1" 2>/dev/null
expect "no option: exit status 2" "$?" 2
"$CHSTK" -e 2>/dev/null
expect "no file: exit status 2" "$?" 2
"$CHSTK" -e -E "$T/p1" 2>"$T/err"
expect "-e with -E: exit status 2" "$?" 2
expect_match "-e with -E: says why" "$(cat "$T/err")" "chstk: give one of*"
"$CHSTK" --bogus "$T/p1" 2>"$T/err"
expect "unknown option: exit status 2" "$?" 2
expect "unknown option: one line naming chstk, then where help is" "$(cat "$T/err")" \
"chstk: unrecognized option '--bogus'
Try 'chstk --help' for more information."
"$CHSTK" -e -E "$T/p1" 2>"$T/err"
expect "-e with -E: one line, then where help is" "$(wc -l <"$T/err")" 2
expect "usage errors change nothing" "$(readelf_stack "$T/p1")" RW

"$CHSTK" -s "$T/p1" && expect "-s sets exec" "$(readelf_stack "$T/p1")" RWE
"$CHSTK" -c "$T/p1" && expect "-c clears it" "$(readelf_stack "$T/p1")" RW
"$CHSTK" --set-execstack "$T/p1" && expect "--set-execstack" "$(readelf_stack "$T/p1")" RWE
"$CHSTK" --clear-execstack "$T/p1" && expect "--clear-execstack" "$(readelf_stack "$T/p1")" RW
"$CHSTK" -d -D "$T/p2" && expect "-d -D returns to the default" "$(readelf_stack "$T/p2")" none
"$CHSTK" -e "$T/p3"

expect "-q prints execstack's lines" "$("$CHSTK" -q "$T/p1" "$T/p2" "$T/p3")" \
"- $T/p1
? $T/p2
X $T/p3"
expect "--query" "$("$CHSTK" --query "$T/o.o")" "- $T/o.o"
expect "-v prints each state" "$("$CHSTK" -v "$T/p1" "$T/p2" "$T/p3")" \
"$T/p1: noexec
$T/p2: default
$T/p3: exec"

# Archives: -v one line a member; -q one line the file, the worst state.
cp "$T/o.o" "$T/a.o"
cp "$T/o.o" "$T/b.o"
"$CHSTK" -d -D "$T/b.o"
(cd "$T" && ar rc lib.a a.o b.o)
expect "-v on an archive" "$("$CHSTK" -v "$T/lib.a")" \
"$T/lib.a(a.o): noexec
$T/lib.a(b.o): default"
expect "-q on an archive with a default member" "$("$CHSTK" -q "$T/lib.a")" "? $T/lib.a"
"$CHSTK" -e "$T/a.o"
(cd "$T" && rm lib.a && ar rc lib.a a.o b.o)
expect "-q on an archive with an exec member" "$("$CHSTK" -q "$T/lib.a")" "X $T/lib.a"

# --files-from: newline and NUL lists, from a file and from stdin.
printf '%s\n' "$T/p1" "$T/p2" >"$T/list"
"$CHSTK" -e --files-from "$T/list" || fail "--files-from"
expect "--files-from a newline list" "$(readelf_stack "$T/p1") $(readelf_stack "$T/p2")" "RWE RWE"
printf '%s\0' "$T/p1" "$T/p2" | "$CHSTK" -E --files-from - -0 || fail "--files-from - -0"
expect "--files-from - -0" "$(readelf_stack "$T/p1") $(readelf_stack "$T/p2")" "RW RW"
mkdir "$T/odd"
cp "$T/p1" "$T/odd/with
newline"
printf '%s\0' "$T/odd/with
newline" | "$CHSTK" -e --files-from - --null || fail "NUL list with a newline name"
expect "a name with a newline, through a NUL list" \
    "$(readelf_stack "$T/odd/with
newline")" RWE
"$CHSTK" -e --files-from "$T/missing" 2>/dev/null
expect "unreadable list: exit status 2" "$?" 2
printf '%s\n' "$T/nothere" "$T/p3" | "$CHSTK" -E --files-from - 2>/dev/null
expect "a bad name in a list: exit status 1" "$?" 1
expect "a bad name in a list: the others done" "$(readelf_stack "$T/p3")" RW
finish
