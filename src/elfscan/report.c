/*
 * report.c - elfscan's output: aligned text for people, JSON Lines for
 * machines, NUL-separated paths for chstk --files-from. Each record is
 * built in a buffer and written with one call under the lock, so that the
 * workers' records never interleave.
 */
#include <elf.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "elfscan.h"

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
	np = b->heap ? realloc(b->p, cap) : malloc(cap);
	if (np == NULL) {
		fprintf(stderr, "elfscan: out of memory\n");
		exit(2);
	}
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

static void
emit(struct report *r, struct buf *b)
{
	pthread_mutex_lock(&r->lock);
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
	if (r->o->format != FORMAT_TEXT || r->o->quiet || r->o->print0)
		return;
	printf("%-7s %-7s %-6s %-2s %-9s %-5s ", "STACK", "EFFECT", "TYPE",
	    "BI", "MACHINE", "ARMOR");
	if (r->o->hardening)
		printf("%-7s %-6s %-6s %-7s %-6s %-9s %-4s ", "RELRO", "PIE",
		    "CANARY", "FORTIFY", "RPATH", "CFI", "SYMS");
	printf("%-30s %s\n", "FINDINGS", "FILE");
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

static const char *
stack_word(enum chstk_state s)
{
	return s == CHSTK_EXEC ? "exec" : s == CHSTK_NOEXEC ? "noexec" :
	    "absent";
}

/* "in" when all code of a fixed-address program is below 16 MiB. */
static const char *
armor_word(const struct chstk_info *info)
{
	if (info->type != ET_EXEC || !info->has_exec_code)
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

static void
json_image(struct buf *b, const char *path, const char *member,
    const struct chstk_info *info, const struct verdict *v,
    const struct hard *h)
{
	const char *armor = armor_word(info);
	char mbuf[16];

	buf_add(b, "{\"path\":", 8);
	buf_json(b, path);
	if (member != NULL) {
		buf_add(b, ",\"member\":", 10);
		buf_json(b, member);
	}
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
	buf_addf(b, "],\"allowed\":%s", v->allowed ? "true" : "false");
	hard_json(b, info, h);
	buf_add(b, "}\n", 2);
}

static void
text_image(struct buf *b, const char *path, const char *member,
    const struct chstk_info *info, const struct verdict *v,
    const struct hard *h, bool hardening)
{
	const char *armor = armor_word(info);
	char mbuf[16];
	size_t start;

	buf_addf(b, "%-7s %-7s %-6s %-2d %-9s %-5s ", stack_word(info->state),
	    effective_name(v->effective), type_name(info),
	    info->elf_class == ELFCLASS64 ? 64 : 32,
	    machine_name(info->machine, mbuf, sizeof(mbuf)),
	    armor ? armor : "-");
	if (hardening)
		hard_text(b, h);
	start = b->len;
	findings_list(b, v->findings, false);
	if (v->allowed)
		buf_add(b, "(allowed)", 9);
	while (b->len - start < 30)
		buf_add(b, " ", 1);
	buf_add(b, " ", 1);
	buf_text(b, path);
	if (member != NULL) {
		buf_add(b, "!", 1);
		buf_text(b, member);
	}
	buf_add(b, "\n", 1);
}

void
report_image(struct report *r, const char *path, const char *member,
    const struct chstk_info *info, const struct verdict *v,
    const struct hard *h)
{
	char space[1024];
	struct buf b;

	if (r->o->print0 || (r->o->quiet && v->findings == 0))
		return;
	BUF_INIT(b, space);
	if (r->o->format == FORMAT_JSON)
		json_image(&b, path, member, info, v, h);
	else
		text_image(&b, path, member, info, v, h, r->o->hardening);
	emit(r, &b);
}

/*
 * A file or member that could not be read. what is "malformed" for an ELF
 * file that does not parse (a finding), NULL for an error of the scan.
 */
void
report_error(struct report *r, const char *path, const char *member,
    const char *what, const char *msg)
{
	char space[1024];
	struct buf b;

	BUF_INIT(b, space);
	if (r->o->format == FORMAT_JSON && !r->o->print0) {
		buf_add(&b, "{\"path\":", 8);
		buf_json(&b, path);
		if (member != NULL) {
			buf_add(&b, ",\"member\":", 10);
			buf_json(&b, member);
		}
		buf_add(&b, ",\"error\":", 9);
		buf_json(&b, msg);
		buf_addf(&b, ",\"findings\":[%s]}\n",
		    what != NULL ? "\"malformed\"" : "");
		emit(r, &b);
		return;
	}
	buf_add(&b, "elfscan: ", 9);
	buf_text(&b, path);
	if (member != NULL) {
		buf_add(&b, "!", 1);
		buf_text(&b, member);
	}
	buf_addf(&b, ": %s%s\n", what != NULL ? "malformed ELF: " : "", msg);
	pthread_mutex_lock(&r->lock);
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
	fputs(path, stdout);
	putc('\0', stdout);
	pthread_mutex_unlock(&r->lock);
}

/* The --hardening counts: programs PIE, linked images by RELRO, images
   by canary and fortification, unsafe search paths, control flow. */
static void
summary_hardening(struct report *r, FILE *f)
{
	struct stats *s = r->st;
	unsigned long v[] = {
		atomic_load(&s->programs), atomic_load(&s->pie),
		atomic_load(&s->linked), atomic_load(&s->relro[RELRO_FULL]),
		atomic_load(&s->relro[RELRO_PARTIAL]),
		atomic_load(&s->relro[RELRO_NONE]),
		atomic_load(&s->canary[T_YES]), atomic_load(&s->canary[T_NO]),
		atomic_load(&s->canary[T_UNKNOWN]),
		atomic_load(&s->fortify[T_YES]), atomic_load(&s->fortify[T_NO]),
		atomic_load(&s->fortify[T_UNKNOWN]),
		atomic_load(&s->unsafe_paths), atomic_load(&s->x86),
		atomic_load(&s->cfi_x86), atomic_load(&s->arm),
		atomic_load(&s->cfi_arm), atomic_load(&s->stripped),
	};

	if (r->o->format == FORMAT_JSON)
		fprintf(f, "\"hardening\":{\"programs\":%lu,\"pie\":%lu,"
		    "\"linked\":%lu,\"relro_full\":%lu,\"relro_partial\":%lu,"
		    "\"relro_none\":%lu,\"canary\":%lu,\"no_canary\":%lu,"
		    "\"canary_unknown\":%lu,\"fortified\":%lu,"
		    "\"unfortified\":%lu,\"fortify_unknown\":%lu,"
		    "\"unsafe_paths\":%lu,\"x86\":%lu,\"ibt_shstk\":%lu,"
		    "\"aarch64\":%lu,\"bti_pac\":%lu,\"stripped\":%lu},",
		    v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9],
		    v[10], v[11], v[12], v[13], v[14], v[15], v[16], v[17]);
	else
		fprintf(f, "hardening: %lu of %lu programs PIE; of %lu programs "
		    "and libraries, %lu full RELRO, %lu partial, %lu none; "
		    "canary %lu yes, %lu no, %lu unknown; fortified %lu yes, "
		    "%lu no, %lu unknown; %lu unsafe search paths; %lu of %lu "
		    "x86 IBT+SHSTK, %lu of %lu aarch64 BTI+PAC; %lu stripped\n",
		    v[1], v[0], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9],
		    v[10], v[11], v[12], v[14], v[13], v[16], v[15], v[17]);
}

void
report_summary(struct report *r, double seconds)
{
	struct stats *s = r->st;
	FILE *f = r->o->print0 && r->o->format != FORMAT_JSON ? stderr : stdout;
	unsigned long v[] = {
		atomic_load(&s->files), atomic_load(&s->dirs),
		atomic_load(&s->images), atomic_load(&s->state[CHSTK_EXEC]),
		atomic_load(&s->state[CHSTK_NOEXEC]),
		atomic_load(&s->state[CHSTK_DEFAULT]), atomic_load(&s->exec),
		atomic_load(&s->with_findings), atomic_load(&s->allowed),
		atomic_load(&s->errors),
	};

	if (r->o->format == FORMAT_JSON) {
		fprintf(f, "{\"summary\":{\"files\":%lu,\"directories\":%lu,"
		    "\"images\":%lu,\"exec\":%lu,\"noexec\":%lu,\"absent\":%lu,"
		    "\"effective_exec\":%lu,\"with_findings\":%lu,"
		    "\"allowed\":%lu,\"errors\":%lu,",
		    v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9]);
		if (r->o->hardening)
			summary_hardening(r, f);
		fprintf(f, "\"seconds\":%.3f}}\n", seconds);
		return;
	}
	fprintf(f, "%lu files in %lu directories, %lu ELF images: %lu exec, "
	    "%lu noexec, %lu absent; %lu with an executable stack, "
	    "%lu with findings, %lu allowed, %lu errors; %.2f s\n",
	    v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9],
	    seconds);
	if (r->o->hardening)
		summary_hardening(r, f);
}
