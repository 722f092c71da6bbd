#!/bin/sh
# elfscan on container images, against `umoci unpack` and readelf. Layers
# are made with GNU tar and stacked into an OCI image layout with umoci:
#   1. an executable-stack program (later deleted), an executable-stack
#      library (later replaced by a fixed copy), a directory of programs
#      (later made opaque), a clean program, a hard link to an
#      executable-stack program, a symbolic link to it;
#   2. the program's whiteout, the fixed library, the opaque directory
#      with one new program, a static library of objects;
#   3. an executable-stack program.
# A second image adds a fourth layer whose root is opaque (.wh..wh..opq at
# its top): only that layer's program may be seen.
# skopeo then writes the same image as an OCI archive, as a docker save
# tarball, and with zstd layers, and a second tag into the layout. Each is
# scanned: every ELF file of the unpacked root file system must be reported
# once, by its path in the image, with the stack readelf shows, and nothing
# else: not the deleted program, not the replaced library, not what the
# opaque directory hides. JSON names the layer; two tags of one manifest
# (by index.json's digests) are one image, read once, named by both.
# skopeo's references (oci:DIR:TAG, oci-archive:FILE:TAG,
# docker-archive:FILE:REF and :@N) select the image umoci unpacks for
# that tag; a multi-platform index, written here by hand as the image
# spec describes it, gives with --platform the image skopeo copies with
# --override-arch, without it every platform's, each named. The SARIF logs
# of images pass the official validator and name the image file and the
# tag scanned, never a layer's blob.
. "$top_srcdir/tests/lib.sh"
need gcc as ar readelf python3 tar umoci skopeo zstd
: "${ELFSCAN:?}"
tool=${SARIF_MULTITOOL:-${XDG_CACHE_HOME:-$HOME/.cache}/chstk/sarif-multitool/node_modules/.bin/sarif-multitool}
[ -x "$tool" ] || { echo "ERROR: $tool is missing: run ./bootstrap deps"; exit 99; }
S() { "$ELFSCAN" --no-progress "$@"; }

L1=$T/l1 L2=$T/l2 L3=$T/l3
mkdir -p "$L1/usr/bin" "$L1/usr/lib" "$L1/opt/app" "$L2/usr/bin" \
    "$L2/usr/lib" "$L2/opt/app" "$L3/usr/local/bin" "$T/obj"
gcc -z execstack -o "$L1/usr/bin/gone" "$FIX/hello.c" &&
    gcc -z execstack -o "$L1/usr/bin/kept-exec" "$FIX/hello.c" &&
    ln "$L1/usr/bin/kept-exec" "$L1/usr/bin/hardlink" &&
    ln -s kept-exec "$L1/usr/bin/symlink" &&
    gcc -o "$L1/usr/bin/clean" "$FIX/hello.c" &&
    gcc -shared -fPIC -z execstack -o "$L1/usr/lib/libfix.so" "$FIX/lib.c" &&
    gcc -z execstack -o "$L1/opt/app/hidden" "$FIX/hello.c" &&
    : >"$L2/usr/bin/.wh.gone" &&
    gcc -shared -fPIC -o "$L2/usr/lib/libfix.so" "$FIX/lib.c" &&
    : >"$L2/opt/app/.wh..wh..opq" &&
    gcc -o "$L2/opt/app/new" "$FIX/hello.c" &&
    gcc -c -o "$T/obj/note.o" "$FIX/lib.c" &&
    printf '\t.text\n\tret\n' | as -o "$T/obj/nonote.o" &&
    ar rc "$L2/usr/lib/libmix.a" "$T/obj/note.o" "$T/obj/nonote.o" &&
    gcc -z execstack -o "$L3/usr/local/bin/late" "$FIX/hello.c" ||
    fail "build the layers"
I=$T/layout
umoci init --layout "$I" && umoci new --image "$I:t" || fail "umoci new"
for l in "$L1" "$L2" "$L3"; do
	tar -C "$l" --numeric-owner --owner=0 --group=0 -cf "$l.tar" . &&
	    umoci raw add-layer --image "$I:t" "$l.tar" || fail "umoci raw add-layer $l"
done
skopeo copy -q "oci:$I:t" "oci-archive:$T/image.tar:t" &&
    skopeo copy -q "oci:$I:t" "oci:$T/two:t" &&
    skopeo copy -q "oci:$I:t" "oci:$T/two:t2" &&
    skopeo copy -q "oci:$I:t" "docker-archive:$T/docker.tar:t:1" &&
    skopeo copy -q --dest-compress-format zstd "oci:$I:t" "oci:$T/zstd:t" ||
    fail "skopeo copy"
expect "the zstd copy has zstd layers" \
    "$(for b in "$T"/zstd/blobs/sha256/*; do zstd -t -q "$b" 2>/dev/null && echo z; done | sort -u)" z
expect "the layout's three layers are gzip" \
    "$(for b in "$I"/blobs/sha256/*; do gzip -t "$b" 2>/dev/null && echo z; done | wc -l)" 3

# unpacked IMAGE BUNDLE: what a container sees, by umoci, and each ELF
# file's stack, by readelf.
unpacked() {
	umoci unpack --image "$1" "$2" >/dev/null || fail "umoci unpack $1"
	(cd "$2/rootfs" && find . -type f) | sed 's/^\.//' | sort |
	    while read -r f; do
		p=$2/rootfs$f
		case $(head -c 7 "$p") in
		"!<arch>") for m in $(ar t "$p"); do
				ar p "$p" "$m" >"$T/member"
				echo "$f!$m $(readelf_note "$T/member")"
			done ;;
		?ELF*) echo "$f $(readelf_stack "$p")" ;;
		esac
	    done | sort
}
unpacked "$I:t" "$T/bundle" >"$T/want"
expect_match "umoci's root: the replaced library, the hard link, the new program" \
    "$(cat "$T/want")" "*/opt/app/new RW*/usr/bin/hardlink RWE*/usr/lib/libfix.so RW*"
expect "umoci's root: no deleted or hidden program" \
    "$(grep -c -e /gone -e /hidden "$T/want")" 0

# check NAME IMAGE [WANT [IMAGE2]]: elfscan's records of IMAGE (then an
# option, and IMAGE2) against WANT ($T/want)
check() {
	S --format=json "$2" ${4:+"$4"} >"$T/$1.json" 2>"$T/$1.err"
	expect "$1: findings: exit status 1" "$?" 1
	expect "$1: nothing on stderr" "$(cat "$T/$1.err")" ""
	python3 - "$T/$1.json" >"$T/$1.got" <<'PY'
import json, sys
word = {"exec": "RWE", "noexec": "RW", "absent": "none"}
for line in open(sys.argv[1]):
    r = json.loads(line)
    if "summary" in r:
        continue
    m = r["member"]
    if "!" in m:
        print(m, {"exec": "X", "noexec": "-", "absent": "none"}[r["stack"]])
    else:
        print(m, word[r["stack"]])
PY
	expect "$1: one record for each ELF file umoci unpacks, with readelf's stack" \
	    "$(sort "$T/$1.got")" "$(cat "${3:-$T/want}")"
	expect "$1: each record names its layer" \
	    "$(grep -c '"layer":"sha256:[0-9a-f]\{64\}"' "$T/$1.json")" "$(wc -l <"$T/$1.json")"
}
check layout "$I"
check archive "$T/image.tar"
check docker "$T/docker.tar"
check zstd "$T/zstd"
expect_match "text: IMAGE!TAG!/path" "$(S "$T/image.tar")" "*image.tar!t!/usr/local/bin/late*"
expect "the fixed library comes from layer 2" \
    "$(python3 -c '
import json, sys
m = json.load(open(sys.argv[1] + "/blobs/sha256/" + json.load(open(sys.argv[1] + "/index.json"))["manifests"][0]["digest"][7:]))
print(m["layers"][1]["digest"])' "$T/zstd")" \
    "$(sed -n 's/.*"member":"\/usr\/lib\/libfix.so","layer":"\([^"]*\)".*/\1/p' "$T/zstd.json")"

# A fourth layer with an opaque root: nothing of the three below is seen.
L4=$T/l4
mkdir -p "$L4/usr/bin" &&
    : >"$L4/.wh..wh..opq" &&
    gcc -z execstack -o "$L4/usr/bin/only" "$FIX/hello.c" &&
    tar -C "$L4" --numeric-owner --owner=0 --group=0 -cf "$L4.tar" . &&
    expect "the fourth layer has the opaque marker at its root" \
        "$(tar -tf "$L4.tar" | grep -c '^\./\.wh\.\.wh\.\.opq$')" 1 &&
    umoci init --layout "$T/opq" && umoci new --image "$T/opq:t" &&
    umoci raw add-layer --image "$T/opq:t" "$L1.tar" &&
    umoci raw add-layer --image "$T/opq:t" "$L2.tar" &&
    umoci raw add-layer --image "$T/opq:t" "$L3.tar" &&
    umoci raw add-layer --image "$T/opq:t" "$L4.tar" ||
    fail "build the image with an opaque root"
unpacked "$T/opq:t" "$T/bundle-opq" >"$T/want-opq"
expect "umoci's root under the opaque root: the top layer's program alone" \
    "$(cat "$T/want-opq")" "/usr/bin/only RWE"
check opaque-root "$T/opq" "$T/want-opq"

# Two tags of one manifest: one image, read once, named by both.
expect "two tags: index.json lists one manifest twice" "$(python3 -c '
import json, sys
m = json.load(open(sys.argv[1] + "/index.json"))["manifests"]
print(len(m), len({d["digest"] for d in m}), " ".join(d["annotations"]["org.opencontainers.image.ref.name"] for d in m))' "$T/two")" "2 1 t t2"
check two "$T/two"
expect "two tags: every record under both names" \
    "$(grep -o '"image":"[^"]*"' "$T/two.json" | sort | uniq -c | awk '{ print $1, $2 }')" \
    "$(wc -l <"$T/want") \"image\":\"t,t2\""

# skopeo's references select one image: in a layout of two images, each
# tag's files are those umoci unpacks for it, named by the tag given.
skopeo copy -q "oci:$I:t" "oci:$T/three:t" &&
    skopeo copy -q "oci:$T/opq:t" "oci:$T/three:o" || fail "skopeo copy three"
check ref-o "oci:$T/three:o" "$T/want-opq"
check ref-t "oci:$T/three:t"
expect "oci:DIR:TAG: the records name the tag" \
    "$(grep -o '"image":"[^"]*"' "$T/ref-o.json" | sort -u)" '"image":"o"'
check ref-archive "oci-archive:$T/image.tar:t"
# A docker save tarball of two images, as docker writes one: skopeo's two
# one-image tarballs merged (their manifest.json lists joined).
skopeo copy -q "oci:$T/opq:t" "docker-archive:$T/docker-o.tar:o:1" &&
    mkdir "$T/d2" && tar -C "$T/d2" -xf "$T/docker.tar" &&
    tar -C "$T/d2" -xf "$T/docker-o.tar" --exclude manifest.json --exclude repositories &&
    python3 - "$T/docker.tar" "$T/docker-o.tar" "$T/d2/manifest.json" <<'PY' &&
import json, sys, tarfile
lists = [json.load(tarfile.open(f).extractfile("manifest.json")) for f in sys.argv[1:3]]
json.dump(lists[0] + lists[1], open(sys.argv[3], "w"))
PY
    tar -C "$T/d2" -cf "$T/docker2.tar" . || fail "merge two docker save tarballs"
expect "docker2.tar: two images, by skopeo's tags" "$(tar -xOf "$T/docker2.tar" ./manifest.json |
    python3 -c 'import json, sys; print(" ".join(t for e in json.load(sys.stdin) for t in e["RepoTags"]))')" \
    "docker.io/library/t:1 docker.io/library/o:1"
check ref-docker "docker-archive:$T/docker2.tar:o:1" "$T/want-opq"
check ref-docker-full "docker-archive:$T/docker2.tar:docker.io/library/t:1"
check ref-docker-n "docker-archive:$T/docker2.tar:@1" "$T/want-opq"
expect "docker-archive:FILE:REF: the records name the reference given" \
    "$(grep -o '"image":"[^"]*"' "$T/ref-docker.json" | sort -u)" '"image":"o:1"'
# refused WANT ARG...: elfscan ARG... is the error WANT, exit status 2
refused() {
	want=$1
	shift
	S "$@" >/dev/null 2>"$T/err"
	expect "$*: exit status 2" "$?" 2
	expect "$*: says why" "$(cat "$T/err")" "$want"
}
refused "elfscan: $T/three: cannot read image: nope: no image of that name" "oci:$T/three:nope"
refused "elfscan: $T/docker.tar: cannot read image: t:2: no image of that name" "docker-archive:$T/docker.tar:t:2"
refused "elfscan: $T/docker2.tar: cannot read image: @2: no image of that name" "docker-archive:$T/docker2.tar:@2"
refused "elfscan: $T/l1.tar: not an image: neither an OCI archive nor a docker save tarball" "oci-archive:$T/l1.tar"
refused "elfscan: $T/l1: not an OCI image layout" "oci:$T/l1"

# A multi-platform index: the first image for linux/amd64, the opaque-root
# one for linux/arm64, under one tag, as the image spec's index.
skopeo copy -q "oci:$I:t" "oci:$T/multi:amd" &&
    skopeo copy -q "oci:$T/opq:t" "oci:$T/multi:arm" || fail "skopeo copy multi"
python3 - "$T/multi" <<'PY' || fail "write the multi-platform index"
import hashlib, json, sys
lay = sys.argv[1]
top = json.load(open(lay + "/index.json"))
by = {m["annotations"]["org.opencontainers.image.ref.name"]: m for m in top["manifests"]}
def entry(m, arch):
    return {"mediaType": m["mediaType"], "digest": m["digest"], "size": m["size"],
            "platform": {"architecture": arch, "os": "linux"}}
raw = json.dumps({"schemaVersion": 2,
                  "mediaType": "application/vnd.oci.image.index.v1+json",
                  "manifests": [entry(by["amd"], "amd64"), entry(by["arm"], "arm64")]}).encode()
h = hashlib.sha256(raw).hexdigest()
open(lay + "/blobs/sha256/" + h, "wb").write(raw)
top["manifests"] = [{"mediaType": "application/vnd.oci.image.index.v1+json",
                     "digest": "sha256:" + h, "size": len(raw),
                     "annotations": {"org.opencontainers.image.ref.name": "multi"}}]
json.dump(top, open(lay + "/index.json", "w"))
PY
for a in amd64 arm64; do
	skopeo copy -q --override-os linux --override-arch $a "oci:$T/multi:multi" "oci:$T/picked:$a" &&
	    unpacked "$T/picked:$a" "$T/bundle-$a" >"$T/want-$a" || fail "skopeo picks $a"
done
expect "skopeo's linux/amd64 is the first image" "$(cat "$T/want-amd64")" "$(cat "$T/want")"
expect "skopeo's linux/arm64 is the opaque-root one" "$(cat "$T/want-arm64")" "$(cat "$T/want-opq")"
check platform-arm64 "--platform=linux/arm64" "$T/want-arm64" "oci:$T/multi:multi"
check platform-amd64 "--platform=linux/amd64" "$T/want-amd64" "$T/multi"
cat "$T/want-amd64" "$T/want-arm64" | sort >"$T/want-both"
check platforms "$T/multi" "$T/want-both"
expect "every platform: each image named by its platform" \
    "$(grep -o '"image":"[^"]*","member":"/usr/bin/only"' "$T/platforms.json"; grep -c '"image":"multi\[linux/amd64\]"' "$T/platforms.json")" \
    "$(printf '"image":"multi[linux/arm64]","member":"/usr/bin/only"\n%s' "$(wc -l <"$T/want-amd64")")"
refused "elfscan: $T/multi: cannot read image: multi: no image for the platform linux/s390x" \
    --platform=linux/s390x "$T/multi"

# The SARIF logs of images are valid, and name the image file and the tag
# scanned: an archive by its URI below the root, a layout by its
# index.json, which holds its tags; the message names the image as the
# user did, the layer is a property, no blob a location.
S --format=sarif "$T/image.tar" >"$T/image.sarif"
S --format=sarif "oci:$T/three:o" >"$T/three.sarif"
for log in image three; do
	"$tool" validate "$T/$log.sarif" -o "$T/$log.v" --log ForceOverwrite >"$T/v.log" 2>&1 ||
	    fail "sarif-multitool ran"
	expect "$log: the validator finds no error or warning" "$(python3 -c '
import json, sys
for run in json.load(open(sys.argv[1]))["runs"]:
    for r in run.get("results", []):
        if r.get("level", "warning") in ("error", "warning"):
            print(r["ruleId"], r["message"].get("arguments"))' "$T/$log.v")" ""
done
# where LOG: "URI MESSAGE'S NAME IMAGE LAYER?" of each result, once
where() {
	python3 - "$1" <<'PY' | sort -u
import json, re, sys
for r in json.load(open(sys.argv[1]))["runs"][0]["results"]:
    loc = r["locations"][0]
    art = loc["physicalLocation"]["artifactLocation"]
    name = re.search(r"\(in '([^']*)'\)", r["message"]["text"]).group(1)
    p = loc["properties"]
    print(art["uri"], art.get("uriBaseId", "-"), name.split("!")[0] + "!" + name.split("!")[1],
          p["image"], "layer" if re.fullmatch("sha256:[0-9a-f]{64}", p["layer"]) else "no-layer")
PY
}
expect "archive: each result names the archive and the tag" "$(where "$T/image.sarif")" \
    "image.tar SCANROOT $T/image.tar!t t layer"
expect "layout: each result names the layout and the tag given" "$(where "$T/three.sarif")" \
    "index.json SCANROOT $T/three!o o layer"
expect_match "layout: the logical location names the layout" "$(cat "$T/three.sarif")" \
    '*"fullyQualifiedName":"three!o!/usr/bin/only"*' 
expect_match "image: the member in the result" "$(cat "$T/image.sarif")" \
    '*"fullyQualifiedName":"image.tar!t!/usr/local/bin/late"*'
expect "no result names a blob" "$(grep -c 'blobs/sha256' "$T/image.sarif" "$T/three.sarif")" \
    "$(printf '%s:0\n%s:0' "$T/image.sarif" "$T/three.sarif")"
finish
