#!/bin/sh
# make check-packages: ./bootstrap on a fresh Debian 12 machine. In a
# throwaway view of a debootstrap'd bookworm root (tests/system/roots.sh:
# nothing is written to the machine or to the cached root) whose apt
# sources are a fresh machine's, bookworm, bookworm-updates and
# bookworm-security, and which has taken the updates, ./bootstrap deps
# installs everything the tests use, whatever updates the security suite
# carries (it once failed, exit 100, when an amd64 library's update had no
# i386 twin for multiarch); dpkg then finds every package it names
# installed and configured, and no foreign architecture added; run again,
# it has nothing left to install; the release tarball configures there
# with the Check library found.
#
# The environment (set by packaging/local.mk): top_srcdir, TARBALL. It
# needs root, as the roots do.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/system/roots.sh"
: "${TARBALL:?}"
need unshare mount chroot
[ "$(id -u)" = 0 ] || { echo "ERROR: the bootstrap's root needs root: run it as root"; exit 99; }

root_new fresh bookworm
mirror=$(roots_mirror) || { echo "ERROR: no Debian mirror found in /etc/apt/sources.list*"; exit 99; }
# The security suite from the machine's sources where it names one.
security=$(roots_source bookworm-security) ||
    security=http://deb.debian.org/debian-security
printf 'deb %s bookworm main\ndeb %s bookworm-updates main\ndeb %s bookworm-security main\n' \
    "$mirror" "$mirror" "$security" >"$T/sources.list"
root_put fresh "$T/sources.list" /etc/apt/sources.list
# The machine's network as the fresh machine would have it: its resolver,
# its local certificate authorities (a proxy's, say; ca-certificates adds
# them to the root's store when apt installs it) and Node's setting of them.
root_put fresh /etc/resolv.conf /etc/resolv.conf
for c in /usr/local/share/ca-certificates/*.crt; do
	[ -f "$c" ] && root_put fresh "$c" "$c"
done
# $net: the VAR=VALUE words of the root's environment, split on purpose.
net=HOME=/root
[ -n "${NODE_EXTRA_CA_CERTS:-}" ] && net="$net NODE_EXTRA_CA_CERTS=$NODE_EXTRA_CA_CERTS"
root_put fresh "$top_srcdir/bootstrap" /src/bootstrap 755
root_put fresh "$TARBALL" /src/chstk.tar.gz

# A machine that has taken its updates, as a fresh one has: its libraries
# at the security suite's versions, which multiarch would have to match.
root_run fresh -- /bin/sh -c 'apt-get -q update && DEBIAN_FRONTEND=noninteractive apt-get -q -y dist-upgrade' \
    >"$T/upgrade.log" 2>&1
expect "the fresh root takes its updates" "$?" 0
# shellcheck disable=SC2086
root_run fresh $net -- /src/bootstrap deps >"$T/deps.log" 2>&1
status=$?
expect "bootstrap deps in a fresh bookworm root: exit 0" "$status" 0
[ "$status" = 0 ] || { echo "bootstrap deps:"; tail -n 30 "$T/deps.log" | sed 's/^/	/'; }

# The names bootstrap installs, as its own lists give them; each one
# installed by dpkg's account.
# shellcheck disable=SC2016 # expanded by the root's shell
root_run fresh -- /bin/sh -c '
	eval "$(sed -n "/^[A-Z_]*PACKAGES=\"$/,/^\"$/p; /^AUTOTOOLS=/p" /src/bootstrap)"
	for p in $RUN_PACKAGES $AUTOTOOLS $CHECK_PACKAGES; do
		s=$(dpkg-query -W -f="\${Status}" "$p" 2>/dev/null)
		[ "$s" = "install ok installed" ] || echo "$p: ${s:-not known to dpkg}"
	done' >"$T/missing" 2>&1
expect "every package bootstrap names is installed" "$(cat "$T/missing")" ""
expect "no foreign architecture added" \
    "$(root_run fresh -- dpkg --print-foreign-architectures)" ""
expect "dpkg --audit finds nothing half-installed" "$(root_run fresh -- dpkg --audit)" ""
# shellcheck disable=SC2086
expect "the SARIF validator runs" \
    "$(root_run fresh $net -- /root/.cache/chstk/sarif-multitool/node_modules/.bin/sarif-multitool --version >/dev/null 2>&1; echo $?)" 0

# shellcheck disable=SC2086
root_run fresh $net -- /src/bootstrap deps >"$T/again.log" 2>&1
expect "bootstrap deps again: exit 0" "$?" 0
expect "bootstrap deps again: nothing to install" \
    "$(grep 'installing' "$T/again.log")" ""

# shellcheck disable=SC2016
root_run fresh -- /bin/sh -c 'cd /src && tar -xzf chstk.tar.gz && cd chstk-* &&
	./configure >/src/configure.log 2>&1 && grep -cx "HAVE_CHECK_FALSE=.#." config.log' \
    >"$T/configure" 2>&1
expect "the tarball configures in the root, finding Check" "$(cat "$T/configure")" 1
finish
