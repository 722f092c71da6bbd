#!/bin/sh
# elfscan --store postgresql://...: a PostgreSQL server of the test's own
# (initdb and pg_ctl in $T, as nobody when run as root, on a unix socket
# there only), and a local apt repository made here from real .debs, as
# in store.sh. The same runs into PostgreSQL and into an SQLite file say
# the same as each other and as a run without a store, and leave the same
# rows: every table of both, dumped by psql and sqlite3 (independent
# readers) by natural keys, ids left out, compared row for row, and the
# same columns. A rerun against the same index reads no package (the pool
# is moved away); after an upload only the new packages are read and the
# one that left is dropped, in both; three GNU parallel shards at once
# into one PostgreSQL store are one run, row for row; a run killed loses
# no package it kept; a store of another schema version, held by another
# writer, or a server that is down: one line, exit 2, nothing lost.
. "$top_srcdir/tests/lib.sh"
need gcc dpkg-deb dpkg-scanpackages apt-ftparchive readelf python3 xz sqlite3 psql parallel
: "${ELFSCAN:?}"
S() { "$ELFSCAN" --no-progress "$@"; }
[ "$(uname -m)" = x86_64 ] || skip "the packages are amd64"
PGBIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
[ -x "$PGBIN/initdb" ] && [ -x "$PGBIN/pg_ctl" ] ||
    { echo "ERROR: postgresql is missing: run ./bootstrap deps"; exit 99; }
S --store "postgresql://elfscan@/x?host=$T&port=1" "$FIX/hello.c" \
    >/dev/null 2>"$T/err"
grep -q 'built without libpq' "$T/err" && skip "elfscan is built without libpq"

# The server. initdb refuses root: then it and the server run as nobody,
# in a directory of nobody's. Its socket is in that directory, so any
# port number is free there; another one names a server that is down.
PG=$T/pg
PORT=5433
mkdir "$PG"
chmod 755 "$T"
if [ "$(id -u)" = 0 ]; then
	chown nobody "$PG"
	as_pg() { runuser -u nobody -- "$@"; }
else
	as_pg() { "$@"; }
fi
as_pg "$PGBIN/initdb" -D "$PG/data" -A trust -U elfscan -E UTF8 --locale=C \
    --no-sync >"$T/initdb.log" 2>&1 ||
    { cat "$T/initdb.log"; fail "initdb"; finish; }
trap 'as_pg "$PGBIN/pg_ctl" -D "$PG/data" -m immediate stop >/dev/null 2>&1; rm -rf "$T"' EXIT
trap 'exit 1' HUP INT TERM
as_pg "$PGBIN/pg_ctl" -D "$PG/data" -l "$PG/log" -w -t "$hang" \
    -o "-c listen_addresses='' -c unix_socket_directories='$PG' -p $PORT -c fsync=off" \
    start >"$T/pg_ctl.log" 2>&1 ||
    { cat "$T/pg_ctl.log" "$PG/log"; fail "pg_ctl start"; finish; }
# url DATABASE; Q DATABASE [PSQL-OPTION...]: psql on it, SQL on stdin.
url() { echo "postgresql://elfscan@/$1?host=$PG&port=$PORT"; }
Q() { db=$1; shift; psql -X -q -At -v ON_ERROR_STOP=1 "$(url "$db")" "$@" -f -; }
for db in suite shards killed; do
	echo "CREATE DATABASE $db" | Q postgres || fail "create database $db"
done
U=$(url suite)

. "$top_srcdir/tests/elfscan/store-repo.sh"
for n in a b c d e f g h; do
	case $n in a|c|f) flag=-zexecstack ;; *) flag=-znoexecstack ;; esac
	deb "p$n" 1 "$flag" || fail "build package p$n"
done
index || fail "build the repository"
A=apt:$R:s:main

# Every table of a store by natural keys, its ids left out (a record
# named by its package's sha256 and its member, a result by its record
# and the order it was inserted in), read_at only checked to be UTC: one
# SQL text for sqlite3 and psql alike, NULL said NULL by both.
dump_sql="
SELECT key, value FROM meta WHERE key != 'schema_version' ORDER BY key;
SELECT sha256, name, version, arch, source, filename, size, depends, provides, path,
  CASE WHEN read_at LIKE '____-__-__T__:__:__Z' THEN 'utc' ELSE read_at END
  FROM packages ORDER BY sha256;
SELECT repo, arch, seq, name, bucket, sha256 FROM listing ORDER BY repo, arch, seq;
SELECT p.sha256, r.member, r.streamed, r.error, r.unread, r.type, r.class,
  r.machine, r.soname, r.stack, r.state, r.effective, r.scope, r.judged,
  r.findings, r.allowed, r.allowed_by, r.known, r.pie, r.relro, r.canary,
  r.fortify, r.paths, r.ibt, r.shstk, r.bti, r.pac, r.symbols, r.textrel,
  r.entry_endbr, r.lang, r.text, r.json, r.cause, r.built, r.dwarf,
  r.kind, r.wx
  FROM records r JOIN packages p ON p.id = r.package
  ORDER BY p.sha256, coalesce(r.member, ''), coalesce(r.error, ''), r.json;
SELECT p.sha256, r.member, x.bit, x.region, x.\"offset\", x.length, x.why,
  x.justification FROM results x JOIN records r ON r.id = x.record
  JOIN packages p ON p.id = r.package
  ORDER BY p.sha256, coalesce(r.member, ''), x.rowid;
SELECT p.sha256, r.member, n.soname FROM needed n
  JOIN records r ON r.id = n.record JOIN packages p ON p.id = r.package
  ORDER BY p.sha256, coalesce(r.member, ''), n.soname;
SELECT p.sha256, f.path, f.type, f.data, f.hex FROM files f
  JOIN packages p ON p.id = f.package ORDER BY p.sha256, f.path, f.type;
"
dump_pg() { echo "$dump_sql" | Q "$1" -F '|' -P null=NULL; }
dump_sqlite() { echo "$dump_sql" | sqlite3 -nullvalue NULL "$1"; }
rows() { wc -l | tr -d ' '; }

DB=$T/s.db
S --format=json "$A" >"$T/plain" 2>"$T/plain.err"
expect "without a store: exit 1 (findings)" "$?" 1
S --format=json --store "$U" "$A" >"$T/out.pg" 2>"$T/err"
expect "first run into PostgreSQL: exit 1" "$?" 1
expect "first run into PostgreSQL: no message" "$(cat "$T/err")" ""
S --format=json --store "$DB" "$A" >"$T/out.sqlite" 2>"$T/err"
expect "first run into SQLite: exit 1" "$?" 1
expect "PostgreSQL says what SQLite says" "$(sort "$T/out.pg")" "$(sort "$T/out.sqlite")"
expect "PostgreSQL says what a run without a store says" \
    "$(sort "$T/out.pg")" "$(sort "$T/plain")"
expect "24 records said" "$(rows <"$T/out.pg")" 24
expect "the same columns in both (psql, sqlite3), and a rowid in PostgreSQL's tables without an id" \
    "$(echo "SELECT table_name || '.' || column_name FROM information_schema.columns WHERE table_schema = 'public' ORDER BY 1" | Q suite)" \
    "$(sqlite3 "$DB" "SELECT m.name || '.' || c.name FROM sqlite_master m, pragma_table_info(m.name) c WHERE m.type = 'table' UNION SELECT name || '.rowid' FROM sqlite_master WHERE type = 'table' AND name NOT IN ('packages', 'records') ORDER BY 1")"
dump_pg suite >"$T/dump.pg"
dump_sqlite "$DB" >"$T/dump.sqlite"
expect "every table: PostgreSQL's rows are SQLite's, row for row" \
    "$(diff "$T/dump.pg" "$T/dump.sqlite" && echo same)" same
expect "every table holds rows" \
    "$(for t in meta packages listing records results needed files; do echo "SELECT '$t', count(*) > 0 FROM $t;"; done | Q suite | tr '\n' ' ')" \
    "meta|t packages|t listing|t records|t results|t needed|t files|t "
expect "schema version 2, in meta" \
    "$(echo "SELECT value FROM meta WHERE key = 'schema_version'" | Q suite)" 2

# A rerun against the same index reads no package: with the pool moved
# away, nothing is missing, and it says the same in every format.
mv "$R/pool" "$T/pool"
reruns "$U" "$T/out.pg"
mv "$T/pool" "$R/pool"

# An upload: pb 2 replaces pb 1, pi is new, ph leaves. Only pb 2 and pi
# are read, into both stores: every other package's file is moved away.
rm "$R/pool/main/pb/pb_1_amd64.deb" "$R/pool/main/ph/ph_1_amd64.deb"
deb pb 2 -zexecstack && deb pi 1 -znoexecstack && index ||
    fail "upload to the repository"
mkdir -p "$T/away"
for p in pa pc pd pe pf pg; do mv "$R/pool/main/$p" "$T/away/"; done
S --format=json --store "$U" "$A" >"$T/up.pg" 2>"$T/err"
expect "after an upload: exit 1" "$?" 1
expect "after an upload: only the new packages read (no message)" \
    "$(cat "$T/err")" ""
S --format=json --store "$DB" "$A" >"$T/up.sqlite" 2>"$T/err"
expect "after an upload, SQLite: only the new packages read" "$(cat "$T/err")" ""
mv "$T/away/"* "$R/pool/main/"
S --format=json "$A" >"$T/one"
expect "after an upload: what a run without a store says" \
    "$(sort "$T/up.pg")" "$(sort "$T/one")"
expect "after an upload: PostgreSQL says what SQLite says" \
    "$(sort "$T/up.pg")" "$(sort "$T/up.sqlite")"
expect "the package that left is dropped, with its records" \
    "$(echo "SELECT count(*) FROM packages WHERE name = 'ph'; SELECT count(*) FROM records WHERE package NOT IN (SELECT id FROM packages)" | Q suite | tr '\n' ' ')" "0 0 "
dump_pg suite >"$T/dump.pg"
dump_sqlite "$DB" >"$T/dump.sqlite"
expect "after an upload: PostgreSQL's rows are SQLite's, row for row" \
    "$(diff "$T/dump.pg" "$T/dump.sqlite" && echo same)" same
expect "after an upload: pb 2 and pi kept, pb 1 and ph not" \
    "$(echo "SELECT name || ' ' || version FROM packages ORDER BY name" | Q suite | tr '\n' ' ')" \
    "pa 1 pb 2 pc 1 pd 1 pe 1 pf 1 pg 1 pi 1 "

# Shards: three at once with GNU parallel into one new PostgreSQL store
# (the schema made by one of them), then a run without --shard reads
# nothing and says what one run says; its rows are those of the store
# one process wrote.
parallel -j3 "$ELFSCAN" --no-progress --format=json --store "'$(url shards)'" \
    --shard auto/3 "$A" '>' "$T/shard{}" ::: 1 2 3 2>"$T/err"
expect "three shards in parallel: no message" "$(cat "$T/err")" ""
expect "the shards are disjoint, and together the suite" \
    "$(cat "$T/shard1" "$T/shard2" "$T/shard3" | sort)" "$(sort "$T/one")"
expect "each shard took a share" \
    "$(for i in 1 2 3; do [ -s "$T/shard$i" ] && echo y; done | wc -l)" 3
mv "$R/pool" "$T/pool"
S --format=json --store "$(url shards)" "$A" >"$T/all" 2>"$T/err"
expect "after the shards: nothing read, no message" "$(cat "$T/err")" ""
expect "after the shards: what one run says" "$(sort "$T/all")" \
    "$(sort "$T/one")"
mv "$T/pool" "$R/pool"
dump_pg shards >"$T/dump.shards"
expect "after the shards: the rows of one process's store, row for row" \
    "$(diff "$T/dump.shards" "$T/dump.pg" && echo same)" same

# A run killed (SIGKILL) while it reads: every package the store holds has
# all its records, and a rerun completes it. (When the kill lands, after
# the first package kept, is the machine's: what is checked holds
# wherever it lands; how many were kept is only said.)
for n in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24; do
	deb "q$n" 1 -znoexecstack || fail "build package q$n"
done
index || fail "index the repository"
count() { echo 'SELECT count(*) FROM packages' | Q killed 2>/dev/null || echo 0; }
"$ELFSCAN" --no-progress -j1 --format=json --store "$(url killed)" "$A" \
    >/dev/null 2>&1 &
pid=$!
i=0
while [ "$i" -lt 400 ] && kill -0 "$pid" 2>/dev/null && [ "$(count)" -lt 1 ]; do
	sleep 0.02
	i=$((i + 1))
done
kill -9 "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
echo "note: killed with $(count) of 32 packages kept"
expect "killed: each package kept has its three records" \
    "$(echo 'SELECT count(*) FROM packages p WHERE (SELECT count(*) FROM records r WHERE r.package = p.id) != 3' | Q killed)" 0
S --format=json --store "$(url killed)" "$A" >"$T/out" 2>"$T/err"
expect "killed, then rerun: no message" "$(cat "$T/err")" ""
expect "killed, then rerun: every package kept" "$(count)" 32
S --format=json "$A" >"$T/one"
expect "killed, then rerun: what a run without a store says" \
    "$(sort "$T/out")" "$(sort "$T/one")"

# Stores elfscan cannot use: one line each, exit 2, nothing changed.
v=$(echo "SELECT value FROM meta WHERE key = 'schema_version'" | Q suite)
echo "UPDATE meta SET value = '7' WHERE key = 'schema_version'" | Q suite
dump_pg suite >"$T/before"
S --store "$U" "$A" >"$T/out" 2>"$T/err"
expect "a store of schema version 7: exit 2" "$?" 2
expect "a store of schema version 7: one line" "$(cat "$T/err")" \
    "elfscan: $U: a store of schema version 7, not 2: name another file"
expect "a store of schema version 7: nothing changed" \
    "$(dump_pg suite | diff - "$T/before" && echo "SELECT value FROM meta WHERE key = 'schema_version'" | Q suite)" 7
echo "UPDATE meta SET value = '$v' WHERE key = 'schema_version'" | Q suite
# A writer that holds the store: the run waits (ELFSCAN_STORE_WAIT_MS),
# then says so; the writer's work is kept.
mkfifo "$T/fifo"
(
	echo "BEGIN; LOCK TABLE meta IN ACCESS EXCLUSIVE MODE; INSERT INTO meta VALUES ('held', 'yes');"
	printf '\\! touch %s\n' "$T/held"
	cat "$T/fifo"
	echo "COMMIT;"
) | Q suite &
holder=$!
i=0
while [ ! -e "$T/held" ] && [ "$i" -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
ELFSCAN_STORE_WAIT_MS=300 "$ELFSCAN" --no-progress --store "$U" "$A" \
    >"$T/out" 2>"$T/err"
expect "a store held by another writer: exit 2" "$?" 2
expect "a store held by another writer: one line" "$(cat "$T/err")" \
    "elfscan: $U: cannot open the store: canceling statement due to lock timeout"
echo >"$T/fifo"
wait "$holder"
expect "a store held by another writer: its work kept" \
    "$(echo "SELECT value FROM meta WHERE key = 'held'" | Q suite)" yes
# The suite judged out of either store (--system: its images and what they
# need, read back) is the same: its rules, counted, and its verdicts.
S --system --format=json --store "$U" "$A" >"$T/v-pg" 2>&1
st=$?
S --system --format=json --store "$DB" "$A" >"$T/v-sq" 2>&1
expect "--system from PostgreSQL: the exit status from SQLite" "$st" "$?"
expect "--system from PostgreSQL: what SQLite's says" \
    "$(sort "$T/v-pg")" "$(sort "$T/v-sq")"
expect_match "--system from PostgreSQL: its images counted" \
    "$(grep '"rules"' "$T/v-pg")" '*every package installed: 64 programs, 32 libraries, 0 plugins*'
down="postgresql://elfscan@/suite?host=$PG&port=$((PORT + 1))"
S --store "$down" "$A" >"$T/out" 2>"$T/err"
expect "a server that is down: exit 2" "$?" 2
expect "a server that is down: one line" "$(cat "$T/err")" \
    "elfscan: $down: cannot open the store: connection to server on socket \"$PG/.s.PGSQL.$((PORT + 1))\" failed: No such file or directory"
finish
