#!/bin/sh
# elfscan rpm-md:ROOT: a local rpm-md repository, made here from real .rpms
# built by rpmbuild and indexed by createrepo_c, is read package by
# package; what elfscan says of every ELF member's stack is what rpm2cpio,
# cpio and readelf -lW say, whatever the primary metadata's compression
# (gzip, xz, bzip2, zstd). Primary metadata whose size or SHA256 is not
# repomd.xml's, a corrupt repomd.xml, one whose checksums are sha1, a
# package missing from the directory, one whose bytes differ from the index
# (one byte changed, same size), one cut short, one whose checksum is not
# sha256, one located outside the repository or by xml:base: each one
# error line naming the index or the package, exit 2, and the other
# packages still reported (none when the index itself is not vouched
# for). --arch=aarch64 reads only the noarch package of an x86_64
# repository; --platform=linux/amd64 reads what x86_64 does.
. "$top_srcdir/tests/lib.sh"
need gcc rpmbuild createrepo_c rpm2cpio cpio readelf python3 zstd
: "${ELFSCAN:?}"
S() { "$ELFSCAN" --no-progress "$@"; }
grep -q '^#define HAVE_LIBXML2 1' "$top_builddir/config.h" ||
    skip "elfscan is built without libxml2"
[ "$(uname -m)" = x86_64 ] || skip "the packages are x86_64"

R=$T/repo
TOP=$T/rpmbuild
mkdir -p "$R" "$TOP/SPECS" || fail "make the directories"
# mkrpm NAME ARCH EPOCH GCC-OPTION...: NAME-1-1.ARCH.rpm in the repository,
# holding two programs: usr/bin/NAME built with the options,
# usr/bin/NAME-plain without. A noarch one holds them too: the test needs
# its ELF members seen, so rpmbuild is told to let them be.
mkrpm() {
	name=$1 arch=$2 epoch=$3
	shift 3
	cat >"$TOP/SPECS/$name.spec" <<EOF
Name: $name
Version: 1
Release: 1
${epoch:+Epoch: $epoch}
Summary: two programs
License: MIT
BuildArch: $arch
%global debug_package %{nil}
%global _binaries_in_noarch_packages_terminate_build 0
%global __os_install_post %{nil}
%description
A package for the tests of elfscan rpm-md:.
%build
gcc $* -o $name $FIX/hello.c
gcc -o $name-plain $FIX/hello.c
%install
mkdir -p %{buildroot}%{_bindir}
install -m 755 $name $name-plain %{buildroot}%{_bindir}/
%files
%{_bindir}/*
EOF
	rpmbuild --define "_topdir $TOP" --nodeps -bb \
	    "$TOP/SPECS/$name.spec" >"$T/$name.log" 2>&1 &&
	    mv "$TOP/RPMS/$arch/$name-1-1.$arch.rpm" "$R/"
}
mkrpm exec x86_64 '' -z execstack && mkrpm clean x86_64 '' -z noexecstack &&
    mkrpm other noarch 2 -z execstack &&
    createrepo_c "$R" >/dev/null || fail "build the repository"
cp -a "$R/repodata" "$T/repodata"
restore() { rm -rf "$R/repodata" && cp -a "$T/repodata" "$R/repodata"; }
PRIMARY=$(cd "$R" && ls repodata/*-primary.xml.gz)

# The oracle: each ELF member of each .rpm, unpacked, and what readelf
# says of its PT_GNU_STACK, "PATH!MEMBER exec|noexec".
oracle() {
	for f in "$R"/*.rpm; do
		rm -rf "$T/x" && mkdir "$T/x" &&
		    (cd "$T/x" && rpm2cpio "$f" | cpio -idm --quiet) &&
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
expect "the oracle sees both stacks" "$(cut -d' ' -f2 "$T/good" | sort -u | tr '\n' ' ')" "exec noexec "
S --format=json "rpm-md:$R" >"$T/out" 2>"$T/err"
expect "a good repository: findings, exit 1" "$?" 1
expect "a good repository: no message" "$(cat "$T/err")" ""
expect "every ELF member's stack is what readelf says" \
    "$(said <"$T/out")" "$(cat "$T/good")"
expect "six members of three packages" "$(said <"$T/out" | wc -l)" 6

# --arch as rpm names it, and --platform as images do.
S --format=json --arch=aarch64 "rpm-md:$R" >"$T/out" 2>"$T/err"
expect "--arch=aarch64: no message" "$(cat "$T/err")" ""
expect "--arch=aarch64: the noarch package alone" "$(said <"$T/out")" \
    "$(grep "/other-1-1.noarch.rpm!" "$T/good")"
S --format=json --platform=linux/arm64 "rpm-md:$R" >"$T/out2" 2>&1
expect "--platform=linux/arm64 reads what aarch64 does" "$(said <"$T/out2")" \
    "$(said <"$T/out")"
S --format=json --platform=linux/amd64 "rpm-md:$R" >"$T/out" 2>"$T/err"
expect "--platform=linux/amd64 reads what x86_64 does" \
    "$(said <"$T/out")" "$(cat "$T/good")"
S --format=json --arch=x86_64 "rpm-md:$R" >"$T/out" 2>"$T/err"
expect "--arch=x86_64: every package" "$(said <"$T/out")" "$(cat "$T/good")"

# recompress SUFFIX [PYTHON-EXPRESSION]: the primary metadata, edited by
# the expression (of its text, s), compressed again (gz, xz, bz2 or zst)
# as repodata/primary.xml.SUFFIX, and repomd.xml made to vouch for it.
recompress() {
	python3 - "$R" "$1" "${2:-s}" <<'EOF'
import bz2, gzip, hashlib, lzma, os, re, subprocess, sys
root, suffix, expr = sys.argv[1:]
repomd = open(root + "/repodata/repomd.xml").read()
data = re.search(r'<data type="primary">.*?</data>', repomd, re.S).group(0)
old = re.search(r'<location href="([^"]*)"', data).group(1)
s = gzip.decompress(open(root + "/" + old, "rb").read()).decode()
s = eval(expr)
raw = s.encode()
z = {"gz": gzip.compress, "xz": lzma.compress, "bz2": bz2.compress,
     "zst": lambda b: subprocess.run(["zstd", "-q", "-c"], input=b,
                                     stdout=subprocess.PIPE, check=True).stdout}[suffix](raw)
new = "repodata/primary.xml." + suffix
os.remove(root + "/" + old)
open(root + "/" + new, "wb").write(z)
d = data.replace(old, new)
d = re.sub(r'(<checksum type="sha256">)[0-9a-f]+', lambda m: m.group(1) + hashlib.sha256(z).hexdigest(), d)
d = re.sub(r'(<open-checksum type="sha256">)[0-9a-f]+', lambda m: m.group(1) + hashlib.sha256(raw).hexdigest(), d)
d = re.sub(r'<size>\d+', '<size>%d' % len(z), d)
d = re.sub(r'<open-size>\d+', '<open-size>%d' % len(raw), d)
open(root + "/repodata/repomd.xml", "w").write(repomd.replace(data, d))
EOF
}
for c in gz xz bz2 zst; do
	recompress $c || fail "recompress the primary metadata as .$c"
	S --format=json "rpm-md:$R" >"$T/out" 2>"$T/err"
	expect "primary.xml.$c: no message" "$(cat "$T/err")" ""
	expect "primary.xml.$c: every member as readelf says" \
	    "$(said <"$T/out")" "$(cat "$T/good")"
	restore
done

# run WHAT ERROR [GONE]: exactly the one error line ERROR (a shell
# pattern), exit 2, and every member but those of the package GONE
# (none: "", all: "*") still reported.
run() {
	S --format=json "rpm-md:$R" >"$T/out" 2>"$T/err"
	expect "$1: exit 2" "$?" 2
	expect "$1: one error line" "$(wc -l <"$T/err")" 1
	expect_match "$1: the error names it" "$(cat "$T/err")" "$2"
	case ${3:-} in
	'*') want= ;;
	*) want=$(grep -v "/${3:-none}-1-1\.[a-z0-9_]*\.rpm!" "$T/good") ;;
	esac
	expect "$1: the other packages reported" "$(said <"$T/out")" "$want"
}

# The packages' bytes against the index.
P=$R/other-1-1.noarch.rpm
cp "$P" "$T/keep"
python3 -c 'import sys; p = sys.argv[1]; b = bytearray(open(p, "rb").read()); b[-100] ^= 1; open(p, "wb").write(b)' "$P"
run "a package's bytes not the index's" "elfscan: $P: package other 2:1-1: its SHA256 is not the index's" other
head -c 1000 "$T/keep" >"$P"
run "a package cut short" "elfscan: $P: package other 2:1-1: cut short: 1000 bytes of the index's *" other
rm "$P"
run "a package missing from the directory" "elfscan: $P: package other 2:1-1: cannot open: No such file or directory" other
cp "$T/keep" "$P"
S --format=json "rpm-md:$R" >/dev/null 2>&1
expect "the package put back: exit 1 again" "$?" 1

# The primary metadata against repomd.xml: the repository is skipped.
F=$R/$PRIMARY
python3 -c 'import sys; p = sys.argv[1]; b = bytearray(open(p, "rb").read()); b[len(b) // 2] ^= 1; open(p, "wb").write(b)' "$F"
run "primary metadata whose SHA256 is not repomd.xml's" \
    "elfscan: rpm-md:$R: $PRIMARY: its SHA256 is not repomd.xml's: repository skipped" '*'
restore
printf x >>"$F"
run "primary metadata longer than repomd.xml says" \
    "elfscan: rpm-md:$R: $PRIMARY: its size is not repomd.xml's: repository skipped" '*'
restore
rm "$F"
run "primary metadata missing" \
    "elfscan: rpm-md:$R: $PRIMARY: cannot read: No such file or directory: repository skipped" '*'
restore

# repomd.xml itself.
head -c 300 "$T/repodata/repomd.xml" >"$R/repodata/repomd.xml"
run "a corrupt repomd.xml" "elfscan: rpm-md:$R: repodata/repomd.xml: not XML: line *" '*'
sed '/<data type="primary">/,/<\/data>/d' "$T/repodata/repomd.xml" >"$R/repodata/repomd.xml"
run "repomd.xml without primary metadata" \
    "elfscan: rpm-md:$R: repodata/repomd.xml: no location, checksum and size of the primary metadata" '*'
rm -rf "$R/repodata" && createrepo_c -s sha1 "$R" >/dev/null ||
    fail "createrepo_c -s sha1"
run "createrepo_c -s sha1: repomd.xml's checksums are sha1" \
    "elfscan: rpm-md:$R: repodata/repomd.xml: the primary metadata's checksum is sha1, not sha256" '*'
restore

# One package's entry in the primary metadata: that package is skipped.
# entry NAME PATTERN REPLACEMENT: the expression that edits the first
# match of the Python PATTERN in NAME's entry by the Python REPLACEMENT.
entry() { printf "re.sub(r'''(<name>%s</name>.*?)%s''', lambda m: m.group(1) + %s, s, count=1, flags=re.S)" "$@"; }
I=repodata/primary.xml.gz
recompress gz "$(entry clean '<checksum type="sha256" pkgid="YES">[0-9a-f]+' \
    "'<checksum type=\"sha1\" pkgid=\"YES\">' + '0' * 40")" ||
    fail "edit the primary metadata"
run "a package whose checksum is not sha256" \
    "elfscan: rpm-md:$R: $I: package clean 1-1: its checksum is sha1, not sha256: package skipped" clean
restore
recompress gz "$(entry clean '<location href="' "'<location href=\"../'")" ||
    fail "edit the primary metadata"
run "a package located outside the repository" \
    "elfscan: rpm-md:$R: $I: package clean 1-1: its location is not a path inside the repository: package skipped" clean
restore
recompress gz "$(entry clean '<location href="' "'<location href=\"' + sys.argv[1] + '/'")" ||
    fail "edit the primary metadata"
run "a package located by an absolute path" \
    "elfscan: rpm-md:$R: $I: package clean 1-1: its location is not a path inside the repository: package skipped" clean
restore
recompress gz "$(entry clean '<location ' "'<location xml:base=\"https://example.org/\" '")" ||
    fail "edit the primary metadata"
run "a package located by xml:base" \
    "elfscan: rpm-md:$R: $I: package clean 1-1: its location has an xml:base: not supported: package skipped" clean
restore
recompress gz 's[:len(s) // 2]' || fail "cut the primary metadata short"
S --format=json "rpm-md:$R" >"$T/out" 2>"$T/err"
expect "primary metadata cut short, vouched for: exit 2" "$?" 2
expect_match "primary metadata cut short: said, the rest skipped" "$(cat "$T/err")" \
    "elfscan: rpm-md:$R: $I: not XML: line *: the rest of the repository skipped"
restore

S "rpm-md:https://example.org/fedora" >/dev/null 2>"$T/err"
expect "a URL: not supported yet" "$(cat "$T/err")" \
    "elfscan: rpm-md:https://example.org/fedora: repositories by URL are not supported yet: name a directory"
finish
