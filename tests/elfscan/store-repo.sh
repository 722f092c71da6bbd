# store-repo.sh: what the store tests share (tests/elfscan/store.sh and
# store-pg.sh source it after tests/lib.sh): the repository's packages,
# made from real .debs (dpkg-deb, dpkg-scanpackages, apt-ftparchive), the
# oracle (dpkg-deb -x and readelf -lW of every ELF member), and the
# readings of what a store holds and what elfscan says.
R=$T/repo
# deb NAME VERSION [GCC-OPTION...]: NAME_VERSION_amd64.deb in the pool:
# usr/bin/NAME built with the options, usr/bin/NAME-plain without, and
# usr/lib/libNAME.so.1, a library (its soname kept in the store); and what
# the store keeps of the other files: a link usr/sbin/NAME to the program,
# a script usr/bin/NAME-sh, the unit lib/systemd/system/NAME.service.
deb() {
	name=$1 version=$2
	shift 2
	rm -rf "$T/build" && mkdir -p "$T/build/DEBIAN" "$T/build/usr/bin" \
	    "$T/build/usr/lib" "$T/build/usr/sbin" \
	    "$T/build/lib/systemd/system" &&
	    ln -s ../bin/"$name" "$T/build/usr/sbin/$name" &&
	    printf '#!/bin/sh -e\necho %s\n' "$name" >"$T/build/usr/bin/$name-sh" &&
	    chmod 755 "$T/build/usr/bin/$name-sh" &&
	    printf '[Service]\nExecStart=/usr/sbin/%s\nMemoryDenyWriteExecute=yes\n' \
	    "$name" >"$T/build/lib/systemd/system/$name.service" &&
	    gcc "$@" -o "$T/build/usr/bin/$name" "$FIX/hello.c" &&
	    gcc -o "$T/build/usr/bin/$name-plain" "$FIX/hello.c" &&
	    echo "int f$version(void) { return 1; }" >"$T/lib.c" &&
	    gcc -shared -fPIC "$@" -Wl,-soname,"lib$name.so.1" \
	    -o "$T/build/usr/lib/lib$name.so.1" "$T/lib.c" &&
	    printf 'Package: %s\nVersion: %s\nArchitecture: amd64\nMaintainer: t <t@t>\nDescription: t\n' \
	    "$name" "$version" >"$T/build/DEBIAN/control" &&
	    mkdir -p "$R/pool/main/$name" &&
	    dpkg-deb --root-owner-group --build "$T/build" \
	    "$R/pool/main/$name/${name}_${version}_amd64.deb" >/dev/null
}
index() {
	d=$R/dists/s/main/binary-amd64
	mkdir -p "$d" &&
	    (cd "$R" && dpkg-scanpackages -m pool /dev/null 2>/dev/null) >"$d/Packages" &&
	    xz -kf "$d/Packages" &&
	    (cd "$R/dists/s" &&
	    apt-ftparchive -o APT::FTPArchive::Release::Components=main \
	    release . >Release.new && mv Release.new Release)
}
# The oracle: each ELF member of each .deb in the pool, unpacked, and what
# readelf says of its PT_GNU_STACK: "PATH!MEMBER exec|noexec"; of those
# whose header readelf cannot read, nothing.
oracle() {
	for f in "$R"/pool/main/*/*.deb; do
		rm -rf "$T/x" && dpkg-deb -x "$f" "$T/x" &&
		    (cd "$T/x" && find . -type f) | sort | while read -r m; do
			m=${m#./}
			[ "$(head -c 4 "$T/x/$m")" = "$(printf '\177ELF')" ] &&
			    readelf -h "$T/x/$m" >/dev/null 2>&1 || continue
			flags=$(readelf -lW "$T/x/$m" | awk '$1 == "GNU_STACK" { print $(NF-1) }')
			[ "$flags" = RWE ] && s=exec || s=noexec
			echo "$f!$m $s"
		done
	done | sort
}
# The oracle of the files the store keeps that are no ELF files, from
# dpkg-deb -x (unpacked_files, tests/lib.sh).
file_oracle() {
	for f in "$R"/pool/main/*/*.deb; do
		rm -rf "$T/x" && dpkg-deb -x "$f" "$T/x" &&
		    unpacked_files "$T/x" "$f"
	done | sort
}
# What the store holds of them, read by sqlite3, as file_oracle says it.
held_files() {
	sqlite3 "$1" "SELECT p.path || '!' || f.path || ' ' || f.type || ' ' || CASE f.type WHEN 'file' THEN CASE f.hex WHEN 1 THEN f.data ELSE hex(f.data) END ELSE f.data END FROM files f JOIN packages p ON p.id = f.package" |
	    awk '$2 == "file" { $3 = tolower($3) } { print }' | sort
}
# What the store holds of the images, read by sqlite3: "PATH!MEMBER
# stack".
held() {
	sqlite3 "$1" "SELECT p.path || '!' || r.member || ' ' || r.stack FROM records r JOIN packages p ON p.id = r.package WHERE r.error IS NULL" | sort
}
# Without the times of a summary; a SARIF log with its results sorted
# (a run without a store says them in the order its workers finish).
untimed() { sed 's/[0-9.]* s$/T s/'; }
norm() {
	case $1 in
	--format=sarif) python3 -c '
import json, sys
log = json.load(sys.stdin)
log["runs"][0]["results"].sort(key=lambda r: json.dumps(r, sort_keys=True))
print(json.dumps(log, sort_keys=True, indent=1))' ;;
	-0) tr '\0' '\n' | sort ;;
	*) untimed | sort ;;
	esac
}
# reruns STORE FIRST: with the pool moved away (the caller's), a run from
# STORE in each format says what a run without a store says, with its exit
# status and its messages (a package read would be missed, and said); the
# JSON Lines are FIRST's, byte for byte.
reruns() {
	for f in --format=json --format=sarif "--summary" -q -0 "--no-header"; do
		# shellcheck disable=SC2086 # one option, or none
		S $f --store "$1" "$A" >"$T/re" 2>"$T/re.err"
		st=$?
		mv "$T/pool" "$R/pool"
		# shellcheck disable=SC2086
		S $f "$A" >"$T/no" 2>"$T/no.err"
		expect "rerun $f: the exit status of a run without a store" "$st" "$?"
		mv "$R/pool" "$T/pool"
		expect "rerun $f: no package read (the pool is away), the messages of a run without a store" \
		    "$(sort "$T/re.err")" "$(sort "$T/no.err")"
		expect "rerun $f: what a run without a store says" \
		    "$(norm "$f" <"$T/re")" "$(norm "$f" <"$T/no")"
		case $f in --format=json)
			expect "rerun: byte for byte the first run" \
			    "$(cmp "$T/re" "$2" && echo same)" same ;;
		esac
	done
}
