#!/bin/sh
# Real glibc as the oracle for what a system does with an executable-stack
# request: Debian 12 (bookworm, glibc 2.36), 13 (trixie, 2.41) and testing
# (forky, 2.42 or later) roots made by debootstrap (tests/system/roots.sh),
# and hosts and plugins built here from tests/fixtures/system/: libraries
# whose request comes from an assembly file without .note.GNU-stack or from
# -z execstack, or that make none; the dlopen host, programs that need such
# a library or make the request themselves, a python3 extension module, a
# PAM module with a PAM application, an NSS module with getent and getpwnam,
# and the dlopen host installed setuid root and run by nobody (AT_SECURE,
# under which glibc may ignore GLIBC_TUNABLES).
# Each host runs in each root under each glibc.rtld.execstack value (unset,
# 0, 1, 2), and what glibc did is logged as "truth:" lines: the exit status,
# what the host printed (the dlerror or ld.so message, the main stack's
# permissions from /proc/self/maps).
#
# It checks only the setup, not what glibc decides (elfscan's predictions
# will be judged against these runs): each root's C library is the release
# expected, by dpkg's records, by ldd --version and by confstr in the
# running process alike; each fixture carries the marking it was built for,
# by readelf; the hosts, built against this machine's glibc 2.36, run in
# every root, and every plugin and library that asks for nothing loads in
# every root under every value; every host that got as far reads its stack
# from /proc; nothing a view does reaches the cached root, and a root that
# cannot be built is an error that leaves nothing behind.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/system/roots.sh"
need gcc readelf python3-config debootstrap unshare chroot flock mount
[ "$(id -u)" = 0 ] ||
    { echo "ERROR: the glibc roots need root (debootstrap, mount, chroot)"; exit 99; }

SYS=$FIX/system
B=$T/build
MA=$(gcc -print-multiarch)
LIB=/usr/lib/$MA
mkdir -p "$B"

# The fixtures. Each library and plugin in two or three kinds: clean (asks
# for nothing), asm (linked with an assembly file without .note.GNU-stack,
# as the real breakages were) and, for the plain library, zexec (-z
# execstack). The missing note is the point: the linker is told not to
# warn of it.
cc() { gcc -Wall -O1 -I"$FIX" "$@" 2>>"$B/build.log"; }
built=0
cc -c -o "$B/asm.o" "$SYS/asm-answer.S" &&
    cc -shared -fPIC -o "$B/libstacktest-clean.so" "$FIX/lib.c" &&
    cc -shared -fPIC -Wl,--no-warn-execstack -o "$B/libstacktest-asm.so" \
	"$FIX/lib.c" "$B/asm.o" &&
    cc -shared -fPIC -z execstack -o "$B/libstacktest-zexec.so" "$FIX/lib.c" &&
    cc -o "$B/dl" "$FIX/dlopen.c" -ldl &&
    cc -o "$B/prog" "$FIX/hello.c" &&
    cc -z execstack -o "$B/prog-exec" "$FIX/hello.c" &&
    cc -o "$B/pamhost" "$SYS/pamhost.c" -lpam &&
    cc -o "$B/nsshost" "$SYS/nsshost.c" && built=1
for k in clean asm zexec; do
	[ $built = 1 ] || break
	cc -o "$B/linked-$k" "$FIX/hello.c" -L"$B" -Wl,--no-as-needed \
	    -Wl,--no-warn-execstack -l:libstacktest-$k.so || built=0
done
for k in clean asm; do
	[ $built = 1 ] || break
	asm=
	[ $k = asm ] && asm=$B/asm.o
	# shellcheck disable=SC2046,SC2086
	cc -shared -fPIC -Wl,--no-warn-execstack $(python3-config --includes) \
	    -DMODULE=stacktest_$k -o "$B/stacktest_$k.abi3.so" "$SYS/pymod.c" $asm &&
	    cc -shared -fPIC -Wl,--no-warn-execstack -o "$B/pam_stacktest_$k.so" \
		"$SYS/pam_stacktest.c" $asm &&
	    cc -shared -fPIC -Wl,--no-warn-execstack -DSERVICE=stack$k \
		-Wl,-soname,libnss_stack$k.so.2 -o "$B/libnss_stack$k.so.2" \
		"$SYS/nss_stacktest.c" $asm || built=0
done
[ $built = 1 ] || { cat "$B/build.log"; fail "build the fixtures"; finish; }
pass "the fixtures build"

# The marking each fixture was built for, by readelf.
expect "the assembly object has no .note.GNU-stack" "$(readelf_note "$B/asm.o")" none
for f in libstacktest-asm.so libstacktest-zexec.so prog-exec stacktest_asm.abi3.so \
    pam_stacktest_asm.so libnss_stackasm.so.2; do
	expect "$f asks for an executable stack" "$(readelf_stack "$B/$f")" RWE
done
for f in libstacktest-clean.so prog dl pamhost nsshost linked-clean linked-asm \
    linked-zexec stacktest_clean.abi3.so pam_stacktest_clean.so libnss_stackclean.so.2; do
	expect "$f asks for no executable stack" "$(readelf_stack "$B/$f")" RW
done
for k in clean asm zexec; do
	expect "linked-$k needs libstacktest-$k.so" \
	    "$(readelf -dW "$B/linked-$k" | grep -c "NEEDED.*\[libstacktest-$k.so\]")" 1
done

# major.minor of a glibc version (2.41-7 -> 2.41, "glibc 2.43" -> 2.43)
major_minor() { sed -n 's/^[^0-9]*\([0-9]*\.[0-9]*\).*/\1/p'; }

# The cached roots, unchanged by anything below: each file's type, mode,
# size and times.
fingerprint() {
	(cd "$1" && find . -printf '%p %y %m %s %T@ %C@\n' | sort | md5sum)
}

# place VIEW: the fixtures where a Debian system keeps such files, the
# PAM services and nsswitch.conf naming the modules, ld.so's cache redone.
place() {
	p=$T/place-$1
	mkdir -p "$p$LIB/security" "$p/usr/local/bin" "$p/usr/lib/python3/dist-packages" \
	    "$p/etc/pam.d"
	for f in libstacktest-clean.so libstacktest-asm.so libstacktest-zexec.so \
	    libnss_stackclean.so.2 libnss_stackasm.so.2; do
		cp "$B/$f" "$p$LIB/$f"
	done
	for f in dl prog prog-exec pamhost nsshost linked-clean linked-asm linked-zexec; do
		cp "$B/$f" "$p/usr/local/bin/$f"
	done
	cp "$B/dl" "$p/usr/local/bin/dl-setuid"
	chmod 4755 "$p/usr/local/bin/dl-setuid"
	for k in clean asm; do
		cp "$B/stacktest_$k.abi3.so" "$p/usr/lib/python3/dist-packages/"
		cp "$B/pam_stacktest_$k.so" "$p$LIB/security/"
		echo "auth required pam_stacktest_$k.so" >"$p/etc/pam.d/stacktest-$k"
	done
	root_cat "$1" /etc/nsswitch.conf |
	    sed 's/^passwd:.*/passwd: files stackclean stackasm/' >"$p/etc/nsswitch.conf"
	root_put_tree "$1" "$p"
	root_ldconfig "$1"
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

# Runs argv[1:] as user nobody: a setuid-root program run so gets
# AT_SECURE, under which glibc may ignore GLIBC_TUNABLES.
as_nobody='import os, sys
os.setgid(65534)
os.setuid(65534)
os.execv(sys.argv[1], sys.argv[1:])'

# observe VIEW SETTING NAME [VAR=VALUE...] -- COMMAND...: run COMMAND in
# VIEW, log what happened as one truth: line, and leave it in $out and
# $status for the checks.
observe() {
	v=$1 setting=$2 name=$3
	shift 3
	out=$(root_run "$v" "$@" 2>&1)
	status=$?
	echo "truth: $v $setting $name: exit $status; $(echo "${out:-(nothing printed)}" |
	    tr '\n' ';' | sed 's/;$//; s/;/; /g')"
	stack=$(echo "$out" | stack_of)
	case $stack in
	'' | rw-p | rwxp) ;;
	*) fail "$v $setting $name: the stack as /proc shows it: '$stack'" ;;
	esac
}

# The suites, each with the glibc release it must hold: stable releases
# keep theirs; testing only has to be new enough for tunable value 2.
for suite in bookworm:2.36 trixie:2.41 forky:2.42+; do
	v=${suite%%:*} want=${suite#*:}
	root_new "$v" "$v"
	lower=$(root_path "$v")
	before=$(fingerprint "$lower")
	pkg=$(root_run "$v" -- dpkg-query -W -f '${Version}' libc6)
	ldd=$(root_run "$v" -- ldd --version | head -n 1)
	conf=$(root_run "$v" -- getconf GNU_LIBC_VERSION)
	echo "note: $v: libc6 $pkg; ldd: $ldd; confstr: $conf"
	got=$(echo "$pkg" | major_minor)
	expect "$v: ldd --version agrees with dpkg's libc6 $pkg" "$(echo "$ldd" | major_minor)" "$got"
	expect "$v: the running glibc agrees with dpkg's libc6 $pkg" "$(echo "$conf" | major_minor)" "$got"
	case $want in
	*+) expect "$v: glibc $got is ${want%+} or later" \
	    "$(printf '%s\n' "${want%+}" "$got" | sort -V | head -n 1)" "${want%+}" ;;
	*) expect "$v: glibc is $want" "$got" "$want" ;;
	esac
	place "$v"

	for setting in unset 0 1 2; do
		tun=
		[ $setting = unset ] || tun=GLIBC_TUNABLES=glibc.rtld.execstack=$setting
		t="tunable $setting"
		# shellcheck disable=SC2086
		for k in clean asm zexec; do
			observe "$v" "$t" "dlopen libstacktest-$k.so" $tun -- dl "$LIB/libstacktest-$k.so"
			[ $k = clean ] && expect "$v $t: the dlopen host loads the clean library" \
			    "$status $(echo "$out" | grep '^answer')" "0 answer: 42"
			observe "$v" "$t" "linked-$k (DT_NEEDED libstacktest-$k.so)" $tun -- linked-$k
			[ $k = clean ] && expect_match "$v $t: a program needing the clean library runs" \
			    "$status $out" "0 work: *"
		done
		for k in clean asm; do
			observe "$v" "$t" "setuid-root dlopen host, run by nobody (AT_SECURE), libstacktest-$k.so" \
			    $tun -- python3 -c "$as_nobody" /usr/local/bin/dl-setuid "$LIB/libstacktest-$k.so"
			[ $k = clean ] && expect "$v $t: the setuid dlopen host loads the clean library" \
			    "$status $(echo "$out" | grep '^answer')" "0 answer: 42"
		done
		observe "$v" "$t" "prog" $tun -- prog
		expect_match "$v $t: a program asking for nothing runs" "$status $out" "0 work: *"
		observe "$v" "$t" "prog-exec (PT_GNU_STACK RWE)" $tun -- prog-exec
		for k in clean asm; do
			observe "$v" "$t" "python3 import stacktest_$k" $tun -- \
			    python3 -c "$pyhost" stacktest_$k
			[ $k = clean ] && expect "$v $t: python3 imports the clean module" \
			    "$status $(echo "$out" | grep '^answer')" "0 answer: 42"
			observe "$v" "$t" "PAM service stacktest-$k" $tun -- pamhost stacktest-$k
			[ $k = clean ] && expect "$v $t: PAM loads the clean module" \
			    "$status $(echo "$out" | grep '^pam_authenticate')" "0 pam_authenticate: Success"
			observe "$v" "$t" "getpwnam stack$k (NSS)" $tun -- nsshost stack$k
			[ $k = clean ] && expect "$v $t: getpwnam finds the clean module's user" \
			    "$status $(echo "$out" | grep '^getpwnam')" "0 getpwnam: stackclean 4242"
			observe "$v" "$t" "getent passwd stack$k (NSS)" $tun -- getent passwd stack$k
			[ $k = clean ] && expect_match "$v $t: getent finds the clean module's user" \
			    "$status $out" "0 stackclean:x:4242:4242:*"
		done
	done

	# The harness: what a view writes stays in the view, and is there in
	# its next run; a fresh view of the same root does not see it.
	root_run "$v" -- sh -c 'echo leak >/etc/chstk-leak && rm /etc/hostname'
	expect "$v: a view keeps what it wrote" "$(root_cat "$v" /etc/chstk-leak)" leak
	root_new "$v-fresh" "$v"
	expect "$v: a fresh view does not see it" \
	    "$(root_run "$v-fresh" -- sh -c 'cat /etc/chstk-leak; cat /etc/hostname >/dev/null && echo hostname')" hostname
	expect "$v: the cached root is unchanged" "$(fingerprint "$lower")" "$before"
done

# A root that cannot be built is an error, and leaves nothing in the cache.
ROOTS_CACHE=$T/cache
status=0
err=$(root_path chstk-no-such-suite 2>&1 >/dev/null) || status=$?
expect "a suite the mirror lacks: status 99" "$status" 99
expect_match "a suite the mirror lacks: an error" "$err" "*ERROR: debootstrap chstk-no-such-suite*"
expect "a suite the mirror lacks: nothing left in the cache" \
    "$(cd "$ROOTS_CACHE" && find . -mindepth 1 ! -name build.lock)" ""
finish
