#!/bin/sh
# elfscan --files-from LIST, as chstk reads one: one name a line, or
# NUL-terminated with --null or -0 (which then prints NUL-terminated paths
# too, for chstk); "-" is the standard input; empty names are skipped; a
# directory in a list is not walked and a file that is not ELF is passed
# over (find and dpkg -L list both), a package in it is looked into, a name
# that cannot be read is an error. Many files give one SARIF log, which
# the official validator accepts, with the listed names relative to the
# current directory, where xargs gives one log a run. A file named twice,
# under any spelling or through a symbolic link, or named and met in a
# named directory, is reported once (stat and realpath say they are one
# file by one real path); hard links, two real paths, each.
. "$top_srcdir/tests/lib.sh"
need gcc tar gzip python3 readelf realpath xargs
: "${ELFSCAN:?}"
tool=${SARIF_MULTITOOL:-${XDG_CACHE_HOME:-$HOME/.cache}/chstk/sarif-multitool/node_modules/.bin/sarif-multitool}
[ -x "$tool" ] || { echo "ERROR: $tool is missing: run ./bootstrap deps"; exit 99; }
S() { "$ELFSCAN" --no-progress "$@"; }
# The paths of the records, sorted, one a line.
paths() { S --no-header "$@" 2>/dev/null | awk '{ print $NF }' | sort; }

D=$T/tree
mkdir -p "$D/bin" "$D/lib" "$D/doc" "$T/pkg/usr/bin"
gcc -z execstack -o "$D/bin/exec" "$FIX/hello.c" &&
    gcc -o "$D/bin/clean" "$FIX/hello.c" &&
    gcc -shared -fPIC -z execstack -o "$D/lib/libexec.so" "$FIX/lib.c" &&
    gcc -z execstack -o "$D/bin/new
line" "$FIX/hello.c" &&
    cp "$D/bin/exec" "$T/pkg/usr/bin/packed" &&
    tar czf "$D/pkg.tar.gz" -C "$T/pkg" usr || fail "build the tree"
printf 'not ELF\n' >"$D/doc/README"
cd "$T" || exit 99

# A list as find prints it: directories, files that are not ELF, a package.
find tree ! -name 'new*' -print >"$T/list"
S --files-from "$T/list" >"$T/out" 2>"$T/err"
expect "a list: findings, exit 1" "$?" 1
expect "a list: no message for its directories and text" "$(cat "$T/err")" ""
expect "a list: its ELF files and the package's members" \
    "$(paths --files-from "$T/list")" \
    "tree/bin/clean
tree/bin/exec
tree/lib/libexec.so
tree/pkg.tar.gz!usr/bin/packed"
expect "a list: its directory is not walked" \
    "$(paths --files-from - <<EOF
tree/bin
tree/lib/libexec.so
EOF
)" "tree/lib/libexec.so"
expect "a list on standard input, empty lines skipped" \
    "$(printf '\n\ntree/bin/exec\n\n' | paths --files-from -)" "tree/bin/exec"
expect "a list without its last newline" \
    "$(printf 'tree/bin/exec\ntree/bin/clean' | paths --files-from -)" "tree/bin/clean
tree/bin/exec"
expect "a list and paths: both" \
    "$(echo tree/bin/exec | paths --files-from - tree/lib)" "tree/bin/exec
tree/lib/libexec.so"

# NUL-terminated names, as find -print0 writes them: a newline in a name.
find tree/bin -type f -print0 >"$T/list0"
expect "--null: a name with a newline" \
    "$(S --format=json --files-from "$T/list0" --null | python3 -c '
import json, sys
print(sorted(json.loads(l)["path"] for l in sys.stdin))')" \
    "['tree/bin/clean', 'tree/bin/exec', 'tree/bin/new\\nline']"
expect "-0: NUL in, NUL out (for chstk)" \
    "$(S -0 --files-from - <"$T/list0" | python3 -c '
import sys
print(sorted(sys.stdin.buffer.read().split(b"\0")))')" \
    "[b'', b'tree/bin/exec', b'tree/bin/new\\nline']"
S --files-from "$T/list0" >/dev/null 2>"$T/err"
expect "a NUL-terminated list read by lines: exit 2" "$?" 2
expect "a NUL-terminated list read by lines: said" "$(cat "$T/err")" \
    "elfscan: $T/list0: a name holds a NUL byte: NUL-separated names need --null or -0"

# What cannot be read is an error, the rest scanned.
printf 'tree/bin/exec\nmissing\n' | S -q --no-header --files-from - >"$T/out" 2>"$T/err"
expect "a missing name: exit 2" "$?" 2
expect "a missing name: said" "$(cat "$T/err")" "elfscan: missing: cannot stat: No such file or directory"
expect "a missing name: the rest scanned" "$(awk '{ print $NF }' "$T/out")" "tree/bin/exec"
S --files-from "$T/no-list" >"$T/out" 2>"$T/err"
expect "a missing list: exit 2" "$?" 2
expect "a missing list: one line, nothing scanned" "$(cat "$T/err" "$T/out")" \
    "elfscan: $T/no-list: cannot open: No such file or directory"

# One SARIF log for many files, where xargs gives several.
find tree -type f ! -name 'new*' -print >"$T/files"
xargs -n 2 "$ELFSCAN" --no-progress --format=sarif <"$T/files" >"$T/xargs.sarif" 2>/dev/null
expect "xargs: several logs, not one JSON document" \
    "$(python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$T/xargs.sarif" 2>/dev/null && echo one || echo several)" several
S --format=sarif --files-from "$T/files" >"$T/one.sarif"
expect "--files-from: one SARIF log, a result a finding of the JSON output" \
    "$(python3 - "$T/one.sarif" <<'PY'
import json, subprocess, sys
run = json.load(open(sys.argv[1]))["runs"][0]
got = sorted((r["ruleId"], r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"])
             for r in run["results"])
want = []
out = subprocess.run(["sh", "-c", '"$ELFSCAN" --no-progress --format=json --files-from files'],
                     capture_output=True, text=True).stdout
for l in out.splitlines():
    r = json.loads(l)
    for f in r["findings"]:
        want.append((f, r["path"]))
print(got == sorted(want) and len(got) >= 3, run["originalUriBaseIds"]["SCANROOT"]["uri"])
PY
)" "True file://$(realpath "$T")/"
"$tool" validate "$T/one.sarif" -o "$T/one.v" --log ForceOverwrite >"$T/vlog" 2>&1 ||
    { cat "$T/vlog"; fail "the validator ran"; }
expect "--files-from: the validator finds no error or warning" "$(python3 -c '
import json, sys
for run in json.load(open(sys.argv[1]))["runs"]:
    for r in run.get("results", []):
        if r.get("level", "warning") in ("error", "warning"):
            print(r["ruleId"], r["message"].get("arguments"))' "$T/one.v")" ""
expect "--files-from: ./ does not change a finding's name" \
    "$(find ./tree/bin -name exec | S --format=sarif --files-from - | grep -o '"uri":"tree/bin/exec"')" \
    '"uri":"tree/bin/exec"'

# A file named twice. stat and realpath, the oracles: one file, one path.
ln -s bin/exec tree/link && ln tree/bin/exec tree/hard
expect "stat: the spellings, the link and the hard link are one file" \
    "$(stat -L -c '%d:%i' tree/bin/exec ./tree/bin/exec tree/link tree/lib/../bin/exec tree/hard | sort -u | wc -l)" 1
expect "realpath: all but the hard link are one path" \
    "$(realpath tree/bin/exec ./tree/bin/exec tree/link tree/lib/../bin/exec tree/hard | sort -u | wc -l)" 2
expect "named twice: once, under the first name" \
    "$(paths tree/bin/exec ./tree/bin/exec tree/link tree/lib/../bin/exec)" "tree/bin/exec"
expect "named twice: counted once" \
    "$(S -q --summary tree/bin/exec ./tree/bin/exec tree/link | tail -1 | cut -d, -f1)" "1 file"
expect "named and in a named directory: once" \
    "$(paths tree/bin/exec tree/bin | grep -c exec)" 1
expect "named and listed: once" "$(echo tree/bin/exec | paths tree/bin/exec --files-from -)" "tree/bin/exec"
expect "a directory named twice: once" "$(paths tree/lib tree/lib/ ./tree/lib)" "tree/lib/libexec.so"
expect "hard links named: each" "$(paths tree/bin/exec tree/hard)" "tree/bin/exec
tree/hard"
expect "hard links in the walk: each" "$(paths tree | grep -c 'tree/hard\|tree/bin/exec')" 2
finish
