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
# for). With --keyring, repomd.xml is read only when its detached
# signature, repomd.xml.asc (gpg -ab, as dnf's repo_gpgcheck takes it), is
# by a key of the keyring, as gpgv says on the command line: by the
# other key, repomd.xml changed after it, or no .asc: one line, exit 2,
# nothing read; in a directory and by URL. --arch=aarch64 reads only the noarch package of an x86_64
# repository; --platform=linux/amd64 reads what x86_64 does.
. "$top_srcdir/tests/lib.sh"
need gcc rpmbuild createrepo_c rpm2cpio cpio readelf python3 zstd sqlite3 gpg gpgv
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
# its ELF members seen, so rpmbuild is told to let them be. And what a
# store keeps of the other files: a link usr/sbin/NAME, a script
# usr/bin/NAME-sh, the unit usr/lib/systemd/system/NAME.service.
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
printf '#!/bin/sh\\necho $name\\n' >$name-sh
printf '[Service]\\nExecStart=/usr/sbin/$name\\n' >$name.service
%install
mkdir -p %{buildroot}%{_bindir} %{buildroot}/usr/sbin %{buildroot}/usr/lib/systemd/system
install -m 755 $name $name-plain $name-sh %{buildroot}%{_bindir}/
install -m 644 $name.service %{buildroot}/usr/lib/systemd/system/
ln -s ../bin/$name %{buildroot}/usr/sbin/$name
%files
%{_bindir}/*
/usr/sbin/$name
/usr/lib/systemd/system/$name.service
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
			[ "$(head -c 4 "$T/x/$m")" = "$(printf '\177ELF')" ] ||
			    continue
			flags=$(readelf -lW "$T/x/$m" | awk '$1 == "GNU_STACK" { print $(NF-1) }')
			[ "$flags" = RWE ] && s=exec || s=noexec
			echo "$f!$m $s"
		done
	done
}

oracle >"$T/good"
expect "the oracle sees both stacks" "$(cut -d' ' -f2 "$T/good" | sort -u | tr '\n' ' ')" "exec noexec "
S --format=json "rpm-md:$R" >"$T/out" 2>"$T/err"
expect "a good repository: findings, exit 1" "$?" 1
expect "a good repository: no message" "$(cat "$T/err")" ""
expect "every ELF member's stack is what readelf says" \
    "$(json_stacks <"$T/out")" "$(cat "$T/good")"
expect "six members of three packages" "$(json_stacks <"$T/out" | wc -l)" 6

# --arch as rpm names it, and --platform as images do.
# Through a store: what it holds (sqlite3) and what it says are what
# rpm2cpio and readelf say; a rerun with the packages moved away reads
# none and says the same.
S --format=json --store "$T/s.db" "rpm-md:$R" >"$T/first" 2>"$T/err"
expect "--store: exit 1, no message" "$? $(cat "$T/err")" "1 "
expect "--store: the store holds every ELF member as readelf says (sqlite3)" \
    "$(sqlite3 "$T/s.db" "SELECT p.path || '!' || r.member || ' ' || r.stack FROM records r JOIN packages p ON p.id = r.package" | sort)" \
    "$(cat "$T/good")"
expect "--store: what it says is what readelf says" "$(json_stacks <"$T/first")" \
    "$(cat "$T/good")"
# The other files, as rpm2cpio and cpio unpack them (unpacked_files,
# tests/lib.sh).
for f in "$R"/*.rpm; do
	rm -rf "$T/x" && mkdir "$T/x" &&
	    (cd "$T/x" && rpm2cpio "$f" | cpio -idm --quiet) &&
	    unpacked_files "$T/x" "$f"
done | sort >"$T/files"
expect "--store: it keeps each link, script and unit file as rpm2cpio has it" \
    "$(sqlite3 "$T/s.db" "SELECT p.path || '!' || f.path || ' ' || f.type || ' ' || CASE f.type WHEN 'file' THEN lower(hex(f.data)) ELSE f.data END FROM files f JOIN packages p ON p.id = f.package" | sort)" \
    "$(cat "$T/files")"
expect "--store: three packages' three files each, and rpmbuild's build-id links" \
    "$(grep -c '!usr/sbin/[a-z]* link \.\./bin/' "$T/files") $(grep -c ' script #!/bin/sh$' "$T/files") $(grep -c '\.service file 5b536572766963655d' "$T/files") $(grep -c '!usr/lib/\.build-id/.* link ' "$T/files")" \
    "3 3 3 4"
mkdir -p "$T/away" && mv "$R"/*.rpm "$T/away/"
S --format=json --store "$T/s.db" "rpm-md:$R" >"$T/again" 2>"$T/err"
expect "--store: a rerun reads no package and says the same" \
    "$? $(cat "$T/err")$(cmp "$T/first" "$T/again" && echo same)" "1 same"
mv "$T/away/"*.rpm "$R/"
S --format=json --arch=aarch64 "rpm-md:$R" >"$T/out" 2>"$T/err"
expect "--arch=aarch64: no message" "$(cat "$T/err")" ""
expect "--arch=aarch64: the noarch package alone" "$(json_stacks <"$T/out")" \
    "$(grep "/other-1-1.noarch.rpm!" "$T/good")"
S --format=json --platform=linux/arm64 "rpm-md:$R" >"$T/out2" 2>&1
expect "--platform=linux/arm64 reads what aarch64 does" "$(json_stacks <"$T/out2")" \
    "$(json_stacks <"$T/out")"
S --format=json --platform=linux/amd64 "rpm-md:$R" >"$T/out" 2>"$T/err"
expect "--platform=linux/amd64 reads what x86_64 does" \
    "$(json_stacks <"$T/out")" "$(cat "$T/good")"
S --format=json --arch=x86_64 "rpm-md:$R" >"$T/out" 2>"$T/err"
expect "--arch=x86_64: every package" "$(json_stacks <"$T/out")" "$(cat "$T/good")"

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
	    "$(json_stacks <"$T/out")" "$(cat "$T/good")"
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
	expect "$1: the other packages reported" "$(json_stacks <"$T/out")" "$want"
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

# By URL, served by the local server of repo-url.sh (repo-server.py),
# fetched into a cache: what the directory gives, each package named by
# its copy in the cache; a second run fetches no package; a package the
# server does not have is one line naming its URL, exit 2, the others
# reported.
unset http_proxy https_proxy HTTPS_PROXY all_proxy ALL_PROXY
no_proxy='*' NO_PROXY='*' XDG_CACHE_HOME=$T/cache
export no_proxy NO_PROXY XDG_CACHE_HOME
C=$T/cache/elfscan
python3 "$top_srcdir/tests/elfscan/repo-server.py" "$T" "$T/log" "$T/port" "$T/bad" &
server=$!
trap 'kill "$server"; rm -rf "$T"' EXIT
timeout 60 sh -c 'while [ ! -s "$1" ]; do sleep 0.1; done' - "$T/port" ||
    fail "the server listens"
U=http://127.0.0.1:$(cat "$T/port")/repo
for f in "$R"/*.rpm; do
	echo "s|\"$C/by-sha256/$(sha256sum <"$f" | cut -d ' ' -f 1)\"|\"$f\"|"
done >"$T/names.sed"
as_dir() { sed -f "$T/names.sed" | sort; }
S --format=json "rpm-md:$R" | sort >"$T/dir"
timeout 60 "$ELFSCAN" --no-progress --format=json "rpm-md:$U" >"$T/out" 2>"$T/err"
expect "by URL: findings, exit 1, no message" "$? $(cat "$T/err")" "1 "
expect "by URL: what the directory gives, line for line" \
    "$(as_dir <"$T/out")" "$(cat "$T/dir")"
expect "by URL: every ELF member's stack is what readelf says" \
    "$(as_dir <"$T/out" | json_stacks)" "$(cat "$T/good")"
: >"$T/log"
timeout 60 "$ELFSCAN" --no-progress --format=json "rpm-md:$U/" >"$T/out" 2>"$T/err"
expect "by URL, a second run: the same, no package fetched" \
    "$? $(as_dir <"$T/out" | cmp - "$T/dir" && echo same) $(grep -c '\.rpm$' "$T/log")" "1 same 0"
rm -rf "$C/by-sha256"
P=$(ls "$R"/*.rpm | head -n 1)
echo "/repo/${P##*/} 404" >"$T/bad"
timeout 60 "$ELFSCAN" --no-progress --format=json "rpm-md:$U" >"$T/out" 2>"$T/err"
expect "by URL, a package the server has not: exit 2" "$?" 2
expect "by URL, a package the server has not: one line naming its URL" \
    "$(cat "$T/err")" "elfscan: $U/${P##*/}: package $(rpm -qp --qf '%{NAME} %{VERSION}-%{RELEASE}' "$P" 2>/dev/null): cannot fetch: HTTP 404"
expect "by URL, a package the server has not: the others reported" \
    "$(as_dir <"$T/out" | json_stacks)" "$(grep -v "^$P!" "$T/good")"
: >"$T/bad"

# --keyring: repomd.xml.asc, by key A of two; gpgv, in an empty
# GNUPGHOME, is the judge each verdict is checked against.
G=$T/gnupg
mkdir -m 700 "$T/empty" && gpg_keys "$G" "$T" a b || fail "the keys"
M=$R/repodata/repomd.xml
oracle() {
	if GNUPGHOME=$T/empty gpgv --keyring "$1" "$M.asc" "$M" >/dev/null 2>&1; then
		echo good
	else
		echo bad
	fi
}
# keyring WHAT ORACLE LINE KEYRING: in the directory and by URL, the
# records of the unsigned repository (LINE empty), or LINE and nothing.
keyring() {
	expect "$1: gpgv says $2" "$(oracle "$4")" "$2"
	for at in "$R" "$U"; do
		timeout 60 "$ELFSCAN" --no-progress --format=json --keyring "$4" \
		    "rpm-md:$at" >"$T/out" 2>"$T/err"
		st=$?
		case $at in http*) in="by URL" ;; *) in="in a directory" ;; esac
		if [ -z "$3" ]; then
			expect "$1, $in: exit 1, no message" "$st $(cat "$T/err")" "1 "
			expect "$1, $in: the records of the repository" \
			    "$(as_dir <"$T/out" | json_stacks)" "$(cat "$T/good")"
		else
			expect "$1, $in: exit 2, one line naming the repository" \
			    "$st $(cat "$T/err")" "2 elfscan: rpm-md:$at: $3: repository skipped"
			expect "$1, $in: nothing read" "$(json_stacks <"$T/out")" ""
		fi
	done
}
rm -rf "$C/lists"
GNUPGHOME=$G gpg --batch --quiet --yes -u a@example.org -ab -o "$M.asc" "$M" ||
    fail "sign repomd.xml"
expect "repomd.xml.asc is armored" "$(head -n 1 "$M.asc")" "-----BEGIN PGP SIGNATURE-----"
keyring "signed by A, --keyring A" good "" "$T/a.gpg"
keyring "signed by A, --keyring B" bad \
    "repodata/repomd.xml.asc: signed by no key of the keyring" "$T/b.gpg"
cp "$M" "$T/repomd.good"
sed -i 's|</repomd>| </repomd>|' "$M"
rm -rf "$C/lists"
keyring "repomd.xml changed after its signature" bad \
    "repodata/repomd.xml.asc: bad signature: the signed text or the signature was changed" "$T/a.gpg"
cp "$T/repomd.good" "$M"
rm -f "$M.asc"
rm -rf "$C/lists"
expect "no repomd.xml.asc: gpgv cannot check" "$(oracle "$T/a.gpg")" bad
S --format=json --keyring "$T/a.gpg" "rpm-md:$R" >"$T/out" 2>"$T/err"
expect "no repomd.xml.asc: exit 2, one line" "$? $(cat "$T/err")" \
    "2 elfscan: rpm-md:$R: repodata/repomd.xml.asc: not signed: --keyring needs repodata/repomd.xml.asc: repository skipped"
timeout 60 "$ELFSCAN" --no-progress --format=json --keyring "$T/a.gpg" \
    "rpm-md:$U" >"$T/out" 2>"$T/err"
expect "no repomd.xml.asc, by URL: exit 2, one line" "$? $(cat "$T/err")" \
    "2 elfscan: rpm-md:$U: $U/repodata/repomd.xml.asc: cannot fetch: HTTP 404: repository skipped"
S --format=json "rpm-md:$R" >"$T/out" 2>"$T/err"
expect "no repomd.xml.asc, no --keyring: read as before" \
    "$? $(json_stacks <"$T/out" | cmp - "$T/good" && echo same)" "1 same"
finish
