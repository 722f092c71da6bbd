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
# skopeo then writes the same image as an OCI archive, as a docker save
# tarball, and with zstd layers, and a second tag into the layout. Each is
# scanned: every ELF file of the unpacked root file system must be reported
# once, by its path in the image, with the stack readelf shows, and nothing
# else (check_image.py): not the deleted program, not the replaced library,
# not what the opaque directory hides. JSON names the layer; the layout's
# two images are reported each under its tag; the SARIF log of an image
# passes the official validator.
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

# What a container sees, by umoci, and each ELF file's stack, by readelf.
umoci unpack --image "$I:t" "$T/bundle" >/dev/null || fail "umoci unpack"
(cd "$T/bundle/rootfs" && find . -type f) | sed 's/^\.//' | sort |
    while read -r f; do
	    p=$T/bundle/rootfs$f
	    case $(head -c 7 "$p") in
	    "!<arch>") for m in $(ar t "$p"); do
			ar p "$p" "$m" >"$T/member"
			echo "$f!$m $(readelf_note "$T/member")"
		done ;;
	    ?ELF*) echo "$f $(readelf_stack "$p")" ;;
	    esac
    done | sort >"$T/want"
expect_match "umoci's root: the replaced library, the hard link, the new program" \
    "$(cat "$T/want")" "*/opt/app/new RW*/usr/bin/hardlink RWE*/usr/lib/libfix.so RW*"
expect "umoci's root: no deleted or hidden program" \
    "$(grep -c -e /gone -e /hidden "$T/want")" 0

# check NAME IMAGE: elfscan's records of IMAGE against $T/want
check() {
	S --format=json "$2" >"$T/$1.json" 2>"$T/$1.err"
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
	    "$(sort "$T/$1.got")" "$(cat "$T/want")"
	expect "$1: each record names its layer" \
	    "$(grep -c '"layer":"sha256:[0-9a-f]\{64\}"' "$T/$1.json")" "$(wc -l <"$T/$1.json")"
}
check layout "$I"
check archive "$T/image.tar"
check docker "$T/docker.tar"
check zstd "$T/zstd"
expect_match "text: IMAGE!/path" "$(S "$T/image.tar")" "*image.tar!/usr/local/bin/late*"
expect "the fixed library comes from layer 2" \
    "$(python3 -c '
import json, sys
m = json.load(open(sys.argv[1] + "/blobs/sha256/" + json.load(open(sys.argv[1] + "/index.json"))["manifests"][0]["digest"][7:]))
print(m["layers"][1]["digest"])' "$T/zstd")" \
    "$(sed -n 's/.*"member":"\/usr\/lib\/libfix.so","layer":"\([^"]*\)".*/\1/p' "$T/zstd.json")"

# Two tags in one layout: each image under its own name.
S --format=json "$T/two" >"$T/two.json"
expect "two tags: each image's files under its name" \
    "$(grep -o '"image":"[^"]*","member":"/usr/local/bin/late"' "$T/two.json" | sort)" \
    "$(printf '"image":"t","member":"/usr/local/bin/late"\n"image":"t2","member":"/usr/local/bin/late"')"

# The SARIF log of an image is valid.
S --format=sarif "$T/image.tar" >"$T/image.sarif"
"$tool" validate "$T/image.sarif" -o "$T/v.sarif" --log ForceOverwrite >"$T/v.log" 2>&1 ||
    fail "sarif-multitool ran"
expect "image: the validator finds no error or warning" "$(python3 -c '
import json, sys
for run in json.load(open(sys.argv[1]))["runs"]:
    for r in run.get("results", []):
        if r.get("level", "warning") in ("error", "warning"):
            print(r["ruleId"], r["message"].get("arguments"))' "$T/v.sarif")" ""
expect_match "image: the member in the result" "$(cat "$T/image.sarif")" \
    '*"fullyQualifiedName":"image.tar!/usr/local/bin/late"*'
finish
