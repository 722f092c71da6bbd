#!/bin/sh
# elfscan in plain words. A usage error is one line, naming the close word
# of a misspelt option, format or --require property, then "Try 'elfscan
# --help'", never the whole help; every message says "elfscan:", however
# the program file is named (libtool's .libs/lt-elfscan). The text output
# ends with a note on each kind of finding met, once, with why and how to
# fix it: the kinds are those readelf shows in the fixtures, the texts
# those of the SARIF rules; --no-header leaves the records alone. Counts
# are in words that fit their number. A file named that is not ELF (text,
# empty) is an error, "not an ELF file", as readelf says; in a directory it
# is passed over.
. "$top_srcdir/tests/lib.sh"
need gcc as readelf python3
: "${ELFSCAN:?}"
S() { "$ELFSCAN" --no-progress "$@"; }

# usage FILE: FILE (a standard error) is one line of a usage error, then
# the line that points to --help.
usage() {
	if [ "$(wc -l <"$1")" -eq 2 ] &&
	    [ "$(sed -n 2p "$1")" = "Try 'elfscan --help' for more information." ]; then
		sed -n 1p "$1"
	else
		echo "not a one-line usage error: $(cat "$1")"
	fi
}
# bad WHAT WANT ARGS...: elfscan ARGS is a usage error, exit 2, saying WANT.
bad() {
	what=$1 want=$2
	shift 2
	S "$@" >"$T/out" 2>"$T/err"
	expect "$what: exit 2" "$?" 2
	expect "$what: said in one line" "$(usage "$T/err")" "$want"
	expect "$what: nothing on the standard output" "$(cat "$T/out")" ""
}
D=$T/tree
mkdir -p "$D"
bad "a misspelt property" \
    "elfscan: --require=pie,relo: unknown property: relo (did you mean 'relro'?)" \
    --require pie,relo "$D"
bad "a misspelt property among others" \
    "elfscan: --require=canry,pie: unknown property: canry (did you mean 'canary'?)" \
    --require=canry,pie "$D"
bad "an unknown property" "elfscan: --require=nx: unknown property: nx" \
    --require nx "$D"
bad "a misspelt format" \
    "elfscan: --format=jsno: unknown format (did you mean 'json'?)" \
    --format=jsno "$D"
bad "an unknown format" \
    "elfscan: --format=xml: unknown format: not text, json or sarif" \
    --format=xml "$D"
bad "a misspelt long option" \
    "elfscan: --summery: unknown option (did you mean '--summary'?)" \
    --summery "$D"
bad "a misspelt long option with its argument" \
    "elfscan: --files-form: unknown option (did you mean '--files-from'?)" \
    --files-form=list "$D"
bad "an unknown long option" "elfscan: --bogus: unknown option" --bogus "$D"
bad "an unknown short option" "elfscan: -z: unknown option" -qz "$D"
bad "an ambiguous option" \
    "elfscan: --no: ambiguous option: --no-header, --no-progress" --no "$D"
bad "a missing argument" "elfscan: --jobs: missing argument" --jobs
bad "a missing argument to a short option" "elfscan: -j: missing argument" -j
bad "an argument to an option without one" "elfscan: --quiet: takes no argument" \
    --quiet=yes "$D"
bad "-0 with --format" \
    "elfscan: -0 and --format cannot be used together: -0 prints only paths" \
    -0 --format=json "$D"
bad "--null without a list" "elfscan: --null: there is no --files-from LIST to read" \
    --null "$D"
bad "--diff with --system" \
    "elfscan: --diff cannot be used with --system: it compares two builds, not roots" \
    --system --diff "$D" "$D"
bad "--diff with -0" "elfscan: --diff cannot be used with -0: it reports changes, not files" \
    -0 --diff "$D" "$D"
bad "--diff with --proc" \
    "elfscan: --proc cannot be used with --diff: processes have no old and new" \
    --proc --diff "$D" "$D"
# Not a usage error: one line, no pointer to --help.
S --allow "$T/no-such-list" "$D" >/dev/null 2>"$T/err"
expect "a missing --allow file: exit 2" "$?" 2
expect "a missing --allow file: one line" "$(cat "$T/err")" \
    "elfscan: $T/no-such-list: cannot read the allowlist: No such file or directory"

# One program name, whatever the file is called: the program itself, not
# libtool's wrapper, copied as lt-elfscan; getopt's message and err(3)'s.
real=$(dirname "$ELFSCAN")/.libs/elfscan
[ -x "$real" ] || real=$ELFSCAN
cp "$real" "$T/lt-elfscan"
libs=$top_builddir/lib/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
LD_LIBRARY_PATH=$libs "$T/lt-elfscan" --bogus 2>&1 >/dev/null | head -1 >"$T/err"
expect "an option's message names elfscan" "$(cat "$T/err")" "elfscan: --bogus: unknown option"
LD_LIBRARY_PATH=$libs "$T/lt-elfscan" --allow "$T/none" 2>&1 >/dev/null | head -1 >"$T/err"
expect "err(3)'s message names elfscan" "$(cat "$T/err")" \
    "elfscan: $T/none: cannot read the allowlist: No such file or directory"

# The notes. Fixtures: a program readelf shows with an executable stack, a
# clean one, an object readelf shows without .note.GNU-stack.
gcc -z execstack -o "$D/exec" "$FIX/hello.c" &&
    gcc -o "$D/clean" "$FIX/hello.c" &&
    printf '\t.text\n\tret\n' | as -o "$D/nonote.o" || fail "build the tree"
expect "readelf: the program's stack is executable" "$(readelf_stack "$D/exec")" RWE
expect "readelf: the clean program's is not" "$(readelf_stack "$D/clean")" RW
expect "readelf: the object has no .note.GNU-stack" \
    "$(readelf -SW "$D/nonote.o" | grep -c 'note.GNU-stack')" 0
S "$D" >"$T/text"
expect "findings: exit 1" "$?" 1
# The records, up to the blank line; then the notes.
sed '/^$/,$d' "$T/text" >"$T/records"
sed '1,/^$/d' "$T/text" >"$T/notes"
expect "the records: a header and a line an image" "$(wc -l <"$T/records")" 4
expect "the records keep their columns" "$(sed -n 1p "$T/records")" \
    "STACK   EFFECT  TYPE   BI MACHINE   ARMOR FINDINGS                       FILE"
expect "a note on each kind met, once, with the number of images" \
    "$(grep -v '^ ' "$T/notes")" \
    "exec-stack (2 images): The stack will be executable.
no-gnu-stack-note (1 image): The object has no .note.GNU-stack section."
expect "each note says why and how to fix it" \
    "$(grep -o '^  [A-Z][a-z]*:' "$T/notes" | tr '\n' ' ')" "  Why:   Fix:   Why:   Fix: "
expect "the notes fit in 79 columns" "$(awk 'length > 79' "$T/notes")" ""
# The texts are the SARIF rules', one table for both.
S --format=sarif "$D" >"$T/sarif"
expect "the notes say what the SARIF rules say" "$(python3 - "$T/sarif" "$T/notes" <<'PY'
import json, re, sys
rules = {r["id"]: r for r in json.load(open(sys.argv[1]))["runs"][0]["tool"]["driver"]["rules"]}
notes = {}
for line in open(sys.argv[2]):
    m = re.match(r"(\S+) \(\d+ images?\): (.*)", line)
    if m:
        kind = m.group(1)
        notes[kind] = {"brief": m.group(2), "Why": "", "Fix": ""}
        continue
    m = re.match(r"  (Why|Fix): (.*)", line)
    if m:
        part = m.group(1)
        notes[kind][part] = m.group(2).strip()
    else:
        notes[kind][part] += " " + line.strip()
for kind, n in sorted(notes.items()):
    r = rules[kind]
    if (n["brief"], n["Why"], n["Fix"]) != (r["shortDescription"]["text"],
            r["fullDescription"]["text"], r["help"]["text"]):
        print(kind, "differs")
print(" ".join(sorted(notes)))
PY
)" "exec-stack no-gnu-stack-note"
expect "-q keeps the notes" "$(S -q "$D" | sed '1,/^$/d')" "$(cat "$T/notes")"
S --no-header "$D" >"$T/bare"
expect "--no-header: the records only" "$(sort "$T/bare")" "$(sed 1d "$T/records" | sort)"
expect "no notes in JSON" "$(S --format=json "$D" | grep -c 'Why')" 0
mkdir "$T/clean" && cp "$D/clean" "$T/clean/"
expect "no notes without findings" "$(S "$T/clean" | wc -l)" 2

# Counts in words that fit: one file, no directory; then several.
expect_match "one file" "$(S -q --summary "$D/clean")" \
    "1 file, 1 ELF image: 0 exec, 1 noexec, 0 absent; 0 with an executable stack, 0 with findings, 0 allowed, 0 errors; *"
expect_match "one directory" "$(S -q --summary "$T/clean" | tail -1)" "1 file in 1 directory, 1 ELF image: *"
expect_match "several" "$(S -q --summary "$D" | tail -1)" "3 files in 1 directory, 3 ELF images: *, 0 errors; *"
expect_match "--hardening: one program" "$(S -q --summary --hardening "$D/clean" | tail -1)" \
    "hardening: 1 of 1 program PIE; of 1 program or library, *; 0 unsafe search paths; *"

# A file named that is not ELF: text, and an empty file. readelf agrees.
printf 'not ELF\n' >"$T/text.txt" && : >"$T/empty"
for f in text.txt empty; do
	readelf -h "$T/$f" >/dev/null 2>&1
	expect "readelf: $f is not ELF" "$?" 1
done
S "$T/text.txt" "$T/empty" "$D/clean" >"$T/out" 2>"$T/err"
expect "named, not ELF: exit 2" "$?" 2
# The workers take the names in any order: the messages, sorted.
expect "named, not ELF: said for each" "$(sort "$T/err")" \
    "elfscan: $T/empty: not an ELF file
elfscan: $T/text.txt: not an ELF file"
expect "named, not ELF: the ELF file still reported" "$(grep -c "$D/clean" "$T/out")" 1
expect "named, not ELF: an error in the summary" \
    "$(S -q --summary "$T/empty" 2>/dev/null | grep -o '1 error;')" "1 error;"
expect "named, not ELF: a JSON error record" "$(S --format=json "$T/empty" 2>&1)" \
    "{\"path\":\"$T/empty\",\"error\":\"not an ELF file\",\"findings\":[]}"
cp "$T/text.txt" "$T/empty" "$T/clean/"
S "$T/clean" >"$T/out" 2>"$T/err"
expect "in a directory, not ELF: passed over, exit 0" "$?" 0
expect "in a directory, not ELF: nothing said" "$(cat "$T/err")" ""
finish
