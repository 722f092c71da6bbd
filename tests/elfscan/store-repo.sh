# store-repo.sh: what the store tests share (tests/elfscan/store.sh and
# store-pg.sh source it after tests/lib.sh): the repository's packages,
# made from real .debs (dpkg-deb, dpkg-scanpackages, apt-ftparchive), the
# oracle (dpkg-deb -x and readelf -lW of every ELF member), and the
# readings of what a store holds and what elfscan says.
R=$T/repo
# deb NAME VERSION [GCC-OPTION...]: NAME_VERSION_amd64.deb in the pool:
# usr/bin/NAME built with the options, usr/bin/NAME-plain without, and
# usr/lib/libNAME.so.1, a library (its soname kept in the store).
deb() {
	name=$1 version=$2
	shift 2
	rm -rf "$T/build" && mkdir -p "$T/build/DEBIAN" "$T/build/usr/bin" \
	    "$T/build/usr/lib" &&
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
# readelf says of its PT_GNU_STACK: "PATH!MEMBER exec|noexec".
oracle() {
	for f in "$R"/pool/main/*/*.deb; do
		rm -rf "$T/x" && dpkg-deb -x "$f" "$T/x" &&
		    (cd "$T/x" && find . -type f) | sort | while read -r m; do
			m=${m#./}
			flags=$(readelf -lW "$T/x/$m" | awk '$1 == "GNU_STACK" { print $(NF-1) }')
			[ "$flags" = RWE ] && s=exec || s=noexec
			echo "$f!$m $s"
		done
	done | sort
}
# What the store holds, read by sqlite3: "PATH!MEMBER stack".
held() {
	sqlite3 "$1" "SELECT p.path || '!' || r.member || ' ' || r.stack FROM records r JOIN packages p ON p.id = r.package" | sort
}
# The path and stack of each image record of elfscan's JSON Lines.
said() {
	python3 -c '
import json, sys
for line in sys.stdin:
    r = json.loads(line)
    if "member" in r and "stack" in r:
        print(r["path"] + "!" + r["member"], r["stack"])
' | sort
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

