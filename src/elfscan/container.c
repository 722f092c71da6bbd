/*
 * container.c - packages, wheels and tarballs: the ELF members of .deb,
 * .rpm, zip (.whl, .jar, .apk), tar and cpio files, compressed with gzip,
 * bzip2, xz or zstd or not, read in one streaming pass with libarchive.
 * Nothing is unpacked to disk: each member's bytes go by once, and of an
 * ELF member only what member.c keeps is held in memory.
 *
 * What a file is comes from its first bytes, not its name. A container
 * found inside a container is opened too, one level deep (wheels in a
 * tarball); the data.tar of a .deb is part of the .deb, and libarchive
 * reads the cpio payload of an .rpm through its rpm filter. An ar archive
 * (.a) met inside, at any depth, is read the same way, object by object,
 * so that a 300 MB static library costs no more memory than one object.
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
#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <locale.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "elfscan.h"

#define HEAD 512		/* bytes of a member read to tell what it is */
#define EXPAND_MIN (1ull << 30)
#define EXPAND_RATIO 100
#define MEMBERS_MAX 1000000
#define NAME_LEN 4096
/* A name joins at most three: a container in the file, an .a in that, an
   object in the .a; each with its "!". */
#define NAME_BUF (3 * (NAME_LEN + 1) + 1)
/* The errno libarchive gives "Unrecognized archive format" (its private
   ARCHIVE_ERRNO_FILE_FORMAT): the compression held something else. */
#define NOT_AN_ARCHIVE EILSEQ

/* One file, with the containers inside it. */
struct scan {
	const struct container_out *out;
	uint64_t budget, used;	/* bytes the file may expand to, and did */
	unsigned long entries;
	bool stop;		/* a limit was hit: read no further */
};

/* One archive being read: the file, or a member of it. */
struct level {
	struct scan *s;
	struct archive *a;
	bool deb;		/* the ar archive of a .deb */
	bool ar;		/* an .a: only its ELF members are read */
	bool data;		/* the .deb's data.tar was met */
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
	const char *e = archive_error_string(a);

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

/* An error about the member being read, or about the level itself. */
static void __attribute__((format(printf, 3, 4)))
report(struct level *l, bool member, const char *fmt, ...)
{
	char msg[512], self[NAME_BUF];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	l->s->out->error(l->s->out->arg, name_of(l, member, self), msg);
}

/* libarchive could not read a: an error, but for an .a a "malformed"
   finding, as the library makes of an .a it cannot read on disk. */
static void
failed(struct level *l, struct archive *a, bool member, bool ar)
{
	struct chstk_error err = { .code = CHSTK_ERR_CORRUPT };
	char self[NAME_BUF];

	if (!ar) {
		report(l, member, "cannot read archive: %s", why(a));
		return;
	}
	snprintf(err.msg, sizeof(err.msg), "%s", why(a));
	l->s->out->image(l->s->out->arg, name_of(l, member, self), NULL, &err);
}

static bool
over_budget(struct level *l)
{
	if (l->s->used <= l->s->budget)
		return false;
	if (!l->s->stop)
		report(l, true, "stopped: the file expands past %ju bytes "
		    "(a decompression bomb?)", (uintmax_t)l->s->budget);
	l->s->stop = true;
	return true;
}

/* A member's bytes, through archive_read_data (which fills the holes of
   sparse files), counted against the expansion budget. */
static ssize_t
entry_read(void *arg, void *buf, size_t len)
{
	struct entry *e = arg;
	la_ssize_t n = archive_read_data(e->l->a, buf, len);

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

static struct archive *
new_reader(void)
{
	struct archive *a = archive_read_new();

	if (a == NULL)
		return NULL;
	archive_read_support_filter_gzip(a);
	archive_read_support_filter_bzip2(a);
	archive_read_support_filter_xz(a);
	archive_read_support_filter_lzma(a);
	archive_read_support_filter_zstd(a);
	archive_read_support_filter_rpm(a);
	archive_read_support_format_tar(a);
	archive_read_support_format_cpio(a);
	archive_read_support_format_zip_streamable(a);
	archive_read_support_format_ar(a);
	return a;
}

enum container
container_kind(const unsigned char *h, size_t n)
{
	static const struct {
		size_t off, len;
		const char *magic;
		enum container kind;
	} m[] = {
		{ 0, 21, "!<arch>\ndebian-binary", CONTAINER_DEB },
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
   prefix. -1 (reported) when it is unsafe or too long. */
static int
set_name(struct level *l, struct archive_entry *ae)
{
	const char *name = archive_entry_pathname_utf8(ae), *p;
	size_t len;

	if (name == NULL)
		name = archive_entry_pathname(ae);
	if (name == NULL) {
		l->name[l->plen] = '\0';
		report(l, true, "not scanned: a member name that cannot be "
		    "read as UTF-8");
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
		report(l, true, "not scanned: a member name longer than %d "
		    "bytes", NAME_LEN);
		return -1;
	}
	memcpy(l->name + l->plen, name, len + 1);
	for (p = name; *p != '\0'; p += strcspn(p, "/"), p += *p == '/')
		if (p[0] == '.' && p[1] == '.' && (p[2] == '/' || p[2] == '\0'))
			break;
	if (name[0] == '/' || name[0] == '\0' || *p != '\0') {
		report(l, true, "not scanned: %s", name[0] == '/' ?
		    "an absolute member name" : name[0] == '\0' ?
		    "an empty member name" : "a member name with \"..\"");
		return -1;
	}
	return 0;
}

/* The library's image of an ELF member, named as the container says. */
static int
on_image(void *arg, const char *member, const struct chstk_info *info,
    const struct chstk_error *err)
{
	struct level *l = arg;

	(void)member;
	return l->s->out->image(l->s->out->arg, l->name, info, err);
}

/* A symbol of the member being read, passed on. */
static int
on_symbol(void *arg, const struct chstk_sym *sym)
{
	struct level *l = arg;

	return l->s->out->opts->symbol(l->s->out->arg, sym);
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
	struct level *in = calloc(1, sizeof(*in));
	int r;

	if (in == NULL || (in->a = new_reader()) == NULL ||
	    strlen(l->name) + 2 > sizeof(in->name)) {
		report(l, true, "cannot read archive: %s", in == NULL ||
		    in->a == NULL ? "out of memory" : "name too long");
		if (in != NULL)
			archive_read_free(in->a);
		free(in);
		return 0;
	}
	in->s = l->s;
	in->deb = kind == CONTAINER_DEB;
	in->ar = kind == CONTAINER_AR;
	in->depth = l->deb ? l->depth : l->depth + 1;
	in->plen = l->deb ? l->plen : strlen(l->name);
	memcpy(in->name, l->name, in->plen);
	if (!l->deb)
		in->name[in->plen++] = '!';
	in->name[in->plen] = '\0';
	in->from = e;
	in->head = head;
	in->head_len = n;
	r = archive_read_open(in->a, in, NULL, nest_read, NULL);
	if (r == ARCHIVE_OK)
		read_level(in);
	else if (e->failed == 0 && !(kind == CONTAINER_COMPRESSED &&
	    archive_errno(in->a) == NOT_AN_ARCHIVE &&
	    !archive_name(l->name + l->plen)))
		failed(l, in->a, true, in->ar);
	archive_read_free(in->a);
	free(in);
	return e->failed == 0 ? 0 : -1;
}

/* What to do with a member, by its first bytes. Returns -1 when the
   stream failed, else 0. */
static int
dispatch(struct level *l, struct entry *e, const unsigned char *head,
    size_t n, bool ended)
{
	struct stream st = { entry_read, e, e->size };
	struct chstk_scan_opts o = *l->s->out->opts;
	enum container kind = container_kind(head, n);
	char msg[256];
	int r;

	if (o.symbol != NULL)
		o.symbol = on_symbol;
	if (l->deb)
		return open_nested(l, e, head, n, kind);
	/* ELF first: an ELF file may hold "ustar" where a tar has it. */
	if (n >= 4 && memcmp(head, "\177ELF", 4) == 0) {
		r = member_scan(&st, head, n, ended, &o, on_image, l, msg,
		    sizeof(msg));
		if (r == -2)
			report(l, true, "%s", msg);
		return r == -1 ? -1 : 0;
	}
	if (l->ar)
		return 0;
	/* An .a holds only objects: read at any depth. */
	if (kind == CONTAINER_NONE && n >= 8 &&
	    memcmp(head, "!<arch>\n", 8) == 0)
		return open_nested(l, e, head, n, CONTAINER_AR);
	if (kind != CONTAINER_NONE && l->depth == 0)
		return open_nested(l, e, head, n, kind);
	return 0;
}

/* The symbol index and name table of an .a, which are not members. */
static bool
ar_index(const struct level *l, struct archive_entry *ae)
{
	const char *name = archive_entry_pathname(ae);

	return l->ar && name != NULL && (name[0] == '/' ||
	    strncmp(name, "__.SYMDEF", 9) == 0);
}

/* Would skipping the rest of a member cost decompressing it? Then it is
   read here instead, where it is counted. A zip member of known size is
   skipped by its compressed size. */
static bool
costly_skip(const struct level *l, const struct entry *e)
{
	return e->size == UINT64_MAX || archive_filter_count(l->a) > 1;
}

/* One entry of an archive: 0 to go on to the next, -1 to stop. */
static int
entry(struct level *l, struct archive_entry *ae)
{
	struct entry e = { .l = l, .size = UINT64_MAX };
	mode_t type = archive_entry_filetype(ae);
	unsigned char head[HEAD];
	size_t n = 0;
	ssize_t k = 1;
	bool scan;

	if (++l->s->entries > MEMBERS_MAX) {
		report(l, false, "stopped: more than %d members",
		    MEMBERS_MAX);
		l->s->stop = true;
		return -1;
	}
	if (archive_entry_size_is_set(ae) && archive_entry_size(ae) >= 0)
		e.size = (uint64_t)archive_entry_size(ae);
	/* ar members have no type: 0 */
	scan = (type == AE_IFREG || type == 0) && !ar_index(l, ae) &&
	    set_name(l, ae) == 0;
	/* Of a .deb, only the data.tar. */
	if (scan && l->deb && (scan = strncmp(l->name + l->plen, "data.tar",
	    8) == 0))
		l->data = true;
	if (scan) {
		while (n < HEAD && (k = entry_read(&e, head + n, HEAD - n)) > 0)
			n += (size_t)k;
		if (k >= 0)
			k = dispatch(l, &e, head, n, k == 0);
	}
	if (k >= 0 && !l->s->stop && costly_skip(l, &e))
		while ((k = entry_read(&e, l->drain, sizeof(l->drain))) > 0)
			;
	if (e.failed == 0)
		return 0;
	if (!l->s->stop)
		failed(l, l->a, true, l->ar);
	return e.failed == ARCHIVE_FAILED && !l->s->stop ? 0 : -1;
}

static void
read_level(struct level *l)
{
	struct archive_entry *ae;
	int r = ARCHIVE_OK;

	while (!l->s->stop && ((r = archive_read_next_header(l->a, &ae)) ==
	    ARCHIVE_OK || r == ARCHIVE_WARN))
		if (entry(l, ae) < 0)
			return;
	/* A failure of the outer stream is the outer level's to report. */
	if (!l->s->stop && r != ARCHIVE_EOF && (l->from == NULL ||
	    l->from->failed == 0))
		failed(l, l->a, false, l->ar);
	else if (r == ARCHIVE_EOF && l->deb && !l->data)
		report(l, false, "cannot read package: no data.tar member");
}

/*
 * Scan the container open on fd, of the kind its first bytes say, named
 * path: out->image for each ELF image of its members, out->error for each
 * member or container that could not be read.
 */
void
container_scan(int fd, const char *path, enum container kind,
    const struct container_out *out)
{
	struct scan s = { .out = out, .budget = EXPAND_MIN };
	struct level *l = calloc(1, sizeof(*l));
	/* Names are converted to this thread's locale; UTF-8 keeps them. */
	locale_t utf8 = newlocale(LC_CTYPE_MASK, "C.UTF-8", (locale_t)0);
	locale_t was = utf8 != (locale_t)0 ? uselocale(utf8) : (locale_t)0;
	struct stat st;

	if (fstat(fd, &st) == 0 && (uint64_t)st.st_size > s.budget /
	    EXPAND_RATIO)
		s.budget = (uint64_t)st.st_size * EXPAND_RATIO;
	if (l == NULL || (l->a = new_reader()) == NULL) {
		out->error(out->arg, NULL, "cannot read archive: out of memory");
	} else {
		l->s = &s;
		l->deb = kind == CONTAINER_DEB;
		if (archive_read_open_fd(l->a, fd, 65536) == ARCHIVE_OK)
			read_level(l);
		else if (!(kind == CONTAINER_COMPRESSED &&
		    archive_errno(l->a) == NOT_AN_ARCHIVE &&
		    !archive_name(path)))
			report(l, false, "cannot read archive: %s", why(l->a));
		archive_read_free(l->a);
	}
	free(l);
	if (utf8 != (locale_t)0) {
		uselocale(was);
		freelocale(utf8);
	}
}
