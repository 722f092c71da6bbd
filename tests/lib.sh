# tests/lib.sh - sourced by the shell tests: a scratch directory, checks that
# count, and views of files through independent tools (readelf, the kernel).
#
# The environment (set by tests/local.mk): CHSTK, ELFSCAN (the built tools),
# top_srcdir. Each test builds its fixtures from tests/fixtures/ into $T.

set -u
: "${CHSTK:?}" "${top_srcdir:?}"
export LC_ALL=C
FIX=$top_srcdir/tests/fixtures
T=$(mktemp -d "${TMPDIR:-/tmp}/chstk-test.XXXXXX")
trap 'rm -rf "$T"' EXIT
checks=0
failures=0
# A bound, in seconds, for "timeout" around a program that might hang: only
# a hung program reaches it, however loaded the machine. No verdict may
# rest on how fast something ran; wait for a condition instead.
hang=600

pass() { checks=$((checks + 1)); echo "ok: $*"; }
fail() { checks=$((checks + 1)); failures=$((failures + 1)); echo "FAIL: $*"; }

# expect WHAT GOT WANT
expect() {
	if [ "$2" = "$3" ]; then pass "$1"; else fail "$1: got '$2', want '$3'"; fi
}

# expect_match WHAT GOT PATTERN (a shell pattern)
expect_match() {
	case $2 in
	$3) pass "$1" ;;
	*) fail "$1: got '$2', want '$3'" ;;
	esac
}

finish() {
	echo "$checks checks, $failures failed"
	[ "$failures" -eq 0 ] && [ "$checks" -gt 0 ]
	exit $?
}

skip() { echo "SKIP: $*"; exit 77; }

# need TOOL...: the setup installs these; a missing one is a broken setup.
need() {
	for tool in "$@"; do
		command -v "$tool" >/dev/null 2>&1 ||
		    { echo "ERROR: $tool is missing: run ./bootstrap deps"; exit 99; }
	done
}

# i386 programs. This machine's kernel may not run them (no IA32_EMULATION,
# or ia32_emulation=0): a static probe, which needs no 32-bit libraries,
# tells. No test executes an i386 program itself: run32 runs it natively
# when the kernel can, else under qemu-i386 (qemu-user), an independent
# ELF loader that honours PT_GNU_STACK (and gives an i386 program without
# it an executable stack, as the kernel does), and the test says which
# judge ran. Call probe_i386 once, at the top of the test, before $(...).
probe_i386() {
	printf 'int main(void) { return 0; }\n' >"$T/i386-probe.c"
	${CC:-gcc} -m32 -static -o "$T/i386-probe" "$T/i386-probe.c" || {
		fail "${CC:-gcc} -m32 -static cannot build an i386 program (install gcc-multilib)"
		finish
	}
	if "$T/i386-probe" 2>/dev/null; then
		i386_native=yes
		echo "note: i386 programs run natively"
	else
		i386_native=no
		need qemu-i386
		echo "note: i386 programs run under qemu-i386: this kernel cannot exec them"
	fi
}
native32() {
	[ -n "${i386_native:-}" ] || { echo "ERROR: probe_i386 was not called"; exit 99; }
	[ "$i386_native" = yes ]
}
run32() {
	if native32; then "$@"; else qemu-i386 "$@"; fi
}
# qemu_loads FILE: whether qemu-user's loader finds FILE's program headers
# where the kernel does; where it does not, qemu-user cannot start FILE. The kernel (since 5.18) takes their address from
# the PT_LOAD that holds them; qemu-user, as older kernels did, takes the
# first PT_LOAD's base plus e_phoff, which differs once chstk has moved the
# table to a segment of its own.
qemu_loads() {
	readelf -lW "$1" | gawk '
		/starting at offset/ { phoff = $NF }
		$1 == "LOAD" {
			o = strtonum($2); v = strtonum($3); n = strtonum($5)
			if (!seen++) bias = v - o
			if (o <= phoff && phoff < o + n) at = v + phoff - o
		}
		END { exit !(seen && at == bias + phoff) }'
}

# The flags of the last PT_GNU_STACK as readelf shows them: RW, RWE, ...,
# or "none" when there is none.
readelf_stack() {
	readelf -lW "$1" 2>/dev/null | awk '
		$1 == "GNU_STACK" { f = ""; for (i = 7; i < NF; i++) f = f $i; n++ }
		END { print n ? (f == "" ? "empty" : f) : "none" }'
}

# X or - for the .note.GNU-stack section of an object, none without one.
readelf_note() {
	readelf -SW "$1" 2>/dev/null | awk '
		/\.note\.GNU-stack/ {
			for (i = 1; i <= NF; i++) if ($i == "PROGBITS") p = i
			found = 1; x = (NF - p == 8 && $(p + 5) ~ /X/)
		}
		END { print found ? (x ? "X" : "-") : "none" }'
}

# The stack the running kernel gave a program, from its own output.
stack_of() { sed -n 's/^stack: //p'; }
work_of() { grep '^work:'; }

# The stack this kernel gives a program in each state (Linux >= 5.8 on x86:
# an unmarked i386 program gets READ_IMPLIES_EXEC, an x86_64 one does not;
# qemu-i386 follows the same rule).
expected_stack() {
	case $1 in
	exec) echo rwxp ;;
	noexec) echo rw-p ;;
	default) [ "$2" = 32 ] && echo rwxp || echo rw-p ;;
	esac
}

# The state chstk OPTION leaves a file in STATE, by the seed's rules.
state_after() {
	case $1 in
	-e) echo exec ;;
	-E) echo noexec ;;
	-d) [ "$2" = exec ] && echo default || echo "$2" ;;
	-D) [ "$2" = noexec ] && echo default || echo "$2" ;;
	esac
}

# The state readelf's view means.
state_of_flags() {
	case $1 in
	none) echo default ;;
	*E*) echo exec ;;
	*) echo noexec ;;
	esac
}

# inode and modification time, to show that a file was not touched
stamp() { stat -c '%i %Y.%y' "$1"; }

# eu-elflint's complaints, without the file's name, sorted
lint() { eu-elflint --gnu-ld "$1" 2>&1 | sed "s|$1||g" | sort; }

# Program header invariants a loader relies on: PT_PHDR describes the table
# the ELF header points at and comes before every PT_LOAD; PT_LOADs are
# sorted by address; the table lies inside a PT_LOAD.
check_layout() {
	readelf -hlW "$1" | gawk '
		/Start of program headers:/ { phoff = $5 }
		/Size of program headers:/ { phentsize = $5 }
		/Number of program headers:/ { phnum = $5 }
		$1 == "PHDR" { ph_off = strtonum($2); ph_size = strtonum($5)
			if (loads) bad = bad " PHDR-after-LOAD" }
		$1 == "LOAD" { loads++; v = strtonum($3)
			if (v < last) bad = bad " LOAD-unsorted"; last = v
			o = strtonum($2); s = strtonum($5)
			if (o <= phoff && phoff + phentsize * phnum <= o + s) inside = 1 }
		END {
			if (ph_size && (ph_off != phoff || ph_size != phentsize * phnum))
				bad = bad " PHDR-mismatch"
			if (loads && !inside) bad = bad " table-not-loaded"
			print bad ? bad : "sound"
		}'
}

# poke FILE OFFSET BYTES: overwrite bytes (printf octal escapes, \377...)
poke() { printf "$3" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none; }

# Copies of chstk and elfscan that the unprivileged user nobody can run,
# in $N/bin, for the tests that root would pass through (root reads and
# writes everything).
nobody_setup() {
	N=$T/nobody
	mkdir -p "$N/bin"
	chmod 755 "$T" "$N"
	for tool in "$CHSTK" "${ELFSCAN:-}"; do
		[ -n "$tool" ] || continue
		real=$(dirname "$tool")/.libs/$(basename "$tool")
		if [ -x "$real" ]; then
			cp "$real" "$N/bin/"
			cp -P "$top_builddir"/lib/.libs/libchstk.so* "$N/bin/"
		else
			cp "$tool" "$N/bin/"
		fi
	done
	chmod -R a+rX "$N/bin"
}
as_nobody() {
	setpriv --reuid=nobody --regid=nogroup --clear-groups \
	    env LD_LIBRARY_PATH="$N/bin" "$@"
}

# Layers, judged by nm on the built objects (lib-layers.sh, layers.sh).
# ranked_symbols OBJECT-FN SYMBOL-ERE FILE...: "RANK FILE KIND SYMBOL"
# for each global symbol matching the ERE that each file (listed top to
# bottom) defines (D) or uses (U); OBJECT-FN prints a file's object.
ranked_symbols() {
	objfn=$1 re=$2
	shift 2
	rank=0
	for f; do
		rank=$((rank + 1))
		o=$($objfn "$f") || exit 99
		nm "$o" | awk -v r="$rank" -v f="$f" -v re="$re" '
			$1 == "U" && $2 ~ re { print r, f, "U", $2 }
			NF == 3 && $2 ~ /^[TDRBC]$/ && $3 ~ re { print r, f, "D", $3 }'
	done
}
# calls_upward SYMS: each use of a symbol whose file is not below the user.
calls_upward() {
	awk '$3 == "D" { def[$4] = $1; file[$4] = $2 }
	     $3 == "U" { use[++n] = $0 }
	     END {
		for (i = 1; i <= n; i++) {
			split(use[i], u, " ")
			if ((u[4] in def) && def[u[4]] <= u[1])
				print u[2] " calls " u[4] " of " file[u[4]] ", which is not below it"
		}
	     }' "$1"
}

# pack_deb TREE DEB [DPKG-DEB-OPTION...]: TREE as the package t 1.
pack_deb() {
	tree=$1 out=$2
	shift 2
	rm -rf "$T/pack-deb" && cp -a "$tree" "$T/pack-deb" &&
	    mkdir "$T/pack-deb/DEBIAN" &&
	    printf 'Package: t\nVersion: 1\nArchitecture: amd64\nMaintainer: t <t@t>\nDescription: t\n' \
	    >"$T/pack-deb/DEBIAN/control" &&
	    dpkg-deb --root-owner-group "$@" --build "$T/pack-deb" "$out" >/dev/null
}
# pack_rpm TREE RPM [RPMBUILD-OPTION...]: TREE's /usr as the package t-1-1,
# built in a private _topdir, untouched by rpm's post-install scripts.
pack_rpm() {
	tree=$1 out=$2
	shift 2
	rm -rf "$T/pack-rpm" && mkdir -p "$T/pack-rpm/SPECS" &&
	    printf '%s\n' 'Name: t' 'Version: 1' 'Release: 1' 'Summary: t' \
	    'License: MIT' 'AutoReqProv: no' '%description' t '%install' \
	    "cp -a $tree/. %{buildroot}/" '%files' /usr \
	    >"$T/pack-rpm/SPECS/t.spec" &&
	    rpmbuild --quiet --define "_topdir $T/pack-rpm" \
	    --define '__os_install_post %{nil}' --define 'debug_package %{nil}' \
	    --define '_build_id_links none' "$@" -bb "$T/pack-rpm/SPECS/t.spec" \
	    >"$T/pack-rpm.log" 2>&1 &&
	    mv "$T"/pack-rpm/RPMS/*/t-1-1.*.rpm "$out" ||
	    { cat "$T/pack-rpm.log"; return 1; }
}

# sarif_errors LOG: what the official SARIF validator (sarif-multitool,
# installed by ./bootstrap deps) finds wrong in LOG, its errors and
# warnings one a line; "" when nothing.
sarif_errors() {
	sarif_tool=${SARIF_MULTITOOL:-${XDG_CACHE_HOME:-$HOME/.cache}/chstk/sarif-multitool/node_modules/.bin/sarif-multitool}
	[ -x "$sarif_tool" ] ||
	    { echo "ERROR: sarif-multitool is missing: run ./bootstrap deps"; exit 99; }
	"$sarif_tool" validate "$1" -o "$1.v" --log ForceOverwrite >"$1.vlog" 2>&1 ||
	    { cat "$1.vlog"; echo "validator failed"; return; }
	python3 -c '
import json, sys
for run in json.load(open(sys.argv[1]))["runs"]:
    for r in run.get("results", []):
        if r.get("level", "warning") in ("error", "warning"):
            print(r["ruleId"], r["message"].get("arguments"))
' "$1.v"
}

# json_stacks: of elfscan's JSON Lines on the standard input, each image record's
# "PATH!MEMBER STACK", sorted: what the package and repository tests
# compare with dpkg-deb -x, rpm2cpio and readelf.
json_stacks() {
	python3 -c '
import json, sys
for line in sys.stdin:
    r = json.loads(line)
    if "member" in r and "stack" in r:
        print(r["path"] + "!" + r["member"], r["stack"])
' | sort
}

# json_rules FILE: the rules line of each root of elfscan's JSON Lines.
json_rules() {
	python3 -c 'import json, sys
for l in open(sys.argv[1]):
    r = json.loads(l)
    if "rules" in r: print(r["rules"])' "$1"
}

# unpacked_files DIR NAME: what a store keeps of the package NAME
# unpacked in DIR that is no ELF file, as the files table has it:
# "NAME!MEMBER link TARGET", "NAME!MEMBER file BYTES" (od's hex) of the unit
# files and of /etc, "NAME!MEMBER script LINE" of the executable files
# that start with "#!"; of the links, not those of the documentation.
unpacked_files() {
	(cd "$1" && find . ! -type d) | sort | while read -r m; do
		p=$1/$m m=${m#./}
		if [ -L "$p" ]; then
			case $m in usr/share/doc/* | usr/share/man/* | usr/share/info/* | usr/share/locale/*) ;;
			*) echo "$2!$m link $(readlink "$p")" ;;
			esac
		elif [ "$(head -c 4 "$p")" = "$(printf '\177ELF')" ]; then
			:
		else
			case $m in
			*/systemd/system/* | etc/*)
				echo "$2!$m file $(od -An -tx1 <"$p" | tr -d ' \n')" ;;
			*)
				if [ "$(head -c 2 "$p")" = '#!' ] && [ -x "$p" ]; then
					echo "$2!$m script $(head -n 1 "$p")"
				fi ;;
			esac
		fi
	done
}

# gpg_keys HOME DIR NAME...: an ed25519 signing key for each NAME ("NAME
# <NAME@example.org>", no passphrase, never expiring) in the GnuPG home
# HOME (made), its public keyring exported to DIR/NAME.gpg.
gpg_keys() {
	gh=$1 gd=$2
	shift 2
	mkdir -p -m 700 "$gh" || return 1
	for k in "$@"; do
		GNUPGHOME=$gh gpg --batch --quiet --passphrase '' --quick-gen-key \
		    "$k <$k@example.org>" ed25519 sign never 2>/dev/null &&
		    GNUPGHOME=$gh gpg --batch --export "$k@example.org" \
		    >"$gd/$k.gpg" || return 1
	done
}
