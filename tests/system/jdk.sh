#!/bin/sh
# A real JDK in a real Debian root: openjdk-17-jre-headless installed by apt
# into a throwaway view of the bookworm root. java starts there (the
# oracle), so elfscan --system must not call libjvm.so missing: the launcher
# loads lib/server/libjvm.so by its path before the JDK's libraries that
# need its soname (tests/elfscan/unresolved.sh has the rule on fixtures).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/system/roots.sh"
need unshare mount chroot
root_new jdk bookworm
root_install jdk openjdk-17-jre-headless
root_run jdk -- java -version >"$T/java" 2>&1
expect "java -version runs in the root" "$?" 0
# The case is real only while the JDK's libjava.so needs libjvm.so by
# soname and libjvm.so is nowhere but in the JDK's lib/server/ (readelf and
# find, on this machine).
# shellcheck disable=SC2016
expect "libjava.so needs libjvm.so, which is in lib/server/ only" \
    "$(root_host jdk /bin/sh -c 'r=$1
	find "$r/usr/lib/jvm" -name libjava.so -type f -exec readelf -dW {} + | grep -c "NEEDED.*\[libjvm.so\]"
	find "$r/usr" "$r/lib" "$r/lib64" -name libjvm.so -type f 2>/dev/null | sed "s|^$r||; s|/jvm/[^/]*/|/jvm/JDK/|"' \
	sh "$(root_dir jdk)")" "1
/usr/lib/jvm/JDK/lib/server/libjvm.so"
root_host jdk "$ELFSCAN" -q --summary --system "$(root_dir jdk)" >"$T/scan" 2>&1
status=$?
expect "elfscan --system on the JDK root: exit 0" "$status" 0
expect "no unresolved-library claim" "$(grep -c 'unresolved-library' "$T/scan")" 0
[ "$failures" = 0 ] || sed -n '1,5p' "$T/scan"
finish
