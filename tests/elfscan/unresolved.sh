#!/bin/sh
# Only true unresolved-library verdicts (issue 33), in small roots whose
# programs are started for real with chroot, glibc's ld.so the oracle:
# (a) the dynamic linker only in /lib64: libc's need of its soname is met
#     by PT_INTERP, /usr/bin/true runs, elfscan says nothing is missing;
# (b) a launcher that dlopens its runtime by absolute path, then a plugin
#     in lib/ that NEEDs the runtime's soname (a JDK's java, libjvm.so and
#     libjava.so): it runs, elfscan makes no unresolved claim;
# (c) a program that really lacks a library: chroot says 'cannot open
#     shared object file', elfscan reports it, naming the program once.
. "$top_srcdir/tests/lib.sh"
need gcc chroot

[ "$(id -u)" = 0 ] || skip "chroot needs root"
ld=/lib64/ld-linux-x86-64.so.2
libc=$(gcc -print-file-name=libc.so.6)
libc=$(readlink -f "$libc")
[ -f "$ld" ] && [ -f "$libc" ] || skip "no x86-64 glibc here"

# A root of the dynamic linker in /lib64 and libc.so.6 in /lib.
mkroot() {
	mkdir -p "$1/lib64" "$1/lib" "$1/usr/bin"
	cp "$(readlink -f $ld)" "$1/lib64/ld-linux-x86-64.so.2"
	cp "$libc" "$1/lib/libc.so.6"
}
scan() { "$ELFSCAN" --system "$1" --no-progress 2>&1; }

# (a)
mkroot "$T/a"
printf 'int main(void){return 0;}\n' > "$T/true.c"
gcc -o "$T/a/usr/bin/true" "$T/true.c"
expect "(a) /usr/bin/true runs in the root" "$(chroot "$T/a" /usr/bin/true; echo $?)" 0
out=$(scan "$T/a")
echo "$out" | grep -q unresolved-library &&
	fail "(a) elfscan claims a library is unresolved: $out" ||
	pass "(a) no unresolved claim with ld.so only in /lib64"

# (b)
mkroot "$T/b"
j=/usr/lib/jvm/fix
mkdir -p "$T/b$j/bin" "$T/b$j/lib/server"
printf 'int rt_answer(void){return 42;}\n' > "$T/rt.c"
gcc -shared -fPIC -Wl,-soname,librt0.so -o "$T/b$j/lib/server/librt0.so" "$T/rt.c"
printf 'int rt_answer(void); int plug(void){return rt_answer();}\n' > "$T/plug.c"
gcc -shared -fPIC -Wl,--no-as-needed -o "$T/b$j/lib/libplug.so" "$T/plug.c" \
	-L"$T/b$j/lib/server" -lrt0
cat > "$T/launch.c" <<'CEOF'
#include <dlfcn.h>
#include <stdio.h>
int
main(void)
{
	void *rt = dlopen("/usr/lib/jvm/fix/lib/server/librt0.so", RTLD_NOW | RTLD_GLOBAL);
	void *pl = rt ? dlopen("/usr/lib/jvm/fix/lib/libplug.so", RTLD_NOW) : NULL;
	int (*f)(void) = pl ? (int (*)(void))dlsym(pl, "plug") : NULL;

	if (f == NULL) {
		fprintf(stderr, "launch: %s\n", dlerror());
		return 1;
	}
	printf("%d\n", f());
	return 0;
}
CEOF
gcc -o "$T/b$j/bin/java" "$T/launch.c"
readelf -d "$T/b$j/lib/libplug.so" | grep -q 'NEEDED.*\[librt0.so\]' &&
	pass "(b) readelf: the plugin NEEDs librt0.so" ||
	fail "(b) readelf: the plugin does not NEED librt0.so"
expect "(b) the launcher runs the plugin" "$(chroot "$T/b" $j/bin/java 2>&1)" 42
out=$(scan "$T/b")
echo "$out" | grep -q unresolved-library &&
	fail "(b) elfscan claims a library is unresolved: $out" ||
	pass "(b) no unresolved claim for a runtime the launcher loads by path"

# (d) A plugin that really lacks a library, directly and through
# libmid.so (a JNI library itself): each named once, as libraries.
gcc -shared -fPIC -Wl,-soname,libnowhere.so -o "$T/libnowhere.so" "$T/rt.c"
gcc -shared -fPIC -Wl,--no-as-needed -o "$T/b$j/lib/libmid.so" "$T/plug.c" \
	"$T/libnowhere.so"
gcc -shared -fPIC -Wl,--no-as-needed -o "$T/b$j/lib/libbad.so" "$T/plug.c" \
	"$T/libnowhere.so" -L"$T/b$j/lib" -lmid
readelf -d "$T/b$j/lib/libbad.so" | grep -q 'NEEDED.*\[libnowhere.so\]' &&
	pass "(d) readelf: the plugin NEEDs libnowhere.so" ||
	fail "(d) readelf: the plugin does not NEED libnowhere.so"
line=$(scan "$T/b" | grep '^unresolved-library *libnowhere.so')
expect "(d) the plugins lacking a library are named once, as libraries" \
	"${line#*looks; }" "2 libraries: $j/lib/libbad.so, $j/lib/libmid.so"

# (c)
mkroot "$T/c"
gcc -shared -fPIC -Wl,-soname,libgone.so.1 -o "$T/libgone.so.1" "$T/rt.c"
printf 'int rt_answer(void); int main(void){return rt_answer() != 42;}\n' > "$T/need.c"
gcc -o "$T/c/usr/bin/needy" "$T/need.c" -Wl,--no-as-needed "$T/libgone.so.1"
err=$(chroot "$T/c" /usr/bin/needy 2>&1)
expect_match "(c) the program does not start" "$err" '*cannot open shared object file*'
out=$(scan "$T/c")
line=$(echo "$out" | grep '^unresolved-library *libgone.so.1')
expect_match "(c) elfscan reports the missing library of one program" \
	"$line" '*; 1 program: /usr/bin/needy'

finish
