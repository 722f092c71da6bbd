#!/bin/sh
# elfscan --profile NAME: a program built with the distribution's own
# flags passes its profile, and one built with a flag dropped fails naming
# exactly the property that flag gives, which readelf shows missing. The
# oracle for debian and debian-all is dpkg-buildflags (the default, and
# DEB_BUILD_MAINT_OPTIONS=hardening=+all); for fedora, rhel9, rhel10,
# ubuntu and openssf, the flags their sources give (elfscan(1), PROFILES:
# gcc here takes them all but -specs, whose -fPIE and -pie are given
# directly, and Ubuntu's compiled-in defaults, given on the command line).
# Machines: Debian's start files carry no CET property (readelf), so an
# x86-64 program linked here is never IBT- or SHSTK-marked; debian does not
# ask it, fedora does, and -Wl,-z,ibt,-z,shstk stands in for Fedora's start
# files. AArch64 programs (clang, lld) are asked BTI and PAC by fedora, not
# by rhel9, and an x86 promise is never asked of them. --list names every
# promise with its source, its properties are --require's, and the flags
# no file shows are "not checked", never findings. --profile and --require
# combine; an unknown profile is a one-line usage error.
. "$top_srcdir/tests/lib.sh"
need gcc clang ld.lld readelf dpkg-buildflags python3
: "${ELFSCAN:?}"

D=$T/tree
mkdir -p "$D"
SRC=$FIX/hardening.c
cd "$T" || exit 99

# findings PROFILE FILE [OPTIONS]: the findings elfscan --profile gives
# FILE, comma-separated ("" for none).
findings() {
	p=$1 f=$2
	shift 2
	"$ELFSCAN" --no-progress --format=json --profile "$p" "$@" "$f" |
	    python3 -c 'import json, sys; print(",".join(json.loads(sys.stdin.readline())["findings"]))'
}
build() { out=$1; shift; "$@" -o "$out" || fail "build $out"; }
# The oracles' views of a file.
relro_of() { readelf -lW "$1" | grep -c GNU_RELRO; }
now_of() { readelf -dW "$1" | grep -q 'BIND_NOW\|FLAGS_1.* NOW' && echo 1 || echo 0; }
type_of() { readelf -hW "$1" | awk '/Type:/ { print $2 }'; }
canary_of() { readelf --dyn-syms -W "$1" | grep -c ' __stack_chk_fail@'; }
chk_of() { readelf --dyn-syms -W "$1" | grep -c '__[a-z]*_chk@'; }
cet_of() { readelf -nW "$1" | grep -o 'IBT\|SHSTK' | tr '\n' ' '; }
arm_of() { readelf -nW "$1" | sed -n 's/.*AArch64 feature: //p'; }

# Debian: dpkg-buildflags, default and hardening=+all.
flags() { dpkg-buildflags --get CFLAGS; dpkg-buildflags --get CPPFLAGS; dpkg-buildflags --get LDFLAGS; }
deb=$(flags | tr '\n' ' ')
deball=$(DEB_BUILD_MAINT_OPTIONS=hardening=+all flags | tr '\n' ' ')
echo "note: dpkg-buildflags: $deb"
echo "note: hardening=+all: $deball"
# without WORD: the default flags but WORD.
without() { printf '%s\n' $deb | grep -vx -- "$1" | tr '\n' ' '; }
build "$D/deb" gcc $deb "$SRC"
build "$D/deb-all" gcc $deball "$SRC"
build "$D/deb-cet" gcc $deb -fcf-protection "$SRC"
build "$D/deb-nocanary" gcc $(without -fstack-protector-strong) "$SRC"
build "$D/deb-nofortify" gcc $(without -D_FORTIFY_SOURCE=2) "$SRC"
build "$D/deb-norelro" gcc $(without -Wl,-z,relro) -Wl,-z,norelro "$SRC"
build "$D/deb-nopie" gcc $deb -fno-pie -no-pie "$SRC"
build "$D/deb-nowarn" gcc $(printf '%s\n' $deb | grep -v 'Wformat\|format-security\|date-time' | tr '\n' ' ') "$SRC"
case $deb in *-Wl,-z,now*) fail "dpkg-buildflags' default gives -z now: debian should ask full RELRO" ;; esac

expect "readelf: the debian build has GNU_RELRO, no BIND_NOW" "$(relro_of "$D/deb") $(now_of "$D/deb")" "1 0"
expect "readelf: the debian build is a PIE with a canary and __*_chk imports" \
    "$(type_of "$D/deb") $(canary_of "$D/deb") $(chk_of "$D/deb" | awk '{ print ($1 > 0) }')" "DYN 1 1"
expect "readelf: hardening=+all adds BIND_NOW" "$(now_of "$D/deb-all")" 1
expect "readelf: no canary without -fstack-protector-strong" "$(canary_of "$D/deb-nocanary")" 0
expect "readelf: no __*_chk without -D_FORTIFY_SOURCE=2" "$(chk_of "$D/deb-nofortify")" 0
expect "readelf: no GNU_RELRO without -z relro" "$(relro_of "$D/deb-norelro")" 0
expect "readelf: ET_EXEC without PIE" "$(type_of "$D/deb-nopie")" EXEC
expect "readelf: Debian's start files carry no CET property" \
    "$(readelf -nW /usr/lib/x86_64-linux-gnu/Scrt1.o | grep -c 'IBT')" 0
expect "readelf: so -fcf-protection leaves the program unmarked" "$(cet_of "$D/deb-cet")" ""

expect "debian: dpkg-buildflags' default passes" "$(findings debian "$D/deb")" ""
expect "debian: hardening=+all passes" "$(findings debian "$D/deb-all")" ""
expect "debian-all: hardening=+all passes" "$(findings debian-all "$D/deb-all")" ""
expect "debian-all: the default lacks exactly full RELRO" "$(findings debian-all "$D/deb")" no-full-relro
expect "debian: no IBT or SHSTK asked, which Debian cannot give" "$(findings debian "$D/deb-cet")" ""
expect "debian: -fstack-protector-strong dropped" "$(findings debian "$D/deb-nocanary")" no-canary
expect "debian: -D_FORTIFY_SOURCE=2 dropped" "$(findings debian "$D/deb-nofortify")" no-fortify
expect "debian: -Wl,-z,relro dropped" "$(findings debian "$D/deb-norelro")" no-relro
expect "debian: PIE dropped" "$(findings debian "$D/deb-nopie")" no-pie
expect "debian: warnings dropped, which no file shows: no finding" "$(findings debian "$D/deb-nowarn")" ""
expect "debian: the exit status is 1 on a finding" \
    "$("$ELFSCAN" --no-progress -q --profile debian "$D/deb-nocanary" >/dev/null; echo $?)" 1
expect "debian: and 0 without" "$("$ELFSCAN" --no-progress -q --profile debian "$D/deb" >/dev/null; echo $?)" 0

# Fedora, RHEL 9 and 10: redhat-rpm-config's flags (the -specs' -fPIE and
# -pie given directly), FORTIFY level by profile; -Wl,-z,ibt,-z,shstk for
# the CET-marked start files of those distributions.
rh="-O2 -flto=auto -ffat-lto-objects -fexceptions -g -grecord-gcc-switches -pipe -Wall -Werror=format-security -Wp,-D_GLIBCXX_ASSERTIONS -fstack-protector-strong -m64 -mtune=generic -fasynchronous-unwind-tables -fstack-clash-protection -fcf-protection -fPIE -Wl,-z,relro -Wl,--as-needed -Wl,-z,now -pie"
cet=-Wl,-z,ibt,-z,shstk
for p in fedora:3 rhel9:2 rhel10:3; do
	name=${p%:*} level=${p#*:}
	f="$rh -Wp,-U_FORTIFY_SOURCE,-D_FORTIFY_SOURCE=$level"
	drop() { printf '%s\n' $f | grep -vx -- "$1" | tr '\n' ' '; }
	build "$D/$name" gcc $f $cet "$SRC"
	build "$D/$name-startfiles" gcc $f "$SRC"
	build "$D/$name-nonow" gcc $(drop -Wl,-z,now) $cet "$SRC"
	build "$D/$name-norelro" gcc $(drop -Wl,-z,relro) -Wl,-z,norelro $cet "$SRC"
	build "$D/$name-nocanary" gcc $(drop -fstack-protector-strong) $cet "$SRC"
	build "$D/$name-nofortify" gcc $(drop "-Wp,-U_FORTIFY_SOURCE,-D_FORTIFY_SOURCE=$level") $cet "$SRC"
	build "$D/$name-nopie" gcc $(drop -pie | sed 's/-fPIE//') -fno-pie -no-pie $cet "$SRC"
	expect "readelf: $name: full RELRO, PIE, canary, __*_chk, IBT and SHSTK" \
	    "$(relro_of "$D/$name") $(now_of "$D/$name") $(type_of "$D/$name") $(canary_of "$D/$name") $(chk_of "$D/$name" | awk '{ print ($1 > 0) }') $(cet_of "$D/$name")" \
	    "1 1 DYN 1 1 IBT SHSTK "
	expect "readelf: $name: Debian's start files leave no CET" "$(cet_of "$D/$name-startfiles")" ""
	expect "readelf: $name: no BIND_NOW without -z now" "$(now_of "$D/$name-nonow")" 0
	expect "$name: its flags pass" "$(findings "$name" "$D/$name")" ""
	expect "$name: Debian's start files lack exactly IBT and SHSTK" \
	    "$(findings "$name" "$D/$name-startfiles")" no-ibt,no-shstk
	expect "$name: -Wl,-z,now dropped" "$(findings "$name" "$D/$name-nonow")" no-full-relro
	expect "$name: -Wl,-z,relro dropped: no GNU_RELRO, so no full RELRO either" \
	    "$(findings "$name" "$D/$name-norelro")" no-full-relro,no-relro
	expect "$name: -fstack-protector-strong dropped" "$(findings "$name" "$D/$name-nocanary")" no-canary
	expect "$name: FORTIFY dropped" "$(findings "$name" "$D/$name-nofortify")" no-fortify
	expect "$name: PIE dropped" "$(findings "$name" "$D/$name-nopie")" no-pie
done
expect "debian: a Fedora build passes (it asks less)" "$(findings debian "$D/fedora")" ""
expect "fedora: the debian build lacks full RELRO, IBT and SHSTK" \
    "$(findings fedora "$D/deb")" no-full-relro,no-ibt,no-shstk

# AArch64, by clang and lld, without a C library, but tagged for Linux
# as glibc's crt1.o tags a program (.note.ABI-tag: "GNU", OS 0, 3.7.0):
# elfscan judges another machine's program only when it is for Linux.
cat >"$T/tiny.c" <<'EOF'
__attribute__((section(".note.ABI-tag"), aligned(4), used))
static const struct { unsigned n, d, t; char name[4]; unsigned v[4]; }
    tag = { 4, 16, 1, "GNU", { 0, 3, 7, 0 } };
void _start(void) { for (;;); }
EOF
A64="clang --target=aarch64-linux-gnu -fuse-ld=lld -nostdlib -static -O2"
build "$D/a64-bti" $A64 -mbranch-protection=standard "$T/tiny.c"
build "$D/a64-none" $A64 "$T/tiny.c"
expect "readelf: -mbranch-protection=standard gives BTI and PAC" "$(arm_of "$D/a64-bti")" "BTI, PAC"
expect "readelf: without it, no AArch64 feature" "$(arm_of "$D/a64-none")" ""
expect "readelf: each is tagged for Linux" \
    "$(readelf -nW "$D/a64-bti" "$D/a64-none" | grep -c 'OS: Linux, ABI: 3.7.0')" 2
# The tiny programs have no canary (no C library): only the machine's own
# properties are looked at.
cfi() { findings "$@" | tr , '\n' | grep -x 'no-bti\|no-pac\|no-ibt\|no-shstk' | tr '\n' ' '; }
expect "fedora: AArch64 with branch protection passes BTI and PAC" "$(cfi fedora "$D/a64-bti")" ""
expect "fedora: AArch64 without it lacks exactly BTI and PAC, no x86 property asked" \
    "$(cfi fedora "$D/a64-none")" "no-bti no-pac "
expect "rhel10: AArch64 without it lacks BTI and PAC" "$(cfi rhel10 "$D/a64-none")" "no-bti no-pac "
expect "rhel9: BTI and PAC not asked of AArch64" "$(cfi rhel9 "$D/a64-none")" ""
expect "debian: BTI and PAC asked of AArch64 (Debian 13)" "$(cfi debian "$D/a64-none")" "no-bti no-pac "

# Promises by machine, on programs whose e_machine is rewritten (readelf
# names it): Debian's stack protector is off on IA-64, so its lack is no
# finding there; RHEL 10 has no i686, so CET is not asked of an i386
# program, which Fedora and RHEL 9 ask it of.
machine() { cp "$2" "$3" && printf "$1" | dd of="$3" bs=1 seek=18 conv=notrunc status=none; }
machine '\062\000' "$D/deb-nocanary" "$D/ia64-nocanary"
machine '\003\000' "$D/fedora-startfiles" "$D/i386-nocet"
expect "readelf: an IA-64 program" "$(readelf -hW "$D/ia64-nocanary" | sed -n 's/^ *Machine: *//p')" "Intel IA-64"
expect "readelf: an i386 program" "$(readelf -hW "$D/i386-nocet" | sed -n 's/^ *Machine: *//p')" "Intel 80386"
expect "debian: no canary asked on IA-64" "$(findings debian "$D/ia64-nocanary")" ""
expect "fedora: a canary asked on IA-64" "$(findings fedora "$D/ia64-nocanary" | tr , '\n' | grep -x no-canary)" no-canary
expect "fedora: CET asked of i386" "$(cfi fedora "$D/i386-nocet")" "no-ibt no-shstk "
expect "rhel9: CET asked of i386" "$(cfi rhel9 "$D/i386-nocet")" "no-ibt no-shstk "
expect "rhel10: CET not asked of i386" "$(cfi rhel10 "$D/i386-nocet")" ""

# Ubuntu: its gcc's defaults, given here; -z now only with -pie, so a
# library has partial RELRO, which ubuntu accepts and fedora does not.
ub="-O2 -fstack-protector-strong -Wformat -Wformat-security -D_FORTIFY_SOURCE=3 -fstack-clash-protection -fcf-protection -Wl,-z,relro"
build "$D/ubuntu" gcc $ub -fPIE -pie -Wl,-z,now "$SRC"
build "$D/libubuntu.so" gcc $ub -fPIC -shared -DLIB "$SRC"
build "$D/ubuntu-nonow" gcc $ub -fPIE -pie "$SRC"
expect "readelf: the Ubuntu library: GNU_RELRO, no BIND_NOW" "$(relro_of "$D/libubuntu.so") $(now_of "$D/libubuntu.so")" "1 0"
expect "ubuntu: its program passes" "$(findings ubuntu "$D/ubuntu")" ""
expect "ubuntu: its library, partial RELRO, passes" "$(findings ubuntu "$D/libubuntu.so")" ""
expect "fedora: the Ubuntu library lacks full RELRO (and CET here)" \
    "$(findings fedora "$D/libubuntu.so")" no-full-relro,no-ibt,no-shstk
expect "ubuntu: a program without -z now lacks full RELRO" "$(findings ubuntu "$D/ubuntu-nonow")" no-full-relro

# OpenSSF: the guide's TL;DR flags (gcc 12 lacks -fstrict-flex-arrays=3,
# which no file shows anyway) and its x86_64 addition.
ossf="-O2 -Wall -Wformat -Wformat=2 -Wconversion -Wimplicit-fallthrough -Werror=format-security -U_FORTIFY_SOURCE -D_FORTIFY_SOURCE=3 -D_GLIBCXX_ASSERTIONS -fstack-clash-protection -fstack-protector-strong -Wl,-z,nodlopen -Wl,-z,noexecstack -Wl,-z,relro -Wl,-z,now -Wl,--as-needed -Wl,--no-copy-dt-needed-entries -fPIE -pie -fcf-protection=full"
build "$D/openssf" gcc $ossf $cet "$SRC"
build "$D/openssf-rpath" gcc $ossf $cet -Wl,-rpath,/tmp/lib "$SRC"
expect "readelf: the OpenSSF build's RPATH" "$(readelf -dW "$D/openssf-rpath" | grep -c '/tmp/lib')" 1
expect "openssf: its flags pass" "$(findings openssf "$D/openssf")" ""
expect "openssf: an unsafe -Wl,-rpath fails" "$(findings openssf "$D/openssf-rpath")" unsafe-rpath
expect "openssf: the debian build lacks full RELRO, IBT and SHSTK" \
    "$(findings openssf "$D/deb")" no-full-relro,no-ibt,no-shstk

# --profile and --require together: both are asked.
expect "--profile debian --require stripped" "$(findings debian "$D/deb" --require stripped)" not-stripped
expect "--require first, then --profile" \
    "$("$ELFSCAN" --no-progress --format=json --require pie,stripped --profile debian-all "$D/deb" |
    python3 -c 'import json, sys; print(",".join(json.loads(sys.stdin.readline())["findings"]))')" \
    no-full-relro,not-stripped
expect "two profiles: both asked" "$(findings debian "$D/deb-nocanary" --profile debian-all)" no-full-relro,no-canary

# --list: every promise with a source; its properties are --require's;
# what no file shows is listed as not checked.
"$ELFSCAN" --list >"$T/list" || fail "--list"
for p in fedora rhel9 rhel10 debian debian-all ubuntu openssf; do
	rows=$(awk -v p="$p" '$1 == p' "$T/list" | wc -l)
	expect_match "--list: $p has promises" "$rows" "[1-9]*"
	expect "--list: $p: a source for each promise" \
	    "$(awk -v p="$p" '$1 == p { n++; getline; if ($1 != "source:") getline; if ($1 == "source:") s++ } END { print n - s }' "$T/list")" 0
	expect "--list --profile $p: its rows only" \
	    "$("$ELFSCAN" --list --profile "$p" | awk 'NR > 1 && /^[a-z]/ && $1 != "'"$p"'" && $1 != "'"$p"':"')" ""
done
for p in fedora rhel9 rhel10 debian ubuntu openssf; do
	expect_match "--list: $p names a flag no file shows" \
	    "$("$ELFSCAN" --list --profile "$p" | grep -c 'not checked: not visible in the file')" "[1-9]*"
done
for prop in $(awk '/^[a-z]/ && $1 !~ /:$/ && $2 != "-" { print $2 }' "$T/list" | sort -u); do
	"$ELFSCAN" --no-progress --require "$prop" "$D/deb" >/dev/null 2>"$T/err"
	expect "--list: $prop is a --require property" "$(cat "$T/err")" ""
done
expect "--list: the checked properties" \
    "$(awk '/^[a-z]/ && $1 !~ /:$/ && $2 != "-" { print $2 }' "$T/list" | sort -u | tr '\n' ' ')" \
    "bti canary fortify gnu-relro ibt pac pie relro rpath shstk "

# An unknown profile: a one-line usage error, with the close name.
"$ELFSCAN" --profile fedorra "$D" >"$T/out" 2>"$T/err"
expect "a misspelt profile: exit 2" "$?" 2
expect "a misspelt profile: said in one line, then where the help is" "$(cat "$T/err")" \
    "elfscan: --profile=fedorra: unknown profile (did you mean 'fedora'?)
Try 'elfscan --help' for more information."
"$ELFSCAN" --profile gentoo "$D" >"$T/out" 2>"$T/err"
expect "an unknown profile: exit 2" "$?" 2
expect "an unknown profile: the names" "$(sed -n 1p "$T/err")" \
    "elfscan: --profile=gentoo: unknown profile: not fedora, rhel9, rhel10, debian, debian-all, ubuntu or openssf"
finish
