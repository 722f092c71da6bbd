#!/bin/sh
# elfscan --store FILE apt:...: a local apt repository, made here from real
# .debs (dpkg-scanpackages, apt-ftparchive), kept in an SQLite store and
# read back with sqlite3, an independent reader of the file. What the store
# holds of every ELF member is what dpkg-deb -x and readelf -lW say; a run
# from the store says what a run without one says, in every format; a
# rerun against an unchanged index reads no package (the pool is moved
# away and nothing is missed); after an upload only the new packages are
# read (the unchanged ones moved away again) and the one that left is
# dropped; GNU parallel's shards at once into one store are one run's
# report; a run killed loses no package it kept; a store of another schema,
# of other options, not a database, or locked by a writer: one line, exit
# 2, nothing lost.
. "$top_srcdir/tests/lib.sh"
need gcc dpkg-deb dpkg-scanpackages apt-ftparchive readelf python3 xz sqlite3 parallel unshare mount
python3 -c 'import yaml' 2>/dev/null ||
    { echo "ERROR: python3-yaml is missing: run ./bootstrap deps"; exit 99; }
: "${ELFSCAN:?}"
S() { "$ELFSCAN" --no-progress "$@"; }
[ "$(uname -m)" = x86_64 ] || skip "the packages are amd64"

. "$top_srcdir/tests/elfscan/store-repo.sh"
for n in a b c d e f g h; do
	case $n in a|c|f) flag=-zexecstack ;; *) flag=-znoexecstack ;; esac
	deb "p$n" 1 "$flag" || fail "build package p$n"
done
# A debug package (its name ends in -dbg): a package of the suite as any,
# its debug file kept and said, not taken for the others' evidence. And a
# unit file that is not UTF-8 text (Latin-1, a NUL): kept as hex; an ELF
# file where the store keeps files' bytes (/etc/default): read as any; an
# ELF header cut short, which readelf cannot read: its error kept.
rm -rf "$T/build" && mkdir -p "$T/build/DEBIAN" "$T/build/usr/lib/debug" \
    "$T/build/lib/systemd/system" "$T/build/etc/default" &&
    printf '\177ELF\002\001\001\000\000\000\000\000\000\000\000\000\003\000\076\000' \
    >"$T/build/usr/lib/debug/broken.so" &&
    printf '[Unit]\nDescription=caf\351\000\n' \
    >"$T/build/lib/systemd/system/pz.service" &&
    gcc -o "$T/build/etc/default/pz" "$FIX/hello.c" &&
    gcc -g -o "$T/prog" "$FIX/hello.c" &&
    objcopy --only-keep-debug "$T/prog" "$T/build/usr/lib/debug/prog.debug" &&
    printf 'Package: pz-dbg\nVersion: 1\nArchitecture: amd64\nMaintainer: t <t@t>\nDescription: t\n' \
    >"$T/build/DEBIAN/control" && mkdir -p "$R/pool/main/pz-dbg" &&
    dpkg-deb --root-owner-group --build "$T/build" \
    "$R/pool/main/pz-dbg/pz-dbg_1_amd64.deb" >/dev/null ||
    fail "build the debug package"
index || fail "build the repository"
A=apt:$R:s:main

oracle >"$T/good"
DB=$T/s.db
S --format=json "$A" >"$T/plain" 2>"$T/plain.err"
expect "without a store: exit 1 (findings)" "$?" 1
S --format=json --store "$DB" "$A" >"$T/first" 2>"$T/err"
expect "first run into a store: exit 1" "$?" 1
expect "first run: no message" "$(cat "$T/err")" ""
expect "the store holds every ELF member as readelf says (sqlite3)" \
    "$(held "$DB")" "$(cat "$T/good")"
expect "26 members of nine packages, the debug package's among them, and the program in /etc/default" \
    "$(held "$DB" | wc -l) $(held "$DB" | grep -c -e '/pz-dbg_1_amd64.deb!usr/lib/debug/prog.debug ' -e '/pz-dbg_1_amd64.deb!etc/default/pz ')" "26 2"
expect "what the store run says is what a run without one says" \
    "$(sort "$T/first")" "$(sort "$T/plain")"
expect "the ELF header cut short: readelf cannot read it" \
    "$(readelf -h "$T/build/usr/lib/debug/broken.so" >/dev/null 2>&1 || echo no)" no
expect "the ELF header cut short: its error kept, as a run without a store says it" \
    "$(sqlite3 "$DB" "SELECT error FROM records WHERE member = 'usr/lib/debug/broken.so'")" \
    "$(python3 -c 'import json, sys
for l in open(sys.argv[1]):
    r = json.loads(l)
    if r.get("member") == "usr/lib/debug/broken.so": print(r["error"])' "$T/plain")"
file_oracle >"$T/files"
expect "the store keeps each link, script and unit file as dpkg-deb -x has it" \
    "$(held_files "$DB")" "$(cat "$T/files")"
expect "eight packages' three files each" \
    "$(grep -c ' link \.\./bin/' "$T/files") $(grep -c ' script #!/bin/sh -e$' "$T/files") $(grep -c '\.service file 5b536572766963655d' "$T/files")" \
    "8 8 8"
expect "the unit file that is not UTF-8 text kept as hex" \
    "$(sqlite3 "$DB" "SELECT hex, data FROM files WHERE path = 'lib/systemd/system/pz.service'")" \
    "1|$(printf '[Unit]\nDescription=caf\351\000\n' | od -An -tx1 | tr -d ' \n')"
expect "what it says is what readelf says" "$(json_stacks <"$T/first")" \
    "$(cat "$T/good")"
expect "the packages kept by the index's SHA256 (sqlite3)" \
    "$(sqlite3 "$DB" "SELECT name || ' ' || sha256 FROM packages ORDER BY name")" \
    "$(awk '/^Package:/ { n = $2 } /^SHA256:/ { print n, $2 }' "$R/dists/s/main/binary-amd64/Packages" | sort)"
expect "the libraries' sonames kept" \
    "$(sqlite3 "$DB" "SELECT soname FROM records WHERE soname IS NOT NULL ORDER BY soname" | tr '\n' ' ')" \
    "libpa.so.1 libpb.so.1 libpc.so.1 libpd.so.1 libpe.so.1 libpf.so.1 libpg.so.1 libph.so.1 "
expect "the JSON record kept, which json_extract reads" \
    "$(sqlite3 "$DB" "SELECT count(*) FROM records WHERE json_extract(json, '$.stack') = stack")" \
    "$(wc -l <"$T/good")"
expect "WAL, and schema version 2" \
    "$(sqlite3 "$DB" 'PRAGMA journal_mode; PRAGMA user_version' | tr '\n' ' ')" "wal 2 "

# A rerun against the same index reads no package: with the pool moved
# away, nothing is missing, and it says the same in every format.
mv "$R/pool" "$T/pool"
reruns "$DB" "$T/first"
S --format=sarif --store "$DB" "$A" >"$T/store.sarif" 2>"$T/err"
expect "SARIF from the store, nothing read: as the official validator reads it" \
    "$(cat "$T/err"; sarif_errors "$T/store.sarif")" ""
mv "$T/pool" "$R/pool"

cp -r "$R" "$T/repo-before"
# An upload: pb 2 replaces pb 1 (now with an executable stack), pi is new,
# ph leaves. Only pb 2 and pi are read: every other package's file is moved
# away while the store reads the new index.
rm "$R/pool/main/pb/pb_1_amd64.deb" "$R/pool/main/ph/ph_1_amd64.deb"
deb pb 2 -zexecstack && deb pi 1 -znoexecstack && index ||
    fail "upload to the repository"
oracle >"$T/good2"
mkdir -p "$T/away"
for p in pa pc pd pe pf pg; do mv "$R/pool/main/$p" "$T/away/"; done
S --format=json --store "$DB" "$A" >"$T/up" 2>"$T/err"
expect "after an upload: exit 1" "$?" 1
expect "after an upload: only the new packages read (no message)" \
    "$(cat "$T/err")" ""
mv "$T/away/"* "$R/pool/main/"
expect "after an upload: the store holds what readelf says of the new index" \
    "$(held "$DB")" "$(cat "$T/good2")"
expect "after an upload: what it says is what readelf says" \
    "$(json_stacks <"$T/up")" "$(cat "$T/good2")"
expect "the package that left is dropped, with its records" \
    "$(sqlite3 "$DB" "SELECT count(*) FROM packages WHERE name = 'ph'; SELECT count(*) FROM records WHERE package NOT IN (SELECT id FROM packages)" | tr '\n' ' ')" "0 0 "

# Two snapshots of the suite compared from one store (--diff): yesterday's
# index (the first repository, as it was before the upload) and today's.
# Each package is read once, however many snapshots hold it; what got
# worse is what readelf says changed: each member's GNU_STACK, RW before
# and RWE after, is a regression of the stack.
OLD=$T/old
mkdir -p "$OLD" && cp -r "$T/repo-before/." "$OLD/" || fail "yesterday's snapshot"
stacks() {
	for f in "$1"/pool/main/*/*.deb; do
		rm -rf "$T/x" && dpkg-deb -x "$f" "$T/x" &&
		    (cd "$T/x" && find . -type f) | sort | while read -r m; do
			m=${m#./}
			echo "$m $(readelf -lW "$T/x/$m" | awk '$1 == "GNU_STACK" { print $(NF-1) }')"
		done
	done | sort
}
stacks "$OLD" >"$T/stacks-old"
stacks "$R" >"$T/stacks-new"
join "$T/stacks-old" "$T/stacks-new" | awk '$2 != $3 {
	print $1, "stack", $2 == "RWE" ? "exec" : "noexec", $3 == "RWE" ? "exec" : "noexec" }' >"$T/worse"
expect "readelf: pb 2's program and library ask for an executable stack, pb 1's did not" \
    "$(cat "$T/worse")" "usr/bin/pb stack noexec exec
usr/lib/libpb.so.1 stack noexec exec"
DBD=$T/diff.db
S --diff --format=json --store "$DBD" "apt:$OLD:s:main" "$A" >"$T/diff" 2>"$T/err"
expect "--diff of two snapshots: exit 1 (a regression)" "$?" 1
expect "--diff of two snapshots: no message" "$(cat "$T/err")" ""
expect "--diff of two snapshots: the regression readelf shows" \
    "$(python3 -c '
import json, sys
for line in sys.stdin:
    r = json.loads(line)
    if r.get("diff") == "regression":
        print(r["path"], r["property"], r["was"], r["now"])
' <"$T/diff" | sort)" "$(cat "$T/worse")"
expect "--diff of two snapshots: each package read once" \
    "$(sqlite3 "$DBD" 'SELECT count(*) FROM packages')" \
    "$(cat "$OLD"/dists/s/main/binary-amd64/Packages "$R"/dists/s/main/binary-amd64/Packages | awk '/^SHA256:/ { print $2 }' | sort -u | wc -l)"

# Shards: three at once with GNU parallel into one new store (their index
# from PARALLEL_SEQ), then a run without --shard reads nothing and says
# what one run says.
S --format=json "$A" >"$T/one"
DB3=$T/shards.db
parallel -j3 "$ELFSCAN" --no-progress --format=json --store "$DB3" \
    --shard auto/3 "$A" '>' "$T/shard{}" ::: 1 2 3 2>"$T/err"
expect "three shards in parallel: no message" "$(cat "$T/err")" ""
expect "the shards are disjoint, and together the suite" \
    "$(cat "$T/shard1" "$T/shard2" "$T/shard3" | sort)" "$(sort "$T/one")"
expect "each shard took a share" \
    "$(for i in 1 2 3; do [ -s "$T/shard$i" ] && echo y; done | wc -l)" 3
mv "$R/pool" "$T/pool"
S --format=json --store "$DB3" "$A" >"$T/all" 2>"$T/err"
expect "after the shards: nothing read, no message" "$(cat "$T/err")" ""
expect "after the shards: what one run says" "$(sort "$T/all")" \
    "$(sort "$T/one")"
mv "$T/pool" "$R/pool"
expect "the shard of a package is stable: by its name" \
    "$(S --format=json --shard 1/3 "$A" | json_stacks)" "$(json_stacks <"$T/shard2")"
for engine in JOB_COMPLETION_INDEX=1 SLURM_ARRAY_TASK_ID=1 PARALLEL_SEQ=2; do
	expect "--shard auto/3 with $engine is shard 1/3" \
	    "$(env "$engine" "$ELFSCAN" --no-progress --format=json \
	    --shard auto/3 "$A" | json_stacks)" "$(json_stacks <"$T/shard2")"
done
env -u JOB_COMPLETION_INDEX -u SLURM_ARRAY_TASK_ID -u PARALLEL_SEQ \
    "$ELFSCAN" --shard auto/3 "$A" >/dev/null 2>"$T/err"
expect "--shard auto/3 with no engine: exit 2" "$?" 2
expect_match "--shard auto/3 with no engine: said" "$(head -n 1 "$T/err")" \
    "elfscan: --shard=auto/3: no JOB_COMPLETION_INDEX, SLURM_ARRAY_TASK_ID or PARALLEL_SEQ*"
PARALLEL_SEQ=4 "$ELFSCAN" --shard auto/3 "$A" >/dev/null 2>"$T/err"
expect "--shard auto/3, PARALLEL_SEQ=4: said" "$(head -n 1 "$T/err")" \
    "elfscan: --shard=auto/3: PARALLEL_SEQ=4 is not a shard of 3"
"$ELFSCAN" --shard 3/3 "$A" >/dev/null 2>"$T/err"
expect "--shard 3/3: said" "$(head -n 1 "$T/err")" \
    "elfscan: --shard=3/3: not K/N or auto/N, 0 <= K < N"

# The engines' forms shipped in doc/suite/, run as their engine would run
# them (an index in the environment, the paths theirs): eight shards, then
# together what one run says. The Kubernetes Job's command and environment
# are read out of its manifest.
mkdir -p "$T/bin" "$T/slurm" "$T/k8s"
ln -sf "$ELFSCAN" "$T/bin/elfscan"
for i in 0 1 2 3 4 5 6 7; do
	PATH=$T/bin:$PATH SLURM_ARRAY_TASK_ID=$i MIRROR=$R SUITE=s \
	    OUT=$T/slurm sh "$top_srcdir/doc/suite/elfscan-array.sh" ||
	    fail "the Slurm array's task $i"
done
expect "the Slurm array's eight tasks: what one run says" \
    "$(cat "$T"/slurm/s-*.jsonl | sort)" "$(sort "$T/one")"
python3 -c '
import shlex, sys, yaml
job = yaml.safe_load(open(sys.argv[1]))
c = job["spec"]["template"]["spec"]["containers"][0]
print(job["spec"]["completions"])
print(" ".join(shlex.quote(a) for a in c["command"]))
' "$top_srcdir/doc/suite/elfscan-job.yaml" >"$T/job" || fail "read the Job"
n=$(sed -n 1p "$T/job")
i=0
while [ "$i" -lt "$n" ]; do
	PATH=$T/bin:$PATH JOB_COMPLETION_INDEX=$i MIRROR=$R SUITE=s \
	    OUT=$T/k8s sh -c "$(sed -n 2p "$T/job")" || fail "the Job's pod $i"
	i=$((i + 1))
done
expect "the Kubernetes Job's $n pods: what one run says" \
    "$(cat "$T"/k8s/s-*.jsonl | sort)" "$(sort "$T/one")"

# A run killed (SIGKILL) while it reads: every package the store holds has
# all its records, the database is whole, and a rerun completes it. (When
# the kill lands, after the first package kept, is the machine's: what is
# checked holds wherever it lands; how many were kept is only said.)
for n in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24; do
	deb "q$n" 1 -znoexecstack || fail "build package q$n"
done
index || fail "index the repository"
oracle >"$T/good3"
DBK=$T/killed.db
"$ELFSCAN" --no-progress -j1 --format=json --store "$DBK" "$A" >/dev/null 2>&1 &
pid=$!
i=0
while [ "$i" -lt 400 ] && kill -0 "$pid" 2>/dev/null &&
    [ "$(sqlite3 "$DBK" 'SELECT count(*) FROM packages' 2>/dev/null || echo 0)" -lt 1 ]; do
	sleep 0.02
	i=$((i + 1))
done
kill -9 "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
echo "note: killed with $(sqlite3 "$DBK" 'SELECT count(*) FROM packages') of 33 packages kept"
expect "killed: the database is whole" \
    "$(sqlite3 "$DBK" 'PRAGMA integrity_check')" ok
expect "killed: each package kept has all its records" \
    "$(held "$DBK" | while read -r m s; do grep -qxF "$m $s" "$T/good3" || echo "$m"; done)" ""
expect "killed: each package kept has its records (three, the debug one one)" \
    "$(sqlite3 "$DBK" "SELECT count(*) FROM packages p WHERE p.name != 'pz-dbg' AND (SELECT count(*) FROM records r WHERE r.package = p.id) != 3")" 0
S --format=json --store "$DBK" "$A" >"$T/out" 2>"$T/err"
expect "killed, then rerun: no message" "$(cat "$T/err")" ""
expect "killed, then rerun: the store holds what readelf says" \
    "$(held "$DBK")" "$(cat "$T/good3")"

# With a store, a package's bytes are checked as they are read, once: one
# whose bytes are not its index's (one byte changed, same size; cut short)
# is said in one line, kept out of the store and out of what is said, and
# read again next time; the others are kept; exit 2.
DBB=$T/bad.db
P=$R/pool/main/pc/pc_1_amd64.deb
cp "$P" "$T/keep-pc"
python3 -c 'import sys; p = sys.argv[1]; b = bytearray(open(p, "rb").read()); b[-100] ^= 1; open(p, "wb").write(b)' "$P"
S --format=json --store "$DBB" "$A" >"$T/out" 2>"$T/err"
expect "a package's bytes not the index's: exit 2" "$?" 2
expect "a package's bytes not the index's: one line" "$(cat "$T/err")" \
    "elfscan: $P: package pc 1: its SHA256 is not the index's: not kept"
expect "a package's bytes not the index's: not kept, the others are" \
    "$(sqlite3 "$DBB" "SELECT count(*) FROM packages WHERE name = 'pc'; SELECT count(*) FROM packages")" \
    "0
$(($(grep -c '^Package:' "$R/dists/s/main/binary-amd64/Packages") - 1))"
expect "a package's bytes not the index's: nothing of it said" \
    "$(json_stacks <"$T/out" | grep -c '/pc_1_amd64.deb!')" 0
head -c 1000 "$T/keep-pc" >"$P"
S --format=json --store "$DBB" "$A" >"$T/out" 2>"$T/err"
expect "a package cut short: exit 2, one line" "$? $(cat "$T/err")" \
    "2 elfscan: $P: package pc 1: 1000 bytes, not the index's $(wc -c <"$T/keep-pc"): not kept"
cp "$T/keep-pc" "$P"
S --format=json --store "$DBB" "$A" >"$T/out" 2>"$T/err"
expect "the package put back: read, kept, exit 1" \
    "$? $(cat "$T/err")$(sqlite3 "$DBB" "SELECT count(*) FROM packages WHERE name = 'pc'")" "1 1"

# A store on a full disk (a 160 KiB tmpfs in a mount namespace of its
# own): each package that cannot be kept is one line saying so, exit 2;
# the database stays whole, and what it kept is whole.
mkdir -p "$T/full" "$T/full-copy"
# shellcheck disable=SC2016 # expanded by the namespace's shell
unshare -m sh -c 'mount -t tmpfs -o size=160k tmpfs "$1" && shift &&
    "$@" >/dev/null 2>"$0"; echo $? >"$0.rc"; cp "$4"* "${0%.err}-copy/"' \
    "$T/full.err" "$T/full" "$ELFSCAN" --no-progress --store "$T/full/s.db" "$A"
F=$T/full-copy/s.db
expect "a full disk: exit 2" "$(cat "$T/full.err.rc")" 2
expect "a full disk: each line says a package cannot be kept, and why" \
    "$(grep -cv '^elfscan: .*/full/s.db: cannot keep package [a-z0-9-]* [0-9]*: database or disk is full$' "$T/full.err")" 0
expect "a full disk: some packages could not be kept" \
    "$(test "$(grep -c . "$T/full.err")" -gt 0 && echo yes)" yes
expect "a full disk: the database is whole" \
    "$(sqlite3 "$F" 'PRAGMA integrity_check')" ok
expect "a full disk: what it kept is whole" \
    "$(sqlite3 "$F" "SELECT count(*) FROM packages p WHERE p.name != 'pz-dbg' AND (SELECT count(*) FROM records r WHERE r.package = p.id) != 3")" 0
expect "a full disk: every package kept or said" \
    "$(($(sqlite3 "$F" 'SELECT count(*) FROM packages') + $(grep -c . "$T/full.err")))" \
    "$(grep -c '^Package:' "$R/dists/s/main/binary-amd64/Packages")"

# Stores elfscan cannot use: one line each, exit 2, the file left as it is.
sqlite3 "$T/v7.db" 'CREATE TABLE t (x); PRAGMA user_version = 7'
S --store "$T/v7.db" "$A" >"$T/out" 2>"$T/err"
expect "a store of schema version 7: exit 2" "$?" 2
expect "a store of schema version 7: one line" "$(cat "$T/err")" \
    "elfscan: $T/v7.db: a store of schema version 7, not 2: name another file"
expect "a store of schema version 7: left as it was" \
    "$(sqlite3 "$T/v7.db" 'PRAGMA user_version; SELECT name FROM sqlite_master' | tr '\n' ' ')" "7 t "
echo 'not a database' >"$T/text.db"
S --store "$T/text.db" "$A" >"$T/out" 2>"$T/err"
expect "not a database: exit 2" "$?" 2
expect "not a database: one line" "$(cat "$T/err")" \
    "elfscan: $T/text.db: cannot open the store: file is not a database"
expect "not a database: left as it was" "$(cat "$T/text.db")" 'not a database'
cp "$DB" "$T/before.db"
S --hardening --store "$DB" "$A" >"$T/out" 2>"$T/err"
expect "a store of other options: exit 2" "$?" 2
expect "a store of other options: one line" "$(cat "$T/err")" \
    "elfscan: $DB: a store of records made with other options (none; now --hardening): name another file"
expect "a store of other options: nothing changed" \
    "$(sqlite3 "$DB" 'SELECT count(*) FROM records')" \
    "$(sqlite3 "$T/before.db" 'SELECT count(*) FROM records')"
# A writer that holds the store: the run waits (ELFSCAN_STORE_WAIT_MS),
# then says so; the writer's work is kept.
python3 -c '
import sqlite3, sys, time
db = sqlite3.connect(sys.argv[1], isolation_level=None)
db.execute("BEGIN IMMEDIATE")
db.execute("INSERT INTO meta VALUES (\"held\", \"yes\")")
open(sys.argv[2], "w").close()
time.sleep(4)
db.execute("COMMIT")
' "$DB" "$T/held" &
holder=$!
i=0
while [ ! -e "$T/held" ] && [ "$i" -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
ELFSCAN_STORE_WAIT_MS=300 "$ELFSCAN" --no-progress --store "$DB" "$A" \
    >"$T/out" 2>"$T/err"
expect "a store held by another writer: exit 2" "$?" 2
expect "a store held by another writer: one line" "$(cat "$T/err")" \
    "elfscan: $DB: cannot open the store: database is locked"
wait "$holder"
expect "a store held by another writer: its work kept" \
    "$(sqlite3 "$DB" "SELECT value FROM meta WHERE key = 'held'; PRAGMA integrity_check" | tr '\n' ' ')" "yes ok "
S --store "$T/x.db" "$FIX/hello.c" >/dev/null 2>"$T/err"
expect "--store with no repository: exit 2" "$?" 2
expect_match "--store with no repository: said" "$(head -n 1 "$T/err")" \
    "elfscan: *: not a repository: --store keeps the packages of repositories"
finish
