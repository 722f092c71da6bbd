#!/bin/sh
# dpkg-buildpackage builds a real package from source (debhelper compat 13,
# dh $@ --with chstk, the addon found through PERL5LIB): two programs,
# hello-exec linked with -z execstack and hello without. It proves: the
# addon runs dh_chstk right after dh_strip; under fail (the default) the
# build stops and names hello-exec, and only it; under fix the packaged
# hello-exec has a non-executable stack by readelf and by the running
# kernel; under warn it builds, says so and keeps the executable stack; a
# program allowed by --allow, or by a glob in debian/PACKAGE.chstk-allow,
# is packaged byte for byte as without the hook, a glob that matched
# nothing is named; a file that is not sound
# ELF stops the build even under warn; a bad policy is refused. --require:
# a defence the program lacks (by readelf) stops the build under fix and
# is named under warn, one it has passes, an unknown one is refused.
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

# build NAME: the package's files go to $T/NAME, the output to $T/NAME.log.
# Returns dpkg-buildpackage's status.
build() {
	rm -rf "$T"/src/*.deb "$T"/src/*.ddeb "$T/$1"
	(cd "$S" && dpkg-buildpackage -us -uc -b) >"$T/$1.log" 2>&1
	status=$?
	mkdir "$T/$1"
	for deb in "$T"/src/chstk-hello_*.deb; do
		[ -f "$deb" ] && dpkg-deb -x "$deb" "$T/$1"
	done
	return $status
}
B=usr/bin

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
expect_match "fail: the build fails" "$?" "[1-9]*"
output_has "fail: names hello-exec and why" "$T/fail.log" \
    "dh_chstk: error: debian/chstk-hello/usr/bin/hello-exec: executable stack: marked exec [exec-stack]"
output_lacks "fail: does not name hello" "$T/fail.log" \
    "dh_chstk: error: debian/chstk-hello/usr/bin/hello:"
expect "fail: no package" "$(ls "$T/fail")" ""
expect "fail: dh_chstk runs right after dh_strip" \
    "$(sed -n 's/^   \(dh_[a-z_]*\).*/\1/p' "$T/fail.log" | grep -A1 -x dh_strip)" \
    "dh_strip
dh_chstk"

# fix
write_rules --policy=fix
build fix
expect "fix: builds" "$?" 0
output_has "fix: says what it marked" "$T/fix.log" \
    "dh_chstk: debian/chstk-hello/usr/bin/hello-exec: executable stack marked noexec: marked exec [exec-stack]"
fixed_programs fix

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
same_bytes "allowed by --allow: hello-exec byte for byte as without the hook" \
    "$T/allow/$B/hello-exec" "$T/off/$B/hello-exec"

# --require: a defence the program lacks (full RELRO: readelf shows no
# BIND_NOW) fails the build under fix, which cannot add it; one it has
# (PIE: readelf shows DYN) passes.
expect "hello: no BIND_NOW, by readelf" "$(readelf -dW "$T/off/$B/hello" | grep -c BIND_NOW)" 0
expect "hello: a PIE, by readelf" "$(readelf -hW "$T/off/$B/hello" | awk '/Type:/ { print $2 }')" DYN
write_rules "--policy=fix --require=/usr/bin/hello=relro"
build require-relro
expect_match "--require=relro: the build fails" "$?" "[1-9]*"
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
expect_match "--require with an unknown defence: the build fails" "$?" "[1-9]*"
output_has "--require with an unknown defence: said" "$T/require-bogus.log" \
    "dh_chstk: error: unknown defence 'nx' in 'pie,nx': want bti, canary, fortify, ibt, pac, pie, relro, rpath, shstk, stripped"

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
expect_match "not sound ELF: the build fails under warn" "$?" "[1-9]*"
output_has "not sound ELF: named" "$T/broken.log" \
    "dh_chstk: error: debian/chstk-hello/usr/bin/broken: cannot read: "

# A bad policy is refused.
write_rules --policy=maybe
build bogus
expect_match "a bad policy: the build fails" "$?" "[1-9]*"
output_has "a bad policy: said" "$T/bogus.log" \
    "dh_chstk: error: unknown policy 'maybe': want fail, fix or warn"
finish
