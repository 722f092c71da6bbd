#!/bin/sh
# The verdicts of a root on what its processes dlopen (elfscan --system:
# plugins paired with their hosts), against what a real glibc does with
# them in that root. In Debian roots of three glibc (bookworm 2.36, which
# refuses nothing; trixie 2.41 and forky 2.43, which refuse and know
# glibc.rtld.execstack=2), under each value of the tunable set in
# /etc/environment (none, 0, 1, 2), plugins built here are placed where
# their hosts look, each clean, asking for an executable stack through an
# assembly file without .note.GNU-stack, or asking only through a library
# it needs:
#
#   python3 modules   dist-packages (stable ABI, any python3; one needing a
#                     library of its own pkg.libs/ through its RUNPATH;
#                     one tagged for a python3 the root lacks),
#                     lib-dynload (tagged for the root's python3) and a
#                     venv's site-packages, imported by the venv's python
#   PAM modules       the root's security directory, three PAM hosts: one
#                     with a DT_RPATH whose directory holds an asking
#                     build of a library a module needs (a dlopened
#                     object's libraries are searched in the main
#                     program's RPATH), one without, and one setuid root,
#                     run by nobody (AT_SECURE: GLIBC_TUNABLES ignored)
#   NSS modules       named in /etc/nsswitch.conf; and libnss_files.so.2
#                     replaced by an asking build, which glibc 2.34 and
#                     later never load (files is built in)
#   gconv modules     named by a gconv-modules.d file, iconvconfig rerun
#   .note.dlopen      a library whose notes name an asking and a clean
#                     library in its RUNPATH, the first through a soname
#                     alternative that does not exist
#   Node addons       a node_modules directory, required by the root's
#                     node (the roots of this test hold nodejs)
#
# elfscan judges the root from its files; then each host is run in the
# root with the same GLIBC_TUNABLES: what it did (loaded, refused, and the
# main stack's permissions after) must be what elfscan said of that pair.
# A library whose notes are not JSON gets a one-line error, and the rest
# of the verdicts still come. JNI libraries are not tested here: the roots
# hold no JVM.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/system/roots.sh"
# Roots of their own, with a node to load the addons; the other system
# tests' roots stay as they are.
ROOTS_INCLUDE="$ROOTS_INCLUDE nodejs"
need gcc readelf objcopy strings python3 python3-config debootstrap unshare chroot flock mount
: "${ELFSCAN:?}"
[ "$(id -u)" = 0 ] ||
    { echo "ERROR: the glibc roots need root (debootstrap, mount, chroot)"; exit 99; }

SYS=$FIX/system
B=$T/build
MA=$(gcc -print-multiarch)
LIB=/usr/lib/$MA
DIST=/usr/lib/python3/dist-packages
NODE=/usr/local/lib/node_modules/stacktest
mkdir -p "$B"
cc() { gcc -Wall -O1 -I"$FIX" "$@" 2>>"$B/build.log"; }
shlib() { # OUT SOURCE EXTRA...: a shared object, the missing note unwarned
	o=$1
	shift
	cc -shared -fPIC -Wl,--no-as-needed -Wl,--no-warn-execstack -o "$B/$o" "$@"
}
pymod() { # OUT NAME EXTRA...: a python3 module NAME
	o=$1 n=$2
	shift 2
	# shellcheck disable=SC2046
	shlib "$o" $(python3-config --includes) -DMODULE="$n" "$SYS/pymod.c" "$@"
}
note0='"[{\"feature\":\"asm\",\"soname\":[\"libdlnote-absent.so.1\",\"libdlnote-asm.so.1\"]}]"'
note1='"[{\"feature\":\"clean\",\"priority\":\"suggested\",\"soname\":[\"libdlnote-clean.so.1\"]}]"'
cc -c -o "$B/asm.o" "$SYS/asm-answer.S" &&
    shlib libstackxs.so.1 -Wl,-soname,libstackxs.so.1 "$FIX/lib.c" "$B/asm.o" &&
    shlib libstackalt.so.1 -Wl,-soname,libstackalt.so.1 "$FIX/lib.c" &&
    mkdir -p "$B/hostrp" &&
    shlib hostrp/libstackalt.so.1 -Wl,-soname,libstackalt.so.1 "$FIX/lib.c" "$B/asm.o" &&
    pymod stacktest_clean.abi3.so stacktest_clean &&
    pymod stacktest_asm.abi3.so stacktest_asm "$B/asm.o" &&
    pymod stacktest_dep.abi3.so stacktest_dep -L"$B" -l:libstackxs.so.1 \
	-Wl,--enable-new-dtags -Wl,-rpath,'$ORIGIN/stacktest_dep.libs' &&
    pymod stacktest_other.cpython-30-$MA.so stacktest_other "$B/asm.o" &&
    pymod stacktest_dyn.so stacktest_dyn "$B/asm.o" &&
    pymod stacktest_venv.abi3.so stacktest_venv "$B/asm.o" &&
    shlib pam_stacktest_clean.so "$SYS/pam_stacktest.c" &&
    shlib pam_stacktest_asm.so "$SYS/pam_stacktest.c" "$B/asm.o" &&
    shlib pam_stacktest_dep.so "$SYS/pam_stacktest.c" -L"$B" -l:libstackxs.so.1 &&
    shlib pam_stacktest_alt.so "$SYS/pam_stacktest.c" -L"$B" -l:libstackalt.so.1 &&
    cc -o "$B/pamhost" "$SYS/pamhost.c" -lpam &&
    cc -o "$B/pamhost-rpath" "$SYS/pamhost.c" -lpam -Wl,--disable-new-dtags \
	-Wl,-rpath,/opt/hostrp &&
    shlib libnss_stackclean.so.2 -DSERVICE=stackclean -Wl,-soname,libnss_stackclean.so.2 \
	"$SYS/nss_stacktest.c" &&
    shlib libnss_stackasm.so.2 -DSERVICE=stackasm -Wl,-soname,libnss_stackasm.so.2 \
	"$SYS/nss_stacktest.c" "$B/asm.o" &&
    shlib libnss_stackdep.so.2 -DSERVICE=stackdep -Wl,-soname,libnss_stackdep.so.2 \
	"$SYS/nss_stacktest.c" -L"$B" -l:libstackxs.so.1 &&
    shlib libnss_files.so.2 -DSERVICE=files -Wl,-soname,libnss_files.so.2 \
	"$SYS/nss_stacktest.c" "$B/asm.o" &&
    cc -o "$B/nsshost" "$SYS/nsshost.c" &&
    shlib STACKTEST-CLEAN.so "$SYS/gconv_stacktest.c" &&
    shlib STACKTEST-ASM.so "$SYS/gconv_stacktest.c" "$B/asm.o" &&
    cc -o "$B/iconvhost" "$SYS/iconvhost.c" &&
    shlib libdlnote-asm.so.1 -Wl,-soname,libdlnote-asm.so.1 "$FIX/lib.c" "$B/asm.o" &&
    shlib libdlnote-clean.so.1 -Wl,-soname,libdlnote-clean.so.1 "$FIX/lib.c" &&
    shlib libdlnote.so.1 -Wl,-soname,libdlnote.so.1 -Wl,--enable-new-dtags \
	-Wl,-rpath,'$ORIGIN/dlnote' -DNOTE0="$note0" -DNOTE1="$note1" "$SYS/dlnote.c" &&
    shlib libdlnote-bad.so.1 -Wl,-soname,libdlnote-bad.so.1 -DNOTE0='"not json"' \
	"$SYS/dlnote.c" &&
    cc -o "$B/dlnotehost" "$SYS/dlnotehost.c" -L"$B" -l:libdlnote.so.1 &&
    shlib stacktest_clean.node "$SYS/nodeaddon.c" &&
    shlib stacktest_asm.node "$SYS/nodeaddon.c" "$B/asm.o" &&
    shlib stacktest_dep.node "$SYS/nodeaddon.c" -L"$B" -l:libstackxs.so.1 ||
    { cat "$B/build.log"; fail "build the fixtures"; finish; }
pass "the fixtures build"

# The marking and linking of each fixture, by readelf.
for f in libstackxs.so.1 hostrp/libstackalt.so.1 stacktest_asm.abi3.so \
    stacktest_dyn.so stacktest_venv.abi3.so pam_stacktest_asm.so libnss_stackasm.so.2 libnss_files.so.2 \
    STACKTEST-ASM.so libdlnote-asm.so.1 stacktest_asm.node; do
	expect "$f asks for an executable stack" "$(readelf_stack "$B/$f")" RWE
done
for f in libstackalt.so.1 stacktest_clean.abi3.so stacktest_dep.abi3.so \
    pam_stacktest_clean.so pam_stacktest_dep.so pam_stacktest_alt.so pamhost \
    pamhost-rpath libnss_stackclean.so.2 libnss_stackdep.so.2 nsshost \
    STACKTEST-CLEAN.so iconvhost libdlnote-clean.so.1 libdlnote.so.1 dlnotehost \
    stacktest_clean.node stacktest_dep.node; do
	expect "$f asks for no executable stack" "$(readelf_stack "$B/$f")" RW
done
for f in stacktest_dep.abi3.so pam_stacktest_dep.so libnss_stackdep.so.2 \
    stacktest_dep.node; do
	expect "$f needs libstackxs.so.1" \
	    "$(readelf -dW "$B/$f" | grep -c 'NEEDED.*\[libstackxs.so.1\]')" 1
done
expect "pamhost-rpath has a DT_RPATH" "$(readelf -dW "$B/pamhost-rpath" | grep -c '(RPATH)')" 1
expect "libdlnote.so.1 has two FDO dlopen notes" \
    "$(readelf -nW "$B/libdlnote.so.1" | grep -o 'FDO[^(]*(0x407c0c0a)' | wc -l)" 2
objcopy --dump-section .note.dlopen="$T/notes" "$B/libdlnote.so.1" "$T/scratch"
expect "objcopy finds both texts in .note.dlopen" \
    "$(strings -n 16 "$T/notes" | sort)" \
    "$(printf '%s\n' "$note0" "$note1" | sed 's/^"//; s/"$//; s/\\//g' | sort)"

# place VIEW PYVER: the fixtures where a Debian system keeps them, the
# services and nsswitch.conf naming them, the caches redone.
place() {
	p=$T/place-$1
	mkdir -p "$p$LIB/security" "$p$LIB/gconv/gconv-modules.d" "$p/usr/local/bin" \
	    "$p/usr/local/lib/dlnote" "$p$DIST/stacktest_dep.libs" \
	    "$p/usr/lib/python$2/lib-dynload" "$p/etc/pam.d" "$p/opt/hostrp" \
	    "$p$NODE"
	cp "$B/libstackxs.so.1" "$B/libstackalt.so.1" "$B/libdlnote.so.1" \
	    "$B/libdlnote-bad.so.1" "$p/usr/local/lib/"
	cp "$B/hostrp/libstackalt.so.1" "$p/opt/hostrp/"
	cp "$B/libdlnote-asm.so.1" "$B/libdlnote-clean.so.1" "$p/usr/local/lib/dlnote/"
	cp "$B/stacktest_clean.abi3.so" "$B/stacktest_asm.abi3.so" \
	    "$B/stacktest_dep.abi3.so" "$B/stacktest_other.cpython-30-$MA.so" "$p$DIST/"
	cp "$B/libstackxs.so.1" "$p$DIST/stacktest_dep.libs/"
	cp "$B/stacktest_clean.node" "$B/stacktest_asm.node" \
	    "$B/stacktest_dep.node" "$p$NODE/"
	tag=$(echo "$2" | tr -d .)
	cp "$B/stacktest_dyn.so" "$p/usr/lib/python$2/lib-dynload/stacktest_dyn.cpython-$tag-$MA.so"
	for k in clean asm dep alt; do
		cp "$B/pam_stacktest_$k.so" "$p$LIB/security/"
		echo "auth required pam_stacktest_$k.so" >"$p/etc/pam.d/stacktest-$k"
	done
	cp "$B/libnss_stackclean.so.2" "$B/libnss_stackasm.so.2" \
	    "$B/libnss_stackdep.so.2" "$B/libnss_files.so.2" "$p$LIB/"
	root_cat "$1" /etc/nsswitch.conf |
	    sed 's/^passwd:.*/passwd: files stackclean [NOTFOUND=continue] stackdep stackasm/' \
	    >"$p/etc/nsswitch.conf"
	cp "$B/STACKTEST-CLEAN.so" "$B/STACKTEST-ASM.so" "$p$LIB/gconv/"
	for k in CLEAN ASM; do
		printf 'module STACKTEST-%s// INTERNAL STACKTEST-%s 1\nmodule INTERNAL STACKTEST-%s// STACKTEST-%s 1\n' \
		    $k $k $k $k
	done >"$p$LIB/gconv/gconv-modules.d/stacktest.conf"
	for f in pamhost pamhost-rpath nsshost iconvhost dlnotehost; do
		cp "$B/$f" "$p/usr/local/bin/"
	done
	cp "$B/pamhost" "$p/usr/local/bin/pamhost-setuid"
	chmod 4755 "$p/usr/local/bin/pamhost-setuid"
	root_put_tree "$1" "$p"
	root_ldconfig "$1"
	root_run "$1" -- python3 -m venv --without-pip /opt/venv &&
	    root_put "$1" "$B/stacktest_venv.abi3.so" \
	    "/opt/venv/lib/python$2/site-packages/stacktest_venv.abi3.so" ||
	    { echo "ERROR: cannot make a venv in $1"; exit 99; }
	root_run "$1" -- iconvconfig ||
	    { echo "ERROR: iconvconfig failed in $1"; exit 99; }
}

# What the python3 host prints: the module's answer or the import's error,
# then the main stack.
pyhost='import sys
try:
    m = __import__(sys.argv[1])
    print("answer:", m.answer())
except ImportError as e:
    print("import:", type(e).__name__ + ":", e)
for line in open("/proc/self/maps"):
    if "[stack]" in line:
        print("stack:", line.split()[1])'

# What the node host prints: the same, the error require() threw.
nodehost='try {
    require(process.argv[1]);
    console.log("answer: loaded");
} catch (e) {
    console.log("require:", e.code + ":", e.message);
}
for (const line of require("fs").readFileSync("/proc/self/maps", "utf8").split("\n"))
    if (line.includes("[stack]"))
        console.log("stack:", line.split(/ +/)[1]);'

# outcome VIEW TUNABLES CMD...: what glibc did with the plugin the host
# CMD loads: refused (the host says so its way), exec (loaded, the stack
# executable after), clean (loaded, not), absent (the host found no such
# module), or other.
outcome() {
	v=$1 tun=$2
	shift 2
	out=$(root_run "$v" ${tun:+GLIBC_TUNABLES=$tun} -- "$@" 2>&1)
	st=$?
	echo "$v ${tun:-unset} $*: exit $st; $(echo "$out" | tr '\n' ';')" >>"$T/truth"
	case $st:$out in
	*"ModuleNotFoundError"*) echo absent ;;
	*"ImportError"*"executable stack"* | 1:*"Module is unknown"* | \
	    0:*"require: ERR_DLOPEN_FAILED:"*"executable stack"* | \
	    1:*"getpwnam: not found"* | 1:*"iconv_open: Invalid argument"* | \
	    1:*"dlopen: "*"executable stack"*) echo refused ;;
	0:*"stack: rwxp"*) echo exec ;;
	0:*"stack: rw-p"*) echo clean ;;
	*) echo "other ($st: $(echo "$out" | tr '\n' ' '))" ;;
	esac
}

# predict JSON SUBJECT HOST: what elfscan said of the pair (HOST "" for a
# verdict naming no program): refused, exec, or, when it said nothing of
# the pair, exec where it said the tunable makes every stack executable,
# else clean; "none" for a verdict of another kind. With PLUGIN=only, the
# pair's own verdicts alone ("" for none). A setuid host run by another
# user ignores GLIBC_TUNABLES (elfscan(1)): the tunable's verdict is not
# its.
predict() {
	python3 - "$@" <<'PY'
import json, os, sys
path, subject, host = sys.argv[1:]
said, everything = set(), set()
for line in open(path):
    r = json.loads(line)
    if "verdict" not in r:
        continue
    if r["verdict"] == "tunable-exec-stack":
        everything.add("exec")
    if r["subject"] != subject:
        continue
    hosts = [h["path"] for h in r["hosts"]]
    if (host == "" and hosts == []) or host in hosts:
        said.add({"plugin-refused": "refused",
                  "plugin-exec-stack": "exec"}.get(r["verdict"], "none"))
if host.endswith("-setuid"):
    everything = set()
if os.environ.get("PLUGIN") != "only":
    said = said or everything or {"clean"}
print(" ".join(sorted(said)))
PY
}

# check VIEW TUNABLES SUBJECT HOST CMD...: elfscan's word on the pair
# (SUBJECT, HOST) is what glibc did when CMD ran.
check() {
	v=$1 tun=$2 subject=$3 host=$4
	shift 4
	got=$(outcome "$v" "$tun" "$@")
	want=$(predict "$T/$v.json" "$subject" "$host")
	echo "truth: $v ${tun:-unset} ${subject##*/} ${host:-(no host)}: glibc=$got elfscan=$want"
	expect "$v ${tun:-unset}: ${subject##*/} in ${host:-every host}: elfscan says what glibc did" \
	    "$want" "$got"
}

# Runs argv[1:] as user nobody: a setuid-root program run so gets
# AT_SECURE, under which glibc ignores GLIBC_TUNABLES.
as_nobody='import os, sys
os.setgid(65534)
os.setuid(65534)
os.execv(sys.argv[1], sys.argv[1:])'

for suite in bookworm trixie forky; do
	for tun in none 0 1 2; do
		v=$suite-$tun
		root_new "$v" "$suite"
		pyver=$(root_run "$v" -- python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])')
		place "$v" "$pyver"
		t=
		if [ "$tun" != none ]; then
			t=glibc.rtld.execstack=$tun
			printf 'GLIBC_TUNABLES="%s"\n' "$t" >"$T/env"
			root_put "$v" "$T/env" /etc/environment
		fi
		root_host "$v" "$ELFSCAN" --system --format=json --no-progress \
		    "$(root_dir "$v")" >"$T/$v.json" 2>"$T/$v.err"
		st=$?
		expect "$v: elfscan judges the root (status 1: verdicts, a malformed note)" "$st" 1
		expect "$v: the notes that are not JSON: one line, said" \
		    "$(grep -c 'libdlnote-bad.so.1.*\.note\.dlopen: not a JSON array' "$T/$v.json")" 1

		py=/usr/bin/python$pyver
		for m in clean asm dep; do
			check "$v" "$t" "$DIST/stacktest_$m.abi3.so" "$py" \
			    python3 -c "$pyhost" stacktest_$m
		done
		check "$v" "$t" "/usr/lib/python$pyver/lib-dynload/stacktest_dyn.cpython-$(echo "$pyver" | tr -d .)-$MA.so" \
		    "$py" python3 -c "$pyhost" stacktest_dyn
		check "$v" "$t" "/opt/venv/lib/python$pyver/site-packages/stacktest_venv.abi3.so" \
		    "$py" /opt/venv/bin/python -c "$pyhost" stacktest_venv
		expect "$v: no python3.0 here: no verdict for its module, python3 finds none" \
		    "$(PLUGIN=only predict "$T/$v.json" "$DIST/stacktest_other.cpython-30-$MA.so" "$py")/$(outcome "$v" "$t" python3 -c "$pyhost" stacktest_other)" \
		    "/absent"
		for k in clean asm dep alt; do
			for h in pamhost pamhost-rpath; do
				check "$v" "$t" "$LIB/security/pam_stacktest_$k.so" \
				    "/usr/local/bin/$h" "$h" stacktest-$k
			done
		done
		for k in clean asm; do
			check "$v" "$t" "$LIB/security/pam_stacktest_$k.so" \
			    /usr/local/bin/pamhost-setuid python3 -c "$as_nobody" \
			    /usr/local/bin/pamhost-setuid stacktest-$k
		done
		for k in clean asm dep; do
			check "$v" "$t" "$LIB/libnss_stack$k.so.2" "" nsshost stack$k
		done
		check "$v" "$t" "$LIB/libnss_files.so.2" "" nsshost root
		for k in CLEAN ASM; do
			check "$v" "$t" "$LIB/gconv/STACKTEST-$k.so" "" iconvhost STACKTEST-$k
		done
		for k in clean asm dep; do
			check "$v" "$t" "$NODE/stacktest_$k.node" /usr/bin/node \
			    node -e "$nodehost" "$NODE/stacktest_$k.node"
		done
		for k in asm clean; do
			check "$v" "$t" "/usr/local/lib/dlnote/libdlnote-$k.so.1" \
			    /usr/local/lib/libdlnote.so.1 dlnotehost libdlnote-$k.so.1
		done
	done
done
finish
