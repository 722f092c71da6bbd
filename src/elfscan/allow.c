/*
 * allow.c - path patterns: the one matcher of --allow, --allow-pattern
 * and --require's globs, for a file on disk and for the same file inside a
 * package, tarball or image. The package hooks (packaging/) pass their
 * globs to elfscan rather than match them themselves.
 *
 * A pattern matches an image by any of its names (names_of):
 *   - its path as elfscan prints it, FILE[!IMAGE][!MEMBER];
 *   - the same with the directory named on the command line that it was
 *     found under taken off (struct where's root): its installed path, so
 *     that a pattern for /usr/lib/foo/x.so matches
 *     debian/foo/usr/lib/foo/x.so when debian/foo is scanned, and
 *     /srv/chroot/usr/lib/foo/x.so when /srv/chroot is;
 *   - FILE alone, installed or not: a container allows what it holds;
 *   - each part of MEMBER between two "!": a package's file (usr/lib/x.so,
 *     an rpm's ./usr/lib/x.so), an image's (/usr/lib/x.so), an object of
 *     an archive.
 * A "/" or "./" at the start or after a "!" is dropped from patterns and
 * names alike: an installed path matches with or without its leading
 * slash, in every kind of container.
 *
 * The syntax is fnmatch's with FNM_PATHNAME, and "**": "*" matches any
 * string without "/"; "**" any string, "/" included, and "**" followed by
 * a "/" may also match nothing, that "/" included (a, "**" and b joined
 * by slashes match a/b);
 * "?" one character but "/"; "[...]" one of a set or range, "!" or "^"
 * first negating it, never "/"; "\" quotes the next character. A pattern
 * matches the whole name. Matching is one pass over the name for each
 * piece of the pattern, never a backtracking search.
 *
 * The allowlist records which patterns allowed something, so that those
 * that allowed nothing can be reported (report.c), as lintian reports
 * unused overrides.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "verdict.h"
#include "xalloc.h"

/* Just past the set that starts at p (a "["), or NULL when p starts
   none: then the "[" is itself. */
static const char *
set_end(const char *p)
{
	p++;
	if (*p == '!' || *p == '^')
		p++;
	if (*p == ']')
		p++;
	for (; *p != ']'; p++) {
		if (*p == '\0')
			return NULL;
		if (*p == '\\' && p[1] != '\0')
			p++;
	}
	return p + 1;
}

/* Copy s to out, which may be s: each "/" or "./" at the start or after
   a "!" dropped; in a pattern, not inside a set or after a "\". */
static void
normalize(char *out, const char *s, bool pattern)
{
	const char *end;
	bool start = true;

	while (*s != '\0') {
		if (start && (s[0] == '/' || (s[0] == '.' && s[1] == '/'))) {
			s += s[0] == '/' ? 1 : 2;
			continue;
		}
		start = false;
		if (pattern && *s == '[' && (end = set_end(s)) != NULL) {
			while (s < end)
				*out++ = *s++;
			continue;
		}
		if (pattern && *s == '\\' && s[1] != '\0')
			*out++ = *s++;
		else if (*s == '!')
			start = true;
		*out++ = *s++;
	}
	*out = '\0';
}

/* Does the set at p (a "[", set_end says where it ends) hold c? */
static bool
in_set(const char *p, unsigned char c)
{
	bool neg, in = false, first = true;
	unsigned char lo, hi;

	p++;
	neg = *p == '!' || *p == '^';
	for (p += neg; first || *p != ']'; first = false) {
		if (*p == '\\')
			p++;
		lo = hi = (unsigned char)*p++;
		if (p[0] == '-' && p[1] != ']') {
			if (*++p == '\\')
				p++;
			hi = (unsigned char)*p++;
		}
		in = in || (lo <= c && c <= hi);
	}
	return c != '/' && in != neg;
}

/* Does the one-character piece at p match c? */
static bool
one(const char *p, unsigned char c)
{
	if (*p == '?')
		return c != '/';
	if (*p == '[' && set_end(p) != NULL)
		return in_set(p, c);
	if (*p == '\\' && p[1] != '\0')
		p++;
	return (unsigned char)*p == c;
}

/* Just past the one-character piece at p. */
static const char *
one_end(const char *p)
{
	const char *end;

	if (*p == '[' && (end = set_end(p)) != NULL)
		return end;
	return p + (*p == '\\' && p[1] != '\0' ? 2 : 1);
}

/* Does the normalized pattern p match the normalized name s, of n bytes?
   can and next: n + 1 bytes each, for whether the pieces so far can
   match s[0, i). */
static bool
match(const char *p, const char *s, size_t n, unsigned char *can,
    unsigned char *next)
{
	unsigned char *t;
	const char *end;
	bool any;
	size_t i;

	memset(can, 0, n + 1);
	can[0] = 1;
	for (; *p != '\0'; t = can, can = next, next = t) {
		if (p[0] == '*' && p[1] == '*') {
			for (end = p; *end == '*'; end++)
				;
			/* any: some s[0, k) with k < i matched so far */
			for (i = 0, any = false; i <= n; i++) {
				next[i] = can[i] || (any && (*end != '/' ||
				    s[i - 1] == '/'));
				any = any || can[i];
			}
			p = end + (*end == '/');
		} else if (*p == '*') {
			next[0] = can[0];
			for (i = 1; i <= n; i++)
				next[i] = can[i] || (next[i - 1] &&
				    s[i - 1] != '/');
			p++;
		} else {
			next[0] = 0;
			for (i = 0; i < n; i++)
				next[i + 1] = can[i] &&
				    one(p, (unsigned char)s[i]);
			p = one_end(p);
		}
	}
	return can[n];
}

bool
glob_match(const char *pattern, const char *name)
{
	size_t m = strlen(pattern), n = strlen(name);
	char *p = xmalloc(m + 1 + n + 1), *s = p + m + 1;
	unsigned char *can = xmalloc(2 * (n + 1));
	bool r;

	normalize(p, pattern, true);
	normalize(s, name, false);
	r = match(p, s, strlen(s), can, can + n + 1);
	free(can);
	free(p);
	return r;
}

/* The names of an image, normalized, each followed by its NUL. */
struct names {
	char *v;
	size_t len, cap, longest;
};

/* Add the name file[0, len)[!image][!member]. */
static void
add_name(struct names *nm, const char *file, size_t len, const char *image,
    const char *member)
{
	size_t need = len + 1 + (image ? strlen(image) + 1 : 0) +
	    (member ? strlen(member) + 1 : 0);
	char *at;

	if (nm->len + need > nm->cap) {
		nm->cap = 2 * (nm->len + need);
		nm->v = xrealloc(nm->v, nm->cap);
	}
	at = nm->v + nm->len;
	snprintf(at, need, "%.*s%s%s%s%s", (int)len, file, image ? "!" : "",
	    image ? image : "", member ? "!" : "", member ? member : "");
	normalize(at, at, false);
	len = strlen(at);
	nm->len += len + 1;
	if (len > nm->longest)
		nm->longest = len;
}

/* Every name of the image at w (see the top of the file). */
static void
names_of(const struct where *w, struct names *nm)
{
	const char *installed = w->path + w->root, *p, *bang;
	size_t len = strlen(w->path);

	memset(nm, 0, sizeof(*nm));
	add_name(nm, w->path, len, w->image, w->member);
	if (w->root > 0)
		add_name(nm, installed, len - w->root, w->image, w->member);
	if (w->image == NULL && w->member == NULL)
		return;
	add_name(nm, w->path, len, NULL, NULL);
	if (w->root > 0)
		add_name(nm, installed, len - w->root, NULL, NULL);
	for (p = w->member; p != NULL; p = bang != NULL ? bang + 1 : NULL) {
		bang = strchr(p, '!');
		add_name(nm, p, bang != NULL ? (size_t)(bang - p) : strlen(p),
		    NULL, NULL);
	}
}

/* Does the normalized pattern match one of the names? */
static bool
match_names(const char *pat, const struct names *nm, unsigned char *can)
{
	const char *s;
	size_t n;

	for (s = nm->v; s < nm->v + nm->len; s += n + 1) {
		n = strlen(s);
		if (match(pat, s, n, can, can + n + 1))
			return true;
	}
	return false;
}

bool
where_match(const char *pattern, const struct where *w)
{
	char *p = xstrdup(pattern);
	struct names nm;
	unsigned char *can;
	bool r;

	normalize(p, p, true);
	names_of(w, &nm);
	can = xmalloc(2 * (nm.longest + 1));
	r = match_names(p, &nm, can);
	free(can);
	free(nm.v);
	free(p);
	return r;
}

const struct allow_pattern *
allow_which(const struct allow *a, const struct where *w)
{
	const struct allow_pattern *first = NULL;
	struct names nm;
	unsigned char *can;
	size_t i;

	if (a->n == 0)
		return NULL;
	names_of(w, &nm);
	can = xmalloc(2 * (nm.longest + 1));
	for (i = 0; i < a->n; i++) {
		if (!match_names(a->v[i].glob, &nm, can))
			continue;
		if (first == NULL)
			first = &a->v[i];
		atomic_store_explicit(&a->v[i].used, true,
		    memory_order_relaxed);
	}
	free(can);
	free(nm.v);
	return first;
}

void
allow_add(struct allow *a, const char *pattern, const char *file,
    unsigned line)
{
	struct allow_pattern *p;

	a->v = xrealloc(a->v, (a->n + 1) * sizeof(*a->v));
	p = &a->v[a->n++];
	memset(p, 0, sizeof(*p));
	p->text = xstrdup(pattern);
	p->glob = xstrdup(pattern);
	normalize(p->glob, p->glob, true);
	p->file = file != NULL ? xstrdup(file) : NULL;
	p->line = line;
	atomic_init(&p->used, false);
}

int
allow_load(struct allow *a, const char *file)
{
	FILE *f = fopen(file, "r");
	char *line = NULL, *p;
	size_t cap = 0;
	unsigned lineno = 0;
	ssize_t len;
	int r = 0, saved;

	if (f == NULL)
		return -1;
	while ((len = getline(&line, &cap, f)) > 0) {
		lineno++;
		while (len > 0 && (line[len - 1] == '\n' ||
		    line[len - 1] == ' ' || line[len - 1] == '\t'))
			line[--len] = '\0';
		for (p = line; *p == ' ' || *p == '\t'; p++)
			;
		if (*p != '\0' && *p != '#')
			allow_add(a, p, file, lineno);
	}
	if (ferror(f))
		r = -1;
	saved = errno;
	free(line);
	fclose(f);
	errno = saved;
	return r;
}

void
allow_free(struct allow *a)
{
	size_t i;

	for (i = 0; i < a->n; i++) {
		free(a->v[i].text);
		free(a->v[i].glob);
		free(a->v[i].file);
	}
	free(a->v);
	a->v = NULL;
	a->n = 0;
}
