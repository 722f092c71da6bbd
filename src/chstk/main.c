/*
 * chstk - view and change whether ELF programs get an executable stack.
 *
 * The seed's options: -e/-E enable the exec/noexec flag, -d/-D disable
 * them, -v views; execstack's -s, -c and -q for scripts written for it.
 */
#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chstk.h"

enum action { A_NONE, A_CHANGE, A_VIEW, A_QUERY };

struct opts {
	enum action action;
	enum chstk_op op;
	bool clear_exec, clear_noexec;	/* -d and -D may come together */
	const char *files_from;
	bool null_sep;
};

static void
usage(FILE *f)
{
	fprintf(f,
"usage: chstk OPTION [--files-from LIST [-0]] FILE...\n"
"View and change whether ELF programs get an executable stack.\n"
"\n"
"  -e, -s, --set-execstack    enable the exec flag: an executable stack\n"
"  -E, -c, --clear-execstack  enable the noexec flag: a non-executable stack\n"
"  -d, --disable-exec         disable the exec flag (exec becomes default)\n"
"  -D, --disable-noexec       disable the noexec flag (noexec becomes default)\n"
"  -v, --view                 print each file's marking (each archive member's)\n"
"  -q, --query                print X (exec), - (noexec) or ? (default) and\n"
"                             the file's name, as execstack -q does\n"
"      --files-from LIST      also process the files named in LIST, one a\n"
"                             line (- reads standard input)\n"
"  -0, --null                 names in LIST end with NUL, not newline\n"
"  -h, --help                 print this help\n"
"  -V, --version              print the version\n"
"\n"
"FILE is an executable, a shared object, a relocatable object or an ar\n"
"archive of any ELF class, byte order and machine. A changed file is\n"
"rewritten beside itself and renamed into place, keeping owner, mode and\n"
"extended attributes; a file already marked as asked is not touched.\n"
"\n"
"Exit status: 0 all files succeeded, 1 a file failed, 2 usage error.\n");
}

static int
set_action(struct opts *o, enum action a, enum chstk_op op)
{
	if (o->action != A_NONE && (o->action != a || o->op != op))
		return -1;
	o->action = a;
	o->op = op;
	return 0;
}

static int
parse(int argc, char **argv, struct opts *o)
{
	static const struct option longopts[] = {
		{ "set-execstack", no_argument, NULL, 's' },
		{ "clear-execstack", no_argument, NULL, 'c' },
		{ "disable-exec", no_argument, NULL, 'd' },
		{ "disable-noexec", no_argument, NULL, 'D' },
		{ "view", no_argument, NULL, 'v' },
		{ "query", no_argument, NULL, 'q' },
		{ "files-from", required_argument, NULL, 'F' },
		{ "null", no_argument, NULL, '0' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	int c, r = 0;

	memset(o, 0, sizeof(*o));
	while (r == 0 &&
	    (c = getopt_long(argc, argv, "esEcdDvq0hV", longopts, NULL)) != -1) {
		switch (c) {
		case 'e': case 's':
			r = set_action(o, A_CHANGE, CHSTK_OP_SET_EXEC);
			break;
		case 'E': case 'c':
			r = set_action(o, A_CHANGE, CHSTK_OP_SET_NOEXEC);
			break;
		case 'd':
			o->clear_exec = true;
			break;
		case 'D':
			o->clear_noexec = true;
			break;
		case 'v':
			r = set_action(o, A_VIEW, 0);
			break;
		case 'q':
			r = set_action(o, A_QUERY, 0);
			break;
		case 'F':
			o->files_from = optarg;
			break;
		case '0':
			o->null_sep = true;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		case 'V':
			printf("chstk %s\n", chstk_version());
			exit(0);
		default:
			return -1;
		}
	}
	if (r == 0 && (o->clear_exec || o->clear_noexec))
		r = set_action(o, A_CHANGE, o->clear_exec && o->clear_noexec ?
		    CHSTK_OP_SET_DEFAULT : o->clear_exec ?
		    CHSTK_OP_CLEAR_EXEC : CHSTK_OP_CLEAR_NOEXEC);
	if (r < 0)
		warnx("give one of -e, -E, -d, -D, -v or -q");
	else if (o->action == A_NONE)
		warnx("no option: give one of -e, -E, -d, -D, -v or -q");
	else if (optind == argc && o->files_from == NULL)
		warnx("no file given");
	else
		return 0;
	return -1;
}

/* What -v and -q print: one line per image, or one for the file. */
struct view {
	const char *path;
	enum action action;
	int rank;	/* -q: the worst state seen: 0 none, 1 -, 2 ?, 3 X */
};

static int
view_image(void *arg, const char *member, const struct chstk_info *info,
    const struct chstk_error *e)
{
	struct view *v = arg;
	static const int rank[] = {
		[CHSTK_DEFAULT] = 2, [CHSTK_EXEC] = 3, [CHSTK_NOEXEC] = 1,
	};

	if (info == NULL) {
		warnx("%s(%s): %s", v->path, member, e->msg);
		return 0;
	}
	if (v->action == A_QUERY) {
		if (rank[info->state] > v->rank)
			v->rank = rank[info->state];
	} else if (member != NULL) {
		printf("%s(%s): %s\n", v->path, member,
		    chstk_state_name(info->state));
	} else {
		printf("%s: %s\n", v->path, chstk_state_name(info->state));
	}
	return 0;
}

static int
do_file(const struct opts *o, const char *path)
{
	struct chstk_error e;
	struct chstk_result res;
	struct view v = { .path = path, .action = o->action };

	if (o->action == A_CHANGE) {
		if (chstk_update(path, o->op, &res, &e) < 0) {
			warnx("%s: %s", path, e.msg);
			return 1;
		}
		if (res.written && res.links == 2)
			warnx("%s: note: its other hard link keeps the old contents",
			    path);
		else if (res.written && res.links > 2)
			warnx("%s: note: its %lu other hard links keep the old contents",
			    path, res.links - 1);
		return 0;
	}
	if (chstk_scan_path(path, view_image, &v, &e) < 0) {
		warnx("%s: %s", path, e.msg);
		return 1;
	}
	if (o->action == A_QUERY)
		printf("%c %s\n", "?-?X"[v.rank], path);
	return 0;
}

static int
do_list(const struct opts *o)
{
	FILE *f = strcmp(o->files_from, "-") == 0 ? stdin :
	    fopen(o->files_from, "r");
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int failed = 0;

	if (f == NULL) {
		warn("%s: cannot open", o->files_from);
		return 2;
	}
	while ((len = getdelim(&line, &cap, o->null_sep ? '\0' : '\n', f)) > 0) {
		if (line[len - 1] == (o->null_sep ? '\0' : '\n'))
			line[--len] = '\0';
		if (len > 0)
			failed |= do_file(o, line);
	}
	if (ferror(f)) {
		warn("%s: cannot read", o->files_from);
		failed = 2;
	}
	free(line);
	if (f != stdin)
		fclose(f);
	return failed;
}

int
main(int argc, char **argv)
{
	struct opts o;
	int i, status = 0;

	/* Past a file size limit (ulimit -f) a write then fails with EFBIG,
	   and the temporary file is removed, instead of chstk being killed
	   and leaving a named one behind. */
	signal(SIGXFSZ, SIG_IGN);
	/* Every message names the program as its manual does (getopt's by
	   argv[0]), not as libtool runs it in the build tree (.libs/chstk). */
	program_invocation_name = program_invocation_short_name =
	    (char *)"chstk";
	argv[0] = program_invocation_name;
	if (parse(argc, argv, &o) < 0) {
		fputs("Try 'chstk --help' for more information.\n", stderr);
		return 2;
	}
	for (i = optind; i < argc; i++)
		status |= do_file(&o, argv[i]);
	if (o.files_from != NULL) {
		int r = do_list(&o);

		status = r > status ? r : status;
	}
	if (fflush(stdout) == EOF || ferror(stdout)) {
		warn("standard output: cannot write");
		return 2;
	}
	return status;
}
