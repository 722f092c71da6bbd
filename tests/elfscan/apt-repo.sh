# apt-repo.sh: the apt repository the repository tests share, sourced by
# tests/elfscan/repo-apt.sh and repo-url.sh after tests/lib.sh. It builds
# $R, suite s, component main, from real .debs (dpkg-deb,
# dpkg-scanpackages, apt-ftparchive): three packages, exec, clean and
# other, each of two programs; and the oracle, what dpkg-deb -x and
# readelf -lW say of each ELF member's stack.
need gcc dpkg-deb dpkg-scanpackages apt-ftparchive readelf python3 xz
: "${ELFSCAN:?}"
S() { "$ELFSCAN" --no-progress "$@"; }

R=$T/repo
# deb NAME [GCC-OPTION...]: NAME_1_amd64.deb in the pool, holding two
# programs: usr/bin/NAME built with the options, usr/bin/NAME-plain without.
deb() {
	name=$1
	shift
	rm -rf "$T/build" && mkdir -p "$T/build/DEBIAN" "$T/build/usr/bin" &&
	    gcc "$@" -o "$T/build/usr/bin/$name" "$FIX/hello.c" &&
	    gcc -o "$T/build/usr/bin/$name-plain" "$FIX/hello.c" &&
	    printf 'Package: %s\nVersion: 1\nArchitecture: amd64\nMaintainer: t <t@t>\nDescription: t\n' \
	    "$name" >"$T/build/DEBIAN/control" &&
	    mkdir -p "$R/pool/main/$name" &&
	    dpkg-deb --root-owner-group --build "$T/build" \
	    "$R/pool/main/$name/${name}_1_amd64.deb" >/dev/null
}
# release: the Release of suite s, of the indices there.
release() {
	(cd "$R/dists/s" &&
	    apt-ftparchive -o APT::FTPArchive::Release::Components=main \
	    release . >Release.new && mv Release.new Release)
}
# index: the Packages (plain and xz) and the Release of suite s.
index() {
	d=$R/dists/s/main/binary-amd64
	mkdir -p "$d" &&
	    (cd "$R" && dpkg-scanpackages -m pool /dev/null 2>/dev/null) >"$d/Packages" &&
	    xz -kf "$d/Packages" &&
	    release
}
deb exec -z execstack && deb clean -z noexecstack && deb other -z execstack &&
    index || fail "build the repository"
[ "$(uname -m)" = x86_64 ] || skip "the packages are amd64"

# The oracle: each ELF member of each .deb, unpacked, and what readelf
# says of its PT_GNU_STACK, "PATH!MEMBER rwx|rw".
oracle() {
	for f in "$R"/pool/main/*/*.deb; do
		rm -rf "$T/x" && dpkg-deb -x "$f" "$T/x" &&
		    (cd "$T/x" && find . -type f) | sort | while read -r m; do
			m=${m#./}
			flags=$(readelf -lW "$T/x/$m" | awk '$1 == "GNU_STACK" { print $(NF-1) }')
			[ "$flags" = RWE ] && s=exec || s=noexec
			echo "$f!$m $s"
		done
	done
}
