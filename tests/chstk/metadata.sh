#!/bin/sh
# A rewritten file keeps what it had: owner and group, mode with the
# set-user-ID and set-group-ID bits, user.* attributes, file capabilities
# (which chown would clear: chown must come first) and ACLs; it gains no ACL
# from its directory's default. A file already as asked is not touched. A
# symbolic link stays a link and its target changes. Other hard links keep
# the old contents and chstk says so. No temporary file is left.
. "$top_srcdir/tests/lib.sh"
need gcc readelf getfattr setfattr getcap setcap getfacl setfacl

gcc -o "$T/prog" "$FIX/hello.c" || fail "build"
meta() { stat -c '%U:%G %a' "$1"; }

# owner, group, set-user-ID and set-group-ID
cp "$T/prog" "$T/suid"
chown nobody:nogroup "$T/suid" && chmod 6751 "$T/suid"
"$CHSTK" -e "$T/suid" || fail "chstk -e suid"
expect "setuid file changed" "$(readelf_stack "$T/suid")" RWE
expect "owner, group, mode 6751 kept" "$(meta "$T/suid")" "nobody:nogroup 6751"

# extended attributes and capabilities
cp "$T/prog" "$T/caps"
setfattr -n user.chstk.test -v kept "$T/caps"
setcap cap_net_raw,cap_net_bind_service+ep "$T/caps"
caps0=$(getcap "$T/caps" | sed "s|$T/||")
"$CHSTK" -e "$T/caps" || fail "chstk -e caps"
expect "file with capabilities changed" "$(readelf_stack "$T/caps")" RWE
expect "user.* attribute kept" \
    "$(getfattr --only-values -n user.chstk.test "$T/caps" 2>/dev/null)" kept
expect "capabilities kept" "$(getcap "$T/caps" | sed "s|$T/||")" "$caps0"
expect_match "capabilities were there to keep" "$caps0" "*cap_net_bind_service,cap_net_raw*"

# ACLs, and no ACL inherited from the directory's default
mkdir "$T/acl"
cp "$T/prog" "$T/acl/with"
cp "$T/prog" "$T/acl/without"
setfacl -m u:nobody:r "$T/acl/with"
setfacl -d -m u:nobody:rwx "$T/acl"
acl0=$(getfacl -c "$T/acl/with")
plain0=$(getfacl -c "$T/acl/without")
"$CHSTK" -E "$T/acl/with" "$T/acl/without" || fail "chstk -E acl"
expect "ACL kept" "$(getfacl -c "$T/acl/with")" "$acl0"
expect "no ACL gained from the directory" "$(getfacl -c "$T/acl/without")" "$plain0"
expect "ACL files changed" "$(readelf_stack "$T/acl/with") $(readelf_stack "$T/acl/without")" "RW RW"

# already as asked: the file is not touched at all
cp "$T/prog" "$T/same"
s0=$(stamp "$T/same")
sleep 1
"$CHSTK" -E "$T/same" || fail "chstk -E same"
expect "file already noexec: same inode and times" "$(stamp "$T/same")" "$s0"
"$CHSTK" -d "$T/same"
expect "-d on a noexec file: untouched" "$(stamp "$T/same")" "$s0"

# a symbolic link stays a link; its target changes
cp "$T/prog" "$T/target"
ln -s target "$T/link"
"$CHSTK" -e "$T/link" || fail "chstk -e link"
[ -L "$T/link" ] && pass "the link is still a link" || fail "the link was replaced"
expect "the link's target changed" "$(readelf_stack "$T/target")" RWE

# hard links: the other name keeps the old contents, and chstk says so
cp "$T/prog" "$T/hard1"
ln "$T/hard1" "$T/hard2"
"$CHSTK" -e "$T/hard1" 2>"$T/err" || fail "chstk -e hard1"
expect "the named link changed" "$(readelf_stack "$T/hard1")" RWE
expect "the other link kept the old contents" "$(readelf_stack "$T/hard2")" RW
expect_match "chstk says so" "$(cat "$T/err")" "*hard1: note: its other hard link keeps the old contents*"
ln "$T/hard1" "$T/hard3" && ln "$T/hard1" "$T/hard4"
"$CHSTK" -E "$T/hard1" 2>"$T/err" || fail "chstk -E hard1"
expect_match "chstk counts the other links" "$(cat "$T/err")" "*hard1: note: its 2 other hard links keep the old contents*"

# a program's content survives every step byte for byte elsewhere
cp "$T/prog" "$T/roundtrip"
"$CHSTK" -e "$T/roundtrip" && "$CHSTK" -E "$T/roundtrip"
cmp -s "$T/prog" "$T/roundtrip" && pass "-e then -E gives back the same bytes" ||
    fail "-e then -E changed other bytes: $(cmp "$T/prog" "$T/roundtrip")"

expect "no temporary file left" "$(find "$T" -name '*.chstk-*' | wc -l)" 0
finish
