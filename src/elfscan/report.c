/*
 * report.c - elfscan's output: aligned text for people, JSON Lines for
 * machines, SARIF for code scanning (sarif.c), NUL-separated paths for
 * chstk --files-from. Each record is
 * built in a buffer and written with one call under the lock, so that the
 * workers' records never interleave.
 */
#include <elf.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "elfscan.h"
#include "sarif.h"

/* A growing output buffer; starts on the caller's stack. */
struct buf {
	char *p;
	size_t len, cap;
	bool heap;
};

static void
buf_grow(struct buf *b, size_t more)
{
	size_t cap = b->cap;
	char *np;

	while (cap - b->len <= more)
		cap *= 2;
	if (cap == b->cap)
		return;
	np = b->heap ? xrealloc(b->p, cap) : xmalloc(cap);
	if (!b->heap)
		memcpy(np, b->p, b->len);
	b->p = np;
	b->cap = cap;
	b->heap = true;
}

static void
buf_add(struct buf *b, const char *s, size_t n)
{
	buf_grow(b, n);
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
}

static void __attribute__((format(printf, 2, 3)))
buf_addf(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(b->p + b->len, b->cap - b->len, fmt, ap);
	va_end(ap);
	if (n >= 0 && (size_t)n >= b->cap - b->len) {
		buf_grow(b, (size_t)n);
		va_start(ap, fmt);
		vsnprintf(b->p + b->len, b->cap - b->len, fmt, ap);
		va_end(ap);
	}
	if (n > 0)
		b->len += (size_t)n;
}

/* Length of the valid UTF-8 sequence at s, or 0. */
static size_t
utf8_len(const unsigned char *s)
{
	size_t n, i;

	if (s[0] < 0x80)
		return 1;
	n = s[0] >= 0xf0 && s[0] < 0xf5 ? 4 : s[0] >= 0xe0 ? 3 :
	    s[0] >= 0xc2 && s[0] < 0xe0 ? 2 : 0;
	for (i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	return n;
}

/* A JSON string. Bytes that are not UTF-8 become \u00XX (as Latin-1). */
static void
buf_json(struct buf *b, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t n;

	buf_add(b, "\"", 1);
	while (*s != '\0') {
		if (*s == '"' || *s == '\\') {
			buf_addf(b, "\\%c", *s++);
		} else if (*s < 0x20 || *s == 0x7f) {
			buf_addf(b, "\\u%04x", *s++);
		} else if ((n = utf8_len(s)) > 0) {
			buf_add(b, (const char *)s, n);
			s += n;
		} else {
			buf_addf(b, "\\u%04x", *s++);
		}
	}
	buf_add(b, "\"", 1);
}

/* A name for people: control characters escaped as \n, \t or \ooo. */
static void
buf_text(struct buf *b, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;

	for (; *s != '\0'; s++) {
		if (*s == '\n')
			buf_add(b, "\\n", 2);
		else if (*s == '\t')
			buf_add(b, "\\t", 2);
		else if (*s < 0x20 || *s == 0x7f || *s == '\\')
			buf_addf(b, "\\%03o", *s);
		else
			buf_add(b, (const char *)s, 1);
	}
}

/* Erase the progress line, under the lock, before anything is printed. */
static void
clear_line(struct report *r)
{
	if (!r->line)
		return;
	fputs("\r\033[K", stderr);
	r->line = false;
}

static void
emit(struct report *r, struct buf *b)
{
	pthread_mutex_lock(&r->lock);
	clear_line(r);
	fwrite(b->p, 1, b->len, stdout);
	pthread_mutex_unlock(&r->lock);
	if (b->heap)
		free(b->p);
}

#define BUF_INIT(b, space) \
	do { (b).p = (space); (b).cap = sizeof(space); (b).len = 0; \
	    (b).heap = false; (space)[0] = '\0'; } while (0)

void
report_header(struct report *r)
{
	if (r->o->format == FORMAT_TEXT && !r->o->quiet && !r->o->print0)
		printf("%-7s %-7s %-6s %-2s %-9s %-5s %-30s %s\n", "STACK",
		    "EFFECT", "TYPE", "BI", "MACHINE", "ARMOR", "FINDINGS",
		    "FILE");
}

static const char *
stack_word(enum chstk_state s)
{
	return s == CHSTK_EXEC ? "exec" : s == CHSTK_NOEXEC ? "noexec" :
	    "absent";
}

/* "in" when all code of a fixed-address 32-bit x86 program is below
   16 MiB, the ASCII armor of i386 kernels; NULL where it means nothing. */
static const char *
armor_word(const struct chstk_info *info)
{
	if ((info->machine != EM_386 && info->machine != 6 /* EM_486 */) ||
	    info->elf_class != ELFCLASS32 || info->type != ET_EXEC ||
	    !info->has_exec_code)
		return NULL;
	return info->exec_limit < 0x1000000 ? "in" : "out";
}

static void
findings_list(struct buf *b, unsigned f, bool json)
{
	unsigned i;
	bool first = true;

	for (i = 0; i < F_COUNT; i++) {
		if (!(f & (1u << i)))
			continue;
		if (json)
			buf_addf(b, "%s\"%s\"", first ? "" : ",",
			    finding_name(i));
		else
			buf_addf(b, "%s%s", first ? "" : ",", finding_name(i));
		first = false;
	}
	if (first && !json)
		buf_add(b, "-", 1);
}

/* The file and what in it, as JSON members. */
static void
json_where(struct buf *b, const struct where *w)
{
	buf_add(b, "\"path\":", 7);
	buf_json(b, w->path);
	if (w->image != NULL) {
		buf_add(b, ",\"image\":", 9);
		buf_json(b, w->image);
	}
	if (w->member != NULL) {
		buf_add(b, ",\"member\":", 10);
		buf_json(b, w->member);
	}
	if (w->layer != NULL) {
		buf_add(b, ",\"layer\":", 9);
		buf_json(b, w->layer);
	}
}

/* The file and what in it, for people: FILE[!IMAGE][!MEMBER]. */
static void
text_where(struct buf *b, const struct where *w)
{
	buf_text(b, w->path);
	if (w->image != NULL) {
		buf_add(b, "!", 1);
		buf_text(b, w->image);
	}
	if (w->member != NULL) {
		buf_add(b, "!", 1);
		buf_text(b, w->member);
	}
}

static void
json_image(struct buf *b, const struct where *w,
    const struct chstk_info *info, const struct verdict *v)
{
	const char *armor = armor_word(info);
	char mbuf[16];

	buf_add(b, "{", 1);
	json_where(b, w);
	buf_addf(b, ",\"type\":\"%s\",\"class\":%d,\"endian\":\"%s\","
	    "\"machine\":\"%s\",\"stack\":\"%s\",\"effective\":\"%s\","
	    "\"why\":\"%s\",\"wx\":%u,", type_name(info),
	    info->elf_class == ELFCLASS64 ? 64 : 32,
	    info->data == ELFDATA2MSB ? "big" : "little",
	    machine_name(info->machine, mbuf, sizeof(mbuf)),
	    stack_word(info->state), effective_name(v->effective), v->why,
	    info->wx);
	if (info->has_exec_code)
		buf_addf(b, "\"exec_limit\":\"%#jx\",",
		    (uintmax_t)info->exec_limit);
	else
		buf_add(b, "\"exec_limit\":null,", 18);
	buf_addf(b, "\"armor\":%s,\"findings\":[", armor == NULL ? "null" :
	    strcmp(armor, "in") == 0 ? "true" : "false");
	findings_list(b, v->findings, true);
	buf_addf(b, "],\"allowed\":%s}\n", v->allowed ? "true" : "false");
}

static void
text_image(struct buf *b, const struct where *w,
    const struct chstk_info *info, const struct verdict *v)
{
	const char *armor = armor_word(info);
	char mbuf[16];
	size_t start;

	buf_addf(b, "%-7s %-7s %-6s %-2d %-9s %-5s ", stack_word(info->state),
	    effective_name(v->effective), type_name(info),
	    info->elf_class == ELFCLASS64 ? 64 : 32,
	    machine_name(info->machine, mbuf, sizeof(mbuf)),
	    armor ? armor : "-");
	start = b->len;
	findings_list(b, v->findings, false);
	if (v->allowed)
		buf_add(b, "(allowed)", 9);
	while (b->len - start < 30)
		buf_add(b, " ", 1);
	buf_add(b, " ", 1);
	text_where(b, w);
	buf_add(b, "\n", 1);
}

/* One SARIF result per finding; findings an --allow pattern waived are
   suppressed results, the pattern their justification. */
static void
sarif_image(struct report *r, const struct where *where,
    const struct chstk_info *info, const struct verdict *v)
{
	struct sarif_where w = { .path = where->file != NULL ? where->file :
	    where->path, .member = where->member, .image = where->image,
	    .layer = where->layer, .has_region = !where->streamed };
	char just[512], wx[64], *full = NULL;
	const char *pat, *why;
	struct verdict raw;
	unsigned i, waived = 0;

	if (v->allowed) {
		verdict_of(info, false, &raw);
		waived = raw.findings & ~v->findings;
		if ((pat = allow_which(&r->o->allow, where->path)) == NULL &&
		    w.member != NULL) {
			if (asprintf(&full, "%s!%s", where->path, w.member) < 0)
				oom();
			pat = allow_which(&r->o->allow, full);
		}
		snprintf(just, sizeof(just), "allowed by the pattern '%s' of "
		    "the --allow list", pat != NULL ? pat : "?");
		free(full);
	}
	snprintf(wx, sizeof(wx), "%u writable and executable segment%s",
	    info->wx, info->wx == 1 ? "" : "s");
	pthread_mutex_lock(&r->lock);
	for (i = 0; i < F_COUNT; i++) {
		if (!((v->findings | waived) & 1u << i))
			continue;
		why = 1u << i == F_WX_SEGMENT ? wx : v->allowed ? raw.why :
		    v->why;
		w.offset = 1u << i == F_WX_SEGMENT ? info->wx_offset :
		    info->mark_offset;
		w.length = 1u << i == F_WX_SEGMENT ? info->wx_size :
		    info->mark_size;
		sarif_result(r->sarif, i, &w, why, waived & 1u << i ? just :
		    NULL);
	}
	pthread_mutex_unlock(&r->lock);
}

void
report_image(struct report *r, const struct where *w,
    const struct chstk_info *info, const struct verdict *v)
{
	char space[1024];
	struct buf b;

	if (r->sarif != NULL && !r->o->print0) {
		if (v->findings != 0 || v->allowed)
			sarif_image(r, w, info, v);
		return;
	}
	if (r->o->print0 || (r->o->quiet && v->findings == 0))
		return;
	BUF_INIT(b, space);
	if (r->o->format == FORMAT_JSON)
		json_image(&b, w, info, v);
	else
		text_image(&b, w, info, v);
	emit(r, &b);
}

void
report_error(struct report *r, const struct where *w, bool malformed,
    const char *msg)
{
	char space[1024];
	struct buf b;

	if (!malformed)
		atomic_fetch_add(&r->st->errors, 1);
	if (r->sarif != NULL && !r->o->print0) {
		struct sarif_where sw = { .path = w->file != NULL ? w->file :
		    w->path, .member = w->member, .image = w->image,
		    .layer = w->layer };

		pthread_mutex_lock(&r->lock);
		clear_line(r);
		if (malformed)
			sarif_result(r->sarif,
			    (unsigned)__builtin_ctz(F_MALFORMED), &sw, msg,
			    NULL);
		else
			sarif_notification(r->sarif, &sw, msg);
		pthread_mutex_unlock(&r->lock);
		return;
	}
	BUF_INIT(b, space);
	if (r->o->format == FORMAT_JSON && !r->o->print0) {
		buf_add(&b, "{", 1);
		json_where(&b, w);
		buf_add(&b, ",\"error\":", 9);
		buf_json(&b, msg);
		buf_addf(&b, ",\"findings\":[%s]}\n",
		    malformed ? "\"malformed\"" : "");
		emit(r, &b);
		return;
	}
	buf_add(&b, "elfscan: ", 9);
	text_where(&b, w);
	buf_addf(&b, ": %s%s\n", malformed ? "malformed ELF: " : "", msg);
	pthread_mutex_lock(&r->lock);
	clear_line(r);
	fflush(stdout);
	fwrite(b.p, 1, b.len, stderr);
	pthread_mutex_unlock(&r->lock);
	if (b.heap)
		free(b.p);
}

/* -0: the path of a file with findings, once. */
void
report_path0(struct report *r, const char *path)
{
	pthread_mutex_lock(&r->lock);
	clear_line(r);
	fputs(path, stdout);
	putc('\0', stdout);
	pthread_mutex_unlock(&r->lock);
}

void
report_summary(struct report *r, double seconds)
{
	struct stats *s = r->st;
	unsigned long v[] = {
		atomic_load(&s->files), atomic_load(&s->dirs),
		atomic_load(&s->images), atomic_load(&s->state[CHSTK_EXEC]),
		atomic_load(&s->state[CHSTK_NOEXEC]),
		atomic_load(&s->state[CHSTK_DEFAULT]), atomic_load(&s->exec),
		atomic_load(&s->with_findings), atomic_load(&s->allowed),
		atomic_load(&s->errors),
	};

	if (r->o->format == FORMAT_JSON)
		printf("{\"summary\":{\"files\":%lu,\"directories\":%lu,"
		    "\"images\":%lu,\"exec\":%lu,\"noexec\":%lu,\"absent\":%lu,"
		    "\"effective_exec\":%lu,\"with_findings\":%lu,"
		    "\"allowed\":%lu,\"errors\":%lu,\"seconds\":%.3f}}\n",
		    v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9],
		    seconds);
	else
		fprintf(r->o->print0 || r->sarif != NULL ? stderr : stdout,
		    "%lu files in %lu directories, %lu ELF images: %lu exec, "
		    "%lu noexec, %lu absent; %lu with an executable stack, "
		    "%lu with findings, %lu allowed, %lu errors; %.2f s\n",
		    v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9],
		    seconds);
}
