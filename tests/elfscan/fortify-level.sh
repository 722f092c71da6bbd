#!/bin/sh
# _FORTIFY_SOURCE's level per compilation unit (elfscan --hardening,
# evidence.fortify_level), against binutils' readelf: --debug-dump=macro
# for the macro tables -g3 keeps (gcc's .debug_macro, with a level set on
# the command line, by -D alone, undone by -U, redefined in a source and
# in a header the unit imports the macros of; clang's .debug_macinfo, and
# its DWARF 5 .debug_macro, whose strings are DW_MACRO_define_strx), and
# --debug-dump=info for the units' producers (LLVM's llvm-dwarfdump for the
# DWARF 5 tables, whose strings readelf 2.40 misreads; clang's
# -grecord-command-line, which records -D and -U; gcc's, which does not).
# check_fortify.py computes the levels from readelf's output; this file
# also checks a few levels by hand, the text form, that a build with
# neither is unknown, and a stripped program's levels from its debug file
# in a root's .build-id tree.
. "$top_srcdir/tests/lib.sh"
need gcc clang readelf llvm-dwarfdump python3
: "${ELFSCAN:?}"

D=$T/tree
F=$FIX/fortify
mkdir -p "$D"
build() { out=$1; shift; "$@" -o "$D/$out" 2>>"$T/build.log" || fail "build $out"; }
unit() { out=$1; shift; "$@" -c -o "$T/$out" 2>>"$T/build.log" || fail "build $out"; }

build g-none gcc -g3 -O2 "$F/main.c" "$F/other.c"
for n in 1 2 3; do
	build g-$n gcc -g3 -O2 -D_FORTIFY_SOURCE=$n "$F/main.c" "$F/other.c"
done
build g-bare gcc -g3 -O2 -D_FORTIFY_SOURCE "$F/main.c" "$F/other.c"
build g-undone gcc -g3 -O2 -D_FORTIFY_SOURCE=2 -U_FORTIFY_SOURCE \
    "$F/main.c" "$F/other.c"
build g-dwarf4 gcc -gdwarf-4 -g3 -O2 -D_FORTIFY_SOURCE=2 "$F/main.c" \
    "$F/other.c"
build g-g gcc -g -O2 -D_FORTIFY_SOURCE=2 "$F/main.c" "$F/other.c"
build c-rec clang -g -O2 -grecord-command-line -D_FORTIFY_SOURCE=2 \
    "$F/main.c" "$F/other.c"
build c-undone clang -g -O2 -grecord-command-line -D_FORTIFY_SOURCE=2 \
    -U_FORTIFY_SOURCE "$F/main.c" "$F/other.c"
build c-norec clang -g -O2 -D_FORTIFY_SOURCE=2 "$F/main.c" "$F/other.c"
build c-macinfo clang -gdwarf-4 -g3 -fdebug-macro -O2 -D_FORTIFY_SOURCE=1 \
    "$F/main.c" "$F/other.c"
# clang's .debug_macinfo writes the command line's defines after the
# sources': the source's own define still wins.
build c-macinfo-undef clang -gdwarf-4 -g3 -fdebug-macro -O2 \
    -D_FORTIFY_SOURCE=3 "$F/main.c" "$F/undef.c"
# clang's DWARF 5 tables name their strings by index (DW_MACRO_define_strx,
# through the unit's DW_AT_str_offsets_base), which libdw 0.188 cannot
# follow.
build c-dwarf5 clang -gdwarf-5 -g3 -fdebug-macro -O2 -D_FORTIFY_SOURCE=2 \
    "$F/main.c" "$F/other.c"
build c-dwarf5-undef clang -gdwarf-5 -g3 -fdebug-macro -O2 \
    -D_FORTIFY_SOURCE=3 "$F/main.c" "$F/undef.c"
# Units of different levels, linked in pairs: 2 from the command line,
# 1 from a source's own define, 1 from a header's (an import), 0 none,
# and 3 from clang's producer.
unit main.o gcc -g3 -O2 -D_FORTIFY_SOURCE=2 "$F/main.c"
unit undef.o gcc -g3 -O2 -D_FORTIFY_SOURCE=3 "$F/undef.c"
unit header.o gcc -g3 -O2 -D_FORTIFY_SOURCE=3 "$F/header.c"
unit other.o gcc -g3 -O2 "$F/other.c"
unit clang.o clang -g -O2 -grecord-command-line -D_FORTIFY_SOURCE=3 \
    "$F/other.c"

build multi-undef gcc "$T/main.o" "$T/undef.o"
build multi-header gcc "$T/main.o" "$T/header.o"
build multi-none gcc "$T/main.o" "$T/other.o"
build multi-clang gcc "$T/main.o" "$T/clang.o"
[ -s "$T/build.log" ] && sed 's/^/  build: /' "$T/build.log"

# The oracles show what the fixtures were built to show.
macro() { readelf --debug-dump=macro "$D/$1" | grep -c "macro : _FORTIFY_SOURCE$2"; }
# gcc writes the command line's macros once, in a table each unit
# imports.
expect "readelf: g-2 keeps _FORTIFY_SOURCE 2" "$(macro g-2 ' 2$')" 1
expect "readelf: g-undone defines it, then undefines it" \
    "$(macro g-undone ' 2$') $(macro g-undone '$')" "1 1"
expect "readelf: multi-header redefines it in an imported table" \
    "$(readelf --debug-dump=macro "$D/multi-header" | grep -c 'DW_MACRO_import') $(macro multi-header ' 1$')" \
    "$(readelf --debug-dump=macro "$D/multi-header" | grep -c 'DW_MACRO_import') 1"
expect "readelf: gcc's producer records no -D" \
    "$(readelf --debug-dump=info "$D/g-g" | grep 'DW_AT_producer' | grep -c FORTIFY)" 0
expect "readelf: clang's -grecord-command-line records -D" \
    "$(readelf --debug-dump=info "$D/c-rec" | grep 'DW_AT_producer' | grep -c '_FORTIFY_SOURCE=2')" 2
expect "readelf: c-macinfo has .debug_macinfo" \
    "$(readelf -S "$D/c-macinfo" | grep -c '\.debug_macinfo')" 1
# (binutils 2.40's readelf misreads those strings: LLVM's dump is the
# oracle there, as check_fortify.py says.)
expect "llvm-dwarfdump: c-dwarf5 names _FORTIFY_SOURCE by DW_MACRO_define_strx" \
    "$(llvm-dwarfdump --debug-macro "$D/c-dwarf5" | grep -c 'DW_MACRO_define_strx - .*macro: _FORTIFY_SOURCE 2$')" 2

"$ELFSCAN" --hardening --format=json "$D" >"$T/out.json" 2>"$T/err" ||
    [ $? -eq 1 ] || fail "elfscan --format=json"
expect "elfscan: no message" "$(cat "$T/err")" ""
field() {
	python3 -c 'import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r.get("path", "").endswith("/" + sys.argv[2]):
        print(json.dumps(r["evidence"]["fortify_level"]))' "$T/out.json" "$1"
}

# By hand, a few, before the oracle does them all.
expect "g-3: both units at 3, by their tables" "$(field g-3)" \
    '{"units": 2, "macros": 2, "levels": [0, 0, 0, 2]}'
expect "g-bare: -D_FORTIFY_SOURCE alone is 1" "$(field g-bare)" \
    '{"units": 2, "macros": 2, "levels": [0, 2, 0, 0]}'
expect "g-undone: -U after -D is 0" "$(field g-undone)" \
    '{"units": 2, "macros": 2, "levels": [2, 0, 0, 0]}'
expect "multi-header: the header's define wins over the command line's" \
    "$(field multi-header)" \
    '{"units": 2, "macros": 2, "levels": [0, 1, 1, 0]}'
expect "multi-clang: a gcc unit's table, a clang unit's producer" \
    "$(field multi-clang)" \
    '{"units": 2, "macros": 1, "levels": [0, 0, 1, 1]}'
expect "c-macinfo-undef: the source's define over the command line's" \
    "$(field c-macinfo-undef)" \
    '{"units": 2, "macros": 2, "levels": [0, 1, 0, 1]}'
expect "c-dwarf5: clang's DWARF 5 table, its strings by index" \
    "$(field c-dwarf5)" '{"units": 2, "macros": 2, "levels": [0, 0, 2, 0]}'
expect "c-dwarf5-undef: the source's define over the command line's" \
    "$(field c-dwarf5-undef)" \
    '{"units": 2, "macros": 2, "levels": [0, 1, 0, 1]}'
expect "g-g: gcc without -g3 records no level" "$(field g-g)" null
expect "c-norec: clang without -grecord-command-line records none" \
    "$(field c-norec)" null

PYTHONDONTWRITEBYTECODE=1 python3 "$top_srcdir/tests/elfscan/check_fortify.py" \
    "$T/out.json" "$D"/* >"$T/oracle" 2>&1
while IFS= read -r line; do
	case $line in
	ok:*) pass "${line#ok: }" ;;
	*) fail "${line#FAIL: }" ;;
	esac
done <"$T/oracle"

# A stripped program whose debug file lies in a root's .build-id tree:
# the levels come from the debug file's tables, as from the unstripped.
R=$T/root
mkdir -p "$R/usr/bin"
cp "$D/multi-header" "$R/usr/bin/prog" && strip "$R/usr/bin/prog" ||
    fail "strip multi-header"
p=$(readelf -n "$R/usr/bin/prog" | sed -n 's/.*Build ID: //p')
dbg=$R/usr/lib/debug/.build-id/$(echo "$p" | cut -c1-2)/$(echo "$p" | cut -c3-).debug
mkdir -p "${dbg%/*}" && objcopy --only-keep-debug "$D/multi-header" "$dbg" ||
    fail "make the debug file"
expect "readelf: the stripped program has no macro table, its debug file has" \
    "$(readelf -S "$R/usr/bin/prog" | grep -c 'debug_macro') $(readelf -S "$dbg" 2>/dev/null | grep -c 'debug_macro')" \
    "0 1"
"$ELFSCAN" --system --hardening --format=json --no-progress -j1 "$R" \
    >"$T/out.json" 2>"$T/err" || [ $? -eq 1 ] || fail "elfscan --system"
expect "root: the debug file's levels" "$(field usr/bin/prog)" \
    '{"units": 2, "macros": 2, "levels": [0, 1, 1, 0]}'

# The text says it the way it says the units' options.
"$ELFSCAN" --hardening "$D/multi-clang" "$D/g-g" >"$T/out.txt" 2>&1 ||
    [ $? -eq 1 ] || fail "elfscan text"
expect "text: multi-clang's levels" \
    "$(tr -s ' \n' '  ' <"$T/out.txt" | grep -o 'fortify3 1/2, fortify2 1/2, fortify1 0/2')" \
    "fortify3 1/2, fortify2 1/2, fortify1 0/2"
expect "text: g-g's alone is unknown" \
    "$(tr -s ' \n' '  ' <"$T/out.txt" | grep -o 'fortify unknown' | wc -l)" 1
finish
