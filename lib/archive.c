/*
 * archive.c - the ar format: members read in place, and an archive written
 * anew from a plan. What the members hold is the layers above's business.
 *
 * The GNU/System V format: "!<arch>\n", then members, each a 60-byte
 * header and its data padded to an even offset. Special members: "/" and
 * "/SYM64/" (the symbol index, which holds members' offsets), "//" (long
 * names, referenced as "/NNN"). BSD names ("#1/NNN", the name following
 * the header) are read too. A member given a new size moves the members
 * after it, so the symbol index is written with their new offsets; a BSD
 * symbol table (__.SYMDEF) cannot be, and refuses such a change.
 * Thin archives hold only paths to their members, and Debian packages hold
 * their files in a compressed tar member: both are refused. Read from a
 * stream, an archive is read front to back; only the long-name table is
 * read again, and it is pinned.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define AR_MAGIC "!<arch>\n"
#define AR_THIN "!<thin>\n"
#define AR_MAGLEN 8
#define AR_HDR 60
#define AR_SIZE_OFF 48
#define AR_SIZE_LEN 10

#define DEB_FIRST "debian-binary"
_Static_assert(AR_MAGLEN + sizeof(DEB_FIRST) - 1 <= CHSTK_FORMAT_HEAD,
    "chstk_format() tells a .deb by more bytes than chstk.h says");

/* A Debian package is an ar archive too, its first member debian-binary. */
enum chstk_ar_magic
chstk__ar_magic(const unsigned char *buf, size_t len)
{
	if (len >= AR_MAGLEN && memcmp(buf, AR_THIN, AR_MAGLEN) == 0)
		return CHSTK_AR_THIN;
	if (len < AR_MAGLEN || memcmp(buf, AR_MAGIC, AR_MAGLEN) != 0)
		return CHSTK_AR_NONE;
	if (len >= AR_MAGLEN + sizeof(DEB_FIRST) - 1 &&
	    memcmp(buf + AR_MAGLEN, DEB_FIRST, sizeof(DEB_FIRST) - 1) == 0)
		return CHSTK_AR_DEB;
	return CHSTK_AR_ARCHIVE;
}

/* A decimal header field, space padded. */
static int
parse_num(const char *f, size_t len, uint64_t *out)
{
	uint64_t v = 0;
	size_t i = 0;

	while (i < len && f[i] >= '0' && f[i] <= '9') {
		if (v > (UINT64_MAX - 9) / 10)
			return -1;
		v = v * 10 + (uint64_t)(f[i++] - '0');
	}
	if (i == 0)
		return -1;
	while (i < len)
		if (f[i++] != ' ')
			return -1;
	*out = v;
	return 0;
}

/* Names go into messages and reports, which are one line each: control
   characters (a newline in a hostile archive) become '?'. */
static void
set_name(struct chstk_ar *ar, struct chstk_ar_member *m, const char *s,
    size_t len)
{
	size_t i;

	if (len >= sizeof(ar->name))
		len = sizeof(ar->name) - 1;
	for (i = 0; i < len; i++)
		ar->name[i] = (unsigned char)s[i] < 0x20 || s[i] == 0x7f ? '?' :
		    s[i];
	ar->name[len] = '\0';
	m->name = ar->name;
}

/* The name is read alone from the long-name table, which is never read
   whole unless it is small (most are: a read for each name would cost
   more): a sparse archive can make it gigabytes. */
static int
long_name(struct chstk_ar *ar, struct chstk_ar_member *m, const char *field,
    struct chstk_error *err)
{
	char own[sizeof(ar->name)], *buf = own;
	uint64_t off;
	size_t len, end;
	int r;

	if (parse_num(field + 1, 15, &off) < 0 || off >= ar->names_size)
		return chstk__error(err, CHSTK_ERR_CORRUPT,
		    "member at offset %ju: bad long name reference",
		    (uintmax_t)m->hdr);
	len = ar->names_size - off < sizeof(own) ?
	    (size_t)(ar->names_size - off) : sizeof(own);
	if (ar->names_size <= sizeof(ar->names_buf)) {
		if (!ar->names_read) {
			r = chstk__src_read(ar->src, ar->names, ar->names_buf,
			    (size_t)ar->names_size, "long member name", err);
			if (r < 0)
				return r;
			ar->names_read = true;
		}
		buf = ar->names_buf + off;
	} else if ((r = chstk__src_read(ar->src, ar->names + off, buf, len,
	    "long member name", err)) < 0)
		return r;
	for (end = 0; end < len; end++)
		if (buf[end] == '\n' || buf[end] == '\0')
			break;
	if (end > 0 && buf[end - 1] == '/')
		end--;
	set_name(ar, m, buf, end);
	return 0;
}

static int
bsd_name(struct chstk_ar *ar, struct chstk_ar_member *m, const char *field,
    struct chstk_error *err)
{
	char buf[sizeof(ar->name)];
	size_t len;
	int r;

	if (parse_num(field + 3, 13, &m->namelen) < 0 ||
	    m->namelen > m->size)
		return chstk__error(err, CHSTK_ERR_CORRUPT,
		    "member at offset %ju: bad BSD name length",
		    (uintmax_t)m->hdr);
	len = m->namelen < sizeof(buf) ? (size_t)m->namelen : sizeof(buf) - 1;
	r = chstk__src_read(ar->src, m->data, buf, len, "member name", err);
	if (r < 0)
		return r;
	set_name(ar, m, buf, strnlen(buf, len));
	m->data += m->namelen;
	m->size -= m->namelen;
	if (strcmp(m->name, "__.SYMDEF") == 0 ||
	    strcmp(m->name, "__.SYMDEF SORTED") == 0)
		m->kind = CHSTK_AR_BSD_INDEX;
	return 0;
}


static void
name_member(struct chstk_ar *ar, struct chstk_ar_member *m, const char *field)
{
	size_t len = 16;

	while (len > 0 && field[len - 1] == ' ')
		len--;
	if (len == 1 && field[0] == '/')
		m->kind = CHSTK_AR_INDEX32;
	else if (len == 7 && memcmp(field, "/SYM64/", 7) == 0)
		m->kind = CHSTK_AR_INDEX64;
	else if (len == 2 && memcmp(field, "//", 2) == 0)
		m->kind = CHSTK_AR_NAMES;
	else if (len == 9 && memcmp(field, "__.SYMDEF", 9) == 0)
		m->kind = CHSTK_AR_BSD_INDEX;
	if (m->kind == CHSTK_AR_FILE && len > 1 && field[len - 1] == '/')
		len--;
	set_name(ar, m, field, len);
}

int
chstk__ar_next(struct chstk_ar *ar, struct chstk_ar_member *m,
    struct chstk_error *err)
{
	char h[AR_HDR];
	size_t got;
	int r;

	memset(m, 0, sizeof(*m));
	m->hdr = ar->next;
	/* Most members are small: one read brings several. */
	chstk__src_ahead(ar->src, m->hdr, AR_HDR);
	r = chstk__src_read_upto(ar->src, m->hdr, h, AR_HDR, &got,
	    "archive member header", err);
	if (r < 0 || got == 0)
		return r;
	if (got < AR_HDR)
		return chstk__error(err, CHSTK_ERR_TRUNCATED,
		    "archive member header runs past the end of the file");
	if (h[58] != '`' || h[59] != '\n' ||
	    parse_num(h + AR_SIZE_OFF, AR_SIZE_LEN, &m->size) < 0)
		return chstk__error(err, CHSTK_ERR_CORRUPT,
		    "member at offset %ju: bad header", (uintmax_t)m->hdr);
	m->data = m->hdr + AR_HDR;
	if (!chstk__in_range(m->data, m->size, chstk__src_size(ar->src)))
		return chstk__error(err, CHSTK_ERR_TRUNCATED,
		    "member at offset %ju runs past the end of the file",
		    (uintmax_t)m->hdr);
	chstk__src_ahead(ar->src, m->hdr, AR_HDR + m->size);
	ar->next = m->data + m->size + (m->size & 1);
	if (h[0] == '/' && h[1] >= '0' && h[1] <= '9')
		r = long_name(ar, m, h, err);
	else if (memcmp(h, "#1/", 3) == 0)
		r = bsd_name(ar, m, h, err);
	else
		name_member(ar, m, h);
	if (r == 0 && m->kind == CHSTK_AR_NAMES) {
		ar->names = m->data;
		ar->names_size = m->size;
		ar->names_read = false;
		/* read after the members that follow it */
		r = chstk__src_pin(ar->src, m->data, m->size, err);
	}
	return r < 0 ? r : 1;
}

int
chstk__ar_open(struct chstk_ar *ar, const struct chstk_src *src,
    struct chstk_error *err)
{
	unsigned char head[AR_MAGLEN + sizeof(DEB_FIRST) - 1];
	size_t got;
	int r;

	memset(ar, 0, sizeof(*ar));
	ar->src = src;
	ar->next = AR_MAGLEN;
	r = chstk__src_read_upto(src, 0, head, sizeof(head), &got,
	    "archive header", err);
	if (r < 0)
		return r;
	switch (chstk__ar_magic(head, got)) {
	case CHSTK_AR_ARCHIVE:
		return 0;
	case CHSTK_AR_THIN:
		return chstk__error(err, CHSTK_ERR_UNSUPPORTED,
		    "thin archive: its members are separate files");
	/* Its programs are inside a compressed tar member: saying "nothing
	   to change" would mislead. */
	case CHSTK_AR_DEB:
		return chstk__error(err, CHSTK_ERR_UNSUPPORTED,
		    "a Debian package: chstk changes the files a package installs, not the package");
	default:
		return chstk__error(err, CHSTK_ERR_NOT_ELF,
		    "not an ar archive");
	}
}

/* A member as a source of its own, read in place. */
void
chstk__ar_member_src(const struct chstk_ar *ar,
    const struct chstk_ar_member *m, struct chstk_src *out)
{
	*out = *ar->src;
	out->base += m->data;
	out->size = m->size;
}

/* A member read whole must fit in memory: on a 32-bit host a size past
   SIZE_MAX would be cut short by the cast to size_t, and the member read
   truncated. */
int
chstk__ar_fits_memory(const struct chstk_ar_member *m,
    struct chstk_error *err)
{
	if (m->size < SIZE_MAX)
		return 0;
	return chstk__error(err, CHSTK_ERR_NOMEM,
	    "member %s: cannot read: %ju bytes do not fit in this machine's address space",
	    m->name, (uintmax_t)m->size);
}

/* The plan of the member whose header was at old. */
static const struct chstk_ar_plan *
plan_at(const struct chstk_ar_plan *p, size_t n, uint64_t old)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (p[mid].m.hdr == old)
			return &p[mid];
		if (p[mid].m.hdr < old)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

static uint64_t
get_be(const unsigned char *p, size_t w)
{
	uint64_t v = 0;
	size_t i;

	for (i = 0; i < w; i++)
		v = v << 8 | p[i];
	return v;
}

static void
put_be(unsigned char *p, size_t w, uint64_t v)
{
	while (w-- > 0) {
		p[w] = (unsigned char)v;
		v >>= 8;
	}
}

/* The symbol index with each member offset moved: a count, the offsets
   (big-endian words of w bytes), then the names, which stay. */
static int
write_index(const struct chstk_ar *ar, const struct chstk_ar_plan *all,
    size_t n, const struct chstk_ar_plan *p, int out_fd, uint64_t at,
    struct chstk_error *err)
{
	size_t w = p->m.kind == CHSTK_AR_INDEX64 ? 8 : 4;
	unsigned char *buf;
	const struct chstk_ar_plan *to;
	uint64_t count, i;
	int r;

	r = chstk__ar_fits_memory(&p->m, err);
	if (r < 0)
		return r;
	buf = malloc(p->m.size ? (size_t)p->m.size : 1);
	if (buf == NULL)
		return chstk__syserror(err, "cannot read the symbol index");
	r = chstk__src_read(ar->src, p->m.data, buf, (size_t)p->m.size,
	    "symbol index", err);
	if (r == 0 && p->m.size < w)
		r = chstk__error(err, CHSTK_ERR_CORRUPT, "symbol index is empty");
	if (r == 0) {
		count = get_be(buf, w);
		if (count > (p->m.size - w) / w)
			r = chstk__error(err, CHSTK_ERR_CORRUPT,
			    "symbol index count %ju out of range",
			    (uintmax_t)count);
	}
	for (i = 0; r == 0 && i < count; i++) {
		unsigned char *e = buf + w + i * w;

		if ((to = plan_at(all, n, get_be(e, w))) == NULL)
			r = chstk__error(err, CHSTK_ERR_CORRUPT,
			    "symbol index entry %ju names no member",
			    (uintmax_t)i);
		else if (w == 4 && to->new_hdr > UINT32_MAX)
			r = chstk__error(err, CHSTK_ERR_UNSUPPORTED,
			    "archive would outgrow its 32-bit symbol index");
		else
			put_be(e, w, to->new_hdr);
	}
	if (r == 0)
		r = chstk__pwrite_all(out_fd, buf, (size_t)p->m.size, at, err);
	free(buf);
	return r;
}

static int
write_member(const struct chstk_ar *ar, const struct chstk_ar_plan *all,
    size_t n, const struct chstk_ar_plan *p, const struct chstk_src *spool,
    int out_fd, struct chstk_error *err)
{
	uint64_t total = p->m.namelen + p->new_size;
	uint64_t data = p->new_hdr + AR_HDR + p->m.namelen;
	char h[AR_HDR + 1];
	int r;

	r = chstk__src_read(ar->src, p->m.hdr, h, AR_HDR,
	    "archive member header", err);
	if (r < 0)
		return r;
	if (total > UINT64_C(9999999999))
		return chstk__error(err, CHSTK_ERR_UNSUPPORTED,
		    "member at offset %ju too large for an archive",
		    (uintmax_t)p->m.hdr);
	snprintf(h + AR_SIZE_OFF, AR_SIZE_LEN + 1, "%-10ju", (uintmax_t)total);
	h[AR_SIZE_OFF + AR_SIZE_LEN] = '`';
	r = chstk__pwrite_all(out_fd, h, AR_HDR, p->new_hdr, err);
	if (r == 0 && p->m.namelen > 0)
		r = chstk__src_copy_range(ar->src, p->m.hdr + AR_HDR,
		    p->m.namelen, out_fd, p->new_hdr + AR_HDR, err);
	if (r < 0)
		return r;
	if (p->m.kind == CHSTK_AR_INDEX32 || p->m.kind == CHSTK_AR_INDEX64)
		r = write_index(ar, all, n, p, out_fd, data, err);
	else if (p->changed)
		r = chstk__src_copy_range(spool, p->spool_off, p->new_size,
		    out_fd, data, err);
	else
		r = chstk__src_copy_range(ar->src, p->m.data, p->m.size, out_fd,
		    data, err);
	if (r == 0 && total & 1)
		r = chstk__pwrite_all(out_fd, "\n", 1, data + p->new_size, err);
	return r;
}

int
chstk__ar_write(const struct chstk_ar *ar, struct chstk_ar_plan *p, size_t n,
    const struct chstk_src *spool, int out_fd, struct chstk_error *err)
{
	uint64_t at = AR_MAGLEN;
	bool moved = false, bsd_index = false;
	size_t i;
	int r;

	for (i = 0; i < n; i++) {
		uint64_t total = p[i].m.namelen + p[i].new_size;

		p[i].new_hdr = at;
		moved |= p[i].new_size != p[i].m.size;
		bsd_index |= p[i].m.kind == CHSTK_AR_BSD_INDEX;
		at += AR_HDR + total + (total & 1);
	}
	if (moved && bsd_index)
		return chstk__error(err, CHSTK_ERR_UNSUPPORTED,
		    "cannot move members indexed by a BSD symbol table");
	r = chstk__pwrite_all(out_fd, AR_MAGIC, AR_MAGLEN, 0, err);
	for (i = 0; r == 0 && i < n; i++)
		r = write_member(ar, p, n, &p[i], spool, out_fd, err);
	return r;
}
