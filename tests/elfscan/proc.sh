#!/bin/sh
# elfscan --proc on processes this test starts and keeps alive, judged
# against each process's own /proc/PID/maps, read here by awk, and
# against readelf on the programs and libraries they run:
#
#   exec       a program linked -z execstack, with a thread: the kernel
#              makes its stack executable, glibc its thread's
#   clean      a program that asks for nothing
#   mprotect   the clean program making its stack executable itself, and
#              mapping JIT memory: nothing asks for either
#   deleted    a program linked with a library that asks for an executable
#              stack, the library deleted once it runs: only
#              /proc/PID/map_files still holds it
#   dlopen     the clean program dlopening that library in a Debian 12
#              root (glibc 2.36, which then makes the stack executable;
#              2.41 and later refuse): a process of another root and mount
#              namespace, whose paths are its root's
#   unmarked   a program without PT_GNU_STACK, with a thread, in the same
#              root: the kernel keeps its stack non-executable, glibc 2.36
#              makes its threads' executable
#   tunable    the clean program under GLIBC_TUNABLES=glibc.rtld.execstack=2
#              in a forky root (glibc 2.42 or later, which then makes the
#              stack executable from the start)
#   secure     the same, setuid root and run by nobody: under AT_SECURE
#              glibc ignores the tunable
#
# The glibc cases run in cached debootstrap roots (tests/system/roots.sh),
# so that what glibc does is that root's glibc's, whatever this machine's
# is; the others depend on the kernel alone. Then what the scan cannot
# read: a zombie (a process that has exited, as one that exits while it is
# read), processes that come and go by the hundred during a scan of all
# of /proc, and root's processes scanned by nobody, whose own process is
# read, by its paths (nobody cannot open map_files), while the scan goes
# on. The records are checked in JSON Lines, text and SARIF (by the SARIF
# validator), and --summary's counts against them.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/system/roots.sh"
need gcc readelf gawk python3 setpriv unshare chroot debootstrap mount flock
: "${ELFSCAN:?}"
[ "$(id -u)" = 0 ] ||
    { echo "ERROR: the processes' roots and setpriv need root"; exit 99; }
tool=${SARIF_MULTITOOL:-${XDG_CACHE_HOME:-$HOME/.cache}/chstk/sarif-multitool/node_modules/.bin/sarif-multitool}
[ -x "$tool" ] || { echo "ERROR: $tool is missing: run ./bootstrap deps"; exit 99; }

# Every process started is killed, and gone, before $T goes.
started=''
cleanup() {
	for p in $started; do
		kill "$p" 2>/dev/null
	done
	wait
	rm -rf "$T"
}
trap cleanup EXIT

B=$T/build
mkdir -p "$B/del"
chmod 755 "$T" "$B" "$B/del"
cc() { gcc -Wall -O1 "$@" 2>>"$B/build.log"; }
cc -o "$B/procprog" "$FIX/procprog.c" -ldl -lpthread &&
    cc -z execstack -o "$B/procprog-exec" "$FIX/procprog.c" -ldl -lpthread &&
    cp "$B/procprog" "$B/procprog-unmarked" && "$CHSTK" -D "$B/procprog-unmarked" &&
    cc -c -o "$B/asm.o" "$FIX/system/asm-answer.S" &&
    cc -shared -fPIC -Wl,--no-warn-execstack -o "$B/libstacktest-asm.so" "$FIX/lib.c" "$B/asm.o" &&
    cp "$B/libstacktest-asm.so" "$B/del/" &&
    cc -o "$B/del/linked-asm" "$FIX/procprog.c" -L"$B/del" -Wl,--no-as-needed \
	-l:libstacktest-asm.so -Wl,-rpath,'$ORIGIN' -ldl -lpthread ||
    { cat "$B/build.log"; fail "build the programs"; finish; }

# What each asks for, by readelf.
expect "readelf: procprog asks for no executable stack" "$(readelf_stack "$B/procprog")" RW
expect "readelf: procprog-exec asks for one" "$(readelf_stack "$B/procprog-exec")" RWE
expect "readelf: procprog-unmarked has no PT_GNU_STACK" "$(readelf_stack "$B/procprog-unmarked")" none
expect "readelf: the library asks for an executable stack" "$(readelf_stack "$B/libstacktest-asm.so")" RWE
expect "readelf: linked-asm asks for none itself" "$(readelf_stack "$B/del/linked-asm")" RW
expect "readelf: linked-asm needs the library" \
    "$(readelf -dW "$B/del/linked-asm" | grep -c 'NEEDED.*\[libstacktest-asm.so\]')" 1

# start NAME COMMAND...: run COMMAND in the background, its output in
# $T/NAME.out, until it is ready; its process id in $pid and pid_NAME.
start() {
	name=$1
	shift
	"$@" >"$T/$name.out" 2>&1 &
	bg=$!
	tries=$((hang * 10))
	until grep -q '^ready$' "$T/$name.out"; do
		if ! kill -0 "$bg" 2>/dev/null || [ "$tries" -eq 0 ]; then
			fail "$name: did not start: $(cat "$T/$name.out")"
			finish
		fi
		tries=$((tries - 1))
		sleep 0.1
	done
	pid=$(sed -n 's/^pid: //p' "$T/$name.out")
	started="$started $pid"
	eval "pid_$name=\$pid"
}

# sleeping NAME: wait until the thread NAME printed waits in pause(), so
# that it is in a system call when read: a thread is read while it waits,
# not while it runs.
sleeping() {
	set -- "$(eval echo "\$pid_$1")" "$(sed -n 's/^thread: \([0-9]*\) .*/\1/p' "$T/$1.out")"
	tries=$((hang * 10))
	until [ "$(awk '{ print $3 }' "/proc/$1/task/$2/stat")" = S ]; do
		[ "$tries" -gt 0 ] || { fail "thread $2 of $1 never waits"; finish; }
		tries=$((tries - 1))
		sleep 0.1
	done
}

start exec "$B/procprog-exec" thread && sleeping exec
start clean "$B/procprog"
start mprotect "$B/procprog" mprotect jit
start deleted "$B/del/linked-asm"
rm "$B/del/libstacktest-asm.so"
start zombie "$B/procprog" zombie
root_new bw bookworm
root_put bw "$B/procprog" /usr/local/bin/procprog 755
root_put bw "$B/procprog-unmarked" /usr/local/bin/procprog-unmarked 755
root_put bw "$B/libstacktest-asm.so" /usr/local/lib/libstacktest-asm.so 755
start dlopen root_run bw -- /usr/local/bin/procprog dlopen=/usr/local/lib/libstacktest-asm.so
start unmarked root_run bw -- /usr/local/bin/procprog-unmarked thread && sleeping unmarked
root_new fk forky
root_put fk "$B/procprog" /usr/local/bin/procprog 755
root_put fk "$B/procprog" /usr/local/bin/procprog-suid 4755
start tunable root_run fk GLIBC_TUNABLES=glibc.rtld.execstack=2 -- /usr/local/bin/procprog
start secure root_run fk GLIBC_TUNABLES=glibc.rtld.execstack=2 -- \
    setpriv --reuid=65534 --regid=65534 --clear-groups /usr/local/bin/procprog-suid
expect "the dlopen in the Debian 12 root succeeds" "$(grep -c '^dlopen:' "$T/dlopen.out")" 0
zombie=$(sed -n 's/^zombie: //p' "$T/zombie.out")
names="exec clean mprotect deleted dlopen unmarked tunable secure"
pids=$(for n in $names; do eval echo "\$pid_$n"; done | paste -sd, -)

# The oracle: what each process's maps says, read here.
maps_stack() { awk '$6 == "[stack]" { print $2 }' "/proc/$1/maps"; }
maps_rwx() { awk '$2 ~ /^rwx/ && $6 != "[stack]" { print $1 }' "/proc/$1/maps" | sort; }
# The mapping that holds the address $2: "START-END PERMS".
maps_holding() {
	gawk -v a="$2" '{ split($1, r, "-")
		if (strtonum("0x" r[1]) <= strtonum(a) && strtonum(a) < strtonum("0x" r[2])) print $1, $2 }' \
	    "/proc/$1/maps"
}
thread_of() { sed -n 's/^thread: \([0-9]*\) \(.*\)/\'"$2"'/p' "$T/$1.out"; }

"$ELFSCAN" --no-progress --proc="$pids" --format=json --summary >"$T/proc.json" 2>"$T/proc.err"
expect "the test's processes: exit status 1 (findings)" "$?" 1
expect "the test's processes: nothing on the standard error" "$(cat "$T/proc.err")" ""

# rec NAME EXPR: a Python expression over NAME's JSON record r.
rec() {
	python3 - "$T/proc.json" "$(eval echo "\$pid_$1")" "$2" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r.get("pid") == int(sys.argv[2]):
        v = eval(sys.argv[3], {"r": r, "fmt": lambda a: "%x-%x" % (int(a["start"], 16), int(a["end"], 16))})
        print(v if isinstance(v, str) else json.dumps(v))
        break
else:
    print("no record of pid " + sys.argv[2])
PY
}
RWX='"\n".join(sorted("%012x-%012x" % (int(a["start"], 16), int(a["end"], 16)) for a in r["rwx"]))'
CAUSES='"; ".join("%s %s main=%s threads=%s" % (c["path"], c["why"], c["main"], c["threads"]) for c in r["asked_by"])'

# What every record must agree with maps on: the main stack, and every
# other writable and executable mapping.
for n in $names; do
	eval p=\$pid_$n
	expect "$n: the stack's permissions are those maps shows" "$(rec $n 'r["stack"]')" "$(maps_stack "$p")"
	expect "$n: the rwx mappings are those maps shows" "$(rec $n "$RWX")" "$(maps_rwx "$p" | gawk -F- '{ printf "%012x-%012x\n", strtonum("0x" $1), strtonum("0x" $2) }')"
done

expect "exec: the stack maps shows is executable" "$(maps_stack "$pid_exec")" rwxp
expect "exec: asked for by its program" "$(rec exec "$CAUSES")" "$B/procprog-exec marked exec main=True threads=True"
expect "exec: its thread's stack holds what the thread printed, rwx, in maps" \
    "$(maps_holding "$pid_exec" "$(thread_of exec 2)" | cut -d' ' -f2)" rwxp
expect "exec: elfscan names that mapping the stack of that thread" \
    "$(rec exec '" ".join(fmt(a) + " " + str(a["thread"]) for a in r["rwx"])')" \
    "$(maps_holding "$pid_exec" "$(thread_of exec 2)" | gawk -F'[- ]' '{ printf "%x-%x", strtonum("0x" $1), strtonum("0x" $2) }') $(thread_of exec 1)"
expect "exec: the thread's stack is explained" "$(rec exec 'r["rwx"][0]["why"]')" \
    "executable as $B/procprog-exec asks (marked exec)"
expect "exec: matches" "$(rec exec 'r["matches"]')" true
expect "exec: findings" "$(rec exec 'r["findings"]')" '["proc-exec-stack", "proc-rwx-memory"]'

expect "clean: the stack maps shows is not executable" "$(maps_stack "$pid_clean")" rw-p
expect "clean: nothing asks" "$(rec clean "$CAUSES")" ""
expect "clean: matches, no finding" "$(rec clean '[r["matches"], r["findings"]]')" '[true, []]'

expect "mprotect: the stack maps shows is executable" "$(maps_stack "$pid_mprotect")" rwxp
expect "mprotect: the JIT memory maps shows is rwx" \
    "$(maps_holding "$pid_mprotect" "$(sed -n 's/^jit: //p' "$T/mprotect.out")" | cut -d' ' -f2)" rwxp
expect "mprotect: nothing asks" "$(rec mprotect "$CAUSES")" ""
expect "mprotect: unexplained" "$(rec mprotect '[a["why"] for a in r["rwx"]]')" '[null]'
expect "mprotect: differs" "$(rec mprotect 'r["matches"]')" false
expect_match "mprotect: says the stack was made executable at run time" "$(rec mprotect 'r["differs"]')" \
    "its stack is executable, though nothing it loaded asks for it, nor its environment: made so at run time*"
expect "mprotect: findings" "$(rec mprotect 'r["findings"]')" '["proc-unasked-exec-stack", "proc-rwx-memory"]'

expect "deleted: maps shows the library deleted" \
    "$(grep -c "$B/del/libstacktest-asm.so (deleted)\$" "/proc/$pid_deleted/maps" | awk '$1 > 0 { print "yes" }')" yes
expect "deleted: the stack maps shows is executable" "$(maps_stack "$pid_deleted")" rwxp
expect "deleted: asked for by the deleted library" "$(rec deleted "$CAUSES")" \
    "$B/del/libstacktest-asm.so (deleted) marked exec main=True threads=True"
expect "deleted: matches, every file read" "$(rec deleted '[r["matches"], r["unread"]]')" '[true, []]'

root_bw=$(readlink "/proc/$pid_dlopen/root")
expect "dlopen: its root is not this machine's" "$(test "$root_bw" != / && echo yes)" yes
expect "dlopen: maps names the library under that root" \
    "$(grep -c " $root_bw/usr/local/lib/libstacktest-asm.so\$" "/proc/$pid_dlopen/maps" | awk '$1 > 0 { print "yes" }')" yes
expect "dlopen: the stack maps shows is executable" "$(maps_stack "$pid_dlopen")" rwxp
expect "dlopen: its root and program, as it names them" "$(rec dlopen '[r["root"], r["exe"]]')" \
    "[\"$root_bw\", \"/usr/local/bin/procprog\"]"
expect "dlopen: asked for by the library, named in its root" "$(rec dlopen "$CAUSES")" \
    "/usr/local/lib/libstacktest-asm.so marked exec main=True threads=True"
expect "dlopen: matches" "$(rec dlopen 'r["matches"]')" true

expect "unmarked: the stack maps shows is not executable" "$(maps_stack "$pid_unmarked")" rw-p
expect "unmarked: its thread's stack is rwx in maps" \
    "$(maps_holding "$pid_unmarked" "$(thread_of unmarked 2)" | cut -d' ' -f2)" rwxp
expect "unmarked: its program asks for executable thread stacks, not a main one" "$(rec unmarked "$CAUSES")" \
    "/usr/local/bin/procprog-unmarked unmarked: glibc makes thread stacks executable main=False threads=True"
expect "unmarked: the thread's stack is named and explained" \
    "$(rec unmarked '[[a["thread"], a["why"]] for a in r["rwx"]]')" \
    "[[$(thread_of unmarked 1), \"executable as /usr/local/bin/procprog-unmarked asks (unmarked: glibc makes thread stacks executable)\"]]"
expect "unmarked: matches, one finding" "$(rec unmarked '[r["matches"], r["findings"]]')" '[true, ["proc-rwx-memory"]]'

expect "tunable: its environment sets the tunable" \
    "$(tr '\0' '\n' <"/proc/$pid_tunable/environ" | grep -c '^GLIBC_TUNABLES=glibc.rtld.execstack=2$')" 1
expect "tunable: the stack maps shows is executable" "$(maps_stack "$pid_tunable")" rwxp
expect "tunable: asked for by its environment" "$(rec tunable "$CAUSES")" \
    "None GLIBC_TUNABLES=glibc.rtld.execstack=2 in its environment main=True threads=True"
expect "tunable: matches" "$(rec tunable 'r["matches"]')" true

expect "secure: its environment sets the tunable" \
    "$(tr '\0' '\n' <"/proc/$pid_secure/environ" | grep -c '^GLIBC_TUNABLES=glibc.rtld.execstack=2$')" 1
expect "secure: it runs setuid (real uid nobody, effective root)" \
    "$(awk '$1 == "Uid:" { print $2, $3 }' "/proc/$pid_secure/status")" "65534 0"
expect "secure: the stack maps shows is not executable" "$(maps_stack "$pid_secure")" rw-p
expect "secure: nothing asks (AT_SECURE)" "$(rec secure "$CAUSES")" ""
expect "secure: matches" "$(rec secure 'r["matches"]')" true

# The summary counts the records, each count as the records give it.
expect "--summary: the counts of the records" "$(python3 - "$T/proc.json" <<'PY'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
summary = recs.pop()["summary"]["processes"]
def count(pred):
    return sum(1 for r in recs if pred(r))
has = lambda k: lambda r: k in r.get("findings", [])
state = lambda s: lambda r: r["state"] == s
want = {"processes_read": count(state("read")),
        "proc_findings": count(lambda r: r.get("findings")),
        "proc_exec_stack": count(has("proc-exec-stack")),
        "proc_unasked": count(has("proc-unasked-exec-stack")),
        "proc_rwx": count(has("proc-rwx-memory")),
        "proc_differs": count(lambda r: r.get("matches") is False),
        "kernel_threads": count(state("kernel-thread")),
        "proc_exited": count(state("exited")),
        "proc_unreadable": count(state("unreadable"))}
print(summary == want and want["processes_read"] > 5 and want["proc_differs"] > 0 or summary)
PY
)" True

# Text: a line a process, saying whether it is as its files say.
"$ELFSCAN" --no-progress --proc="$pids" >"$T/proc.txt" 2>&1
expect_match "text: exec" "$(grep " pid $pid_exec " "$T/proc.txt")" \
    "proc-exec-stack,proc-rwx-memory pid $pid_exec (procprog-exec) $B/procprog-exec: stack rwxp, asked for by $B/procprog-exec (marked exec); rwx *(* KiB, anonymous, the stack of thread $(thread_of exec 1)): executable as $B/procprog-exec asks (marked exec); matches"
expect_match "text: mprotect" "$(grep " pid $pid_mprotect " "$T/proc.txt")" \
    "proc-unasked-exec-stack,proc-rwx-memory pid $pid_mprotect (procprog) $B/procprog: stack rwxp; rwx *(64 KiB, anonymous): nothing it loaded asks for it; differs: *"
expect_match "text: dlopen" "$(grep " pid $pid_dlopen " "$T/proc.txt")" \
    "proc-exec-stack * /usr/local/bin/procprog (root $root_bw): stack rwxp, asked for by /usr/local/lib/libstacktest-asm.so (marked exec); matches"
expect "text: a line each" "$(grep -c ' pid ' "$T/proc.txt")" 8

# SARIF: a result per finding at the program's path; valid.
"$ELFSCAN" --no-progress --proc="$pids" --format=sarif >"$T/proc.sarif" 2>"$T/sarif.err"
"$tool" validate "$T/proc.sarif" -o "$T/proc.sarif.v" --log ForceOverwrite >"$T/v.log" 2>&1 ||
    fail "the validator ran: $(cat "$T/v.log")"
# validate LOG.v: the validator's errors and warnings, one a line
validate() {
	python3 -c '
import json, sys
for run in json.load(open(sys.argv[1]))["runs"]:
    for r in run.get("results", []):
        if r.get("level", "warning") in ("error", "warning"):
            print(r["ruleId"], r["message"].get("arguments"))' "$1"
}
expect "sarif: the validator finds no error or warning" "$(validate "$T/proc.sarif.v")" ""
expect "sarif: the results, at the programs" "$(python3 -c '
import json, sys
for r in json.load(open(sys.argv[1]))["runs"][0]["results"]:
    print(r["ruleId"], r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"])' "$T/proc.sarif" | sort)" \
    "$(printf '%s\n' "proc-exec-stack file://$B/del/linked-asm" "proc-exec-stack file://$B/procprog-exec" \
	"proc-exec-stack file://$root_bw/usr/local/bin/procprog" "proc-exec-stack file://$(readlink "/proc/$pid_tunable/root")/usr/local/bin/procprog" \
	"proc-rwx-memory file://$B/procprog" "proc-rwx-memory file://$B/procprog-exec" \
	"proc-rwx-memory file://$root_bw/usr/local/bin/procprog-unmarked" \
	"proc-unasked-exec-stack file://$B/procprog" | sort)"

# A bad list, and a process that is not there: errors.
"$ELFSCAN" --no-progress --proc=12x >/dev/null 2>"$T/bad.err"
expect "--proc=12x: exit status 2" "$?" 2
expect "--proc=12x: said" "$(head -n 1 "$T/bad.err")" "elfscan: --proc=12x: not a list of process ids"
"$ELFSCAN" --no-progress --proc="$zombie" --proc=2147483647 >"$T/none.txt" 2>"$T/none.err"
expect "a process that is not there: exit status 2" "$?" 2
expect "a process that is not there: said" "$(cat "$T/none.err")" "elfscan: pid 2147483647: no such process"

# A zombie has exited: said so, and no error.
expect "zombie: maps says it is a zombie" "$(awk '{ print $3 }' "/proc/$zombie/stat")" Z
"$ELFSCAN" --no-progress --proc="$zombie" --format=json >"$T/zombie.json" 2>"$T/zombie.err"
expect "zombie: exit status 0" "$?" 0
expect "zombie: exited" "$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["state"])' "$T/zombie.json")" exited
"$ELFSCAN" --no-progress --proc="$zombie" >"$T/zombie.txt" 2>&1
expect "zombie: said in text" "$(cat "$T/zombie.txt")" \
    "-                  pid $zombie (procprog): exited while it was read"

# Every process of this machine, while hundreds come and go: each is read,
# a kernel thread, exited, or unreadable, and only those that are still
# there and that this test cannot read either are unreadable; the scan
# reaches the end.
sh -c 'while :; do /bin/true; done' &
loop=$!
started="$started $loop"
for i in 1 2 3; do
	"$ELFSCAN" --no-progress --proc --format=json --summary >"$T/all$i.json" 2>"$T/all$i.err"
done
"$ELFSCAN" --no-progress --proc --format=sarif >"$T/all.sarif" 2>"$T/all-sarif.err"
expect_match "all processes, SARIF: the scan ends (0, 1 or 2)" "$?" "[012]"
kill "$loop"
"$tool" validate "$T/all.sarif" -o "$T/all.sarif.v" --log ForceOverwrite >"$T/v.log" 2>&1 ||
    fail "the validator ran: $(cat "$T/v.log")"
expect "all processes, SARIF (kernel threads, exits, notifications): valid" "$(validate "$T/all.sarif.v")" ""
for i in 1 2 3; do
	python3 - "$T/all$i.json" >"$T/all$i.check" <<'PY'
import json, os, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
summary = recs.pop()["summary"]["processes"]
states = {}
for r in recs:
    states[r["state"]] = states.get(r["state"], 0) + 1
    if r["state"] != "unreadable":
        continue
    if not os.path.exists("/proc/%d" % r["pid"]):
        print("pid %d unreadable, but it has exited" % r["pid"])
        continue
    try:
        open("/proc/%d/maps" % r["pid"]).read()
        print("pid %d unreadable, but the test reads it" % r["pid"])
    except OSError:
        pass
print("counted", summary["processes_read"] == states.get("read", 0),
      summary["kernel_threads"] == states.get("kernel-thread", 0),
      summary["proc_exited"] == states.get("exited", 0),
      summary["proc_unreadable"] == states.get("unreadable", 0))
print("note: %d processes read, %d exited while read, %d unreadable" % (states.get("read", 0),
      states.get("exited", 0), states.get("unreadable", 0)), file=sys.stderr)
PY
	expect "all processes, run $i: unreadable only where the test cannot read, each state counted" \
	    "$(cat "$T/all$i.check")" "counted True True True True"
	expect "all processes, run $i: the test's processes are read" \
	    "$(python3 -c 'import json, sys
want = set(int(p) for p in sys.argv[2].split(","))
print(sorted(want - set(json.loads(l).get("pid", 0) for l in open(sys.argv[1]) if json.loads(l).get("state") == "read")))' \
	    "$T/all$i.json" "$pids")" "[]"
done

# Run by nobody: root's processes cannot be read, said so; its own is
# read, by its paths (it cannot open map_files), and the scan goes on.
nobody_setup
start mine setpriv --reuid=nobody --regid=nogroup --clear-groups "$B/procprog"
as_nobody "$N/bin/elfscan" --no-progress --proc="$pid_exec,$pid_mine" --format=json >"$T/nobody.json" 2>"$T/nobody.err"
expect "nobody: exit status 2" "$?" 2
expect "nobody: root's process is unreadable" \
    "$(python3 -c 'import json, sys; r = json.loads(open(sys.argv[1]).readline()); print(r["pid"], r["state"], r["error"])' "$T/nobody.json")" \
    "$pid_exec unreadable cannot read its memory map: Permission denied"
expect "nobody: its own process is read, as maps shows it" \
    "$(python3 -c 'import json, sys; r = json.loads(open(sys.argv[1]).readlines()[1]); print(r["state"], r["stack"], r["unread"], r["matches"])' "$T/nobody.json")" \
    "read $(maps_stack "$pid_mine") [] True"
as_nobody "$N/bin/elfscan" --no-progress --proc="$pid_exec,$pid_mine" >"$T/nobody.txt" 2>"$T/nobody.err"
expect "nobody: text: root's process said on the standard error" "$(cat "$T/nobody.err")" \
    "elfscan: pid $pid_exec (procprog-exec): cannot read its memory map: Permission denied"
expect_match "nobody: text: its own process read" "$(cat "$T/nobody.txt")" \
    "-                  pid $pid_mine (procprog) $B/procprog: stack rw-p; matches"
finish
