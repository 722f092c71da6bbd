#!/bin/sh
# elfscan --system --store FILE apt:...: the verdicts of a whole suite, as if
# every package were installed, against what real glibc does with the same
# packages installed by dpkg in real Debian roots: bookworm (glibc 2.36)
# and trixie (2.41), each suite naming its glibc by a libc6 package of that
# version. The packages, real .debs: libx1 (libx.so.1, -z execstack),
# liby1 (liby.so.1, needs libx.so.1), progx (needs libx.so.1), progy (needs
# liby.so.1 only), plain (needs neither), plugx (a plugin without a soname
# that needs libx.so.1) with hostp (dlopens it), and two packages of one
# soname, libw-exec (asks) and libw-good (does not), each needed by a
# program whose Depends names one of them. Each program is run in the
# roots: the programs whose stack is rwxp there are those elfscan says get
# one (stack-made-exec); the plugin that hostp cannot load under 2.41
# ("cannot enable executable stack") is plugin-refused in the trixie suite,
# and the one whose loading makes the stack executable under 2.36 is
# plugin-exec-stack in the bookworm suite.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/system/roots.sh"
need gcc dpkg-deb dpkg-scanpackages apt-ftparchive readelf python3 xz sqlite3 unshare chroot mount
[ "$(id -u)" = 0 ] ||
    { echo "ERROR: the roots need root (debootstrap, mount, chroot)"; exit 99; }
: "${ELFSCAN:?}"
[ "$(uname -m)" = x86_64 ] || skip "the packages are amd64"

B=$T/build
MA=$(gcc -print-multiarch)
LIB=usr/lib/$MA
mkdir -p "$B"
cc() { gcc "$@"; }

# pkg NAME VERSION DEPENDS: NAME_VERSION_amd64.deb of the tree $B/NAME, into
# the pools of both suites.
pkg() {
	mkdir -p "$B/$1/DEBIAN" &&
	    printf 'Package: %s\nVersion: %s\nArchitecture: amd64\nMaintainer: t <t@t>\n%sDescription: t\n' \
	    "$1" "$2" "${3:+Depends: $3
}" >"$B/$1/DEBIAN/control" &&
	    for s in b t; do
		mkdir -p "$T/repo-$s/pool/main/$1" &&
		    dpkg-deb --root-owner-group --build "$B/$1" \
		    "$T/repo-$s/pool/main/$1/${1}_${2}_amd64.deb" >/dev/null ||
		    return 1
	    done
}
d() { mkdir -p "$B/$1/$2" && echo "$B/$1/$2"; }
{
	fixture_lib "$(d libx1 "$LIB")/libx.so.1" libx.so.1 -z execstack &&
	    fixture_lib "$(d liby1 "$LIB")/liby.so.1" liby.so.1 \
	    "$B/libx1/$LIB/libx.so.1" -z noexecstack &&
	    fixture_prog "$(d progx usr/bin)/progx" "$B/libx1/$LIB/libx.so.1" \
	    -z noexecstack &&
	    fixture_prog "$(d progy usr/bin)/progy" "$B/liby1/$LIB/liby.so.1" \
	    -Wl,-rpath-link,"$B/libx1/$LIB" -z noexecstack &&
	    fixture_prog "$(d plain usr/bin)/plain" -z noexecstack &&
	    cc -shared -fPIC -Wl,--no-as-needed -z noexecstack \
	    -o "$(d plugx "$LIB/plugx")/mod.so" "$FIX/lib.c" \
	    "$B/libx1/$LIB/libx.so.1" &&
	    cc -o "$(d hostp usr/bin)/hostp" "$FIX/dlopen.c" -I"$FIX" -ldl \
	    -z noexecstack &&
	    fixture_lib "$(d libw-exec "$LIB")/libw.so.1" libw.so.1 \
	    -z execstack &&
	    fixture_lib "$(d libw-good "$LIB")/libw.so.1" libw.so.1 \
	    -z noexecstack &&
	    fixture_prog "$(d progw-exec usr/bin)/progw-exec" \
	    "$B/libw-exec/$LIB/libw.so.1" -z noexecstack &&
	    fixture_prog "$(d progw-good usr/bin)/progw-good" \
	    "$B/libw-good/$LIB/libw.so.1" -z noexecstack &&
	    pkg libx1 1 "" && pkg liby1 1 "libx1" && pkg progx 1 "libx1" &&
	    pkg progy 1 "liby1" && pkg plain 1 "" && pkg plugx 1 "libx1" &&
	    pkg hostp 1 "" && pkg libw-exec 1 "" && pkg libw-good 1 "" &&
	    pkg progw-exec 1 "libw-exec" && pkg progw-good 1 "libw-good (>= 1)"
} || fail "build the packages"
# Each suite's glibc, as its index says: a libc6 package of that version
# (no file of glibc's: the roots have theirs).
for s in b:2.36-9+deb12u13 t:2.41-12; do
	k=${s%%:*} v=${s#*:} R=$T/repo-${s%%:*}
	mkdir -p "$B/libc6/DEBIAN" "$R/pool/main/libc6" &&
	    printf 'Package: libc6\nVersion: %s\nArchitecture: amd64\nMaintainer: t <t@t>\nDescription: t\n' \
	    "$v" >"$B/libc6/DEBIAN/control" &&
	    dpkg-deb --root-owner-group --build "$B/libc6" \
	    "$R/pool/main/libc6/libc6_${v}_amd64.deb" >/dev/null &&
	    mkdir -p "$R/dists/s/main/binary-amd64" &&
	    (cd "$R" && dpkg-scanpackages -m pool /dev/null 2>/dev/null) \
	    >"$R/dists/s/main/binary-amd64/Packages" &&
	    (cd "$R/dists/s" && apt-ftparchive -o APT::FTPArchive::Release::Components=main \
	    release . >Release.new && mv Release.new Release) ||
	    fail "the $k suite"
done

# The oracle: the packages installed by dpkg in a view of each root, each
# program run. libw-exec and libw-good hold one path: one view each.
# put VIEW DEB: the package in the view's /var/tmp (root_run mounts a
# tmpfs on /tmp).
put() {
	mkdir -p "$T/roots/$1/upper/var/tmp" && cp "$2" "$T/roots/$1/upper/var/tmp/"
}
# truth SUITE VIEW PACKAGE...: dpkg -i the packages in a new view of the
# root, then run every program: "NAME STACK" for each, and "hostp refused",
# "hostp exec" or "hostp noexec" for the plugin's host.
truth() {
	suite=$1 view=$2
	shift 2
	root_new "$view" "$suite"
	for p in "$@"; do
		put "$view" "$T/repo-b/pool/main/$p/${p}_1_amd64.deb"
	done
	root_run "$view" -- /bin/sh -c '
		dpkg -i --force-depends /var/tmp/*.deb >/dev/null 2>&1 || { echo dpkg failed; exit 1; }
		for p in /usr/bin/prog* /usr/bin/plain; do
			[ -x "$p" ] || continue
			echo "${p#/usr/bin/} $("$p" | sed -n "s/^stack: //p")"
		done
		if [ -x /usr/bin/hostp ]; then
			out=$(hostp /usr/lib/'"$MA"'/plugx/mod.so)
			case $out in
			*"cannot enable executable stack"*) echo "hostp refused" ;;
			*"stack: rwxp"*) echo "hostp exec" ;;
			*) echo "hostp noexec: $out" ;;
			esac
		fi' 2>&1
}
main="libx1 liby1 progx progy plain plugx hostp"
# shellcheck disable=SC2086
for s in bookworm:b trixie:t; do
	suite=${s%%:*} k=${s#*:}
	{
		truth "$suite" "$k-main" $main
		truth "$suite" "$k-wexec" libw-exec progw-exec
		truth "$suite" "$k-wgood" libw-good progw-good
	} | sort >"$T/truth-$k"
	echo "truth: $suite: $(tr '\n' ';' <"$T/truth-$k")"
done
expect "bookworm: the programs and the plugin's host, as glibc 2.36 runs them" \
    "$(cat "$T/truth-b")" "hostp exec
plain rw-p
progw-exec rwxp
progw-good rw-p
progx rwxp
progy rwxp"
expect "trixie: the programs and the plugin's host, as glibc 2.41 runs them" \
    "$(cat "$T/truth-t")" "hostp refused
plain rw-p
progw-exec rwxp
progw-good rw-p
progx rwxp
progy rwxp"

# What elfscan says of each suite: "FINDING SUBJECT-MEMBER HOST-MEMBER VIA".
verdicts() {
	python3 -c '
import json, sys
for line in sys.stdin:
    r = json.loads(line)
    if "verdict" not in r:
        continue
    for h in r["hosts"]:
        print(r["verdict"], r["subject"].split("!")[1], h["path"].split("!")[1], h["via"] or "-")
' | sort
}
# What the oracle says, in the same words: each program whose stack was
# rwxp is a host of the exec library it needs; the plugin's verdict is what
# its host met.
expected() {
	while read -r name how; do
		case $name:$how in
		progx:rwxp) echo "stack-made-exec $LIB/libx.so.1 usr/bin/progx -" ;;
		progy:rwxp) echo "stack-made-exec $LIB/libx.so.1 usr/bin/progy liby.so.1" ;;
		progw-exec:rwxp) echo "stack-made-exec $LIB/libw.so.1 usr/bin/progw-exec -" ;;
		progw-good:rwxp|plain:rwxp) echo "unexpected $name" ;;
		hostp:refused) echo "plugin-refused $LIB/libx.so.1 $LIB/plugx/mod.so -" ;;
		hostp:exec) echo "plugin-exec-stack $LIB/libx.so.1 $LIB/plugx/mod.so -" ;;
		esac
	done <"$1" | sort
}
for k in b t; do
	"$ELFSCAN" --no-progress --system --format=json --store "$T/$k.db" \
	    "apt:$T/repo-$k:s:main" >"$T/out-$k" 2>"$T/err-$k"
	expect "suite $k: exit 1 (verdicts)" "$?" 1
	expect "suite $k: no message" "$(cat "$T/err-$k")" ""
	expect "suite $k: the verdicts are what glibc does" \
	    "$(verdicts <"$T/out-$k")" "$(expected "$T/truth-$k")"
done
expect_match "the bookworm suite's rules name its glibc" \
    "$(grep '"rules"' "$T/out-b")" '*glibc 2.36-9+deb12u13 (libc6): dlopen loads*'
expect_match "the trixie suite's rules name its glibc" \
    "$(grep '"rules"' "$T/out-t")" '*glibc 2.41-12 (libc6): dlopen refuses*'
# A rerun reads nothing and says the same; text, for people.
mv "$T/repo-t/pool" "$T/pool-t"
"$ELFSCAN" --no-progress --system --format=json --store "$T/t.db" \
    "apt:$T/repo-t:s:main" >"$T/again" 2>"$T/err"
expect "rerun: nothing read, the same verdicts" \
    "$(cat "$T/err"; verdicts <"$T/again")" "$(verdicts <"$T/out-t")"
"$ELFSCAN" --no-progress --system -q --store "$T/t.db" "apt:$T/repo-t:s:main" \
    >"$T/text" 2>&1
expect_match "text: the verdict on libx.so.1, its programs and packages" \
    "$(grep "^stack-made-exec .*libx.so.1" "$T/text")" \
    "*: 2 programs of 2 packages load it at start and get one, with every glibc; 2 programs: *progx, *progy (via liby.so.1)"
expect_match "text: the plugin refused, named a plugin" \
    "$(grep "^plugin-refused .*libx.so.1" "$T/text")" \
    "*refuses to dlopen 1 plugin of 1 package that needs it; 1 plugin: *plugx/mod.so"
"$ELFSCAN" --no-progress --system --format=sarif --store "$T/t.db" \
    "apt:$T/repo-t:s:main" >"$T/suite.sarif" 2>"$T/err"
expect "SARIF: the suite's verdicts, from the store, as the official validator reads them" \
    "$(cat "$T/err"; sarif_errors "$T/suite.sarif")" ""
expect "SARIF: a result for each verdict" \
    "$(python3 -c 'import json, sys; print(sorted({r["ruleId"] for r in json.load(open(sys.argv[1]))["runs"][0]["results"]}))' "$T/suite.sarif")" \
    "['dlopen-refused', 'exec-stack', 'plugin-refused', 'stack-made-exec']"
mv "$T/pool-t" "$T/repo-t/pool"
"$ELFSCAN" --system "apt:$T/repo-t:s:main" >/dev/null 2>"$T/err"
expect "--system on a suite without a store: exit 2" "$?" 2
expect "--system on a suite without a store: said" "$(cat "$T/err")" \
    "elfscan: --system judges a suite from its store: name one with --store FILE"
finish
