#!/bin/sh
# elfscan --system --store FILE apt:...: the services of a whole suite with
# MemoryDenyWriteExecute=yes, judged as if every package were installed,
# against what happens to them once the same .debs are installed by dpkg in
# a real Debian 13 root. Two oracles, neither elfscan's: systemd's own
# parser (systemd-analyze security --offline, on the root) says which
# services have the setting; kernel/mdwe.sh boots Linux 6.12 and runs each
# service's command there with prctl(PR_SET_MDWE), as systemd 254 and later
# start it (and without, the control). elfscan's verdicts, read from the
# store alone, must name the same outcome for every command.
#
# The packages: libraries with sonames (one asks for an executable stack,
# one has text relocations, one is clean, one needs the first), programs
# linked to each, one with a writable and executable segment, and their
# units, as packages ship them: in /lib/systemd/system (Debian 12) and in
# /usr/lib/systemd/system (Debian 13), found through the merged /usr, a
# command run through a link in /sbin, one through a script, one with "+",
# the tunable at 2 from Environment= and from an EnvironmentFile= the
# package ships in /etc, a command whose program no package holds, an
# EnvironmentFile= no package holds, a service without the setting; a systemd package (257) and a libc6 one (2.41).
# Then Debian 13's own systemd packages, as apt installs them, with and
# without libsystemd-shared marked as asking for an executable stack: the
# services elfscan says break are those systemd's parser and ld.so say load
# it under the setting, and Linux 6.12 refuses systemd-timesyncd as said.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/system/roots.sh"
. "$top_srcdir/tests/system/mdwe.sh"
need gcc dpkg-deb dpkg-scanpackages apt-ftparchive readelf python3 \
    systemd-analyze unshare chroot mount
[ "$(id -u)" = 0 ] ||
    { echo "ERROR: the roots need root (debootstrap, mount, chroot)"; exit 99; }
: "${ELFSCAN:?}"
[ "$(uname -m)" = x86_64 ] || skip "the packages are amd64"

src=$top_srcdir/tests/fixtures/system
cc="gcc -O2 -Wall -Wextra -Werror"
MA=$(gcc -print-multiarch)
LIB=usr/lib/$MA
B=$T/build R=$T/repo
mkdir -p "$B"

# pkg NAME VERSION DEPENDS: NAME_VERSION_amd64.deb of the tree $B/NAME.
pkg() {
	mkdir -p "$B/$1/DEBIAN" "$R/pool/main/$1" &&
	    printf 'Package: %s\nVersion: %s\nArchitecture: amd64\nMaintainer: t <t@t>\n%sDescription: t\n' \
	    "$1" "$2" "${3:+Depends: $3
}" >"$B/$1/DEBIAN/control" &&
	    dpkg-deb --root-owner-group --build "$B/$1" \
	    "$R/pool/main/$1/${1}_${2}_amd64.deb" >/dev/null
}
d() { mkdir -p "$B/$1/$2" && echo "$B/$1/$2"; }
# unit PACKAGE DIR NAME: the unit DIR/NAME.service of PACKAGE, from stdin.
unit() { mkdir -p "$B/$1/$2" && cat >"$B/$1/$2/$3.service"; }
# prog PACKAGE NAME LIBRARY...: usr/sbin/NAME, linked to the libraries.
prog() {
	p=$1 n=$2
	shift 2
	$cc -DMDWE_LIB -o "$(d "$p" usr/sbin)/$n" "$src/mdwe-prog.c" \
	    -Wl,--no-as-needed "$@" -Wl,-rpath-link,"$B/libmdwe-xstack1/$LIB"
}
lib() { echo "$B/lib$1/$LIB/lib${1%1}.so.1"; }
{
	$cc -shared -fPIC -Wl,-soname,libmdwe-xstack.so.1 \
	    -o "$(d libmdwe-xstack1 "$LIB")/libmdwe-xstack.so.1" \
	    "$src/mdwe-xstack.S" &&
	    $cc -shared -fPIC -Wl,-soname,libmdwe-mid.so.1 -Wl,--no-as-needed \
	    -o "$(d libmdwe-mid1 "$LIB")/libmdwe-mid.so.1" "$src/mdwe-lib.c" \
	    "$(lib mdwe-xstack1)" &&
	    $cc -shared -Wl,-z,notext -Wl,-soname,libmdwe-textrel.so.1 \
	    -o "$(d libmdwe-textrel1 "$LIB")/libmdwe-textrel.so.1" \
	    "$src/mdwe-textrel.S" &&
	    $cc -shared -fPIC -Wl,-soname,libmdwe-clean.so.1 \
	    -o "$(d libmdwe-clean1 "$LIB")/libmdwe-clean.so.1" \
	    "$src/mdwe-lib.c" &&
	    prog svc-xstack svc-xstack "$(lib mdwe-xstack1)" &&
	    ln -s svc-xstack "$B/svc-xstack/usr/sbin/svc-xstack-link" &&
	    prog svc-deep svc-deep "$(lib mdwe-mid1)" &&
	    prog svc-textrel svc-textrel "$(lib mdwe-textrel1)" &&
	    prog svc-clean svc-clean "$(lib mdwe-clean1)" &&
	    $cc -o "$(d svc-wx usr/sbin)/svc-wx" "$src/mdwe-prog.c" \
	    "$src/mdwe-wx.S" &&
	    mkdir -p "$B/svc-wx/usr/bin" &&
	    printf '#!/usr/sbin/svc-wx\n' >"$B/svc-wx/usr/bin/svc-script" &&
	    chmod 755 "$B/svc-wx/usr/bin/svc-script" &&
	    mkdir -p "$B/svc-clean/etc/svc-clean" &&
	    printf '# the backport value\nGLIBC_TUNABLES="glibc.rtld.execstack=2"\n' \
	    >"$B/svc-clean/etc/svc-clean/environment"
} >"$T/build.log" 2>&1 || { cat "$T/build.log"; fail "the fixtures build"; finish; }
mdwe_shape "$(lib mdwe-xstack1)" RWE no no
mdwe_shape "$(lib mdwe-textrel1)" RW no yes
mdwe_shape "$(lib mdwe-clean1)" RW no no
mdwe_shape "$B/svc-wx/usr/sbin/svc-wx" RW yes no
expect "svc-deep needs libmdwe-mid.so.1, which needs libmdwe-xstack.so.1" \
    "$(readelf -dW "$B/svc-deep/usr/sbin/svc-deep" "$(lib mdwe-mid1)" |
    sed -n 's/.*(NEEDED).*\[\(libmdwe.*\)\]$/\1/p' | tr '\n' ' ')" \
    "libmdwe-mid.so.1 libmdwe-xstack.so.1 "

# The units: Debian 12's place, and Debian 13's.
O=lib/systemd/system N=usr/lib/systemd/system
svc() {
	unit "$1" "$2" "$3" <<-EOF
	[Unit]
	Description=$3

	[Service]
	Type=oneshot
	$4
	${5:-MemoryDenyWriteExecute=yes}
	EOF
}
svc svc-xstack "$O" svc-xstack "ExecStart=/usr/sbin/svc-xstack thread"
svc svc-xstack "$N" svc-link "ExecStart=/sbin/svc-xstack-link thread"
svc svc-deep "$N" svc-deep "ExecStart=/usr/sbin/svc-deep thread"
svc svc-textrel "$O" svc-textrel "ExecStart=/usr/sbin/svc-textrel thread"
svc svc-clean "$N" svc-clean "ExecStart=/usr/sbin/svc-clean thread"
svc svc-clean "$N" svc-tunable "Environment=GLIBC_TUNABLES=glibc.rtld.execstack=2
ExecStart=/usr/sbin/svc-clean thread"
svc svc-clean "$O" svc-envfile "EnvironmentFile=/etc/svc-clean/environment
ExecStart=/usr/sbin/svc-clean thread"
svc svc-wx "$N" svc-wx "ExecStart=/usr/sbin/svc-wx thread"
svc svc-wx "$N" svc-plus "ExecStart=+/usr/sbin/svc-wx thread"
svc svc-wx "$O" svc-script "ExecStart=/usr/bin/svc-script"
svc svc-wx "$N" svc-nomdwe "ExecStart=/usr/sbin/svc-wx thread" \
    "MemoryDenyWriteExecute=no"
svc svc-wx "$N" svc-missing "ExecStart=/usr/sbin/not-here thread"
svc svc-wx "$N" svc-noenv "EnvironmentFile=/etc/svc-wx/made-by-postinst
ExecStart=/usr/sbin/svc-wx thread"
mkdir -p "$B/systemd/$N" "$B/libc6"
{
	pkg libmdwe-xstack1 1 "" && pkg libmdwe-mid1 1 "libmdwe-xstack1" &&
	    pkg libmdwe-textrel1 1 "" && pkg libmdwe-clean1 1 "" &&
	    pkg svc-xstack 1 "libmdwe-xstack1" && pkg svc-deep 1 "libmdwe-mid1" &&
	    pkg svc-textrel 1 "libmdwe-textrel1" &&
	    pkg svc-clean 1 "libmdwe-clean1" && pkg svc-wx 1 "" &&
	    pkg systemd 257.9-1 "" && pkg libc6 2.41-12 "" &&
	    mkdir -p "$R/dists/s/main/binary-amd64" &&
	    (cd "$R" && dpkg-scanpackages -m pool /dev/null 2>/dev/null) \
	    >"$R/dists/s/main/binary-amd64/Packages" &&
	    (cd "$R/dists/s" && apt-ftparchive -o APT::FTPArchive::Release::Components=main \
	    release . >Release.new && mv Release.new Release)
} >>"$T/build.log" 2>&1 || { cat "$T/build.log"; fail "the suite builds"; finish; }
A=apt:$R:s:main

# ---- elfscan, from the store ----

S() { "$ELFSCAN" --no-progress "$@"; }
S --store "$T/s.db" --format=json "$A" >/dev/null 2>"$T/first.err"
expect "the suite read into the store (findings: exit 1)" "$?" 1
S --system --store "$T/s.db" --format=json "$A" >"$T/suite.json" 2>"$T/suite.err"
expect "the suite's verdicts (findings: exit 1)" "$?" 1
echo "what elfscan said on the standard error:"
sed "s|$R|R|g; s/^/  /" "$T/suite.err"
rules=$(json_rules "$T/suite.json")
expect_match "the rules line: the suite's systemd 257, either way (the kernel is not known)" \
    "$rules" "*; systemd 257.9-1: 11 services with MemoryDenyWriteExecute=yes, which it sets by PR_SET_MDWE on Linux 6.3 and later, else a seccomp filter (the kernel is not known)"
expect "said: the program no package holds, of its package's unit" \
    "$(grep -c -x -F "elfscan: $R/pool/main/svc-wx/svc-wx_1_amd64.deb!$N/svc-missing.service: ExecStart=/usr/sbin/not-here: no package of the suite holds it: not judged" "$T/suite.err")" 1
expect "said: the EnvironmentFile= no package holds, which a maintainer script may make" \
    "$(grep -c -x -F "elfscan: $R/pool/main/svc-wx/svc-wx_1_amd64.deb!$N/svc-noenv.service: EnvironmentFile=/etc/svc-wx/made-by-postinst: no package of the suite holds it (a maintainer script may make it): svc-noenv.service is not judged" "$T/suite.err")" 1
expect "nothing else said" "$(wc -l <"$T/suite.err")" 2
mdwe_predict "$T/suite.json" >"$T/predicted"
echo "elfscan's verdicts (SERVICE PROGRAM OUTCOME):"
sed 's/^/  /' "$T/predicted"
expect "the tunable comes from the unit, and from the package's EnvironmentFile=" \
    "$(python3 -c 'import json, sys
print(" ".join(sorted(set(json.loads(l)["subject"] for l in open(sys.argv[1]) if "glibc.rtld.execstack=2" in json.loads(l).get("why", "")))))' "$T/suite.json")" \
    "$R/pool/main/svc-clean/svc-clean_1_amd64.deb!etc/svc-clean/environment $R/pool/main/svc-clean/svc-clean_1_amd64.deb!$N/svc-tunable.service"
expect "each service named by its package's unit file, the libraries between" \
    "$(python3 -c 'import json, sys
for l in open(sys.argv[1]):
    r = json.loads(l)
    if r.get("verdict") == "mdwe-breaks" and r["subject"].endswith("libmdwe-xstack.so.1"):
        for h in r["hosts"]: print(h["path"], "(via " + h["via"] + ")")' "$T/suite.json" | sed "s|$R/pool/main/||" | LC_ALL=C sort)" \
    "svc-deep/svc-deep_1_amd64.deb!$N/svc-deep.service (via ExecStart=/usr/sbin/svc-deep libmdwe-mid.so.1 libmdwe-xstack.so.1)
svc-xstack/svc-xstack_1_amd64.deb!$O/svc-xstack.service (via ExecStart=/usr/sbin/svc-xstack libmdwe-xstack.so.1)
svc-xstack/svc-xstack_1_amd64.deb!$N/svc-link.service (via ExecStart=/sbin/svc-xstack-link libmdwe-xstack.so.1)"
S --system --store "$T/s.db" --format=sarif "$A" >"$T/suite.sarif" 2>/dev/null
expect "SARIF: the suite's verdicts, services among them, as the official validator reads them" \
    "$(sarif_errors "$T/suite.sarif")" ""
expect "SARIF and JSON Lines: a mdwe-breaks result for each of the five files at fault (two libraries, a program, and the unit and the file that set the tunable)" \
    "$(python3 -c 'import json, sys
print(sum(1 for r in json.load(open(sys.argv[1]))["runs"][0]["results"] if r["ruleId"] == "mdwe-breaks"))' "$T/suite.sarif") $(python3 -c 'import json, sys
print(sum(1 for l in open(sys.argv[1]) if json.loads(l).get("verdict") == "mdwe-breaks"))' "$T/suite.json")" \
    "5 5"
expect "the script: judged as its interpreter's service (binfmt_script)" \
    "$(awk '$1 == "svc-script" { print $3 }' "$T/predicted")" \
    "$(awk '$1 == "svc-wx" { print $3 }' "$T/predicted")"

# ---- The packages installed by dpkg in Debian 13 ----

root_new suite trixie
mkdir -p "$T/roots/suite/upper/var/tmp"
cp "$R"/pool/main/svc-*/*.deb "$R"/pool/main/libmdwe-*/*.deb \
    "$T/roots/suite/upper/var/tmp/"
root_run suite -- /bin/sh -c 'dpkg -i /var/tmp/*.deb' >"$T/dpkg.log" 2>&1 ||
    { cat "$T/dpkg.log"; fail "dpkg installs the packages in trixie"; finish; }
root_ldconfig suite
RS=$(root_dir suite)

# systemd's reading: MemoryDenyWriteExecute= of each service, or
# "unloaded".
svcs="svc-xstack svc-link svc-deep svc-textrel svc-clean svc-tunable
svc-envfile svc-wx svc-plus svc-script svc-nomdwe svc-missing svc-noenv"
for s in $svcs; do
	m=$(mdwe_reading suite "$RS" "$s.service")
	c=$(sed -n 's/^ExecStart=[+]*//p' "$B"/*/"$O/$s.service" "$B"/*/"$N/$s.service" 2>/dev/null)
	echo "$s $m $c"
done >"$T/reading"
echo "systemd 252's reading (SERVICE MDWE COMMAND):"
sed 's/^/  /' "$T/reading"
expect "systemd reads the setting of every service" \
    "$(awk '{ printf "%s %s ", $1, $2 }' "$T/reading")" \
    "svc-xstack yes svc-link yes svc-deep yes svc-textrel yes svc-clean yes svc-tunable yes svc-envfile yes svc-wx yes svc-plus yes svc-script yes svc-nomdwe no svc-missing yes svc-noenv yes "

# ---- Linux 6.12 runs each command ----

env_of() {
	case $1 in svc-tunable | svc-envfile) echo GLIBC_TUNABLES=glibc.rtld.execstack=2 ;; esac
}
# The test kernel has no binfmt_script (tinyconfig): the script is judged
# above as its interpreter; the program no package holds cannot run; the
# environment of svc-noenv is not known.
while read -r s m p a; do
	case $s in svc-script | svc-missing | svc-noenv) continue ;; esac
	echo "run $s $(env_of "$s") $p $a"
done <"$T/reading" >"$T/plan"
mdwe_run suite "$RS" "$T/k" "$T/plan"
awk '$1 !~ /^svc-(script|missing|noenv)$/ { print $1, $2, $1, $3 }' \
    "$T/reading" >"$T/commands"
mdwe_table suite "$T/k" "$T/predicted" svc-plus "$T/commands"
echo "the agreement (KERNEL: what Linux 6.12 did with PR_SET_MDWE; CONTROL: without):"
sed 's/^/  /' "$T/table-suite"
expect "every outcome elfscan says: killed, refused by each library at fault and by the tunable" \
    "$(cut -d ' ' -f 3- "$T/predicted" | sort -u | tr '\n' ';')" \
    "killed;refused libmdwe-textrel.so.1;refused libmdwe-xstack.so.1;refused tunable;"

# A rerun reads no package, and says the same.
mv "$R/pool" "$T/pool"
S --system --store "$T/s.db" --format=json "$A" >"$T/again.json" 2>/dev/null
expect "a rerun, with the pool moved away, says the same" \
    "$(cmp "$T/suite.json" "$T/again.json" && echo same)" same
mv "$T/pool" "$R/pool"

# ---- Real packages: Debian 13's systemd, its library marked ----

# The .debs apt installs for systemd-timesyncd in a new Debian 13 view (the
# first run fetches them, about 8 MB; root_install caches them; the
# packages of the root itself come without theirs) make a suite twice: as they are, and with libsystemd-shared, which every
# systemd daemon needs, marked as asking for an executable stack (chstk
# -e, the package rebuilt by dpkg-deb).
root_new real trixie
root_install real systemd-timesyncd
root_run real -- dpkg-query -W -f '${Package} ${Version} ${Architecture}\n' \
    >"$T/installed" || fail "dpkg-query lists the view's packages"
real_suite() {
	mkdir -p "$1/pool/main" "$1/dists/s/main/binary-amd64"
	while read -r p v a; do
		f=$ROOTS_APT/trixie/archives/${p}_$(echo "$v" | sed 's/:/%3a/')_$a.deb
		if [ -f "$f" ]; then cp "$f" "$1/pool/main/" || return 1; fi
	done <"$T/installed"
}
real_index() {
	(cd "$1" && dpkg-scanpackages -m pool /dev/null 2>/dev/null) \
	    >"$1/dists/s/main/binary-amd64/Packages" &&
	    (cd "$1/dists/s" && apt-ftparchive -o APT::FTPArchive::Release::Components=main \
	    release . >Release.new && mv Release.new Release)
}
real_suite "$T/stock" && real_index "$T/stock" ||
    { fail "the stock suite"; finish; }
expect "the suite holds systemd, systemd-timesyncd and libsystemd-shared" \
    "$(ls "$T/stock/pool/main" | sed -n 's/^\(systemd\|systemd-timesyncd\|libsystemd-shared\)_.*/\1/p' | sort | tr '\n' ' ')" \
    "libsystemd-shared systemd systemd-timesyncd "
real_suite "$T/marked"
shared=$(ls "$T/marked/pool/main/"libsystemd-shared_*.deb)
rm -rf "$T/unpacked" && dpkg-deb -R "$shared" "$T/unpacked" &&
    so=$(find "$T/unpacked" -name 'libsystemd-shared-*.so') &&
    "$CHSTK" -e "$so" && rm "$shared" &&
    dpkg-deb --root-owner-group --build "$T/unpacked" "$shared" >/dev/null &&
    real_index "$T/marked" || { fail "the marked suite"; finish; }
soname=${so##*/} sodir=${so#"$T/unpacked"}
expect "$soname marked: readelf says RWE" "$(mdwe_stack_flags "$so")" RWE
for k in stock marked; do
	S --store "$T/real.db" -q "apt:$T/$k:s:main" >/dev/null 2>&1
	S --system --store "$T/real.db" --format=json "apt:$T/$k:s:main" \
	    >"$T/$k.json" 2>"$T/$k.err"
	mdwe_predict "$T/$k.json" >"$T/predicted-$k"
done
echo "elfscan's verdicts of the marked suite:"
sed 's/^/  /' "$T/predicted-marked"
expect "the stock suite: no service broken" "$(cat "$T/predicted-stock")" ""
expect_match "the marked suite: the rules line names systemd 257 and its services" \
    "$(json_rules "$T/marked.json")" \
    "*; systemd 257.*: * services with MemoryDenyWriteExecute=yes, which it sets by *"

# The oracle of which services break: those systemd reads with
# MemoryDenyWriteExecute=yes, whose ExecStart= program the view's ld.so
# loads the library for (ld.so --list). A unit file, not an alias (a link:
# the same service, which elfscan names once).
RV=$(root_dir real)
root_run real -- find /usr/lib/systemd/system -maxdepth 1 -type f \
    -name '*.service' -printf '%f\n' >"$T/units" || fail "the view's units"
while read -r u; do
	[ "$(mdwe_reading real "$RV" "$u")" = yes ] || continue
	root_run real -- sed -n 's/^ExecStart=[-@:!]*//p' "/usr/lib/systemd/system/$u" |
	    while read -r prog args; do
		root_run real -- /usr/lib64/ld-linux-x86-64.so.2 --list "$prog" 2>/dev/null |
		    grep -q "$soname" && echo "${u%.service} $prog refused $soname"
	    done
done <"$T/units" | sort >"$T/truth-marked"
echo "the view's services that load $soname under MemoryDenyWriteExecute=yes:"
sed 's/^/  /' "$T/truth-marked"
expect "the marked suite: the services broken are those systemd and ld.so say" \
    "$(grep " refused $soname\$" "$T/predicted-marked")" "$(cat "$T/truth-marked")"
expect_match "and systemd-timesyncd among them" "$(cat "$T/truth-marked")" \
    "*systemd-timesyncd /usr/lib/systemd/systemd-timesyncd refused $soname*"

# Linux 6.12 runs systemd-timesyncd under PR_SET_MDWE, with the stock
# library, then with the marked one put in the view.
echo "run timesyncd /usr/lib/systemd/systemd-timesyncd --help" >"$T/real-plan"
mdwe_run real "$RV" "$T/k-stock" "$T/real-plan"
root_put real "$so" "$sodir"
mdwe_run real "$RV" "$T/k-marked" "$T/real-plan"
for k in stock marked; do
	said=$(awk '$1 == "systemd-timesyncd" { $1 = $2 = ""; sub(/^ */, ""); print }' "$T/predicted-$k")
	expect "$k: systemd-timesyncd under MemoryDenyWriteExecute=yes, as Linux 6.12 runs it" \
	    "${said:-runs}" "$(mdwe_outcome "$(mdwe_verdict "$T/k-$k" timesyncd mdwe)" \
	    "$(mdwe_output "$T/k-$k" timesyncd mdwe)" /usr/lib/systemd/systemd-timesyncd)"
	expect "$k: systemd-timesyncd runs without it" \
	    "$(mdwe_outcome "$(mdwe_verdict "$T/k-$k" timesyncd control)" \
	    "$(mdwe_output "$T/k-$k" timesyncd control)" /usr/lib/systemd/systemd-timesyncd)" runs
done
finish
