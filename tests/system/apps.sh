#!/bin/sh
# Real applications in a real Debian root (issue 33): the hosts that load
# what their plugins need, installed by apt into one throwaway view of the
# bookworm root and each started there (the oracles), so that every
# unresolved-library claim elfscan --system makes on that root must be
# true: the soname is a file nowhere in the root, and the root's own ld.so
# finds it for no program the claim names. The cases, each shown real by
# readelf and find before elfscan is asked:
#   python3 imports numpy and lxml (extension modules whose libraries are
#     links through /etc/alternatives, absolute, to be read in the root);
#   python3 imports uno: LibreOffice's pyuno.so, then libpyuno.so, which
#     needs libpython3.11.so.1.0 and LibreOffice's libraries by $ORIGIN;
#   gdb runs Python: the program needs libpython3.11.so.1.0;
#   perl loads JSON::XS (an XS module);
#   firefox-esr --version loads libxul.so, which needs libraries found
#     only beside it (no RUNPATH: the launcher loads them by path first);
#   soffice --version starts program/soffice.bin, whose libraries are
#     found in program/ by RUNPATH $ORIGIN;
#   Rscript loads R's stats package, whose stats.so needs libR.so, in
#     /usr/lib/R/lib/ and linked from /usr/lib.
# elfscan knows python3's modules as plugins, not libxul.so, XS modules or
# R packages (no host of theirs is known): of those it judges the programs
# (firefox-esr, soffice.bin, R's exec/R) and says nothing of the rest, so
# this guards what it says, not what it leaves out.
# The .debs are cached (root_install), so a second run downloads nothing.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/system/roots.sh"
need unshare mount chroot readelf python3
root_new apps bookworm
root_install apps python3-numpy python3-lxml python3-uno gdb libjson-xs-perl \
    firefox-esr libreoffice-core-nogui r-base-core
r=$(root_dir apps)

# on_host COMMAND: a shell COMMAND on this machine, in the root's tree ($r
# in it, and the working directory).
# shellcheck disable=SC2016
on_host() { root_host apps /bin/sh -c 'r=$1; cd "$r" && eval "$2"' sh "$r" "$1"; }
# loaded NAME COMMAND...: what glibc's LD_DEBUG=libs says of NAME when
# COMMAND runs in the root, after its own output.
loaded() {
	name=$1
	shift
	root_run apps LD_DEBUG=libs HOME=/tmp -- "$@" 2>&1 |
	    sed -n "s|^ *[0-9]*:[[:space:]]*calling init: \\(.*/$name\\)\$|init \\1|p" |
	    sort -u
}

# The oracles: each host starts and loads its plugins.
expect "python3 imports numpy.linalg and lxml.etree" \
    "$(root_run apps -- python3 -c 'import numpy.linalg, lxml.etree; print(round(numpy.linalg.det([[2, 0], [0, 21]])))' 2>&1)" 42
expect "python3 imports uno: libpyuno.so and libpython3.11.so.1.0 load" \
    "$(loaded 'libpy[^/]*' python3 -c 'import uno')" \
    "init /lib/x86_64-linux-gnu/libpython3.11.so.1.0
init /usr/lib/libreoffice/program/libpyuno.so"
expect "gdb runs Python" \
    "$(root_run apps -- gdb -q -batch -ex 'python print(6 * 7)' 2>/dev/null)" 42
expect "perl loads JSON::XS" \
    "$(root_run apps -- perl -MJSON::XS -e 'print encode_json([42])' 2>&1)" "[42]"
expect_match "firefox-esr --version runs" \
    "$(root_run apps HOME=/tmp -- firefox-esr --version 2>/dev/null)" "Mozilla Firefox *"
expect "firefox-esr --version loads libxul.so" \
    "$(loaded libxul.so firefox-esr --version)" "init /usr/lib/firefox-esr/libxul.so"
expect_match "soffice --version runs" \
    "$(root_run apps HOME=/tmp -- soffice --version 2>/dev/null)" "LibreOffice 7.*"
expect "soffice --version starts soffice.bin, which loads libmergedlo.so" \
    "$(loaded libmergedlo.so soffice --version)" "init /usr/lib/libreoffice/program/libmergedlo.so"
expect "Rscript runs R, which loads stats.so" \
    "$(loaded stats.so Rscript -e 'cat(stats::median(c(1, 42, 99)))')" \
    "init /usr/lib/R/library/stats/libs/stats.so"

# The cases are real: each library is where the comment at the top says,
# by readelf and find on this machine.
# shellcheck disable=SC2016
expect "libxul.so needs libmozsandbox.so, only beside it, and has no RUNPATH" \
    "$(on_host 'readelf -dW usr/lib/firefox-esr/libxul.so | grep -c "NEEDED.*\[libmozsandbox.so\]\|(R\(UN\)\?PATH)"
	find . -xdev -name libmozsandbox.so')" "1
./usr/lib/firefox-esr/libmozsandbox.so"
# shellcheck disable=SC2016
expect "soffice.bin needs libmergedlo.so, only in program/, by RUNPATH \$ORIGIN" \
    "$(on_host 'readelf -dW usr/lib/libreoffice/program/soffice.bin | sed -n "s/.*(\(NEEDED\|RUNPATH\)).*\[\(libmergedlo.so\|.*ORIGIN.*\)\]/\1 \2/p"
	find . -xdev -name libmergedlo.so')" "NEEDED libmergedlo.so
RUNPATH \$ORIGIN
./usr/lib/libreoffice/program/libmergedlo.so"
# shellcheck disable=SC2016
expect "numpy's linalg needs liblapack.so.3, a link through /etc/alternatives" \
    "$(on_host 'readelf -dW usr/lib/python3/dist-packages/numpy/linalg/_umath_linalg.cpython-311-x86_64-linux-gnu.so | grep -c "NEEDED.*\[liblapack.so.3\]"
	readlink usr/lib/x86_64-linux-gnu/liblapack.so.3 | sed "s/-x86_64-linux-gnu//"')" "1
/etc/alternatives/liblapack.so.3"
# shellcheck disable=SC2016
expect "gdb and libpyuno.so need libpython3.11.so.1.0" \
    "$(on_host 'for f in usr/bin/gdb usr/lib/libreoffice/program/libpyuno.so; do
		readelf -dW $f | grep -c "NEEDED.*\[libpython3.11.so.1.0\]"; done')" "1
1"

# shellcheck disable=SC2016
expect "stats.so needs libR.so, linked from /usr/lib" \
    "$(on_host 'readelf -dW usr/lib/R/library/stats/libs/stats.so | grep -c "NEEDED.*\[libR.so\]"
	readlink usr/lib/libR.so')" "1
R/lib/libR.so"

# elfscan on the root, then each claim judged by find and the root's ld.so.
root_host apps "$ELFSCAN" -q --summary --system "$r" >"$T/scan" 2>&1
expect "elfscan --system on the root of the applications: exit 0" "$?" 0
root_host apps "$ELFSCAN" -q --format=json --system "$r" >"$T/json" 2>&1
python3 - "$T/json" >"$T/claims" <<'PY' || fail "elfscan's JSON cannot be read"
import json, sys
for line in open(sys.argv[1]):
    v = json.loads(line)
    if v.get("verdict") == "unresolved-library":
        for h in v["hosts"]:
            print(v["subject"], h["path"])
PY
echo "note: $(grep -o '[0-9]* needed librar[a-z]* not found' "$T/scan"), $(wc -l <"$T/claims") programs and libraries named"
while read -r so host; do
	there=$(on_host "find . -xdev -name '$so'" </dev/null)
	[ -z "$there" ] || { fail "$so, unresolved for $host, is in the root: $there"; continue; }
	# A program: what the root's ld.so says of it, without running it.
	if on_host "readelf -lW .$host | grep -q INTERP" </dev/null; then
		expect_match "$so is not found for $host, by the root's ld.so" \
		    "$(root_run apps -- /lib64/ld-linux-x86-64.so.2 --list "$host" 2>&1 </dev/null)" \
		    "*$so => not found*"
	else
		pass "$so, unresolved for $host, is nowhere in the root"
	fi
done <"$T/claims"
# The hosts started above lack no library: no claim names them.
expect "no claim names a program or plugin that started" \
    "$(grep -c ' /usr/bin/\(python3\|gdb\|perl\)\| /usr/lib/firefox-esr/\| /usr/lib/libreoffice/program/soffice.bin\| /usr/lib/python3/dist-packages/\(numpy\|lxml\)/\| /usr/lib/R/' "$T/claims")" 0
[ "$failures" = 0 ] || sed -n '1,5p' "$T/scan"
finish
