#!/bin/sh
# check-i386.sh: build native 32-bit Linux 6.12 with the exec-shield series
# and its code segment limit (kernel/6.12-i386/), and boot it under
# qemu-system-i386: without NX (-cpu pentium3) at levels 2 and 0, and with
# NX (-cpu qemu32,+nx) at level 2, two CPUs each.
#
#   check-i386.sh check   the matrix of kernel/test/cslimit-init.c
#   check-i386.sh bench   pipe round trips and mmap/munmap, NX emulated
#                         (-cpu qemu32,-nx) and NX (-cpu qemu32,+nx)
#
# Settings as for check-kernel.sh: top_srcdir, workdir, CHSTK, KERNEL_CACHE,
# KERNEL_JOBS, KERNEL_IMAGE (boot this bzImage), CC; LINUX_TARBALL_6_12.
set -eu

: "${top_srcdir:?}" "${workdir:?}" "${CHSTK:?}"
: "${LINUX_TARBALL_6_12:=/usr/src/linux-source-6.12.tar.xz}"
: "${KERNEL_CACHE:=${XDG_CACHE_HOME:-$HOME/.cache}/chstk/kernel}"
: "${KERNEL_JOBS:=2}"
: "${KERNEL_IMAGE:=}"
: "${CC:=gcc}"
export LC_ALL=C

kdir=$top_srcdir/kernel
sdir=$kdir/6.12-i386
me=check-i386
w=$workdir/i386

die() {
	echo "$me: $*" >&2
	exit 2
}

kernel() {
	if [ -n "$KERNEL_IMAGE" ]; then
		echo "$KERNEL_IMAGE"
		return 0
	fi
	key=$({
		cat "$sdir"/*.patch "$sdir/i386.config"
		stat -c '%n %s %Y' "$LINUX_TARBALL_6_12"
		$CC --version | head -n 1
	} | sha256sum | cut -c 1-16)
	image=$KERNEL_CACHE/i386-$key/bzImage
	if [ -f "$image" ]; then
		echo "$image"
		return 0
	fi
	log=$w/kernel-build.log
	echo "$me: building kernel i386-$key, log in $log" >&2
	src=$w/linux obj=$w/obj
	rm -rf "$src" "$obj" "$w/linux.tmp"
	mkdir -p "$w/linux.tmp" "$obj"
	tar -C "$w/linux.tmp" -xf "$LINUX_TARBALL_6_12" || die "cannot unpack"
	mv "$w/linux.tmp"/linux-source-* "$src"
	for p in "$sdir"/[0-9][0-9][0-9][0-9]-*.patch; do
		patch -d "$src" -p1 --fuzz=0 --quiet <"$p" >&2 ||
			die "$p: does not apply"
	done
	kmake() {
		make -C "$src" O="$obj" ARCH=i386 "$@" >>"$log" 2>&1 ||
			{ tail -n 20 "$log" >&2; die "make $*: failed"; }
	}
	kmake tinyconfig
	"$src/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" \
		"$sdir/i386.config" >>"$log" 2>&1 || die "merge_config.sh failed"
	kmake olddefconfig
	sed -n 's/^\(CONFIG_[A-Z0-9_]*\)=y$/\1/p' "$sdir/i386.config" |
		while read -r o; do
			grep -qx "$o=y" "$obj/.config" ||
				die "$o=y did not survive olddefconfig"
		done
	kmake -j"$KERNEL_JOBS" bzImage
	mkdir -p "$KERNEL_CACHE/i386-$key"
	cp "$obj/arch/x86/boot/bzImage" "$image.tmp"
	mv "$image.tmp" "$image"
	rm -rf "$src" "$obj"
	echo "$image"
}

# The initramfs: /init (cslimit-init.c), the probe static, static linked
# below 16 MiB and PIE, the trampoline program, each marked exec and noexec.
initramfs() {
	t=$w/test root=$w/root
	rm -rf "$t" "$root"
	mkdir -p "$t" "$root/bin" "$root/proc"
	cf="-O2 -Wall -Wextra -Werror -z noexecstack -m32"
	$CC $cf -static -o "$root/init" "$kdir/test/cslimit-init.c"
	$CC $cf -static -o "$t/cs" "$kdir/test/cslimit.c"
	$CC $cf -static -fno-pie -no-pie \
		-Wl,-T,"$top_srcdir/ld/elf_i386_small.x" -o "$t/cssmall" \
		"$kdir/test/cslimit.c"
	$CC $cf -fPIE -pie -o "$t/cspie" "$kdir/test/cslimit.c"
	$CC $cf -static -Wno-trampolines -o "$t/tramp" "$kdir/test/tramp.c"
	for v in cs cssmall cspie tramp; do
		cp "$t/$v" "$root/bin/$v-exec"
		cp "$t/$v" "$root/bin/$v-noexec"
		"$CHSTK" -e "$root/bin/$v-exec"
		"$CHSTK" -E "$root/bin/$v-noexec"
		for m in exec:RWE noexec:RW; do
			got=$(readelf -lW "$root/bin/$v-${m%:*}" |
				awk '$1 == "GNU_STACK" { print $7 }')
			[ "$got" = "${m#*:}" ] ||
				die "$v-${m%:*}: PT_GNU_STACK $got, want ${m#*:}"
		done
	done
	interp=$(readelf -lW "$t/cspie" |
		sed -n 's/.*Requesting program interpreter: \(.*\)]$/\1/p')
	files=$interp
	for n in $(readelf -dW "$t/cspie" |
		sed -n 's/.*(NEEDED).*\[\(.*\)\]$/\1/p'); do
		for d in /lib/i386-linux-gnu /usr/lib/i386-linux-gnu /lib32 \
			/usr/lib32; do
			[ -f "$d/$n" ] && { files="$files $d/$n"; break; }
		done
	done
	for f in $files; do
		mkdir -p "$root$(dirname "$f")"
		cp -L "$f" "$root$f"
	done
	(cd "$root" && find . | sort | cpio -o -H newc -R 0:0 --quiet) \
		>"$w/initramfs.cpio"
	echo "$w/initramfs.cpio"
}

boot() {
	name=$1 cpu=$2
	shift 2
	echo "$me: boot $name: -cpu $cpu $*" >&2
	timeout 1200 qemu-system-i386 -m 512M -cpu "$cpu" \
		-smp cpus=2,sockets=2,cores=1 -nographic -no-reboot -net none \
		-kernel "$image" -initrd "$cpio" \
		-append "console=ttyS0 panic=-1 quiet $*" \
		</dev/null >"$w/$name.log" 2>&1 || true
	tr -d '\r' <"$w/$name.log" >"$w/$name.txt"
	grep -q '^DONE ' "$w/$name.txt" ||
		echo "RESULT $name FAIL $name - $name finished DONE missing" \
			>>"$w/results"
	sed -n "s/^RESULT /RESULT $name /p" "$w/$name.txt" >>"$w/results"
}

mkdir -p "$w"
case ${1:-} in
check)
	image=$(kernel)
	cpio=$(initramfs)
	: >"$w/results"
	boot i386-nonx pentium3 exec-shield=2 chstk.test=cslimit
	boot i386-nonx-L0 pentium3 exec-shield=0 chstk.test=cslimit
	boot i386-nx qemu32,+nx exec-shield=2 chstk.test=cslimit
	grep '^PICTURE ' "$w/i386-nonx.txt" | cut -c 9- >"$w/picture.txt" || true
	awk -f "$kdir/matrix.awk" "$w/results"
	;;
bench)
	image=$(kernel)
	cpio=$(initramfs)
	boot bench-emulated qemu32,-nx chstk.test=bench
	boot bench-nx qemu32,+nx chstk.test=bench
	grep -h '^BENCH ' "$w/bench-emulated.txt" "$w/bench-nx.txt"
	;;
*) sed -n '2,9s/^# \{0,1\}//p' "$0" >&2; exit 2 ;;
esac
