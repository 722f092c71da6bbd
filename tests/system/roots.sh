# tests/system/roots.sh - sourced by the system tests, after tests/lib.sh:
# real Debian roots made by debootstrap, whose glibc is the oracle for what
# a system does with an executable-stack request, and throwaway views of
# them to run programs in.
#
#   root_path SUITE     print the cached root of SUITE (bookworm, trixie,
#                       forky, sid), building it the first time; status 99
#                       and an ERROR line when it cannot be built
#   root_new NAME SUITE a throwaway view NAME of SUITE's root, in $T: the
#                       cached root below (never written), NAME's changes
#                       above; exits 99 when the root cannot be built
#   root_view NAME DIR  the same of the tree DIR (an unpacked image), never
#                       written either
#   root_put NAME FILE PATH [MODE]
#                       place FILE at PATH in view NAME (directories made,
#                       the root's own symbolic links followed)
#   root_put_tree NAME DIR
#                       place DIR's files at the same paths under the view's
#                       / at once (a directory that is a symbolic link in
#                       the root stays one)
#   root_cat NAME PATH  print PATH as view NAME holds it
#   root_run NAME [VAR=VALUE...] -- COMMAND [ARG...]
#                       run COMMAND in view NAME and return its status
#   root_ldconfig NAME  run the root's ldconfig in view NAME
#   root_install NAME PACKAGE...
#                       install PACKAGEs and what they depend on (no
#                       recommends) by apt-get in view NAME of a suite's
#                       root, from the root's own sources; exits 99 when
#                       apt cannot. The .debs and apt's lists are kept in
#                       $XDG_CACHE_HOME/chstk/apt/SUITE, bound into the view
#                       for the install only, so that another run
#                       downloads nothing it has; dpkg leaves out
#                       /usr/share/doc, man and locale, and syncs nothing
#   root_host NAME COMMAND [ARG...]
#                       run COMMAND on this machine (not in the root) while
#                       view NAME is mounted at $(root_dir NAME), as a
#                       directory a tool given a root reads
#   root_dir NAME       print where root_host mounts view NAME
#   roots_mirror        the machine's Debian mirror, which builds the roots
#   roots_source SUITE  the first URI of the machine's apt sources for SUITE
#
# And the fixtures placed in roots, built by the caller's cc (its gcc and
# flags) with --no-as-needed, so that every library named is needed; FILE
# is under $B unless it is absolute:
#
#   fixture_lib FILE SONAME EXTRA...
#                       a library answering 42 (lib.c), linked with EXTRA
#   fixture_prog FILE EXTRA...
#                       a program (hello.c) linked with EXTRA
#
# A root is cached under $XDG_CACHE_HOME/chstk/roots/SUITE-KEY, KEY a hash
# of ROOTS_VERSION, the suite and the packages it holds: a change to either
# makes a new root. It is read-only by convention: nothing here writes to a
# built root. It is built beside its final name and renamed into place, with
# builds locked (flock on one lock file beside the roots) so two tests
# sharing a cache do not build a root twice; a failed build leaves nothing
# behind.
#
# Every root_run is a mount namespace of its own: the view is an overlay
# mounted afresh (the cached root as its lower layer, the view's changes in
# $T as its upper layer), with /proc, a tmpfs on /dev holding the usual
# devices and a tmpfs on /tmp; the command runs chrooted there, as root,
# with an environment of PATH, LC_ALL=C and the VAR=VALUE given, nothing
# else. Nothing it mounts is seen outside, and nothing it does reaches the
# cache. It needs root: debootstrap, mount and chroot do.

fixture_lib() {
	f=$1 so=$2
	shift 2
	case $f in /*) ;; *) f=$B/$f ;; esac
	cc -shared -fPIC -Wl,--no-as-needed -Wl,--no-warn-execstack \
	    -Wl,-soname,"$so" -o "$f" "$FIX/lib.c" "$@"
}
fixture_prog() {
	f=$1
	shift
	case $f in /*) ;; *) f=$B/$f ;; esac
	cc -o "$f" "$FIX/hello.c" -Wl,--no-as-needed -Wl,--no-warn-execstack "$@"
}

# Bump when the way a root is made changes, so that caches rebuild.
ROOTS_VERSION=1
# What the oracles need beyond minbase: python3 imports an extension module,
# PAM loads a module for a PAM host (libpam-modules brings pam_unix.so, and
# libpam-runtime the /etc/pam.d/other that pam_start falls back on); getent
# (libc-bin, in minbase) loads an NSS module.
ROOTS_INCLUDE="python3 libpam0g libpam-modules libpam-runtime"
ROOTS_CACHE=${XDG_CACHE_HOME:-$HOME/.cache}/chstk/roots
ROOTS_APT=${XDG_CACHE_HOME:-$HOME/.cache}/chstk/apt

# The Debian mirror this machine's apt uses: the first source of Debian
# packages for the machine's own release (CHSTK_MIRROR overrides it).
roots_mirror() {
	if [ -n "${CHSTK_MIRROR:-}" ]; then
		echo "$CHSTK_MIRROR"
		return 0
	fi
	# shellcheck disable=SC1091
	roots_codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
	roots_source "$roots_codename"
}
# roots_source SUITE: the first URI of the machine's apt sources that
# serves SUITE (bookworm, bookworm-security); status 1 when none does.
roots_source() {
	cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list \
	    /etc/apt/sources.list.d/*.sources 2>/dev/null | awk -v want="$1" '
		function pick(uri) { if (!found) { found = uri; print uri } }
		# one-line form: deb [options] URI SUITE COMPONENT...
		$1 == "deb" {
			i = 2
			if ($i ~ /^\[/) while (i <= NF && $i !~ /\]$/) i++
			if ($i ~ /\]$/) i++
			if ($(i + 1) == want) pick($(i))
			next
		}
		# deb822 form: stanzas of Types, URIs, Suites
		/^[ \t]*$/ { if (types ~ /(^| )deb( |$)/ && (" " suites " ") ~ (" " want " ")) pick(uri)
			types = uris = suites = ""; next }
		$1 == "Types:" { $1 = ""; types = $0 " " }
		$1 == "URIs:" { uri = $2 }
		$1 == "Suites:" { $1 = ""; suites = $0 }
		END { if (types ~ /(^| )deb( |$)/ && (" " suites " ") ~ (" " want " ")) pick(uri)
			exit !found }'
}

roots_key() {
	# shellcheck disable=SC2086
	printf '%s\n' "$ROOTS_VERSION" "$1" $ROOTS_INCLUDE | sha256sum | cut -c1-12
}

root_path() {
	[ "$(id -u)" = 0 ] ||
	    { echo "ERROR: debootstrap roots need root: run the test as root" >&2; return 99; }
	roots_dir=$ROOTS_CACHE/$1-$(roots_key "$1")
	if [ ! -d "$roots_dir" ]; then
		mkdir -p "$ROOTS_CACHE" &&
		    (flock 9 && roots_build "$1" "$roots_dir") 9>"$ROOTS_CACHE/build.lock" ||
		    return 99
	fi
	echo "$roots_dir"
}

# roots_build SUITE DIR: debootstrap SUITE into a directory beside DIR, then
# rename it to DIR. Called with the lock held, so that what is found beside
# DIR is a build that was killed: it goes first.
roots_build() {
	[ -d "$2" ] && return 0
	rm -rf --one-file-system "$2".tmp.*
	roots_mir=$(roots_mirror) ||
	    { echo "ERROR: no Debian mirror found in /etc/apt/sources.list*: set CHSTK_MIRROR" >&2; return 99; }
	# debootstrap knows a suite by the script of that name; a suite it is
	# too old to know (forky) is bootstrapped as sid is.
	roots_script=/usr/share/debootstrap/scripts/$1
	[ -e "$roots_script" ] || roots_script=/usr/share/debootstrap/scripts/sid
	roots_tmp=$(mktemp -d "$2.tmp.XXXXXX") || return 99
	echo "note: building the $1 root from $roots_mir in $2 (debootstrap, a few minutes)" >&2
	roots_start=$(date +%s)
	if ! nice -n 10 debootstrap --variant=minbase \
	    --include="$(echo "$ROOTS_INCLUDE" | tr ' ' ,)" \
	    "$1" "$roots_tmp" "$roots_mir" "$roots_script" >"$roots_tmp.log" 2>&1; then
		tail -n 5 "$roots_tmp.log" | sed 's/^/  debootstrap: /' >&2
		rm -rf --one-file-system "$roots_tmp" "$roots_tmp.log"
		echo "ERROR: debootstrap $1 from $roots_mir failed" >&2
		return 99
	fi
	# The packages and apt's lists are a third of the root, and no test
	# installs anything: apt-get update brings the lists back.
	rm -rf "$roots_tmp.log" "$roots_tmp"/var/cache/apt/archives/*.deb "$roots_tmp"/var/lib/apt/lists/*
	chmod 755 "$roots_tmp"
	mv -T "$roots_tmp" "$2" || { rm -rf --one-file-system "$roots_tmp"; return 99; }
	echo "note: built the $1 root in $(($(date +%s) - roots_start)) s," \
	    "$(du -sm "$2" | cut -f1) MB" >&2
}

root_new() {
	roots_lower=$(root_path "$2") || exit 99
	root_view "$1" "$roots_lower" "$2"
}

root_view() {
	roots_v=$T/roots/$1
	mkdir -p "$roots_v/upper" "$roots_v/work" "$roots_v/mnt" &&
	    ln -s "$2" "$roots_v/lower" &&
	    echo "${3:-}" >"$roots_v/suite" ||
	    { echo "ERROR: root_view: cannot make $roots_v" >&2; exit 99; }
}

# The script a view's namespace runs: mount the view afresh, then chroot.
# Arguments: the view's directory, the directories bound into it for this
# command (lines "PATH-IN-ROOT DIRECTORY", $roots_binds), then env's
# arguments.
roots_enter='
v=$1 binds=$2; shift 2
m=$v/mnt
up() { echo "ERROR: root_run: $*" >&2; exit 99; }
mount -t overlay overlay -o "lowerdir=$v/lower,upperdir=$v/upper,workdir=$v/work" "$m" ||
    up "cannot mount the overlay over $(readlink "$v/lower")"
mount -t proc proc "$m/proc" && mount -t tmpfs -o mode=1777 tmpfs "$m/tmp" &&
    mount -t tmpfs -o mode=755 tmpfs "$m/dev" || up "cannot mount /proc, /tmp or /dev"
for d in null:3 zero:5 full:7 random:8 urandom:9; do
	mknod -m 666 "$m/dev/${d%:*}" c 1 "${d#*:}" || up "cannot make /dev/${d%:*}"
done
ln -s /proc/self/fd "$m/dev/fd"
while read -r to from; do
	[ -n "$to" ] || continue
	mount --bind "$from" "$m$to" || up "cannot bind $from at $to"
done <<EOF
$binds
EOF
exec chroot "$m" /usr/bin/env -i \
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin LC_ALL=C "$@"
'

root_run() {
	roots_v=$T/roots/$1
	shift
	[ -L "$roots_v/lower" ] || { echo "ERROR: root_run: no view $roots_v: call root_new" >&2; return 99; }
	# env's arguments: the VAR=VALUE, then the command; "--" goes.
	roots_found='' roots_after=0
	for roots_a in "$@"; do
		shift
		if [ -z "$roots_found" ] && [ "$roots_a" = -- ]; then
			roots_found=1
			continue
		fi
		[ -n "$roots_found" ] && roots_after=$((roots_after + 1))
		set -- "$@" "$roots_a"
	done
	[ "$roots_after" -gt 0 ] || { echo "ERROR: root_run: no -- COMMAND" >&2; return 99; }
	unshare --mount --propagation private /bin/sh -c "$roots_enter" sh \
	    "$roots_v" "${roots_binds:-}" "$@"
}

root_put() {
	root_run "$1" -- /bin/sh -c 'mkdir -p "${1%/*}" && cat >"$1" && chmod "$2" "$1"' \
	    sh "$3" "${4:-644}" <"$2" ||
	    { echo "ERROR: root_put: cannot place $2 at $3 in $1" >&2; exit 99; }
}

root_put_tree() {
	tar -C "$2" -cf - . | root_run "$1" -- \
	    tar -xf - -C / --keep-directory-symlink --no-overwrite-dir ||
	    { echo "ERROR: root_put_tree: cannot place $2 in $1" >&2; exit 99; }
}

root_cat() { root_run "$1" -- cat "$2"; }

root_ldconfig() {
	root_run "$1" -- ldconfig ||
	    { echo "ERROR: root_ldconfig: ldconfig failed in $1" >&2; exit 99; }
}

# The cache is locked (flock) for the install: apt will not share it.
# apt fetches the lists again only where the mirror has newer ones, and
# autoclean drops the .debs the mirror no longer has. The cache belongs to
# this machine's root, not to the root's sandbox user _apt: apt downloads
# as root. A view is thrown away and its tests read programs, not manuals:
# dpkg need not sync what it writes, nor write the documentation (apps.sh's
# install, warm, took 70 s instead of 115 s on two loaded cores).
root_install() {
	roots_name=$1
	shift
	roots_suite=$(cat "$T/roots/$roots_name/suite" 2>/dev/null) &&
	    [ -n "$roots_suite" ] ||
	    { echo "ERROR: root_install: $roots_name is no view of a suite's root" >&2; exit 99; }
	roots_cache=$ROOTS_APT/$roots_suite
	mkdir -p "$roots_cache/archives/partial" "$roots_cache/lists/partial" ||
	    { echo "ERROR: root_install: cannot make $roots_cache" >&2; exit 99; }
	root_put "$roots_name" /etc/resolv.conf /etc/resolv.conf
	printf '%s\n' force-unsafe-io 'path-exclude=/usr/share/doc/*' \
	    'path-exclude=/usr/share/man/*' 'path-exclude=/usr/share/locale/*' \
	    >"$T/roots/$roots_name/dpkg.cfg" ||
	    { echo "ERROR: root_install: cannot write $T/roots/$roots_name/dpkg.cfg" >&2; exit 99; }
	root_put "$roots_name" "$T/roots/$roots_name/dpkg.cfg" \
	    /etc/dpkg/dpkg.cfg.d/chstk-test
	roots_binds="/var/cache/apt/archives $roots_cache/archives
/var/lib/apt/lists $roots_cache/lists"
	# shellcheck disable=SC2016
	(flock 9 && root_run "$roots_name" DEBIAN_FRONTEND=noninteractive -- \
	    /bin/sh -c 'o="-q -y -o APT::Sandbox::User=root"
		apt-get $o update && apt-get $o --no-install-recommends install "$@" &&
		    apt-get $o autoclean' sh "$@") \
	    9>"$roots_cache/lock" >"$T/roots/$roots_name/install.log" 2>&1
	roots_status=$?
	roots_binds=
	[ "$roots_status" = 0 ] || {
		tail -n 5 "$T/roots/$roots_name/install.log" | sed 's/^/  apt-get: /' >&2
		echo "ERROR: root_install: apt-get cannot install $* in $roots_name" >&2
		exit 99
	}
}

root_dir() { echo "$T/roots/$1/mnt"; }

root_host() {
	roots_v=$T/roots/$1
	shift
	[ -L "$roots_v/lower" ] || { echo "ERROR: root_host: no view $roots_v: call root_new" >&2; return 99; }
	unshare --mount --propagation private /bin/sh -c '
v=$1; shift
mount -t overlay overlay -o "lowerdir=$v/lower,upperdir=$v/upper,workdir=$v/work" "$v/mnt" ||
    { echo "ERROR: root_host: cannot mount the overlay over $(readlink "$v/lower")" >&2; exit 99; }
exec "$@"' sh "$roots_v" "$@"
}
