#!/bin/sh
# MemoryDenyWriteExecute=yes, service by service (elfscan --system), against
# what a booted Linux 6.12 does to each service's commands. A Debian 13 root
# (glibc 2.41, with glibc.rtld.execstack=2) gets the MDWE oracle's fixtures
# (tests/system/mdwe.sh: a clean program, W+X programs, libraries asking
# for an executable stack, with a W+X segment or text relocations, a PIE
# with text relocations, a program marked exec-stack, an i386 program
# without PT_GNU_STACK) and a few more (an x86-64 program without
# PT_GNU_STACK, a library found first through LD_LIBRARY_PATH, a script),
# each the command of a systemd service written into the root's unit
# directories as systems have them: vendor units overridden, masked,
# aliased, templates, drop-ins of the name, of a dash prefix and of the
# admin hiding the vendor's, resets, later assignments winning, every
# boolean spelling, Environment=, EnvironmentFile=, DefaultEnvironment=,
# the "+" prefix, and bad files. The root's own Debian units come along.
#
# Two oracles, neither elfscan's: systemd's own parser (systemd-analyze
# --offline, which loads the units from the root's files as the manager
# does) says which services have MemoryDenyWriteExecute= in force and
# which commands each runs; kernel/mdwe.sh boots Linux 6.12 and runs every
# such command twice, without and with prctl(PR_SET_MDWE), as systemd 254
# and later start a service. elfscan's verdicts, read from the root's files,
# must name the same outcome for every command: killed at exec, refused at
# start naming the same file, started but unable to start a thread, or
# running. A second root whose manager is systemd 252 (the seccomp filter)
# with DefaultEnvironment= setting the tunable checks what differs.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/system/roots.sh"
. "$top_srcdir/tests/system/mdwe.sh"
need gcc readelf python3 systemd-analyze debootstrap unshare chroot flock mount
: "${ELFSCAN:?}"
[ "$(id -u)" = 0 ] ||
    { echo "ERROR: the roots need root (debootstrap, mount, chroot)"; exit 99; }

# ---- The fixtures ----

F=$T/fix
mdwe_fixtures "$F" >"$T/shapes" 2>"$T/build.log" ||
    { cat "$T/build.log"; fail "the MDWE fixtures build"; finish; }
grep '^FAIL' "$T/shapes" && fail "the MDWE fixtures have their shapes"
src=$top_srcdir/tests/fixtures/system
cc="gcc -O2 -Wall -Wextra -Werror"
mkdir -p "$F/sel" "$F/sd257" "$F/sd252"
cp "$F/bin/mdwe-clean" "$F/bin/mdwe-unmarked" &&
    "$CHSTK" -D "$F/bin/mdwe-unmarked" &&
    $cc -shared -fPIC -Wl,-soname,libmdwe-sel.so -o "$F/lib/libmdwe-sel.so" \
	"$src/mdwe-lib.c" &&
    $cc -shared -Wl,-z,notext -Wl,-soname,libmdwe-sel.so \
	-o "$F/sel/libmdwe-sel.so" "$src/mdwe-textrel.S" &&
    $cc -DMDWE_LIB -o "$F/bin/mdwe-needs-sel" "$src/mdwe-prog.c" \
	-L"$F/lib" -lmdwe-sel &&
    printf '#!/usr/local/bin/mdwe-wx\n' >"$F/bin/wx-script" &&
    chmod 755 "$F/bin/wx-script" ||
    { cat "$T/build.log"; fail "the fixtures build"; finish; }
# The managers: what elfscan reads of them is the library they need.
for v in 257 252; do
	gcc -shared -fPIC -Wl,-soname,libsystemd-shared-$v.so \
	    -o "$F/sd$v/libsystemd-shared-$v.so" "$FIX/lib.c" &&
	    gcc -o "$F/sd$v/systemd" "$FIX/hello.c" -Wl,--no-as-needed \
	    -L"$F/sd$v" -l:libsystemd-shared-$v.so ||
	    { fail "the systemd $v stand-in builds"; finish; }
	expect "the systemd $v stand-in needs libsystemd-shared-$v.so" \
	    "$(readelf -dW "$F/sd$v/systemd" | sed -n 's/.*(NEEDED).*\[\(libsystemd-shared.*\)\]$/\1/p')" \
	    "libsystemd-shared-$v.so"
done
mdwe_shape "$F/bin/mdwe-unmarked" none no no
mdwe_shape "$F/lib/libmdwe-sel.so" RW no no
mdwe_shape "$F/sel/libmdwe-sel.so" RW no yes
expect "mdwe-needs-sel needs libmdwe-sel.so, without a RUNPATH" \
    "$(readelf -dW "$F/bin/mdwe-needs-sel" | grep -c -e 'NEEDED.*\[libmdwe-sel.so\]' -e RUNPATH -e RPATH)" 1

# ---- The root: programs, libraries, units ----

U=$T/tree
mkdir -p "$U/usr/local/bin" "$U/usr/local/lib" "$U/opt/sel/lib" \
    "$U/usr/lib/systemd/system" "$U/etc/systemd/system" "$U/etc/default"
cp "$F"/bin/* "$U/usr/local/bin/"
cp "$F"/lib/* "$U/usr/local/lib/"
cp "$F/sel/libmdwe-sel.so" "$U/opt/sel/lib/"
cp "$F/sd257/systemd" "$U/usr/lib/systemd/systemd"
cp "$F/sd257/libsystemd-shared-257.so" "$U/usr/local/lib/"

# The arguments the units give a command: the fixtures start a thread,
# but the i386 one (the test kernel's futex fails its static glibc's
# threads: "The futex facility returned an unexpected error code", even
# without MDWE); a program of the root's own prints its version.
args_of() {
	case $1 in
	*/mdwe-i386*) ;;
	/usr/local/bin/*) echo thread ;;
	*) echo --version ;;
	esac
}

# unit PATH: the unit file (or drop-in) at PATH in the tree, from stdin.
unit() {
	mkdir -p "$U${1%/*}"
	cat >"$U$1"
}
V=/usr/lib/systemd/system E=/etc/systemd/system B=/usr/local/bin
# The verdict services: one fault each, MemoryDenyWriteExecute=yes.
for s in clean wx wx-static needs-xstack needs-wx needs-textrel textrel-pie \
    execstack unmarked i386-static; do
	unit "$V/u-$s.service" <<-EOF
	[Unit]
	Description=mdwe-$s under MemoryDenyWriteExecute=yes

	[Service]
	Type=oneshot
	ExecStart=$B/mdwe-$s $(args_of "$B/mdwe-$s")
	MemoryDenyWriteExecute=yes
	EOF
done
# The library LD_LIBRARY_PATH finds first, set by an admin's drop-in.
unit "$V/u-ldpath.service" <<EOF
[Service]
ExecStart=$B/mdwe-needs-sel thread
MemoryDenyWriteExecute=true
EOF
unit "$E/u-ldpath.service.d/50-path.conf" <<EOF
[Service]
Environment="LD_LIBRARY_PATH=/opt/sel/lib"
EOF
# The tunable at 2, from an EnvironmentFile=.
printf '# the backport value\nGLIBC_TUNABLES="glibc.rtld.execstack=2"\n' \
    >"$U/etc/default/u-tunable2"
unit "$V/u-tunable2.service" <<EOF
[Service]
EnvironmentFile=-/etc/default/u-tunable2
EnvironmentFile=-/etc/default/nothing-here
ExecStart=$B/mdwe-clean thread
MemoryDenyWriteExecute=1
EOF
# The tunable at 0, no MemoryDenyWriteExecute=: glibc's own refusal.
unit "$V/u-tunable0.service" <<EOF
[Service]
Environment=GLIBC_TUNABLES=glibc.rtld.execstack=0 OTHER=1
ExecStart=$B/mdwe-execstack thread
EOF
# "+": no sandboxing, no MemoryDenyWriteExecute=.
unit "$V/u-plus.service" <<EOF
[Service]
ExecStart=+$B/mdwe-wx thread
MemoryDenyWriteExecute=yes
EOF
# Two commands, the first breaking; a bare name; a script.
unit "$V/u-pre.service" <<EOF
[Service]
ExecStartPre=$B/mdwe-needs-wx thread
ExecStart=$B/mdwe-clean thread
MemoryDenyWriteExecute=on
EOF
unit "$V/u-name.service" <<EOF
[Service]
ExecStart=mdwe-wx thread
MemoryDenyWriteExecute=Y
EOF
unit "$V/u-script.service" <<EOF
[Service]
ExecStart=$B/wx-script thread
MemoryDenyWriteExecute=yes
EOF
# Switches: which unit file, which drop-in, which assignment wins. Each
# runs mdwe-wx, which MemoryDenyWriteExecute= kills.
unit "$V/u-override.service" <<EOF
[Service]
ExecStart=$B/mdwe-clean thread
MemoryDenyWriteExecute=yes
EOF
unit "$E/u-override.service" <<EOF
[Service]
ExecStart=$B/mdwe-wx thread
EOF
unit "$V/u-masked.service" <<EOF
[Service]
ExecStart=$B/mdwe-wx thread
MemoryDenyWriteExecute=yes
EOF
ln -s /dev/null "$U$E/u-masked.service"
unit "$V/u-reset.service" <<EOF
[Service]
ExecStart=$B/mdwe-wx thread
MemoryDenyWriteExecute=yes
EOF
unit "$E/u-reset.service.d/override.conf" <<EOF
[Service]
ExecStart=
ExecStart=$B/mdwe-clean \\
    thread
EOF
unit "$V/u-later.service" <<EOF
[Service]
ExecStart=$B/mdwe-wx thread
MemoryDenyWriteExecute=no
EOF
unit "$V/u-later.service.d/10-a.conf" <<EOF
[Service]
MemoryDenyWriteExecute=TRUE
EOF
unit "$E/u-later.service.d/05-z.conf" <<EOF
[Service]
MemoryDenyWriteExecute=off
EOF
unit "$V/u-hidden.service" <<EOF
[Service]
ExecStart=$B/mdwe-wx thread
MemoryDenyWriteExecute=t
EOF
unit "$V/u-hidden.service.d/50-m.conf" <<EOF
[Service]
MemoryDenyWriteExecute=yes
EOF
unit "$E/u-hidden.service.d/50-m.conf" <<EOF
[Service]
MemoryDenyWriteExecute=false
EOF
unit "$V/u-prefix-x.service" <<EOF
[Service]
ExecStart=$B/mdwe-wx thread
EOF
unit "$V/u-prefix-.service.d/mdwe.conf" <<EOF
# the dash prefix's drop-in
[Service]
MemoryDenyWriteExecute=On
EOF
unit "$V/u-real.service" <<EOF
[Service]
ExecStart=$B/mdwe-wx thread
EOF
ln -s "$V/u-real.service" "$U$E/u-alias.service"
unit "$E/u-alias.service.d/mdwe.conf" <<EOF
[Service]
MemoryDenyWriteExecute=yes
EOF
unit "$V/u-tmpl@.service" <<EOF
[Service]
ExecStart=$B/mdwe-wx thread %i
MemoryDenyWriteExecute=yes
EOF
mkdir -p "$U$E/multi-user.target.wants"
ln -s "$V/u-tmpl@.service" "$U$E/multi-user.target.wants/u-tmpl@a.service"
# Templates get their prefix's drop-ins both ways: an instance's prefix
# template ("u-tp-@.service.d") and the plain prefix ("u-tq-.service.d").
for t in tp tq; do
	unit "$V/u-$t-x@.service" <<-EOF
	[Service]
	ExecStart=$B/mdwe-wx thread
	EOF
done
unit "$V/u-tp-@.service.d/mdwe.conf" <<EOF
[Service]
MemoryDenyWriteExecute=yes
EOF
unit "$V/u-tq-.service.d/mdwe.conf" <<EOF
[Service]
MemoryDenyWriteExecute=yes
EOF
unit "$V/u-bool.service" <<EOF
[Service]
ExecStart=$B/mdwe-wx thread
MemoryDenyWriteExecute=maybe
EOF
# Garbage systemd ignores line by line, around a service that stands.
unit "$V/u-garbage.service" <<EOF
MemoryDenyWriteExecute=no
[Unit]
this line is not an assignment
=no key
[X-Whatever]
MemoryDenyWriteExecute=no
[Service]
	ExecStart = $B/mdwe-wx thread
; MemoryDenyWriteExecute=no
MemoryDenyWriteExecute = yes
EOF
# Bad input: files systemd refuses to load, or cannot start, and the
# places elfscan cannot read; each said, the rest goes on.
unit "$V/u-badheader.service" <<EOF
[Service
ExecStart=$B/mdwe-wx thread
MemoryDenyWriteExecute=yes
EOF
printf '[Unit]\nDescription=caf\351\n[Service]\nExecStart=%s/mdwe-wx thread\nMemoryDenyWriteExecute=yes\n' \
    "$B" >"$U$V/u-latin1.service"
{
	printf '[Service]\nMemoryDenyWriteExecute=yes\nExecStart=%s/mdwe-wx thread\nDescription=' "$B"
	head -c 1100000 /dev/zero | tr '\0' x
	printf '\n'
} >"$U$V/u-longline.service"
unit "$V/u-missing.service" <<EOF
[Service]
ExecStart=$B/not-here thread
MemoryDenyWriteExecute=yes
EOF
unit "$V/u-noenv.service" <<EOF
[Service]
EnvironmentFile=/etc/default/u-noenv
ExecStart=$B/mdwe-wx thread
MemoryDenyWriteExecute=yes
EOF
unit "$V/u-badexec.service" <<EOF
[Service]
ExecStart=$B/mdwe-wx "thread
MemoryDenyWriteExecute=yes
EOF
truncate -s 17M "$U$V/u-huge.service"
ln -s u-loop2.service "$U$E/u-loop1.service"
ln -s u-loop1.service "$U$E/u-loop2.service"
ln -s /opt/loop/a.service "$U$E/u-linkloop.service"
mkdir -p "$U/opt/loop"
ln -s a.service "$U/opt/loop/a.service"
# A drop-in directory that is a file, one that is a loop of links.
unit "$V/u-clean.service.d" </dev/null
ln -s u-wx.service.d "$U$V/u-wx.service.d"

# The services, and the verdict services' commands' arguments.
svcs="u-clean u-wx u-wx-static u-needs-xstack u-needs-wx u-needs-textrel
u-textrel-pie u-execstack u-unmarked u-i386-static u-ldpath u-tunable2
u-tunable0 u-plus u-pre u-name u-script u-override u-masked u-reset u-later
u-hidden u-prefix-x u-real u-tmpl@a u-tp-x@a u-tq-x@a u-bool u-garbage
u-badheader u-latin1
u-longline u-missing u-noenv u-badexec u-huge fstrim"


# ---- How each side is read ----

# reading VIEW SERVICE...: what systemd's own parser makes of each
# service of the view, "SERVICE MDWE COMMAND...": MDWE yes or no
# (systemd-analyze security --offline), or unloaded when systemd does not
# load the unit; the commands in order (systemd-analyze verify, run on a
# copy of the unit directories without the programs, names each command it
# cannot execute; a "-" command it does not check, so the units here have
# none).
reading() {
	rv=$1
	shift
	rs=$T/sd-$rv
	mkdir -p "$rs/usr/lib" "$rs/etc" "$rs/opt"
	root_host "$rv" cp -a "$(root_dir "$rv")/usr/lib/systemd" "$rs/usr/lib/"
	root_host "$rv" cp -a "$(root_dir "$rv")/etc/systemd" "$rs/etc/"
	ln -s usr/lib "$rs/lib"
	[ -d "$U/opt/loop" ] && cp -a "$U/opt/loop" "$rs/opt/"
	for s in "$@"; do
		u=$s.service
		m=$(systemd-analyze security --offline=true --root="$rs" --json=short "$u" 2>"$T/sd.err" |
		    python3 -c 'import json, sys
try:
    print(["no", "yes"][[e["set"] for e in json.load(sys.stdin) if e["name"] == "MemoryDenyWriteExecute="][0]])
except Exception:
    print("unloaded")' 2>/dev/null)
		[ "$m" = unloaded ] && sed "s/^/  systemd: /" "$T/sd.err" | head -n 3 >&2
		cmds=$(systemd-analyze verify --man=no --root="$rs" "$u" 2>&1 |
		    sed -n "s|^$u: Command \\(.*\\) is not executable: .*|\\1|p" | tr '\n' ' ')
		echo "$s $m $cmds"
	done
}

# The commands of a reading that systemd would start: "SERVICE MDWE RUN
# PROGRAM", RUN the name of its run; skip: services that do not start.
commands() {
	while read -r s m cmds; do
		[ "$m" = unloaded ] && continue
		case " $2 " in *" $s "*) continue ;; esac
		n=0
		for c in $cmds; do
			case $c in /*) ;; *) c=/usr/local/bin/$c ;; esac
			echo "$s $m $(echo "$s" | tr @ _).$n $c"
			n=$((n + 1))
		done
	done <"$1"
}


# ---- Root one: systemd 257, its services under Linux 6.12 ----

root_new units trixie
root_put_tree units "$U"
root_ldconfig units
R=$(root_dir units)
root_host units "$ELFSCAN" --system --format=json --no-progress "$R" \
    >"$T/units.json" 2>"$T/units.err"
st=$?
expect "elfscan judges the root (status 0 or 1)" \
    "$(test $st -le 1 && echo yes || { cat "$T/units.err"; echo "status $st"; })" yes
echo "what elfscan said on the standard error:"
sed "s|$R||; s/^/  /" "$T/units.err"
rules=$(json_rules "$T/units.json")
expect_match "the rules line: systemd 257, either way (the kernel is not known)" \
    "$rules" "*systemd 257: MemoryDenyWriteExecute= by PR_SET_MDWE on Linux 6.3 and later, else a seccomp filter*"

# Each bad input said, once, as systemd would have it.
said() {
	expect "said: $1" "$(grep -c -F -e "$2" "$T/units.err")" 1
}
said "a bad section header" "u-badheader.service:1: a bad section header: systemd does not load the unit"
said "a line that is not UTF-8" "u-latin1.service:2: not UTF-8: systemd does not load the unit"
said "a line over 1 MiB" "u-longline.service:4: a line longer than 1 MiB: systemd does not load the unit"
said "a missing program" "u-missing.service: ExecStart=/usr/local/bin/not-here: no such program in the root"
said "a missing EnvironmentFile= without -" "u-noenv.service: EnvironmentFile=/etc/default/u-noenv: No such file or directory: systemd does not start u-noenv.service, not judged"
said "an unbalanced quote in a command" "u-badexec.service:2: ExecStart=: not a command systemd can run: it does not load the unit"
said "a 17 MiB unit file" "u-huge.service: cannot be read: larger than 16 MiB"
said "an alias loop (one link)" "u-loop1.service: an alias loop from u-loop1.service: systemd cannot load it"
said "an alias loop (the other)" "u-loop2.service: an alias loop from u-loop2.service: systemd cannot load it"
said "a link loop" "u-linkloop.service: cannot be read: Too many levels of symbolic links"
said "a drop-in directory that is a file" "u-clean.service.d: cannot read the directory: Not a directory"
said "a drop-in directory that is a loop" "u-wx.service.d: cannot read the directory: Too many levels of symbolic links"
said "a line outside any section" "u-garbage.service:1: an assignment outside of a section, ignored as systemd ignores it"
said "a line without =" "u-garbage.service:3: not an assignment, ignored as systemd ignores it"
said "a line with no key" "u-garbage.service:4: not an assignment, ignored as systemd ignores it"
said "a boolean systemd does not take" "u-bool.service:3: MemoryDenyWriteExecute=maybe: not a boolean, ignored as systemd ignores it"

mdwe_predict "$T/units.json" >"$T/predicted-units"
echo "elfscan's verdicts (SERVICE PROGRAM OUTCOME):"
sed 's/^/  /' "$T/predicted-units"

reading units $svcs >"$T/reading-units"
echo "systemd 252's reading (SERVICE MDWE COMMANDS):"
sed 's/^/  /' "$T/reading-units"
expect "systemd's reading of the switches" \
    "$(awk '$1 ~ /^u-(override|masked|reset|later|hidden|prefix-x|real|tmpl@a|tp-x@a|tq-x@a|bool|garbage)$/ { printf "%s %s ", $1, $2 }' "$T/reading-units")" \
    "u-override no u-masked unloaded u-reset yes u-later yes u-hidden no u-prefix-x yes u-real yes u-tmpl@a yes u-tp-x@a yes u-tq-x@a yes u-bool no u-garbage yes "
expect "systemd's reading of u-reset: the drop-in's command" \
    "$(awk '$1 == "u-reset" { print $3 }' "$T/reading-units")" /usr/local/bin/mdwe-clean
expect "systemd's reading of u-pre: both commands, in order" \
    "$(awk '$1 == "u-pre" { print $3, $4 }' "$T/reading-units")" \
    "/usr/local/bin/mdwe-needs-wx /usr/local/bin/mdwe-clean"

# What systemd does not load, or would not start (its program missing,
# its EnvironmentFile= without "-" missing), gets no verdict.
nostart="u-missing u-noenv"
while read -r s m cmds; do
	case "$m $nostart " in unloaded* | *" $s "*) ;; *) continue ;; esac
	expect "$s: systemd does not load or start it, elfscan has no verdict" \
	    "$(awk -v s="$s" '$1 == s' "$T/predicted-units" | wc -l)" 0
done <"$T/reading-units"

# The script: Linux runs its interpreter, mdwe-wx; the test kernel has no
# BINFMT_SCRIPT (tinyconfig), so it is not run: elfscan must judge it as
# the interpreter's own service, u-wx.
expect "u-script: judged as its interpreter (binfmt_script), not run" \
    "$(awk '$1 == "u-script" { print $3 }' "$T/predicted-units")" \
    "$(awk '$1 == "u-wx" { print $3 }' "$T/predicted-units")"

# The environment each service's files give it, for the runs.
env_of() {
	case $1 in
	u-ldpath) echo LD_LIBRARY_PATH=/opt/sel/lib ;;
	u-tunable2 | b-clean | b-nomdwe) echo GLIBC_TUNABLES=glibc.rtld.execstack=2 ;;
	u-tunable0) echo GLIBC_TUNABLES=glibc.rtld.execstack=0 ;;
	b-envwins) echo GLIBC_TUNABLES=glibc.rtld.execstack=1 ;;
	esac
}
commands "$T/reading-units" "$nostart u-script" >"$T/commands-units"
{
	echo "file /opt/sel/lib/libmdwe-sel.so"
	while read -r s m run c; do
		echo "run $run $(env_of "$s") $c $(args_of "$c")"
	done <"$T/commands-units"
} >"$T/plan"
mdwe_run units "$R" "$T/k" "$T/plan"
mdwe_table units "$T/k" "$T/predicted-units" u-plus "$T/commands-units"
echo "the agreement, root one (KERNEL: what Linux 6.12 did with PR_SET_MDWE; CONTROL: without):"
sed 's/^/  /' "$T/table-units"

# ---- Root two: systemd 252 (the seccomp filter), DefaultEnvironment= ----

W=$T/tree252
mkdir -p "$W/usr/local/bin" "$W/usr/local/lib" "$W/usr/local/libexec" \
    "$W/usr/lib/systemd/system" "$W/usr/lib/systemd/system.conf.d" \
    "$W/etc/systemd/system.conf.d"
cp "$F"/bin/* "$W/usr/local/bin/"
cp "$F"/lib/* "$W/usr/local/lib/"
cp "$F/sd252/systemd" "$W/usr/lib/systemd/systemd"
cp "$F/sd252/libsystemd-shared-252.so" "$W/usr/local/lib/"
gcc -O2 -Wall -Wextra -Werror -static -o "$W/usr/local/libexec/mdwe-seccomp" \
    "$src/mdwe-seccomp.c" || { fail "mdwe-seccomp builds"; finish; }
# The tunable: 0 in system.conf, 0 in a vendor drop-in, 2 in the admin's,
# which sorts last.
printf '[Manager]\nDefaultEnvironment=GLIBC_TUNABLES=glibc.rtld.execstack=0\n' \
    >"$W/etc/systemd/system.conf"
printf '[Manager]\nDefaultEnvironment=GLIBC_TUNABLES=glibc.rtld.execstack=0 A=1\n' \
    >"$W/usr/lib/systemd/system.conf.d/40-vendor.conf"
printf '[Manager]\nDefaultEnvironment="GLIBC_TUNABLES=glibc.rtld.execstack=2"\n' \
    >"$W/etc/systemd/system.conf.d/50-admin.conf"
# b-SERVICE PROGRAM MDWE EXTRA: a unit of root two.
b() {
	{
		printf '[Service]\nExecStart=/usr/local/bin/%s %s\n' "$2" \
		    "$(args_of "/usr/local/bin/$2")"
		[ "$3" = yes ] && printf 'MemoryDenyWriteExecute=yes\n'
		[ -n "${4:-}" ] && printf '%s\n' "$4"
	} >"$W/usr/lib/systemd/system/b-$1.service"
}
b clean mdwe-clean yes
b nomdwe mdwe-clean no
b unset mdwe-clean no UnsetEnvironment=GLIBC_TUNABLES
b envwins mdwe-clean yes Environment=GLIBC_TUNABLES=glibc.rtld.execstack=1
b wx mdwe-wx yes UnsetEnvironment=GLIBC_TUNABLES
b needs-xstack mdwe-needs-xstack yes UnsetEnvironment=GLIBC_TUNABLES
b needs-textrel mdwe-needs-textrel yes UnsetEnvironment=GLIBC_TUNABLES
b execstack mdwe-execstack yes UnsetEnvironment=GLIBC_TUNABLES=glibc.rtld.execstack=2
b unmarked mdwe-unmarked yes UnsetEnvironment=GLIBC_TUNABLES
b i386-static mdwe-i386-static yes UnsetEnvironment=GLIBC_TUNABLES
bsvcs="b-clean b-nomdwe b-unset b-envwins b-wx b-needs-xstack b-needs-textrel
b-execstack b-unmarked b-i386-static"

root_new units252 trixie
root_put_tree units252 "$W"
root_ldconfig units252
R2=$(root_dir units252)
root_host units252 "$ELFSCAN" --system --format=json --no-progress "$R2" \
    >"$T/units252.json" 2>"$T/units252.err"
st=$?
expect "elfscan judges root two (status 0 or 1)" \
    "$(test $st -le 1 && echo yes || { cat "$T/units252.err"; echo "status $st"; })" yes
rules=$(json_rules "$T/units252.json")
expect_match "the rules line: systemd 252, the seccomp filter" \
    "$rules" "*systemd 252: MemoryDenyWriteExecute= by a seccomp filter*"
expect "the tunable comes from the admin's drop-in" \
    "$(python3 -c 'import json, sys
print(" ".join(sorted(set(json.loads(l)["subject"] for l in open(sys.argv[1]) if "glibc.rtld.execstack=2" in json.loads(l).get("why", "")))))' "$T/units252.json")" \
    /etc/systemd/system.conf.d/50-admin.conf
mdwe_predict "$T/units252.json" >"$T/predicted-units252"
echo "elfscan's verdicts, root two:"
sed 's/^/  /' "$T/predicted-units252"
reading units252 $bsvcs >"$T/reading-units252"
commands "$T/reading-units252" "" >"$T/commands-units252"

# The i386 program: this machine may not run it; what seccomp does to it
# is derived (the filter sees no PROT_EXEC the kernel adds), not run.
expect "b-i386-static: no kill at exec under the seccomp filter, no thread" \
    "$(awk '$1 == "b-i386-static" { print $3 }' "$T/predicted-units252")" nothreads

# The others run here, in the root, under systemd's seccomp filter
# rebuilt (mdwe-seccomp), or without it: this kernel's seccomp, which
# sees system calls only, whatever the kernel's version.
printf '%-16s %-34s %-7s %-28s %-28s %s\n' SERVICE PROGRAM MODE SECCOMP \
    ELFSCAN CONTROL >"$T/table-units252"
while read -r s m run c; do
	case $s in b-i386-static) continue ;; esac
	# shellcheck disable=SC2046
	out=$(root_run units252 $(env_of "$s") -- \
	    /usr/local/libexec/mdwe-seccomp "$c" $(args_of "$c") 2>&1)
	st=$?
	[ "$st" -eq 125 ] && { echo "ERROR: the seccomp filter: $out"; exit 99; }
	v="exit $st"
	[ "$st" -gt 128 ] && v="signal $((st - 128))"
	sec=$(mdwe_outcome "$v" "$out" "$c")
	# shellcheck disable=SC2046
	out=$(root_run units252 $(env_of "$s") -- "$c" $(args_of "$c") 2>&1)
	st=$?
	v="exit $st"
	[ "$st" -gt 128 ] && v="signal $((st - 128))"
	ctl=$(mdwe_outcome "$v" "$out" "$c")
	if [ "$m" = yes ]; then
		mdwe_agree units252 "$T/predicted-units252" "$s" "$m" "$run" "$c" "$sec" "$ctl" seccomp
	else
		mdwe_agree units252 "$T/predicted-units252" "$s" "$m" "$run" "$c" "$ctl" "$ctl" control
	fi
done <"$T/commands-units252"
echo "the agreement, root two (SECCOMP: the run under systemd's filter; CONTROL: without):"
sed 's/^/  /' "$T/table-units252"
finish
