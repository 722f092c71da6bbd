#!/bin/sh
# build.sh HOST SRCDIR BUILDDIR CACHE: configure and build chstk for a
# foreign host in BUILDDIR (a VPATH build of the unconfigured SRCDIR):
#   s390x  big-endian, 64-bit: clang --target=s390x-linux-gnu, linked by
#          binutils-s390x-linux-gnu's ld against the C library and libgcc
#          of libc6-dev-s390x-cross and libgcc-12-dev-s390x-cross (in
#          /usr/s390x-linux-gnu and /usr/lib/gcc-cross), the other
#          libraries from a sysroot of the main suite's .debs (sysroot.sh),
#          kept in CACHE
#   i386   little-endian, 32-bit: gcc -m32 against gcc-multilib's C
#          library (/usr/lib32), the other libraries from a sysroot of the
#          main suite's i386 .debs (sysroot.sh), kept in CACHE: not the
#          :i386 packages of multiarch, which must have the amd64 ones'
#          versions, and the mirror's security suite may update an amd64
#          library without its i386 twin
# Then writes BUILDDIR/run, which runs one of its programs on this machine
# (under qemu-user for s390x) with the libraries it was built against.
set -eu
host=$1 src=$(cd "$2" && pwd) b=$3 cache=$4
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$b"
b=$(cd "$b" && pwd)

case $host in
s390x)
	t=s390x-linux-gnu sr=$cache/sysroot-s390x
	sh "$here/sysroot.sh" s390x "$sr"
	libs=$sr/usr/lib/$t:$sr/lib/$t
	# Not gcc-s390x-linux-gnu: Debian 12's conflicts with gcc-multilib,
	# which the i386 host and the suite need. clang finds the startup
	# files and libgcc where libgcc-12-dev-s390x-cross puts them, and
	# calls s390x-linux-gnu-ld. Without -nostdlibinc it would also search
	# this machine's /usr/include after the s390x C library's headers.
	set -- --host=$t \
	    CC="clang --target=$t -nostdlibinc -idirafter /usr/$t/include" \
	    CPPFLAGS="-I$sr/usr/include -I$sr/usr/include/$t" \
	    LDFLAGS="-L$sr/usr/lib/$t -L$sr/lib/$t -Wl,-rpath-link,$sr/usr/lib/$t:$sr/lib/$t" \
	    PKG_CONFIG_LIBDIR="$sr/usr/lib/$t/pkgconfig:$sr/usr/share/pkgconfig" \
	    PKG_CONFIG_SYSROOT_DIR="$sr" PKG_CONFIG=pkg-config
	runner="qemu-s390x -L /usr/$t -E LD_LIBRARY_PATH=$b/lib/.libs:$libs" ;;
i386)
	t=i386-linux-gnu sr=$cache/sysroot-i386
	sh "$here/sysroot.sh" i386 "$sr"
	libs=$sr/usr/lib/$t:$sr/lib/$t
	set -- --host=i686-linux-gnu CC="gcc -m32" \
	    CPPFLAGS="-I$sr/usr/include -I$sr/usr/include/$t" \
	    LDFLAGS="-L$sr/usr/lib/$t -L$sr/lib/$t -Wl,-rpath-link,$sr/usr/lib/$t:$sr/lib/$t" \
	    PKG_CONFIG_LIBDIR="$sr/usr/lib/$t/pkgconfig:$sr/usr/share/pkgconfig" \
	    PKG_CONFIG_SYSROOT_DIR="$sr" PKG_CONFIG=pkg-config
	# Natively where the kernel runs i386 programs (IA32_EMULATION);
	# under qemu-user where it does not, as on some virtual machines.
	mkdir -p "$b"
	printf 'int main(void) { return 0; }\n' >"$b/probe.c"
	gcc -m32 -static -o "$b/probe" "$b/probe.c"
	if "$b/probe" 2>/dev/null; then
		runner="env LD_LIBRARY_PATH=$b/lib/.libs:$libs"
	else
		echo "build.sh: this kernel cannot run i386 programs: under qemu-i386"
		runner="qemu-i386 -E LD_LIBRARY_PATH=$b/lib/.libs:$libs"
	fi ;;
*)
	echo "build.sh: $host: unknown host (s390x or i386)" >&2
	exit 2 ;;
esac

cd "$b"
# Configured before with other arguments (another compiler): start afresh.
args=$(printf '%s\n' "$@")
if [ -f config.status ] && [ "$(cat configure.args 2>/dev/null)" != "$args" ]; then
	cd / && rm -rf "$b" && mkdir -p "$b" && cd "$b"
fi
[ -f config.status ] || { "$src/configure" "$@" >configure.out &&
    printf '%s\n' "$args" >configure.args; } ||
    { cat configure.out config.log >&2; exit 1; }
make -j"${HOSTS_JOBS:-2}" >make.out 2>&1 || { cat make.out >&2; exit 1; }
cat >run <<RUN
#!/bin/sh
# run PROG ARG...: PROG (chstk, elfscan or a unit test) built for $host.
p=\$1
shift
case \$p in
chstk|elfscan) p=$b/src/\$p/.libs/\$p ;;
esac
exec $runner "\$p" "\$@"
RUN
chmod +x run
