#!/bin/sh
# One allowlist everywhere: the same installed-path patterns (with and
# without the leading slash, "*" within a directory, "**" across them)
# allow the same files in a tree scanned from its root, and inside the
# .deb (dpkg-deb), the .rpm (rpmbuild), the tarball (tar) and the OCI
# image (umoci) built from that tree. What each pattern should match is
# said by bash's globstar, run on what each tool unpacks (dpkg-deb -x,
# rpm2cpio | cpio, tar -x, umoci unpack); that every file judged has an
# executable stack, by readelf. A directory named on the command line
# stands for /, a file named does not; with --system, the root does. A pattern that allowed nothing is
# named at the end, in text, JSON and SARIF, and leaves the exit status as
# it was; --diff compares only what the patterns do not allow, on either
# side; --require's globs are installed paths too.
. "$top_srcdir/tests/lib.sh"
need gcc as ar readelf python3 bash tar dpkg-deb rpmbuild rpm2cpio cpio umoci
: "${ELFSCAN:?}"
S() { "$ELFSCAN" --no-progress "$@"; }

R=$T/root
mkdir -p "$R/usr/lib/foo/sub" "$R/usr/lib/grub" "$R/usr/bin" \
    "$R/usr/share/a/b/deep" "$R/usr/deep" "$T/obj" "$T/c"
lib() { gcc -shared -fPIC -z execstack -o "$R/$1" "$FIX/lib.c"; }
lib usr/lib/foo/sub/x.so && lib usr/lib/foo/y.so && lib usr/lib/top.so &&
    lib usr/lib/grub/m.so && lib usr/share/a/b/deep/z.so &&
    lib usr/deep/w.so &&
    gcc -z execstack -o "$R/usr/bin/prog" "$FIX/hello.c" &&
    gcc -z execstack -o "$R/usr/bin/other" "$FIX/hello.c" &&
    printf '\t.text\n\tret\n' | as -o "$T/obj/nonote.o" &&
    ar rc "$R/usr/lib/foo/libmix.a" "$T/obj/nonote.o" ||
    fail "build the tree"
expect "readelf: every program and library of the tree has an executable stack" \
    "$(find "$R" -name '*.so' -o -path '*/bin/*' | while read -r f; do readelf_stack "$f"; done | sort -u)" RWE
expect "readelf: the archive's object has no .note.GNU-stack" \
    "$(readelf_note "$T/obj/nonote.o")" none

# The patterns, as a hook's user writes installed paths.
cat >"$T/allow" <<'EOF'
# installed paths
/usr/lib/foo/**
usr/bin/prog
/usr/lib/*.so
/usr/**/deep/*.so

/nothing/**
EOF

# The tree packed by the tools, and unpacked again.
pack_deb "$R" "$T/c/t.deb" || fail "dpkg-deb"
pack_rpm "$R" "$T/c/t.rpm" || fail "rpmbuild"
tar -C "$R" -czf "$T/c/t.tar.gz" . || fail "tar"
I=$T/c/image
tar -C "$R" --numeric-owner --owner=0 --group=0 -cf "$T/layer.tar" . &&
    umoci init --layout "$I" && umoci new --image "$I:t" &&
    umoci raw add-layer --image "$I:t" "$T/layer.tar" || fail "umoci"
U=$T/u
mkdir -p "$U/t.deb" "$U/t.rpm" "$U/t.tar.gz"
dpkg-deb -x "$T/c/t.deb" "$U/t.deb" &&
    (cd "$U/t.rpm" && rpm2cpio "$T/c/t.rpm" | cpio -idm --quiet) &&
    tar -C "$U/t.tar.gz" -xf "$T/c/t.tar.gz" &&
    umoci unpack --image "$I:t" "$T/bundle" >/dev/null &&
    mv "$T/bundle/rootfs" "$U/image" || fail "unpack"
expect "rpm's members are named ./usr/..." \
    "$(rpm2cpio "$T/c/t.rpm" | cpio -t --quiet | grep -c '^\./usr/bin/prog$')" 1

# globbed DIR: the files the patterns of the list match under DIR, by
# bash's globstar, as installed paths (/usr/...).
globbed() {
	grep -v -e '^#' -e '^$' "$T/allow" | sed 's|^/||' |
	    (cd "$1" && bash -c 'shopt -s globstar dotglob nullglob
		while read -r p; do for f in $p; do [ -f "$f" ] && echo "/$f"; done; done') |
	    sort -u
}
# verdicts JSON ROOT: "allowed" or "refused", and the installed path, of
# each record of elfscan's JSON with a stack finding or allowed: a file's
# path below ROOT, or a member's path in its container (an archive's
# object by the archive).
verdicts() {
	python3 - "$1" "$2" <<'PY' | sort -u
import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    if "findings" not in r or not (r["allowed"] or
            set(r["findings"]) - {"wx-segment"}):
        continue
    if sys.argv[2] == "-":
        name = "/" + r["member"].split("!")[0].lstrip("./")
    else:
        name = r["path"][len(sys.argv[2]):]
    print("allowed" if r["allowed"] else "refused", name)
PY
}
# want DIR: the verdicts a scan of DIR's files should give.
want() {
	globbed "$1" >"$T/globbed"
	(cd "$1" && find . -type f) | sed 's|^\.||' | sort | while read -r f; do
		if grep -qxF "$f" "$T/globbed"; then echo "allowed $f"; else echo "refused $f"; fi
	done | sort
}
want "$R" >"$T/want"
expect_match "bash allows the tree's files the patterns name" "$(grep '^allowed' "$T/want" | tr '\n' ' ')" \
    "allowed /usr/bin/prog allowed /usr/deep/w.so allowed /usr/lib/foo/libmix.a allowed /usr/lib/foo/sub/x.so allowed /usr/lib/foo/y.so allowed /usr/lib/top.so allowed /usr/share/a/b/deep/z.so "
expect "bash: /usr/lib/*.so does not reach into a directory" "$(grep -c 'refused /usr/lib/grub/m.so' "$T/want")" 1

# The tree, named as its root: each path below it is an installed path.
S --format=json --allow "$T/allow" "$R" >"$T/tree.json"
expect "tree: findings left: exit status 1" "$?" 1
expect "tree: the patterns allow what bash's globstar matches, nothing else" \
    "$(verdicts "$T/tree.json" "$R")" "$(cat "$T/want")"
(cd "$R" && S --format=json --allow "$T/allow" . >"$T/dot.json")
expect "tree named as '.': the same" "$(verdicts "$T/dot.json" .)" "$(cat "$T/want")"

# The tree as a system root (--system): its own directories are walked,
# and a file's installed path is its path in the root.
S --system --format=json --allow "$T/allow" "$R" >"$T/system.json"
expect "--system ROOT: the patterns allow by the path in the root" \
    "$(verdicts "$T/system.json" "$(realpath "$R")")" \
    "$(grep -e ' /usr/bin/' -e ' /usr/lib/' "$T/want")"

# Inside each container, the same files by the same patterns.
for c in t.deb t.rpm t.tar.gz image; do
	S --format=json --allow "$T/allow" "$T/c/$c" >"$T/$c.json"
	expect "$c: findings left: exit status 1" "$?" 1
	expect "$c: the patterns allow what bash matches in what the tool unpacks" \
	    "$(verdicts "$T/$c.json" -)" "$(want "$U/$c")"
done

# A file named is not below a root: its path is all there is.
expect "a file named: /usr/lib/foo/** is no prefix of its path" \
    "$(S --no-header --allow-pattern '/usr/lib/foo/**' "$R/usr/lib/foo/y.so" 2>/dev/null | grep -c allowed)" 0
expect "a file named: its path matches" \
    "$(S --no-header --allow-pattern "$R/usr/lib/foo/**" "$R/usr/lib/foo/y.so" | grep -c allowed)" 1

# The pattern that allowed nothing, in each form; the exit status is the
# findings'.
S -q --allow "$T/allow" "$R" >/dev/null 2>"$T/err"
expect "text: the unused pattern named, with its line, on stderr" \
    "$(cat "$T/err")" "elfscan: $T/allow:7: unused pattern: /nothing/**"
expect "json: one record for the unused pattern" \
    "$(grep unused_allow "$T/tree.json")" \
    "{\"unused_allow\":{\"pattern\":\"/nothing/**\",\"file\":\"$T/allow\",\"line\":7}}"
S -q --allow "$T/allow" --allow-pattern '/usr/lib/grub/*' --allow-pattern '/usr/bin/other' \
    --allow-pattern 'usr/lib/none' "$T/c/t.deb" >/dev/null 2>"$T/err"
expect "everything allowed, unused patterns named: exit status 0" "$?" 0
expect "--allow-pattern: the unused one named as such" "$(cat "$T/err")" \
    "$(printf 'elfscan: %s:7: unused pattern: /nothing/**\nelfscan: --allow-pattern: unused pattern: usr/lib/none' "$T/allow")"
S --format=sarif --allow "$T/allow" "$T/c/t.rpm" >"$T/t.sarif"
expect "sarif: the unused pattern is a warning of the run, at its line" "$(python3 -c '
import json, sys
for n in json.load(open(sys.argv[1]))["runs"][0]["invocations"][0]["toolExecutionNotifications"]:
    loc = n["locations"][0]["physicalLocation"]
    print(n["level"], loc["artifactLocation"]["uri"], loc["region"]["startLine"], n["message"]["text"])' "$T/t.sarif")" \
    "warning file://$T/allow 7 The --allow pattern '/nothing/**' allowed nothing: no image with an executable stack matched it."

# --diff, as the hooks compare a build with the previous one: the patterns
# allow on both sides, a tree as a package; what they allow is not
# compared.
mkdir -p "$T/old/usr/lib/foo" &&
    gcc -shared -fPIC -o "$T/old/usr/lib/foo/y.so" "$FIX/lib.c" &&
    gcc -shared -fPIC -o "$T/old/usr/lib/top.so" "$FIX/lib.c" || fail "build the old tree"
expect "readelf: the old libraries' stacks are not executable" \
    "$(readelf_stack "$T/old/usr/lib/foo/y.so") $(readelf_stack "$T/old/usr/lib/top.so")" "RW RW"
# worse ARGS...: the paths of both sides that --diff calls worse
worse() {
	S --diff --format=json "$@" "$T/old" "$T/c/t.deb" | python3 -c '
import json, sys
print(" ".join(sorted(r["path"] for r in map(json.loads, sys.stdin)
                      if r.get("diff") == "regression" and r["old"] is not None)))'
}
expect "--diff: both libraries' stacks became executable" "$(worse)" "usr/lib/foo/y.so usr/lib/top.so"
expect "--diff: an installed-path pattern takes its library out of the comparison" \
    "$(worse --allow-pattern '/usr/lib/foo/**')" "usr/lib/top.so"

# --require's globs are installed paths, in a package as on disk.
expect "--require: an installed path's glob in a .deb" \
    "$(S -q --no-header --require '/usr/bin/**=relro' "$T/c/t.deb" | grep -c no-full-relro)" 2
expect "--require: in the tree named" \
    "$(S -q --no-header --require 'usr/bin/*=relro' "$R" | grep -c no-full-relro)" 2
finish
