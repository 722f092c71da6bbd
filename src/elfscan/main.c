/*
 * elfscan - audit a file system for executable stacks.
 */
#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <glob.h>
#include <malloc.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "elfscan.h"
#include "report.h"
#include "sarif.h"
#include "xalloc.h"

static void
usage(FILE *f)
{
	fprintf(f,
"usage: elfscan [OPTIONS] [PATH...] [--files-from LIST]\n"
"Audit ELF files for executable stacks: every program, shared object,\n"
"object and archive member under each PATH (recursively); without PATH,\n"
"the directories of $PATH and of the dynamic linker's search path.\n"
"\n"
"  -q, --quiet            print only the files with findings\n"
"      --format=FORMAT    text (aligned columns, then what each kind of\n"
"                         finding met means and how to fix it; the\n"
"                         default), json (JSON Lines: one object per file\n"
"                         or member) or sarif (SARIF 2.1.0, one log)\n"
"      --no-header        text: print the records only, without the column\n"
"                         header and the notes on the findings\n"
"  -0, --print0           print only the paths of files with findings, each\n"
"                         followed by NUL (for chstk --files-from - -0);\n"
"                         with --files-from, LIST is NUL-separated too\n"
"      --files-from LIST  also scan the files named in LIST, one a line\n"
"                         (- reads standard input); its directories and\n"
"                         the files in it that are not ELF are passed over\n"
"      --null             names in LIST end with NUL, not newline\n"
"      --summary          print counts at the end\n"
"      --allow FILE       glob patterns, one a line, of paths allowed an\n"
"                         executable stack\n"
"      --hardening        also report RELRO, PIE, canary, FORTIFY_SOURCE,\n"
"                         RPATH/RUNPATH, IBT/SHSTK, BTI/PAC, symbols\n"
"      --require [GLOB=]PROPS\n"
"                         a finding where one of PROPS (pie, relro, canary,\n"
"                         fortify, rpath, ibt, shstk, bti, pac, stripped) is\n"
"                         missing, in paths matching GLOB (default: all);\n"
"                         implies --hardening\n"
"  -L, --follow           follow symbolic links\n"
"  -x, --one-file-system  stay on the file system of each PATH\n"
"  -A, --archives         also look into the packages, wheels, tarballs and\n"
"                         images met in directories (those named are always)\n"
"  -j, --jobs N           worker threads (default: the online CPUs)\n"
"      --no-progress      no progress line on a terminal\n"
"      --rules            print the table of default stack rules\n"
"  -h, --help             print this help\n"
"  -V, --version          print the version\n"
"\n"
"Members of .deb, .rpm, zip (.whl, .jar, .apk), tar and cpio files, plain\n"
"or compressed, are shown as FILE!MEMBER; the files of a container image\n"
"(an OCI layout or archive, a docker save tarball) as IMAGE!/PATH, as a\n"
"container of it sees them. A file named twice by one real path, or named\n"
"and met in a directory named, is scanned once.\n"
"\n"
"Exit status: 0 no findings, 1 findings, 2 an error: a bad option, a PATH\n"
"that is not ELF, an archive, a package or an image, or a path, file,\n"
"directory or member that could not be read (2 wins over 1).\n");
}

enum {
	OPT_FORMAT = 256, OPT_SUMMARY, OPT_ALLOW, OPT_NO_PROGRESS, OPT_RULES,
	OPT_HARDENING, OPT_REQUIRE,
	OPT_NO_HEADER, OPT_FILES_FROM, OPT_NULL,
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
	o->nrequire++;
	o->hardening = true;
	return 0;
}

/*
 * The options into o. Returns 0; -1 after a usage error, said in one
 * line; -2 after another (an --allow file that cannot be read).
 */
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
		{ "hardening", no_argument, NULL, OPT_HARDENING },
		{ "require", required_argument, NULL, OPT_REQUIRE },
		{ "follow", no_argument, NULL, 'L' },
		{ "one-file-system", no_argument, NULL, 'x' },
		{ "archives", no_argument, NULL, 'A' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "no-progress", no_argument, NULL, OPT_NO_PROGRESS },
		{ "rules", no_argument, NULL, OPT_RULES },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	bool format = false;
	char *end;
	long n;
	int c;

	memset(o, 0, sizeof(*o));
	o->jobs = cpus > 0 ? (unsigned)cpus : 1;
	o->progress = isatty(STDERR_FILENO);
	while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
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
		case OPT_HARDENING:
			o->hardening = true;
			break;
		case OPT_REQUIRE:
			if (add_require(o, optarg) < 0)
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
		case 'j':
			errno = 0;
			n = strtol(optarg, &end, 10);
			if (errno || *end != '\0' || n < 1 || n > 1024) {
				warnx("--jobs=%s: not a number from 1 to 1024", optarg);
				return -1;
			}
			o->jobs = (unsigned)n;
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
			printf("elfscan %s\n", chstk_version());
			exit(0);
		default:
			bad_option(c, argv, longopts);
			return -1;
		}
	}
	if (o->print0 && format) {
		warnx("-0 and --format cannot be used together: -0 prints only paths");
		return -1;
	}
	if (o->null && o->files_from == NULL) {
		warnx("--null: there is no --files-from LIST to read");
		return -1;
	}
	if (o->print0 && o->files_from != NULL)
		o->null = true;
	return 0;
}

/* A list of paths that grows. */
struct list {
	char **v;
	size_t n;
};

static void
add(struct list *l, const char *path)
{
	l->v = xrealloc(l->v, (l->n + 1) * sizeof(*l->v));
	l->v[l->n++] = xstrdup(path);
}

/*
 * The names in --files-from LIST, one a line or NUL-terminated, as chstk
 * reads them: empty names are skipped, the last one needs no terminator.
 * Returns 0, or -1 when the list cannot be read (said).
 */
static int
add_list(struct list *l, const char *list, bool null)
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

/* A default root, by its real name (so /lib is /usr/lib where /usr is
   merged), once. */
static void
add_real(struct list *l, const char *path)
{
	char *real = realpath(path, NULL);
	size_t i;

	if (real == NULL)
		return;
	for (i = 0; i < l->n && strcmp(l->v[i], real) != 0; i++)
		;
	if (i == l->n)
		add(l, real);
	free(real);
}

/* The directories of /etc/ld.so.conf and the files it includes. */
static void
add_ld_conf(struct list *l, const char *file, int depth)
{
	FILE *f = fopen(file, "r");
	char *line = NULL, *p, *q;
	size_t cap = 0, i;
	glob_t g;

	if (f == NULL || depth > 8) {
		if (f != NULL)
			fclose(f);
		return;
	}
	while (getline(&line, &cap, f) > 0) {
		line[strcspn(line, "#\n")] = '\0';
		for (p = line; *p == ' ' || *p == '\t'; p++)
			;
		if (strncmp(p, "include", 7) == 0 && (p[7] == ' ' ||
		    p[7] == '\t')) {
			for (p += 8; *p == ' ' || *p == '\t'; p++)
				;
			if (glob(p, 0, NULL, &g) == 0) {
				for (i = 0; i < g.gl_pathc; i++)
					add_ld_conf(l, g.gl_pathv[i], depth + 1);
				globfree(&g);
			}
			continue;
		}
		for (q = p + strlen(p); q > p && (q[-1] == ' ' || q[-1] == '\t');)
			*--q = '\0';
		if (*p == '/')
			add_real(l, p);
	}
	free(line);
	fclose(f);
}

/* With no PATH: $PATH, the linker's configured and built-in directories;
   missing ones are no error of the user's. */
static void
default_roots(struct list *l)
{
	static const char *const builtin[] = {
		"/lib", "/usr/lib", "/lib64", "/usr/lib64", "/lib32",
		"/usr/lib32", "/libx32", "/usr/libx32", "/usr/local/lib",
	};
	const char *path = getenv("PATH");
	char *copy, *dir, *save = NULL;
	size_t i;

	if (path != NULL && (copy = strdup(path)) != NULL) {
		for (dir = strtok_r(copy, ":", &save); dir != NULL;
		    dir = strtok_r(NULL, ":", &save))
			if (dir[0] == '/')
				add_real(l, dir);
		free(copy);
	}
	add_ld_conf(l, "/etc/ld.so.conf", 0);
	for (i = 0; i < sizeof(builtin) / sizeof(builtin[0]); i++)
		add_real(l, builtin[i]);
}

static void
free_list(struct list *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
}

/* The SARIF log's bases: the arguments, and the current directory (an
   empty path) for the names of a list, which are relative to it. The log
   keeps the strings, not the array. */
static struct sarif *
start_sarif(const struct list *args, bool listed)
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
	struct list args = { NULL, 0 }, listed = { NULL, 0 };
	struct timespec t0, t1;
	int i, failed;

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
	for (i = optind; i < argc; i++)
		add(&args, argv[i]);
	if (args.n == 0 && o.files_from == NULL)
		default_roots(&args);
	pthread_mutex_init(&r.lock, NULL);
	pthread_mutex_init(&r.err_lock, NULL);
	if (o.format == FORMAT_SARIF && !o.print0)
		r.sarif = start_sarif(&args, o.files_from != NULL);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	report_header(&r);
	if (o.progress)
		j.prog = progress_start(&r);
	failed = walk(&j, args.v, args.n, listed.v, listed.n) < 0;
	progress_stop(j.prog);
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
	free_list(&args);
	free_list(&listed);
	allow_free(&o.allow);
	require_free(o.require, o.nrequire);
	if (failed || atomic_load(&st.c[C_ERRORS]) > 0)
		return 2;
	return atomic_load(&st.c[C_FINDINGS]) > 0 ? 1 : 0;
}
