#!/bin/sh
# make check-packages: chstk as distribution packages, built from the release
# tarball ($TARBALL) and judged by the distributions' own tools. It proves:
# dpkg-buildpackage builds chstk, the library package named for the soname
# the build gave the library, libchstk-dev and dh-chstk, each holding its
# files, and lintian finds no error and no warning; the library package's
# symbols file in debian/ lists exactly what the library exports (by nm);
# rpmbuild -ta builds chstk, libchstk, libchstk-devel and chstk-rpm-macros,
# and rpmlint finds no error and no warning (packaging/rpmlint.toml says
# what it filters, and why); both builds run the library's unit tests.
# Then, in a throwaway root (an overlay over this machine's own files, in a
# mount namespace of its own: nothing is written to the machine), dpkg
# installs the .debs, a package built with
# "dh $@ --with chstk" fails under the default policy naming its program
# with an executable stack and, under --policy=fix, is built with that
# program marked noexec (by readelf and by the running kernel); rpm
# installs the rpms, a spec built by rpmbuild gets brp-chstk from the
# installed macros alone, with the same two outcomes. dpkg --purge and
# rpm -e remove them, and the root holds nothing they installed.
#
# The environment (set by packaging/local.mk): top_srcdir, TARBALL,
# PACKAGE_VERSION, CHSTK. It needs root: dpkg, rpm and chroot.
set -u
if [ -z "${CHSTK_PACKAGES_NS:-}" ]; then
	[ "$(id -u)" = 0 ] ||
	    { echo "ERROR: check-packages installs packages into a root it makes: run it as root"; exit 99; }
	# The mounts below live and die with this namespace.
	exec unshare --mount --propagation private \
	    env CHSTK_PACKAGES_NS=1 /bin/sh "$0" "$@"
fi
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/packaging/hello-spec.sh"
: "${TARBALL:?}" "${PACKAGE_VERSION:?}"
need dpkg-buildpackage dpkg-deb dpkg-architecture dpkg-parsechangelog lintian rpmbuild rpm \
    rpmlint rpm2cpio cpio chroot mount readelf nm gcc
V=$PACKAGE_VERSION
MA=$(dpkg-architecture -qDEB_HOST_MULTIARCH)

# Builds see no setting of the caller's: no ~/.rpmmacros, no DEB_* options.
mkdir -p "$T/home"
clean() {
	env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME="$T/home" LC_ALL=C \
	    TMPDIR="$T" "$@"
}

# log_of FILE: the end of a tool's output, after a failed check.
log_of() { echo "$1:"; tail -n 40 "$1" | sed 's/^/	/'; }

# logged FILE CHECK...: runs the check; if it fails, shows the end of FILE.
logged() {
	log=$1 before=$failures
	shift
	"$@"
	[ "$failures" = "$before" ] || log_of "$log"
}

# output_has WHAT FILE STRING: the build's output says STRING
output_has() {
	if grep -qF -- "$3" "$2"; then pass "$1"; else fail "$1: no '$3'"; log_of "$2"; fi
}

# has_files WHAT LISTING FILE...: each FILE is in LISTING (one path a line).
has_files() {
	what=$1 list=$2
	shift 2
	for f in "$@"; do
		if grep -qx -- "$f" "$list"; then pass "$what has $f"; else fail "$what lacks $f"; fi
	done
}

# The Debian packages, from the tarball as a user unpacks it.
D=$T/deb
mkdir "$D"
tar -xzf "$TARBALL" -C "$D"
expect "debian/changelog is at the release's version" \
    "$(dpkg-parsechangelog -l "$D/chstk-$V/debian/changelog" -S Version 2>&1)" "$V"
(cd "$D/chstk-$V" && clean DEB_BUILD_OPTIONS="parallel=2" \
    dpkg-buildpackage -us -uc -b) >"$T/deb.log" 2>&1
status=$?
logged "$T/deb.log" expect "dpkg-buildpackage -us -uc -b: builds" "$status" 0
output_has "the Debian build runs the library's unit tests" "$T/deb.log" \
    "PASS: tests/unit/check_"
lib=$(ls "$D/chstk-$V"/debian/tmp/usr/lib/"$MA"/libchstk.so.*.*.* 2>/dev/null | head -n 1)
soname=$(readelf -dW "$lib" 2>/dev/null | sed -n 's/.*(SONAME).*\[\(.*\)\]$/\1/p')
expect_match "the library has a soname" "$soname" "libchstk.so.[0-9]*"
libpkg=libchstk${soname#libchstk.so.}
debs=$(cd "$D" && ls ./*.deb | sed 's|^\./||; s/_.*//' | grep -v -- '-dbgsym$' | sort | tr '\n' ' ')
expect "the packages, the library's named for its soname" "$debs" \
    "$(printf '%s\n' chstk dh-chstk libchstk-dev "$libpkg" | sort | tr '\n' ' ')"
for p in chstk "$libpkg" libchstk-dev dh-chstk; do
	dpkg-deb -c "$D/${p}_"*.deb 2>/dev/null | awk '{ print $6 }' | sed 's|^\./|/|' \
	    >"$T/$p.files"
done
has_files chstk "$T/chstk.files" /usr/bin/chstk /usr/bin/elfscan \
    /usr/share/chstk/ld/elf_i386_small.x /usr/share/man/man1/chstk.1.gz \
    /usr/share/man/man1/elfscan.1.gz /usr/share/man/man7/elf_i386_small.7.gz
has_files "$libpkg" "$T/$libpkg.files" "/usr/lib/$MA/$soname"
has_files libchstk-dev "$T/libchstk-dev.files" /usr/include/chstk.h \
    "/usr/lib/$MA/libchstk.so" "/usr/lib/$MA/libchstk.a" \
    "/usr/lib/$MA/pkgconfig/libchstk.pc"
has_files dh-chstk "$T/dh-chstk.files" /usr/bin/dh_chstk \
    /usr/share/perl5/Debian/Debhelper/Sequence/chstk.pm \
    /usr/share/man/man1/dh_chstk.1.gz
expect_match "dh-chstk depends on the tools" \
    "$(dpkg-deb -f "$D"/dh-chstk_*.deb Depends 2>/dev/null)" "*chstk (*"
# The file kept by hand, not the one dpkg-gensymbols ships (which it
# completes from the library, whatever the check level).
expect "debian/$libpkg.symbols lists what the library exports (by nm)" \
    "$(sed -n 's/^ \([^@ ]*\)@Base .*/\1/p' "$D/chstk-$V/debian/$libpkg.symbols" 2>/dev/null | sort)" \
    "$(nm -D --defined-only "$lib" 2>/dev/null | awk '{ print $3 }' | sort)"
lintian --fail-on error,warning "$D/chstk_${V}_$(dpkg --print-architecture).changes" \
    >"$T/lintian.log" 2>&1
status=$?
logged "$T/lintian.log" expect "lintian: no error, no warning" \
    "$status $(grep -c '^[EW]: ' "$T/lintian.log")" "0 0"

# The rpms, by rpmbuild -ta as the spec file says. The build requirements
# are Debian's packages here, which rpm's database does not list.
R=$T/rpm
clean rpmbuild -ta --nodeps --define "_topdir $R" "$TARBALL" >"$T/rpm.log" 2>&1
status=$?
logged "$T/rpm.log" expect "rpmbuild -ta: builds" "$status" 0
output_has "the rpm build runs the library's unit tests" "$T/rpm.log" \
    "PASS: tests/unit/check_"
rpms=$(rpm -qp --qf '%{NAME}\n' "$R"/RPMS/*/*.rpm 2>/dev/null | grep -v -- '-debug' | sort | tr '\n' ' ')
expect "the rpms" "$rpms" "chstk chstk-rpm-macros libchstk libchstk-devel "
LIBDIR=$(rpm --eval '%{_libdir}')
for p in chstk libchstk libchstk-devel chstk-rpm-macros; do
	rpm -qlp "$R"/RPMS/*/"$p-$V"-*.rpm >"$T/$p.rpmfiles" 2>/dev/null
done
has_files "chstk rpm" "$T/chstk.rpmfiles" /usr/bin/chstk /usr/bin/elfscan \
    /usr/share/chstk/ld/elf_i386_small.x
has_files "libchstk rpm" "$T/libchstk.rpmfiles" "$LIBDIR/$soname"
has_files "libchstk-devel rpm" "$T/libchstk-devel.rpmfiles" /usr/include/chstk.h \
    "$LIBDIR/libchstk.so" "$LIBDIR/libchstk.a" "$LIBDIR/pkgconfig/libchstk.pc"
has_files "chstk-rpm-macros rpm" "$T/chstk-rpm-macros.rpmfiles" \
    /usr/lib/rpm/brp-chstk /usr/lib/rpm/macros.d/macros.chstk
tar -xzf "$TARBALL" -C "$T" "chstk-$V/chstk.spec"
clean rpmlint -c "$top_srcdir/packaging/rpmlint.toml" "$T/chstk-$V/chstk.spec" \
    "$R"/RPMS/*/*.rpm "$R"/SRPMS/*.rpm >"$T/rpmlint.log" 2>&1
status=$?
logged "$T/rpmlint.log" expect_match "rpmlint: no error, no warning" \
    "$status $(tail -n 1 "$T/rpmlint.log")" "0 *0 errors, 0 warnings*"

# The throwaway root: this machine's files below, what the packages change
# above, on a tmpfs. The devices are a few made for it; the builds happen
# in /build, $T/work from outside.
O=$T/overlay
M=$O/root
W=$T/work
mkdir -p "$O" "$W/tmp" "$W/home"
trap 'umount -R -l "$O" 2>/dev/null; rm -rf --one-file-system "$T"' EXIT
mount -t tmpfs tmpfs "$O" && mkdir "$O/upper" "$O/work" "$M" &&
    mount -t overlay overlay -o "lowerdir=/,upperdir=$O/upper,workdir=$O/work" "$M" &&
    mkdir -p "$M/build" && mount --bind "$W" "$M/build" &&
    mount -t tmpfs tmpfs "$M/tmp" && mount -t tmpfs tmpfs "$M/dev" &&
    mount -t proc proc "$M/proc"
expect "the throwaway root is mounted" "$?" 0
for dev in null:1:3 zero:1:5 full:1:7 random:1:8 urandom:1:9; do
	IFS=: read -r name major minor <<EOF
$dev
EOF
	mknod -m 666 "$M/dev/$name" c "$major" "$minor"
done
ln -s /proc/self/fd "$M/dev/fd"
inroot() {
	chroot "$M" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/build/home \
	    LC_ALL=C TMPDIR=/build/tmp "$@"
}

# leftovers WHEN: what the root holds now that this machine does not,
# beyond the package managers' own records: files, links, and directories
# this machine lacks. (Deleted files of the machine show as whiteouts.)
leftovers() {
	left=$(cd "$O/upper" && find . -mindepth 1 ! -type c ! -path ./build \
	    ! -path './var/lib/dpkg/*' ! -path './var/log/dpkg.log' \
	    ! -path ./var/lib/rpm ! -path './var/lib/rpm/*' ! -path './var/cache/man/*' \
	    ! -path './var/cache/ldconfig/*' ! -path './etc/ld.so.cache' |
	    while read -r f; do
		[ -d "$O/upper/$f" ] && [ -d "/$f" ] && continue
		echo "${f#.}"
	    done)
	expect "$1: nothing left behind" "$left" ""
}

# The Debian package that uses the installed addon.
S=$W/hello
mkdir -p "$S/debian/source"
cp "$FIX/hello.c" "$FIX/stack_perms.h" "$S/"
echo '3.0 (native)' >"$S/debian/source/format"
printf '%s\n' 'Source: chstk-hello' 'Section: misc' 'Priority: optional' \
    'Maintainer: chstk tests <tests@example.invalid>' \
    'Build-Depends: debhelper-compat (= 13), dh-chstk' \
    'Standards-Version: 4.6.2' 'Rules-Requires-Root: no' '' \
    'Package: chstk-hello' 'Architecture: any' \
    'Depends: ${shlibs:Depends}, ${misc:Depends}' \
    'Description: two programs, one linked with an executable stack' \
    ' A package for the tests of the installed dh-chstk.' >"$S/debian/control"
printf '%s\n' 'chstk-hello (1) unstable; urgency=medium' '' '  * A test.' '' \
    ' -- chstk tests <tests@example.invalid>  Thu, 03 Dec 2026 00:00:00 +0000' \
    >"$S/debian/changelog"
# debian_rules [OVERRIDE-LINE]
debian_rules() {
	{
		printf '#!/usr/bin/make -f\n%%:\n\tdh $@ --with chstk\n'
		printf 'override_dh_auto_build:\n'
		printf '\tgcc -o hello hello.c\n\tgcc -z execstack -o hello-exec hello.c\n'
		printf 'override_dh_auto_install:\n'
		printf '\tinstall -D -m 755 -t debian/chstk-hello/usr/bin hello hello-exec\n'
		printf 'override_dh_auto_clean:\n\trm -f hello hello-exec\n'
		[ -n "${1:-}" ] && printf 'override_dh_chstk:\n\t%s\n' "$1"
	} >"$S/debian/rules"
	chmod +x "$S/debian/rules"
}

debs=$(cd "$D" && ls ./*.deb | grep -v -- '-dbgsym_' | sed 's|^\./|/build/debs/|')
mkdir "$W/debs" && cp "$D"/*.deb "$W/debs/"
# shellcheck disable=SC2086
inroot dpkg -i $debs >"$T/dpkg-i.log" 2>&1
logged "$T/dpkg-i.log" expect "dpkg -i: the .debs install" "$?" 0
expect "the installed dh_chstk is dh-chstk's" \
    "$(inroot dpkg -S /usr/bin/dh_chstk 2>&1)" "dh-chstk: /usr/bin/dh_chstk"
expect "the installed addon is dh-chstk's" \
    "$(inroot dpkg -S /usr/share/perl5/Debian/Debhelper/Sequence/chstk.pm 2>&1)" \
    "dh-chstk: /usr/share/perl5/Debian/Debhelper/Sequence/chstk.pm"

debian_rules
inroot sh -c 'cd /build/hello && dpkg-buildpackage -us -uc -b' \
    >"$T/hello-fail.log" 2>&1
expect_match "dh --with chstk, default policy: the build fails at dh_chstk" \
    "$? $(awk '{ sub(/:$/, "", $1) } $1 ~ /^dh_/ { w = $1 } END { print w }' "$T/hello-fail.log")" \
    "[1-9]* dh_chstk"
output_has "dh --with chstk, default policy: names hello-exec" "$T/hello-fail.log" \
    "dh_chstk: error: debian/chstk-hello/usr/bin/hello-exec: executable stack"

debian_rules 'dh_chstk --policy=fix'
inroot sh -c 'cd /build/hello && dpkg-buildpackage -us -uc -b' \
    >"$T/hello-fix.log" 2>&1
logged "$T/hello-fix.log" expect "dh --with chstk, --policy=fix: builds" "$?" 0
dpkg-deb -x "$W"/chstk-hello_1_*.deb "$T/hello-deb" 2>/dev/null
expect "the .deb's hello-exec is RW by readelf" \
    "$(readelf_stack "$T/hello-deb/usr/bin/hello-exec")" RW
expect "the kernel gives it a non-executable stack" \
    "$("$T/hello-deb/usr/bin/hello-exec" 2>/dev/null | stack_of)" rw-p

inroot dpkg --purge dh-chstk libchstk-dev chstk "$libpkg" >"$T/purge.log" 2>&1
logged "$T/purge.log" expect "dpkg --purge: removes them" "$?" 0
expect "dpkg lists none of them" \
    "$(inroot dpkg-query -W -f '${db:Status-Abbrev} ${Package}\n' chstk "$libpkg" libchstk-dev dh-chstk 2>/dev/null | grep -v '^un ')" ""
leftovers "after dpkg --purge"

# The rpms, into the same root. rpm's %_libdir is /usr/lib64: this root
# gets what an rpm system's filesystem package gives, the directories
# there, and its dynamic linker is told to search it.
rpmroot() { rpm --root "$M" --dbpath /var/lib/rpm "$@"; }
lib64=$(cd "$M" && for d in "${LIBDIR#/}" "${LIBDIR#/}/pkgconfig"; do [ -d "$d" ] || echo "$d"; done)
(cd "$M" && for d in $lib64; do mkdir "$d"; done)
echo "$LIBDIR" >"$M/etc/ld.so.conf.d/chstk-test-rpm.conf"
# Debian's libraries are not in rpm's database: no dependency can be met.
rpmroot -i --nodeps "$R"/RPMS/*/*.rpm >"$T/rpm-i.log" 2>&1
logged "$T/rpm-i.log" expect "rpm --root -i: the rpms install" "$?" 0
expect "the installed brp-chstk is chstk-rpm-macros'" \
    "$(rpmroot -qf --qf '%{NAME}\n' /usr/lib/rpm/brp-chstk 2>&1)" chstk-rpm-macros

mkdir -p "$W/rpmhello/SOURCES" "$W/rpmhello/SPECS"
cp "$FIX/hello.c" "$FIX/stack_perms.h" "$W/rpmhello/SOURCES/"
write_spec "$W/rpmhello/SPECS/hello.spec"
# rpmbuild keeps the script of a failed section in %_tmppath.
inroot rpmbuild --define '_topdir /build/rpmhello' \
    --define '_tmppath /build/tmp' -bb \
    /build/rpmhello/SPECS/hello.spec >"$T/rpmhello-fail.log" 2>&1
expect "rpmbuild, default policy: the build fails" "$?" 1
output_has "rpmbuild, default policy: names hello-exec" "$T/rpmhello-fail.log" \
    "brp-chstk: /usr/bin/hello-exec: executable stack"
inroot rpmbuild --define '_topdir /build/rpmhello' \
    --define '_tmppath /build/tmp' --define 'chstk_policy fix' \
    -bb /build/rpmhello/SPECS/hello.spec >"$T/rpmhello-fix.log" 2>&1
logged "$T/rpmhello-fix.log" expect "rpmbuild, %chstk_policy fix: builds" "$?" 0
mkdir "$T/hello-rpm"
(cd "$T/hello-rpm" && rpm2cpio "$W"/rpmhello/RPMS/*/chstk-hello-1-1.*.rpm | cpio -idm --quiet)
expect "the rpm's hello-exec is RW by readelf" \
    "$(readelf_stack "$T/hello-rpm/usr/bin/hello-exec")" RW
expect "the kernel gives it a non-executable stack" \
    "$("$T/hello-rpm/usr/bin/hello-exec" 2>/dev/null | stack_of)" rw-p

rpmroot -e chstk-rpm-macros libchstk-devel chstk libchstk >"$T/rpm-e.log" 2>&1
logged "$T/rpm-e.log" expect "rpm -e: removes them" "$?" 0
expect "rpm lists none of them" \
    "$(rpmroot -qa --qf '%{NAME}\n' 2>&1 | grep -E '^(lib)?chstk')" ""
rm -f "$M/etc/ld.so.conf.d/chstk-test-rpm.conf"
# rmdir: a file that rpm -e left there is reported below.
(cd "$M" && for d in $(printf '%s\n' $lib64 | sort -r); do rmdir "$d"; done)
inroot ldconfig
leftovers "after rpm -e"
finish
