#!/bin/sh
# The two readers of heads.c give the same scan: the io_uring one (the
# default where the kernel allows it) and the one that makes a system call
# after another (ELFSCAN_READER=threads, also what a build without liburing
# or a kernel without io_uring gets). A tree the test builds: programs,
# libraries, objects and archives in both markings, broken and truncated
# ELF files, files of every size around the head's bounds (empty, shorter
# than a format's magic, 21 to 23 bytes, the 1 KiB head and more),
# symbolic links, a .deb and a tarball, and directories of more files
# than a ring holds at once. Each way of scanning it (plain, -A, -L,
# --hardening, one walker, a limit of open files that shrinks the rings)
# must give the same records, byte for byte once sorted, the same
# messages, the same counts and the same exit status with either reader,
# and those records must name every file of the tree that is ELF, by
# readelf, once (no file lost).
. "$top_srcdir/tests/lib.sh"
need gcc ar as readelf dpkg-deb tar gzip
: "${ELFSCAN:?}"

reader=$("$ELFSCAN" --version | sed -n 's/^reader: //p')
expect "--version names the reader" "$(echo "$reader" | grep -cE '^(io_uring|threads \(.+\))$')" 1
expect "ELFSCAN_READER=threads is said" \
    "$(ELFSCAN_READER=threads "$ELFSCAN" --version | sed -n 's/^reader: //p')" \
    "threads (ELFSCAN_READER=threads)"
ELFSCAN_READER=bogus "$ELFSCAN" --version >/dev/null 2>"$T/err"
expect "ELFSCAN_READER=bogus: exit status 2" "$?" 2
expect "ELFSCAN_READER=bogus: one line" "$(cat "$T/err")" \
    "elfscan: ELFSCAN_READER=bogus: not io_uring or threads"
# Where io_uring is not allowed (a seccomp filter, as in a container) the
# reader is chosen when elfscan runs, and --version says why.
gcc -o "$T/deny" "$FIX/deny.c" || fail "build deny"
for e in 1:"Operation not permitted" 38:"Function not implemented"; do
	want="threads (io_uring: ${e#*:})"
	[ "$reader" = "threads (built without liburing)" ] && want=$reader
	expect "io_uring_setup denied, errno ${e%%:*}: --version" \
	    "$("$T/deny" io_uring_setup "${e%%:*}" "$ELFSCAN" --version | sed -n 's/^reader: //p')" "$want"
done
[ "$reader" = io_uring ] ||
    { echo "note: reader: $reader: there is no io_uring reader to compare here"; finish; }

D=$T/tree
mkdir -p "$D/bin" "$D/lib" "$D/obj" "$D/junk" "$D/pkg" "$D/deep/a/b/c/d/e/f"
gcc -o "$D/bin/pie" "$FIX/hello.c" &&
    gcc -no-pie -o "$D/bin/nopie" "$FIX/hello.c" &&
    gcc -z execstack -o "$D/bin/exec" "$FIX/hello.c" &&
    gcc -static -o "$D/bin/static" "$FIX/hello.c" &&
    gcc -shared -fPIC -o "$D/lib/libclean.so" "$FIX/lib.c" &&
    gcc -shared -fPIC -z execstack -o "$D/lib/libexec.so" "$FIX/lib.c" &&
    gcc -c -o "$D/obj/note.o" "$FIX/lib.c" &&
    printf '\t.text\n\tret\n' | as -o "$D/obj/nonote.o" &&
    (cd "$D/obj" && ar rc libmix.a note.o nonote.o) &&
    cp "$D/bin/exec" "$D/deep/a/b/c/d/e/f/exec" ||
    fail "build the tree"
head -c 300 "$D/bin/pie" >"$D/junk/truncated"
head -c 64 "$D/bin/pie" >"$D/junk/header-only"
printf '\177ELF' >"$D/junk/magic-only"
printf '!<arch>\n' >"$D/junk/ar-magic-only"
: >"$D/junk/empty"
for n in 1 3 21 22 23 261 262 263 1023 1024 1025 5000; do
	head -c "$n" /dev/urandom | tr '\000\177' 'ab' >"$D/junk/bytes-$n"
done
ln -s ../bin/exec "$D/junk/link-to-exec"
ln -s loop "$D/junk/loop"
# A .deb and a tarball, read with -A.
mkdir -p "$T/debroot/DEBIAN" "$T/debroot/usr/bin"
cp "$D/bin/exec" "$T/debroot/usr/bin/" &&
    printf 'Package: t\nVersion: 1\nArchitecture: amd64\nMaintainer: t <t@t>\nDescription: t\n' \
    >"$T/debroot/DEBIAN/control" &&
    dpkg-deb --root-owner-group -Zgzip --build "$T/debroot" "$D/pkg/t.deb" >/dev/null &&
    tar -C "$D" -czf "$D/pkg/t.tar.gz" bin lib ||
    fail "build the packages"
# More files a directory than a ring holds (64), the ELF ones among them.
for d in 1 2 3 4; do
	mkdir "$D/many$d"
	i=0
	while [ $i -lt 150 ]; do
		case $((i % 25)) in
		0) cp "$D/bin/exec" "$D/many$d/f$i" ;;
		1) cp "$D/lib/libclean.so" "$D/many$d/f$i" ;;
		*) echo "file $i" >"$D/many$d/f$i" ;;
		esac
		i=$((i + 1))
	done
done

# scan NAME READER ARGS...: elfscan ARGS on the tree with READER, its
# records sorted in $T/NAME.READER.json, its messages sorted in .err, its
# summary (the time left out) in .sum, its exit status in .status.
scan() {
	name=$1 r=$2
	shift 2
	ELFSCAN_READER=$r "${prog:-$ELFSCAN}" --format=json --summary --no-progress \
	    "$@" "$D" >"$T/out" 2>"$T/err"
	echo $? >"$T/$name.$r.status"
	grep -v '^{"summary"' "$T/out" | sort >"$T/$name.$r.json"
	grep '^{"summary"' "$T/out" | sed 's/,"seconds":[0-9.e+-]*//' >"$T/$name.$r.sum"
	sort "$T/err" >"$T/$name.$r.err"
}
# same NAME ARGS...: both readers, compared.
same() {
	name=$1
	shift
	scan "$name" io_uring "$@"
	scan "$name" threads "$@"
	for part in json err sum status; do
		if cmp -s "$T/$name.io_uring.$part" "$T/$name.threads.$part"; then
			pass "$name: the same $part with both readers"
		else
			fail "$name: the $part differ: $(diff "$T/$name.threads.$part" "$T/$name.io_uring.$part" | head -5)"
		fi
	done
	expect "$name: records" "$(wc -l <"$T/$name.io_uring.json" | awk '$1 > 50 { print "yes" }')" yes
}
same plain
same archives -A
same follow -L
same hardening --hardening
same one-walker -j 1
# The rings shrink to what a limit of open files leaves: 200, of which
# 128 are kept for the rest, for up to 8 walkers: 4 slots each.
printf '#!/bin/sh\nulimit -n 200 && exec "%s" "$@"\n' "$ELFSCAN" >"$T/limited"
chmod +x "$T/limited"
prog=$T/limited same few-files
# io_uring denied: the default gives the threads reader's scan.
printf '#!/bin/sh\nexec "%s" io_uring_setup 1 "%s" "$@"\n' "$T/deny" "$ELFSCAN" >"$T/denied"
chmod +x "$T/denied"
prog=$T/denied scan denied io_uring
prog=
for part in json err sum status; do
	cmp -s "$T/denied.io_uring.$part" "$T/plain.threads.$part" &&
	    pass "io_uring denied: the threads reader's $part" ||
	    fail "io_uring denied: the $part differ from the threads reader's"
done

# No file lost: every ELF file of the tree, by readelf, has a record.
find "$D" -type f ! -path "$D/pkg/*" | while read -r f; do
	readelf -h "$f" 2>/dev/null | grep -q "^ELF Header:" && echo "$f"
done | sort >"$T/elf"
sed -n 's/^{"path":"\([^"]*\)".*/\1/p' "$T/plain.io_uring.json" | sort -u >"$T/named"
expect "readelf finds the ELF files" "$(wc -l <"$T/elf" | awk '$1 > 20 { print "yes" }')" yes
expect "every ELF file has its record" "$(comm -23 "$T/elf" "$T/named")" ""
expect "the truncated files are reported" \
    "$(grep -c -e '"path":"[^"]*/junk/truncated"' -e '"path":"[^"]*/junk/header-only"' \
    -e '"path":"[^"]*/junk/magic-only"' "$T/plain.io_uring.json")" 3
finish
