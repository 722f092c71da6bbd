/*
 * suite.c - the repositories named, as one suite (suite.h). Each index's
 * packages, in its order, of this shard's share (repo_in_shard: by the
 * package's name); with a store, the index is listed in it, each package
 * the store does not hold is read (fetched first when by URL), its bytes
 * checked as they are (store_done), and the suite is said from the store
 * once the walk is done: the records of each listed package as they were
 * made, counted as the judge counts them; or judged whole (--system,
 * suite-verdicts.c), or compared with another (--diff). Without a store
 * each package is checked against its index first (repo_check), then read
 * and said as any file named.
 */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diff.h"
#include "repo.h"
#include "report.h"
#include "store.h"
#include "suite.h"
#include "xalloc.h"

/* A repository's index, as listed in the store. */
struct listing {
	char *repo;
	struct store_entry *v;	/* names and digests, owned */
	size_t n;
	uint64_t seq;		/* the index's packages met, of all shards */
};

struct suite {
	const struct opts *o;
	struct store *store;
	struct listing *lists;
	size_t nlists;
	bool any;
	struct pathset *out;
	struct pathset listed;	/* every package's path, in order */
	int failed;
	/* The digests expected this run, sorted after each repository:
	   a package two indices list is read once. */
	char **seen;
	size_t nseen;
};

/* The engines' index variables, and the first index each counts from. */
static const struct {
	const char *var;
	unsigned first;
} engines[] = {
	{ "JOB_COMPLETION_INDEX", 0 },	/* a Kubernetes Indexed Job */
	{ "SLURM_ARRAY_TASK_ID", 0 },	/* a Slurm array, --array=0-(N-1) */
	{ "PARALLEL_SEQ", 1 },		/* GNU parallel's job number */
};

int
suite_shard(const char *arg, unsigned *k, unsigned *n)
{
	const char *slash = strchr(arg, '/'), *v = NULL, *var = NULL;
	unsigned long kk = 0, nn;
	unsigned first = 0;
	char *end;
	size_t i;

	if (slash == NULL || slash[1] == '\0')
		goto bad;
	nn = strtoul(slash + 1, &end, 10);
	if (*end != '\0' || nn < 1 || nn > 1000000 || slash[1] == '-')
		goto bad;
	if ((size_t)(slash - arg) == 4 && strncmp(arg, "auto", 4) == 0) {
		for (i = 0; i < sizeof(engines) / sizeof(engines[0]); i++)
			if ((v = getenv(engines[i].var)) != NULL &&
			    *v != '\0') {
				var = engines[i].var;
				first = engines[i].first;
				break;
			}
		if (var == NULL) {
			warnx("--shard=%s: no JOB_COMPLETION_INDEX, SLURM_ARRAY_TASK_ID or PARALLEL_SEQ says which shard this is",
			    arg);
			return -1;
		}
		kk = strtoul(v, &end, 10);
		if (*end != '\0' || *v == '-' || kk < first ||
		    kk - first >= nn) {
			warnx("--shard=%s: %s=%s is not a shard of %lu",
			    arg, var, v, nn);
			return -1;
		}
		kk -= first;
	} else {
		if (arg[0] < '0' || arg[0] > '9')
			goto bad;
		kk = strtoul(arg, &end, 10);
		if (end != slash || kk >= nn)
			goto bad;
	}
	*k = (unsigned)kk;
	*n = (unsigned)nn;
	return 0;
bad:
	warnx("--shard=%s: not K/N or auto/N, 0 <= K < N", arg);
	return -1;
}

/* What shapes the records a store keeps: its options, in one string:
   --hardening (given, or implied by --code, --require, --profile or
   --diff), --code and --all, then the --require and --profile given and
   the --allow patterns. */
static char *
shape(const struct opts *o)
{
	char *s, *t;
	size_t i;

	if (asprintf(&s, "%s%s%s%s%s", o->hardening ? " --hardening" : "",
	    o->code ? " --code" : "", o->all ? " --all" : "",
	    o->shape != NULL ? " " : "", o->shape != NULL ? o->shape : "") < 0)
		oom();
	memmove(s, s + (*s == ' '), strlen(s + (*s == ' ')) + 1);
	for (i = 0; i < o->allow.n; i++) {
		if (asprintf(&t, "%s%s--allow-pattern=%s", s, *s != '\0' ?
		    " " : "", o->allow.v[i].text) < 0)
			oom();
		free(s);
		s = t;
	}
	return s;
}

struct suite *
suite_open(const struct opts *o)
{
	struct suite *s = xcalloc(1, sizeof(*s));
	char *key;

	s->o = o;
	if (o->store != NULL) {
		key = shape(o);
		s->store = store_open(o->store, key);
		free(key);
		if (s->store == NULL) {
			free(s);
			return NULL;
		}
	}
	return s;
}

bool
suite_any(const struct suite *s)
{
	return s->any;
}

const struct pathset *
suite_paths(const struct suite *s)
{
	return &s->listed;
}

struct store *
suite_store(const struct suite *s)
{
	return s->store;
}

static int
by_string(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool
seen(const struct suite *s, const char *sha256)
{
	return s->nseen > 0 && bsearch(&sha256, s->seen, s->nseen,
	    sizeof(*s->seen), by_string) != NULL;
}

/* A package of the index: this shard's, read unless kept. */
static void
add_package(void *ctx, const struct repo_package *p)
{
	struct suite *s = ctx;
	struct listing *l = &s->lists[s->nlists - 1];
	uint64_t seq = l->seq++;

	if (!repo_in_shard(p->name, s->o->shard_k, s->o->shard_n))
		return;
	l->v = xrealloc(l->v, (l->n + 1) * sizeof(*l->v));
	l->v[l->n].name = xstrdup(p->name);
	l->v[l->n].sha256 = xstrdup(p->sha256);
	l->v[l->n].bucket = repo_bucket(p->name);
	l->v[l->n++].seq = seq;
	s->listed.v = xrealloc(s->listed.v, (s->listed.n + 1) *
	    sizeof(*s->listed.v));
	s->listed.v[s->listed.n++] = xstrdup(p->path);
	if (s->store != NULL && (seen(s, p->sha256) ||
	    store_has(s->store, p->sha256)))
		return;
	/* A store checks a package's bytes as they are read, and keeps
	   nothing of one that is not its index's (store_done); a report
	   says what it reads at once: the bytes are checked first. One by
	   URL is fetched first, and checked as it comes. */
	if ((s->store == NULL || p->url != NULL) && repo_check(p) < 0) {
		s->failed = -1;
		return;
	}
	if (s->store != NULL)
		store_expect(s->store, p);
	s->out->v = xrealloc(s->out->v, (s->out->n + 1) *
	    sizeof(*s->out->v));
	s->out->v[s->out->n++] = xstrdup(p->path);
	s->seen = xrealloc(s->seen, (s->nseen + 1) * sizeof(*s->seen));
	s->seen[s->nseen++] = xstrdup(p->sha256);
}

/* The architecture asked for, as a listing's key: "" for this
   machine's. */
static const char *
asked(const struct opts *o)
{
	return o->arch != NULL ? o->arch : o->platform != NULL ?
	    o->platform : "";
}

int
suite_expand(struct suite *s, char **arg, int n, struct pathset *out)
{
	const struct repo_opts ro = { .platform = s->o->platform,
	    .arch = s->o->arch, .keyrings = s->o->keyrings,
	    .nkeyrings = s->o->nkeyrings };
	struct listing *l;
	size_t before;
	int i, r;

	s->out = out;
	for (i = 0; i < n; i++) {
		if (!repo_named(arg[i])) {
			if (s->store != NULL) {
				warnx("%s: not a repository: --store keeps the packages of repositories",
				    arg[i]);
				s->failed = -1;
				continue;
			}
			out->v = xrealloc(out->v, (out->n + 1) *
			    sizeof(*out->v));
			out->v[out->n++] = xstrdup(arg[i]);
			continue;
		}
		s->any = true;
		s->lists = xrealloc(s->lists, (s->nlists + 1) *
		    sizeof(*s->lists));
		l = &s->lists[s->nlists++];
		memset(l, 0, sizeof(*l));
		l->repo = xstrdup(arg[i]);
		before = s->nseen;
		r = repo_packages(arg[i], &ro, add_package, s);
		if (r < 0)
			s->failed = -1;
		if (s->nseen > before)
			qsort(s->seen, s->nseen, sizeof(*s->seen), by_string);
		/* An index not read lists nothing: what the store listed
		   of it stays. */
		if (s->store != NULL && (r == 0 || l->n > 0) &&
		    store_list(s->store, l->repo, asked(s->o), s->o->shard_k,
		    s->o->shard_n, l->v, l->n) < 0)
			s->failed = -1;
	}
	if (s->store != NULL)
		store_ready(s->store);
	return s->failed;
}

struct saying {
	struct report *r;
	const struct opts *o;
};

/* The --allow pattern of that text: it allowed an image. */
static void
allow_used(const struct opts *o, const char *text)
{
	size_t i;

	for (i = 0; text != NULL && i < o->allow.n; i++)
		if (strcmp(o->allow.v[i].text, text) == 0)
			atomic_store(&o->allow.v[i].used, true);
}

static void
say_record(void *ctx, const struct stored *rec)
{
	struct saying *c = ctx;
	struct where w = { .path = rec->path, .member = rec->member,
	    .streamed = rec->streamed, .size = rec->size };

	allow_used(c->o, rec->allowed_by);
	if (rec->error != NULL) {
		if (rec->what != UNREAD_ERROR)
			judge_count_unread(c->r->st, rec->what == UNREAD_ELF,
			    rec->v.allowed);
		report_error(c->r, &w, rec->what, rec->v.allowed, rec->error);
		return;
	}
	judge_count(c->r->st, rec->state, &rec->v, &rec->h, rec->judged);
	if (rec->judged)
		judge_count_findings(c->r->st, &rec->v);
	report_rendered(c->r, &w, &rec->x, rec->v.findings);
}

static void
say_package(void *ctx, const char *path, bool findings)
{
	struct saying *c = ctx;

	stat_add(c->r->st, C_FILES);
	if (findings && c->o->print0)
		report_path0(c->r, path);
}

int
suite_say(struct suite *s, struct report *r)
{
	struct saying c = { .r = r, .o = s->o };
	struct store_say say = { .record = say_record,
	    .package = say_package, .ctx = &c };
	size_t i;
	int ret = 0;

	if (s->store == NULL)
		return 0;
	for (i = 0; i < s->nlists; i++)
		if (store_say(s->store, s->lists[i].repo, asked(s->o),
		    s->o->shard_k, s->o->shard_n, &say) < 0)
			ret = -1;
	return ret || store_failed(s->store) ? -1 : 0;
}

struct sides {
	struct diff *d;
	int side;
};

/* An image of one side, as the judge hands it to --diff. */
static void
diff_one(void *ctx, const struct store_image *im)
{
	struct sides *c = ctx;
	struct where w = { .path = im->path, .member = im->member };
	struct chstk_info info = { .state = im->state, .kind = im->kind,
	    .wx = im->wx };
	struct verdict v = { .effective = im->effective,
	    .allowed = im->allowed };

	if (im->malformed)
		diff_malformed(c->d, c->side, &w);
	else
		diff_image(c->d, c->side, &w, &info, &v, &im->h);
}

static void
no_needed(void *ctx, long long id, const char *soname)
{
	(void)ctx;
	(void)id;
	(void)soname;
}

int
suite_diff(struct suite *s, struct report *r)
{
	struct diff d;
	struct sides c = { .d = &d };
	struct store_walk walk = { .image = diff_one, .needed = no_needed,
	    .ctx = &c };
	int ret = 0;

	if (s->store == NULL || s->nlists != 2)
		return -1;
	diff_init(&d);
	d.r = r;
	for (c.side = 0; c.side < 2; c.side++) {
		d.root[c.side] = s->lists[c.side].repo;
		if (store_images(s->store, s->lists[c.side].repo, asked(s->o),
		    &walk) < 0)
			ret = -1;
	}
	if (ret == 0)
		diff_report(&d);
	diff_free(&d);
	return ret < 0 || store_failed(s->store) ? -1 : 0;
}

int
suite_judge(struct suite *s, struct report *r)
{
	size_t i;
	int ret = 0;

	for (i = 0; s->store != NULL && i < s->nlists; i++)
		if (suite_judge_one(s->store, r, s->lists[i].repo,
		    asked(s->o)) < 0)
			ret = -1;
	return ret;
}

void
suite_close(struct suite *s)
{
	size_t i, k;

	if (s == NULL)
		return;
	store_close(s->store);
	for (i = 0; i < s->nlists; i++) {
		for (k = 0; k < s->lists[i].n; k++) {
			free((char *)s->lists[i].v[k].name);
			free((char *)s->lists[i].v[k].sha256);
		}
		free(s->lists[i].v);
		free(s->lists[i].repo);
	}
	free(s->lists);
	for (i = 0; i < s->listed.n; i++)
		free(s->listed.v[i]);
	free(s->listed.v);
	for (i = 0; i < s->nseen; i++)
		free(s->seen[i]);
	free(s->seen);
	free(s);
}
