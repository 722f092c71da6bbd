#!/bin/sh
# lib/ is a stack of layers (lib/internal.h lists its files top to bottom):
# a file calls only files listed below it, so no two files depend on each
# other, and each file is in the list. Judged by nm on the built objects:
# which file defines and which uses each of the library's symbols. A
# chstk__ function declared for the other files must be used by another
# file, or it should be static (a dead declaration). And the library is
# the one parser of ELF and ar: elfscan holds no magic number, no ELF
# structure and no header field of its own.
. "$top_srcdir/tests/lib.sh"
need nm
: "${top_builddir:?}"

order=$(sed -n 's/^ \*     \([a-z0-9_]*\.c\) .*/\1/p' "$top_srcdir/lib/internal.h")
expect "internal.h lists the layers" "$(test -n "$order" && echo yes)" yes
listed=$(printf '%s\n' $order | sort)
present=$(cd "$top_srcdir/lib" && ls *.c | sort)
expect "internal.h lists every file of lib/, once" "$listed" "$present"

object() {
	for o in "$top_builddir/lib/.libs/libchstk_core_la-${1%.c}.o" \
	    "$top_builddir/lib/libchstk_core_la-${1%.c}.o"; do
		[ -f "$o" ] && { echo "$o"; return; }
	done
	echo "ERROR: no object for lib/$1: build first" >&2
	exit 99
}

ranked_symbols object '^chstk_' $order >"$T/syms"
expect "the objects define the library's functions" \
    "$(grep -c ' D ' "$T/syms" | awk '$1 > 10 { print "yes" }')" yes

calls_upward "$T/syms" >"$T/upward"
expect "every call points down the layers" "$(cat "$T/upward")" ""

# The file-to-file graph has no cycle (implied by the order; said plainly).
awk '$3 == "D" { file[$4] = $2 } $3 == "U" { u[$2 " " $4] = 1 }
     END { for (k in u) { split(k, p, " "); if (p[2] in file && file[p[2]] != p[1]) print p[1], file[p[2]] } }' \
    "$T/syms" | sort -u >"$T/edges"
cycles=$(awk '{ e[$1 " " $2] = 1 } END { for (k in e) { split(k, p, " "); if ((p[2] " " p[1]) in e) print k } }' "$T/edges")
expect "no two files of lib/ depend on each other" "$cycles" ""

# Internal functions declared in internal.h: each defined once, used
# elsewhere.
for s in $(sed -n 's/^[a-z].*\(chstk__[a-z0-9_]*\)(.*/\1/p' "$top_srcdir/lib/internal.h" | sort -u); do
	defs=$(awk -v s="$s" '$3 == "D" && $4 == s' "$T/syms" | wc -l)
	file=$(awk -v s="$s" '$3 == "D" && $4 == s { print $2 }' "$T/syms")
	users=$(awk -v s="$s" -v f="$file" '$3 == "U" && $4 == s && $2 != f' "$T/syms" | wc -l)
	[ "$defs" -eq 1 ] && [ "$users" -gt 0 ] || echo "$s: defined $defs times, used by $users other files"
done >"$T/dead"
expect "every function internal.h declares is defined once and used by another file" \
    "$(cat "$T/dead")" ""

# Code and messages, not comments: a comment may cite the kernel's names.
for f in "$top_srcdir"/src/elfscan/*.[ch]; do
	${CC:-cc} -fpreprocessed -dD -E -P "$f" 2>/dev/null |
	    grep -E '177ELF|ELFMAG|!<arch>|!<thin>|debian-binary|Elf(32|64)_|[ep]_(phoff|phnum|shoff|shnum|type|offset)|(^|[^A-Z_])(PT|SHT)_[A-Z]|ar_hdr' |
	    sed "s|^|${f##*/}: |"
done >"$T/parsing"
expect "the comment stripper keeps the code" \
    "$(${CC:-cc} -fpreprocessed -dD -E -P "$top_srcdir/src/elfscan/main.c" | grep -c 'main(int argc')" 1
expect "elfscan parses no ELF or ar" "$(cat "$T/parsing")" ""
finish
