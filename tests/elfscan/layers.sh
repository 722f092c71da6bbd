#!/bin/sh
# elfscan is a stack of stages, as lib/ is a stack of layers: main.c, then
# the files of libelfscan.a in the order src/elfscan/local.mk lists them
# (elfscan_layers), each calling only files listed below it, so that the
# path goes one way (main > walk > read > containers > batch; judge >
# rules; report > sarif) and no two files depend on each other. Judged by
# nm on the built objects: which file defines and which uses each symbol.
# And the stages are compiled once: no other program's sources name a file
# of src/elfscan/ (they link libelfscan.a), and the fuzz targets and unit
# tests include only the headers of the stages they drive, never the
# program's own elfscan.h.
. "$top_srcdir/tests/lib.sh"
need nm
: "${top_builddir:?}"

order="main.c $(sed -n '/^elfscan_layers = /,/^[^	]/s|^	src/elfscan/\([a-z0-9_-]*\.c\).*|\1|p' \
    "$top_srcdir/src/elfscan/local.mk")"
expect "local.mk lists the stages" "$(test "$(echo $order | wc -w)" -gt 10 && echo yes)" yes
listed=$(printf '%s\n' $order | sort)
present=$(cd "$top_srcdir/src/elfscan" && ls *.c | sort)
expect "main.c and elfscan_layers name every file of src/elfscan/, once" "$listed" "$present"

object() {
	case $1 in
	main.c) o=$top_builddir/src/elfscan/elfscan-main.o ;;
	*) o=$top_builddir/src/elfscan/libelfscan_a-${1%.c}.o ;;
	esac
	[ -f "$o" ] || { echo "ERROR: no object for src/elfscan/$1: build first" >&2; exit 99; }
	echo "$o"
}

ranked_symbols object '.' $order >"$T/syms"
expect "the objects define elfscan's functions" \
    "$(grep -c ' D ' "$T/syms" | awk '$1 > 40 { print "yes" }')" yes

calls_upward "$T/syms" >"$T/upward"
expect "every call points down the stages" "$(cat "$T/upward")" ""

# Every function a stage's header declares is defined once, and used by
# another file (or it should be static).
awk '$3 == "D" { n[$4]++; file[$4] = $2 } $3 == "U" { users[$4] = users[$4] " " $2 }
     END { for (s in n) if (n[s] > 1) print s ": defined " n[s] " times" }' \
    "$T/syms" >"$T/twice"
expect "each symbol is defined by one file" "$(cat "$T/twice")" ""

# No source of another program or test names a file of src/elfscan/.
others=$(cd "$top_srcdir" && grep -n 'src/elfscan/[a-z0-9_]*\.[ch]' \
    Makefile.am */local.mk tests/*/local.mk 2>/dev/null | grep -v '^src/elfscan/local.mk:')
expect "elfscan's files are compiled into libelfscan.a only" "$others" ""
inc=$(cd "$top_srcdir" && grep -ln '#include "elfscan.h"' fuzz/*.c tests/elfscan/unit/*.c 2>/dev/null)
expect "fuzz targets and unit tests include the headers of the stages they drive" "$inc" ""
finish
