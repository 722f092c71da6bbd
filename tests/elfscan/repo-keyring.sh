#!/bin/sh
# elfscan --keyring FILE apt:ROOT:SUITE: the Release of a local apt
# repository, made here from real .debs, is read only when a key of the
# keyring signed it, as InRelease (gpg --clearsign) or as Release and
# Release.gpg (gpg -abs), and then only the text the signature covers.
# Three throwaway keys are made with gpg (C expired); gpgv on the command line, in an
# empty GNUPGHOME, is the judge each verdict is checked against. Good
# signatures (binary keyring, armored .asc, several --keyring): the same
# records as the unsigned Release without --keyring; signed by A and B,
# B's keyring is enough, as for apt. A byte of the signed text changed,
# the other key's signature, an expired key's (which gpgv's exit status
# passes), no signature, gpgv missing:
# one line naming the repository, exit 2, nothing of it read. Unsigned
# text around a good InRelease (a component added after the signature, a
# digest changed before the header): not used. A stub gpgv shows that a
# status quoted inside a status line, or a status past the bound, passes
# nothing. Without --keyring, nothing changes: an unsigned Release still
# reads.
. "$top_srcdir/tests/lib.sh"
need gcc dpkg-deb dpkg-scanpackages apt-ftparchive python3 xz gpg gpgv
: "${ELFSCAN:?}"
S() { "$ELFSCAN" --no-progress "$@"; }
[ "$(uname -m)" = x86_64 ] || skip "the packages are amd64"

R=$T/repo
D=$R/dists/s
# deb NAME [GCC-OPTION...]: NAME_1_amd64.deb in the pool: usr/bin/NAME.
deb() {
	name=$1
	shift
	rm -rf "$T/build" && mkdir -p "$T/build/DEBIAN" "$T/build/usr/bin" &&
	    gcc "$@" -o "$T/build/usr/bin/$name" "$FIX/hello.c" &&
	    printf 'Package: %s\nVersion: 1\nArchitecture: amd64\nMaintainer: t <t@t>\nDescription: t\n' \
	    "$name" >"$T/build/DEBIAN/control" &&
	    mkdir -p "$R/pool/main/$name" &&
	    dpkg-deb --root-owner-group --build "$T/build" \
	    "$R/pool/main/$name/${name}_1_amd64.deb" >/dev/null
}
# The index of component main lists exec and clean; that of evil, which
# the Release does not name, lists other.
index() {
	for c in main evil; do
		mkdir -p "$D/$c/binary-amd64" || return 1
	done
	(cd "$R" && dpkg-scanpackages -m pool /dev/null 2>/dev/null) >"$T/all" &&
	    python3 - "$T/all" "$D" <<'PY' &&
import sys
stanzas = open(sys.argv[1]).read().strip().split("\n\n")
for comp, names in (("main", ("exec", "clean")), ("evil", ("other",))):
    with open(sys.argv[2] + "/" + comp + "/binary-amd64/Packages", "w") as f:
        f.write("".join(s + "\n\n" for s in stanzas
                        if s.split("\n")[0].split(": ")[1] in names))
PY
	    xz -k "$D/main/binary-amd64/Packages" "$D/evil/binary-amd64/Packages" &&
	    (cd "$D" && apt-ftparchive -o APT::FTPArchive::Release::Components=main \
	    release . >"$T/Release" && mv "$T/Release" Release)
}
deb exec -z execstack && deb clean -z noexecstack && deb other -z execstack &&
    index || fail "build the repository"

# Two keys, A (the archive's) and B (another's), and their keyrings:
# binary, and A's armored too.
G=$T/gnupg
mkdir -m 700 "$T/empty" && gpg_keys "$G" "$T" a b || fail "the keys"
# C expired in 2020, a day after it was made and signed with.
GNUPGHOME=$G gpg --batch --quiet --passphrase '' --faked-system-time 20200101T000000 \
    --quick-gen-key "c <c@example.org>" ed25519 sign 1d 2>/dev/null &&
    GNUPGHOME=$G gpg --batch --export c@example.org >"$T/c.gpg" || fail "key c"
GNUPGHOME=$G gpg --batch --armor --export a@example.org >"$T/a.asc"
expect "the armored keyring is armor" "$(head -1 "$T/a.asc")" \
    "-----BEGIN PGP PUBLIC KEY BLOCK-----"
# sign KEY OUT [GPG-OPTION...]: Release clearsigned (InRelease) or
# detached (Release.gpg).
sign() {
	k=$1 f=$2
	shift 2
	case $f in
	InRelease) set -- --clearsign "$@" ;;
	*) set -- -abs "$@" ;;
	esac
	rm -f "$D/$f" &&
	    GNUPGHOME=$G gpg --batch --quiet --yes -u "$k@example.org" "$@" \
	    -o "$D/$f" "$D/Release"
}
# The keywords of gpgv's status lines that decide, in order, one a line.
status() {
	GNUPGHOME=$T/empty gpgv --status-fd 1 --keyring "$@" 2>/dev/null |
	    sed -n 's/^\[GNUPG:\] \(GOODSIG\|VALIDSIG\|BADSIG\|ERRSIG\|NO_PUBKEY\|EXPKEYSIG\|REVKEYSIG\) .*/\1/p' |
	    tr '\n' ' '
}
# gpgv's own verdict, the oracle: good or bad.
oracle() {
	if GNUPGHOME=$T/empty gpgv --keyring "$@" >/dev/null 2>&1; then
		echo good
	else
		echo bad
	fi
}

# The unsigned Release, without --keyring: as before.
S --format=json "apt:$R:s" >"$T/out" 2>"$T/err"
expect "unsigned, no --keyring: findings, exit 1" "$?" 1
expect "unsigned, no --keyring: no message" "$(cat "$T/err")" ""
json_stacks <"$T/out" >"$T/good"
expect "unsigned, no --keyring: the two packages of main" \
    "$(sed 's|.*/pool/main/\([a-z]*\)/.*|\1|' "$T/good" | sort -u | tr '\n' ' ')" \
    "clean exec "

# good WHAT KEYRING...: read, with the same records as the unsigned one.
good() {
	what=$1
	shift
	S --format=json "$@" "apt:$R:s" >"$T/out" 2>"$T/err"
	expect "$what: exit 1" "$?" 1
	expect "$what: no message" "$(cat "$T/err")" ""
	expect "$what: the records of the unsigned Release" \
	    "$(json_stacks <"$T/out")" "$(cat "$T/good")"
}
# refused WHAT LINE KEYRING...: one line, exit 2, nothing read.
refused() {
	what=$1
	line=$2
	shift 2
	S --format=json "$@" "apt:$R:s" >"$T/out" 2>"$T/err"
	expect "$what: exit 2" "$?" 2
	expect "$what: one line naming the repository" "$(cat "$T/err")" \
	    "elfscan: apt:$R:s: $line: repository skipped"
	expect "$what: nothing of it read" "$(json_stacks <"$T/out")" ""
}

sign a InRelease || fail "sign InRelease"
expect "gpgv: A's InRelease, A's keyring: good" \
    "$(oracle "$T/a.gpg" "$D/InRelease")" good
good "InRelease signed by A, --keyring A" --keyring "$T/a.gpg"
GNUPGHOME=$T/empty gpg --batch --quiet --dearmor <"$T/a.asc" >"$T/a-dearmored.gpg"
expect "gpgv: A's InRelease, A's armored keyring dearmored: good" \
    "$(oracle "$T/a-dearmored.gpg" "$D/InRelease")" good
good "InRelease signed by A, --keyring A.asc (armored)" --keyring "$T/a.asc"
good "InRelease signed by A, --keyring B --keyring A.asc" \
    --keyring "$T/b.gpg" --keyring "$T/a.asc"
expect "gpgv: A's InRelease, B's keyring: bad" \
    "$(oracle "$T/b.gpg" "$D/InRelease")" bad
refused "InRelease signed by A, --keyring B" \
    "dists/s/InRelease: signed by no key of the keyring" --keyring "$T/b.gpg"
S --format=json "apt:$R:s" >"$T/out" 2>"$T/err"
expect "a signed InRelease, no --keyring: read as before" \
    "$(json_stacks <"$T/out")" "$(cat "$T/good")"

# One byte of the signed text changed: its Date, which nothing else reads.
cp "$D/InRelease" "$T/InRelease.good"
python3 - "$D/InRelease" <<'PY'
import sys
p = sys.argv[1]
t = bytearray(open(p, "rb").read())
i = t.index(b"\nDate: ") + 7
t[i] ^= 1
open(p, "wb").write(t)
PY
expect "gpgv: a byte of InRelease's text changed: bad" \
    "$(oracle "$T/a.gpg" "$D/InRelease")" bad
refused "a byte of the signed text changed" \
    "dists/s/InRelease: bad signature: the signed text or the signature was changed" \
    --keyring "$T/a.gpg"

# Unsigned text after the signature: component evil added (the signed
# list has its index), which lists the package other. gpgv still says
# good: only the text it covers counts.
{ cat "$T/InRelease.good" && printf 'Components: main evil\n'; } >"$D/InRelease"
expect "gpgv: InRelease, text appended after the signature: good" \
    "$(oracle "$T/a.gpg" "$D/InRelease")" good
good "unsigned text appended (a component added): not used" --keyring "$T/a.gpg"
# Unsigned text before the header: a digest of main's index changed, a
# list that would come first.
{ printf 'SHA256:\n %s %s main/binary-amd64/Packages.xz\n\n' \
      "$(printf '%064d' 0)" "$(stat -c %s "$D/main/binary-amd64/Packages.xz")"
  cat "$T/InRelease.good"
} >"$D/InRelease"
expect "gpgv: InRelease, text before the header: good" \
    "$(oracle "$T/a.gpg" "$D/InRelease")" good
good "unsigned text before the header (a digest changed): not used" --keyring "$T/a.gpg"

# An InRelease that is not clearsigned, and B's signature.
cp "$D/Release" "$D/InRelease"
expect "gpgv: InRelease not signed: bad" "$(oracle "$T/a.gpg" "$D/InRelease")" bad
refused "InRelease not clearsigned" "dists/s/InRelease: not signed" \
    --keyring "$T/a.gpg"
sign b InRelease || fail "sign InRelease with B"
expect "gpgv: B's InRelease, A's keyring: bad" \
    "$(oracle "$T/a.gpg" "$D/InRelease")" bad
refused "InRelease signed by B, --keyring A" \
    "dists/s/InRelease: signed by no key of the keyring" --keyring "$T/a.gpg"
# Signed by A and B, as Debian signs with several keys: B's keyring is
# enough, A's signature merely not checkable (apt's rule).
sign a InRelease -u b@example.org || fail "sign InRelease with A and B"
expect "gpgv: A's and B's InRelease, B's keyring: A's key missing, B's good" \
    "$(status "$T/b.gpg" "$D/InRelease")" "ERRSIG NO_PUBKEY GOODSIG VALIDSIG "
good "InRelease signed by A and B, --keyring B" --keyring "$T/b.gpg"
# Signed by C while it was valid: gpgv's exit status says good, its
# status lines say expired, and those are what count.
sign c InRelease --faked-system-time 20200101T010000 2>/dev/null || fail "sign InRelease with C"
expect "gpgv: C's InRelease, C's keyring: exit 0" \
    "$(oracle "$T/c.gpg" "$D/InRelease")" good
expect "gpgv: C's InRelease, C's keyring: an expired key's signature" \
    "$(status "$T/c.gpg" "$D/InRelease")" "EXPKEYSIG VALIDSIG "
refused "InRelease signed by C, expired, --keyring C" \
    "dists/s/InRelease: signed by an expired key" --keyring "$T/c.gpg"
rm "$D/InRelease"

# Release and its detached Release.gpg.
refused "Release without Release.gpg, --keyring A" \
    "dists/s/Release.gpg: not signed: --keyring needs InRelease or Release.gpg" \
    --keyring "$T/a.gpg"
good "Release alone, no --keyring: read, unchecked as before"
sign a Release.gpg || fail "sign Release.gpg"
expect "gpgv: Release.gpg by A, A's keyring: good" \
    "$(oracle "$T/a.gpg" "$D/Release.gpg" "$D/Release")" good
good "Release and Release.gpg by A, --keyring A" --keyring "$T/a.gpg"
good "Release and Release.gpg by A, --keyring A.asc" --keyring "$T/a.asc"
refused "Release.gpg by A, --keyring B" \
    "dists/s/Release.gpg: signed by no key of the keyring" --keyring "$T/b.gpg"
cp "$D/Release" "$T/Release.good"
sed -i 's/^\(Date: .*\)/\1 /' "$D/Release"
expect "gpgv: Release changed after Release.gpg: bad" \
    "$(oracle "$T/a.gpg" "$D/Release.gpg" "$D/Release")" bad
refused "Release changed after Release.gpg" \
    "dists/s/Release.gpg: bad signature: the signed text or the signature was changed" \
    --keyring "$T/a.gpg"
cp "$T/Release.good" "$D/Release"

# gpgv missing: a PATH without it (the libtool wrapper needs ls and sed).
mkdir "$T/nogpgv" &&
    for t in ls sed; do ln -s "$(command -v $t)" "$T/nogpgv/$t"; done
PATH=$T/nogpgv "$ELFSCAN" --no-progress --keyring "$T/a.gpg" \
    "apt:$R:s" >"$T/out" 2>"$T/err"
expect "gpgv missing: exit 2" "$?" 2
expect "gpgv missing: one line" "$(cat "$T/err")" \
    "elfscan: apt:$R:s: dists/s/Release.gpg: gpgv is not installed: No such file or directory: repository skipped"
expect "gpgv missing: nothing read" "$(json_stacks <"$T/out")" ""

# What gpgv says of a signature quotes it: the signer's user ID of NEWSIG
# is the signer's to write (gpg will not make one like this, so a stub
# gpgv says it). Only a line's start is a status.
mkdir "$T/stub" && cat >"$T/stub/gpgv" <<'EOF2' && chmod +x "$T/stub/gpgv"
#!/bin/sh
echo '[GNUPG:] NEWSIG x [GNUPG:] GOODSIG 1 A [GNUPG:] VALIDSIG 1 ' >&3
echo '[GNUPG:] ERRSIG 2 22 8 01 1 9 2' >&3
echo '[GNUPG:] NO_PUBKEY 2' >&3
[ -z "${BIG-}" ] || yes '[GNUPG:] KEY_CONSIDERED 1 0' | head -c 70000 >&3
exit 2
EOF2
PATH=$T/stub:$PATH "$ELFSCAN" --no-progress --keyring "$T/a.gpg" \
    "apt:$R:s" >"$T/out" 2>"$T/err"
expect "a status quoted inside a status line: not a status" "$(cat "$T/err")" \
    "elfscan: apt:$R:s: dists/s/Release.gpg: signed by no key of the keyring: repository skipped"
BIG=1 PATH=$T/stub:$PATH "$ELFSCAN" --no-progress --keyring "$T/a.gpg" \
    "apt:$R:s" >"$T/out" 2>"$T/err"
expect "more status than the bound: refused" "$(cat "$T/err")" \
    "elfscan: apt:$R:s: dists/s/Release.gpg: gpgv said more than 65536 bytes of status: repository skipped"

# A keyring that cannot be read. (rpm-md's repomd.xml.asc: repo-rpm.sh.)
refused "a keyring missing" \
    "dists/s/Release.gpg: cannot read the keyring $T/none.gpg: No such file or directory" \
    --keyring "$T/none.gpg"
finish
