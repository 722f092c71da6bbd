/*
 * sarif.c - SARIF 2.1.0 output (see sarif.h for the contract).
 *
 * Each kind of finding is a rule, with the texts and the security-severity
 * code scanning sorts by (findings.c). A result names its file by a URI
 * relative to the root it was found under, with that root's uriBaseId
 * (SCANROOT, or SCANROOT1... for several roots) defined once in
 * originalUriBaseIds; in an image, the file is the image's file, or its
 * layout's index.json, which holds its tags, and the message names the
 * image's path and tags as the user named them; the member, and in an
 * image its names and the layer, go in the location's logical location
 * and properties. The partial fingerprint hashes the rule, the relative
 * URI (of a layout, its directory's), the member and the image's names,
 * not the root's absolute path or anything of the run, so the same
 * finding keeps it across runs and machines. Each piece of the log is
 * built in a buffer (buf.h) and written at once.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "chstk.h"
#include "container.h"
#include "sarif.h"
#include "verdict.h"
#include "xalloc.h"

/* The manual, where every finding, rule and option is explained. */
#define INFORMATION_URI "man:elfscan(1)"
#define FINGERPRINT "elfscanFinding/v1"

/* A scanned root: how paths under it become relative URIs. */
struct root {
	char *path;		/* as given (of an image reference, its
				   path), trailing slashes dropped */
	size_t len;
	bool dir;		/* false: a file, named relative to its
				   directory */
	char id[32];		/* its uriBaseId */
};

struct sarif {
	FILE *out, *notes;
	unsigned long results, notifications;
	size_t n;
	struct root root[];
};

/* A path as a URI path: RFC 3986 unreserved characters and "/" as they
   are, every other byte %-encoded (":" too, so that a relative reference
   never reads as a scheme). */
static void
uri_path(struct buf *b, const char *path)
{
	const unsigned char *s = (const unsigned char *)path;

	for (; *s != '\0'; s++)
		if ((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		    (*s >= '0' && *s <= '9') || strchr("-._~/", *s) != NULL)
			buf_add(b, (const char *)s, 1);
		else
			buf_addf(b, "%%%02X", *s);
}

/* FNV-1a over a string and its terminator, from h. */
static uint64_t
fnv(uint64_t h, const char *s)
{
	do {
		h ^= (unsigned char)*s;
		h *= 0x100000001b3ULL;
	} while (*s++ != '\0');
	return h;
}

/* Write what b holds to f, and empty it. */
static void
flush(struct buf *b, FILE *f)
{
	fwrite(b->p, 1, b->len, f);
	b->len = 0;
	b->p[0] = '\0';
}

static void
write_rules(struct buf *b)
{
	unsigned i;

	for (i = 0; i < F_COUNT; i++) {
		const struct finding_kind *k = finding_kind(i);

		buf_addf(b, "%s{\"id\":", i ? "," : "");
		buf_json(b, k->id);
		buf_addf(b, ",\"name\":\"%s\",\"shortDescription\":{\"text\":",
		    k->name);
		buf_json(b, k->brief);
		buf_puts(b, "},\"fullDescription\":{\"text\":");
		buf_json(b, k->full);
		buf_puts(b, "},\"help\":{\"text\":");
		buf_json(b, k->help);
		buf_addf(b, "},\"defaultConfiguration\":{\"level\":\"%s\"},"
		    "\"properties\":{\"security-severity\":\"%s\","
		    "\"tags\":[\"security\"]}}", k->level, k->severity);
	}
}

/* The base URI of a root: its directory, or a file's directory; of one
   that is not there (a package a store holds), its path as named, made
   absolute. */
static void
write_base(struct buf *b, const struct root *r)
{
	char *real = realpath(r->len > 0 ? r->path : ".", NULL), *slash;
	char *cwd;

	if (real == NULL && r->len > 0 && r->path[0] == '/')
		real = xstrdup(r->path);
	else if (real == NULL && r->len > 0 &&
	    (cwd = getcwd(NULL, 0)) != NULL) {
		if (asprintf(&real, "%s/%s", cwd, r->path) < 0)
			oom();
		free(cwd);
	}

	buf_addf(b, "\"%s\":{\"uri\":\"file://", r->id);
	if (real != NULL && !r->dir && (slash = strrchr(real, '/')) != NULL)
		slash[1] = '\0';
	uri_path(b, real != NULL ? real : "/");
	if (real == NULL || real[strlen(real) - 1] != '/')
		buf_add(b, "/", 1);
	buf_puts(b, "\"}");
	free(real);
}

struct sarif *
sarif_begin(FILE *out, char *const *roots, size_t n)
{
	struct sarif *s = calloc(1, sizeof(*s) + n * sizeof(s->root[0]));
	char space[4096];
	struct stat st;
	struct buf b;
	size_t i;

	if (s == NULL || (s->notes = tmpfile()) == NULL) {
		free(s);
		return NULL;
	}
	s->out = out;
	s->n = n;
	for (i = 0; i < n; i++) {
		struct root *r = &s->root[i];
		char *ref = NULL;

		if (!image_ref(roots[i], &r->path, &ref))
			r->path = xstrdup(roots[i]);
		free(ref);
		r->len = strlen(r->path);
		while (r->len > 1 && r->path[r->len - 1] == '/')
			r->len--;
		r->dir = r->len == 0 || (stat(r->path, &st) == 0 &&
		    S_ISDIR(st.st_mode));
		if (n == 1)
			snprintf(r->id, sizeof(r->id), "SCANROOT");
		else
			snprintf(r->id, sizeof(r->id), "SCANROOT%zu", i + 1);
	}
	BUF_INIT(b, space);
	buf_puts(&b, "{\"$schema\":\"https://json.schemastore.org/sarif-2.1.0.json\","
	    "\"version\":\"2.1.0\",\"runs\":[{\"tool\":{\"driver\":{"
	    "\"name\":\"elfscan\",\"fullName\":\"elfscan (chstk)\",");
	buf_addf(&b, "\"version\":\"%s\",\"semanticVersion\":\"%s\","
	    "\"informationUri\":\"%s\",\"rules\":[", chstk_version(),
	    chstk_version(), INFORMATION_URI);
	write_rules(&b);
	buf_puts(&b, "]}},\"originalUriBaseIds\":{");
	for (i = 0; i < n; i++) {
		if (i > 0)
			buf_add(&b, ",", 1);
		write_base(&b, &s->root[i]);
	}
	buf_puts(&b, "},\"results\":[\n");
	flush(&b, out);
	buf_free(&b);
	return s;
}

/* The root a path was found under (the longest that holds it), and the
   path relative to the root's base; NULL when none holds it. */
static const struct root *
root_of(const struct sarif *s, const char *path, const char **rel)
{
	const struct root *best = NULL;
	size_t i;

	for (i = 0; i < s->n; i++) {
		const struct root *r = &s->root[i];
		const char *p = path + r->len;

		if (strncmp(path, r->path, r->len) != 0 || (best != NULL &&
		    best->len >= r->len))
			continue;
		if (r->len == 0) {	/* the current directory */
			if (*path != '/') {
				best = r;
				/* "./a" is "a": find(1) says the first */
				for (*rel = path; (*rel)[0] == '.' &&
				    (*rel)[1] == '/';)
					*rel += strspn(*rel + 1, "/") + 1;
			}
		} else if (!r->dir && *p == '\0') {
			const char *slash = strrchr(path, '/');

			best = r;
			*rel = slash != NULL && slash[1] != '\0' ? slash + 1 :
			    path;
		} else if (r->dir && (*p == '/' || (r->len == 1 &&
		    r->path[0] == '/'))) {
			best = r;
			*rel = *p == '/' ? p + 1 : p;
		}
	}
	return best;
}

/* The file a record is located by: an image's file, or the index.json
   of a layout, which names its images, never a layer's blob. */
static const char *
file_of(const struct where *w)
{
	return w->file != NULL ? w->file : w->path;
}

/* A path relative to the root it was found under; a root's own path, by
   its last component. */
static const char *
rel_of(const struct sarif *s, const char *path)
{
	const char *rel = path, *slash;

	if (root_of(s, path, &rel) == NULL) {
		slash = strrchr(path, '/');
		rel = slash != NULL && slash[1] != '\0' ? slash + 1 : path;
	}
	return rel;
}

/* The location: the file, and the member as a logical location. The
   region's offsets are the file's only where the member was not read out
   of a container. Returns what names the file (an image layout by its
   directory) relative to its root. */
static const char *
write_location(const struct sarif *s, struct buf *b, const struct where *w,
    const struct region *region)
{
	const char *path = file_of(w), *rel = path;
	const struct root *r = root_of(s, path, &rel);
	const char *name = w->file != NULL ? rel_of(s, w->path) : rel;
	struct stat st;

	buf_puts(b, "{\"physicalLocation\":{\"artifactLocation\":{\"uri\":\"");
	if (r == NULL)
		buf_puts(b, "file://");
	uri_path(b, rel);
	buf_add(b, "\"", 1);
	if (r != NULL)
		buf_addf(b, ",\"uriBaseId\":\"%s\"", r->id);
	buf_add(b, "}", 1);
	/* Without the marking's bytes, the whole file. */
	if (region != NULL && !w->streamed)
		buf_addf(b, ",\"region\":{\"byteOffset\":%ju,\"byteLength\":%ju}",
		    (uintmax_t)region->offset, (uintmax_t)region->length);
	else if (w->size > 0)
		buf_addf(b, ",\"region\":{\"byteOffset\":0,\"byteLength\":%llu}",
		    w->size);
	else if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
		buf_addf(b, ",\"region\":{\"byteOffset\":0,\"byteLength\":%jd}",
		    (intmax_t)st.st_size);
	buf_add(b, "}", 1);
	if (w->member != NULL) {
		buf_puts(b, ",\"logicalLocations\":[{\"name\":");
		buf_json(b, w->member);
		buf_puts(b, ",\"fullyQualifiedName\":\"");
		buf_json_chars(b, name);
		if (w->image != NULL) {
			buf_add(b, "!", 1);
			buf_json_chars(b, w->image);
		}
		buf_add(b, "!", 1);
		buf_json_chars(b, w->member);
		buf_puts(b, "\",\"kind\":\"module\"}],\"properties\":{\"member\":");
		buf_json(b, w->member);
		if (w->image != NULL) {
			buf_puts(b, ",\"image\":");
			buf_json(b, w->image);
		}
		if (w->layer != NULL) {
			buf_puts(b, ",\"layer\":");
			buf_json(b, w->layer);
		}
		buf_add(b, "}", 1);
	}
	buf_add(b, "}", 1);
	return name;
}

/* The file as the text output names it, for messages. */
static void
write_name(struct buf *b, const struct where *w)
{
	buf_json_chars(b, w->path);
	if (w->image != NULL) {
		buf_add(b, "!", 1);
		buf_json_chars(b, w->image);
	}
	if (w->member != NULL) {
		buf_add(b, "!", 1);
		buf_json_chars(b, w->member);
	}
}

void
sarif_result(struct sarif *s, unsigned bit, const struct where *w,
    const struct region *region, const char *why, const char *justification)
{
	const struct finding_kind *k = finding_kind(bit);
	char space[2048];
	const char *rel;
	uint64_t h1, h2;
	struct buf b;

	BUF_INIT(b, space);
	buf_addf(&b, "%s{\"ruleId\":\"%s\",\"ruleIndex\":%u,\"level\":\"%s\","
	    "\"message\":{\"text\":\"", s->results++ ? ",\n" : "", k->id, bit,
	    k->level);
	/* The rule's sentence without its period, then why. */
	buf_add(&b, k->brief, strlen(k->brief) - 1);
	buf_puts(&b, ": ");
	buf_json_chars(&b, why);
	if (w->member != NULL) {
		buf_puts(&b, " (in '");
		write_name(&b, w);
		buf_puts(&b, "')");
	}
	buf_puts(&b, ".\"},\"locations\":[");
	rel = write_location(s, &b, w, region);
	h1 = fnv(fnv(0xcbf29ce484222325ULL, k->id), rel);
	h1 = fnv(fnv(h1, w->image ? w->image : ""), w->member ? w->member : "");
	h2 = fnv(fnv(0x84222325cbf29ce4ULL, w->member ? w->member : ""), rel);
	h2 = fnv(fnv(h2, w->image ? w->image : ""), k->id);
	buf_addf(&b, "],\"partialFingerprints\":{\"" FINGERPRINT "\":"
	    "\"%016jx%016jx\"}", (uintmax_t)h1, (uintmax_t)h2);
	if (justification != NULL) {
		buf_puts(&b, ",\"suppressions\":[{\"kind\":\"external\","
		    "\"status\":\"accepted\",\"justification\":");
		buf_json(&b, justification);
		buf_puts(&b, "}]");
	}
	buf_add(&b, "}", 1);
	flush(&b, s->out);
	buf_free(&b);
}

void
sarif_notification(struct sarif *s, const struct where *w, const char *msg)
{
	char space[2048];
	struct buf b;

	BUF_INIT(b, space);
	buf_addf(&b, "%s{\"level\":\"error\",\"message\":{\"text\":\"",
	    s->notifications++ ? ",\n" : "");
	buf_puts(&b, "Cannot scan '");
	write_name(&b, w);
	buf_puts(&b, "': ");
	buf_json_chars(&b, msg);
	buf_puts(&b, ".\"},\"locations\":[");
	write_location(s, &b, w, NULL);
	buf_puts(&b, "]}");
	flush(&b, s->notes);
	buf_free(&b);
}

void
sarif_unused_pattern(struct sarif *s, const char *pattern, const char *file,
    unsigned line)
{
	char space[1024], *real = file != NULL ? realpath(file, NULL) : NULL;
	struct buf b;

	BUF_INIT(b, space);
	buf_addf(&b, "%s{\"level\":\"warning\",\"message\":{\"text\":\"",
	    s->notifications++ ? ",\n" : "");
	buf_puts(&b, "The --allow pattern '");
	buf_json_chars(&b, pattern);
	buf_puts(&b, "' allowed nothing: no image with an executable stack matched it.\"}");
	if (real != NULL) {
		buf_puts(&b, ",\"locations\":[{\"physicalLocation\":{"
		    "\"artifactLocation\":{\"uri\":\"file://");
		uri_path(&b, real);
		buf_addf(&b, "\"},\"region\":{\"startLine\":%u}}}]", line);
	}
	buf_add(&b, "}", 1);
	flush(&b, s->notes);
	buf_free(&b);
	free(real);
}

int
sarif_end(struct sarif *s, bool successful)
{
	char buf[8192];
	size_t n, i;
	int r = 0;

	fprintf(s->out, "\n],\"invocations\":[{\"executionSuccessful\":%s",
	    successful ? "true" : "false");
	if (s->notifications > 0) {
		fputs(",\"toolExecutionNotifications\":[\n", s->out);
		rewind(s->notes);
		while ((n = fread(buf, 1, sizeof(buf), s->notes)) > 0)
			fwrite(buf, 1, n, s->out);
		if (ferror(s->notes))
			r = -1;
		fputs("\n]", s->out);
	}
	fputs("}]}]}\n", s->out);
	fclose(s->notes);
	for (i = 0; i < s->n; i++)
		free(s->root[i].path);
	free(s);
	return r;
}
