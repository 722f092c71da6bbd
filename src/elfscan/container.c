/*
 * container.c - packages, wheels and tarballs: the ELF members of .deb,
 * .rpm, zip (.whl, .jar, .apk), tar and cpio files, compressed with gzip,
 * bzip2, xz or zstd or not, read in one streaming pass with libarchive.
 * Nothing is unpacked to disk: each member's bytes go by once. An ELF
 * member, or an ar archive (.a) met at any depth, is handed to the library
 * as a stream (chstk_scan_stream), which keeps only what it reads: a
 * 300 MB static library costs no more memory than its biggest object.
 * Each member's images go to the judge as a batch, once it is read.
 *
 * What a file is comes from its first bytes, not its name; the library
 * says which files are its own (chstk_format). A container found inside a
 * container is opened too, one level deep (wheels in a tarball); the
 * data.tar of a .deb is part of the .deb, and libarchive reads the cpio
 * payload of an .rpm through its rpm filter.
 *
 * A hostile file costs bounded work: it may expand to EXPAND_MIN bytes or
 * EXPAND_RATIO times its size, whichever is more, and hold MEMBERS_MAX
 * entries; past either the file is abandoned with an error. What counts
 * is what is decompressed, not what headers declare: every member's bytes
 * that pass through a decompressor are read here, through entry_read,
 * rather than skipped inside libarchive where they could not be counted or
 * stopped; only skips that cost nothing (a seek in a plain file, a zip
 * member's compressed bytes) are left to libarchive. Members named
 * absolutely or with a ".." component, which tar and bsdtar refuse to
 * unpack, and names longer than NAME_LEN are errors and are not scanned.
 */
#include <errno.h>
#include <locale.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "container.h"
#include "lazy.h"
#include "xalloc.h"

#define HEAD 512		/* bytes of a member read to tell what it is */
#define EXPAND_MIN (1ull << 30)
#define EXPAND_RATIO 100
#define MEMBERS_MAX 1000000
#define NAME_LEN 4096
/* A name joins at most two: a container in the file, and a member in it,
   each with its "!"; the library adds a third, an object in an .a. */
#define NAME_BUF (2 * (NAME_LEN + 1) + 1)
/* The errno libarchive gives "Unrecognized archive format" (its private
   ARCHIVE_ERRNO_FILE_FORMAT): the compression held something else. */
#define NOT_AN_ARCHIVE EILSEQ

/* One file, with the containers inside it. */
struct scan {
	const struct container_out *out;
	/* container_scan_stream's source */
	ssize_t (*read)(void *arg, void *buf, size_t len);
	void *arg;
	struct batch b;		/* what the member being read holds */
	uint64_t budget, used;	/* bytes the file may expand to, and did */
	unsigned long entries;
	bool stop;		/* a limit was hit: read no further */
};

/* One archive being read: the file, or a member of it. */
struct level {
	struct scan *s;
	struct archive *a;
	bool deb;		/* the ar archive of a .deb */
	bool files;		/* a package's files: out->file is told */
	bool data;		/* the .deb's data.tar was met */
	uint64_t at;		/* where the member being read starts in the
				   file, when its bytes lie there as they are;
				   else UINT64_MAX */
	unsigned depth;		/* 0 for the file, 1 for a member */
	size_t plen;		/* name[0, plen) names the level */
	char name[NAME_BUF];	/* the prefix, then the member being read */
	/* A member's level reads the member through its outer level, into
	   buf, which libarchive reads from until the next call. */
	struct entry *from;
	const unsigned char *head;
	size_t head_len;
	unsigned char buf[65536];
	unsigned char drain[65536];	/* for what is read to be dropped */
};

/* One member's bytes, from its level's archive, counted. */
struct entry {
	struct level *l;
	uint64_t size;		/* declared, or UINT64_MAX */
	int failed;		/* the libarchive status of a failed read */
};

static const char *
why(struct archive *a)
{
	const char *e = libarchive.archive_error_string(a);

	return e != NULL ? e : "unknown error";
}

/* The member being read, or the level itself: its prefix without the
   "!", or NULL for the file. */
static const char *
name_of(const struct level *l, bool member, char self[NAME_BUF])
{
	if (member)
		return l->name;
	if (l->plen == 0)
		return NULL;
	memcpy(self, l->name, l->plen - 1);
	self[l->plen - 1] = '\0';
	return self;
}

/* Hand what was found to the judge. */
static void
flush(struct scan *s)
{
	if (s->b.n == 0)
		return;
	s->out->found(s->out->arg, &s->b);
	batch_clear(&s->b);
}

/* An error about the member being read, or about the level itself. */
static void __attribute__((format(printf, 3, 4)))
report(struct level *l, bool member, const char *fmt, ...)
{
	char msg[512], self[NAME_BUF];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	batch_add(&l->s->b, FOUND_ERROR, name_of(l, member, self), "%s", msg);
	flush(l->s);
}

static bool
over_budget(struct level *l)
{
	if (l->s->used <= l->s->budget)
		return false;
	if (!l->s->stop)
		report(l, true, "stopped: the file expands past %ju bytes (a decompression bomb?)", (uintmax_t)l->s->budget);
	l->s->stop = true;
	return true;
}

/* A member's bytes, through archive_read_data (which fills the holes of
   sparse files), counted against the expansion budget. */
static ssize_t
entry_read(void *arg, void *buf, size_t len)
{
	struct entry *e = arg;
	la_ssize_t n = libarchive.archive_read_data(e->l->a, buf, len);

	if (n < 0) {
		e->failed = (int)n;
		return -1;
	}
	e->l->s->used += (uint64_t)n;
	if (over_budget(e->l)) {
		e->failed = ARCHIVE_FATAL;
		return -1;
	}
	return n;
}

/* libarchive reads the ar archive of a .deb; an .a is the library's. */
static void
add_formats(struct archive *a)
{
	libarchive.archive_read_support_filter_gzip(a);
	libarchive.archive_read_support_filter_bzip2(a);
	libarchive.archive_read_support_filter_xz(a);
	libarchive.archive_read_support_filter_lzma(a);
	libarchive.archive_read_support_filter_zstd(a);
	libarchive.archive_read_support_filter_rpm(a);
	libarchive.archive_read_support_format_tar(a);
	libarchive.archive_read_support_format_cpio(a);
	libarchive.archive_read_support_format_zip_streamable(a);
	libarchive.archive_read_support_format_ar(a);
}

enum container
container_kind(const unsigned char *h, size_t n)
{
	static const struct {
		size_t off, len;
		const char *magic;
		enum container kind;
	} m[] = {
		{ 0, 4, "\355\253\356\333", CONTAINER_RPM },
		{ 0, 4, "PK\3\4", CONTAINER_ZIP },
		{ 0, 4, "PK\5\6", CONTAINER_ZIP },
		{ 257, 5, "ustar", CONTAINER_TAR },
		{ 0, 6, "070701", CONTAINER_CPIO },
		{ 0, 6, "070702", CONTAINER_CPIO },
		{ 0, 6, "070707", CONTAINER_CPIO },
		{ 0, 3, "\037\213\010", CONTAINER_COMPRESSED },
		{ 0, 6, "\3757zXZ", CONTAINER_COMPRESSED },
		{ 0, 4, "\050\265\057\375", CONTAINER_COMPRESSED },
		{ 0, 3, "BZh", CONTAINER_COMPRESSED },
	};
	size_t i;

	if (chstk_format(h, n) == CHSTK_FORMAT_DEB)
		return CONTAINER_DEB;
	for (i = 0; i < sizeof(m) / sizeof(m[0]); i++)
		if (m[i].off + m[i].len <= n &&
		    memcmp(h + m[i].off, m[i].magic, m[i].len) == 0)
			return m[i].kind;
	return CONTAINER_NONE;
}

/* Does the name promise an archive inside the compression? */
static bool
archive_name(const char *name)
{
	static const char *const ends[] = { ".tgz", ".tbz", ".tbz2", ".txz",
	    ".tzst" };
	size_t len = strlen(name), i;

	if (strstr(name, ".tar.") != NULL || strstr(name, ".cpio.") != NULL)
		return true;
	for (i = 0; i < sizeof(ends) / sizeof(ends[0]); i++)
		if (len >= strlen(ends[i]) &&
		    strcmp(name + len - strlen(ends[i]), ends[i]) == 0)
			return true;
	return false;
}

/* Put the member's name, cleaned of leading "./", after the level's
   prefix. -1 (reported when say) when it is unsafe or too long. */
static int
name_in(struct level *l, struct archive_entry *ae, bool say)
{
	const char *name = libarchive.archive_entry_pathname_utf8(ae), *p;
	size_t len;

	if (name == NULL)
		name = libarchive.archive_entry_pathname(ae);
	if (name == NULL) {
		l->name[l->plen] = '\0';
		if (say)
			report(l, true, "not scanned: a member name that cannot be read as UTF-8");
		return -1;
	}
	while (name[0] == '.' && name[1] == '/')
		for (name += 2; *name == '/' && name[1] != '\0';)
			name++;
	len = strlen(name);
	if (len > NAME_LEN || len >= sizeof(l->name) - l->plen) {
		/* shown by its start */
		snprintf(l->name + l->plen, sizeof(l->name) - l->plen,
		    "%.64s...", name);
		if (say)
			report(l, true, "not scanned: a member name longer than %d bytes", NAME_LEN);
		return -1;
	}
	memcpy(l->name + l->plen, name, len + 1);
	for (p = name; *p != '\0'; p += strcspn(p, "/"), p += *p == '/')
		if (p[0] == '.' && p[1] == '.' && (p[2] == '/' || p[2] == '\0'))
			break;
	if (name[0] == '/' || name[0] == '\0' || *p != '\0') {
		if (say)
			report(l, true, "not scanned: %s", name[0] == '/' ?
			    "an absolute member name" : name[0] == '\0' ?
			    "an empty member name" :
			    "a member name with \"..\"");
		return -1;
	}
	return 0;
}

static int
set_name(struct level *l, struct archive_entry *ae)
{
	return name_in(l, ae, true);
}

/* The library's callback only collects, each image named as inside: the
   member, and an object of an .a after a "!". */
static int
collect(void *arg, const char *member, const struct chstk_info *info,
    const struct chstk_error *err)
{
	struct level *l = arg;
	char *name = l->name;
	struct chstk_info in;

	if (member != NULL && asprintf(&name, "%s!%s", l->name, member) < 0)
		oom();
	/* The offsets are the member's: the file's when it lies there. */
	if (info != NULL && l->at != UINT64_MAX) {
		in = *info;
		in.mark_offset += l->at;
		if (in.wx_size > 0)
			in.wx_offset += l->at;
		info = &in;
	}
	if (info != NULL)
		batch_image(&l->s->b, name, member != NULL, info);
	else if (err->code == CHSTK_ERR_NOMEM)
		batch_add(&l->s->b, FOUND_ERROR, name,
		    "cannot scan member: %s", err->msg);
	else
		batch_add(&l->s->b, FOUND_MALFORMED, name, "%s", err->msg);
	if (name != l->name)
		free(name);
	return 0;
}

/* A compilation unit of the member being read, for its batch. */
static int
collect_unit(void *arg, const struct chstk_unit *unit)
{
	struct level *l = arg;

	return batch_unit(&l->s->b, unit);
}

/* A symbol of the member being read, for its batch. */
static int
collect_symbol(void *arg, const struct chstk_sym *sym)
{
	struct level *l = arg;

	return batch_symbol(&l->s->b, sym);
}

/* A member as the library reads it: the head already read, then the
   rest, when the member did not end within it. */
struct member_stream {
	struct entry *e;
	const unsigned char *head;
	size_t n, off;
	bool ended;
};

static ssize_t
member_read(void *arg, void *buf, size_t len)
{
	struct member_stream *m = arg;
	size_t k;

	if (m->off < m->n) {
		k = m->n - m->off < len ? m->n - m->off : len;
		memcpy(buf, m->head + m->off, k);
		m->off += k;
		return (ssize_t)k;
	}
	return m->ended ? 0 : entry_read(m->e, buf, len);
}

/* An ELF file or an .a, read by the library. Returns -1 when the stream
   failed (the level reports it), else 0. */
static int
scan_member(struct level *l, struct entry *e, const unsigned char *head,
    size_t n, bool ended, enum chstk_format format)
{
	struct member_stream m = { e, head, n, 0, ended };
	struct chstk_scan_opts so = {
		.read = (l->s->out->hardening ? CHSTK_READ_HARDENING |
		    CHSTK_READ_CODE | CHSTK_READ_EVIDENCE |
		    (l->s->out->code ? CHSTK_READ_CODE_SEARCH : 0) : 0) |
		    (l->s->out->dynamic ? CHSTK_READ_DYNAMIC : 0) |
		    CHSTK_READ_WANT,
		.symbol = collect_symbol,
		.unit = collect_unit,
		.want = batch_want,
	};
	struct chstk_error err;
	int r;

	flush(l->s);
	/* A member whose bytes lie in the file as they are has offsets
	   there: the batch says so, for the SARIF regions. */
	l->s->b.at.streamed = l->at == UINT64_MAX;
	r = chstk_scan_stream_with(member_read, &m, e->size, &so, collect, l,
	    &err);
	if (e->failed != 0)
		return -1;
	if (r == CHSTK_ERR_NOMEM || r == CHSTK_ERR_SYS)
		report(l, true, "cannot scan member: %s", err.msg);
	else if (r < 0 && format == CHSTK_FORMAT_AR)
		batch_add(&l->s->b, FOUND_DAMAGED, l->name,
		    "damaged archive: %s", err.msg);
	else if (r < 0)
		batch_add(&l->s->b, FOUND_MALFORMED, l->name, "%s", err.msg);
	flush(l->s);
	l->s->b.at.streamed = true;
	return 0;
}

static void read_level(struct level *l);

/* The nested level's source: the head already read, then the rest. */
static la_ssize_t
nest_read(struct archive *a, void *arg, const void **buf)
{
	struct level *in = arg;
	ssize_t n;

	(void)a;
	if (in->head != NULL) {
		*buf = in->head;
		in->head = NULL;
		return (la_ssize_t)in->head_len;
	}
	n = entry_read(in->from, in->buf, sizeof(in->buf));
	*buf = in->buf;
	return n;
}

/*
 * Open the member as a container: the data.tar of a .deb under the .deb's
 * own prefix, anything else under the member's name and "!". Returns -1
 * when the outer stream failed, else 0.
 */
static int
open_nested(struct level *l, struct entry *e, const unsigned char *head,
    size_t n, enum container kind)
{
	struct level *in;
	int r;

	if (strlen(l->name) + 2 > sizeof(in->name)) {
		report(l, true, "cannot read archive: name too long");
		return 0;
	}
	in = xcalloc(1, sizeof(*in));
	if ((in->a = libarchive.archive_read_new()) == NULL)
		oom();
	add_formats(in->a);
	in->s = l->s;
	in->deb = kind == CONTAINER_DEB;
	/* The data.tar of a .deb scanned, not of one inside it. */
	in->files = l->deb && l->from == NULL && l->s->read == NULL &&
	    l->s->out->file != NULL;
	in->depth = l->deb ? l->depth : l->depth + 1;
	in->plen = l->deb ? l->plen : strlen(l->name);
	memcpy(in->name, l->name, in->plen);
	if (!l->deb)
		in->name[in->plen++] = '!';
	in->name[in->plen] = '\0';
	in->from = e;
	in->head = head;
	in->head_len = n;
	r = libarchive.archive_read_open(in->a, in, NULL, nest_read, NULL);
	if (r == ARCHIVE_OK)
		read_level(in);
	else if (e->failed == 0 && !(kind == CONTAINER_COMPRESSED &&
	    libarchive.archive_errno(in->a) == NOT_AN_ARCHIVE &&
	    !archive_name(l->name + l->plen)))
		report(l, true, "cannot read archive: %s", why(in->a));
	libarchive.archive_read_free(in->a);
	free(in);
	return e->failed == 0 ? 0 : -1;
}

/* What to do with a member, by its first bytes. Returns -1 when the
   stream failed, else 0. */
static int
dispatch(struct level *l, struct entry *e, const unsigned char *head,
    size_t n, bool ended)
{
	enum chstk_format format = chstk_format(head, n);
	enum container kind = container_kind(head, n);

	if (l->deb)
		return open_nested(l, e, head, n, kind);
	/* The library's first: an ELF file may hold "ustar" where a tar has
	   it. An .a holds only objects: read at any depth. */
	if (format == CHSTK_FORMAT_ELF || format == CHSTK_FORMAT_AR)
		return scan_member(l, e, head, n, ended, format);
	if (kind != CONTAINER_NONE && l->depth == 0)
		return open_nested(l, e, head, n, kind);
	return 0;
}

/* The entry for the archive's top directory, "./" or "/", which holds
   nothing to scan. */
static bool
root_dir(struct archive_entry *ae)
{
	const char *name = libarchive.archive_entry_pathname(ae);

	return libarchive.archive_entry_filetype(ae) == AE_IFDIR &&
	    name != NULL && name[strspn(name, "./")] == '\0';
}

/* Would skipping the rest of a member cost decompressing it? Then it is
   read here instead, where it is counted. A zip member of known size is
   skipped by its compressed size. */
static bool
costly_skip(const struct level *l, const struct entry *e)
{
	return e->size == UINT64_MAX ||
	    libarchive.archive_filter_count(l->a) > 1;
}

/*
 * Where the member's bytes start in the file, when they lie there as they
 * are, one after the other: a member of a tar or cpio file read directly,
 * uncompressed, not sparse; libarchive has just read its header. Else
 * UINT64_MAX.
 */
static uint64_t
in_file(const struct level *l, struct archive_entry *ae)
{
	int format = libarchive.archive_format(l->a) & ARCHIVE_FORMAT_BASE_MASK;
	la_int64_t at;

	if (l->from != NULL || l->s->read != NULL ||
	    libarchive.archive_filter_count(l->a) != 1 ||
	    (format != ARCHIVE_FORMAT_TAR && format != ARCHIVE_FORMAT_CPIO) ||
	    libarchive.archive_entry_sparse_count(ae) != 0)
		return UINT64_MAX;
	at = libarchive.archive_filter_bytes(l->a, 0);
	return at < 0 ? UINT64_MAX : (uint64_t)at;
}

/* The member's bytes, at most max of them, into *out (the caller frees
   it) and *len; *out NULL when it holds more. Returns -1 when the stream
   failed, else 0. */
static int
read_all(struct entry *e, size_t max, unsigned char **out, size_t *len)
{
	size_t n = 0, cap = e->size != UINT64_MAX && e->size < max ?
	    (size_t)e->size + 1 : max < 65536 ? max + 1 : 65536;
	unsigned char *buf;
	ssize_t k = 1;

	*out = NULL;
	*len = 0;
	if (e->size != UINT64_MAX && e->size > max)
		return 0;
	buf = xmalloc(cap);
	while (n <= max && (k = entry_read(e, buf + n, cap - n)) > 0)
		if ((n += (size_t)k) == cap && cap <= max) {
			cap = cap <= max / 2 ? 2 * cap : max + 1;
			buf = xrealloc(buf, cap);
		}
	if (k < 0 || n > max) {
		free(buf);
		return k < 0 ? -1 : 0;
	}
	*out = buf;
	*len = n;
	return 0;
}

/* The member's bytes, at most max of them, handed to out->kept (none
   when it holds more). Returns -1 when the stream failed, else 0. */
static int
keep(struct level *l, struct entry *e, size_t max)
{
	unsigned char *buf;
	size_t n;

	if (read_all(e, max, &buf, &n) < 0)
		return -1;
	l->s->out->kept(l->s->out->arg, l->name, buf, n);
	free(buf);
	return 0;
}

/* A link of a package, for out->file. */
static void
package_link(struct level *l, struct archive_entry *ae)
{
	struct container_file f = { .name = l->name + l->plen,
	    .type = CFILE_LINK };

	if (name_in(l, ae, false) == 0 &&
	    (f.data = libarchive.archive_entry_symlink(ae)) != NULL) {
		f.len = strlen(f.data);
		l->s->out->file(l->s->out->arg, &f);
	}
}

/*
 * A regular file of a package whose first n bytes are read (ended: all
 * of it), for out->file when it is none the scan reads (an ELF file, an
 * ar archive, a container): its bytes, when out->keep() names it; else
 * its first line, when it is an executable script. Returns -1 when the
 * stream failed, else 0.
 */
static int
package_text(struct level *l, struct entry *e, struct archive_entry *ae,
    const unsigned char *head, size_t n, bool ended)
{
	const struct container_out *out = l->s->out;
	struct container_file f = { .name = l->name + l->plen,
	    .type = CFILE_KEPT };
	enum chstk_format format = chstk_format(head, n);
	char path[NAME_BUF + 1];
	unsigned char *rest = NULL, *all = NULL;
	size_t max, len = 0;

	if (format == CHSTK_FORMAT_ELF || format == CHSTK_FORMAT_AR ||
	    container_kind(head, n) != CONTAINER_NONE)
		return 0;
	snprintf(path, sizeof(path), "/%s", f.name);
	if ((max = out->keep(path)) == 0) {
		if (n < 2 || head[0] != '#' || head[1] != '!' ||
		    (libarchive.archive_entry_perm(ae) & 0111) == 0)
			return 0;
		f.type = CFILE_SCRIPT;
		f.data = (const char *)head;
		while (f.len < n && f.len < CFILE_LINE && head[f.len] != '\n')
			f.len++;
		out->file(out->arg, &f);
		return 0;
	}
	if (n <= max && !ended && read_all(e, max - n, &rest, &len) < 0)
		return -1;
	if (n <= max && (ended || rest != NULL)) {
		all = xmalloc(n + len + 1);
		memcpy(all, head, n);
		if (len > 0)
			memcpy(all + n, rest, len);
		f.data = (const char *)all;
		f.len = n + len;
	}
	out->file(out->arg, &f);
	free(rest);
	free(all);
	return 0;
}

/* One entry of an archive: 0 to go on to the next, -1 to stop. */
static int
entry(struct level *l, struct archive_entry *ae)
{
	struct entry e = { .l = l, .size = UINT64_MAX };
	mode_t type = libarchive.archive_entry_filetype(ae);
	enum entry_do what = ENTRY_SKIP;
	unsigned char head[HEAD];
	size_t n = 0, max = 0;
	ssize_t k = 1;
	bool scan, ended;

	if (++l->s->entries > MEMBERS_MAX) {
		report(l, false, "stopped: more than %d members",
		    MEMBERS_MAX);
		l->s->stop = true;
		return -1;
	}
	if (libarchive.archive_entry_size_is_set(ae) &&
	    libarchive.archive_entry_size(ae) >= 0)
		e.size = (uint64_t)libarchive.archive_entry_size(ae);
	l->at = in_file(l, ae);
	/* An image layer's entries, of every type, go by its reader first,
	   which says which to scan or keep (oci.c). ar members have no
	   type: 0. */
	if (l->from == NULL && l->s->out->entry != NULL) {
		if (!root_dir(ae) && set_name(l, ae) == 0)
			what = l->s->out->entry(l->s->out->arg, l->name, ae,
			    &max);
		scan = what == ENTRY_SCAN && type == AE_IFREG;
		if (what == ENTRY_KEEP && type == AE_IFREG)
			k = keep(l, &e, max);
	} else if (l->files && type == AE_IFLNK) {
		package_link(l, ae);
		scan = false;
	} else {
		scan = (type == AE_IFREG || type == 0) && set_name(l, ae) == 0;
	}
	/* Of a .deb, only the data.tar. */
	if (scan && l->deb && (scan = strncmp(l->name + l->plen, "data.tar",
	    8) == 0))
		l->data = true;
	if (scan) {
		while (n < HEAD && (k = entry_read(&e, head + n, HEAD - n)) > 0)
			n += (size_t)k;
		ended = k == 0;
		if (k >= 0 && l->files)
			k = package_text(l, &e, ae, head, n, ended);
		if (k >= 0)
			k = dispatch(l, &e, head, n, ended);
	}
	if (k >= 0 && !l->s->stop && costly_skip(l, &e))
		while ((k = entry_read(&e, l->drain, sizeof(l->drain))) > 0)
			;
	if (e.failed == 0)
		return 0;
	if (!l->s->stop)
		report(l, true, "cannot read archive: %s", why(l->a));
	return e.failed == ARCHIVE_FAILED && !l->s->stop ? 0 : -1;
}

static void
read_level(struct level *l)
{
	struct archive_entry *ae;
	int r = ARCHIVE_OK;

	while (!l->s->stop &&
	    ((r = libarchive.archive_read_next_header(l->a, &ae)) ==
	    ARCHIVE_OK || r == ARCHIVE_WARN))
		if (entry(l, ae) < 0)
			return;
	/* A failure of the outer stream is the outer level's to report. */
	if (!l->s->stop && r != ARCHIVE_EOF && (l->from == NULL ||
	    l->from->failed == 0))
		report(l, false, "cannot read archive: %s", why(l->a));
	else if (r == ARCHIVE_EOF && l->deb && !l->data)
		report(l, false, "cannot read package: no data.tar member");
}

/* libarchive's source for container_scan_stream: the stream's bytes. */
static la_ssize_t
stream_read(struct archive *a, void *arg, const void **buf)
{
	struct level *l = arg;
	ssize_t n = l->s->read(l->s->arg, l->buf, sizeof(l->buf));

	(void)a;
	*buf = l->buf;
	return n;
}

/* Names are converted to the thread's locale; UTF-8 keeps them. */
static locale_t
utf8_begin(locale_t *was)
{
	locale_t utf8 = newlocale(LC_CTYPE_MASK, "C.UTF-8", (locale_t)0);

	*was = utf8 != (locale_t)0 ? uselocale(utf8) : (locale_t)0;
	return utf8;
}

static void
utf8_end(locale_t utf8, locale_t was)
{
	if (utf8 != (locale_t)0) {
		uselocale(was);
		freelocale(utf8);
	}
}

void
container_scan_stream(ssize_t (*read)(void *arg, void *buf, size_t len),
    void *arg, uint64_t size, const char *path, const char *prefix,
    const struct container_out *out)
{
	struct scan s = { .out = out, .read = read, .arg = arg,
	    .b.at = { .path = path, .streamed = true }, .b.packed = true,
	    .b.evidence = out->hardening,
	    .budget = EXPAND_MIN };
	struct level *l;
	locale_t was, utf8;
	const char *no;

	if (lazy_archive_load(&no) < 0) {
		batch_add(&s.b, FOUND_ERROR, NULL, "%s", no);
		flush(&s);
		return;
	}
	if (size != UINT64_MAX && size > s.budget / EXPAND_RATIO)
		s.budget = size * EXPAND_RATIO;
	l = xcalloc(1, sizeof(*l));
	utf8 = utf8_begin(&was);
	if ((l->a = libarchive.archive_read_new()) == NULL)
		oom();
	add_formats(l->a);
	l->s = &s;
	/* As in a directory: containers inside are not opened. */
	l->depth = 1;
	l->plen = strlen(prefix) < NAME_LEN ? strlen(prefix) : 0;
	memcpy(l->name, prefix, l->plen);
	l->name[l->plen] = '\0';
	if (libarchive.archive_read_open(l->a, l, NULL, stream_read, NULL) ==
	    ARCHIVE_OK)
		read_level(l);
	else
		report(l, false, "cannot read archive: %s", why(l->a));
	flush(&s);
	libarchive.archive_read_free(l->a);
	free(l);
	utf8_end(utf8, was);
}

/* libarchive's source for container_scan_hashed: the file's bytes, each
   into the digest. */
struct hashed {
	int fd;
	struct container_digest *d;
	unsigned char buf[65536];
	bool failed;
};

static la_ssize_t
hashed_read(struct archive *a, void *arg, const void **buf)
{
	struct hashed *h = arg;
	ssize_t n;

	(void)a;
	do
		n = read(h->fd, h->buf, sizeof(h->buf));
	while (n == -1 && errno == EINTR);
	if (n == -1) {
		h->failed = true;
		return -1;
	}
	sha256_update(&h->d->sha, h->buf, (size_t)n);
	h->d->size += (uint64_t)n;
	*buf = h->buf;
	return n;
}

/* What libarchive left of the file, into the digest. */
static void
hashed_rest(struct hashed *h)
{
	ssize_t n;

	do {
		n = read(h->fd, h->buf, sizeof(h->buf));
		if (n > 0) {
			sha256_update(&h->d->sha, h->buf, (size_t)n);
			h->d->size += (uint64_t)n;
		}
	} while (n > 0 || (n == -1 && errno == EINTR));
	h->d->whole = n == 0 && !h->failed;
}

/* container_scan, and with d, container_scan_hashed. */
static void
scan_fd(int fd, const char *path, enum container kind,
    const struct container_out *out, struct container_digest *d)
{
	struct scan s = { .out = out,
	    .b.at = { .path = path, .streamed = true }, .b.packed = true,
	    .b.evidence = out->hardening,
	    .budget = EXPAND_MIN };
	struct hashed *h = NULL;
	struct level *l;
	locale_t was, utf8;
	struct stat st;
	const char *no;
	int r;

	if (lazy_archive_load(&no) < 0) {
		batch_add(&s.b, FOUND_ERROR, NULL, "%s", no);
		flush(&s);
		return;
	}
	l = xcalloc(1, sizeof(*l));
	utf8 = utf8_begin(&was);

	if (fstat(fd, &st) == 0 && (uint64_t)st.st_size > s.budget /
	    EXPAND_RATIO)
		s.budget = (uint64_t)st.st_size * EXPAND_RATIO;
	if ((l->a = libarchive.archive_read_new()) == NULL)
		oom();
	add_formats(l->a);
	l->s = &s;
	l->deb = kind == CONTAINER_DEB;
	l->files = kind == CONTAINER_RPM && out->file != NULL;
	if (d != NULL) {
		h = xcalloc(1, sizeof(*h));
		h->fd = fd;
		h->d = d;
		sha256_init(&d->sha);
		d->size = 0;
		d->whole = false;
		r = libarchive.archive_read_open(l->a, h, NULL, hashed_read,
		    NULL);
	} else {
		r = libarchive.archive_read_open_fd(l->a, fd, 65536);
	}
	if (r == ARCHIVE_OK)
		read_level(l);
	else if (!(kind == CONTAINER_COMPRESSED &&
	    libarchive.archive_errno(l->a) == NOT_AN_ARCHIVE &&
	    !archive_name(path)))
		report(l, false, "cannot read archive: %s", why(l->a));
	flush(&s);
	libarchive.archive_read_free(l->a);
	if (h != NULL) {
		hashed_rest(h);
		free(h);
	}
	free(l);
	utf8_end(utf8, was);
}

/*
 * Scan the container open on fd, of the kind its first bytes say, named
 * path: out->found for what each member holds, images and errors, and for
 * each error about the container itself.
 */
void
container_scan(int fd, const char *path, enum container kind,
    const struct container_out *out)
{
	scan_fd(fd, path, kind, out, NULL);
}

void
container_scan_hashed(int fd, const char *path, enum container kind,
    const struct container_out *out, struct container_digest *d)
{
	scan_fd(fd, path, kind, out, d);
}
