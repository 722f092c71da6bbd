/*
 * diff.c - what got worse between two builds (--diff OLD NEW; see
 * diff.h): packages, images, trees, or two versions of one file. The judge
 * hands over each image of each side, judged as it is for the report;
 * kept are its defences, each as a rank (higher is better); then the
 * images are paired by their path inside their side (a directory's
 * relative path, a package's or image's member; two single files pair
 * with each other), and every defence whose rank fell is a regression,
 * every one that rose an improvement. A file whose name changed with its
 * version (libfoo.so.1.2 becoming libfoo.so.1.3) pairs by its name with
 * the digits taken out, when that name is one file's on each side. A new
 * image with an executable stack or a writable and executable segment is
 * a regression too: nothing had it before.
 */
#include <stdlib.h>
#include <string.h>

#include "diff.h"
#include "report.h"
#include "xalloc.h"

/* Ranks: worst first. NA: the image cannot have the defence. */
#define NA 255

/*
 * The defences compared, in the order they are said: each rank's word,
 * and what losing and gaining it is called. The same defences --require
 * judges (hardening.c) and the stack's (verdict.c).
 */
static const struct defence_words {
	const char *key;
	const char *words[4];
	const char *worse, *better;
} props[] = {
	[P_STACK] = { "stack", { "exec", "unknown", "noexec" },
	    "the stack became executable", "the stack is no longer executable" },
	[P_WX] = { "wx", { "yes", "no" },
	    "a writable and executable segment appeared",
	    "no writable and executable segment left" },
	[P_RELRO] = { "relro", { "none", "partial", "full" },
	    "lost RELRO", "gained RELRO" },
	[P_PIE] = { "pie", { "no", "yes" }, "lost PIE", "gained PIE" },
	[P_CANARY] = { "canary", { "no", "yes" },
	    "lost the stack protector", "gained the stack protector" },
	[P_FORTIFY] = { "fortify", { "no", "yes" }, "lost FORTIFY_SOURCE",
	    "gained FORTIFY_SOURCE" },
	[P_RPATH] = { "rpath", { "unsafe", "set", "none" },
	    "a search path (RPATH or RUNPATH) appeared or became unsafe",
	    "a search path was dropped or made safe" },
	[P_IBT] = { "ibt", { "no", "yes" }, "lost x86 IBT", "gained x86 IBT" },
	[P_SHSTK] = { "shstk", { "no", "yes" }, "lost x86 SHSTK",
	    "gained x86 SHSTK" },
	[P_BTI] = { "bti", { "no", "yes" }, "lost AArch64 BTI",
	    "gained AArch64 BTI" },
	[P_PAC] = { "pac", { "no", "yes" }, "lost AArch64 PAC",
	    "gained AArch64 PAC" },
	[P_PARSES] = { "parses", { "no", "yes" }, "the file no longer parses",
	    "the file parses again" },
};
_Static_assert(sizeof(props) / sizeof(props[0]) == P_COUNT,
    "one row a defence");

/* One image of one side. */
struct drec {
	char *key;		/* its path inside its side */
	char *path, *member;	/* as the walk named it */
	unsigned char rank[P_COUNT];
	bool paired;
	struct drec *next;
};

void
diff_init(struct diff *d)
{
	memset(d, 0, sizeof(*d));
	pthread_mutex_init(&d->lock, NULL);
}

static unsigned char
tri_rank(enum tri t)
{
	return t == T_YES ? 1 : t == T_NO ? 0 : NA;
}

/* The ranks of an image's defences, from its verdicts. */
static void
ranks(const struct chstk_info *info, const struct verdict *v,
    const struct hard *h, unsigned char *r)
{
	memset(r, NA, P_COUNT);
	r[P_PARSES] = 1;
	/* An image --allow allows an executable stack: not compared. */
	r[P_STACK] = v->allowed ? NA : v->effective == EFF_EXEC ? 0 :
	    v->effective == EFF_UNKNOWN ? 1 : v->effective == EFF_NOEXEC ?
	    2 : NA;
	r[P_WX] = info->wx > 0 ? 0 : 1;
	if (!h->known)
		return;
	if (h->relro != RELRO_NA)
		r[P_RELRO] = h->relro == RELRO_FULL ? 2 :
		    h->relro == RELRO_PARTIAL ? 1 : 0;
	if (h->pie != PIE_NA)
		r[P_PIE] = h->pie == PIE_NO ? 0 : 1;
	r[P_CANARY] = tri_rank(h->canary);
	r[P_FORTIFY] = tri_rank(h->fortify);
	r[P_RPATH] = h->paths == T_NA ? 2 : h->paths == T_NO ? 0 :
	    h->paths == T_YES ? 1 : NA;
	r[P_IBT] = tri_rank(h->ibt);
	r[P_SHSTK] = tri_rank(h->shstk);
	r[P_BTI] = tri_rank(h->bti);
	r[P_PAC] = tri_rank(h->pac);
}

/* The path of w inside its side: what follows the side's root when the
   root is a directory, then the image and the member (without "./" or
   "/"), joined by "!". */
static char *
key_of(const struct diff *d, int side, const struct where *w)
{
	const char *part[3] = { "", w->image, w->member };
	size_t len = strlen(d->root[side]), i;
	char *key = xstrdup(""), *k;

	if (d->dir[side] && strncmp(w->path, d->root[side], len) == 0)
		for (part[0] = w->path + len; *part[0] == '/'; part[0]++)
			;
	while (part[2] != NULL && (strncmp(part[2], "./", 2) == 0 ||
	    *part[2] == '/'))
		part[2] += *part[2] == '/' ? 1 : 2;
	for (i = 0; i < 3; i++) {
		if (part[i] == NULL || *part[i] == '\0')
			continue;
		if (asprintf(&k, "%s%s%s", key, *key != '\0' ? "!" : "",
		    part[i]) < 0)
			oom();
		free(key);
		key = k;
	}
	return key;
}

static void
add(struct diff *d, int side, const struct where *w, const unsigned char *r)
{
	struct drec *rec = xcalloc(1, sizeof(*rec));

	rec->key = key_of(d, side, w);
	rec->path = xstrdup(w->path);
	rec->member = w->member != NULL ? xstrdup(w->member) : NULL;
	memcpy(rec->rank, r, P_COUNT);
	pthread_mutex_lock(&d->lock);
	rec->next = d->side[side];
	d->side[side] = rec;
	d->n[side]++;
	pthread_mutex_unlock(&d->lock);
}

void
diff_image(struct diff *d, int side, const struct where *w,
    const struct chstk_info *info, const struct verdict *v,
    const struct hard *h)
{
	unsigned char r[P_COUNT];

	ranks(info, v, h, r);
	add(d, side, w, r);
}

void
diff_malformed(struct diff *d, int side, const struct where *w)
{
	unsigned char r[P_COUNT];

	memset(r, NA, P_COUNT);
	r[P_PARSES] = 0;
	add(d, side, w, r);
}

static int
diff_by_key(const void *a, const void *b)
{
	return strcmp((*(struct drec *const *)a)->key,
	    (*(struct drec *const *)b)->key);
}

/* The side's images in an array sorted by key. */
static struct drec **
sorted(struct diff *d, int side)
{
	struct drec **v = xcalloc(d->n[side] + 1, sizeof(*v)), *r;
	size_t i = 0;

	for (r = d->side[side]; r != NULL; r = r->next)
		v[i++] = r;
	if (d->n[side] > 1)
		qsort(v, d->n[side], sizeof(*v), diff_by_key);
	return v;
}

/* The key with its runs of digits as "#": a name across versions. */
static char *
loose(const char *key)
{
	char *k = xmalloc(strlen(key) + 1), *o = k;

	for (; *key != '\0'; key++) {
		if (*key >= '0' && *key <= '9') {
			while (key[1] >= '0' && key[1] <= '9')
				key++;
			*o++ = '#';
		} else {
			*o++ = *key;
		}
	}
	*o = '\0';
	return k;
}

/* Compare one pair, defence by defence, and say what changed. */
static void
compare(struct diff *d, const struct drec *o, const struct drec *n)
{
	struct diff_change c = { .old = o != NULL ? o->path : NULL,
	    .new = n != NULL ? n->path : NULL,
	    .old_member = o != NULL ? o->member : NULL,
	    .new_member = n != NULL ? n->member : NULL };
	unsigned p;

	for (p = 0; p < P_COUNT; p++) {
		unsigned char was = o != NULL ? o->rank[p] : NA;
		unsigned char now = n != NULL ? n->rank[p] : NA;

		/* A new image is judged by what it has: only a stack that
		   is executable or memory writable and executable, which
		   nothing had before, count against it. */
		if (o == NULL && (p == P_STACK || p == P_WX) && now == 0)
			was = p == P_STACK ? 2 : 1;
		if (was == NA || now == NA || was == now)
			continue;
		c.prop = p;
		c.key = props[p].key;
		c.was = props[p].words[was];
		c.now = props[p].words[now];
		c.worse = now < was;
		c.why = c.worse ? props[p].worse : props[p].better;
		c.path = n != NULL ? n->key : o->key;
		/* Two files compared: no path inside, the file's name. */
		if (*c.path == '\0')
			c.path = n != NULL ? n->path : o->path;
		report_change(d->r, &c);
		stat_add(d->r->st, c.worse ? C_REGRESSIONS : C_IMPROVEMENTS);
		if (c.worse)
			stat_add(d->r->st, C_KIND +
			    (unsigned)__builtin_ctzll(F_REGRESSION));
	}
}

/* An unpaired image by its loose key, and where it is in its side. */
struct loose {
	char *key;
	size_t at;
};

static int
by_loose(const void *a, const void *b)
{
	const struct loose *x = a, *y = b;
	int c = strcmp(x->key, y->key);

	return c != 0 ? c : (x->at > y->at) - (x->at < y->at);
}

/* The unpaired of side v (n images), each loose key made once, sorted;
   their count in *count. */
static struct loose *
unpaired(struct drec **v, size_t n, size_t *count)
{
	struct loose *l = xcalloc(n + 1, sizeof(*l));
	size_t i;

	*count = 0;
	for (i = 0; i < n; i++)
		if (!v[i]->paired) {
			l[*count].key = loose(v[i]->key);
			l[(*count)++].at = i;
		}
	if (*count > 1)
		qsort(l, *count, sizeof(*l), by_loose);
	return l;
}

/* How many of l, from i on, share l[i]'s loose key. */
static size_t
run(const struct loose *l, size_t n, size_t i)
{
	size_t k = i + 1;

	while (k < n && strcmp(l[k].key, l[i].key) == 0)
		k++;
	return k - i;
}

/* Pair the unpaired of both sides by their loose keys, where each is
   one image's on its side: both sides sorted by loose key, merged once.
   The pairs are compared in OLD's order, as the exact ones are. */
static void
pair_loosely(struct diff *d, struct drec **o, struct drec **n)
{
	size_t no, nn, i = 0, k = 0, ro, rn;
	struct loose *lo = unpaired(o, d->n[0], &no);
	struct loose *ln = unpaired(n, d->n[1], &nn);
	size_t *mate = xcalloc(d->n[0] + 1, sizeof(*mate));
	int c;

	while (i < no && k < nn) {
		c = strcmp(lo[i].key, ln[k].key);
		ro = c <= 0 ? run(lo, no, i) : 0;
		rn = c >= 0 ? run(ln, nn, k) : 0;
		if (c == 0 && ro == 1 && rn == 1)
			mate[lo[i].at] = ln[k].at + 1;
		i += ro;
		k += rn;
	}
	for (i = 0; i < d->n[0]; i++)
		if (mate[i] != 0) {
			o[i]->paired = n[mate[i] - 1]->paired = true;
			compare(d, o[i], n[mate[i] - 1]);
		}
	for (i = 0; i < no; i++)
		free(lo[i].key);
	for (k = 0; k < nn; k++)
		free(ln[k].key);
	free(lo);
	free(ln);
	free(mate);
}

void
diff_report(struct diff *d)
{
	struct drec **o = sorted(d, 0), **n = sorted(d, 1);
	size_t i = 0, k = 0;
	int c;

	while (i < d->n[0] && k < d->n[1]) {
		c = strcmp(o[i]->key, n[k]->key);
		if (c == 0) {
			o[i]->paired = n[k]->paired = true;
			compare(d, o[i++], n[k++]);
		} else if (c < 0) {
			i++;
		} else {
			k++;
		}
	}
	pair_loosely(d, o, n);
	for (k = 0; k < d->n[1]; k++)
		if (!n[k]->paired) {
			stat_add(d->r->st, C_ADDED);
			compare(d, NULL, n[k]);
		}
	for (i = 0; i < d->n[0]; i++)
		if (!o[i]->paired)
			stat_add(d->r->st, C_REMOVED);
	free(o);
	free(n);
}

void
diff_free(struct diff *d)
{
	struct drec *r, *next;
	int side;

	for (side = 0; side < 2; side++)
		for (r = d->side[side]; r != NULL; r = next) {
			next = r->next;
			free(r->key);
			free(r->path);
			free(r->member);
			free(r);
		}
	pthread_mutex_destroy(&d->lock);
}
