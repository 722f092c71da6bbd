#!/bin/sh
# elfscan apt:http://HOST:PORT/PATH:SUITE:COMPONENT: the repository of
# repo-apt.sh, served by a local HTTP server (repo-server.py), is reported
# as the same repository read from its directory is, and as dpkg-deb -x
# and readelf -lW say; a second run fetches no package nor index (the
# server's log shows no GET of them) and the cache holds each package
# under its own SHA256. A package that answers 404 or 500, that stalls
# after its headers, or whose body is not the index's; a Release that is
# not there; a refused connection: each one error line naming the URL,
# exit 2, in a bounded time, and the rest reported. Every run is under
# timeout 60: with ELFSCAN_FETCH_STALL=2 a stalling package takes about
# 25 s (3 tries, each the bound after libcurl's 5 s speed window, 1 s and
# 2 s apart), with the default 30 s over 100 s; the others take seconds.
# Nothing of a failed fetch is left under the cache's name, even when
# elfscan is killed mid-fetch.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/elfscan/apt-repo.sh"
: "${top_builddir:?}"
need timeout sha256sum
if ! grep -q '^#define HAVE_LIBCURL 1' "$top_builddir/config.h"; then
	S "apt:http://127.0.0.1:9/repo:s:main" >/dev/null 2>"$T/err"
	expect "without libcurl, a URL: exit 2" "$?" 2
	expect "without libcurl, a URL: said" "$(cat "$T/err")" \
	    "elfscan: apt:http://127.0.0.1:9/repo:s:main: elfscan was built without libcurl: name a directory"
	finish
fi
# The local server only, whatever proxy the environment names.
unset http_proxy https_proxy HTTPS_PROXY all_proxy ALL_PROXY
no_proxy='*' NO_PROXY='*'
C=$T/cache/elfscan
XDG_CACHE_HOME=$T/cache ELFSCAN_FETCH_STALL=2
export no_proxy NO_PROXY XDG_CACHE_HOME ELFSCAN_FETCH_STALL
Sb() { timeout 60 "$ELFSCAN" --no-progress "$@"; }

python3 "$top_srcdir/tests/elfscan/repo-server.py" "$T" "$T/log" "$T/port" "$T/bad" &
server=$!
trap 'kill "$server"; rm -rf "$T"' EXIT
timeout "$hang" sh -c 'while [ ! -s "$1" ]; do sleep 0.1; done' - "$T/port" ||
    fail "the server listens"
U=http://127.0.0.1:$(cat "$T/port")/repo

# Each package's copy in the cache, named as the pool names it.
for f in "$R"/pool/main/*/*.deb; do
	echo "s|\"$C/by-sha256/$(sha256sum <"$f" | cut -d ' ' -f 1)\"|\"$f\"|"
done >"$T/names.sed"
# The JSON Lines of a run by URL, each package as from the directory.
as_dir() { sed -f "$T/names.sed" | sort; }
pool_gets() { grep -c '^GET /repo/pool/' "$T/log"; }

oracle >"$T/good"
S --format=json "apt:$R:s:main" | sort >"$T/dir"
Sb --format=json "apt:$U:s:main" >"$T/out" 2>"$T/err"
expect "by URL: findings, exit 1" "$?" 1
expect "by URL: no message" "$(cat "$T/err")" ""
expect "by URL: what the directory gives, line for line" \
    "$(as_dir <"$T/out")" "$(cat "$T/dir")"
expect "by URL: every ELF member's stack is what readelf says" \
    "$(as_dir <"$T/out" | json_stacks)" "$(cat "$T/good")"
expect "by URL: six members of three packages" "$(json_stacks <"$T/out" | wc -l)" 6
expect "by URL: each package fetched once" "$(pool_gets)" 3
for f in "$C"/by-sha256/*; do
	[ "$(sha256sum <"$f" | cut -d ' ' -f 1)" = "${f##*/}" ] || echo "$f"
done >"$T/misnamed"
expect "the cache holds each package under its SHA256" \
    "$(ls "$C/by-sha256" | wc -l) $(cat "$T/misnamed")" "3 "

: >"$T/log"
Sb --format=json "apt:$U:s:main" >"$T/out" 2>"$T/err"
expect "a second run: exit 1" "$?" 1
expect "a second run: the same report" "$(as_dir <"$T/out")" "$(cat "$T/dir")"
expect "a second run: no package fetched" "$(pool_gets)" 0
expect "a second run: no index fetched, the copy is the Release's" \
    "$(grep -c '^GET /repo/dists/s/main/' "$T/log")" 0
expect_match "a second run: the Release fetched again" "$(cat "$T/log")" \
    "*GET /repo/dists/s/Release*"

# run WHAT HOW PATTERN: the package other served as HOW says
# (repo-server.py) and not in the cache: one error line matching PATTERN,
# exit 2, every other package reported, and no copy of other kept.
O=pool/main/other/other_1_amd64.deb
Oc=$C/by-sha256/$(sha256sum <"$R/$O" | cut -d ' ' -f 1)
run() {
	echo "/repo/$O $2" >"$T/bad"
	rm -f "$Oc"
	: >"$T/log"
	Sb --format=json "apt:$U:s:main" >"$T/out" 2>"$T/err"
	expect "$1: exit 2, within 60 s" "$?" 2
	expect "$1: one error line" "$(wc -l <"$T/err")" 1
	expect_match "$1: the error names it" "$(cat "$T/err")" "$3"
	expect "$1: the other packages reported" "$(as_dir <"$T/out" | json_stacks)" \
	    "$(grep -v '/other_1_amd64.deb!' "$T/good")"
	expect "$1: nothing of it in the cache, not even a temporary file" \
	    "$(ls -A "$C/by-sha256" | grep -e '^\.' -e "^${Oc##*/}\$")" ""
	: >"$T/bad"
}
run "a package that answers 404" 404 \
    "elfscan: $U/$O: package other 1: cannot fetch: HTTP 404"
expect "404 is not asked again" "$(grep -c "^GET /repo/$O\$" "$T/log")" 1
run "a package that answers 500" 500 \
    "elfscan: $U/$O: package other 1: cannot fetch: HTTP 500, 3 tries"
expect "500 is asked 3 times, no more" "$(grep -c "^GET /repo/$O\$" "$T/log")" 3
run "a package that stalls" stall \
    "elfscan: $U/$O: package other 1: cannot fetch: stalled: less than 1 byte/s for 2 s, 3 tries"
run "a package whose bytes are not the index's" wrong \
    "elfscan: $U/$O: package other 1: its SHA256 is not the index's"
Sb --format=json "apt:$U:s:main" >"$T/out" 2>&1
expect "served right again: fetched, exit 1" "$? $(ls "$Oc")" "1 $Oc"

# Killed in the middle of a fetch: no part of the package under its name.
echo "/repo/$O stall" >"$T/bad"
rm -f "$Oc"
: >"$T/log"
ELFSCAN_FETCH_STALL=3600 "$ELFSCAN" --no-progress "apt:$U:s:main" >/dev/null 2>&1 &
scan=$!
# Until the server is asked for other, or elfscan has ended without.
timeout "$hang" sh -c 'until grep -qx "GET $1" "$2" || ! kill -0 "$3"; do sleep 0.1; done' - \
    "/repo/$O" "$T/log" "$scan"
expect "killed mid-fetch: elfscan asked for other" \
    "$(grep -cx "GET /repo/$O" "$T/log")" 1
kill -KILL "$scan" 2>/dev/null
wait "$scan"
expect "killed mid-fetch: no file under the package's name" \
    "$(ls "$Oc" 2>/dev/null)" ""
expect_match "killed mid-fetch: what came is under a temporary name" \
    "$(ls -A "$C/by-sha256")" "*.${Oc##*/}.??????*"
: >"$T/bad"

# A Release that is not there: the repository is skipped.
Sb "apt:${U%/repo}/none:s:main" >/dev/null 2>"$T/err"
expect "no Release: exit 2" "$?" 2
expect "no Release: one line naming its URL" "$(cat "$T/err")" \
    "elfscan: apt:${U%/repo}/none:s:main: ${U%/repo}/none/dists/s/Release: cannot fetch: HTTP 404: repository skipped"

# An index that is not there: the next form the Release lists is read. An
# index whose bytes are not the Release's: the component is skipped.
X=/repo/dists/s/main/binary-amd64/Packages.xz
rm -f "$C"/lists/*
echo "$X 404" >"$T/bad"
Sb --format=json "apt:$U:s:main" >"$T/out" 2>"$T/err"
expect "Packages.xz not there: the plain Packages read, exit 1" \
    "$? $(cat "$T/err")" "1 "
expect "Packages.xz not there: the same report" "$(as_dir <"$T/out")" \
    "$(cat "$T/dir")"
rm -f "$C"/lists/*
echo "$X wrong" >"$T/bad"
Sb --format=json "apt:$U:s:main" >"$T/out" 2>"$T/err"
expect "an index not the Release's: exit 2" "$?" 2
expect "an index not the Release's: one line naming it" "$(cat "$T/err")" \
    "elfscan: apt:$U:s:main: main/binary-amd64/Packages.xz: its SHA256 is not the Release's: component main skipped"
: >"$T/bad"

# A refused connection: that repository skipped, the next one read.
dead=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
D=http://127.0.0.1:$dead/repo
Sb --format=json "apt:$D:s:main" "apt:$U:s:main" >"$T/out" 2>"$T/err"
expect "a refused connection: exit 2, within 60 s" "$?" 2
expect "a refused connection: one line" "$(wc -l <"$T/err")" 1
expect_match "a refused connection: the line names the URL" "$(cat "$T/err")" \
    "elfscan: apt:$D:s:main: $D/dists/s/InRelease: cannot fetch: *connect*, 3 tries: repository skipped"
expect "a refused connection: the other repository reported" \
    "$(as_dir <"$T/out")" "$(cat "$T/dir")"

# The URL's authority holds the port's ':'; a URL must have a path.
S "apt:${U%/repo}:s:main" >/dev/null 2>"$T/err"
expect "a URL without a path: refused" "$(cat "$T/err")" \
    "elfscan: apt:${U%/repo}:s:main: not apt:URL:SUITE[:COMPONENT[,COMPONENT]], URL http(s)://HOST[:PORT]/PATH"
ELFSCAN_FETCH_STALL=soon S "apt:$U:s:main" >/dev/null 2>"$T/err"
expect "ELFSCAN_FETCH_STALL not a number: said" "$(cat "$T/err")" \
    "elfscan: apt:$U:s:main: $U/dists/s/InRelease: cannot fetch: ELFSCAN_FETCH_STALL=soon: not a number of seconds from 1 to 3600: repository skipped"
finish
