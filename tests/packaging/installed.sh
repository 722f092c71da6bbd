#!/bin/sh
# make installcheck: the hooks as installed, without CHSTK_HOOK_*, run the
# elfscan and chstk installed beside them. brp-chstk and dh_chstk, under
# fix, mark a program linked with -z execstack noexec (by readelf), and
# dh finds the addon where it was installed.
#
# The environment (set by packaging/local.mk): top_srcdir, CHSTK and
# ELFSCAN (the installed tools), BINDIR, RPMHOOKDIR, PERL5DIR.
. "$top_srcdir/tests/lib.sh"
need gcc readelf perl dh
unset CHSTK_HOOK_ELFSCAN CHSTK_HOOK_CHSTK

R=$T/buildroot
mkdir -p "$R/usr/bin"
gcc -z execstack -o "$R/usr/bin/hello-exec" "$FIX/hello.c" || fail "build"
RPM_BUILD_ROOT=$R "$RPMHOOKDIR/brp-chstk" fix >"$T/out" 2>&1
expect "installed brp-chstk: exit 0" "$?" 0
expect "installed brp-chstk: hello-exec is RW" "$(readelf_stack "$R/usr/bin/hello-exec")" RW

P=$T/pkg
mkdir -p "$P/debian/chstk-hello/usr/bin"
printf 'Source: chstk-hello\nMaintainer: chstk tests <tests@example.invalid>\nBuild-Depends: debhelper-compat (= 13)\n\nPackage: chstk-hello\nArchitecture: any\nDescription: a test\n a test\n' \
    >"$P/debian/control"
gcc -z execstack -o "$P/debian/chstk-hello/usr/bin/hello-exec" "$FIX/hello.c" || fail "build"
(cd "$P" && "$BINDIR/dh_chstk" --policy=fix) >"$T/out" 2>&1
expect "installed dh_chstk: exit 0" "$?" 0
expect "installed dh_chstk: hello-exec is RW" \
    "$(readelf_stack "$P/debian/chstk-hello/usr/bin/hello-exec")" RW
printf 'chstk-hello (1) unstable; urgency=medium\n\n  * A test.\n\n -- chstk tests <tests@example.invalid>  Thu, 03 Dec 2026 00:00:00 +0000\n' \
    >"$P/debian/changelog"
(cd "$P" && PERL5LIB=$PERL5DIR dh binary --with chstk --no-act) >"$T/seq" 2>&1
expect "installed addon: dh runs dh_chstk right before dh_strip" \
    "$(sed -n 's/^ *\(dh_[a-z_]*\).*/\1/p' "$T/seq" | grep -B1 -x dh_strip)" \
    "dh_chstk
dh_strip"
finish
