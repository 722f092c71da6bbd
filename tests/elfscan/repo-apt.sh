#!/bin/sh
# elfscan apt:ROOT:SUITE:COMPONENT: a local apt repository, made here from
# real .debs with dpkg-scanpackages and apt-ftparchive, is read package by
# package; what elfscan says of every ELF member's stack is what dpkg-deb
# -x and readelf -lW say. An index whose SHA256 is not the Release's, a
# package missing from the pool, one whose bytes differ from the index
# (one byte changed, same size) and one cut short: each one error line
# naming it, exit 2, and the other packages still reported.
. "$top_srcdir/tests/lib.sh"
need gcc dpkg-deb dpkg-scanpackages apt-ftparchive readelf python3 xz
: "${ELFSCAN:?}"
S() { "$ELFSCAN" --no-progress "$@"; }

R=$T/repo
# deb NAME [GCC-OPTION...]: NAME_1_amd64.deb in the pool, holding two
# programs: usr/bin/NAME built with the options, usr/bin/NAME-plain without.
deb() {
	name=$1
	shift
	rm -rf "$T/build" && mkdir -p "$T/build/DEBIAN" "$T/build/usr/bin" &&
	    gcc "$@" -o "$T/build/usr/bin/$name" "$FIX/hello.c" &&
	    gcc -o "$T/build/usr/bin/$name-plain" "$FIX/hello.c" &&
	    printf 'Package: %s\nVersion: 1\nArchitecture: amd64\nMaintainer: t <t@t>\nDescription: t\n' \
	    "$name" >"$T/build/DEBIAN/control" &&
	    mkdir -p "$R/pool/main/$name" &&
	    dpkg-deb --root-owner-group --build "$T/build" \
	    "$R/pool/main/$name/${name}_1_amd64.deb" >/dev/null
}
# release: the Release of suite s, of the indices there.
release() {
	(cd "$R/dists/s" &&
	    apt-ftparchive -o APT::FTPArchive::Release::Components=main \
	    release . >Release.new && mv Release.new Release)
}
# index: the Packages (plain and xz) and the Release of suite s.
index() {
	d=$R/dists/s/main/binary-amd64
	mkdir -p "$d" &&
	    (cd "$R" && dpkg-scanpackages -m pool /dev/null 2>/dev/null) >"$d/Packages" &&
	    xz -kf "$d/Packages" &&
	    release
}
deb exec -z execstack && deb clean -z noexecstack && deb other -z execstack &&
    index || fail "build the repository"
[ "$(uname -m)" = x86_64 ] || skip "the packages are amd64"

# The oracle: each ELF member of each .deb, unpacked, and what readelf
# says of its PT_GNU_STACK, "PATH!MEMBER rwx|rw".
oracle() {
	for f in "$R"/pool/main/*/*.deb; do
		rm -rf "$T/x" && dpkg-deb -x "$f" "$T/x" &&
		    (cd "$T/x" && find . -type f) | sort | while read -r m; do
			m=${m#./}
			flags=$(readelf -lW "$T/x/$m" | awk '$1 == "GNU_STACK" { print $(NF-1) }')
			[ "$flags" = RWE ] && s=exec || s=noexec
			echo "$f!$m $s"
		done
	done
}
# What elfscan says, the same way, from its JSON Lines.
said() {
	python3 -c '
import json, sys
for line in sys.stdin:
    r = json.loads(line)
    if "member" in r and "stack" in r:
        print(r["path"] + "!" + r["member"], r["stack"])
' | sort
}

oracle >"$T/good"
S --format=json "apt:$R:s:main" >"$T/out" 2>"$T/err"
expect "a good repository: findings, exit 1" "$?" 1
expect "a good repository: no message" "$(cat "$T/err")" ""
expect "every ELF member's stack is what readelf says" \
    "$(said <"$T/out")" "$(cat "$T/good")"
expect "six members of three packages" "$(said <"$T/out" | wc -l)" 6

# run WHAT ERROR-PATTERN GONE: one error line matching, exit 2, and every
# member but those of the package GONE (none: "") still reported.
run() {
	S --format=json "apt:$R:s:main" >"$T/out" 2>"$T/err"
	expect "$1: exit 2" "$?" 2
	expect "$1: one error line" "$(wc -l <"$T/err")" 1
	expect_match "$1: the error names it" "$(cat "$T/err")" "$2"
	expect "$1: the other packages reported" "$(said <"$T/out")" \
	    "$(grep -v "/$3_1_amd64.deb!" "$T/good")"
}
P=$R/pool/main/other/other_1_amd64.deb
cp "$P" "$T/keep"
# Same size, one byte changed (in the data.tar's compressed bytes).
python3 -c 'import sys; p = sys.argv[1]; b = bytearray(open(p, "rb").read()); b[-100] ^= 1; open(p, "wb").write(b)' "$P"
run "a package's bytes not the index's" "elfscan: $P: package other 1: its SHA256 is not the index's" other
cp "$T/keep" "$P"
head -c 1000 "$T/keep" >"$P"
run "a package cut short" "elfscan: $P: package other 1: cut short: 1000 bytes of the index's *" other
rm "$P"
run "a package missing from the pool" "elfscan: $P: package other 1: cannot open: No such file or directory" other
cp "$T/keep" "$P"
S --format=json "apt:$R:s:main" >/dev/null 2>&1
expect "the package put back: exit 1 again" "$?" 1

# An index whose digest is not the Release's: the component is skipped.
I=$R/dists/s/main/binary-amd64/Packages.xz
# A well-formed index, just not the one the Release lists.
cp "$I" "$T/keep-index"
sed 's/^Maintainer: .*/Maintainer: u <u@u>/' "${I%.xz}" | xz >"$I"
S --format=json "apt:$R:s:main" >"$T/out" 2>"$T/err"
expect "an index not the Release's: exit 2" "$?" 2
expect "an index not the Release's: one line naming it" "$(cat "$T/err")" \
    "elfscan: apt:$R:s:main: main/binary-amd64/Packages.xz: its SHA256 is not the Release's: component main skipped"
expect "an index not the Release's: nothing of it read" "$(said <"$T/out")" ""
cp "$T/keep-index" "$I"

# InRelease in place of Release: its signed text is read (the signature,
# not yet checked, may be anything).
D=$R/dists/s
{ printf -- '-----BEGIN PGP SIGNED MESSAGE-----\nHash: SHA256\n\n'
  cat "$D/Release"
  printf -- '-----BEGIN PGP SIGNATURE-----\n\nnot checked\n-----END PGP SIGNATURE-----\n'
} >"$D/InRelease" && mv "$D/Release" "$T/keep-release"
S --format=json "apt:$R:s" >"$T/out" 2>"$T/err"
expect "InRelease, the components it names: exit 1" "$?" 1
expect "InRelease: every member as readelf says" "$(said <"$T/out")" \
    "$(cat "$T/good")"
rm "$D/InRelease"
S "apt:$R:s:main" >/dev/null 2>"$T/err"
expect "no Release: exit 2" "$?" 2
expect "no Release: said" "$(cat "$T/err")" \
    "elfscan: apt:$R:s:main: cannot read dists/s/Release: No such file or directory"
mv "$T/keep-release" "$D/Release"

# Packages.gz alone: read as .xz is.
d=$R/dists/s/main/binary-amd64
mv "$d/Packages.xz" "$T/keep-xz" && gzip -k "$d/Packages" && mv "$d/Packages" "$T/keep-plain" &&
    release ||
    fail "a Packages.gz index"
S --format=json "apt:$R:s:main" >"$T/out" 2>"$T/err"
expect "Packages.gz: every member as readelf says" "$(said <"$T/out")" \
    "$(cat "$T/good")"
rm "$d/Packages.gz" && mv "$T/keep-xz" "$d/Packages.xz" && mv "$T/keep-plain" "$d/Packages" &&
    release

S "apt:$R:s:../../pool" >/dev/null 2>"$T/err"
expect "a component out of dists/: refused" "$(cat "$T/err")" \
    "elfscan: apt:$R:s:../../pool: ../../pool: not a component: component skipped"

# By URL: not yet.
S "apt:https://deb.debian.org/debian:bookworm:main" >/dev/null 2>"$T/err"
expect "a URL: exit 2" "$?" 2
expect "a URL: not supported yet" "$(cat "$T/err")" \
    "elfscan: apt:https://deb.debian.org/debian:bookworm:main: repositories by URL are not supported yet: name a directory"
# Another architecture has no index here.
S --arch=arm64 "apt:$R:s:main" >/dev/null 2>"$T/err"
expect "--arch=arm64: exit 2" "$?" 2
expect "--arch=arm64: its index named" "$(cat "$T/err")" \
    "elfscan: apt:$R:s:main: main/binary-arm64/Packages: none the Release lists is there: component main skipped"
S --platform=linux/arm64 "apt:$R:s:main" >/dev/null 2>"$T/err2"
expect "--platform=linux/arm64 picks arm64 too" "$(cat "$T/err2")" "$(cat "$T/err")"
finish
