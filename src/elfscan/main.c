/*
 * elfscan - audit a file system for executable stacks.
 */
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <glob.h>
#include <limits.h>
#include <malloc.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "container.h"
#include "debug.h"
#include "diff.h"
#include "elfscan.h"
#include "proc.h"
#include "repo.h"
#include "report.h"
#include "sarif.h"
#include "suite.h"
#include "system.h"
#include "xalloc.h"

static void
usage(FILE *f)
{
	fprintf(f,
"usage: elfscan [OPTIONS] [PATH...] [--files-from LIST [--null]]\n"
"       elfscan --diff [OPTIONS] OLD NEW | --list [--profile NAME] | --rules\n"
"Audit ELF files for executable stacks: under each PATH (recursively), in\n"
"packages, images and suites (apt:, rpm-md:); without PATH, this system.\n"
"  -q, --quiet           only the files with findings (-0: their paths)\n"
"      --format=FORMAT   text, json (JSON Lines) or sarif (SARIF 2.1.0)\n"
"      --summary         the counts at the end\n"
"      --allow FILE, --allow-pattern GLOB   paths allowed an executable stack\n"
"      --hardening       also RELRO, PIE, canary and the other defences\n"
"      --code            also search the x86-64 code for stack probes\n"
"      --require [GLOB=]PROPS   a finding where one of PROPS is missing: pie,\n"
"          relro, gnu-relro, canary, fortify, rpath, ibt, shstk, bti, pac,\n"
"          stripped, textrel, one-dynamic, property-note, endbr, bti-plt,\n"
"          segments, relro-coverage, run-path, unicode, stack-clash, optimized,\n"
"          auto-var-init\n"
"      --profile NAME    what the build flags of NAME promise (--list: which)\n"
"      --system          judge each PATH as the root of a system, or a suite\n"
"      --proc[=PID,...]  also judge the running processes\n"
"      --store FILE|URL  keep a suite: reruns read what is new; --shard K/N\n"
"Also: --no-header --null -L -x -A --all --platform --arch --keyring -j -h -V\n"
"Exit status: 0 no findings, 1 findings, 2 an error (2 wins over 1).\n"
"All options: elfscan(1); system verdicts, stack rules: elfscan-system(7);\n"
"hardening, profiles: elfscan-hardening(7); trees, packages, images, --diff:\n"
"elfscan-inputs(7); apt suites: elfscan-suites(7); formats: elfscan-output(7).\n");
}

/*
 * How the walkers read the heads of files (heads.c): with io_uring, unless
 * ELFSCAN_READER=threads asks for plain system calls or the kernel does
 * not allow io_uring; said in desc, for --version. Returns -1 when
 * ELFSCAN_READER is neither (said).
 */
static int
reader(struct opts *o, char *desc, size_t len)
{
	const char *env = getenv("ELFSCAN_READER");
	char why[128];

	if (env != NULL && strcmp(env, "threads") != 0 &&
	    strcmp(env, "io_uring") != 0) {
		warnx("ELFSCAN_READER=%s: not io_uring or threads", env);
		return -1;
	}
	if (env != NULL && strcmp(env, "threads") == 0) {
		o->uring = false;
		snprintf(why, sizeof(why), "ELFSCAN_READER=threads");
	} else {
		o->uring = heads_uring(why, sizeof(why));
	}
	if (o->uring)
		snprintf(desc, len, "io_uring");
	else
		snprintf(desc, len, "threads (%s)", why);
	return 0;
}

enum {
	OPT_FORMAT = 256, OPT_SUMMARY, OPT_ALLOW, OPT_ALLOW_PATTERN,
	OPT_NO_PROGRESS, OPT_RULES, OPT_HARDENING, OPT_REQUIRE, OPT_SYSTEM,
	OPT_DIFF, OPT_CODE, OPT_NO_HEADER, OPT_FILES_FROM, OPT_NULL,
	OPT_PLATFORM, OPT_ARCH, OPT_KEYRING, OPT_STORE, OPT_SHARD, OPT_PROC,
	OPT_ALL, OPT_PROFILE, OPT_LIST,
};

/* The leading ':' tells a missing argument from an unknown option, and
   keeps getopt from saying either itself. */
static const char shortopts[] = ":q0LxAj:hV";

/* In the order of enum format. */
static const char *const formats[] = { "text", "json", "sarif", NULL };

/*
 * How far word[0, len) is from name: the fewest insertions, deletions,
 * replacements and swaps of two neighbours that turn one into the other
 * (the optimal string alignment distance). Long words are far from all.
 */
static size_t
distance(const char *word, size_t len, const char *name)
{
	size_t d[32][32], n = strlen(name), i, k, cost;

	if (len >= 32 || n >= 32)
		return (size_t)-1;
	for (i = 0; i <= len; i++)
		d[i][0] = i;
	for (k = 0; k <= n; k++)
		d[0][k] = k;
	for (i = 1; i <= len; i++)
		for (k = 1; k <= n; k++) {
			cost = word[i - 1] != name[k - 1];
			d[i][k] = d[i - 1][k - 1] + cost;
			if (d[i - 1][k] + 1 < d[i][k])
				d[i][k] = d[i - 1][k] + 1;
			if (d[i][k - 1] + 1 < d[i][k])
				d[i][k] = d[i][k - 1] + 1;
			if (i > 1 && k > 1 && word[i - 1] == name[k - 2] &&
			    word[i - 2] == name[k - 1] &&
			    d[i - 2][k - 2] + 1 < d[i][k])
				d[i][k] = d[i - 2][k - 2] + 1;
		}
	return d[len][n];
}

/* Of the names name(set, 0), name(set, 1)... up to NULL, the one closest
   to the misspelt word[0, len), if it is close: an edit for every three
   letters of the longer of the two at most. NULL when none is. */
static const char *
nearest(const char *word, size_t len,
    const char *(*name)(const void *set, size_t i), const void *set)
{
	const char *best = NULL, *s;
	size_t i, d, best_d = (size_t)-1, longer;

	for (i = 0; (s = name(set, i)) != NULL; i++) {
		d = distance(word, len, s);
		longer = len > strlen(s) ? len : strlen(s);
		if (d > 0 && 3 * d <= longer && d < best_d) {
			best = s;
			best_d = d;
		}
	}
	return best;
}

static const char *
option_name(const void *longopts, size_t i)
{
	return ((const struct option *)longopts)[i].name;
}

static const char *
word_name(const void *words, size_t i)
{
	return ((const char *const *)words)[i];
}

static const char *
property_name(const void *unused, size_t i)
{
	(void)unused;
	return require_property(i);
}

static const char *
profile_word(const void *unused, size_t i)
{
	(void)unused;
	return profile_name(i);
}

/* The long option whose value is val, for a message. */
static const char *
long_name(const struct option *longopts, int val)
{
	size_t i;

	for (i = 0; longopts[i].name != NULL; i++)
		if (longopts[i].val == val)
			return longopts[i].name;
	return "?";
}

/*
 * What getopt_long found wrong, said in one line (getopt's own messages,
 * off, would name argv[0], which is libtool's .libs/lt-elfscan in the
 * build tree, and suggest nothing). c is what it returned: ':' for a
 * missing argument, '?' for the rest.
 */
static void
bad_option(int c, char **argv, const struct option *longopts)
{
	const char *arg = argv[optind - 1], *near, *sep = "";
	size_t len, i, n = 0;
	char both[256] = "";

	if (c == ':' && strncmp(arg, "--", 2) == 0) {
		warnx("--%s: missing argument", long_name(longopts, optopt));
	} else if (c == ':') {
		warnx("-%c: missing argument", optopt);
	} else if (optopt != 0 && strncmp(arg, "--", 2) == 0) {
		warnx("--%s: takes no argument", long_name(longopts, optopt));
	} else if (optopt != 0) {
		warnx("-%c: unknown option", optopt);
	} else {
		/* A long option unknown, or the start of several. */
		arg += 2;
		len = strcspn(arg, "=");
		for (i = 0; longopts[i].name != NULL; i++)
			if (strncmp(longopts[i].name, arg, len) == 0) {
				n++;
				snprintf(both + strlen(both), sizeof(both) -
				    strlen(both), "%s--%s", sep,
				    longopts[i].name);
				sep = ", ";
			}
		if (n > 1)
			warnx("--%.*s: ambiguous option: %s", (int)len, arg,
			    both);
		else if ((near = nearest(arg, len, option_name, longopts)) !=
		    NULL)
			warnx("--%.*s: unknown option (did you mean '--%s'?)",
			    (int)len, arg, near);
		else
			warnx("--%.*s: unknown option", (int)len, arg);
	}
}

/* --format=FORMAT into o. */
static int
set_format(struct opts *o, const char *arg)
{
	const char *near;
	size_t i;

	for (i = 0; formats[i] != NULL; i++)
		if (strcmp(arg, formats[i]) == 0) {
			o->format = (enum format)i;
			return 0;
		}
	if ((near = nearest(arg, strlen(arg), word_name, formats)) != NULL)
		warnx("--format=%s: unknown format (did you mean '%s'?)", arg,
		    near);
	else
		warnx("--format=%s: unknown format: not text, json or sarif",
		    arg);
	return -1;
}

/* --require [GLOB=]PROPS, added to o. */
static int
add_require(struct opts *o, const char *arg)
{
	const char *bad, *near;
	size_t len;

	o->require = xrealloc(o->require, (o->nrequire + 1) *
	    sizeof(*o->require));
	if (require_parse(&o->require[o->nrequire], arg, &bad) < 0) {
		len = strcspn(bad, ",");
		if ((near = nearest(bad, len, property_name, NULL)) != NULL)
			warnx("--require=%s: unknown property: %.*s (did you mean '%s'?)",
			    arg, (int)len, bad, near);
		else
			warnx("--require=%s: unknown property: %.*s", arg,
			    (int)len, bad);
		return -1;
	}
	/* Stripped images show stack-clash protection only in their code. */
	if (o->require[o->nrequire].findings & F_NO_STACK_CLASH)
		o->code = true;
	o->nrequire++;
	o->hardening = true;
	return 0;
}

/* --profile NAME: its promises added to o's requirements. */
static int
add_profile(struct opts *o, const char *name)
{
	const char *near;
	char all[256] = "";
	size_t i;

	if (profile_require(name, &o->require, &o->nrequire) == 0) {
		o->profiles = xrealloc(o->profiles, (o->nprofiles + 1) *
		    sizeof(*o->profiles));
		o->profiles[o->nprofiles++] = name;
		o->hardening = true;
		return 0;
	}
	if ((near = nearest(name, strlen(name), profile_word, NULL)) != NULL) {
		warnx("--profile=%s: unknown profile (did you mean '%s'?)",
		    name, near);
		return -1;
	}
	for (i = 0; profile_name(i) != NULL; i++)
		snprintf(all + strlen(all), sizeof(all) - strlen(all), "%s%s",
		    i == 0 ? "" : profile_name(i + 1) == NULL ? " or " : ", ",
		    profile_name(i));
	warnx("--profile=%s: unknown profile: not %s", name, all);
	return -1;
}

/* --proc=PID,...: the ids, added to o. */
static int
add_pids(struct opts *o, const char *arg)
{
	const char *p = arg;
	char *end;
	long n;

	do {
		errno = 0;
		n = strtol(p, &end, 10);
		if (errno || end == p || n < 1 || n > INT_MAX ||
		    (*end != ',' && *end != '\0')) {
			warnx("--proc=%s: not a list of process ids", arg);
			return -1;
		}
		o->pids = xrealloc(o->pids, (o->npids + 1) * sizeof(*o->pids));
		o->pids[o->npids++] = (int)n;
		p = end + 1;
	} while (*end == ',');
	return 0;
}

/* --platform: OS/ARCH[/VARIANT], no part empty. */
static bool
platform_ok(const char *s)
{
	size_t parts, len;

	for (parts = 1; (len = strcspn(s, "/")) > 0; parts++, s += len + 1)
		if (s[len] == '\0')
			return parts == 2 || parts == 3;
	return false;
}

/*
 * The options into o. Returns 0; -1 after a usage error, said in one
 * line; -2 after another (an --allow file that cannot be read).
 */
/* The options that cannot go together: -1 (said) when two given do. */
static int
combinations(const struct opts *o, bool format)
{
	const char *what = NULL;

	if (o->print0 && format)
		what = "-0 and --format cannot be used together: -0 prints only paths";
	else if (o->null && o->files_from == NULL)
		what = "--null: there is no --files-from LIST to read";
	else if (o->proc && o->diff)
		what = "--proc cannot be used with --diff: processes have no old and new";
	else if (o->diff && o->system)
		what = "--diff cannot be used with --system: it compares two builds, not roots";
	else if (o->diff && o->print0)
		what = "--diff cannot be used with -0: it reports changes, not files";
	else if (o->files_from != NULL && o->system)
		what = "--files-from cannot be used with --system";
	else if (o->files_from != NULL && o->diff)
		what = "--files-from cannot be used with --diff";
	else if (o->store != NULL && (o->proc || o->files_from != NULL))
		what = "--store keeps the records of repositories: it cannot be used with --proc or --files-from";
	else if (o->store != NULL && o->diff && o->shard_n > 1)
		what = "--diff compares whole suites: it cannot be used with --shard";
	else if (o->store != NULL && o->system && o->shard_n > 1)
		what = "--system judges a whole suite: it cannot be used with --shard";
	if (what == NULL)
		return 0;
	warnx("%s", what);
	return -1;
}

/* The option c, as given, added to what shapes the records. */
static void
add_shape(struct opts *o, int c, const struct option *longopts,
    const char *arg)
{
	const struct option *l = longopts;
	char *s;

	while (l->name != NULL && l->val != c)
		l++;
	if (asprintf(&s, "%s%s--%s%s%s", o->shape != NULL ? o->shape : "",
	    o->shape != NULL ? " " : "", l->name, arg != NULL ? "=" : "",
	    arg != NULL ? arg : "") < 0)
		oom();
	free(o->shape);
	o->shape = s;
}

static int
parse(int argc, char **argv, struct opts *o)
{
	static const struct option longopts[] = {
		{ "quiet", no_argument, NULL, 'q' },
		{ "format", required_argument, NULL, OPT_FORMAT },
		{ "no-header", no_argument, NULL, OPT_NO_HEADER },
		{ "print0", no_argument, NULL, '0' },
		{ "files-from", required_argument, NULL, OPT_FILES_FROM },
		{ "null", no_argument, NULL, OPT_NULL },
		{ "summary", no_argument, NULL, OPT_SUMMARY },
		{ "allow", required_argument, NULL, OPT_ALLOW },
		{ "allow-pattern", required_argument, NULL, OPT_ALLOW_PATTERN },
		{ "hardening", no_argument, NULL, OPT_HARDENING },
		{ "code", no_argument, NULL, OPT_CODE },
		{ "require", required_argument, NULL, OPT_REQUIRE },
		{ "profile", required_argument, NULL, OPT_PROFILE },
		{ "list", no_argument, NULL, OPT_LIST },
		{ "system", no_argument, NULL, OPT_SYSTEM },
		{ "all", no_argument, NULL, OPT_ALL },
		{ "diff", no_argument, NULL, OPT_DIFF },
		{ "proc", optional_argument, NULL, OPT_PROC },
		{ "follow", no_argument, NULL, 'L' },
		{ "one-file-system", no_argument, NULL, 'x' },
		{ "archives", no_argument, NULL, 'A' },
		{ "platform", required_argument, NULL, OPT_PLATFORM },
		{ "arch", required_argument, NULL, OPT_ARCH },
		{ "keyring", required_argument, NULL, OPT_KEYRING },
		{ "store", required_argument, NULL, OPT_STORE },
		{ "shard", required_argument, NULL, OPT_SHARD },
		{ "jobs", required_argument, NULL, 'j' },
		{ "no-progress", no_argument, NULL, OPT_NO_PROGRESS },
		{ "rules", no_argument, NULL, OPT_RULES },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	bool format = false, jobs = false;
	char desc[160];
	char *end;
	long n;
	int c;

	memset(o, 0, sizeof(*o));
	o->jobs = cpus > 0 ? (unsigned)cpus : 1;
	o->progress = isatty(STDERR_FILENO);
	while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
		if (c == OPT_REQUIRE || c == OPT_PROFILE)
			add_shape(o, c, longopts, optarg);
		switch (c) {
		case 'q':
			o->quiet = true;
			break;
		case OPT_FORMAT:
			if (set_format(o, optarg) < 0)
				return -1;
			format = true;
			break;
		case OPT_NO_HEADER:
			o->no_header = true;
			break;
		case '0':
			o->print0 = true;
			break;
		case OPT_FILES_FROM:
			o->files_from = optarg;
			break;
		case OPT_NULL:
			o->null = true;
			break;
		case OPT_SUMMARY:
			o->summary = true;
			break;
		case OPT_ALLOW:
			if (allow_load(&o->allow, optarg) < 0) {
				warn("%s: cannot read the allowlist", optarg);
				return -2;
			}
			break;
		case OPT_ALLOW_PATTERN:
			allow_add(&o->allow, optarg, NULL, 0);
			break;
		case OPT_HARDENING:
			o->hardening = true;
			break;
		case OPT_CODE:
			o->code = true;
			o->hardening = true;
			break;
		case OPT_REQUIRE:
			if (add_require(o, optarg) < 0)
				return -1;
			break;
		case OPT_ALL:
			o->all = true;
			break;
		case OPT_PROFILE:
			if (add_profile(o, optarg) < 0)
				return -1;
			break;
		case OPT_LIST:
			o->list = true;
			break;
		case OPT_SYSTEM:
			o->system = true;
			break;
		case OPT_DIFF:
			o->diff = true;
			o->hardening = true;
			break;
		case OPT_PROC:
			o->proc = true;
			if (optarg != NULL && add_pids(o, optarg) < 0)
				return -1;
			break;
		case 'L':
			o->follow = true;
			break;
		case 'x':
			o->one_fs = true;
			break;
		case 'A':
			o->archives = true;
			break;
		case OPT_PLATFORM:
			if (!platform_ok(optarg)) {
				warnx("--platform=%s: not OS/ARCH[/VARIANT]", optarg);
				return -1;
			}
			o->platform = optarg;
			break;
		case OPT_ARCH:
			o->arch = optarg;
			break;
		case OPT_KEYRING:
			o->keyrings = xrealloc(o->keyrings, (o->nkeyrings + 1) *
			    sizeof(*o->keyrings));
			o->keyrings[o->nkeyrings++] = optarg;
			break;
		case OPT_STORE:
			o->store = optarg;
			break;
		case OPT_SHARD:
			if (suite_shard(optarg, &o->shard_k, &o->shard_n) < 0)
				return -1;
			break;
		case 'j':
			errno = 0;
			n = strtol(optarg, &end, 10);
			if (errno || *end != '\0' || n < 1 || n > 1024) {
				warnx("--jobs=%s: not a number from 1 to 1024", optarg);
				return -1;
			}
			o->jobs = (unsigned)n;
			jobs = true;
			break;
		case OPT_NO_PROGRESS:
			o->progress = false;
			break;
		case OPT_RULES:
			rules_print(stdout);
			exit(0);
		case 'h':
			usage(stdout);
			exit(0);
		case 'V':
			if (reader(o, desc, sizeof(desc)) < 0)
				return -2;
			printf("elfscan %s\nreader: %s\n", chstk_version(),
			    desc);
			exit(0);
		default:
			bad_option(c, argv, longopts);
			return -1;
		}
	}
	if (o->print0 && o->files_from != NULL)
		o->null = true;
	if (combinations(o, format) < 0)
		return -1;
	/* Asked for, that many; else as many as the CPUs, and more while
	   the walk reads the disk (walk.c): eight keep this machine's disk
	   as busy as it gets (bench/README.md). */
	o->jobs_most = jobs || o->jobs > 8 ? o->jobs : 8;
	return reader(o, desc, sizeof(desc)) < 0 ? -2 : 0;
}

static void
add(struct pathset *p, const char *path)
{
	p->v = xrealloc(p->v, (p->n + 1) * sizeof(*p->v));
	p->v[p->n++] = xstrdup(path);
}

/*
 * The names in --files-from LIST, one a line or NUL-terminated, as chstk
 * reads them: empty names are skipped, the last one needs no terminator.
 * Returns 0, or -1 when the list cannot be read (said).
 */
static int
add_list(struct pathset *l, const char *list, bool null)
{
	FILE *f = strcmp(list, "-") == 0 ? stdin : fopen(list, "r");
	int sep = null ? '\0' : '\n', ret = 0;
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;

	if (f == NULL) {
		warn("%s: cannot open", list);
		return -1;
	}
	while ((len = getdelim(&line, &cap, sep, f)) > 0) {
		if (line[len - 1] == sep)
			line[--len] = '\0';
		if (strlen(line) != (size_t)len) {
			warnx("%s: a name holds a NUL byte: NUL-separated names need --null or -0", list);
			ret = -1;
			break;
		}
		if (len > 0)
			add(l, line);
	}
	if (ret == 0 && ferror(f)) {
		warn("%s: cannot read", list);
		ret = -1;
	}
	free(line);
	if (f != stdin)
		fclose(f);
	return ret;
}

static void
free_list(struct pathset *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
}

/* A root judged, or "/" whose rules judge the paths named (system.h),
   and the paths walked there; or an image file, whose images are each a
   root (sys NULL). */
struct session {
	struct system *sys;
	bool image;
	struct pathset paths;
};

/* Is what is named as a root (a path, or an image reference: ref.c) a
   container image? -1 with *why when it is neither a directory nor an
   image. */
static int
is_image(const char *arg, const char **why)
{
	unsigned char head[512];
	char *path, *ref = NULL;
	struct stat st;
	bool named = image_ref(arg, &path, &ref);
	ssize_t n = 0;
	int fd, r = -1;

	fd = open(named ? path : arg, O_RDONLY | O_CLOEXEC | O_NONBLOCK |
	    O_NOCTTY);
	if (named) {
		free(path);
		free(ref);
	}
	if (fd == -1 || fstat(fd, &st) == -1) {
		*why = strerror(errno);
		if (fd != -1)
			close(fd);
		return -1;
	}
	if (S_ISDIR(st.st_mode) && (oci_is_layout(fd) || !named))
		r = oci_is_layout(fd);
	else if (S_ISREG(st.st_mode) && (n = pread(fd, head, sizeof(head),
	    0)) > 0 && container_kind(head, (size_t)n) == CONTAINER_TAR &&
	    oci_is_archive(fd))
		r = 1;
	else
		*why = "neither a directory nor a container image: a package or a tarball holds no system of its own";
	close(fd);
	return r;
}

/* The sessions: none for --proc alone; this machine's root and its
   programs when no path is named (nor listed); with --system, each path a
   root (a directory, or an image file whose images are each one); else
   the paths, on this machine's root. Returns the count, or -1 when a root
   cannot be opened (said). */
static int
sessions(struct opts *o, char **arg, int n, bool listed, struct report *r,
    struct session **out)
{
	struct session *s = xcalloc(n > 0 ? (size_t)n : 1, sizeof(*s));
	const char *why;
	char *real;
	int i, image;

	*out = s;
	if (n == 0 && !listed && o->proc && !o->system)
		return 0;
	o->files = true;
	if (n == 0 || !o->system) {
		o->system = o->system || (n == 0 && !listed);
		if ((s->sys = system_open("/", o, r, &why)) == NULL)
			warnx("/: cannot open the root: %s", why);
		else if (n == 0 && !listed)
			system_paths(s->sys, getenv("PATH"), &s->paths);
		for (i = 0; i < n; i++)
			add(&s->paths, arg[i]);
		return 1;
	}
	for (i = 0; i < n; i++) {
		if ((image = is_image(arg[i], &why)) < 0) {
			warnx("%s: cannot open the root: %s", arg[i], why);
			return -1;
		}
		if ((s[i].image = image == 1)) {
			add(&s[i].paths, arg[i]);
			continue;
		}
		if ((real = realpath(arg[i], NULL)) == NULL ||
		    (s[i].sys = system_open(real, o, r, &why)) == NULL) {
			warnx("%s: cannot open the root: %s", arg[i],
			    real == NULL ? strerror(errno) : why);
			free(real);
			return -1;
		}
		system_paths(s[i].sys, NULL, &s[i].paths);
		free(real);
	}
	return n;
}

static void
sessions_free(struct session *s, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		system_close(s[i].sys);
		free_list(&s[i].paths);
	}
	free(s);
}

/* A member of a debug package: a debug file, when it is one (debug.h). */
static void
debug_member(void *arg, const struct batch *b)
{
	char *where;
	size_t i;

	for (i = 0; i < b->n; i++) {
		const struct found *f = &b->v[i];

		if (f->kind != FOUND_IMAGE || f->member == NULL)
			continue;
		if (asprintf(&where, "%s!%s", b->at.path, f->member) < 0)
			oom();
		debugset_add(arg, where, f->member, &f->info, found_ev(f));
		free(where);
	}
}

/*
 * The debug packages among the paths named (by their names: debug.h),
 * when something else is named beside them: read first, their debug
 * files kept by build-id for the images of the others, and not scanned
 * themselves. Returns -1 when one cannot be read (said).
 */
static int
debug_packages(struct pathset *paths, struct debugset *d)
{
	struct container_out out = { .found = debug_member, .arg = d,
	    .hardening = true };
	unsigned char head[512];
	enum container kind;
	size_t i, k = 0, n = 0;
	ssize_t got;
	int fd, r = 0;

	for (i = 0; i < paths->n; i++)
		n += !debug_package_name(paths->v[i]);
	for (i = 0; i < paths->n; i++) {
		if (n == 0 || !debug_package_name(paths->v[i])) {
			paths->v[k++] = paths->v[i];
			continue;
		}
		fd = open(paths->v[i], O_RDONLY | O_CLOEXEC | O_NOCTTY);
		got = fd == -1 ? -1 : pread(fd, head, sizeof(head), 0);
		kind = got > 0 ? container_kind(head, (size_t)got) :
		    CONTAINER_NONE;
		if (kind == CONTAINER_NONE) {
			warnx("%s: cannot read the debug package: %s",
			    paths->v[i], got == -1 ? strerror(errno) :
			    "not a package");
			r = -1;
		} else {
			container_scan(fd, paths->v[i], kind, &out);
		}
		if (fd != -1)
			close(fd);
		free(paths->v[i]);
	}
	paths->n = k;
	debugset_ready(d);
	return r;
}

/* --diff: OLD then NEW walked, each image to its side, then compared. */
static int
walk_diff(struct judge *j, const struct session *s)
{
	struct diff d;
	struct stat st;
	int side, r = 0;

	diff_init(&d);
	d.r = j->r;
	j->diff = &d;
	j->sys = s->sys;
	for (side = 0; side < 2; side++) {
		d.root[side] = s->paths.v[side];
		d.dir[side] = stat(d.root[side], &st) == 0 &&
		    S_ISDIR(st.st_mode);
		j->side = side;
		if (walk(j, &s->paths.v[side], 1, NULL, 0) < 0)
			r = -1;
	}
	if (r == 0)
		diff_report(&d);
	diff_free(&d);
	j->diff = NULL;
	return r;
}

/* The SARIF log's bases: the arguments, and the current directory (an
   empty path) for the names of a list, which are relative to it. The log
   keeps the strings, not the array. */
static struct sarif *
start_sarif(const struct pathset *args, bool listed)
{
	char **bases = xcalloc(args->n + 1, sizeof(*bases));
	struct sarif *s;

	if (args->n > 0)
		memcpy(bases, args->v, args->n * sizeof(*bases));
	bases[args->n] = (char *)"";
	s = sarif_begin(stdout, bases, args->n + listed);
	if (s == NULL)
		err(2, "cannot start the sarif log");
	free(bases);
	return s;
}

int
main(int argc, char **argv)
{
	struct opts o;
	struct stats st;
	struct report r = { .o = &o, .st = &st };
	struct judge j = { .o = &o, .r = &r, .st = &st };
	struct pathset all = { NULL, 0 }, listed = { NULL, 0 };
	struct pathset args = { NULL, 0 };
	struct session *sess = NULL;
	struct debugset *debug = NULL;
	struct suite *suite = NULL;
	struct stats scratch;
	struct timespec t0, t1;
	int i, nsess = 0, failed, repo_failed = 0;
	size_t k;

	/* Every message names the program as its manual does, not as
	   libtool runs it in the build tree (.libs/lt-elfscan). */
	program_invocation_name = program_invocation_short_name =
	    (char *)"elfscan";
	memset(&st, 0, sizeof(st));
#ifdef M_ARENA_MAX
	/* The workers allocate little (jobs, batches): one arena for all,
	   not one each, keeps 400 KiB of peak memory off a scan of /usr. */
	mallopt(M_ARENA_MAX, 1);
#endif
	if ((failed = parse(argc, argv, &o)) < 0 || (o.files_from != NULL &&
	    add_list(&listed, o.files_from, o.null) < 0)) {
		if (failed == -1)
			fputs("Try 'elfscan --help' for more information.\n",
			    stderr);
		failed = 1;
		goto out;
	}
	if (o.list) {
		profile_print(stdout, o.profiles, o.nprofiles);
		goto out;
	}
	if (o.diff && argc - optind != 2) {
		warnx("--diff takes two paths, OLD and NEW");
		fputs("Try 'elfscan --help' for more information.\n", stderr);
		failed = 1;
		goto out;
	}
	pthread_mutex_init(&r.lock, NULL);
	pthread_mutex_init(&r.err_lock, NULL);
	if ((suite = suite_open(&o)) == NULL) {
		failed = 1;
		goto out;
	}
	repo_failed = suite_expand(suite, argv + optind, argc - optind,
	    &args) < 0;
	if (o.store != NULL && !suite_any(suite)) {
		warnx("--store keeps the records of repositories: name one");
		failed = 1;
		goto out;
	}
	/* A suite's verdicts come from its store, every package at once;
	   its packages are not roots. */
	if (o.system && suite_any(suite)) {
		if (o.store == NULL) {
			warnx("--system judges a suite from its store: name one with --store FILE");
			failed = 1;
			goto out;
		}
		o.system = false;
		o.suite = true;
	}
	/* Two suites compared: both read into the store, then compared from
	   there. */
	if (o.diff && suite_any(suite) && (o.store == NULL ||
	    !repo_named(argv[optind]) || !repo_named(argv[optind + 1]))) {
		warnx("--diff compares two suites from a store: name two repositories and --store FILE");
		failed = 1;
		goto out;
	}
	/* With a store, the judge's records go there, and what is said and
	   counted is what the store says after the walk. */
	if ((j.store = suite_store(suite)) != NULL) {
		memset(&scratch, 0, sizeof(scratch));
		j.st = &scratch;
		o.files = true;
	}
	/* Repositories with no package to read: nothing to walk, not this
	   system; a store's suite is said all the same. A list of files
	   alone: this machine's rules, no default paths. */
	if (args.n == 0 && argc - optind > 0 && j.store == NULL) {
		failed = 0;
		goto out;
	}
	if ((args.n > 0 || argc - optind == 0) && (nsess = sessions(&o,
	    args.v, (int)args.n, o.files_from != NULL, &r, &sess)) < 0) {
		nsess = (int)args.n;
		failed = 1;
		goto out;
	}
	/* The debug packages named beside others complete their evidence;
	   a suite's are packages of the suite, read and kept as any. */
	if (!o.system && !o.diff && nsess == 1 && !suite_any(suite) &&
	    (debug = debugset_new(), debug_packages(&sess[0].paths,
	    debug) < 0)) {
		failed = 1;
		goto out;
	}
	j.debug = debug;
	for (i = 0; i < nsess; i++)
		for (k = 0; k < sess[i].paths.n; k++)
			add(&all, sess[i].paths.v[k]);
	if (o.format == FORMAT_SARIF && !o.print0)
		r.sarif = start_sarif(j.store != NULL ? suite_paths(suite) :
		    &all, o.files_from != NULL);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (nsess > 0 || j.store != NULL)
		report_header(&r);
	if (o.progress)
		j.prog = progress_start(&r);
	if (o.diff && j.store == NULL)
		failed = walk_diff(&j, &sess[0]) < 0;
	for (i = 0; i < nsess && (!o.diff || j.store != NULL); i++) {
		j.sys = sess[i].sys;
		j.image_root = sess[i].image;
		failed |= walk(&j, sess[i].paths.v, sess[i].paths.n,
		    listed.v, listed.n) < 0;
		if (o.system && j.sys != NULL)
			system_judge(j.sys);
	}
	progress_stop(j.prog);
	if (o.diff && j.store != NULL) {
		if (suite_diff(suite, &r) < 0)
			failed = 1;
	} else if (suite_say(suite, &r) < 0 || (o.suite &&
	    suite_judge(suite, &r) < 0)) {
		failed = 1;
	}
	report_unused(&r);
	if (o.proc && proc_scan(&r, o.pids, o.npids) < 0)
		failed = 1;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (r.sarif != NULL && sarif_end(r.sarif, !failed &&
	    atomic_load(&st.c[C_ERRORS]) == 0) < 0) {
		warn("the sarif log's notifications");
		failed = 1;
	}
	report_notes(&r);
	if (o.summary)
		report_summary(&r, (double)(t1.tv_sec - t0.tv_sec) +
		    (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
	if (fflush(stdout) == EOF || ferror(stdout)) {
		warn("standard output: cannot write");
		failed = 1;
	}
out:
	suite_close(suite);
	sessions_free(sess, nsess);
	debugset_free(debug);
	free_list(&all);
	free_list(&listed);
	free_list(&args);
	allow_free(&o.allow);
	require_free(o.require, o.nrequire);
	free(o.profiles);
	free(o.keyrings);
	free(o.pids);
	free(o.shape);
	if (failed || repo_failed || atomic_load(&st.c[C_ERRORS]) > 0)
		return 2;
	if (o.diff)
		return atomic_load(&st.c[C_REGRESSIONS]) > 0 ? 1 : 0;
	return atomic_load(&st.c[C_FINDINGS]) > 0 ||
	    atomic_load(&st.c[C_VERDICTS]) > 0 ||
	    atomic_load(&st.c[C_P_FINDINGS]) > 0 ? 1 : 0;
}
