/*
 * elfscan - audit a file system for executable stacks.
 */
#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <malloc.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "elfscan.h"
#include "report.h"
#include "sarif.h"
#include "system.h"
#include "xalloc.h"

static void
usage(FILE *f)
{
	fprintf(f,
"usage: elfscan [OPTIONS] [PATH...]\n"
"Audit ELF files for executable stacks: every program, shared object,\n"
"object and archive member under each PATH (recursively); without PATH,\n"
"the directories of $PATH and of the dynamic linker's search path.\n"
"\n"
"  -q, --quiet            print only the files with findings\n"
"      --format=FORMAT    text (aligned columns, the default), json\n"
"                         (JSON Lines: one object per file or member) or\n"
"                         sarif (SARIF 2.1.0, one result per finding)\n"
"  -0, --print0           print only the paths of files with findings, each\n"
"                         followed by NUL (for chstk --files-from - -0)\n"
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
"      --system           each PATH is the root of a system (\"/\", a\n"
"                         sysroot, a chroot): judge what will break there,\n"
"                         by its own glibc and libraries (the default when\n"
"                         no PATH is given)\n"
"  -L, --follow           follow symbolic links\n"
"      --all              judge every ELF file by Linux's rules, also boot\n"
"                         loader modules, firmware, debug files and the\n"
"                         like, which Linux does not run or link\n"
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
"container of it sees them.\n"
"\n"
"Exit status: 0 no findings, 1 findings, 2 an error: a bad option, or a\n"
"path, file, directory or member that could not be read (2 wins over 1).\n");
}

enum {
	OPT_FORMAT = 256, OPT_SUMMARY, OPT_ALLOW, OPT_NO_PROGRESS, OPT_RULES,
	OPT_HARDENING, OPT_REQUIRE, OPT_SYSTEM, OPT_ALL,
};

/* --require [GLOB=]PROPS, added to o. */
static int
add_require(struct opts *o, const char *arg)
{
	const char *bad;

	o->require = xrealloc(o->require, (o->nrequire + 1) *
	    sizeof(*o->require));
	if (require_parse(&o->require[o->nrequire], arg, &bad) < 0) {
		warnx("--require=%s: unknown property: %s", arg, bad);
		return -1;
	}
	o->nrequire++;
	o->hardening = true;
	return 0;
}

static int
parse(int argc, char **argv, struct opts *o)
{
	static const struct option longopts[] = {
		{ "quiet", no_argument, NULL, 'q' },
		{ "format", required_argument, NULL, OPT_FORMAT },
		{ "print0", no_argument, NULL, '0' },
		{ "summary", no_argument, NULL, OPT_SUMMARY },
		{ "allow", required_argument, NULL, OPT_ALLOW },
		{ "hardening", no_argument, NULL, OPT_HARDENING },
		{ "require", required_argument, NULL, OPT_REQUIRE },
		{ "system", no_argument, NULL, OPT_SYSTEM },
		{ "all", no_argument, NULL, OPT_ALL },
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
	char *end;
	long n;
	int c;

	memset(o, 0, sizeof(*o));
	o->jobs = cpus > 0 ? (unsigned)cpus : 1;
	o->progress = isatty(STDERR_FILENO);
	while ((c = getopt_long(argc, argv, "q0LxAj:hV", longopts, NULL)) != -1) {
		switch (c) {
		case 'q':
			o->quiet = true;
			break;
		case OPT_FORMAT:
			if (strcmp(optarg, "text") == 0)
				o->format = FORMAT_TEXT;
			else if (strcmp(optarg, "json") == 0)
				o->format = FORMAT_JSON;
			else if (strcmp(optarg, "sarif") == 0)
				o->format = FORMAT_SARIF;
			else {
				warnx("--format=%s: unknown format", optarg);
				return -1;
			}
			break;
		case '0':
			o->print0 = true;
			break;
		case OPT_SUMMARY:
			o->summary = true;
			break;
		case OPT_ALLOW:
			if (allow_load(&o->allow, optarg) < 0) {
				warn("%s: cannot read the allowlist", optarg);
				return -1;
			}
			break;
		case OPT_HARDENING:
			o->hardening = true;
			break;
		case OPT_REQUIRE:
			if (add_require(o, optarg) < 0)
				return -1;
			break;
		case OPT_ALL:
			o->all = true;
			break;
		case OPT_SYSTEM:
			o->system = true;
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
			return -1;
		}
	}
	return 0;
}

/* A root judged, or "/" whose rules judge the paths named (system.h),
   and the paths walked there. */
struct session {
	struct system *sys;
	struct pathset paths;
};

static void
add(struct pathset *p, const char *path)
{
	p->v = xrealloc(p->v, (p->n + 1) * sizeof(*p->v));
	p->v[p->n++] = xstrdup(path);
}

/* The sessions: this machine's root and its programs when no path is
   named; with --system, each path a root; else the paths, on this
   machine's root. Returns the count, or -1 when a root cannot be opened
   (said). */
static int
sessions(struct opts *o, char **arg, int n, struct report *r,
    struct session **out)
{
	struct session *s = xcalloc(n > 0 ? (size_t)n : 1, sizeof(*s));
	const char *why;
	char *real;
	int i;

	*out = s;
	if (n == 0 || !o->system) {
		o->system = o->system || n == 0;
		if ((s->sys = system_open("/", o, r, &why)) == NULL)
			warnx("/: cannot open the root: %s", why);
		else if (n == 0)
			system_paths(s->sys, getenv("PATH"), &s->paths);
		for (i = 0; i < n; i++)
			add(&s->paths, arg[i]);
		return 1;
	}
	for (i = 0; i < n; i++) {
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
	size_t k;
	int i;

	for (i = 0; i < n; i++) {
		system_close(s[i].sys);
		for (k = 0; k < s[i].paths.n; k++)
			free(s[i].paths.v[k]);
		free(s[i].paths.v);
	}
	free(s);
}

int
main(int argc, char **argv)
{
	struct opts o;
	struct stats st;
	struct report r = { .o = &o, .st = &st };
	struct judge j = { .o = &o, .r = &r, .st = &st };
	struct pathset all = { NULL, 0 };
	struct session *sess;
	struct timespec t0, t1;
	int i, nsess, failed = 0;
	size_t k;

	memset(&st, 0, sizeof(st));
#ifdef M_ARENA_MAX
	/* The workers allocate little (jobs, batches): one arena for all,
	   not one each, keeps 400 KiB of peak memory off a scan of /usr. */
	mallopt(M_ARENA_MAX, 1);
#endif
	if (parse(argc, argv, &o) < 0) {
		usage(stderr);
		allow_free(&o.allow);
		require_free(o.require, o.nrequire);
		return 2;
	}
	pthread_mutex_init(&r.lock, NULL);
	pthread_mutex_init(&r.err_lock, NULL);
	nsess = sessions(&o, argv + optind, argc - optind, &r, &sess);
	if (nsess < 0) {
		sessions_free(sess, argc - optind);
		allow_free(&o.allow);
		require_free(o.require, o.nrequire);
		return 2;
	}
	for (i = 0; i < nsess; i++)
		for (k = 0; k < sess[i].paths.n; k++)
			add(&all, sess[i].paths.v[k]);
	if (o.format == FORMAT_SARIF && !o.print0 &&
	    (r.sarif = sarif_begin(stdout, all.v, all.n)) == NULL)
		err(2, "cannot start the sarif log");
	clock_gettime(CLOCK_MONOTONIC, &t0);
	report_header(&r);
	if (o.progress)
		j.prog = progress_start(&r);
	for (i = 0; i < nsess; i++) {
		j.sys = sess[i].sys;
		failed |= walk(&j, sess[i].paths.v, sess[i].paths.n) < 0;
		if (o.system && j.sys != NULL)
			system_judge(j.sys);
	}
	progress_stop(j.prog);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (r.sarif != NULL && sarif_end(r.sarif, !failed &&
	    atomic_load(&st.c[C_ERRORS]) == 0) < 0) {
		warn("the sarif log's notifications");
		failed = 1;
	}
	if (o.summary)
		report_summary(&r, (double)(t1.tv_sec - t0.tv_sec) +
		    (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
	if (fflush(stdout) == EOF || ferror(stdout)) {
		warn("standard output: cannot write");
		failed = 1;
	}
	sessions_free(sess, nsess);
	for (k = 0; k < all.n; k++)
		free(all.v[k]);
	free(all.v);
	allow_free(&o.allow);
	require_free(o.require, o.nrequire);
	if (failed || atomic_load(&st.c[C_ERRORS]) > 0)
		return 2;
	return atomic_load(&st.c[C_FINDINGS]) > 0 ||
	    atomic_load(&st.c[C_VERDICTS]) > 0 ? 1 : 0;
}
