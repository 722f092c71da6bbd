#!/bin/sh
# A file or directory the hooks cannot read is an error under every policy:
# run as the user nobody over a tree where root keeps a directory and a
# file to itself, brp-chstk and dh_chstk exit 2 and name both, under warn
# as under fail; under fix they leave the program with an executable stack
# as it was rather than mark a tree they could not see whole.
. "$top_srcdir/tests/packaging/common.sh"
need gcc setpriv perl

nobody_setup
real=$(dirname "$ELFSCAN")/.libs/elfscan
[ -x "$real" ] && cp "$real" "$N/bin/elfscan" || cp "$ELFSCAN" "$N/bin/elfscan"
cp "$HOOKS/rpm/brp-chstk" "$HOOKS/debhelper/dh_chstk" "$N/bin/"
chmod -R a+rX "$N/bin"
TOOLS="CHSTK_HOOK_ELFSCAN=$N/bin/elfscan CHSTK_HOOK_CHSTK=$N/bin/chstk"

# tree DIR: a program with an executable stack, a directory and a file
# that nobody cannot read; the rest belongs to nobody.
tree() {
	mkdir -p "$1/usr/bin" "$1/usr/lib/locked"
	gcc -z execstack -o "$1/usr/bin/hello-exec" "$FIX/hello.c" || fail "build"
	cp "$1/usr/bin/hello-exec" "$1/usr/lib/locked/"
	cp "$1/usr/bin/hello-exec" "$1/usr/bin/secret"
	chown -R nobody "$1"
	chown root "$1/usr/lib/locked" "$1/usr/bin/secret"
	chmod 700 "$1/usr/lib/locked"
	chmod 600 "$1/usr/bin/secret"
}

R=$T/buildroot
tree "$R"
before=$(stamp "$R/usr/bin/hello-exec")
for policy in fail warn fix; do
	# shellcheck disable=SC2086
	as_nobody env $TOOLS RPM_BUILD_ROOT="$R" perl "$N/bin/brp-chstk" "$policy" \
	    >"$T/out" 2>"$T/err"
	expect "brp-chstk $policy: exit 2" "$?" 2
	expect_match "brp-chstk $policy: names the directory" "$(cat "$T/err")" \
	    "*brp-chstk: /usr/lib/locked: cannot read: cannot open directory: Permission denied*"
	expect_match "brp-chstk $policy: and the file" "$(cat "$T/err")" \
	    "*brp-chstk: /usr/bin/secret: cannot read: cannot open: Permission denied*"
	expect_match "brp-chstk $policy: says it could not read the build root" \
	    "$(cat "$T/err")" "*brp-chstk: $R: elfscan could not read every file of the build root*"
done
expect "brp-chstk fix: hello-exec untouched" "$(stamp "$R/usr/bin/hello-exec")" "$before"
expect "brp-chstk fix: hello-exec still RWE" "$(readelf_stack "$R/usr/bin/hello-exec")" RWE

P=$T/pkg
mkdir -p "$P/debian"
printf 'Source: chstk-hello\nMaintainer: chstk tests <tests@example.invalid>\nBuild-Depends: debhelper-compat (= 13)\n\nPackage: chstk-hello\nArchitecture: any\nDescription: a test\n a test\n' \
    >"$P/debian/control"
chown -R nobody "$P"
tree "$P/debian/chstk-hello"
before=$(stamp "$P/debian/chstk-hello/usr/bin/hello-exec")
for policy in fail warn fix; do
	# shellcheck disable=SC2086
	(cd "$P" && as_nobody env $TOOLS perl "$N/bin/dh_chstk" --policy="$policy") \
	    >"$T/out" 2>"$T/err"
	expect "dh_chstk $policy: exit 2" "$?" 2
	expect_match "dh_chstk $policy: names the directory" "$(cat "$T/err")" \
	    "*dh_chstk: error: debian/chstk-hello/usr/lib/locked: cannot read: cannot open directory: Permission denied*"
	expect_match "dh_chstk $policy: and the file" "$(cat "$T/err")" \
	    "*dh_chstk: error: debian/chstk-hello/usr/bin/secret: cannot read: cannot open: Permission denied*"
	expect_match "dh_chstk $policy: says it could not read the package" "$(cat "$T/err")" \
	    "*dh_chstk: error: debian/chstk-hello: elfscan could not read every file*"
done
expect "dh_chstk fix: hello-exec untouched" \
    "$(stamp "$P/debian/chstk-hello/usr/bin/hello-exec")" "$before"
finish
