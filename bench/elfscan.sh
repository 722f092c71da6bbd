# bench/elfscan.sh - sourced by the benchmarks: sets elfscan to the built
# binary under $BUILDDIR (default: the current directory), the real one and
# not libtool's wrapper script (whose shell would be timed).
build=${BUILDDIR:-$(pwd)}
if [ -x "$build/src/elfscan/.libs/elfscan" ]; then
	elfscan=$build/src/elfscan/.libs/elfscan
	export LD_LIBRARY_PATH="$build/lib/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
elif [ -x "$build/src/elfscan/elfscan" ]; then
	elfscan=$build/src/elfscan/elfscan
else
	echo "bench: build elfscan first (make)" >&2
	exit 2
fi
