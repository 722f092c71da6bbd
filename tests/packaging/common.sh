# tests/packaging/common.sh - sourced by the packaging tests: the hooks as
# built (packaging/ in the build tree) running the built tools, and checks
# of what a build said and made.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/packaging/hello-spec.sh"
: "${ELFSCAN:?}" "${top_builddir:?}"
CHSTK_HOOK_ELFSCAN=$ELFSCAN
CHSTK_HOOK_CHSTK=$CHSTK
export CHSTK_HOOK_ELFSCAN CHSTK_HOOK_CHSTK
HOOKS=$top_builddir/packaging

# output_has WHAT FILE STRING: the build's output says STRING
output_has() {
	if grep -qF -- "$3" "$2"; then pass "$1"; else fail "$1: no '$3' in $2:"; sed 's/^/	/' "$2"; fi
}
output_lacks() {
	if grep -qF -- "$3" "$2"; then fail "$1: '$3' in $2"; else pass "$1"; fi
}

# same_bytes WHAT A B
same_bytes() {
	if cmp -s "$2" "$3"; then pass "$1"; else fail "$1: $2 and $3 differ"; fi
}

# The stack the running kernel gives an extracted program.
runs_with() { "$1" | stack_of; }

# fixed_programs RUN: in the package built as $T/RUN under the fix policy,
# hello-exec is marked noexec by readelf, gets a non-executable stack from
# the kernel and works as it does in $T/off, the build without the hook;
# hello, which asked for nothing, is byte for byte the one in $T/off.
fixed_programs() {
	expect "$1: packaged hello-exec is RW by readelf" "$(readelf_stack "$T/$1/$B/hello-exec")" RW
	expect "$1: the kernel gives it a non-executable stack" "$(runs_with "$T/$1/$B/hello-exec")" rw-p
	expect "$1: hello-exec still works" "$("$T/$1/$B/hello-exec" | work_of)" "$("$T/off/$B/hello-exec" | work_of)"
	same_bytes "$1: hello is untouched" "$T/$1/$B/hello" "$T/off/$B/hello"
}
