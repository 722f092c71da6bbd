#!/bin/sh
# check-kernel.sh: build Linux 6.1 with the exec-shield series and boot it
# under qemu, once per level and once switching levels at run time.
#
#   check-kernel.sh check        the whole matrix; exit 1 if a check fails
#   check-kernel.sh bench        exec and mmap latency at levels 0 and 2
#   check-kernel.sh checkpatch   scripts/checkpatch.pl on each patch
#
# make passes the settings in the environment (kernel/local.mk):
#   top_srcdir     the source tree (patches, fragment, test sources)
#   workdir        where the kernel is unpacked and built, the initramfs
#                  assembled and the boot logs kept
#   CHSTK          the chstk that marks the test programs
#   LINUX_TARBALL  Debian's /usr/src/linux-source-6.1.tar.xz
#   KERNEL_SERIES  "none" builds the kernel without the series, to show
#                  which checks the stock kernel fails
#   KERNEL_CACHE   where built kernels are kept, keyed by a checksum of the
#                  series, the fragment, the tarball and the compiler
#                  (default $XDG_CACHE_HOME/chstk/kernel)
#   KERNEL_JOBS    make -j for the kernel (default 2)
#   KERNEL_IMAGE   boot this bzImage instead (an installed kernel, say)
#   ARMOR_LDSCRIPT the ASCII-armor linker script (ld/elf_i386_small.x)
#   CC, QEMU       the compiler for the test programs, the emulator
set -eu

: "${top_srcdir:?}" "${workdir:?}" "${CHSTK:?}"
: "${LINUX_TARBALL:=/usr/src/linux-source-6.1.tar.xz}"
: "${KERNEL_SERIES:=}"
: "${KERNEL_CACHE:=${XDG_CACHE_HOME:-$HOME/.cache}/chstk/kernel}"
: "${KERNEL_JOBS:=2}"
: "${KERNEL_IMAGE:=}"
: "${ARMOR_LDSCRIPT:=$top_srcdir/ld/elf_i386_small.x}"
: "${CC:=gcc}"
: "${QEMU:=qemu-system-x86_64}"
export LC_ALL=C

kdir=$top_srcdir/kernel
fragment=$kdir/exec-shield.config
me=check-kernel

die() {
	echo "$me: $*" >&2
	exit 2
}

series() {
	[ "$KERNEL_SERIES" = none ] && return 0
	for p in "$kdir"/[0-9][0-9][0-9][0-9]-*.patch; do
		[ -f "$p" ] && echo "$p"
	done
}

# The source tree, unpacked afresh and patched; prints its path.
unpack() {
	src=$workdir/linux
	rm -rf "$src" "$workdir/linux.tmp"
	mkdir -p "$workdir/linux.tmp"
	tar -C "$workdir/linux.tmp" -xf "$LINUX_TARBALL" ||
		die "$LINUX_TARBALL: cannot unpack"
	mv "$workdir/linux.tmp"/linux-source-* "$src"
	rmdir "$workdir/linux.tmp"
	for p in $(series); do
		patch -d "$src" -p1 --fuzz=0 --quiet --no-backup-if-mismatch \
			<"$p" >&2 || die "$p: does not apply"
	done
	echo "$src"
}

# The kernel, from the cache or built; prints the bzImage's path.
kernel() {
	if [ -n "$KERNEL_IMAGE" ]; then
		echo "$KERNEL_IMAGE"
		return 0
	fi
	key=$({
		for p in $(series); do cat "$p"; done
		cat "$fragment"
		stat -c '%n %s %Y' "$LINUX_TARBALL"
		$CC --version | head -n 1
		echo "series=$KERNEL_SERIES"
	} | sha256sum | cut -c 1-16)
	image=$KERNEL_CACHE/$key/bzImage
	if [ -f "$image" ]; then
		echo "$me: kernel $key from $KERNEL_CACHE" >&2
		echo "$image"
		return 0
	fi
	log=$workdir/kernel-build.log
	echo "$me: building kernel $key, log in $log (a few minutes)" >&2
	: >"$log"
	src=$(unpack)
	obj=$workdir/obj
	rm -rf "$obj"
	mkdir -p "$obj"
	kmake() {
		make -C "$src" O="$obj" ARCH=x86_64 "$@" >>"$log" 2>&1 ||
			{ tail -n 20 "$log" >&2; die "make $*: failed"; }
	}
	kmake tinyconfig
	"$src/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" \
		"$fragment" >>"$log" 2>&1 || die "merge_config.sh: failed"
	kmake olddefconfig
	sed -n 's/^\(CONFIG_[A-Z0-9_]*\)=y$/\1/p' "$fragment" | while read -r o; do
		grep -qx "$o=y" "$obj/.config" && continue
		[ "$KERNEL_SERIES" = none ] && [ "$o" = CONFIG_EXEC_SHIELD ] &&
			continue
		die "$o=y did not survive olddefconfig"
	done
	kmake -j"$KERNEL_JOBS" bzImage
	mkdir -p "$KERNEL_CACHE/$key"
	cp "$obj/arch/x86/boot/bzImage" "$image.tmp"
	mv "$image.tmp" "$image"
	# The unpacked tree and the objects are 2 GB; the image is enough.
	rm -rf "$src" "$obj"
	echo "$image"
}

# Three copies of a program or library, marked by chstk and checked with
# readelf: NAME-exec, NAME-noexec, NAME-default.
mark3() {
	base=$1 dir=$2 name=$3 ext=${4:-}
	for m in exec noexec default; do
		cp "$base" "$dir/$name-$m$ext"
	done
	"$CHSTK" -e "$dir/$name-exec$ext"
	"$CHSTK" -E "$dir/$name-noexec$ext"
	"$CHSTK" -d "$dir/$name-default$ext"
	"$CHSTK" -D "$dir/$name-default$ext"
	check_mark "$dir/$name-exec$ext" RWE
	check_mark "$dir/$name-noexec$ext" RW
	check_mark "$dir/$name-default$ext" none
}

check_mark() {
	got=$(readelf -lW "$1" | awk '$1 == "GNU_STACK" { print $7 }')
	[ "${got:-none}" = "$2" ] ||
		die "$1: PT_GNU_STACK flags ${got:-none}, want $2"
}

# Copy a dynamic program's interpreter and libraries into the root.
copy_libs() {
	prog=$1 root=$2
	interp=$(readelf -lW "$prog" |
		sed -n 's/.*Requesting program interpreter: \(.*\)]$/\1/p')
	for f in $interp $(ldd "$prog" | awk '$2 == "=>" && $3 ~ /^\// { print $3 }'); do
		mkdir -p "$root$(dirname "$f")"
		cp -L "$f" "$root$f"
	done
}

# The initramfs: /init, the probes in every marking, their libraries.
initramfs() {
	t=$workdir/test root=$workdir/root
	rm -rf "$t" "$root"
	mkdir -p "$t" "$root/bin" "$root/lib" "$root/proc"
	cflags="-O2 -Wall -Wextra -Werror -z noexecstack"
	$CC $cflags -static -o "$root/init" "$kdir/test/init.c"
	$CC $cflags -static -o "$t/s64" "$kdir/test/probe.c"
	$CC $cflags -m32 -static -o "$t/s32" "$kdir/test/probe.c"
	$CC $cflags -DPROBE_DLOPEN -fPIE -pie -o "$t/d64" "$kdir/test/probe.c"
	$CC $cflags -m32 -DPROBE_DLOPEN -fPIE -pie -o "$t/d32" "$kdir/test/probe.c"
	if [ -f "$ARMOR_LDSCRIPT" ]; then
		$CC $cflags -m32 -DPROBE_DLOPEN -fno-pie -no-pie \
			-Wl,-T,"$ARMOR_LDSCRIPT" -o "$t/d32small" "$kdir/test/probe.c"
	else
		echo "$me: $ARMOR_LDSCRIPT missing: no d32small program" >&2
	fi
	for v in s64 s32 d64 d32 d32small; do
		[ -f "$t/$v" ] && mark3 "$t/$v" "$root/bin" "$v"
	done
	for b in 64 32; do
		m=; [ $b = 32 ] && m=-m32
		$CC $cflags $m -shared -fPIC -o "$t/xstack$b" "$kdir/test/xstack.c"
		mark3 "$t/xstack$b" "$root/lib" "xstack$b" .so
		copy_libs "$t/d$b" "$root"
	done
	(cd "$root" && find . | sort | cpio -o -H newc -R 0:0 --quiet) \
		>"$workdir/initramfs.cpio"
	echo "$workdir/initramfs.cpio"
}

# Boot once; the serial console goes to $workdir/NAME.log.
boot() {
	name=$1
	shift
	echo "$me: boot $name: $*" >&2
	timeout 1200 "$QEMU" -m 512M -nographic -no-reboot -net none \
		-kernel "$image" \
		-initrd "$cpio" -append "console=ttyS0 panic=-1 quiet $*" \
		</dev/null >"$workdir/$name.log" 2>&1 || true
	tr -d '\r' <"$workdir/$name.log" >"$workdir/$name.txt"
	if ! grep -q '^DONE ' "$workdir/$name.txt"; then
		echo "RESULT $name FAIL $name - $name finished DONE missing" \
			>>"$workdir/results"
	fi
	sed -n "s/^RESULT /RESULT $name /p" "$workdir/$name.txt" \
		>>"$workdir/results"
}

check() {
	image=$(kernel)
	cpio=$(initramfs)
	: >"$workdir/results"
	for level in 0 1 2 3; do
		boot "L$level" "exec-shield=$level chstk.test=boot"
	done
	boot L7 "exec-shield=7 chstk.test=boot"
	boot switch "chstk.test=switch"
	grep '^PICTURE ' "$workdir/L2.txt" | cut -c 9- >"$workdir/picture.txt" || true
	awk -f "$kdir/matrix.awk" "$workdir/results"
}

# Twice: as configured, and without address randomization, which under
# qemu's emulation costs more than anything it measures (see README.md).
bench() {
	image=$(kernel)
	cpio=$(initramfs)
	boot bench "chstk.test=bench"
	boot bench-norandmaps "chstk.test=bench norandmaps"
	for b in bench bench-norandmaps; do
		grep '^BENCH ' "$workdir/$b.txt" | sed "s/^/$b: /" ||
			die "$b: the benchmark did not finish"
	done
}

checkpatch() {
	KERNEL_SERIES=
	src=$(unpack)
	status=0
	for p in $(series); do
		out=$(cd "$src" && ./scripts/checkpatch.pl "$p" 2>&1) || {
			echo "$out"
			status=1
		}
		echo "$(basename "$p"): $(echo "$out" | grep '^total:')"
	done
	rm -rf "$src"
	return $status
}

mkdir -p "$workdir"
case ${1:-} in
check) check ;;
bench) bench ;;
checkpatch) checkpatch ;;
*) sed -n '4,6s/^# \{0,1\}//p' "$0" >&2; exit 2 ;;
esac
