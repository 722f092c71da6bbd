/*
 * report.c - the last stage: elfscan's output. One writer per format
 * (struct writer below): aligned text for people, JSON Lines for machines,
 * SARIF for code scanning (its document kept by sarif.c), NUL-separated
 * paths for chstk --files-from; a new format is one more writer. Each
 * record is built in a buffer and written with one call under the lock, so
 * that the workers' records never interleave, and the progress line is
 * erased first.
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

/* Erase the progress line before anything is printed. */
static void
clear_line(struct report *r)
{
	pthread_mutex_lock(&r->err_lock);
	if (r->line)
		fputs("\r\033[K", stderr);
	r->line = false;
	pthread_mutex_unlock(&r->err_lock);
}

/* Write b to stderr, after what went to stdout. */
static void
to_stderr(struct report *r, struct buf *b)
{
	pthread_mutex_lock(&r->lock);
	fflush(stdout);
	pthread_mutex_lock(&r->err_lock);
	if (r->line)
		fputs("\r\033[K", stderr);
	r->line = false;
	fwrite(b->p, 1, b->len, stderr);
	pthread_mutex_unlock(&r->err_lock);
	pthread_mutex_unlock(&r->lock);
	if (b->heap)
		free(b->p);
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

static const char *
relro_word(enum relro r)
{
	static const char *const w[] = {
		[RELRO_NA] = "-", [RELRO_NONE] = "none",
		[RELRO_PARTIAL] = "partial", [RELRO_FULL] = "full",
	};

	return w[r];
}

static const char *
pie_word(enum pie p)
{
	static const char *const w[] = {
		[PIE_NA] = "-", [PIE_NO] = "no", [PIE_YES] = "yes",
		[PIE_STATIC] = "static",
	};

	return w[p];
}

static const char *
tri_word(enum tri t)
{
	static const char *const w[] = {
		[T_NA] = "-", [T_UNKNOWN] = "?", [T_NO] = "no", [T_YES] = "yes",
	};

	return w[t];
}

static const char *
tri_json(enum tri t)
{
	return t == T_YES ? "true" : t == T_NO ? "false" : "null";
}

/* IBT+SHSTK, BTI+PAC: the protections the property note asks for. */
static void
cfi_text(struct buf *b, const struct hard *h)
{
	size_t start = b->len;

	if (h->ibt == T_NA && h->bti == T_NA) {
		buf_add(b, "-", 1);
	} else if (h->ibt != T_NA) {
		if (h->ibt == T_YES)
			buf_add(b, "ibt", 3);
		if (h->shstk == T_YES)
			buf_addf(b, "%sshstk", h->ibt == T_YES ? "+" : "");
	} else {
		if (h->bti == T_YES)
			buf_add(b, "bti", 3);
		if (h->pac == T_YES)
			buf_addf(b, "%spac", h->bti == T_YES ? "+" : "");
	}
	if (b->len == start)
		buf_add(b, "no", 2);
	while (b->len - start < 9)
		buf_add(b, " ", 1);
	buf_add(b, " ", 1);
}

static void
hard_text(struct buf *b, const struct hard *h)
{
	char fort[16];

	if (!h->known) {
		buf_addf(b, "%-7s %-6s %-6s %-7s %-6s %-9s %-4s ", "-", "-", "-",
		    "-", "-", "-", "-");
		return;
	}
	if (h->fortify == T_UNKNOWN || h->fortify == T_NA)
		snprintf(fort, sizeof(fort), "%s", tri_word(h->fortify));
	else
		snprintf(fort, sizeof(fort), "%u/%u", h->nfortified,
		    h->nfortified + h->nunfortified);
	buf_addf(b, "%-7s %-6s %-6s %-7s %-6s ", relro_word(h->relro),
	    pie_word(h->pie), tri_word(h->canary), fort,
	    h->paths == T_NA ? "-" : h->paths == T_YES ? "ok" :
	    h->paths == T_NO ? "unsafe" : "?");
	cfi_text(b, h);
	buf_addf(b, "%-4s ", tri_word(h->symbols));
}

static void
json_names(struct buf *b, const char *key, const unsigned char *idx,
    unsigned n, bool known)
{
	unsigned i;

	buf_addf(b, ",\"%s\":", key);
	if (!known) {
		buf_add(b, "null", 4);
		return;
	}
	buf_add(b, "[", 1);
	for (i = 0; i < n; i++)
		buf_addf(b, "%s\"%s\"", i ? "," : "", fortify_name(idx[i]));
	buf_add(b, "]", 1);
}

static void
json_string_or_null(struct buf *b, const char *key, bool has, const char *s)
{
	buf_addf(b, ",\"%s\":", key);
	if (has)
		buf_json(b, s);
	else
		buf_add(b, "null", 4);
}

/* The --hardening members, after "findings" and "allowed". */
static void
hard_json(struct buf *b, const struct chstk_info *info, const struct hard *h)
{
	const struct chstk_hardening *hd = info->hardening;
	bool fk = h->fortify != T_UNKNOWN;

	if (!h->known)
		return;
	buf_addf(b, ",\"relro\":%s%s%s,\"bind_now\":%s,\"pie\":%s%s%s,"
	    "\"canary\":%s,\"fortify\":%s", h->relro == RELRO_NA ? "" : "\"",
	    h->relro == RELRO_NA ? "null" : relro_word(h->relro),
	    h->relro == RELRO_NA ? "" : "\"", tri_json(h->bind_now),
	    h->pie == PIE_NA ? "" : "\"",
	    h->pie == PIE_NA ? "null" : pie_word(h->pie),
	    h->pie == PIE_NA ? "" : "\"", tri_json(h->canary),
	    tri_json(h->fortify));
	json_names(b, "fortified", h->fortified, h->nfortified, fk);
	json_names(b, "unfortified", h->unfortified, h->nunfortified, fk);
	json_string_or_null(b, "rpath", hd->has_rpath, hd->rpath);
	json_string_or_null(b, "runpath", hd->has_runpath, hd->runpath);
	json_string_or_null(b, "unsafe_paths", h->paths != T_NA, h->unsafe);
	buf_addf(b, ",\"ibt\":%s,\"shstk\":%s,\"bti\":%s,\"pac\":%s,"
	    "\"symbols\":%s", tri_json(h->ibt), tri_json(h->shstk),
	    tri_json(h->bti), tri_json(h->pac), tri_json(h->symbols));
}

/* The counters a summary gives, in its order. */
enum { S_FILES, S_DIRS, S_IMAGES, S_EXEC, S_NOEXEC, S_ABSENT, S_EFF_EXEC,
    S_FINDINGS, S_ALLOWED, S_ERRORS, S_COUNT };
/* And with --hardening: programs PIE, linked images by RELRO, images by
   canary and fortification, unsafe search paths, control flow. */
enum { H_PROGRAMS, H_PIE, H_LINKED, H_RELRO_FULL, H_RELRO_PARTIAL,
    H_RELRO_NONE, H_CANARY, H_NO_CANARY, H_CANARY_UNKNOWN, H_FORTIFIED,
    H_UNFORTIFIED, H_FORTIFY_UNKNOWN, H_UNSAFE_PATHS, H_X86, H_IBT_SHSTK,
    H_ARM, H_BTI_PAC, H_STRIPPED, H_COUNT };

/*
 * A format: each hook fills b with one record, which report.c writes to
 * the standard output; a NULL hook writes nothing. Without an error hook,
 * what could not be read is a message on the standard error.
 */
struct writer {
	void (*header)(struct buf *b, bool hardening);
	/* h: NULL without --hardening */
	void (*image)(struct buf *b, const struct where *w,
	    const struct chstk_info *info, const struct verdict *v,
	    const struct hard *h);
	void (*error)(struct buf *b, const struct where *w, bool malformed,
	    const char *msg);
	void (*finding_path)(struct buf *b, const char *path);
	/* hv: H_COUNT counters with --hardening, else NULL */
	void (*summary)(struct buf *b, const unsigned long *v,
	    const unsigned long *hv, double seconds);
	bool summary_on_stderr;	/* standard output is for the records */
	/* A format whose document is kept elsewhere (SARIF: sarif.c) writes
	   its records itself, under the output lock, instead of image and
	   error. */
	void (*log_image)(struct report *r, const struct where *w,
	    const struct chstk_info *info, const struct verdict *v,
	    const struct hard *h);
	void (*log_error)(struct report *r, const struct where *w,
	    bool malformed, const char *msg);
};

static void
text_header(struct buf *b, bool hardening)
{
	buf_addf(b, "%-7s %-7s %-6s %-2s %-9s %-5s ", "STACK", "EFFECT",
	    "TYPE", "BI", "MACHINE", "ARMOR");
	if (hardening)
		buf_addf(b, "%-7s %-6s %-6s %-7s %-6s %-9s %-4s ", "RELRO",
		    "PIE", "CANARY", "FORTIFY", "RPATH", "CFI", "SYMS");
	buf_addf(b, "%-30s %s\n", "FINDINGS", "FILE");
}

static void
text_image(struct buf *b, const struct where *w,
    const struct chstk_info *info, const struct verdict *v,
    const struct hard *h)
{
	const char *armor = armor_word(info);
	char mbuf[16];
	size_t start;

	buf_addf(b, "%-7s %-7s %-6s %-2d %-9s %-5s ", stack_word(info->state),
	    effective_name(v->effective), type_name(info),
	    info->elf_class == ELFCLASS64 ? 64 : 32,
	    machine_name(info->machine, mbuf, sizeof(mbuf)),
	    armor ? armor : "-");
	if (h != NULL)
		hard_text(b, h);
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

static void
text_summary(struct buf *b, const unsigned long *v, const unsigned long *hv,
    double seconds)
{
	buf_addf(b, "%lu files in %lu directories, %lu ELF images: %lu exec, %lu noexec, %lu absent; %lu with an executable stack, %lu with findings, %lu allowed, %lu errors; %.2f s\n",
	    v[S_FILES], v[S_DIRS], v[S_IMAGES], v[S_EXEC], v[S_NOEXEC],
	    v[S_ABSENT], v[S_EFF_EXEC], v[S_FINDINGS], v[S_ALLOWED],
	    v[S_ERRORS], seconds);
	if (hv == NULL)
		return;
	buf_addf(b, "hardening: %lu of %lu programs PIE; of %lu programs and libraries, %lu full RELRO, %lu partial, %lu none; canary %lu yes, %lu no, %lu unknown; fortified %lu yes, %lu no, %lu unknown; %lu unsafe search paths; %lu of %lu x86 IBT+SHSTK, %lu of %lu aarch64 BTI+PAC; %lu stripped\n",
	    hv[H_PIE], hv[H_PROGRAMS], hv[H_LINKED], hv[H_RELRO_FULL],
	    hv[H_RELRO_PARTIAL], hv[H_RELRO_NONE], hv[H_CANARY],
	    hv[H_NO_CANARY], hv[H_CANARY_UNKNOWN], hv[H_FORTIFIED],
	    hv[H_UNFORTIFIED], hv[H_FORTIFY_UNKNOWN], hv[H_UNSAFE_PATHS],
	    hv[H_IBT_SHSTK], hv[H_X86], hv[H_BTI_PAC], hv[H_ARM],
	    hv[H_STRIPPED]);
}

static void
json_image(struct buf *b, const struct where *w,
    const struct chstk_info *info, const struct verdict *v,
    const struct hard *h)
{
	const char *armor = armor_word(info);
	char mbuf[16];

	buf_add(b, "{", 1);
	json_where(b, w);
	buf_addf(b, ",\"type\":\"%s\",\"class\":%d,\"endian\":\"%s\",\"machine\":\"%s\",\"stack\":\"%s\",\"effective\":\"%s\",\"why\":\"%s\",\"wx\":%u,",
	    type_name(info), info->elf_class == ELFCLASS64 ? 64 : 32,
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
	buf_addf(b, "],\"allowed\":%s", v->allowed ? "true" : "false");
	if (h != NULL)
		hard_json(b, info, h);
	buf_add(b, "}\n", 2);
}

static void
json_error(struct buf *b, const struct where *w, bool malformed,
    const char *msg)
{
	buf_add(b, "{", 1);
	json_where(b, w);
	buf_add(b, ",\"error\":", 9);
	buf_json(b, msg);
	buf_addf(b, ",\"findings\":[%s]}\n", malformed ? "\"malformed\"" : "");
}

static void
json_summary(struct buf *b, const unsigned long *v, const unsigned long *hv,
    double seconds)
{
	buf_addf(b, "{\"summary\":{\"files\":%lu,\"directories\":%lu,\"images\":%lu,\"exec\":%lu,\"noexec\":%lu,\"absent\":%lu,\"effective_exec\":%lu,\"with_findings\":%lu,\"allowed\":%lu,\"errors\":%lu,",
	    v[S_FILES], v[S_DIRS], v[S_IMAGES], v[S_EXEC], v[S_NOEXEC],
	    v[S_ABSENT], v[S_EFF_EXEC], v[S_FINDINGS], v[S_ALLOWED],
	    v[S_ERRORS]);
	if (hv != NULL)
		buf_addf(b, "\"hardening\":{\"programs\":%lu,\"pie\":%lu,\"linked\":%lu,\"relro_full\":%lu,\"relro_partial\":%lu,\"relro_none\":%lu,\"canary\":%lu,\"no_canary\":%lu,\"canary_unknown\":%lu,\"fortified\":%lu,\"unfortified\":%lu,\"fortify_unknown\":%lu,\"unsafe_paths\":%lu,\"x86\":%lu,\"ibt_shstk\":%lu,\"aarch64\":%lu,\"bti_pac\":%lu,\"stripped\":%lu},",
		    hv[H_PROGRAMS], hv[H_PIE], hv[H_LINKED], hv[H_RELRO_FULL],
		    hv[H_RELRO_PARTIAL], hv[H_RELRO_NONE], hv[H_CANARY],
		    hv[H_NO_CANARY], hv[H_CANARY_UNKNOWN], hv[H_FORTIFIED],
		    hv[H_UNFORTIFIED], hv[H_FORTIFY_UNKNOWN],
		    hv[H_UNSAFE_PATHS], hv[H_X86], hv[H_IBT_SHSTK], hv[H_ARM],
		    hv[H_BTI_PAC], hv[H_STRIPPED]);
	buf_addf(b, "\"seconds\":%.3f}}\n", seconds);
}

/* -0: the path of a file with findings, once. */
static void
print0_path(struct buf *b, const char *path)
{
	buf_add(b, path, strlen(path) + 1);
}

/* Where SARIF says a finding is: offsets only where they are the file's,
   in a file read directly or a member lying in it as it is. */
static struct sarif_where
sarif_where_of(const struct where *w)
{
	struct sarif_where sw = { .path = w->file != NULL ? w->file : w->path,
	    .member = w->member, .image = w->image, .layer = w->layer,
	    .has_region = !w->streamed };

	return sw;
}

/* One SARIF result per finding; findings an --allow pattern waived are
   suppressed results, the pattern their justification. */
static void
sarif_image(struct report *r, const struct where *where,
    const struct chstk_info *info, const struct verdict *v,
    const struct hard *h)
{
	struct sarif_where w = sarif_where_of(where);
	char just[512], wx[64], lack[600], *full = NULL;
	const char *pat, *why;
	struct verdict raw;
	unsigned i, waived = 0;

	if (v->findings == 0 && !v->allowed)
		return;
	if (v->allowed) {
		verdict_of(info, false, &raw);
		waived = raw.findings & ~v->findings;
		if ((pat = allow_which(&r->o->allow, where->path)) == NULL &&
		    w.member != NULL) {
			if (asprintf(&full, "%s!%s", where->path, w.member) < 0)
				oom();
			pat = allow_which(&r->o->allow, full);
		}
		snprintf(just, sizeof(just), "allowed by the pattern '%s' of the --allow list",
		    pat != NULL ? pat : "?");
		free(full);
	}
	snprintf(wx, sizeof(wx), "%u writable and executable segment%s",
	    info->wx, info->wx == 1 ? "" : "s");
	for (i = 0; i < F_COUNT; i++) {
		if (!((v->findings | waived) & 1u << i))
			continue;
		why = 1u << i == F_WX_SEGMENT ? wx : v->allowed ? raw.why :
		    v->why;
		w.offset = 1u << i == F_WX_SEGMENT ? info->wx_offset :
		    info->mark_offset;
		w.length = 1u << i == F_WX_SEGMENT ? info->wx_size :
		    info->mark_size;
		/* What --require found missing is no byte range's. */
		if (1u << i & F_HARDENING) {
			why = hard_why(1u << i, h, lack, sizeof(lack));
			w.has_region = false;
		}
		sarif_result(r->sarif, i, &w, why, waived & 1u << i ? just :
		    NULL);
		w.has_region = !where->streamed;
	}
}

/* What could not be read: a malformed image is a finding, anything else
   a notification of the run. */
static void
sarif_error(struct report *r, const struct where *where, bool malformed,
    const char *msg)
{
	struct sarif_where w = sarif_where_of(where);

	w.has_region = false;
	if (malformed)
		sarif_result(r->sarif, (unsigned)__builtin_ctz(F_MALFORMED),
		    &w, msg, NULL);
	else
		sarif_notification(r->sarif, &w, msg);
}

static const struct writer text_writer = {
	.header = text_header, .image = text_image, .summary = text_summary,
};
static const struct writer json_writer = {
	.image = json_image, .error = json_error, .summary = json_summary,
};
static const struct writer sarif_writer = {
	.log_image = sarif_image, .log_error = sarif_error,
	.summary = text_summary, .summary_on_stderr = true,
};
static const struct writer print0_writer = {
	.finding_path = print0_path, .summary = text_summary,
	.summary_on_stderr = true,
};

static const struct writer *
writer(const struct report *r)
{
	if (r->o->print0)
		return &print0_writer;
	if (r->sarif != NULL)
		return &sarif_writer;
	return r->o->format == FORMAT_JSON ? &json_writer : &text_writer;
}

void
report_header(struct report *r)
{
	char space[256];
	struct buf b;

	if (writer(r)->header == NULL || r->o->quiet)
		return;
	BUF_INIT(b, space);
	writer(r)->header(&b, r->o->hardening);
	emit(r, &b);
}

void
report_image(struct report *r, const struct where *w,
    const struct chstk_info *info, const struct verdict *v,
    const struct hard *h)
{
	char space[1024];
	struct buf b;

	if (writer(r)->log_image != NULL) {
		pthread_mutex_lock(&r->lock);
		clear_line(r);
		writer(r)->log_image(r, w, info, v, h);
		pthread_mutex_unlock(&r->lock);
		return;
	}
	if (writer(r)->image == NULL || (r->o->quiet && v->findings == 0))
		return;
	BUF_INIT(b, space);
	writer(r)->image(&b, w, info, v, r->o->hardening ? h : NULL);
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
	if (writer(r)->log_error != NULL) {
		pthread_mutex_lock(&r->lock);
		clear_line(r);
		writer(r)->log_error(r, w, malformed, msg);
		pthread_mutex_unlock(&r->lock);
		return;
	}
	BUF_INIT(b, space);
	if (writer(r)->error != NULL) {
		writer(r)->error(&b, w, malformed, msg);
		emit(r, &b);
		return;
	}
	buf_add(&b, "elfscan: ", 9);
	text_where(&b, w);
	buf_addf(&b, ": %s%s\n", malformed ? "malformed ELF: " : "", msg);
	to_stderr(r, &b);
}

void
report_path0(struct report *r, const char *path)
{
	char space[1024];
	struct buf b;

	if (writer(r)->finding_path == NULL)
		return;
	BUF_INIT(b, space);
	writer(r)->finding_path(&b, path);
	emit(r, &b);
}

void
report_summary(struct report *r, double seconds)
{
	struct stats *s = r->st;
	unsigned long v[S_COUNT] = {
		[S_FILES] = atomic_load(&s->files),
		[S_DIRS] = atomic_load(&s->dirs),
		[S_IMAGES] = atomic_load(&s->images),
		[S_EXEC] = atomic_load(&s->state[CHSTK_EXEC]),
		[S_NOEXEC] = atomic_load(&s->state[CHSTK_NOEXEC]),
		[S_ABSENT] = atomic_load(&s->state[CHSTK_DEFAULT]),
		[S_EFF_EXEC] = atomic_load(&s->exec),
		[S_FINDINGS] = atomic_load(&s->with_findings),
		[S_ALLOWED] = atomic_load(&s->allowed),
		[S_ERRORS] = atomic_load(&s->errors),
	};
	unsigned long hv[H_COUNT] = {
		[H_PROGRAMS] = atomic_load(&s->programs),
		[H_PIE] = atomic_load(&s->pie),
		[H_LINKED] = atomic_load(&s->linked),
		[H_RELRO_FULL] = atomic_load(&s->relro[RELRO_FULL]),
		[H_RELRO_PARTIAL] = atomic_load(&s->relro[RELRO_PARTIAL]),
		[H_RELRO_NONE] = atomic_load(&s->relro[RELRO_NONE]),
		[H_CANARY] = atomic_load(&s->canary[T_YES]),
		[H_NO_CANARY] = atomic_load(&s->canary[T_NO]),
		[H_CANARY_UNKNOWN] = atomic_load(&s->canary[T_UNKNOWN]),
		[H_FORTIFIED] = atomic_load(&s->fortify[T_YES]),
		[H_UNFORTIFIED] = atomic_load(&s->fortify[T_NO]),
		[H_FORTIFY_UNKNOWN] = atomic_load(&s->fortify[T_UNKNOWN]),
		[H_UNSAFE_PATHS] = atomic_load(&s->unsafe_paths),
		[H_X86] = atomic_load(&s->x86),
		[H_IBT_SHSTK] = atomic_load(&s->cfi_x86),
		[H_ARM] = atomic_load(&s->arm),
		[H_BTI_PAC] = atomic_load(&s->cfi_arm),
		[H_STRIPPED] = atomic_load(&s->stripped),
	};
	char space[1024];
	struct buf b;

	BUF_INIT(b, space);
	writer(r)->summary(&b, v, r->o->hardening ? hv : NULL, seconds);
	if (writer(r)->summary_on_stderr)
		to_stderr(r, &b);
	else
		emit(r, &b);
}
