#!/bin/sh
# The same answers on every host: chstk and elfscan built for HOST (a
# big-endian or a 32-bit machine, run by HOST_RUN) against the ones built
# for this machine (CHSTK, ELFSCAN), on one tree of fixtures: the fuzz seed
# corpus (fuzz/seeds.sh: every class, byte order and machine the suite
# builds, GNU, BSD, thin and mixed archives), unstripped and statically
# linked programs, foreign programs linked three ways, the fuzzers'
# regression inputs, truncated and corrupted copies, packages and tarballs.
# For each file: the same output, messages and exit status of chstk -q and
# -v, and of -E, -e, -d and -D each on a fresh copy and one after another
# on the same copy, with the same bytes rewritten; for the tree: the same
# elfscan report in text and JSON, inside the containers too.
. "$top_srcdir/tests/lib.sh"
: "${ELFSCAN:?}" "${HOST:?}" "${HOST_RUN:?}" "${GEN_SEEDS:?}"
need gcc clang ld.lld nasm ar llvm-ar python3 cpio dpkg-deb gzip xz cmp \
    powerpc-linux-gnu-as powerpc-linux-gnu-ld s390x-linux-gnu-as \
    s390x-linux-gnu-ld s390x-linux-gnu-ar aarch64-linux-gnu-as \
    aarch64-linux-gnu-ld mips-linux-gnu-as mips-linux-gnu-ld

D=$T/tree
mkdir -p "$D/extra" "$D/cross" "$D/broken" "$D/containers"
sh "$top_srcdir/fuzz/seeds.sh" "$D/seeds" "$GEN_SEEDS" >/dev/null 2>&1 ||
    fail "build the seed corpus"
cp -R "$top_srcdir/fuzz/regress" "$D/regress"

LLD="clang -fuse-ld=lld -Wl,-z,nognustack"
gcc -o "$D/extra/noexec64" "$FIX/hello.c" &&
    gcc -m32 -z execstack -o "$D/extra/exec32" "$FIX/hello.c" &&
    $LLD -o "$D/extra/absent64" "$FIX/hello.c" &&
    $LLD -m32 -o "$D/extra/absent32" "$FIX/hello.c" &&
    gcc -static -o "$D/extra/static64" "$FIX/hello.c" &&
    $LLD -m32 -shared -fPIC -o "$D/extra/libabsent32.so" "$FIX/lib.c" &&
    gcc -m32 -c -Wa,--execstack -o "$D/extra/execnote32.o" "$FIX/lib.c" ||
    fail "build the x86 programs"
for m in ppc:powerpc-linux-gnu s390x:s390x-linux-gnu aarch64:aarch64-linux-gnu \
    mips:mips-linux-gnu; do
	n=${m%%:*} t=${m#*:}
	"$t-as" -o "$D/cross/$n.o" "$FIX/cross/$n.s" &&
	    "$t-ld" -z noexecstack -o "$D/cross/$n-noexec" "$D/cross/$n.o" \
	    2>/dev/null &&
	    "$t-ld" -z execstack -o "$D/cross/$n-exec" "$D/cross/$n.o" \
	    2>/dev/null &&
	    "$t-ld" -T "$FIX/cross/noheaders-gap.ld" -o "$D/cross/$n-gap" \
	    "$D/cross/$n.o" || fail "build $n"
done
(cd "$D/cross" && s390x-linux-gnu-ar rcs libs390x.a s390x.o &&
    ar rcS libforeign.a ppc.o aarch64.o mips.o s390x.o) ||
    fail "build the foreign archives"

# Broken files: each class and byte order cut short at the headers, and
# with the header fields that locate the rest turned into nonsense.
for f in seeds/prog-pie seeds/prog-32 seeds/s390x seeds/ppc seeds/lib.o \
    seeds/gen-64be-obj-exec.o seeds/gen-32le-noexec extra/static64; do
	b=$(echo "$f" | tr / -)
	size=$(wc -c <"$D/$f")
	for n in 16 52 64 100 300 $((size / 2)) $((size - 1)); do
		head -c "$n" "$D/$f" >"$D/broken/$b-cut$n"
	done
	# e_phoff, e_shoff, e_phnum, e_shnum, e_shstrndx of ELF64 and ELF32
	for at in 32 33 39 40 47 56 57 60 61 62 28 31 44 48 50; do
		cp "$D/$f" "$D/broken/$b-at$at"
		poke "$D/broken/$b-at$at" "$at" '\377\177'
	done
done
for f in gnu.a mixed.a bsd.a; do
	size=$(wc -c <"$D/seeds/$f")
	for n in 8 70 $((size / 2)) $((size - 1)); do
		head -c "$n" "$D/seeds/$f" >"$D/broken/$f-cut$n"
	done
	cp "$D/seeds/$f" "$D/broken/$f-size"
	poke "$D/broken/$f-size" 56 '99'	# the first member's size field
done
printf 'hello\n' >"$D/broken/text"
: >"$D/broken/empty"
printf '\177ELF\002\002\001' >"$D/broken/magic-only"

# Containers, which elfscan reads through libarchive.
(cd "$D/seeds" && tar czf "$D/containers/progs.tar.gz" prog-pie s390x lib.o gnu.a &&
    printf '%s\n' ppc prog-32 tiny64-wx | cpio -o -H newc 2>/dev/null |
    xz >"$D/containers/progs.cpio.xz" &&
    python3 -c 'import sys, zipfile
with zipfile.ZipFile(sys.argv[1], "w") as z:
    for f in sys.argv[2:]: z.write(f)' "$D/containers/progs.whl" \
    lib.so mips-packed gen-64be-exec) || fail "build the containers"
mkdir -p "$T/pkg/DEBIAN" "$T/pkg/usr/bin"
printf 'Package: p\nVersion: 1\nArchitecture: all\nMaintainer: m <m@m>\nDescription: d\n' \
    >"$T/pkg/DEBIAN/control"
cp "$D/seeds/prog-exec" "$D/seeds/aarch64" "$T/pkg/usr/bin/"
dpkg-deb -Zxz --root-owner-group -b "$T/pkg" "$D/containers/p.deb" >/dev/null ||
    fail "build the package"

files=$(cd "$D" && find . -type f | sed 's|^\./||' | sort)
nfiles=$(echo "$files" | wc -l)
echo "$nfiles files"

# side DIR OUT PROG ARG...: run PROG in DIR, its output, messages and exit
# status into OUT
side() {
	dir=$1 out=$2
	shift 2
	(cd "$dir" && "$@" >"$out.out" 2>"$out.err"; echo "$?" >"$out.status")
}
# differs WHAT FILE...: whether the two sides' outputs or FILEs differ
differs() {
	what=$1
	shift
	for x in out err status; do
		cmp -s "$T/n.$x" "$T/f.$x" && continue
		fail "$what: the $x differs"
		diff "$T/n.$x" "$T/f.$x" | head -5
		return 0
	done
	for x in "$@"; do
		cmp -s "$T/n/$x" "$T/f/$x" && continue
		fail "$what: the rewritten $x differs"
		cmp -l "$T/n/$x" "$T/f/$x" 2>&1 | head -3
		bad=1
	done
	[ "${bad:-0}" = 1 ] && bad=0 && return 0
	return 1
}
fresh() { rm -rf "$T/n" "$T/f"; cp -R "$D" "$T/n"; cp -R "$D" "$T/f"; }
# compare OPTION...: each option on all the files at once (one program
# start: qemu-user is slow to start), the two sides alike. A file that
# fails is named on stderr, so the same messages mean the same files failed.
compare() {
	for opt in "$@"; do
		# shellcheck disable=SC2086
		side "$T/n" "$T/n" "$CHSTK" "$opt" $files
		# shellcheck disable=SC2086
		side "$T/f" "$T/f" "$HOST_RUN" chstk "$opt" $files
		changed=0
		for r in $files; do
			cmp -s "$D/$r" "$T/n/$r" || changed=$((changed + 1))
		done
		failed=$(wc -l <"$T/n.err")
		# shellcheck disable=SC2086
		differs "chstk $opt" $files ||
		    pass "chstk $opt: $nfiles files alike on $HOST ($changed rewritten, $failed refused)"
		echo "$changed $failed" >>"$T/counts"
	done
}

fresh
compare -q -v
for opt in -E -e -d -D; do
	fresh
	compare "$opt"
done
# Each option on what the one before left, so that every marking is met.
fresh
compare -e -D -E -d -e -D
expect "files rewritten and files refused both compared" \
    "$(awk '$1 > 0 { c++ } $2 > 0 { f++ } END { print c, f }' "$T/counts")" "10 12"

# elfscan over the whole tree, one report for each format. The tree is
# judged in a root that holds it in /opt and runs what its dynamic linkers
# run, x86-64 and i386 (--system), not as this machine's root is: the
# machines that one runs differ from host to host (qemu-user's -L prefix
# holds an s390x dynamic linker; a kernel's binfmt handlers are its own).
R=$T/root
mkdir -p "$R/opt" "$R/lib64" "$R/lib" && cp -R "$D" "$R/opt/tree" &&
    cp "$D/extra/noexec64" "$R/lib64/ld-linux-x86-64.so.2" &&
    cp "$D/extra/exec32" "$R/lib/ld-linux.so.2" || fail "build the root"
for args in "--format=json" "-A" "-q --summary -A" "--format=json -A"; do
	# shellcheck disable=SC2086
	side "$R" "$T/n" "$ELFSCAN" --no-progress -j 1 --system $args .
	# shellcheck disable=SC2086
	side "$R" "$T/f" "$HOST_RUN" elfscan --no-progress -j 1 --system \
	    $args .
	for s in n f; do
		sed 's/; [0-9.]* s$//' "$T/$s.out" | sort >"$T/$s.sorted" &&
		    mv "$T/$s.sorted" "$T/$s.out"
		sort "$T/$s.err" >"$T/$s.sorted" && mv "$T/$s.sorted" "$T/$s.err"
	done
	differs "elfscan $args" || pass "elfscan $args: the same report on $HOST"
done
expect "elfscan --system: a program for a machine the root does not run" \
    "$(grep -c '"path":"[^"]*/broken/seeds-s390x-at28",.*"scope":"foreign-machine"' \
    "$T/n.out")" 1
expect "elfscan -A: inside the package, the tarball, the cpio and the zip" \
    "$(sed -n 's|^{"path":"[^"]*/opt/tree/containers/\([^"]*\)","member".*|\1|p' \
    "$T/n.out" | sort -u | tr '\n' ' ')" \
    "p.deb progs.cpio.xz progs.tar.gz progs.whl "
finish
