#!/bin/sh
# dpkg-buildpackage builds a real package from source (debhelper compat 13,
# dh $@ --with chstk, the addon found through PERL5LIB): two programs,
# hello-exec linked with -z execstack and hello without. It proves: the
# addon runs dh_chstk right before dh_strip; under fail (the default) the
# build stops, names hello-exec, and only it, and names the fix in the
# build before the fix policy; under fix the packaged hello-exec has a
# non-executable stack by readelf and by the running kernel, and its
# detached debugging file in the -dbgsym package (found by build ID) has
# the same PT_GNU_STACK flags by readelf; under warn it builds, says so
# and keeps the executable stack; a
# program allowed by --allow, or by a glob in debian/PACKAGE.chstk-allow,
# is packaged byte for byte as without the hook, a glob that matched
# nothing is named; a file that is not sound
# ELF stops the build even under warn; a bad policy is refused. --require:
# a defence the program lacks (by readelf) stops the build under fix and
# is named under warn, one it has passes, an unknown one is refused, and
# so is stripped, which dh_strip does after dh_chstk. --profile: the
# promises of debian's flags that hello, built without them, lacks (by
# readelf) stop the build under fix and are named under warn; a misspelt
# profile is refused.
. "$top_srcdir/tests/packaging/common.sh"
need dpkg-buildpackage dh dpkg-deb gcc readelf perl
PATH=$HOOKS/debhelper:$PATH
PERL5LIB=$top_srcdir/packaging/debhelper${PERL5LIB:+:$PERL5LIB}
export PATH PERL5LIB

S=$T/src/chstk-hello
mkdir -p "$S/debian"
cp "$FIX/hello.c" "$FIX/stack_perms.h" "$S/"
cat >"$S/debian/control" <<'EOF'
Source: chstk-hello
Section: misc
Priority: optional
Maintainer: chstk tests <tests@example.invalid>
Build-Depends: debhelper-compat (= 13)
Standards-Version: 4.6.2
Rules-Requires-Root: no

Package: chstk-hello
Architecture: any
Depends: ${shlibs:Depends}, ${misc:Depends}
Description: two programs, one linked with an executable stack
 A package for the tests of dh_chstk.
EOF
cat >"$S/debian/changelog" <<'EOF'
chstk-hello (1) unstable; urgency=medium

  * A package for the tests of dh_chstk.

 -- chstk tests <tests@example.invalid>  Thu, 03 Dec 2026 00:00:00 +0000
EOF

# write_rules [DH-CHSTK-OPTIONS|off [INSTALL-LINE]]: the rules; with
# options, an override runs dh_chstk with them; off builds without the addon.
write_rules() {
	with="--with chstk"
	[ "${1:-}" = off ] && with=
	{
		printf '#!/usr/bin/make -f\n%%:\n\tdh $@ %s\n' "$with"
		printf 'override_dh_auto_build:\n'
		printf '\tgcc -o hello hello.c\n\tgcc -z execstack -o hello-exec hello.c\n'
		printf 'override_dh_auto_install:\n'
		printf '\tinstall -D -m 755 -t debian/chstk-hello/usr/bin hello hello-exec\n'
		[ -n "${2:-}" ] && printf '\t%s\n' "$2"
		printf 'override_dh_auto_clean:\n\trm -f hello hello-exec\n'
		if [ -n "${1:-}" ] && [ "$1" != off ]; then
			printf 'override_dh_chstk:\n\tdh_chstk %s\n' "$1"
		fi
	} >"$S/debian/rules"
	chmod +x "$S/debian/rules"
}

# build NAME: the package's files go to $T/NAME, those of its -dbgsym
# package to $T/NAME-dbgsym, the output to $T/NAME.log. Returns
# dpkg-buildpackage's status.
build() {
	rm -rf "$T"/src/*.deb "$T"/src/*.ddeb "$T/$1" "$T/$1-dbgsym"
	(cd "$S" && dpkg-buildpackage -us -uc -b) >"$T/$1.log" 2>&1
	status=$?
	mkdir "$T/$1" "$T/$1-dbgsym"
	for deb in "$T"/src/chstk-hello_*.deb; do
		[ -f "$deb" ] && dpkg-deb -x "$deb" "$T/$1"
	done
	for deb in "$T"/src/chstk-hello-dbgsym_*.deb; do
		[ -f "$deb" ] && dpkg-deb -x "$deb" "$T/$1-dbgsym"
	done
	return $status
}
B=usr/bin

# The build failed, and at dh_chstk: the last debhelper command the log
# names (dh echoes each, each prefixes its messages) is dh_chstk, so an
# unrelated failure of the build does not pass for ours.
failed_at_chstk() { # LABEL STATUS BUILD
	last=$(awk '{ sub(/:$/, "", $1) } $1 ~ /^dh_/ { w = $1 } END { print w }' "$T/$3.log")
	expect_match "$1" "$2 $last" "[1-9]* dh_chstk"
}

# debug_file NAME PROGRAM: the detached debugging file of the packaged
# PROGRAM in the -dbgsym package, by the build ID readelf reads in it.
debug_file() {
	id=$(readelf -nW "$T/$1/$B/$2" | sed -n 's/.*Build ID: //p')
	echo "$T/$1-dbgsym/usr/lib/debug/.build-id/$(echo "$id" | cut -c1-2)/$(echo "$id" | cut -c3-).debug"
}
# same_stack NAME PROGRAM FLAGS: the packaged PROGRAM and its debugging
# file both have PT_GNU_STACK FLAGS by readelf, and the latter is a
# detached debugging file (its .text has no bytes: NOBITS).
same_stack() {
	dbg=$(debug_file "$1" "$2")
	expect "$1: $2 is $3 by readelf" "$(readelf_stack "$T/$1/$B/$2")" "$3"
	expect "$1: its debugging file in the -dbgsym package is $3 too" "$(readelf_stack "$dbg")" "$3"
	expect "$1: which is a detached debugging file" \
	    "$(readelf -SW "$dbg" 2>/dev/null | awk '$2 == ".text" { print $3 }')" NOBITS
}

# Without the addon: the program really has an executable stack, so the
# checks below can tell.
write_rules off
build off
expect "off: builds" "$?" 0
expect "off: hello-exec is RWE by readelf" "$(readelf_stack "$T/off/$B/hello-exec")" RWE
expect "off: the kernel gives it an executable stack" "$(runs_with "$T/off/$B/hello-exec")" rwxp
output_lacks "off: dh_chstk did not run" "$T/off.log" dh_chstk

# fail, the default, without an override.
write_rules
build fail
failed_at_chstk "fail: the build fails" "$?" fail
output_has "fail: names hello-exec and why" "$T/fail.log" \
    "dh_chstk: error: debian/chstk-hello/usr/bin/hello-exec: executable stack: marked exec; nothing in the file tells: no DWARF"
output_lacks "fail: does not name hello" "$T/fail.log" \
    "dh_chstk: error: debian/chstk-hello/usr/bin/hello:"
output_has "fail: the fix in the build first, then the fix policy, then an allowance" "$T/fail.log" \
    "dh_chstk: error: chstk-hello: 1 ELF image with an executable stack: fix the build: give each assembly source a .note.GNU-stack section (or assemble with -Wa,--noexecstack) and link without -z execstack; until then --policy=fix marks it noexec, or --allow or debian/chstk-hello.chstk-allow allows it"
expect "fail: no package" "$(ls "$T/fail")" ""

# fix
write_rules --policy=fix
build fix
expect "fix: builds" "$?" 0
output_has "fix: says what it marked, and what it was" "$T/fix.log" \
    "dh_chstk: debian/chstk-hello/usr/bin/hello-exec: executable stack marked noexec (was: marked exec; nothing in the file tells: no DWARF"
expect "fix: dh_chstk runs right before dh_strip" \
    "$(sed -n 's/^   \(debian\/rules override_\)\{0,1\}\(dh_[a-z_]*\).*/\2/p' "$T/fix.log" | grep -B1 -x dh_strip)" \
    "dh_chstk
dh_strip"
fixed_programs fix
same_stack fix hello-exec RW
same_stack fix hello RW

# warn
write_rules --policy=warn
build warn
expect "warn: builds" "$?" 0
output_has "warn: warns about hello-exec" "$T/warn.log" \
    "dh_chstk: warning: debian/chstk-hello/usr/bin/hello-exec: executable stack: marked exec"
expect "warn: hello-exec keeps its stack" "$(readelf_stack "$T/warn/$B/hello-exec")" RWE

# Allowed by --allow, with a leading slash, under fix: untouched.
write_rules "--policy=fix --allow=/opt/x --allow=/usr/bin/hello-exec"
build allow
expect "allowed by --allow: builds" "$?" 0
output_has "allowed by --allow: says so" "$T/allow.log" \
    "dh_chstk: debian/chstk-hello/usr/bin/hello-exec: executable stack allowed: marked exec"
output_has "allowed by --allow: the glob that matched nothing is named" "$T/allow.log" \
    "dh_chstk: warning: /opt/x: unused allowed glob: it matched no file with an executable stack"
output_lacks "allowed by --allow: the glob that matched is not" "$T/allow.log" \
    "/usr/bin/hello-exec: unused"
expect "allowed by --allow: hello-exec keeps RWE" "$(readelf_stack "$T/allow/$B/hello-exec")" RWE
same_stack allow hello-exec RWE
same_bytes "allowed by --allow: hello-exec byte for byte as without the hook" \
    "$T/allow/$B/hello-exec" "$T/off/$B/hello-exec"

# --require: a defence the program lacks (full RELRO: readelf shows no
# BIND_NOW) fails the build under fix, which cannot add it; one it has
# (PIE: readelf shows DYN) passes.
expect "hello: no BIND_NOW, by readelf" "$(readelf -dW "$T/off/$B/hello" | grep -c BIND_NOW)" 0
expect "hello: a PIE, by readelf" "$(readelf -hW "$T/off/$B/hello" | awk '/Type:/ { print $2 }')" DYN
write_rules "--policy=fix --require=/usr/bin/hello=relro"
build require-relro
failed_at_chstk "--require=relro: the build fails" "$?" require-relro
output_has "--require=relro: names hello and what it lacks" "$T/require-relro.log" \
    "dh_chstk: error: debian/chstk-hello/usr/bin/hello: lacks required hardening: no-full-relro"
write_rules "--policy=fix --require=pie"
build require-pie
expect "--require=pie: builds" "$?" 0
write_rules "--policy=warn --require=relro"
build require-warn
expect "--require under warn: builds" "$?" 0
output_has "--require under warn: names hello and what it lacks" "$T/require-warn.log" \
    "dh_chstk: warning: debian/chstk-hello/usr/bin/hello: lacks required hardening: no-full-relro"
write_rules "--require=pie,nx"
build require-bogus
failed_at_chstk "--require with an unknown defence: the build fails" "$?" require-bogus
output_has "--require with an unknown defence: said" "$T/require-bogus.log" \
    "dh_chstk: error: unknown defence 'nx' in 'pie,nx': want bti, canary, fortify, gnu-relro, ibt, pac, pie, relro, rpath, shstk"
write_rules "--require=/usr/bin/*=pie,stripped"
build require-stripped
failed_at_chstk "--require=stripped: the build fails" "$?" require-stripped
output_has "--require=stripped: said why" "$T/require-stripped.log" \
    "dh_chstk: error: cannot require 'stripped' in '/usr/bin/*=pie,stripped': the hook runs before the build strips the files"

# --profile: hello, built without dpkg-buildflags' flags, has no canary
# and calls printf unfortified (readelf), which debian's flags promise:
# under fix the build fails naming both, under warn they are named; a
# misspelt profile is refused with elfscan's close name.
expect "hello: no __stack_chk_fail, printf without __printf_chk, by readelf" \
    "$(readelf --dyn-syms -W "$T/off/$B/hello" | grep -c '__stack_chk_fail\|__printf_chk') $(readelf --dyn-syms -W "$T/off/$B/hello" | grep -c ' printf@')" "0 1"
write_rules "--policy=fix --profile=debian"
build profile
failed_at_chstk "--profile=debian: the build fails" "$?" profile
output_has "--profile=debian: names hello and what it lacks" "$T/profile.log" \
    "dh_chstk: error: debian/chstk-hello/usr/bin/hello: lacks required hardening: no-canary, no-fortify"
write_rules "--policy=warn --profile=debian"
build profile-warn
expect "--profile under warn: builds" "$?" 0
output_has "--profile under warn: names hello and what it lacks" "$T/profile-warn.log" \
    "dh_chstk: warning: debian/chstk-hello/usr/bin/hello: lacks required hardening: no-canary, no-fortify"
write_rules "--policy=fix --profile=debain"
build profile-bogus
failed_at_chstk "--profile with a misspelt name: the build fails" "$?" profile-bogus
output_has "--profile with a misspelt name: said, with the close one" "$T/profile-bogus.log" \
    "dh_chstk: error: --profile=debain: unknown profile (did you mean 'debian'?)"

# Allowed by a glob without a leading slash in debian/PACKAGE.chstk-allow,
# under fail.
printf '# the test program\n\nusr/bin/hello-e*\n' >"$S/debian/chstk-hello.chstk-allow"
write_rules
build allow-file
expect "allowed by chstk-allow: builds under fail" "$?" 0
same_bytes "allowed by chstk-allow: hello-exec untouched" \
    "$T/allow-file/$B/hello-exec" "$T/off/$B/hello-exec"
rm "$S/debian/chstk-hello.chstk-allow"

# A file that is not sound ELF stops the build even under warn.
write_rules --policy=warn 'printf "\\177ELF\\2\\1\\1" >debian/chstk-hello/usr/bin/broken'
build broken
failed_at_chstk "not sound ELF: the build fails under warn" "$?" broken
output_has "not sound ELF: named" "$T/broken.log" \
    "dh_chstk: error: debian/chstk-hello/usr/bin/broken: cannot read: "

# A bad policy is refused.
write_rules --policy=maybe
build bogus
failed_at_chstk "a bad policy: the build fails" "$?" bogus
output_has "a bad policy: said" "$T/bogus.log" \
    "dh_chstk: error: unknown policy 'maybe': want fail, fix or warn"
# --compare-with: the previous build, packed here: hello there had full
# RELRO (readelf: BIND_NOW), the build's has not; under fix (which marks
# hello-exec) the lost RELRO still fails the build, named; under warn it
# is only named; against a previous build like this one, nothing is.
old=$T/old
mkdir -p "$old/usr/bin" "$old/DEBIAN"
gcc -Wl,-z,relro,-z,now -o "$old/usr/bin/hello" "$FIX/hello.c" &&
    gcc -z execstack -o "$old/usr/bin/hello-exec" "$FIX/hello.c" &&
    printf 'Package: chstk-hello\nVersion: 0\nArchitecture: amd64\nMaintainer: t <t@t>\nDescription: t\n' \
    >"$old/DEBIAN/control" &&
    dpkg-deb -b --root-owner-group "$old" "$T/old.deb" >/dev/null || fail "pack the previous build"
expect "the previous hello binds now, by readelf" \
    "$(readelf -dW "$old/usr/bin/hello" | grep -c 'BIND_NOW\|FLAGS.*NOW')" 2
write_rules "--policy=fix --compare-with=$T/old.deb"
build compare-fix
failed_at_chstk "--compare-with: lost RELRO fails the build under fix" "$?" compare-fix
expect "--compare-with: this build's hello does not bind now, by readelf" \
    "$(readelf -dW "$S/debian/chstk-hello/usr/bin/hello" | grep -c 'BIND_NOW\|FLAGS.*NOW') $(readelf -lW "$S/debian/chstk-hello/usr/bin/hello" | grep -c GNU_RELRO)" "0 1"
output_has "--compare-with: names the file and the defence" "$T/compare-fix.log" \
    "dh_chstk: error: usr/bin/hello: lost RELRO since $T/old.deb (relro: was full, now partial)"
output_lacks "--compare-with: the fixed exec stack is no regression" "$T/compare-fix.log" \
    "usr/bin/hello-exec: the stack"
write_rules "--policy=warn --compare-with=$T/old.deb"
build compare-warn
expect "--compare-with under warn: builds" "$?" 0
output_has "--compare-with under warn: names it" "$T/compare-warn.log" \
    "usr/bin/hello: lost RELRO since $T/old.deb (relro: was full, now partial)"
gcc -o "$old/usr/bin/hello" "$FIX/hello.c" &&
    dpkg-deb -b --root-owner-group "$old" "$T/same.deb" >/dev/null || fail "pack the same build"
write_rules "--policy=fix --compare-with=$T/same.deb"
build compare-same
expect "--compare-with a build like this one: builds" "$?" 0
output_lacks "--compare-with a build like this one: no regression named" "$T/compare-same.log" \
    " since $T/same.deb"
finish
