#!/bin/sh
# rpmbuild builds a real package from source, two programs, hello-exec
# linked with -z execstack and hello without, with macros.chstk read from a
# macros.d directory in the order rpm reads its own (before the platform
# file), or with --load. It proves: under fail (the default) the build
# stops and names hello-exec, and only it; under fix the packaged
# hello-exec has a non-executable stack by readelf and by the running
# kernel; under warn the package builds, says so and keeps the executable
# stack; a program allowed by %chstk_allow (with or without a leading
# slash, or by a glob) is packaged byte for byte as without the hook, a
# glob that matched nothing is named; a policy set in the spec file is
# obeyed; a file that is not sound ELF stops the build even under warn;
# brp-chstk runs before rpm's find-debuginfo and brp-strip, so that in a -debuginfo package the detached debugging
# file of a program fixed has the program's PT_GNU_STACK flags by readelf,
# is never judged itself, and one allowed builds under fail; and %global
# __brp_chstk %{nil} turns it off. Under fail the message names the fix in
# the build before the fix policy. %chstk_require: a defence the program
# lacks (by readelf) stops the build under fix and is named under warn,
# one it has passes, an unknown one is refused, and so is stripped, which
# rpm does after brp-chstk. %chstk_profile: the promises of fedora's flags
# that hello, built without them, lacks (by readelf) stop the build under
# fix and are named under warn; a misspelt profile is refused.
. "$top_srcdir/tests/packaging/common.sh"
need rpmbuild rpm2cpio cpio gcc readelf

TOP=$T/rpm
mkdir -p "$TOP/SOURCES" "$TOP/SPECS" "$T/macros.d"
cp "$FIX/hello.c" "$FIX/stack_perms.h" "$TOP/SOURCES/"
cp "$HOOKS/rpm/macros.chstk" "$T/macros.d/"
MACROPATH=$(rpm --showrc | sed -n 's/^Macro path: //p' |
    sed "s|macros\.d/macros\.\*|&:$T/macros.d/macros.*|")
expect_match "our macros.d comes before the platform file" "$MACROPATH" \
    "*$T/macros.d/macros.\**/platform/*"

# build NAME installed|load [RPMBUILD-OPTIONS]: builds the spec with the
# macros read one way or the other (before the options, which rpm reads in
# order); the package's files go to $T/NAME, the output to $T/NAME.log.
# Returns rpmbuild's status.
build() {
	name=$1 how=$2
	shift 2
	case $how in
	installed) set -- --macros "$MACROPATH" "$@" ;;
	load) set -- --load "$HOOKS/rpm/macros.chstk" "$@" ;;
	esac
	rm -rf "$TOP/RPMS" "$T/$name"
	rpmbuild "$@" --define "__brp_chstk_script $HOOKS/rpm/brp-chstk" \
	    --define "_topdir $TOP" --nodeps -bb "$TOP/SPECS/hello.spec" \
	    >"$T/$name.log" 2>&1
	status=$?
	mkdir "$T/$name"
	for rpm in "$TOP"/RPMS/*/*.rpm; do
		[ -f "$rpm" ] || continue
		(cd "$T/$name" && rpm2cpio "$rpm" | cpio -idm --quiet)
	done
	return $status
}
B=usr/bin

# Without the hook: the program really has an executable stack, so the
# checks below can tell.
write_spec "$TOP/SPECS/hello.spec"
build off installed --define '__brp_chstk %{nil}'
expect "off: builds" "$?" 0
expect "off: hello-exec is RWE by readelf" "$(readelf_stack "$T/off/$B/hello-exec")" RWE
expect "off: the kernel gives it an executable stack" "$(runs_with "$T/off/$B/hello-exec")" rwxp
output_lacks "off: brp-chstk did not run" "$T/off.log" brp-chstk

# fail, the default, as installed.
build fail installed
expect "fail: the build fails" "$?" 1
output_has "fail: names hello-exec and why" "$T/fail.log" \
    "brp-chstk: /usr/bin/hello-exec: executable stack: marked exec; nothing in the file tells: no DWARF"
output_lacks "fail: does not name hello" "$T/fail.log" "/usr/bin/hello:"
output_has "fail: the fix in the build first, then the fix policy, then an allowance" "$T/fail.log" \
    "brp-chstk: 1 ELF image with an executable stack: fix the build: give each assembly source a .note.GNU-stack section (or assemble with -Wa,--noexecstack) and link without -z execstack; until then %chstk_policy fix marks it noexec, or %chstk_allow allows it"
expect "fail: no package" "$(ls "$T/fail")" ""

# fail, with --load.
build fail-load load
expect "fail with --load: the build fails" "$?" 1
output_has "fail with --load: names hello-exec" "$T/fail-load.log" \
    "brp-chstk: /usr/bin/hello-exec: executable stack"

# fix, set in the spec file itself.
write_spec "$TOP/SPECS/hello.spec" '%global chstk_policy fix'
build fix installed
expect "fix: builds" "$?" 0
output_has "fix: says what it marked, and what it was" "$T/fix.log" \
    "brp-chstk: /usr/bin/hello-exec: executable stack marked noexec (was: marked exec; nothing in the file tells: no DWARF"
fixed_programs fix

# With a -debuginfo package: brp-chstk runs first, before find-debuginfo
# copies the program headers into the detached debugging files and before
# brp-strip; the debugging file of hello-exec has its fixed flags.
# debug_of NAME PROGRAM: PROGRAM's debugging file in the build NAME.
debug_of() { ls "$T/$1/usr/lib/debug/$B/$2"-[0-9]*.debug; }
# same_stack NAME PROGRAM FLAGS: the packaged PROGRAM and its debugging
# file both have PT_GNU_STACK FLAGS by readelf, and the latter is a
# detached debugging file (its .text has no bytes: NOBITS).
same_stack() {
	dbg=$(debug_of "$1" "$2")
	expect "$1: $2 is $3 by readelf" "$(readelf_stack "$T/$1/$B/$2")" "$3"
	expect "$1: its debugging file in the -debuginfo package is $3 too" "$(readelf_stack "$dbg")" "$3"
	expect "$1: which is a detached debugging file" \
	    "$(readelf -SW "$dbg" 2>/dev/null | awk '$2 == ".text" { print $3 }')" NOBITS
}
write_spec "$TOP/SPECS/hello.spec" '%global chstk_policy fix' '' debuginfo
build debuginfo installed
expect "debuginfo: builds" "$?" 0
expect "debuginfo: brp-chstk runs before find-debuginfo and brp-strip" \
    "$(grep -o -e '/brp-strip ' -e '/brp-chstk ' -e '/find-debuginfo ' "$T/debuginfo.log" | tr -d ' \n')" \
    "/brp-chstk/find-debuginfo/brp-strip"
output_has "debuginfo: says what it marked" "$T/debuginfo.log" \
    "brp-chstk: /usr/bin/hello-exec: executable stack marked noexec (was: marked exec; its DWARF names no assembly source and its code builds no trampoline"
output_lacks "debuginfo: names no debugging file" "$T/debuginfo.log" "brp-chstk: /usr/lib/debug/"
same_stack debuginfo hello-exec RW
same_stack debuginfo hello RW
expect "debuginfo: hello-exec gets a non-executable stack from the kernel" \
    "$(runs_with "$T/debuginfo/$B/hello-exec")" rw-p
write_spec "$TOP/SPECS/hello.spec" '' '' debuginfo
build debuginfo-allow load --define 'chstk_allow /usr/bin/hello-exec'
expect "debuginfo, allowed under fail: builds" "$?" 0
same_stack debuginfo-allow hello-exec RWE

# fix with --load, on the command line.
write_spec "$TOP/SPECS/hello.spec"
build fix-load load --define 'chstk_policy fix'
expect "fix with --load: builds" "$?" 0
expect "fix with --load: hello-exec is RW" "$(readelf_stack "$T/fix-load/$B/hello-exec")" RW

# warn
build warn load --define 'chstk_policy warn'
expect "warn: builds" "$?" 0
output_has "warn: warns about hello-exec" "$T/warn.log" \
    "brp-chstk: warning: /usr/bin/hello-exec: executable stack: marked exec"
expect "warn: hello-exec keeps its stack" "$(readelf_stack "$T/warn/$B/hello-exec")" RWE

# Allowed, without a leading slash, under fix: untouched.
build allow installed --define 'chstk_policy fix' --define 'chstk_allow usr/bin/hello-exec'
expect "allowed: builds" "$?" 0
output_has "allowed: says so" "$T/allow.log" \
    "brp-chstk: /usr/bin/hello-exec: executable stack allowed by %chstk_allow: marked exec"
expect "allowed: hello-exec keeps RWE" "$(readelf_stack "$T/allow/$B/hello-exec")" RWE
same_bytes "allowed: hello-exec byte for byte as without the hook" \
    "$T/allow/$B/hello-exec" "$T/off/$B/hello-exec"

# Allowed by a glob with a leading slash, among others, under fail.
build allow-glob load --define 'chstk_allow /opt/x /usr/bin/hello-e*'
expect "allowed by a glob: builds under fail" "$?" 0
same_bytes "allowed by a glob: hello-exec untouched" \
    "$T/allow-glob/$B/hello-exec" "$T/off/$B/hello-exec"
output_has "allowed by a glob: the glob that matched nothing is named" "$T/allow-glob.log" \
    "brp-chstk: warning: /opt/x: unused allowed glob: it matched no file with an executable stack"
output_lacks "allowed by a glob: the glob that matched is not" "$T/allow-glob.log" \
    "hello-e*: unused"

# %chstk_require: a defence the program lacks (full RELRO: readelf shows
# no BIND_NOW) stops the build under fix, which cannot add it; one it has
# (PIE: readelf shows DYN) passes; under warn it is named.
expect "hello: no BIND_NOW, by readelf" "$(readelf -dW "$T/off/$B/hello" | grep -c BIND_NOW)" 0
expect "hello: a PIE, by readelf" "$(readelf -hW "$T/off/$B/hello" | awk '/Type:/ { print $2 }')" DYN
build require-relro load --define 'chstk_policy fix' \
    --define 'chstk_require /usr/bin/hello*=relro'
expect "require relro: the build fails" "$?" 1
output_has "require relro: names hello and what it lacks" "$T/require-relro.log" \
    "brp-chstk: /usr/bin/hello: lacks required hardening: no-full-relro"
build require-pie load --define 'chstk_policy fix' --define 'chstk_require pie'
expect "require pie: builds" "$?" 0
build require-warn load --define 'chstk_policy warn' --define 'chstk_require relro'
expect "require under warn: builds" "$?" 0
output_has "require under warn: warns" "$T/require-warn.log" \
    "brp-chstk: warning: /usr/bin/hello: lacks required hardening: no-full-relro"

# A file that is not sound ELF stops the build even under warn.
write_spec "$TOP/SPECS/hello.spec" '' 'printf "\177ELF\2\1\1" >%{buildroot}%{_bindir}/broken'
build broken installed --define 'chstk_policy warn'
expect "not sound ELF: the build fails under warn" "$?" 1
output_has "not sound ELF: named" "$T/broken.log" "brp-chstk: /usr/bin/broken: cannot read: "

# A bad policy is an error.
write_spec "$TOP/SPECS/hello.spec"
build bogus installed --define 'chstk_policy maybe'
expect "a bad policy: the build fails" "$?" 1
output_has "a bad policy: said" "$T/bogus.log" "brp-chstk: unknown policy 'maybe': want fail, fix or warn"
build require-bogus installed --define 'chstk_require pie,nx'
expect "an unknown defence in %chstk_require: the build fails" "$?" 1
output_has "an unknown defence in %chstk_require: said" "$T/require-bogus.log" \
    "brp-chstk: unknown defence 'nx' in 'pie,nx': want bti, canary, fortify, gnu-relro, ibt, pac, pie, relro, rpath, shstk"
build require-stripped installed --define 'chstk_require /usr/bin/*=pie,stripped'
expect "stripped in %chstk_require: the build fails" "$?" 1
output_has "stripped in %chstk_require: said why" "$T/require-stripped.log" \
    "brp-chstk: cannot require 'stripped' in '/usr/bin/*=pie,stripped': the hook runs before the build strips the files"
# %chstk_profile: hello, built without redhat-rpm-config's flags, has no
# canary, calls printf unfortified and is not bound now (readelf), which
# fedora's flags promise: under fix the build fails naming each, under
# warn they are named; a misspelt profile is refused.
expect "hello: no __stack_chk_fail, printf without __printf_chk, by readelf" \
    "$(readelf --dyn-syms -W "$T/off/$B/hello" | grep -c '__stack_chk_fail\|__printf_chk') $(readelf --dyn-syms -W "$T/off/$B/hello" | grep -c ' printf@')" "0 1"
build profile load --define 'chstk_policy fix' --define 'chstk_profile fedora'
expect "%chstk_profile fedora: the build fails" "$?" 1
output_has "%chstk_profile fedora: names hello and what it lacks" "$T/profile.log" \
    "brp-chstk: /usr/bin/hello: lacks required hardening: no-full-relro, no-canary, no-fortify, no-ibt, no-shstk"
build profile-warn load --define 'chstk_policy warn' --define 'chstk_profile fedora'
expect "%chstk_profile under warn: builds" "$?" 0
output_has "%chstk_profile under warn: warns" "$T/profile-warn.log" \
    "brp-chstk: warning: /usr/bin/hello: lacks required hardening: no-full-relro, no-canary, no-fortify, no-ibt, no-shstk"
build profile-bogus installed --define 'chstk_profile fedorra'
expect "a misspelt %chstk_profile: the build fails" "$?" 1
output_has "a misspelt %chstk_profile: said, with the close one" "$T/profile-bogus.log" \
    "brp-chstk: --profile=fedorra: unknown profile (did you mean 'fedora'?)"
# %chstk_compare_with: the previous build, as a tree: hello there bound
# now (readelf), the build's does not; the lost RELRO stops the build
# under fix, named; under warn it is only named.
old=$T/oldtree
mkdir -p "$old/usr/bin"
gcc -Wl,-z,relro,-z,now -o "$old/usr/bin/hello" "$FIX/hello.c" &&
    gcc -z execstack -o "$old/usr/bin/hello-exec" "$FIX/hello.c" || fail "build the previous tree"
expect "the previous hello binds now, by readelf" \
    "$(readelf -dW "$old/usr/bin/hello" | grep -c 'BIND_NOW\|FLAGS.*NOW')" 2
write_spec "$TOP/SPECS/hello.spec"
build compare-fix load --define 'chstk_policy fix' --define "chstk_compare_with $old"
expect "%chstk_compare_with: lost RELRO stops the build under fix" "$?" 1
output_has "%chstk_compare_with: names the file and the defence" "$T/compare-fix.log" \
    "brp-chstk: usr/bin/hello: lost RELRO since $old (relro: was full, now partial)"
build compare-warn load --define 'chstk_policy warn' --define "chstk_compare_with $old"
expect "%chstk_compare_with under warn: builds" "$?" 0
output_has "%chstk_compare_with under warn: names it" "$T/compare-warn.log" \
    "brp-chstk: warning: usr/bin/hello: lost RELRO since $old (relro: was full, now partial)"
finish
