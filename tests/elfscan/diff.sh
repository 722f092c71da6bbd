#!/bin/sh
# elfscan --diff OLD NEW: what got worse between two builds, and only that.
# A program and a library are built with the usual hardening flags, then
# again with one flag dropped at a time (-z now, -pie, the stack protector,
# _FORTIFY_SOURCE, the non-executable stack, a search path added, CET);
# each pair is packed into two .deb packages, two trees and two tarballs,
# and --diff must name exactly the defence lost, with exit status 1 -- and
# readelf (or hardening-check) must show that defence changed, so that the
# fixture is what it claims. The other way round it is an improvement
# (exit 0); two identical builds have no change; a library whose name
# changed with its version pairs with its old name.
. "$top_srcdir/tests/lib.sh"
need gcc readelf dpkg-deb tar hardening-check python3
: "${ELFSCAN:?}"

cat >"$T/m.c" <<'C'
#include <stdio.h>
#include <string.h>
int main(int argc, char **argv)
{
	char buf[64];
	strcpy(buf, argc > 1 ? argv[1] : "x");
	printf("%s\n", buf);
	return 0;
}
C
full="-O2 -D_FORTIFY_SOURCE=2 -fstack-protector-strong -fcf-protection=full -fPIE -pie -Wl,-z,relro,-z,now -Wl,-z,noexecstack"
# variant NAME FLAGS...: the program built with FLAGS after the full ones.
variant() {
	n=$1
	shift
	# shellcheck disable=SC2086
	gcc $full "$@" -o "$T/$n" "$T/m.c" 2>>"$T/build.log" ||
	    { cat "$T/build.log"; fail "build $n"; finish; }
}
variant full
variant norelro -Wl,-z,lazy
variant nopie -fno-PIE -no-pie
variant nocanary -fno-stack-protector
variant nofortify -U_FORTIFY_SOURCE -D_FORTIFY_SOURCE=0
variant execstack -Wl,-z,execstack
variant rpath -Wl,-rpath,/tmp/lib
# CET: Debian 12's start files carry no CET property, so a program never
# has one; a library linked without them does.
printf 'int chstk_f(int x) { return x + 1; }\n' >"$T/l.c"
gcc -shared -fPIC -nostartfiles -fcf-protection=full -o "$T/cet" "$T/l.c" &&
    gcc -shared -fPIC -nostartfiles -fcf-protection=none -o "$T/nocet" "$T/l.c" ||
    fail "build the CET libraries"

# The oracles say each variant lost what its name says.
expect "readelf: full has BIND_NOW, norelro has not" \
    "$(readelf -dW "$T/full" | grep -c 'BIND_NOW\|FLAGS.*NOW') $(readelf -dW "$T/norelro" | grep -c 'BIND_NOW\|FLAGS.*NOW')" "2 0"
expect "readelf: nopie is ET_EXEC" "$(readelf -hW "$T/nopie" | awk '/Type:/ { print $2 }')" EXEC
expect "readelf: execstack asks for an executable stack" "$(readelf_stack "$T/execstack")" RWE
expect "readelf: rpath has a RUNPATH" "$(readelf -dW "$T/rpath" | grep -c RUNPATH)" 1
expect "hardening-check: nocanary has no stack protector" \
    "$(hardening-check "$T/nocanary" 2>&1 | grep -c 'Stack protected: no')" 1
expect "hardening-check: nofortify is not fortified" \
    "$(hardening-check "$T/nofortify" 2>&1 | grep -c 'Fortify Source functions: no')" 1
expect "readelf: cet has the IBT and SHSTK property, nocet has not" \
    "$(readelf -nW "$T/cet" | grep -c 'IBT, SHSTK') $(readelf -nW "$T/nocet" | grep -c 'IBT')" "1 0"

# pack KIND NAME PROG: a package, tree or tarball holding PROG as
# usr/bin/prog.
pack() {
	d=$T/pack/$2
	rm -rf "$d" && mkdir -p "$d/usr/bin" "$d/DEBIAN"
	cp "$3" "$d/usr/bin/prog"
	case $1 in
	deb)
		printf 'Package: t\nVersion: 1\nArchitecture: amd64\nMaintainer: t <t@t>\nDescription: t\n' \
		    >"$d/DEBIAN/control"
		dpkg-deb -b --root-owner-group "$d" "$T/$2.deb" >/dev/null && echo "$T/$2.deb" ;;
	tree) rm -rf "$d/DEBIAN" && echo "$d" ;;
	tar) rm -rf "$d/DEBIAN" && tar -C "$d" -czf "$T/$2.tar.gz" . && echo "$T/$2.tar.gz" ;;
	esac
}

# The regressions elfscan names, as "PROPERTY" words, sorted.
lost() {
	"$ELFSCAN" --no-progress --diff --format=json "$1" "$2" >"$T/out.json" 2>"$T/err"
	echo $? >"$T/status"
	python3 -c '
import json, sys
print(" ".join(sorted(r["property"] for r in map(json.loads, open(sys.argv[1]))
    if r.get("diff") == "regression")))' "$T/out.json"
}

for kind in deb tree tar; do
	old=$(pack "$kind" "old-$kind" "$T/full")
	for v in norelro:relro nopie:pie nocanary:canary nofortify:fortify \
	    execstack:stack rpath:rpath nocet:ibt; do
		new=$(pack "$kind" "new-$kind-${v%%:*}" "$T/${v%%:*}")
		want=${v#*:}
		from=$old
		# Dropping CET loses both of its bits, from the library.
		if [ "$want" = ibt ]; then
			want="ibt shstk"
			from=$(pack "$kind" "old-$kind-cet" "$T/cet")
		fi
		expect "$kind: --diff names exactly what ${v%%:*} lost" "$(lost "$from" "$new")" "$want"
		expect "$kind: a regression is exit status 1" "$(cat "$T/status")" 1
	done
	new=$(pack "$kind" "same-$kind" "$T/full")
	expect "$kind: two identical builds: no regression" "$(lost "$old" "$new")" ""
	expect "$kind: and exit status 0" "$(cat "$T/status")" 0
	worse=$(pack "$kind" "worse-$kind" "$T/nopie")
	expect "$kind: the other way round, no regression" "$(lost "$worse" "$old")" ""
	expect "$kind: exit status 0" "$(cat "$T/status")" 0
	expect "$kind: and it is an improvement" \
	    "$(grep -c '"diff":"improvement","path":"usr/bin/prog".*"property":"pie"' "$T/out.json")" 1
done

# A library renamed with its version pairs with its old name; a new image
# with an executable stack is a regression of its own.
mkdir -p "$T/lo" "$T/ln"
gcc -shared -fPIC -Wl,-z,relro,-z,now -o "$T/lo/libt.so.1.2" "$T/m.c" &&
    gcc -shared -fPIC -Wl,-z,lazy -o "$T/ln/libt.so.1.3" "$T/m.c" &&
    gcc -z execstack -o "$T/ln/newprog" "$T/m.c" || fail "build the libraries"
expect "a renamed library: its lost RELRO, and the new exec-stack program" \
    "$(lost "$T/lo" "$T/ln")" "relro stack"
expect "--diff without two paths is a usage error" \
    "$("$ELFSCAN" --diff "$T/lo" >/dev/null 2>&1; echo $?)" 2
finish
