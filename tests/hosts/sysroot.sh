#!/bin/sh
# sysroot.sh ARCH DIR: the libraries chstk builds against (libelf,
# libarchive, zlib, Check and what they depend on), for Debian architecture
# ARCH, unpacked into DIR from the .debs of the main suite.
#
# Why not multiarch: the security suite of the mirror may not carry ARCH,
# and a -dev package of ARCH must then match an amd64 one updated by the
# security suite, which apt cannot resolve. Why a private apt state: apt
# learns about ARCH and the main suite only inside DIR, so the machine's
# own apt (its architectures, sources, lists) is left as it was and no root
# is needed. The C library and the compiler's runtime come from Debian's
# cross packages (libc6-dev-ARCH-cross, libgcc-12-dev-ARCH-cross) or, for
# i386, from gcc-multilib's (libc6-dev-i386, lib32gcc-12-dev), not from
# here.
set -eu
arch=$1 dir=$2
pkgs="libelf-dev libdw-dev libarchive-dev libjson-c-dev zlib1g-dev libsqlite3-dev check"
# Given by the cross toolchain, or not needed to build or run.
toolchain="libc6 libc6-dev libgcc-s1 libgcc1 gcc-12-base libcrypt1 libcrypt-dev
libnsl2 libnsl-dev libtirpc3 libtirpc-dev libtirpc-common linux-libc-dev
libstdc++6 libgssapi-krb5-2 libkrb5-3 libk5crypto3 libkrb5support0 libcom-err2
libkeyutils1 krb5-multidev libgssrpc4 libkadm5clnt-mit12 libkadm5srv-mit12
libkdb5-10 comerr-dev libselinux1 libpcre2-8-0 debconf perl-base dpkg tar
install-info libdebconfclient0 sensible-utils libc-dev-bin mawk rpcsvc-proto"

stamp=$dir/.complete
want=$(printf '%s %s' "$arch" "$pkgs")
[ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && exit 0

. /etc/os-release
suite=${VERSION_CODENAME:?}
# The machine's mirror for the main suite; deb.debian.org without one.
mirror=$(apt-get indextargets --format '$(LABEL) $(RELEASE) $(REPO_URI)' 2>/dev/null |
    awk -v s="$suite" '$1 == "Debian" && $2 == s { print $3; exit }')
mirror=${mirror:-http://deb.debian.org/debian/}

rm -rf "$dir"
a=$dir/.apt
mkdir -p "$a/lists/partial" "$a/archives/partial" "$a/parts" "$a/debs"
: >"$a/status"
echo "deb [arch=$arch signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror $suite main" \
    >"$a/sources.list"
cat >"$a/apt.conf" <<CONF
APT::Architecture "$arch";
APT::Architectures { "$arch"; };
Dir::State "$a";
Dir::State::lists "$a/lists";
Dir::State::status "$a/status";
Dir::Cache "$a";
Dir::Cache::archives "$a/archives";
Dir::Etc::SourceList "$a/sources.list";
Dir::Etc::SourceParts "$a/parts";
Dir::Etc::preferencesparts "$a/parts";
Debug::NoLocking "true";
Acquire::Languages "none";
APT::Sandbox::User "$(id -un)";
CONF
export APT_CONFIG=$a/apt.conf
apt-get -q update
list=$(apt-cache depends --recurse --no-recommends --no-suggests \
    --no-conflicts --no-breaks --no-replaces --no-enhances $pkgs |
    awk '/^[a-z0-9]/ { print $1 }' | sort -u)
keep=
for p in $list; do
	case " $(echo $toolchain) " in
	*" $p "*) ;;
	*) keep="$keep $p" ;;
	esac
done
# shellcheck disable=SC2086
(cd "$a/debs" && apt-get -q download $keep)
for d in "$a"/debs/*.deb; do
	dpkg-deb -x "$d" "$dir"
done
printf '%s\n' "$want" >"$stamp"
