#!/bin/sh
# An image is a root: elfscan --system IMAGE judges a container image by its
# own glibc, ld.so.cache and /etc/environment, its programs' libraries found
# in the file system its layers make, and must say what elfscan --system DIR
# says of the same tree unpacked by umoci (an independent unpacker), and what
# glibc does when the programs run there.
#
# For a Debian 12 root (glibc 2.36) and a Debian 13 one (2.41), the image
# is stacked by umoci from the cached debootstrap root (layer 1), programs
# and libraries placed as closures.sh places them with the root's ldconfig
# run (layer 2: a library asking for an executable stack behind a relative
# soname link, one behind an absolute link to a directory, one in a symbolic
# link loop, a program outside the system's directories; services under
# MemoryDenyWriteExecute=yes: one whose program loads an exec-stack library,
# an alias of it, one whose EnvironmentFile= in /etc/default sets
# LD_LIBRARY_PATH to an exec-stack copy of its library, one that gets the
# setting from a drop-in, one whose program is a script), and a layer that
# changes them (layer 3: a whiteout deletes one exec-stack library, another
# is replaced by a clean copy, an opaque directory hides a third and holds a
# clean one). Tags add a fourth layer: /etc/environment setting
# glibc.rtld.execstack=0; a garbage /etc/ld.so.cache; the dynamic linker
# deleted. The layout holds every tag, so each image is its own root.
# For each: the verdicts, and the records of each file, of the image and of
# its unpacked tree are the same (the services' verdicts among them, which
# tests/system/units.sh proves against systemd and the kernel for a tree);
# each program's fate predicted is what glibc did to it in the unpacked
# tree. A script's interpreter is not known in an image (its bytes went by
# with the layer pass): its service is said not to be judged. The tree is
# judged again with openat2 refused (an older kernel, qemu-user): its
# links are resolved inside it all the same, the report alike. The base
# image copied by skopeo as an OCI archive and a docker save tarball is
# judged the same again.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/system/roots.sh"
need gcc readelf python3 tar umoci skopeo debootstrap unshare chroot mount
: "${ELFSCAN:?}"
[ "$(id -u)" = 0 ] ||
    { echo "ERROR: the glibc roots need root (debootstrap, mount, chroot)"; exit 99; }

B=$T/build
mkdir -p "$B"
cc() { gcc -Wall -O1 -I"$FIX" "$@" 2>>"$B/build.log"; }
cc -o "$T/deny" "$FIX/deny.c" || fail "build deny"
# The libraries each program is linked against, built once, clean: the
# layers hold their own copies.
cc -c -o "$B/asm.o" "$FIX/system/asm-answer.S" &&
    for n in xs gone swap opq abs loop; do
	fixture_lib "$B/lib$n.so.1" "lib$n.so.1" || exit 1
    done &&
    fixture_prog "$B/needs-xs" -L"$B" -l:libxs.so.1 &&
    fixture_prog "$B/needs-gone" -L"$B" -l:libgone.so.1 &&
    fixture_prog "$B/needs-swap" -L"$B" -l:libswap.so.1 &&
    fixture_prog "$B/needs-opq" -L"$B" -l:libopq.so.1 -Wl,--enable-new-dtags \
	-Wl,-rpath,/opt/opq &&
    fixture_prog "$B/needs-abs" -L"$B" -l:libabs.so.1 -Wl,--enable-new-dtags \
	-Wl,-rpath,/opt/abs/lib &&
    fixture_prog "$B/needs-loop" -L"$B" -l:libloop.so.1 &&
    fixture_prog "$B/clean" &&
    fixture_prog "$B/self-exec" -z execstack ||
    { cat "$B/build.log"; fail "build the fixtures"; finish; }

progs="/usr/local/bin/needs-xs /usr/local/bin/needs-gone
/usr/local/bin/needs-swap /usr/local/bin/needs-opq /usr/local/bin/needs-abs
/usr/local/bin/needs-loop /usr/local/bin/clean /usr/local/bin/self-exec"
applib=/usr/local/chstk-image-roots-applib
[ ! -e "$applib" ] ||
    { echo "ERROR: $applib exists here: the absolute link must lead nowhere on this machine"; exit 99; }

# The services of the second layer, under its directory P.
services() { # P
	u=$1/etc/systemd/system
	mkdir -p "$u/chstk-drop.service.d" "$1/etc/default" "$1/opt/svc" \
	    "$1/usr/local/libexec" &&
	    printf '[Service]\nExecStart=/usr/local/bin/needs-xs\nMemoryDenyWriteExecute=yes\n' \
		>"$u/chstk-xs.service" &&
	    ln -s chstk-xs.service "$u/chstk-alias.service" &&
	    printf '[Service]\nEnvironmentFile=-/etc/default/chstk-env\nExecStart=/usr/local/bin/needs-swap\nMemoryDenyWriteExecute=yes\n' \
		>"$u/chstk-env.service" &&
	    printf 'LD_LIBRARY_PATH=/opt/svc\n' >"$1/etc/default/chstk-env" &&
	    fixture_lib "$1/opt/svc/libswap.so.1" libswap.so.1 "$B/asm.o" &&
	    printf '[Service]\nExecStart=/usr/local/bin/self-exec\n' \
		>"$u/chstk-drop.service" &&
	    printf '[Service]\nMemoryDenyWriteExecute=yes\n' \
		>"$u/chstk-drop.service.d/mdwe.conf" &&
	    printf '#!/bin/sh\nexec /usr/local/bin/needs-xs\n' \
		>"$1/usr/local/libexec/run-xs" &&
	    chmod 755 "$1/usr/local/libexec/run-xs" &&
	    printf '[Service]\nExecStart=/usr/local/libexec/run-xs\nMemoryDenyWriteExecute=yes\n' \
		>"$u/chstk-script.service"
}

# The second layer: the fixtures in a view of the suite's root, its
# ldconfig run; the view's changes are the layer.
layer2() { # SUITE
	p=$T/place-$1
	mkdir -p "$p/usr/local/bin" "$p/usr/local/lib" "$p/opt/opq" \
	    "$p/opt/abs" "$p$applib" "$p/srv/app/bin"
	for f in $progs; do
		cp "$B/${f##*/}" "$p$f"
	done
	cp "$B/needs-xs" "$p/srv/app/bin/outside"
	fixture_lib "$p/usr/local/lib/libxs.so.1.0" libxs.so.1 "$B/asm.o" &&
	    ln -s libxs.so.1.0 "$p/usr/local/lib/libxs.so.1" &&
	    fixture_lib "$p/usr/local/lib/libgone.so.1" libgone.so.1 "$B/asm.o" &&
	    fixture_lib "$p/usr/local/lib/libswap.so.1" libswap.so.1 "$B/asm.o" &&
	    fixture_lib "$p/opt/opq/libopq.so.1" libopq.so.1 "$B/asm.o" &&
	    fixture_lib "$p$applib/libabs.so.1" libabs.so.1 "$B/asm.o" &&
	    ln -s "$applib" "$p/opt/abs/lib" &&
	    ln -s libloop.so.1 "$p/usr/local/lib/libloop.so.1" &&
	    services "$p" ||
	    { cat "$B/build.log"; fail "build layer 2 of $1"; finish; }
	root_new "place-$1" "$1"
	root_put_tree "place-$1" "$p"
	root_ldconfig "place-$1" 2>/dev/null
	u=$T/roots/place-$1/upper
	expect "$1: layer 2 has no overlayfs whiteout" "$(find "$u" -type c | head -n 3)" ""
	tar -C "$u" --numeric-owner --owner=0 --group=0 -cf "$T/$1-l2.tar" . ||
	    fail "tar layer 2 of $1"
}

# The third layer, and the fourth of each tag.
mkdir -p "$T/l3/usr/local/lib" "$T/l3/opt/opq" "$T/env0/etc" "$T/badcache/etc" \
    "$T/noldso/usr/lib/x86_64-linux-gnu"
: >"$T/l3/usr/local/lib/.wh.libgone.so.1" &&
    cp "$B/libswap.so.1" "$T/l3/usr/local/lib/" &&
    : >"$T/l3/opt/opq/.wh..wh..opq" &&
    cp "$B/libopq.so.1" "$T/l3/opt/opq/" &&
    printf 'GLIBC_TUNABLES="glibc.rtld.execstack=0"\n' >"$T/env0/etc/environment" &&
    head -c 4096 /dev/urandom >"$T/badcache/etc/ld.so.cache" &&
    : >"$T/noldso/usr/lib/x86_64-linux-gnu/.wh.ld-linux-x86-64.so.2" ||
    fail "build layers 3 and 4"
for l in l3 env0 badcache noldso; do
	tar -C "$T/$l" --numeric-owner --owner=0 --group=0 -cf "$T/$l.tar" . ||
	    fail "tar $l"
done
tags="base env0 badcache noldso"

# JSON lines of elfscan, seen one way: verdicts, files, or each program's
# fate (refused, unresolved, no-ldso, exec, clean).
view() { # WHAT JSON IMAGE(or -) ROOT(the prefix of a directory's paths)
	python3 - "$@" $progs <<'PY'
import json, sys
what, path, image, root = sys.argv[1:5]
progs = sys.argv[5:]
verdicts, files = [], {}
for line in open(path):
    r = json.loads(line)
    if image != "-" and r.get("image") != image:
        continue
    if "verdict" in r:
        verdicts.append(r)
    elif "stack" in r:
        key = r["member"] if "member" in r and r["path"] == root else \
            r["path"][len(root):] + ("!" + r["member"] if "member" in r else "")
        files[key] = "%s %s %s %s [%s]" % (r["type"], r["stack"], r["effective"],
                                          r["wx"], ",".join(r["findings"]))
if what == "verdicts":
    for v in verdicts:
        for h in v["hosts"] or [{"path": "-", "via": ""}]:
            print(v["verdict"], v["subject"], h["path"], "via", h["via"] or "-")
elif what == "files":
    for k in sorted(files):
        print(k, files[k])
else:
    said = {}
    for v in verdicts:
        for h in v["hosts"]:
            word = v["verdict"]
            if word == "unresolved-library" and v["subject"].startswith("/lib64/ld-"):
                word = "no-ldso"
            said.setdefault(h["path"], set()).add(word)
        if v["verdict"] == "tunable-exec-stack":
            said.setdefault("*", set()).add("tunable-exec-stack")
    for p in progs:
        s = said.get(p, set()) | said.get("*", set())
        stack = files.get(p, "").split(" ")[1:2]
        for word, fate in (("no-ldso", "no-ldso"), ("startup-refused", "refused"),
                           ("unresolved-library", "unresolved")):
            if word in s:
                print(p, fate)
                break
        else:
            print(p, "exec" if s & {"stack-made-exec", "tunable-exec-stack"} or
                  stack == ["exec"] else "clean")
PY
}

# What glibc did to a program in a view.
outcome() { # VIEW TUNABLES PROGRAM
	out=$(root_run "$1" ${2:+GLIBC_TUNABLES=$2} -- "$3" 2>&1)
	st=$?
	case $st:$out in
	127:*"executable stack"*) echo refused ;;
	127:*"cannot open shared object"*) echo unresolved ;;
	127:*"No such file or directory"*) echo no-ldso ;;
	0:*"stack: rwxp"*) echo exec ;;
	0:*"stack: rw-p"*) echo clean ;;
	*) echo "other ($st: $(echo "$out" | tr '\n' ' '))" ;;
	esac
}

S() { "$ELFSCAN" --system --no-progress --format=json "$@"; }

for suite in bookworm trixie; do
	root=$(root_path "$suite") || exit 99
	layer2 "$suite"
	I=$T/$suite
	tar -C "$root" --numeric-owner -cf "$T/$suite-l1.tar" . &&
	    umoci init --layout "$I" && umoci new --image "$I:base" &&
	    umoci raw add-layer --image "$I:base" "$T/$suite-l1.tar" &&
	    umoci raw add-layer --image "$I:base" "$T/$suite-l2.tar" &&
	    umoci raw add-layer --image "$I:base" "$T/l3.tar" ||
	    { fail "$suite: stack the image"; continue; }
	rm -f "$T/$suite-l1.tar"
	for t in env0 badcache noldso; do
		umoci raw add-layer --image "$I:base" --tag "$t" "$T/$t.tar" ||
		    fail "$suite: tag $t"
	done
	S "$I" >"$T/$suite.json" 2>"$T/$suite.err"
	st=$?
	expect "$suite: the layout of four images is judged (status 1: verdicts)" "$st" 1
	expect "$suite: no error; the script's service said, in each image" \
	    "$(sort "$T/$suite.err")" "$(for t in badcache base env0 noldso; do
		echo "elfscan: $I!$t!/usr/local/libexec/run-xs: no ELF file of the image, and its bytes went by with the layer pass (a script's interpreter is not known): the command is not judged"
	    done)"
	expect "$suite: each image is a root of its own" \
	    "$(grep -o '"root":"[^"]*","image":"[^"]*","rules"' "$T/$suite.json" |
		sed 's/.*"image":"\([^"]*\)".*/\1/' | sort | tr '\n' ' ')" \
	    "badcache base env0 noldso "
	for tag in $tags; do
		v=$suite-$tag
		umoci unpack --image "$I:$tag" "$T/u-$v" >/dev/null ||
		    { fail "$v: umoci unpack"; continue; }
		D=$T/u-$v/rootfs
		S "$D" >"$T/$v-dir.json" 2>"$T/$v-dir.err"
		expect "$v: the unpacked tree is judged (status 1)" "$?" 1
		expect "$v: the unpacked tree: no error" "$(cat "$T/$v-dir.err")" ""
		# Without openat2 (an older kernel, qemu-user, a seccomp
		# filter), the tree's links are resolved inside it all the same.
		"$T/deny" openat2 38 "$ELFSCAN" --system --no-progress \
		    --format=json "$D" >"$T/$v-no2.json" 2>"$T/$v-no2.err"
		expect "$v: without openat2: the same status" "$?" 1
		sort "$T/$v-no2.json" "$T/$v-no2.err" >"$T/$v-no2.sorted"
		sort "$T/$v-dir.json" "$T/$v-dir.err" >"$T/$v-dir.sorted"
		expect "$v: without openat2: the same report" \
		    "$(diff "$T/$v-dir.sorted" "$T/$v-no2.sorted" | head -n 3)" ""
		view verdicts "$T/$suite.json" "$tag" "$I" | sort >"$T/$v-img.verdicts"
		# The script's service the tree judges by its interpreter; the
		# image, said above, does not.
		view verdicts "$T/$v-dir.json" - "$D" |
		    grep -v ' chstk-script\.service via ' | sort >"$T/$v-dir.verdicts"
		expect "$v: the image's verdicts are those of its unpacked tree" \
		    "$(cat "$T/$v-img.verdicts")" "$(cat "$T/$v-dir.verdicts")"
		echo "note: $v: $(wc -l <"$T/$v-img.verdicts") verdicts by program, alike"
		[ "$tag" = base ] && expect "$v: the services broken by MemoryDenyWriteExecute=, the alias not again" \
		    "$(grep '^mdwe-breaks .* chstk-' "$T/$v-img.verdicts")" \
		    "$(printf '%s\n' \
			"mdwe-breaks /opt/svc/libswap.so.1 chstk-env.service via ExecStart=/usr/local/bin/needs-swap" \
			"mdwe-breaks /usr/local/bin/self-exec chstk-drop.service via ExecStart=/usr/local/bin/self-exec" \
			"mdwe-breaks /usr/local/lib/libxs.so.1.0 chstk-xs.service via ExecStart=/usr/local/bin/needs-xs")"
		view files "$T/$suite.json" "$tag" "$I" >"$T/$v-img.files"
		view files "$T/$v-dir.json" - "$D" >"$T/$v-dir.files"
		expect "$v: every file the tree's verdict reports, the image's reports alike" \
		    "$(comm -13 "$T/$v-img.files" "$T/$v-dir.files" | head -n 5)" ""
		expect "$v: the program outside the system's directories is reported as a file" \
		    "$(grep -c '^/srv/app/bin/outside ' "$T/$v-img.files")" 1
		expect "$v: ... and judged by neither" \
		    "$(grep -c /srv/ "$T/$v-img.verdicts" "$T/$v-dir.verdicts" | cut -d: -f2 | tr '\n' ' ')" "0 0 "
		echo "note: $v: $(wc -l <"$T/$v-dir.files") files alike, $(comm -23 "$T/$v-img.files" "$T/$v-dir.files" | wc -l) more in the image"
		refused=$(grep -c 'dlopen-refused' "$T/$v-img.files")
		case $suite in
		bookworm) expect "$v: glibc 2.36: no file is dlopen-refused" "$refused" 0 ;;
		*) [ "$tag" = noldso ] ||
			expect "$v: glibc 2.41: the exec-stack libraries are dlopen-refused" \
			    "$(grep dlopen-refused "$T/$v-img.files" | cut -d' ' -f1 | tr '\n' ' ')" \
			    "/opt/svc/libswap.so.1 $applib/libabs.so.1 /usr/local/lib/libxs.so.1.0 " ;;
		esac
		view fates "$T/$suite.json" "$tag" "$I" >"$T/$v.predicted"
		t=
		[ "$tag" = env0 ] && t=glibc.rtld.execstack=0
		root_view "u-$v" "$D"
		for p in $progs; do
			got=$(outcome "u-$v" "$t" "$p")
			want=$(awk -v p="$p" '$1 == p { print $2 }' "$T/$v.predicted")
			echo "truth: $v $p glibc=$got elfscan=$want"
			expect "$v: $p: elfscan's verdict on the image is what glibc did" "$want" "$got"
		done
	done
	expect_match "$suite: garbage ld.so.cache: said, the rest goes on" \
	    "$(grep '"image":"badcache","rules"' "$T/$suite.json")" \
	    "*no ld.so.cache: not a glibc-ld.so.cache1.1 file, or damaged*"
	expect_match "$suite: no dynamic linker: said" \
	    "$(grep '"image":"noldso","rules"' "$T/$suite.json")" \
	    '*"rules":"/lib64/ld-linux-x86-64.so.2: absent*'

	# The same image as an OCI archive and a docker save tarball.
	skopeo copy -q "oci:$I:base" "oci-archive:$T/$suite-oci.tar:base" &&
	    skopeo copy -q "oci:$I:base" "docker-archive:$T/$suite-docker.tar:base:1" ||
	    fail "$suite: skopeo copy"
	for f in oci docker; do
		S "$T/$suite-$f.tar" >"$T/$suite-$f.json" 2>"$T/$suite-$f.err"
		expect "$suite: $f archive: judged (status 1)" "$?" 1
		expect "$suite: $f archive: one root" \
		    "$(grep -c '"rules"' "$T/$suite-$f.json")" 1
		name=$(sed -n 's/^{"root":"[^"]*","image":"\([^"]*\)","rules".*/\1/p' "$T/$suite-$f.json")
		expect_match "$suite: $f archive: named by its tag" "$name" "*base*"
		expect "$suite: $f archive: the verdicts of the layout's base image" \
		    "$(view verdicts "$T/$suite-$f.json" "$name" "$T/$suite-$f.tar" | sort)" \
		    "$(cat "$T/$suite-base-img.verdicts")"
		expect "$suite: $f archive: the files of the layout's base image" \
		    "$(view files "$T/$suite-$f.json" "$name" "$T/$suite-$f.tar")" \
		    "$(cat "$T/$suite-base-img.files")"
	done
	rm -rf "$T/u-$suite-"* "$T/$suite-oci.tar" "$T/$suite-docker.tar"
done

# A package is no root.
printf 'not a system\n' >"$T/readme" && tar -C "$T" -cf "$T/plain.tar" readme
S "$T/plain.tar" >"$T/plain.out" 2>"$T/plain.err"
expect "a tarball named as a root: status 2" "$?" 2
expect "... and said so" "$(cat "$T/plain.err")" \
    "elfscan: $T/plain.tar: cannot open the root: neither a directory nor a container image: a package or a tarball holds no system of its own"
finish
