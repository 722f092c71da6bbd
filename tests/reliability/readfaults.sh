#!/bin/sh
# The reading of one file's head made to go wrong by readshim.so, in each
# of elfscan's readers (io_uring, and ELFSCAN_READER=threads): a read cut
# short, before the ELF magic and after the bytes that tell a format; a
# read or an open interrupted (EINTR) or told to wait (EAGAIN); the rings
# entered in vain (EINTR, EBUSY); and a read or an open that fails (EIO,
# EACCES). No file is lost: where the reader can go on, the scan is the
# one an unimpeded elfscan makes, byte for byte once sorted; where the file
# cannot be read, that file alone is reported, in one line ("cannot read:
# Input/output error"), with exit status 2, and every other file's records
# are there. Each fault is seen made (READSHIM_LOG), by the reader meant,
# so that no check passes because its fault never came.
. "$top_srcdir/tests/lib.sh"
need gcc ar as
: "${ELFSCAN:?}" "${READSHIM:?}"
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"

D=$T/tree
mkdir -p "$D/bin" "$D/lib" "$D/many"
gcc -z execstack -o "$D/bin/exec" "$FIX/hello.c" &&
    gcc -o "$D/bin/clean" "$FIX/hello.c" &&
    gcc -shared -fPIC -z execstack -o "$D/lib/libexec.so" "$FIX/lib.c" &&
    gcc -c -o "$T/note.o" "$FIX/lib.c" &&
    printf '\t.text\n\tret\n' | as -o "$T/nonote.o" &&
    ar rc "$D/lib/libmix.a" "$T/note.o" "$T/nonote.o" ||
    fail "build the tree"
printf 'hello\n' >"$D/bin/text"
# More files than a ring holds, so that the file is read among others.
i=0
while [ $i -lt 100 ]; do
	if [ $((i % 10)) = 0 ]; then cp "$D/bin/clean" "$D/many/f$i"; else echo "$i" >"$D/many/f$i"; fi
	i=$((i + 1))
done

# run READER OUT VAR=VALUE...: elfscan on the tree with READER, under
# readshim.so as the variables say: sorted records in OUT.json, messages
# in OUT.err, exit status in OUT.status, faults made in OUT.log.
run() {
	r=$1 out=$2
	shift 2
	: >"$out.log"
	env "$@" READSHIM_LOG="$out.log" ELFSCAN_READER="$r" LD_PRELOAD="$READSHIM" \
	    "$ELFSCAN" --format=json --no-progress "$D" >"$out.raw" 2>"$out.err"
	echo $? >"$out.status"
	sort "$out.raw" >"$out.json"
}

readers=threads
if "$ELFSCAN" --version | grep -qx 'reader: io_uring'; then
	readers="io_uring threads"
else
	echo "note: $("$ELFSCAN" --version | sed -n 's/^reader: //p'): only the threads reader is tried"
fi

for r in $readers; do
	run "$r" "$T/$r.ref"
	expect "$r: unimpeded: exit status 1 (findings)" "$(cat "$T/$r.ref.status")" 1
	expect "$r: unimpeded: nothing on stderr" "$(cat "$T/$r.ref.err")" ""
	expect "$r: unimpeded: no fault made" "$(cat "$T/$r.ref.log")" ""
done
[ "$readers" = threads ] ||
    expect "both readers unimpeded: the same records" "$(cmp "$T/io_uring.ref.json" "$T/threads.ref.json" && echo same)" same
# The records of the file FILE of the tree, and those of the others.
of() { grep "\"path\":\"$D/$1\"" "$2"; }
but() { grep -v "\"path\":\"$D/$1\"" "$2"; }

# same READER NAME FILE FAULT LOG [COUNT]: the fault made LOG (one line, or
# COUNT), and the scan is the unimpeded one.
same() {
	r=$1 name="$1: $2" file=$3 fault=$4 log=$5 count=${6:-1}
	o=$T/out
	run "$r" "$o" READSHIM_FILE="${file##*/}" READSHIM_FAULT="$fault" READSHIM_COUNT="$count"
	expect "$name: the fault was made" "$(sort -u "$o.log")" "$log"
	expect "$name: exit status" "$(cat "$o.status")" "$(cat "$T/$r.ref.status")"
	expect "$name: nothing on stderr" "$(cat "$o.err")" ""
	cmp -s "$o.json" "$T/$r.ref.json" && pass "$name: the unimpeded scan" ||
	    fail "$name: the scan differs: $(diff "$T/$r.ref.json" "$o.json" | head -4)"
}

# lost READER NAME FILE FAULT LOG MESSAGE: FILE cannot be read; it alone
# is reported, with MESSAGE; every other file's records are there.
lost() {
	r=$1 name="$1: $2" file=$3 fault=$4 log=$5 msg=$6
	o=$T/out
	run "$r" "$o" READSHIM_FILE="${file##*/}" READSHIM_FAULT="$fault"
	expect "$name: the fault was made" "$(cat "$o.log")" "$log"
	expect "$name: exit status 2" "$(cat "$o.status")" 2
	expect "$name: the other files' records" "$(but "$file" "$o.json")" "$(but "$file" "$T/$r.ref.json")"
	expect "$name: the file's error record" "$(of "$file" "$o.json" | sed 's/.*"error":"\([^"]*\)".*/\1/')" "$msg"
	# In text, the message goes to stderr.
	: >"$o.log"
	env READSHIM_FILE="${file##*/}" READSHIM_FAULT="$fault" READSHIM_LOG="$o.log" \
	    ELFSCAN_READER="$r" LD_PRELOAD="$READSHIM" "$ELFSCAN" -q --no-progress "$D" \
	    >/dev/null 2>"$o.err"
	expect "$name: text: one line, the file's" "$(cat "$o.log") $(cat "$o.err")" "$log elfscan: $D/$file: $msg"
}

for r in $readers; do
	w=libc
	[ "$r" = io_uring ] && w=io_uring
	same "$r" "short read before the magic" bin/exec short:2 "$w short short"
	same "$r" "short read of an archive" lib/libmix.a short:3 "$w short short"
	same "$r" "short read past the format's bytes" bin/exec short:100 "$w short short"
	same "$r" "short read of a library" lib/libexec.so short:30 "$w short short"
	same "$r" "short read of a text file" bin/text short:1 "$w short short"
	same "$r" "read interrupted" bin/exec read:EINTR "$w read EINTR"
	same "$r" "open interrupted" bin/exec open:EINTR "$w open EINTR"
	lost "$r" "read fails" bin/exec read:EIO "$w read EIO" "cannot read: Input/output error"
	lost "$r" "open refused" lib/libexec.so open:EACCES "$w open EACCES" "cannot open: Permission denied"
	lost "$r" "read of a text file fails" bin/text read:EIO "$w read EIO" "cannot read: Input/output error"
done
# A read of plain calls that says try again is an answer: the file is
# reported, as before io_uring.
lost threads "read told to wait" bin/exec read:EAGAIN "libc read EAGAIN" \
    "cannot read: Resource temporarily unavailable"
case $readers in
*io_uring*)
	# A completion that says try again is no answer: read with plain calls.
	same io_uring "read told to wait" bin/exec read:EAGAIN "io_uring read EAGAIN"
	same io_uring "open told to wait" bin/exec open:EAGAIN "io_uring open EAGAIN"
	same io_uring "rings entered in vain, interrupted" bin/exec enter:EINTR "io_uring enter EINTR" 5
	same io_uring "rings entered in vain, busy" bin/exec enter:EBUSY "io_uring enter EBUSY" 5
	;;
esac
finish
