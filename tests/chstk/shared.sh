#!/bin/sh
# Shared objects, from GNU ld and from lld without PT_GNU_STACK, 64- and
# 32-bit: each state by readelf, and glibc's verdict when a program loads
# the library, at start (DT_NEEDED) and with dlopen: a library marked exec,
# or unmarked (glibc treats that as exec on x86), makes glibc turn the
# process's stack executable; one marked noexec does not. (On a kernel that
# does not run i386 programs, the 32-bit ones run under qemu-i386.)
. "$top_srcdir/tests/lib.sh"
need gcc clang ld.lld readelf eu-elflint gawk
probe_i386

# The stack glibc gives a process after loading a library in each state:
# on x86 an unmarked library counts as exec (DEFAULT_STACK_PERMS has PF_X).
glibc_stack() { [ "$1" = noexec ] && echo rw-p || echo rwxp; }

for class in 64 32; do
	for ld in gnu lld; do
		d=$T/$ld$class
		mkdir -p "$d"
		flags="-m$class"
		[ $ld = lld ] && flags="$flags -fuse-ld=lld -Wl,-z,nognustack"
		# shellcheck disable=SC2086
		clang $flags -shared -fPIC -o "$d/libt.so" "$FIX/lib.c" &&
		    gcc -m$class -o "$d/dl" "$FIX/dlopen.c" -ldl &&
		    gcc -m$class -o "$d/linked" "$FIX/hello.c" -L"$d" \
			-Wl,--no-as-needed -lt -Wl,-rpath,"$d" ||
		    { fail "$ld$class: build"; continue; }
		lint0=$(lint "$d/libt.so")
		for opt in -E -e -d -e -D -E -D; do
			"$CHSTK" $opt "$d/libt.so" || fail "$ld$class: chstk $opt"
			state=$(state_of_flags "$(readelf_stack "$d/libt.so")")
			run=
			[ $class = 32 ] && run=run32
			out=$($run "$d/dl" "$d/libt.so")
			expect "$ld$class $opt ($state): dlopen works" \
			    "$(echo "$out" | grep answer)" "answer: 42"
			expect "$ld$class $opt ($state): stack after dlopen" \
			    "$(echo "$out" | stack_of)" "$(glibc_stack "$state")"
			expect "$ld$class $opt ($state): stack of a program linked with it" \
			    "$($run "$d/linked" | stack_of)" "$(glibc_stack "$state")"
			expect "$ld$class $opt: program headers sound" \
			    "$(check_layout "$d/libt.so")" sound
			expect "$ld$class $opt: no new eu-elflint complaint" \
			    "$(lint "$d/libt.so")" "$lint0"
		done
	done
done
finish
