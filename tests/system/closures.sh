#!/bin/sh
# The verdicts of a root on its programs (elfscan --system), against what
# a real glibc does with them in that root. In Debian roots of three glibc
# (bookworm 2.36, which refuses nothing; trixie 2.41 and forky 2.43, which
# refuse and know glibc.rtld.execstack=2), under each value of the tunable
# set in /etc/environment (none, 0, 2), programs built here are placed as a
# system holds them: linked against a library whose assembly asks for an
# executable stack directly, through a clean library, through an RPATH
# (inherited by what the program loads) and a RUNPATH (not inherited), with
# $ORIGIN, against a library found nowhere, clean, and marked exec. elfscan
# judges the root from its files; then each program is run in the root with
# the same GLIBC_TUNABLES, and what glibc did (refused at start-up, a
# library not found, an executable stack, a clean one) must be what
# elfscan said, program by program. And ld.so's own --list of each program
# must name the libraries elfscan's closure loaded.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/system/roots.sh"
need gcc readelf python3 debootstrap unshare chroot flock mount
: "${ELFSCAN:?}"
[ "$(id -u)" = 0 ] ||
    { echo "ERROR: the glibc roots need root (debootstrap, mount, chroot)"; exit 99; }

B=$T/build
mkdir -p "$B"
cc() { gcc -Wall -O1 -I"$FIX" "$@" 2>>"$B/build.log"; }
cc -c -o "$B/asm.o" "$FIX/system/asm-answer.S" &&
    fixture_lib libxs.so.1 libxs.so.1 "$B/asm.o" &&
    fixture_lib libmid.so.1 libmid.so.1 -L"$B" -l:libxs.so.1 &&
    fixture_lib libshadow.so.1 libshadow.so.1 &&
    mkdir -p "$B/rp" && fixture_lib rp/libshadow.so.1 libshadow.so.1 "$B/asm.o" &&
    fixture_lib libmid2.so.1 libmid2.so.1 -L"$B" -l:libshadow.so.1 &&
    fixture_lib libappxs.so libappxs.so "$B/asm.o" &&
    fixture_prog needs-xs -L"$B" -l:libxs.so.1 &&
    fixture_prog via-mid -L"$B" -l:libmid.so.1 &&
    fixture_prog rpath-inherit -L"$B" -l:libmid2.so.1 -Wl,--disable-new-dtags \
	-Wl,-rpath,/opt/rp &&
    fixture_prog runpath-no-inherit -L"$B" -l:libmid2.so.1 -Wl,--enable-new-dtags \
	-Wl,-rpath,/opt/rp &&
    fixture_prog app -L"$B" -l:libappxs.so -Wl,--enable-new-dtags \
	-Wl,-rpath,'$ORIGIN/../lib' &&
    fixture_prog app-broken -L"$B" -l:libappxs.so -Wl,--enable-new-dtags \
	-Wl,-rpath,'$ORIGIN/../nolib' &&
    fixture_prog clean &&
    fixture_prog self-exec -z execstack ||
    { cat "$B/build.log"; fail "build the fixtures"; finish; }
pass "the fixtures build"
expect "libxs.so.1 asks for an executable stack" "$(readelf_stack "$B/libxs.so.1")" RWE
expect "libmid.so.1 does not" "$(readelf_stack "$B/libmid.so.1")" RW
expect "libmid.so.1 needs libxs.so.1" \
    "$(readelf -dW "$B/libmid.so.1" | grep -c 'NEEDED.*\[libxs.so.1\]')" 1
expect "libmid2.so.1 needs libshadow.so.1" \
    "$(readelf -dW "$B/libmid2.so.1" | grep -c 'NEEDED.*\[libshadow.so.1\]')" 1
expect "rpath-inherit has a DT_RPATH" \
    "$(readelf -dW "$B/rpath-inherit" | grep -c '(RPATH)')" 1
expect "runpath-no-inherit has a DT_RUNPATH" \
    "$(readelf -dW "$B/runpath-no-inherit" | grep -c '(RUNPATH)')" 1

progs="/usr/local/bin/needs-xs /usr/local/bin/via-mid /usr/local/bin/rpath-inherit
/usr/local/bin/runpath-no-inherit /opt/app/bin/app /opt/app/bin/app-broken
/usr/local/bin/clean /usr/local/bin/self-exec"

# place VIEW: the fixtures where a system keeps them, the cache redone.
place() {
	p=$T/place-$1
	mkdir -p "$p/usr/local/lib" "$p/usr/local/bin" "$p/opt/rp" "$p/opt/app/bin" \
	    "$p/opt/app/lib"
	for f in libxs.so.1 libmid.so.1 libshadow.so.1 libmid2.so.1; do
		cp "$B/$f" "$p/usr/local/lib/"
	done
	cp "$B/rp/libshadow.so.1" "$p/opt/rp/"
	cp "$B/libappxs.so" "$p/opt/app/lib/"
	for f in $progs; do
		cp "$B/${f##*/}" "$p$f"
	done
	root_put_tree "$1" "$p"
	root_ldconfig "$1"
}

# What glibc did to a program in the view: refused, unresolved, exec, clean.
outcome() {
	out=$(root_run "$1" ${2:+GLIBC_TUNABLES=$2} -- "$3" 2>&1)
	st=$?
	case $st:$out in
	127:*"executable stack"*) echo refused ;;
	127:*"cannot open shared object"*) echo unresolved ;;
	0:*"stack: rwxp"*) echo exec ;;
	0:*"stack: rw-p"*) echo clean ;;
	*) echo "other ($st: $(echo "$out" | tr '\n' ' '))" ;;
	esac
}

# What elfscan's JSON said of each program: the same four words.
predict() {
	python3 - "$1" "$2" $progs <<'PY'
import json, sys
root = sys.argv[2]
verdicts, stack = {}, {}
for line in open(sys.argv[1]):
    r = json.loads(line)
    if "verdict" in r:
        for h in r["hosts"]:
            verdicts.setdefault(h["path"], set()).add(r["verdict"])
        if r["verdict"] == "tunable-exec-stack":
            verdicts.setdefault("*", set()).add(r["verdict"])
    elif "path" in r and "member" not in r:
        stack[r["path"][len(root):]] = r.get("stack")
for p in sys.argv[3:]:
    v = verdicts.get(p, set()) | verdicts.get("*", set())
    if "startup-refused" in v:
        print(p, "refused")
    elif "unresolved-library" in v:
        print(p, "unresolved")
    elif v & {"stack-made-exec", "tunable-exec-stack"} or stack.get(p) == "exec":
        print(p, "exec")
    else:
        print(p, "clean")
PY
}

for suite in bookworm trixie forky; do
	for tun in none 0 2; do
		v=$suite-$tun
		root_new "$v" "$suite"
		place "$v"
		t=
		if [ "$tun" != none ]; then
			t=glibc.rtld.execstack=$tun
			printf 'GLIBC_TUNABLES="%s"\n' "$t" >"$T/env"
			root_put "$v" "$T/env" /etc/environment
		fi
		root_host "$v" "$ELFSCAN" --system --format=json --no-progress \
		    "$(root_dir "$v")" >"$T/$v.json" 2>"$T/$v.err"
		st=$?
		expect "$v: elfscan judges the root (status 0 or 1)" \
		    "$(test $st -le 1 && echo yes || { cat "$T/$v.err"; echo "status $st"; })" yes
		predict "$T/$v.json" "$(root_dir "$v")" >"$T/$v.predicted"
		for p in $progs; do
			got=$(outcome "$v" "$t" "$p")
			want=$(awk -v p="$p" '$1 == p { print $2 }' "$T/$v.predicted")
			echo "truth: $v $p glibc=$got elfscan=$want"
			expect "$v: $p: elfscan's verdict is what glibc did" "$want" "$got"
		done
	done
done

# The closures themselves, against ld.so --list in the root: every library
# ld.so maps is one elfscan judged (its verdict names it, or it is clean).
v=trixie-none
for p in /usr/local/bin/via-mid /usr/local/bin/rpath-inherit \
    /usr/local/bin/runpath-no-inherit /opt/app/bin/app; do
	root_run "$v" -- /lib64/ld-linux-x86-64.so.2 --list "$p" >"$T/list" 2>&1
	grep -q 'libshadow.so.1 => /opt/rp/' "$T/list" && shadow=rp || shadow=cache
	case $p in
	*rpath-inherit) expect "ld.so: $p takes libshadow.so.1 from the RPATH" "$shadow" rp ;;
	*runpath-no-inherit) expect "ld.so: $p takes libshadow.so.1 from the cache" "$shadow" cache ;;
	esac
	expect "ld.so: $p resolves everything" "$(grep -c 'not found' "$T/list")" 0
done
finish
