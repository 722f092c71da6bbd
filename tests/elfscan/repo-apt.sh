#!/bin/sh
# elfscan apt:ROOT:SUITE:COMPONENT: a local apt repository, made here from
# real .debs with dpkg-scanpackages and apt-ftparchive, is read package by
# package; what elfscan says of every ELF member's stack is what dpkg-deb
# -x and readelf -lW say. An index whose SHA256 is not the Release's, a
# package missing from the pool, one whose bytes differ from the index
# (one byte changed, same size) and one cut short: each one error line
# naming it, exit 2, and the other packages still reported.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/elfscan/apt-repo.sh"

oracle >"$T/good"
S --format=json "apt:$R:s:main" >"$T/out" 2>"$T/err"
expect "a good repository: findings, exit 1" "$?" 1
expect "a good repository: no message" "$(cat "$T/err")" ""
expect "every ELF member's stack is what readelf says" \
    "$(json_stacks <"$T/out")" "$(cat "$T/good")"
expect "six members of three packages" "$(json_stacks <"$T/out" | wc -l)" 6

# run WHAT ERROR-PATTERN GONE: one error line matching, exit 2, and every
# member but those of the package GONE (none: "") still reported.
run() {
	S --format=json "apt:$R:s:main" >"$T/out" 2>"$T/err"
	expect "$1: exit 2" "$?" 2
	expect "$1: one error line" "$(wc -l <"$T/err")" 1
	expect_match "$1: the error names it" "$(cat "$T/err")" "$2"
	expect "$1: the other packages reported" "$(json_stacks <"$T/out")" \
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
expect "an index not the Release's: nothing of it read" "$(json_stacks <"$T/out")" ""
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
expect "InRelease: every member as readelf says" "$(json_stacks <"$T/out")" \
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
expect "Packages.gz: every member as readelf says" "$(json_stacks <"$T/out")" \
    "$(cat "$T/good")"
rm "$d/Packages.gz" && mv "$T/keep-xz" "$d/Packages.xz" && mv "$T/keep-plain" "$d/Packages" &&
    release

S "apt:$R:s:../../pool" >/dev/null 2>"$T/err"
expect "a component out of dists/: refused" "$(cat "$T/err")" \
    "elfscan: apt:$R:s:../../pool: ../../pool: not a component: component skipped"

# Another architecture has no index here.
S --arch=arm64 "apt:$R:s:main" >/dev/null 2>"$T/err"
expect "--arch=arm64: exit 2" "$?" 2
expect "--arch=arm64: its index named" "$(cat "$T/err")" \
    "elfscan: apt:$R:s:main: main/binary-arm64/Packages: none the Release lists is there: component main skipped"
S --platform=linux/arm64 "apt:$R:s:main" >/dev/null 2>"$T/err2"
expect "--platform=linux/arm64 picks arm64 too" "$(cat "$T/err2")" "$(cat "$T/err")"
finish
