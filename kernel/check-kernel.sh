#!/bin/sh
# check-kernel.sh: build each kernel of kernel/*/kernel.conf and
# kernel/targets/*/kernel.conf (Linux 6.1 and 6.12 for x86-64, 6.12 for
# native i386 with and without PAE) with its exec-shield series and boot
# it under qemu: an x86-64 kernel once per level and once switching levels
# at run time; an i386 kernel, whose code
# segment limit stands in for NX, on a CPU without NX at levels 2 and 0
# and on one with NX (kernel.conf's cpu_nonx and cpu_nx), and under Bochs,
# which checks the limit on near calls too (bochs_cpu). What it does with
# its argument (check, bench, checkpatch, and image and boot for other
# harnesses such as kernel/mdwe.sh) is the usage at the end.
#
# make passes the settings in the environment (kernel/local.mk):
#   top_srcdir     the source tree (patches, fragment, test sources)
#   workdir        where the kernel is unpacked and built, the initramfs
#                  assembled and the boot logs kept (workdir/VERSION/)
#   CHSTK          the chstk that marks the test programs (check, bench)
#   KERNEL_VERSIONS  the kernels, by directory under kernel/ (default: every
#                  one with a kernel.conf, "6.1 6.12 6.12-i386
#                  6.12-i386-nopae")
#   LINUX_TARBALL  the source instead of kernel.conf's (one version only)
#   KERNEL_SERIES  "none" builds the kernel without the series, to show
#                  which checks the stock kernel fails; a number N, with
#                  only the series' first N patches
#   KERNEL_CACHE   where built kernels are kept, keyed by a checksum of the
#                  series, the fragments, kernel.conf, the tarball and the
#                  compiler (default $XDG_CACHE_HOME/chstk/kernel)
#   KERNEL_JOBS    make -j for the kernel (default 2)
#   KERNEL_IMAGE   boot this image instead (an installed kernel, say; one
#                  version only)
#   ARMOR_LDSCRIPT the ASCII-armor linker script (ld/elf_i386_small.x)
#   CC             the compiler for the test programs
#   QEMU           the emulator and its options instead of kernel.conf's
#   BOCHS          the Bochs that boots kernel.conf's bochs_cpu (default
#                  bochs; "none" leaves that boot out, and the matrix shows
#                  the near calls as notes)
#   ISOLINUX       the directory of isolinux.bin, for Bochs's boot CD
#   SYSLINUX_MODULES  the directory of ldlinux.c32
set -eu

# The usage, on standard error, and exit 2 (0 for -h and --help).
usage() {
	cat >&2 <<-EOF
	usage: check-kernel.sh check        the whole matrix; exit 1 if a check fails
	       check-kernel.sh bench        exec and mmap latency at levels 0 and 2
	       check-kernel.sh checkpatch   scripts/checkpatch.pl on each patch
	       check-kernel.sh image        print the path of the one version's
	                                    kernel, from the cache or built
	       check-kernel.sh boot CPIO NAME [ARG...]
	                                    boot it once with the initramfs CPIO and
	                                    the kernel arguments ARG; print the path
	                                    of the console's text (kernel/mdwe.sh)
	make check-kernel (and bench-kernel, checkpatch-kernel) runs it with the
	settings it needs in the environment: top_srcdir and workdir at least.
	EOF
	exit "${1:-2}"
}
case ${1:-} in
check | bench | checkpatch | image | boot) ;;
-h | --help) usage 0 ;;
*) usage ;;
esac
if [ -z "${top_srcdir:-}" ] || [ -z "${workdir:-}" ]; then
	echo "check-kernel: top_srcdir and workdir: not set (make check-kernel sets them)" >&2
	usage
fi
: "${CHSTK:=}"
: "${KERNEL_VERSIONS:=}"
: "${LINUX_TARBALL:=}"
: "${KERNEL_SERIES:=}"
: "${KERNEL_CACHE:=${XDG_CACHE_HOME:-$HOME/.cache}/chstk/kernel}"
: "${KERNEL_JOBS:=2}"
: "${KERNEL_IMAGE:=}"
: "${ARMOR_LDSCRIPT:=$top_srcdir/ld/elf_i386_small.x}"
: "${CC:=gcc}"
: "${QEMU:=}"
: "${BOCHS:=bochs}"
: "${ISOLINUX:=/usr/lib/ISOLINUX}"
: "${SYSLINUX_MODULES:=/usr/lib/syslinux/modules/bios}"
export LC_ALL=C

kdir=$top_srcdir/kernel
me=check-kernel

die() {
	echo "$me: $*" >&2
	exit 2
}

# Every kernel with a kernel.conf, oldest first: a series' directory has
# the kernel it is for; kernel/targets/ holds the kernels that are no
# series of their own (another build of a series).
all_versions() {
	for c in "$kdir"/*/kernel.conf "$kdir"/targets/*/kernel.conf; do
		[ -f "$c" ] && basename "$(dirname "$c")"
	done | sort -t . -k 1,1n -k 2,2n
}

# Read the kernel.conf of VERSION (kernel/VERSION/ or kernel/targets/
# VERSION/); vdir is where this version's boot logs, results and build go.
load_version() {
	version=$1
	conf=$kdir/$version/kernel.conf
	[ -f "$conf" ] || conf=$kdir/targets/$version/kernel.conf
	[ -f "$conf" ] || die "$version: no such kernel (no kernel/$version/kernel.conf nor kernel/targets/$version/kernel.conf)"
	tarball= arch=x86_64 image=arch/x86/boot/bzImage base_config=tinyconfig
	series=$version fragments=$version/exec-shield.config
	qemu="qemu-system-x86_64 -m 512M" console=ttyS0 cpu_nonx= cpu_nx=
	bochs_cpu=
	. "$conf"
	[ -n "$LINUX_TARBALL" ] && tarball=$LINUX_TARBALL
	[ -n "$QEMU" ] && qemu=$QEMU
	[ -n "$tarball" ] || die "$conf: no tarball"
	vdir=$workdir/$version
	mkdir -p "$vdir"
}

series() {
	[ "$KERNEL_SERIES" = none ] && return 0
	n=0
	for d in $series; do
		for p in "$kdir/$d"/[0-9][0-9][0-9][0-9]-*.patch; do
			[ -f "$p" ] || continue
			n=$((n + 1))
			case $KERNEL_SERIES in
			'' | *[!0-9]*) ;;
			*) [ "$n" -le "$KERNEL_SERIES" ] || return 0 ;;
			esac
			echo "$p"
		done
	done
}

# The source tree, unpacked afresh and patched; prints its path.
unpack() {
	src=$vdir/linux
	rm -rf "$src" "$vdir/linux.tmp"
	mkdir -p "$vdir/linux.tmp"
	tar -C "$vdir/linux.tmp" -xf "$tarball" ||
		die "$tarball: cannot unpack"
	mv "$vdir/linux.tmp"/linux-source-* "$src"
	rmdir "$vdir/linux.tmp"
	for p in $(series); do
		patch -d "$src" -p1 --fuzz=0 --quiet --no-backup-if-mismatch \
			<"$p" >&2 || die "$p: does not apply"
	done
	echo "$src"
}

# The kernel, from the cache or built; prints the image's path.
kernel() {
	if [ -n "$KERNEL_IMAGE" ]; then
		echo "$KERNEL_IMAGE"
		return 0
	fi
	frags=
	for f in $fragments; do frags="$frags $kdir/$f"; done
	key=$({
		for p in $(series); do cat "$p"; done
		cat $frags "$conf"
		stat -c '%n %s %Y' "$tarball"
		$CC --version | head -n 1
		echo "series=$KERNEL_SERIES"
	} | sha256sum | cut -c 1-16)
	cached=$KERNEL_CACHE/$key/$(basename "$image")
	if [ -f "$cached" ]; then
		echo "$me: $version: kernel $key from $KERNEL_CACHE" >&2
		echo "$cached"
		return 0
	fi
	log=$vdir/kernel-build.log
	echo "$me: $version: building kernel $key, log in $log (minutes)" >&2
	: >"$log"
	src=$(unpack)
	obj=$vdir/obj
	rm -rf "$obj"
	mkdir -p "$obj"
	kmake() {
		make -C "$src" O="$obj" ARCH="$arch" "$@" >>"$log" 2>&1 ||
			{ tail -n 20 "$log" >&2; die "$version: make $*: failed"; }
	}
	kmake "$base_config"
	# shellcheck disable=SC2086
	"$src/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" \
		$frags >>"$log" 2>&1 || die "merge_config.sh: failed"
	kmake olddefconfig
	# The fragments' last word on each option (a later fragment overrides
	# an earlier one, as in merge_config.sh) must survive olddefconfig.
	# shellcheck disable=SC2086
	awk '/^CONFIG_[A-Z0-9_]*=y$/ { sub(/=y$/, ""); v[$0] = "y"; next }
	     /^# CONFIG_[A-Z0-9_]* is not set$/ { v[$2] = "n" }
	     END { for (o in v) print o, v[o] }' $frags | sort |
	while read -r o want; do
		if [ "$want" = n ]; then
			grep -q "^$o=" "$obj/.config" &&
				die "$version: $o is set after olddefconfig, a fragment turns it off"
			continue
		fi
		grep -qx "$o=y" "$obj/.config" && continue
		# A partial series may lack the options of the patches left out.
		case $KERNEL_SERIES/$o in
		?*/CONFIG_EXEC_SHIELD | ?*/CONFIG_EXEC_SHIELD_*) continue ;;
		esac
		die "$version: $o=y did not survive olddefconfig"
	done
	kmake -j"$KERNEL_JOBS" "$(basename "$image")"
	mkdir -p "$KERNEL_CACHE/$key"
	cp "$obj/$image" "$cached.tmp"
	mv "$cached.tmp" "$cached"
	# The unpacked tree and the objects are 2 GB; the image is enough.
	rm -rf "$src" "$obj"
	echo "$cached"
}

# Three copies of a program or library, marked by chstk and checked with
# readelf: NAME-exec, NAME-noexec, NAME-default.
mark3() {
	base=$1 dir=$2 name=$3 ext=${4:-}
	[ -n "$CHSTK" ] || die "CHSTK: not set, the test programs need it"
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

# Copy a dynamic program's interpreter and libraries into the root, at
# the paths they have here. Found from DT_NEEDED in the directories the
# dynamic linker searches by default, not with ldd, which runs the
# program's interpreter: this machine's kernel may not run 32-bit code.
copy_libs() {
	prog=$1 root=$2 bits=$3
	interp=$(readelf -lW "$prog" |
		sed -n 's/.*Requesting program interpreter: \(.*\)]$/\1/p')
	# The interpreter's own directory first: /lib/ld-linux.so.2 may be
	# libc6:i386's (/lib/i386-linux-gnu) or libc6-i386's (/lib32).
	dirs=$(dirname "$(readlink -f "$interp")")
	if [ "$bits" = 32 ]; then
		dirs="$dirs /lib/i386-linux-gnu /usr/lib/i386-linux-gnu /lib32 /usr/lib32"
	else
		dirs="$dirs /lib/x86_64-linux-gnu /usr/lib/x86_64-linux-gnu /lib64 /usr/lib64"
	fi
	for f in $interp; do
		mkdir -p "$root$(dirname "$f")"
		cp -L "$f" "$root$f"
	done
	todo=$prog
	while [ -n "$todo" ]; do
		set -- $todo
		todo=
		for obj in "$@"; do
			for lib in $(readelf -dW "$obj" |
				sed -n 's/.*(NEEDED).*\[\(.*\)\]$/\1/p'); do
				case $lib in ld-linux*) continue ;; esac
				found=
				for d in $dirs; do
					[ -f "$d/$lib" ] || continue
					found=$d/$lib
					break
				done
				[ -n "$found" ] || die "$prog: $lib not found in $dirs"
				[ -f "$root$found" ] && continue
				mkdir -p "$root$d"
				cp -L "$found" "$root$found"
				todo="$todo $found"
			done
		done
	done
}

check_type() {
	got=$(readelf -hW "$1" | awk '$1 == "Type:" { print $2 }')
	[ "$got" = "$2" ] || die "$1: ELF type $got, want $2"
}

# The initramfs: /init (test/init.c with test/initlib.c), the probes in
# every marking, their libraries.
# Built once per run and arch (x86_64: a 64-bit /init and 64- and 32-bit
# probes; i386: initramfs_i386); sets cpio.
initramfs() {
	[ -n "${cpio:-}" ] && [ "$cpio_arch" = "$arch" ] && return 0
	case $arch in
	x86_64) ;;
	i386) initramfs_i386; return 0 ;;
	*) die "$version: no test programs for ARCH=$arch" ;;
	esac
	cpio_arch=$arch
	t=$workdir/test root=$workdir/root
	rm -rf "$t" "$root"
	mkdir -p "$t" "$root/bin" "$root/lib" "$root/proc"
	cflags="-O2 -Wall -Wextra -Werror -z noexecstack"
	$CC $cflags -static -o "$root/init" "$kdir/test/init.c" \
		"$kdir/test/initlib.c"
	$CC $cflags -static -o "$t/s64" "$kdir/test/probe.c"
	$CC $cflags -m32 -static -o "$t/s32" "$kdir/test/probe.c"
	$CC $cflags -DPROBE_DLOPEN -fPIE -pie -o "$t/d64" "$kdir/test/probe.c"
	# The 32-bit PIE probes: as the compiler builds by default (d32), a
	# static-pie (sp32), and one whose 24 MiB .bss cannot fit the armor.
	$CC $cflags -m32 -DPROBE_DLOPEN -o "$t/d32" "$kdir/test/probe.c"
	$CC $cflags -m32 -static-pie -o "$t/sp32" "$kdir/test/probe.c"
	$CC $cflags -m32 -DPROBE_DLOPEN -DPROBE_BIG -o "$t/d32big" \
		"$kdir/test/probe.c"
	check_type "$t/s32" EXEC
	for v in d32 sp32 d32big; do
		check_type "$t/$v" DYN
	done
	if [ -f "$ARMOR_LDSCRIPT" ]; then
		$CC $cflags -m32 -DPROBE_DLOPEN -fno-pie -no-pie \
			-Wl,-T,"$ARMOR_LDSCRIPT" -o "$t/d32small" "$kdir/test/probe.c"
	else
		echo "$me: $ARMOR_LDSCRIPT missing: no d32small program" >&2
	fi
	for v in s64 s32 d64 d32 d32small sp32 d32big; do
		[ -f "$t/$v" ] && mark3 "$t/$v" "$root/bin" "$v"
	done
	for b in 64 32; do
		m=; [ $b = 32 ] && m=-m32
		$CC $cflags $m -shared -fPIC -o "$t/xstack$b" "$kdir/test/xstack.c"
		mark3 "$t/xstack$b" "$root/lib" "xstack$b" .so
		copy_libs "$t/d$b" "$root" $b
	done
	(cd "$root" && find . | sort | cpio -o -H newc -R 0:0 --quiet) \
		>"$workdir/initramfs.cpio"
	cpio=$workdir/initramfs.cpio
}

# The file offset of SYMBOL in PROG, which a uprobe in tracefs's
# uprobe_events names: its address (readelf -s) less the address of the
# PT_LOAD segment that holds it, plus that segment's offset (readelf -l).
uprobe_offset() {
	prog=$1 sym=$2
	addr=$(readelf -sW "$prog" | awk -v s="$sym" '$8 == s { print $2 }')
	[ -n "$addr" ] || die "$prog: no symbol $sym"
	off=$(readelf -lW "$prog" | awk '$1 == "LOAD" { print $2, $3, $5 }' |
		while read -r o va sz; do
			if [ $((0x$addr >= va && 0x$addr < va + sz)) = 1 ]; then
				printf '0x%x\n' $((0x$addr - va + o))
			fi
		done)
	[ -n "$off" ] || die "$prog: $sym at 0x$addr is in no PT_LOAD segment"
	echo "$off"
}

# The i386 initramfs: a 32-bit static /init (test/cslimit-init.c with
# test/initlib.c, the plumbing it shares with test/init.c) and the
# probe (test/cslimit.c) static at 0x08048000 (cs), static below 16 MiB
# with ld/elf_i386_small.x (cssmall) and a dynamic PIE (cspie), and the
# trampoline program (test/tramp.c), each marked exec and noexec; beside
# each probe, /bin/NAME.uprobe, the file offset where /init puts a uprobe.
initramfs_i386() {
	cpio_arch=$arch
	t=$workdir/test-i386 root=$workdir/root-i386
	rm -rf "$t" "$root"
	mkdir -p "$t" "$root/bin" "$root/proc"
	cflags="-O2 -Wall -Wextra -Werror -z noexecstack -m32"
	[ -f "$ARMOR_LDSCRIPT" ] ||
		die "$ARMOR_LDSCRIPT: missing, the i386 matrix needs it"
	$CC $cflags -static -o "$root/init" "$kdir/test/cslimit-init.c" \
		"$kdir/test/initlib.c"
	$CC $cflags -static -o "$t/cs" "$kdir/test/cslimit.c"
	$CC $cflags -static -fno-pie -no-pie -Wl,-T,"$ARMOR_LDSCRIPT" \
		-o "$t/cssmall" "$kdir/test/cslimit.c"
	$CC $cflags -fPIE -pie -o "$t/cspie" "$kdir/test/cslimit.c"
	$CC $cflags -static -Wno-trampolines -o "$t/tramp" "$kdir/test/tramp.c"
	check_type "$t/cs" EXEC
	check_type "$t/cssmall" EXEC
	check_type "$t/cspie" DYN
	for v in cs cssmall cspie tramp; do
		mark3 "$t/$v" "$root/bin" "$v"
	done
	for v in cs cssmall cspie; do
		uprobe_offset "$t/$v" uprobe_target >"$root/bin/$v.uprobe"
	done
	copy_libs "$t/cspie" "$root" 32
	(cd "$root" && find . | sort | cpio -o -H newc -R 0:0 --quiet) \
		>"$workdir/initramfs-i386.cpio"
	cpio=$workdir/initramfs-i386.cpio
}

# Boot once; the serial console goes to $vdir/NAME.log, the CPU model is
# $cpu if set. no_timer_check:
# on a loaded machine, qemu's emulated timer can miss the kernel's IO-APIC
# timer test, which then panics ("IO-APIC + timer doesn't work!").
boot() {
	name=$1
	shift
	echo "$me: $version: boot $name: ${cpu:+-cpu $cpu }$*" >&2
	# shellcheck disable=SC2086
	timeout 1200 $qemu ${cpu:+-cpu "$cpu"} -nographic -no-reboot -net none \
		-kernel "$kimage" -initrd "$cpio" \
		-append "console=$console panic=-1 quiet no_timer_check $*" \
		</dev/null >"$vdir/$name.log" 2>&1 || true
	results "$name" "$vdir/$name.log"
}

# A boot's serial console LOG: its text in $vdir/NAME.txt, its RESULT lines
# added to $vdir/results, and a failure if it did not reach DONE.
results() {
	name=$1 log=$2
	tr -d '\r' <"$log" >"$vdir/$name.txt"
	if ! grep -q '^DONE ' "$vdir/$name.txt"; then
		echo "RESULT $name FAIL $name - $name finished DONE missing" \
			>>"$vdir/results"
	fi
	sed -n "s/^RESULT /RESULT $name /p" "$vdir/$name.txt" \
		>>"$vdir/results"
}

# Boot once under Bochs on the CPU model $bochs_cpu, two CPUs, for what
# qemu's TCG cannot show: Bochs checks the code segment limit on every
# near call, jump and fetch, as a processor does. Bochs has no -kernel, so
# the kernel and the initramfs go on an isolinux CD; reboot=t ends in a
# triple fault, at which Bochs stops (reset_on_triple_fault=0). The
# display is VNC's (rfb), which Bochs serves without waiting for a
# viewer: Debian builds no display-less one. Where we may (root), Bochs
# runs in a network namespace of its own, so that no one can reach that
# server.
boot_bochs() {
	name=$1
	shift
	b=$vdir/$name.bochs
	command -v "${BOCHS%% *}" >/dev/null ||
		die "$BOCHS: not found; apt-get install bochs bochs-term, or BOCHS=none"
	netns=
	unshare -n true 2>/dev/null && netns="unshare -n"
	echo "$me: $version: boot $name: Bochs $bochs_cpu${netns:+, $netns}: $*" >&2
	rm -rf "$b"
	mkdir -p "$b/cd/isolinux"
	for f in "$ISOLINUX/isolinux.bin" "$SYSLINUX_MODULES/ldlinux.c32"; do
		cp "$f" "$b/cd/isolinux/" || die "$f: missing, Bochs boots from it"
	done
	cp "$kimage" "$b/cd/kernel"
	cp "$cpio" "$b/cd/initrd"
	cat >"$b/cd/isolinux/isolinux.cfg" <<-EOF
	default linux
	prompt 0
	label linux
	  kernel /kernel
	  initrd /initrd
	  append console=ttyS0 panic=-1 quiet no_timer_check reboot=t $*
	EOF
	xorriso -as mkisofs -quiet -o "$b/cd.iso" -b isolinux/isolinux.bin \
		-c isolinux/boot.cat -no-emul-boot -boot-load-size 4 \
		-boot-info-table "$b/cd" >"$b/xorriso.log" 2>&1 ||
		die "$b/cd.iso: xorriso failed, see $b/xorriso.log"
	cat >"$b/bochsrc" <<-EOF
	megs: 512
	cpu: model=$bochs_cpu, count=2, ips=50000000, reset_on_triple_fault=0
	romimage: file=/usr/share/bochs/BIOS-bochs-latest
	vgaromimage: file=/usr/share/vgabios/vgabios.bin
	ata0-master: type=cdrom, path=$b/cd.iso, status=inserted
	boot: cdrom
	com1: enabled=1, mode=file, dev=$b/serial.log
	display_library: rfb, options="timeout=0"
	speaker: enabled=0
	sound: waveoutdrv=dummy, waveindrv=dummy, midioutdrv=dummy
	clock: sync=none
	log: $b/bochs.log
	panic: action=fatal
	error: action=report
	info: action=ignore
	EOF
	# Bochs is built with its debugger: "c" runs, "quit" if it stops.
	printf 'c\nquit\n' >"$b/commands"
	: >"$b/serial.log"
	# shellcheck disable=SC2086
	timeout 1200 $netns $BOCHS -q -f "$b/bochsrc" -rc "$b/commands" \
		</dev/null >"$b/stdout" 2>&1 || true
	results "$name" "$b/serial.log"
}

boots_levels() {
	for level in 0 1 2 3; do
		boot "L$level" "exec-shield=$level chstk.test=boot"
	done
	boot L7 "exec-shield=7 chstk.test=boot"
	boot switch "chstk.test=switch"
	for p in d32-noexec d32small-noexec; do
		sed -n "s/^PICTURE $p //p" "$vdir/L2.txt" >"$vdir/picture-$p.txt"
	done
}

# kernel.conf's cpu_nonx is a CPU model without NX (the code segment limit
# works), cpu_nx one with NX (the page tables do, if the kernel has PAE);
# an empty one is not booted.
boots_i386() {
	[ -n "$cpu_nonx" ] || [ -n "$cpu_nx" ] ||
		die "$conf: cpu_nonx or cpu_nx is needed for ARCH=i386"
	if [ -n "$cpu_nonx" ]; then
		cpu=$cpu_nonx
		boot nonx-L2 "exec-shield=2 chstk.test=cslimit"
		boot nonx-L0 "exec-shield=0 chstk.test=cslimit"
		sed -n 's/^PICTURE //p' "$vdir/nonx-L2.txt" \
			>"$vdir/picture-cspie-noexec.txt"
	fi
	if [ -n "$cpu_nx" ]; then
		cpu=$cpu_nx
		boot nx-L2 "exec-shield=2 chstk.test=cslimit"
	fi
	cpu=
	if [ -n "$bochs_cpu" ] && [ "$BOCHS" != none ]; then
		boot_bochs bochs-L2 \
			"exec-shield=2 chstk.test=cslimit chstk.near=checked"
	fi
}

# Each version's matrix in $vdir/matrix.txt; fails if any version failed.
check() {
	status=0
	for v in $KERNEL_VERSIONS; do
		load_version "$v"
		kimage=$(kernel)
		initramfs
		: >"$vdir/results"
		cpu=
		if [ "$arch" = i386 ]; then
			boots_i386
		else
			boots_levels
		fi
		echo "== Linux $version${KERNEL_SERIES:+ (KERNEL_SERIES=$KERNEL_SERIES)}"
		awk -v kernel="$version" -f "$kdir/matrix.awk" "$vdir/results" \
			>"$vdir/matrix.txt" || status=1
		cat "$vdir/matrix.txt"
	done
	return $status
}

# Twice per version: as configured, and without address randomization,
# which under qemu's emulation costs more than anything it measures (see
# README.md).
bench() {
	for v in $KERNEL_VERSIONS; do
		load_version "$v"
		kimage=$(kernel)
		initramfs
		benches="bench bench-norandmaps"
		if [ "$arch" = i386 ]; then
			benches=
			for b in nonx nx; do
				eval "cpu=\$cpu_$b"
				[ -n "$cpu" ] || continue
				boot "bench-$b" "chstk.test=bench"
				benches="$benches bench-$b"
			done
			cpu=
		else
			boot bench "chstk.test=bench"
			boot bench-norandmaps "chstk.test=bench norandmaps"
		fi
		for b in $benches; do
			grep '^BENCH ' "$vdir/$b.txt" | sed "s/^/$version $b: /" ||
				die "$version $b: the benchmark did not finish"
		done
	done
}

checkpatch() {
	status=0
	for v in $KERNEL_VERSIONS; do
		load_version "$v"
		KERNEL_SERIES=none
		src=$(unpack)
		KERNEL_SERIES=
		for p in $(series); do
			out=$(cd "$src" && ./scripts/checkpatch.pl "$p" 2>&1) || {
				echo "$out"
				status=1
			}
			echo "$v/$(basename "$p"): $(echo "$out" | grep '^total:')"
		done
		rm -rf "$src"
	done
	return $status
}

# The one version of KERNEL_VERSIONS, loaded: image and boot need one.
load_one() {
	# shellcheck disable=SC2086
	set -- $KERNEL_VERSIONS
	[ $# -eq 1 ] || die "$cmd: one version in KERNEL_VERSIONS, not $*"
	load_version "$1"
}

mkdir -p "$workdir"
[ -n "$KERNEL_VERSIONS" ] || KERNEL_VERSIONS=$(all_versions)
cmd=${1:-}
[ $# -gt 0 ] && shift
# shellcheck disable=SC2086
if [ $(set -- $KERNEL_VERSIONS; echo $#) -gt 1 ] &&
	{ [ -n "$KERNEL_IMAGE" ] || [ -n "$LINUX_TARBALL" ]; }; then
	die "KERNEL_IMAGE and LINUX_TARBALL need one version in KERNEL_VERSIONS"
fi
case $cmd in
check) check ;;
bench) bench ;;
checkpatch) checkpatch ;;
image)
	load_one
	kernel
	;;
boot)
	[ $# -ge 2 ] && [ -f "$1" ] || die "boot: needs an initramfs and a name"
	load_one
	cpio=$1 name=$2
	shift 2
	kimage=$(kernel)
	cpu=
	: >"$vdir/results"
	boot "$name" "$@"
	echo "$vdir/$name.txt"
	;;
*)	usage ;;
esac
