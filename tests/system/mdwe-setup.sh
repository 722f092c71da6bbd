#!/bin/sh
# The MDWE oracle itself (kernel/mdwe.sh, tests/system/mdwe.sh), before
# anyone judges elfscan with it: its fixtures have the shapes their names
# say (readelf); in the booted Linux 6.12 every fixture runs to the end
# without MDWE (the control: the guest holds what each program needs);
# the wrapper sets PR_SET_MDWE and the program after execve() still has it
# (PR_GET_MDWE, asked inside the guest by the wrapper and by the program);
# MDWE is in force (W+X memory and a page gaining PROT_EXEC are refused
# with EACCES) and a clean program still runs under it. Then the negative
# control: the same boot with a wrapper built without the prctl must show
# nothing refused, so the checks above can tell MDWE from its absence.
# What MDWE does to each fixture is printed at the end, not judged here.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/system/mdwe.sh"
need gcc readelf

mdwe_fixtures "$T/fix"
# And a program that never ends, as a service: the time limit ends it.
cp "$T/fix/plan" "$T/plan"
printf 'limit 5\nrun mdwe-hang %s hang\n' "$T/fix/bin/mdwe-clean" >>"$T/plan"
mdwe_boot "$T/plan" "$T/mdwe"
o=$T/mdwe

kernel=$(cat "$o/kernel")
expect_match "the guest runs Linux 6.12" "${kernel%% *}" "6.12.*"
expect "the guest is x86-64" "${kernel##* }" x86_64

expect "the wrapper, without -m" "$(mdwe_verdict "$o" mdwe-exec control)" "exit 0"
expect "PR_GET_MDWE after execve(), without -m" \
	"$(mdwe_output "$o" mdwe-exec control)" "PR_GET_MDWE 0"
expect "the wrapper, with -m" "$(mdwe_verdict "$o" mdwe-exec mdwe)" "exit 0"
expect "PR_GET_MDWE after execve(), with -m" \
	"$(mdwe_output "$o" mdwe-exec mdwe)" "PR_GET_MDWE 1"

# The control: every fixture ran to its end without MDWE.
for name in $(awk '$1 == "run" { print $2 }' "$T/fix/plan"); do
	expect "$name without MDWE" "$(mdwe_verdict "$o" "$name" control)" "exit 0"
	expect "$name without MDWE: its last line" \
		"$(mdwe_output "$o" "$name" control | tail -n 1)" ok
	expect "$name without MDWE: PR_GET_MDWE in the program" \
		"$(mdwe_output "$o" "$name" control | sed -n 's/^mdwe //p')" 0
done

for mode in control mdwe; do
	expect "a program that never ends ($mode)" \
		"$(mdwe_verdict "$o" mdwe-hang $mode)" "timeout 5"
	expect "a program that never ends ($mode): what it printed" \
		"$(mdwe_output "$o" mdwe-hang $mode | tail -n 1)" hang
done

# MDWE in force, and a clean program still runs under it.
expect "mdwe-clean under MDWE" "$(mdwe_verdict "$o" mdwe-clean mdwe)" "exit 0"
expect "mdwe-clean under MDWE: PR_GET_MDWE in the program" \
	"$(mdwe_output "$o" mdwe-clean mdwe | sed -n 's/^mdwe //p')" 1
expect "mdwe-clean under MDWE: its last line" \
	"$(mdwe_output "$o" mdwe-clean mdwe | tail -n 1)" ok
expect "mdwe-clean under MDWE: a non-executable stack" \
	"$(mdwe_output "$o" mdwe-clean mdwe | sed -n 's/^stack //p')" rw-p
expect "W+X mmap() without MDWE" \
	"$(mdwe_output "$o" mdwe-mmap control | sed -n 's/^mmap-wx //p')" ok
expect "W+X mmap() under MDWE" \
	"$(mdwe_output "$o" mdwe-mmap mdwe | sed -n 's/^mmap-wx //p')" EACCES
expect "mprotect(PROT_EXEC) under MDWE" \
	"$(mdwe_output "$o" mdwe-mmap mdwe | sed -n 's/^mprotect-x //p')" EACCES

echo "what MDWE did in the guest (NAME MODE VERDICT):"
sed 's/^/  /' "$o/results"

# The negative control: without the prctl, "mdwe" is the control again.
cat >"$T/neg.plan" <<EOF
run mdwe-mmap $T/fix/bin/mdwe-clean mmap
run mdwe-needs-xstack $T/fix/bin/mdwe-needs-xstack
EOF
(
	MDWE_WRAPPER=noprctl
	export MDWE_WRAPPER
	mdwe_boot "$T/neg.plan" "$T/neg"
)
expect "negative control: PR_GET_MDWE with a wrapper without the prctl" \
	"$(mdwe_output "$T/neg" mdwe-exec mdwe)" "PR_GET_MDWE 0"
expect "negative control: W+X mmap() with a wrapper without the prctl" \
	"$(mdwe_output "$T/neg" mdwe-mmap mdwe | sed -n 's/^mmap-wx //p')" ok
expect "negative control: mdwe-needs-xstack with a wrapper without the prctl" \
	"$(mdwe_verdict "$T/neg" mdwe-needs-xstack mdwe)" "exit 0"
expect "mdwe-needs-xstack, with the prctl, is not what it is without" \
	"$(mdwe_verdict "$o" mdwe-needs-xstack mdwe | grep -c '^exit 0$')" 0
finish
