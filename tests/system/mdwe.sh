# tests/system/mdwe.sh - sourced by the system tests, after tests/lib.sh:
# the MemoryDenyWriteExecute oracle. kernel/mdwe.sh boots Linux 6.12
# (kernel/6.12, stock, from the kernel cache or built once) and runs each
# program there twice through a static wrapper: without and with
# prctl(PR_SET_MDWE, PR_MDWE_REFUSE_EXEC_GAIN), as systemd sets it for
# MemoryDenyWriteExecute=yes. What MDWE does to a program is then what
# that kernel did, whatever kernel this machine runs.
#
#   mdwe_boot PLAN DIR [ROOT]
#                     run kernel/mdwe.sh on PLAN ("run NAME PROGRAM ARG..."
#                     and "file PATH" lines; see kernel/mdwe.sh), the
#                     programs and their libraries taken from ROOT
#                     (default /); the report goes to DIR. Exits 99 with
#                     an ERROR line when the oracle cannot run
#   mdwe_verdict DIR NAME MODE
#                     print the verdict of run NAME in MODE ("control" or
#                     "mdwe"): "exit N", "signal N", "timeout N", "error
#                     TEXT", or "none" if there is no such run
#   mdwe_output DIR NAME MODE
#                     print what run NAME printed in MODE
#   mdwe_predict JSON what elfscan's JSON Lines say of each service's
#                     commands, "SERVICE PROGRAM OUTCOME"
#   mdwe_outcome VERDICT OUTPUT PROGRAM
#                     what a run did, in mdwe_predict's words
#   mdwe_agree ...    one command's agreement, checked and tabled
#   mdwe_run VIEW ROOT DIR PLAN
#                     mdwe_boot for a view of tests/system/roots.sh
#   mdwe_table ...    every command's (mdwe_agree), from a file
#   mdwe_reading VIEW ROOT UNIT
#                     systemd's reading of MemoryDenyWriteExecute=
#   mdwe_fixtures DIR build the oracle's fixtures (tests/fixtures/system/
#                     mdwe-*) into DIR/bin, DIR/lib (the libraries the
#                     programs need) and DIR/plugins (copies of them, which
#                     the programs dlopen), check the shape of each with
#                     readelf, and write DIR/plan, which runs them all;
#                     needs CHSTK, which unmarks the i386 ones

# mdwe_boot PLAN DIR [ROOT]
mdwe_boot() {
	need gcc readelf cpio flock qemu-system-x86_64
	sh "$top_srcdir/kernel/mdwe.sh" -r "${3:-/}" -o "$2" "$1" || {
		echo "ERROR: kernel/mdwe.sh could not run $1 (status $?)"
		exit 99
	}
}

# mdwe_verdict DIR NAME MODE
mdwe_verdict() {
	v=$(awk -v n="$2" -v m="$3" '$1 == n && $2 == m {
		sub(/^[^ ]* [^ ]* /, ""); print; exit }' "$1/results")
	echo "${v:-none}"
}

# mdwe_output DIR NAME MODE
mdwe_output() {
	[ -f "$1/out/$2.$3" ] && cat "$1/out/$2.$3"
	return 0
}

# mdwe_predict JSON: what elfscan says of each command, "SERVICE PROGRAM
# OUTCOME" (SERVICE without ".service", a template's with its "@"),
# OUTCOME killed, refused NAME (the file at fault, or "tunable"),
# nothreads, execstack, unresolved; a command without a verdict is not
# listed (it runs). A service is a host named NAME.service, or of a suite
# PACKAGE!DIR/NAME.service; the other hosts are programs.
mdwe_predict() {
	python3 - "$1" <<'PY'
import json, os, sys
rank = {"killed": 5, "refused": 4, "unresolved": 3, "nothreads": 2,
        "execstack": 1}
out = {}
for line in open(sys.argv[1]):
    r = json.loads(line)
    if "verdict" not in r:
        continue
    v, why, subject = r["verdict"], r["why"], r["subject"]
    if v == "mdwe-breaks":
        if "kills" in why:
            o = "killed"
        elif "exits 127" in why:
            o = "refused " + ("tunable" if "glibc.rtld.execstack=2" in why
                              else os.path.basename(subject))
        elif "cannot start a thread" in why:
            o = "nothreads"
        else:
            o = "unknown " + why
    elif v == "startup-refused":
        o = "refused " + os.path.basename(subject)
    elif v in ("tunable-exec-stack", "stack-made-exec"):
        o = "execstack"
    elif v == "unresolved-library":
        o = "unresolved"
    else:
        continue
    for h in r["hosts"]:
        unit = os.path.basename(h["path"].rsplit("!", 1)[-1])
        if h["path"].startswith("/") and "!" not in h["path"] or \
                not unit.endswith(".service"):
            continue
        prog = h["via"].split(" ")[0].split("=", 1)[1]
        key = (unit[:-len(".service")], prog)
        old = out.get(key)
        if old is None or rank[o.split(" ")[0]] > rank[old.split(" ")[0]]:
            out[key] = o
for (s, prog), o in sorted(out.items()):
    print(s, prog, o)
PY
}

# mdwe_outcome VERDICT OUTPUT PROGRAM: what happened to a run ("exit N",
# "signal N"), in the words of predict.
mdwe_outcome() {
	case $1 in
	"signal 11") echo killed; return ;;
	"exit 127")
		case $2 in
		*"as tunable requires"*) echo "refused tunable" ;;
		*"executable stack is not allowed"*) echo "refused ${3##*/}" ;;
		*"error while loading shared libraries: "*)
			f=$(printf '%s\n' "$2" | sed -n 's/.*error while loading shared libraries: \([^:]*\):.*/\1/p' | head -n 1)
			# No file named: the program itself.
			case $f in *" "*) f=$3 ;; esac
			echo "refused ${f##*/}" ;;
		*) echo "other ($1)" ;;
		esac
		return ;;
	esac
	case $2 in
	*"thread error"*) echo nothreads ;;
	*"stack rwxp"*) echo execstack ;;
	*) [ "$1" = "exit 0" ] && echo runs || echo "other ($1)" ;;
	esac
}

# mdwe_agree VIEW PREDICTED SERVICE MDWE RUN PROGRAM DID CONTROL MODE: the
# agreement of one command, checked and tabled in $T/table-VIEW: what
# elfscan PREDICTED (mdwe_predict's) for SERVICE's PROGRAM is what the
# kernel DID in MODE, and the CONTROL run (without) ran.
mdwe_agree() {
	e=${3%@*}
	[ "$e" != "$3" ] && e=$e@
	said=$(awk -v s="$e" -v c="$6" '$1 == s && $2 == c { $1 = $2 = ""; sub(/^ */, ""); print }' "$2")
	said=${said:-runs}
	printf '%-16s %-34s %-7s %-28s %-28s %s\n' "$3" "$6" "$9" "$7" \
	    "$said" "$8" >>"$T/table-$1"
	expect "$1: $3: $6 under $9: elfscan's verdict is what was done" "$said" "$7"
	if [ "$9" != control ]; then
		case $8 in
		runs | execstack) pass "$1: $3: $6: it runs without MemoryDenyWriteExecute=" ;;
		*) fail "$1: $3: $6: it runs without MemoryDenyWriteExecute=: got '$8'" ;;
		esac
	fi
}

# mdwe_run VIEW ROOT DIR PLAN: kernel/mdwe.sh runs PLAN with the files of
# ROOT, the view's directory, its report in DIR (exit 99 when it cannot);
# the guest runs Linux 6.12, and its programs have PR_SET_MDWE.
mdwe_run() {
	root_host "$1" sh "$top_srcdir/kernel/mdwe.sh" -r "$2" -o "$3" "$4" ||
	    { echo "ERROR: kernel/mdwe.sh could not run the plan"; exit 99; }
	kernel=$(cat "$3/kernel")
	expect_match "the guest runs Linux 6.12" "${kernel%% *}" "6.12.*"
	expect "the guest's programs have PR_SET_MDWE after execve()" \
	    "$(mdwe_output "$3" mdwe-exec mdwe)" "PR_GET_MDWE 1"
}

# mdwe_table VIEW DIR PREDICTED PLUS COMMANDS: for each line of the file
# COMMANDS, "SERVICE MDWE RUN PROGRAM" (MDWE as systemd reads the unit,
# RUN the command's run in the report DIR), what the kernel did, under
# MemoryDenyWriteExecute= where it is in force (not for PLUS, the "+"
# service), agrees with elfscan's PREDICTED (mdwe_agree).
mdwe_table() {
	printf '%-16s %-34s %-7s %-28s %-28s %s\n' SERVICE PROGRAM MODE \
	    KERNEL ELFSCAN CONTROL >"$T/table-$1"
	while read -r s m run c; do
		mode=control
		# "+": no sandboxing (systemd-analyze does not say; the unit
		# does).
		[ "$m" = yes ] && [ "$s" != "$4" ] && mode=mdwe
		did=$(mdwe_outcome "$(mdwe_verdict "$2" "$run" $mode)" \
		    "$(mdwe_output "$2" "$run" $mode)" "$c")
		ctl=$(mdwe_outcome "$(mdwe_verdict "$2" "$run" control)" \
		    "$(mdwe_output "$2" "$run" control)" "$c")
		mdwe_agree "$1" "$3" "$s" "$m" "$run" "$c" "$did" "$ctl" $mode
	done <"$5"
}

# mdwe_reading VIEW ROOT UNIT: MemoryDenyWriteExecute= of UNIT as systemd
# reads it from ROOT, the view's directory (systemd-analyze security
# --offline): yes, no, or unloaded when systemd does not load the unit.
mdwe_reading() {
	root_host "$1" systemd-analyze security --offline=true --root="$2" \
	    --json=short "$3" 2>/dev/null | python3 -c 'import json, sys
try:
    print(["no", "yes"][[e["set"] for e in json.load(sys.stdin) if e["name"] == "MemoryDenyWriteExecute="][0]])
except Exception:
    print("unloaded")'
}

# GNU_STACK's flags in FILE ("RW", "RWE"), "none" without the header.
mdwe_stack_flags() {
	f=$(readelf -lW "$1" | awk '$1 == "GNU_STACK" { print $7 }')
	echo "${f:-none}"
}

# "yes" if a PT_LOAD segment of FILE is writable and executable.
mdwe_wx_load() {
	readelf -lW "$1" | awk '$1 == "LOAD" {
			f = ""
			for (i = 7; i <= NF; i++) if ($i ~ /^[RWE]+$/) f = f $i
			if (f ~ /W/ && f ~ /E/) wx = 1
		}
		END { print wx ? "yes" : "no" }'
}

# "yes" if FILE has DT_TEXTREL.
mdwe_textrel() {
	if readelf -dW "$1" | grep -q '(TEXTREL)'; then echo yes; else echo no; fi
}

# mdwe_shape FILE STACK WX TEXTREL: FILE is what its name says, by readelf.
mdwe_shape() {
	expect "${1##*/}: GNU_STACK" "$(mdwe_stack_flags "$1")" "$2"
	expect "${1##*/}: a W+X PT_LOAD" "$(mdwe_wx_load "$1")" "$3"
	expect "${1##*/}: DT_TEXTREL" "$(mdwe_textrel "$1")" "$4"
}

# mdwe_fixtures DIR
mdwe_fixtures() {
	d=$1 src=$top_srcdir/tests/fixtures/system
	cc="${CC:-gcc} -O2 -Wall -Wextra -Werror"
	rp='-Wl,-rpath,$ORIGIN/../lib'
	mkdir -p "$d/bin" "$d/lib"
	# The libraries: clean; asking for an executable stack (a .S file
	# without .note.GNU-stack); with a W+X segment; with text
	# relocations (non-PIC code, -z notext).
	$cc -shared -fPIC -o "$d/lib/libmdwe-clean.so" "$src/mdwe-lib.c"
	$cc -shared -fPIC -o "$d/lib/libmdwe-xstack.so" "$src/mdwe-xstack.S"
	$cc -shared -fPIC -o "$d/lib/libmdwe-wx.so" "$src/mdwe-lib.c" \
		"$src/mdwe-wx.S"
	$cc -shared -Wl,-z,notext -o "$d/lib/libmdwe-textrel.so" \
		"$src/mdwe-textrel.S"
	mdwe_shape "$d/lib/libmdwe-clean.so" RW no no
	mdwe_shape "$d/lib/libmdwe-xstack.so" RWE no no
	mdwe_shape "$d/lib/libmdwe-wx.so" RW yes no
	mdwe_shape "$d/lib/libmdwe-textrel.so" RW no yes
	# What dlopen() opens: copies elsewhere, so that the libraries the
	# programs need reach the guest only through the oracle's closure.
	mkdir -p "$d/plugins"
	for l in clean xstack wx textrel; do
		cp "$d/lib/libmdwe-$l.so" "$d/plugins/"
	done
	# The programs (PIEs, as gcc builds them, but the static one).
	$cc -o "$d/bin/mdwe-clean" "$src/mdwe-prog.c"
	$cc -z execstack -o "$d/bin/mdwe-execstack" "$src/mdwe-prog.c"
	$cc -o "$d/bin/mdwe-wx" "$src/mdwe-prog.c" "$src/mdwe-wx.S"
	$cc -static -o "$d/bin/mdwe-wx-static" "$src/mdwe-prog.c" \
		"$src/mdwe-wx.S"
	$cc -DMDWE_LIB -Wl,-z,notext -o "$d/bin/mdwe-textrel-pie" \
		"$src/mdwe-prog.c" "$src/mdwe-textrel.S"
	for l in xstack wx textrel; do
		$cc -DMDWE_LIB "$rp" -o "$d/bin/mdwe-needs-$l" "$src/mdwe-prog.c" \
			-L"$d/lib" -lmdwe-$l
	done
	mdwe_shape "$d/bin/mdwe-clean" RW no no
	mdwe_shape "$d/bin/mdwe-execstack" RWE no no
	mdwe_shape "$d/bin/mdwe-wx" RW yes no
	mdwe_shape "$d/bin/mdwe-wx-static" RW yes no
	mdwe_shape "$d/bin/mdwe-textrel-pie" RW no yes
	for l in xstack wx textrel; do
		mdwe_shape "$d/bin/mdwe-needs-$l" RW no no
		expect "mdwe-needs-$l: DT_NEEDED" "$(readelf -dW "$d/bin/mdwe-needs-$l" |
			sed -n 's/.*(NEEDED).*\[\(libmdwe.*\)\]$/\1/p')" "libmdwe-$l.so"
	done
	# i386: without PT_GNU_STACK (the kernel gives READ_IMPLIES_EXEC),
	# dynamic and static; marked non-executable; marked executable.
	$cc -m32 -o "$d/bin/mdwe-i386" "$src/mdwe-prog.c"
	$cc -m32 -static -o "$d/bin/mdwe-i386-static" "$src/mdwe-prog.c"
	cp "$d/bin/mdwe-i386" "$d/bin/mdwe-i386-clean"
	$cc -m32 -z execstack -o "$d/bin/mdwe-i386-execstack" "$src/mdwe-prog.c"
	"$CHSTK" -D "$d/bin/mdwe-i386" "$d/bin/mdwe-i386-static"
	mdwe_shape "$d/bin/mdwe-i386" none no no
	mdwe_shape "$d/bin/mdwe-i386-static" none no no
	mdwe_shape "$d/bin/mdwe-i386-clean" RW no no
	mdwe_shape "$d/bin/mdwe-i386-execstack" RWE no no
	expect "mdwe-i386: ELF class" "$(readelf -hW "$d/bin/mdwe-i386" |
		awk '$1 == "Class:" { print $2 }')" ELF32
	expect "mdwe-i386-static: no interpreter" "$(readelf -lW "$d/bin/mdwe-i386-static" |
		grep -c 'program interpreter')" 0
	cat >"$d/plan" <<-EOF
	run mdwe-clean $d/bin/mdwe-clean
	run mdwe-clean-thread $d/bin/mdwe-clean thread
	run mdwe-mmap $d/bin/mdwe-clean mmap
	run mdwe-execstack $d/bin/mdwe-execstack
	run mdwe-execstack-thread $d/bin/mdwe-execstack thread
	run mdwe-needs-xstack $d/bin/mdwe-needs-xstack
	run mdwe-wx $d/bin/mdwe-wx
	run mdwe-wx-static $d/bin/mdwe-wx-static
	run mdwe-needs-wx $d/bin/mdwe-needs-wx
	run mdwe-needs-textrel $d/bin/mdwe-needs-textrel
	run mdwe-textrel-pie $d/bin/mdwe-textrel-pie
	run mdwe-dlopen-clean $d/bin/mdwe-clean dlopen $d/plugins/libmdwe-clean.so
	run mdwe-dlopen-xstack $d/bin/mdwe-clean dlopen $d/plugins/libmdwe-xstack.so
	run mdwe-dlopen-wx $d/bin/mdwe-clean dlopen $d/plugins/libmdwe-wx.so
	run mdwe-dlopen-textrel $d/bin/mdwe-clean dlopen $d/plugins/libmdwe-textrel.so
	run mdwe-i386-clean $d/bin/mdwe-i386-clean
	run mdwe-i386 $d/bin/mdwe-i386
	run mdwe-i386-static $d/bin/mdwe-i386-static
	run mdwe-i386-execstack $d/bin/mdwe-i386-execstack
	file $d/plugins/libmdwe-clean.so
	file $d/plugins/libmdwe-xstack.so
	file $d/plugins/libmdwe-wx.so
	file $d/plugins/libmdwe-textrel.so
	EOF
}
