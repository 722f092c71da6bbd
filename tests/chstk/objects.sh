#!/bin/sh
# Relocatable objects and ar archives. Objects from gcc (64/32-bit, C++ with
# section groups and thousands of sections, LTO) and from gas without a
# .note.GNU-stack go through every option; readelf shows each state, the
# code, symbols and relocations are the same as objdump and nm see them,
# eu-elflint finds nothing, and GNU ld, linking the object into a program
# that runs, draws the conclusion the state asks for. Archives: every member
# changes, non-ELF members stay byte for byte, the symbol index still finds
# every member for the linker, long names survive; thin archives and BSD
# archives whose members would move are refused and left untouched.
. "$top_srcdir/tests/lib.sh"
need gcc g++ as ar nm objdump readelf eu-elflint llvm-ar dpkg-deb
probe_i386

note_state() {
	case $(readelf_note "$1") in
	X) echo exec ;; -) echo noexec ;; *) echo default ;;
	esac
}
# What objdump and nm see in an object, without file offsets.
contents() {
	{ objdump -dr "$1" | sed 1,3d; nm -a "$1"; } | grep -v GNU-stack
}

cat >"$T/main.c" <<'EOF'
#include <stdio.h>
int helper(int);
int main(void) { printf("helper: %d\n", helper(2)); return 0; }
EOF
cat >"$T/helper.c" <<'EOF'
static __thread int calls;
int helper(int x) { calls++; return x * 21 + calls - 1; }
EOF
cat >"$T/helper.s" <<'EOF'
	.text
	.globl helper
helper:
	lea (%rdi,%rdi,4), %eax
	lea (%rdi,%rax,4), %eax
	ret
EOF
cat >"$T/many.cc" <<'EOF'
#include <vector>
#include <string>
template <int N> struct T { static int f(int x) { return T<N - 1>::f(x) + N; } };
template <> struct T<0> { static int f(int x) { return x; } };
std::string g(const std::vector<int> &v) { return std::to_string(T<300>::f((int)v.size())); }
EOF
gcc -c -o "$T/c64.o" "$T/helper.c" &&
    gcc -m32 -c -o "$T/c32.o" "$T/helper.c" &&
    as -o "$T/asm.o" "$T/helper.s" &&
    gcc -flto -c -o "$T/lto.o" "$T/helper.c" &&
    g++ -c -ffunction-sections -o "$T/many.o" "$T/many.cc" &&
    gcc -c -o "$T/main64.o" "$T/main.c" &&
    gcc -m32 -c -o "$T/main32.o" "$T/main.c" || fail "build objects"
expect "gas wrote no .note.GNU-stack" "$(readelf_note "$T/asm.o")" none
mkdir "$T/orig" && cp "$T"/*.o "$T/orig/"
expect "the C++ object has section groups" \
    "$(readelf -gW "$T/many.o" | grep -c COMDAT | awk '$1 > 100 { print "many" }')" many

for o in c64 c32 asm lto many; do
	f=$T/$o.o
	contents "$f" >"$T/$o.ref"
	state=$(note_state "$f")
	for opt in -E -e -d -E -D -D -e -E -d -D -e; do
		want=$(state_after "$opt" "$state")
		before=$(stamp "$f")
		"$CHSTK" "$opt" "$f" || fail "$o: chstk $opt"
		expect "$o: $opt ($state -> $want), by readelf" "$(note_state "$f")" "$want"
		[ "$want" = "$state" ] &&
		    expect "$o: $opt leaves it untouched" "$(stamp "$f")" "$before"
		contents "$f" >"$T/$o.now"
		cmp -s "$T/$o.ref" "$T/$o.now" && pass "$o: $opt: code, relocations and symbols unchanged" ||
		    fail "$o: $opt: contents changed: $(diff "$T/$o.ref" "$T/$o.now" | head -5)"
		expect "$o: $opt: eu-elflint" "$(eu-elflint --gnu-ld "$f" 2>&1)" "No errors"
		# With LTO the linker takes the code, and the marking, from the
		# objects GCC compiles at link time: only its own objects count.
		case $o in c64|asm|c32)
			m=main64 bits=64 run=
			[ $o = c32 ] && m=main32 bits=32 run=run32
			if ! gcc -m$bits -o "$T/prog" "$T/$m.o" "$f" 2>"$T/ld.log"; then
				fail "$o: $opt: link: $(cat "$T/ld.log")"
			elif [ "$($run "$T/prog")" = "helper: 42" ]; then
				pass "$o: $opt: links into a program that runs"
			else
				fail "$o: $opt: links into a program that does not run"
			fi
			ld_state=$(state_of_flags "$(readelf_stack "$T/prog")")
			[ "$want" = default ] && lw=exec || lw=$want
			expect "$o: $opt: GNU ld concludes" "$ld_state" "$lw"
		esac
		state=$want
	done
done

# Archives: two ELF members, one with a name too long for the header, one
# without a .note.GNU-stack, and one not ELF; then every option, with the
# linker as the judge of the index.
cp "$T/orig/c64.o" "$T/a_member_with_a_long_name.o"
cp "$T/orig/asm.o" "$T/asm2.o"
printf 'not an object\n' >"$T/README"
(cd "$T" && ar rcs libh.a a_member_with_a_long_name.o asm2.o README)
expect "ar wrote a long name table" "$(ar t "$T/libh.a" | head -1)" a_member_with_a_long_name.o
s1=$(note_state "$T/a_member_with_a_long_name.o")
s2=$(note_state "$T/asm2.o")
for opt in -E -e -D -d -E -D -e -d; do
	"$CHSTK" "$opt" "$T/libh.a" || fail "archive: chstk $opt"
	s1=$(state_after "$opt" "$s1")
	s2=$(state_after "$opt" "$s2")
	(cd "$T" && rm -rf x && mkdir x && cd x && ar x ../libh.a)
	expect "archive $opt: member list" "$(ar t "$T/libh.a" | tr '\n' ' ')" \
	    "a_member_with_a_long_name.o asm2.o README "
	expect "archive $opt: first member by readelf" \
	    "$(note_state "$T/x/a_member_with_a_long_name.o")" "$s1"
	expect "archive $opt: second member by readelf" "$(note_state "$T/x/asm2.o")" "$s2"
	cmp -s "$T/x/README" "$T/README" && pass "archive $opt: text member unchanged" ||
	    fail "archive $opt: text member changed"
	for m in asm2.o a_member_with_a_long_name.o; do
		expect "archive $opt: $m passes eu-elflint" \
		    "$(eu-elflint --gnu-ld "$T/x/$m" 2>&1)" "No errors"
	done
	expect "archive $opt: the index lists helper in both members" \
	    "$(nm -s "$T/libh.a" | grep -c '^helper in ')" 2
	if gcc -o "$T/prog" "$T/main64.o" -L"$T" -lh 2>"$T/ld.log" &&
	    [ "$("$T/prog")" = "helper: 42" ]; then
		pass "archive $opt: the linker finds the member through the index"
	else
		fail "archive $opt: link: $(cat "$T/ld.log")"
	fi
done

# A thin archive holds paths, not members: refused, untouched.
(cd "$T" && ar rcT libthin.a c64.o && cp libthin.a thin.orig)
"$CHSTK" -e "$T/libthin.a" 2>"$T/err"
expect "thin archive refused" "$?" 1
expect_match "thin archive: message" "$(cat "$T/err")" "*thin archive*"
cmp -s "$T/libthin.a" "$T/thin.orig" && pass "thin archive untouched" || fail "thin archive changed"

# A Debian package is an ar archive whose files are in a tar member: chstk
# must say it cannot change them rather than find "nothing to change".
mkdir -p "$T/pkg/DEBIAN" "$T/pkg/usr/bin"
printf 'Package: t\nVersion: 1\nArchitecture: amd64\nMaintainer: t <t@example.org>\nDescription: t\n' >"$T/pkg/DEBIAN/control"
gcc -z execstack -o "$T/pkg/usr/bin/t" "$T/main64.o" "$T/orig/c64.o"
dpkg-deb --build "$T/pkg" "$T/t.deb" >/dev/null && cp "$T/t.deb" "$T/deb.orig"
"$CHSTK" -E "$T/t.deb" 2>"$T/err"
expect "a .deb: chstk fails" "$?" 1
expect_match "a .deb: says why" "$(cat "$T/err")" "*a Debian package*"
cmp -s "$T/t.deb" "$T/deb.orig" && pass "a .deb: untouched" || fail "a .deb changed"

# A BSD archive (binutils cannot read one; llvm-ar can): flags can flip in
# place, but members that would move under the BSD index cannot.
cp "$T/orig/c64.o" "$T/b1.o"
cp "$T/orig/asm.o" "$T/b2.o"
(cd "$T" && llvm-ar rcs --format=bsd libbsd.a b1.o b2.o && cp libbsd.a bsd.orig)
expect "llvm-ar wrote a BSD index" "$(head -c 100 "$T/libbsd.a" | grep -c SYMDEF)" 1
"$CHSTK" -e "$T/libbsd.a" 2>"$T/err"
expect "BSD archive: a member that must grow is refused" "$?" 1
expect_match "BSD archive: message" "$(cat "$T/err")" "*BSD symbol table*"
cmp -s "$T/libbsd.a" "$T/bsd.orig" && pass "BSD archive untouched" || fail "BSD archive changed"
(cd "$T" && rm -f libbsd.a && llvm-ar rcs --format=bsd libbsd.a b1.o)
"$CHSTK" -e "$T/libbsd.a" || fail "BSD archive: flip"
(cd "$T" && rm -rf x && mkdir x && cd x && llvm-ar x ../libbsd.a)
expect "BSD archive: flag flipped in place" "$(note_state "$T/x/b1.o")" exec
expect "BSD archive: llvm-ar still reads the index" \
    "$(llvm-nm --print-armap "$T/libbsd.a" 2>/dev/null | grep -c "^helper in b1.o")" 1
finish
