/*
 * units.c - the root's systemd, read from its files as systemd reads them
 * (see system.h): its version, and each service it can load with its
 * commands, its MemoryDenyWriteExecute= and the two variables of its
 * environment the verdicts need (GLIBC_TUNABLES, LD_LIBRARY_PATH). After
 * systemd v252 (Debian 12) and v257 (Debian 13), which agree on all of it:
 *
 *   the search path   the system manager's unit directories, highest
 *                     priority first (src/basic/path-lookup.c,
 *                     lookup_paths_init); the first entry of a name wins,
 *                     whole; a link to /dev/null, or an empty file, masks
 *                     the name; a link to a file of the path under another
 *                     name is an alias of that name, one to elsewhere a
 *                     linked unit file (src/basic/unit-file.c,
 *                     unit_file_build_name_map, unit_file_resolve_symlink)
 *   drop-ins          NAME.d/ *.conf for every name of the unit, the
 *                     template of an instance, each dash prefix
 *                     ("foo-bar-.service.d", "foo-.service.d"), then the
 *                     type's "service.d", in every directory of the path:
 *                     one list sorted by file name, a name in an earlier
 *                     directory hiding the same name in a later one;
 *                     parsed after the unit file (src/shared/dropin.c)
 *   the syntax        src/shared/conf-parser.c (config_parse, parse_line):
 *                     lines joined by a trailing backslash, "#" and ";"
 *                     comments, [Section] headers; a line without "=" or
 *                     outside a section ignored; a bad section header, a
 *                     line over 1 MiB or that is not UTF-8 makes the whole
 *                     unit fail to load
 *   the settings      src/core/load-fragment.c: config_parse_exec (the
 *                     prefixes "@-:+!", ";" between commands; an empty
 *                     value empties the list), config_parse_environ and
 *                     config_parse_unit_env_file (the same), the words as
 *                     extract_first_word() takes them (src/basic/
 *                     extract-word.c), parse_boolean (src/basic/
 *                     parse-util.c: 1 yes y true t on, 0 no n false f
 *                     off, any case; anything else ignored)
 *   the environment   DefaultEnvironment= of system.conf and its drop-ins
 *                     (src/core/main.c), below Environment=, below the
 *                     files of EnvironmentFile= (src/basic/env-file.c),
 *                     then UnsetEnvironment= (systemd.exec(5))
 *   the program       absolute, or a name looked for in the fixed path of
 *                     a split /usr (src/basic/path-util.h DEFAULT_PATH)
 *   the version       the number in libsystemd-shared-NNN.so, which the
 *                     manager (/lib/systemd/systemd) needs
 *
 * What is wrong in a file is said, as systemd would log it, and the rest
 * goes on: a line systemd ignores is ignored here, a unit systemd refuses
 * to load, or would not start, is not judged.
 */
#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "system.h"
#include "xalloc.h"

/* The system manager's unit path, v252 built for a split /usr (Debian 12:
   /lib before /usr/lib); v257 reads /usr/lib only, which a merged /usr
   makes the same directory. */
static const char *const unit_dirs[] = {
	"/etc/systemd/system.control", "/run/systemd/system.control",
	"/run/systemd/transient", "/run/systemd/generator.early",
	"/etc/systemd/system", "/etc/systemd/system.attached",
	"/run/systemd/system", "/run/systemd/system.attached",
	"/run/systemd/generator", "/usr/local/lib/systemd/system",
	"/lib/systemd/system", "/usr/lib/systemd/system",
	"/run/systemd/generator.late",
};
/* system.conf: the first found (v257; v252 reads /etc's only), then the
   drop-ins of every directory (src/shared/conf-parser.c,
   config_parse_config_file). */
static const char *const conf_dirs[] = {
	"/etc/systemd", "/run/systemd", "/usr/local/lib/systemd",
	"/usr/lib/systemd",
};
/* Where a command's program without a slash is looked for. */
static const char *const exec_path[] = {
	"/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin",
	"/bin",
};
/* The manager, which needs libsystemd-shared-NNN.so. */
static const char *const managers[] = {
	"/usr/lib/systemd/systemd", "/lib/systemd/systemd",
};
/* The commands of a service, each under MemoryDenyWriteExecute= unless
   "+" (src/core/load-fragment-gperf.gperf.in). */
static const char *const exec_settings[] = {
	"ExecCondition", "ExecStartPre", "ExecStart", "ExecStartPost",
	"ExecReload", "ExecStop", "ExecStopPost",
};
static const char *const var_names[SVC_NVARS] = {
	"GLIBC_TUNABLES", "LD_LIBRARY_PATH",
};

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))
#define LONG_LINE_MAX (1u << 20)	/* conf-parser.c */
#define FOLLOW_MAX 64			/* alias hops, unit-file.c */

/* A name of the search path, as its first entry there has it. */
enum entry_kind { E_FILE, E_ALIAS, E_MASKED };
struct entry {
	char *name;
	enum entry_kind kind;
	char *path;		/* the entry, in the root: what to open */
	char *alias;		/* E_ALIAS: the name it stands for */
};

struct ctx {
	const struct rootfs *fs;
	bool packages;		/* fs holds what packages ship, no more */
	units_say *say;
	void *arg;
	char **dir, **real;	/* the search path, as found in the root */
	size_t ndir;
	struct entry *e;
	size_t ne;
	struct svc_var defenv[SVC_NVARS];	/* DefaultEnvironment= */
};

/* An EnvironmentFile= entry. */
struct envfile {
	char *path;
	bool ignore;		/* "-": a missing file is fine */
};

/* A service as its files are parsed. */
struct build {
	struct ctx *c;
	const char *name;
	const char *file;	/* the file being parsed */
	unsigned line;
	bool manager;		/* system.conf: [Manager] */
	bool in;		/* in the section that matters */
	bool failed;		/* systemd does not load the unit */
	int mdwe;		/* -1 unset */
	struct command *cmd;
	size_t ncmd;
	struct svc_var env[SVC_NVARS];	/* Environment= */
	struct envfile *ef;
	size_t nef;
	char **unset;
	size_t nunset;
	char *rootdir;		/* RootDirectory= or RootImage= */
};

static void
say(struct ctx *c, const char *path, unsigned line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void
say(struct ctx *c, const char *path, unsigned line, const char *fmt, ...)
{
	char msg[1024], where[4200];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (line > 0)
		snprintf(where, sizeof(where), "%s:%u", path, line);
	else
		snprintf(where, sizeof(where), "%s", path);
	c->say(c->arg, where, msg);
}

static void
var_set(struct svc_var *v, const char *value, size_t len, const char *from)
{
	free(v->value);
	free(v->from);
	v->value = xmalloc(len + 1);
	memcpy(v->value, value, len);
	v->value[len] = '\0';
	v->from = xstrdup(from);
}

static void
var_clear(struct svc_var *v)
{
	free(v->value);
	free(v->from);
	v->value = v->from = NULL;
}

/* ---- Names ---- */

/* A valid unit name of a service (src/basic/unit-name.c): the allowed
   characters, one "@" at most, ".service" at the end. */
static bool
service_name(const char *s)
{
	size_t len = strlen(s);
	const char *at = strchr(s, '@');

	if (len < 9 || len > 255 || strcmp(s + len - 8, ".service") != 0 ||
	    (at != NULL && strchr(at + 1, '@') != NULL) || s[0] == '@')
		return false;
	return strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	    "0123456789:-_.\\@") == len;
}

/* The template of an instance name ("foo@.service"), or NULL. */
static char *
template_of(const char *name)
{
	const char *at = strchr(name, '@'), *dot = strrchr(name, '.');
	char *t;

	if (at == NULL || at + 1 == dot)
		return NULL;
	if (asprintf(&t, "%.*s%s", (int)(at - name + 1), name, dot) < 0)
		oom();
	return t;
}

static int
hex(char ch)
{
	return ch >= '0' && ch <= '9' ? ch - '0' : ch >= 'a' && ch <= 'f' ?
	    ch - 'a' + 10 : ch >= 'A' && ch <= 'F' ? ch - 'A' + 10 : -1;
}

/* A unit name unescaped as a path (unit_name_path_unescape): "-" is "/",
   "\xNN" a byte. */
static void
unescape_name(struct buf *b, const char *s, size_t len)
{
	unsigned v;
	size_t i;

	for (i = 0; i < len; i++)
		if (s[i] == '-')
			buf_add(b, "/", 1);
		else if (s[i] == '\\' && i + 3 < len && s[i + 1] == 'x' &&
		    hex(s[i + 2]) >= 0 && hex(s[i + 3]) >= 0) {
			v = (unsigned)(hex(s[i + 2]) << 4 | hex(s[i + 3]));
			buf_add(b, (char[]){ (char)v }, 1);
			i += 3;
		} else
			buf_add(b, s + i, 1);
}

/*
 * The specifiers of a unit's settings (systemd.unit(5), "Specifiers"),
 * those a root's files can tell: the unit's name and its parts, and the
 * system manager's fixed directories. Into b; false, with *bad the
 * specifier, when one cannot be told (the host name, the instance of a
 * template, ...).
 */
static bool
specifiers(const char *unit, const char *s, struct buf *b, char *bad)
{
	const char *at = strchr(unit, '@'), *dot = strrchr(unit, '.');
	const char *pend = at != NULL ? at : dot, *inst = at ? at + 1 : NULL;
	size_t ilen = inst != NULL ? (size_t)(dot - inst) : 0;
	bool template = at != NULL && ilen == 0;

	for (; *s != '\0'; s++) {
		if (*s != '%') {
			buf_add(b, s, 1);
			continue;
		}
		switch (*++s) {
		case '%': buf_add(b, "%", 1); break;
		case 'n': buf_puts(b, unit); break;
		case 'N': buf_add(b, unit, (size_t)(dot - unit)); break;
		case 'p': buf_add(b, unit, (size_t)(pend - unit)); break;
		case 'P': unescape_name(b, unit, (size_t)(pend - unit)); break;
		case 'i':
		case 'I':
		case 'f':
			/* A template's instance is not known. */
			if (template) {
				*bad = *s;
				return false;
			}
			if (*s == 'f')
				buf_add(b, "/", 1);
			if (*s == 'i' && ilen > 0)
				buf_add(b, inst, ilen);
			else if (ilen > 0)
				unescape_name(b, inst, ilen);
			else
				unescape_name(b, unit, (size_t)(pend - unit));
			break;
		case 'E': buf_puts(b, "/etc"); break;
		case 'S': buf_puts(b, "/var/lib"); break;
		case 'C': buf_puts(b, "/var/cache"); break;
		case 'L': buf_puts(b, "/var/log"); break;
		case 't': buf_puts(b, "/run"); break;
		case 'T': buf_puts(b, "/tmp"); break;
		case 'V': buf_puts(b, "/var/tmp"); break;
		case 'h': buf_puts(b, "/root"); break;
		default:
			*bad = *s != '\0' ? *s : '%';
			return false;
		}
	}
	return true;
}

/* ---- Words ---- */

static void
utf8(struct buf *b, uint32_t u)
{
	char o[4];
	size_t n;

	if (u < 0x80) {
		o[0] = (char)u;
		n = 1;
	} else if (u < 0x800) {
		o[0] = (char)(0xc0 | u >> 6);
		o[1] = (char)(0x80 | (u & 0x3f));
		n = 2;
	} else if (u < 0x10000) {
		o[0] = (char)(0xe0 | u >> 12);
		o[1] = (char)(0x80 | (u >> 6 & 0x3f));
		o[2] = (char)(0x80 | (u & 0x3f));
		n = 3;
	} else {
		o[0] = (char)(0xf0 | u >> 18);
		o[1] = (char)(0x80 | (u >> 12 & 0x3f));
		o[2] = (char)(0x80 | (u >> 6 & 0x3f));
		o[3] = (char)(0x80 | (u & 0x3f));
		n = 4;
	}
	buf_add(b, o, n);
}

/* The escape after a backslash at p, as cunescape_one() takes it (src/
   basic/escape.c): into b; the characters it takes, or -1. */
static int
unescape(const char *p, struct buf *b)
{
	static const char simple[] = "a\ab\bf\fn\nr\rt\tv\v\\\\\"\"''s ";
	const char *q = *p != '\0' ? strchr(simple, *p) : NULL;
	uint32_t u = 0;
	int i, n, d;

	if (q != NULL && (q - simple) % 2 == 0) {
		buf_add(b, q + 1, 1);
		return 1;
	}
	if (*p >= '0' && *p <= '7') {
		for (i = 0; i < 3; i++) {
			if (p[i] < '0' || p[i] > '7')
				return -1;
			u = u << 3 | (uint32_t)(p[i] - '0');
		}
		if (u == 0 || u > 255)
			return -1;
		buf_add(b, (char[]){ (char)u }, 1);
		return 3;
	}
	n = *p == 'x' ? 2 : *p == 'u' ? 4 : *p == 'U' ? 8 : 0;
	if (n == 0)
		return -1;
	for (i = 1; i <= n; i++) {
		if ((d = hex(p[i])) < 0)
			return -1;
		u = u << 4 | (uint32_t)d;
	}
	if (u == 0 || u > 0x10ffff)
		return -1;
	if (n == 2)
		buf_add(b, (char[]){ (char)u }, 1);
	else
		utf8(b, u);
	return n + 1;
}

/*
 * The next word of a setting at *pp, as extract_first_word() takes it with
 * EXTRACT_UNQUOTE and EXTRACT_CUNESCAPE: blanks between words, quotes
 * grouping, backslash escapes as in C, inside quotes too. 1 with the word
 * in b (emptied first), 0 at the end, -1 on bad syntax: an unbalanced
 * quote, an unknown escape.
 */
static int
word(const char **pp, struct buf *b)
{
	const char *p = *pp + strspn(*pp, " \t\n\r");
	char quote = 0;
	int n;

	b->len = 0;
	b->p[0] = '\0';
	if (*p == '\0') {
		*pp = p;
		return 0;
	}
	for (; *p != '\0'; p++) {
		if (*p == '\\') {
			if ((n = unescape(p + 1, b)) < 0)
				return -1;
			p += n;
		} else if (quote != 0 && *p == quote) {
			quote = 0;
		} else if (quote == 0 && (*p == '\'' || *p == '"')) {
			quote = *p;
		} else if (quote == 0 && strchr(" \t\n\r", *p) != NULL) {
			break;
		} else {
			buf_add(b, p, 1);
		}
	}
	if (quote != 0)
		return -1;
	*pp = p;
	return 1;
}

/* ---- The settings ---- */

static int
parse_boolean(const char *v)
{
	static const char *const yes[] = { "1", "yes", "y", "true", "t", "on" };
	static const char *const no[] = { "0", "no", "n", "false", "f", "off" };
	size_t i;

	for (i = 0; i < NELEM(yes); i++) {
		if (strcasecmp(v, yes[i]) == 0)
			return 1;
		if (strcasecmp(v, no[i]) == 0)
			return 0;
	}
	return -1;
}

/* An environment variable's name (src/basic/env-util.c
   env_name_is_valid_n: letters, digits and "_", not a digit first). */
static bool
env_name(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (!(s[i] == '_' || (s[i] >= 'a' && s[i] <= 'z') ||
		    (s[i] >= 'A' && s[i] <= 'Z') || (i > 0 && s[i] >= '0' &&
		    s[i] <= '9')))
			return false;
	return len > 0;
}

/* "NAME=VALUE" into vars, when NAME is one of the verdicts'. */
static void
assign(struct svc_var *vars, const char *a, const char *from)
{
	const char *eq = strchr(a, '=');
	size_t i;

	for (i = 0; eq != NULL && i < SVC_NVARS; i++)
		if ((size_t)(eq - a) == strlen(var_names[i]) &&
		    strncmp(a, var_names[i], (size_t)(eq - a)) == 0)
			var_set(&vars[i], eq + 1, strlen(eq + 1), from);
}

/* Environment=, DefaultEnvironment=: assignments, an empty value
   emptying the list. */
static void
set_environ(struct build *bd, struct svc_var *vars, const char *v)
{
	char space[256], bad;
	struct buf w, x;
	size_t i;
	int r;

	if (*v == '\0') {
		for (i = 0; i < SVC_NVARS; i++)
			var_clear(&vars[i]);
		return;
	}
	BUF_INIT(w, space);
	while ((r = word(&v, &w)) > 0) {
		char xspace[256];

		BUF_INIT(x, xspace);
		if (!specifiers(bd->name, w.p, &x, &bad))
			say(bd->c, bd->file, bd->line, "%%%c in an assignment: not known from the root's files, ignored", bad);
		else if (strchr(x.p, '=') == NULL ||
		    !env_name(x.p, (size_t)(strchr(x.p, '=') - x.p)) ||
		    !utf8_valid((unsigned char *)x.p, x.len))
			say(bd->c, bd->file, bd->line, "not an environment assignment, ignored as systemd ignores it");
		else
			assign(vars, x.p, bd->file);
		buf_free(&x);
	}
	if (r < 0)
		say(bd->c, bd->file, bd->line, "an unbalanced quote or unknown escape: systemd ignores the line");
	buf_free(&w);
}

static void
set_env_file(struct build *bd, const char *v)
{
	char space[256], bad;
	struct buf x;
	size_t i;
	bool ignore;

	if (*v == '\0') {
		for (i = 0; i < bd->nef; i++)
			free(bd->ef[i].path);
		bd->nef = 0;
		return;
	}
	BUF_INIT(x, space);
	if (!specifiers(bd->name, v, &x, &bad)) {
		say(bd->c, bd->file, bd->line, "%%%c in EnvironmentFile=: not known from the root's files, ignored", bad);
	} else if (ignore = x.p[0] == '-', x.p[ignore] != '/') {
		say(bd->c, bd->file, bd->line, "EnvironmentFile=%s: not an absolute path, ignored as systemd ignores it", x.p);
	} else {
		bd->ef = xrealloc(bd->ef, (bd->nef + 1) * sizeof(*bd->ef));
		bd->ef[bd->nef].path = xstrdup(x.p + ignore);
		bd->ef[bd->nef++].ignore = ignore;
	}
	buf_free(&x);
}

static void
set_unset(struct build *bd, const char *v)
{
	char space[256];
	struct buf w;
	size_t i;

	if (*v == '\0') {
		for (i = 0; i < bd->nunset; i++)
			free(bd->unset[i]);
		bd->nunset = 0;
		return;
	}
	BUF_INIT(w, space);
	while (word(&v, &w) > 0) {
		bd->unset = xrealloc(bd->unset, (bd->nunset + 1) *
		    sizeof(*bd->unset));
		bd->unset[bd->nunset++] = xstrdup(w.p);
	}
	buf_free(&w);
}

/* Drop the commands of setting (an empty assignment). */
static void
reset_commands(struct build *bd, const char *setting)
{
	size_t i, k = 0;

	for (i = 0; i < bd->ncmd; i++)
		if (bd->cmd[i].setting == setting)
			free(bd->cmd[i].path);
		else
			bd->cmd[k++] = bd->cmd[i];
	bd->ncmd = k;
}

/* One command's first word: its prefixes, then its program. Returns the
   program's word (after the prefixes) and sets *flags, *argv0. */
static const char *
prefixes(const char *f, unsigned *flags, bool *argv0)
{
	bool colon = false, bang = false, bang2 = false;

	*flags = 0;
	*argv0 = false;
	for (;; f++) {
		if (*f == '-' && !(*flags & CMD_IGNORE))
			*flags |= CMD_IGNORE;
		else if (*f == '@' && !*argv0)
			*argv0 = true;
		else if (*f == ':' && !colon)
			colon = true;
		else if (*f == '+' && !(*flags & CMD_FULL) && !bang && !bang2)
			*flags |= CMD_FULL;
		else if (*f == '!' && !(*flags & CMD_FULL) && !bang && !bang2)
			bang = true;
		else if (*f == '!' && !(*flags & CMD_FULL) && !bang2)
			bang = false, bang2 = true;
		else
			return f;
	}
}

/* The rest of a command, up to a lone ";" (another command follows) or
   the end. -1 on bad syntax. */
static int
arguments(const char **pp, struct buf *w, size_t *nargs, bool *more)
{
	const char *p = *pp;
	int r;

	*more = false;
	*nargs = 0;
	for (;;) {
		p += strspn(p, " \t\n\r");
		if (p[0] == ';' && (p[1] == '\0' || strchr(" \t\n\r", p[1]))) {
			*more = true;
			p++;
			break;
		}
		if (p[0] == '\\' && p[1] == ';' && (p[2] == '\0' ||
		    strchr(" \t\n\r", p[2]))) {
			p += 2;
			(*nargs)++;
			continue;
		}
		if ((r = word(&p, w)) < 0)
			return -1;
		if (r == 0)
			break;
		(*nargs)++;
	}
	*pp = p;
	return 0;
}

/* ExecStart= and the others (config_parse_exec): a bad command makes the
   unit fail to load unless "-" says to ignore it. */
static void
set_exec(struct build *bd, const char *setting, const char *v)
{
	char space[512], pspace[512], bad;
	struct buf w, path;
	const char *f;
	unsigned flags;
	size_t nargs;
	bool argv0, more = true;
	int r;

	if (*v == '\0') {
		reset_commands(bd, setting);
		return;
	}
	BUF_INIT(w, space);
	BUF_INIT(path, pspace);
	while (more && !bd->failed) {
		if ((r = word(&v, &w)) <= 0) {
			if (r < 0)
				goto bad;
			break;
		}
		if (strcmp(w.p, ";") == 0)
			continue;
		f = prefixes(w.p, &flags, &argv0);
		path.len = 0;
		if (!specifiers(bd->name, f, &path, &bad)) {
			say(bd->c, bd->file, bd->line, "%s=: %%%c in the program's path: not known from the root's files, the command is not judged", setting, bad);
			path.len = 0;
		} else if (path.len == 0 || path.p[path.len - 1] == '/' ||
		    (path.p[0] != '/' && strchr(path.p, '/') != NULL)) {
			if (!(flags & CMD_IGNORE))
				goto bad;
			path.len = 0;
		}
		if (arguments(&v, &w, &nargs, &more) < 0 ||
		    (argv0 && nargs == 0)) {
			if (!(flags & CMD_IGNORE))
				goto bad;
			break;
		}
		if (path.len == 0)
			continue;
		bd->cmd = xrealloc(bd->cmd, (bd->ncmd + 1) * sizeof(*bd->cmd));
		bd->cmd[bd->ncmd].setting = setting;
		bd->cmd[bd->ncmd].path = xstrdup(path.p);
		bd->cmd[bd->ncmd++].flags = flags;
	}
	buf_free(&w);
	buf_free(&path);
	return;
bad:
	say(bd->c, bd->file, bd->line, "%s=: not a command systemd can run: it does not load the unit", setting);
	bd->failed = true;
	buf_free(&w);
	buf_free(&path);
}

/* One assignment of the section that matters. */
static void
setting(struct build *bd, const char *key, const char *v)
{
	size_t i;
	int yes;

	if (bd->manager) {
		if (strcmp(key, "DefaultEnvironment") == 0)
			set_environ(bd, bd->c->defenv, v);
		return;
	}
	for (i = 0; i < NELEM(exec_settings); i++)
		if (strcmp(key, exec_settings[i]) == 0) {
			set_exec(bd, exec_settings[i], v);
			return;
		}
	if (strcmp(key, "MemoryDenyWriteExecute") == 0) {
		if ((yes = parse_boolean(v)) < 0)
			say(bd->c, bd->file, bd->line, "MemoryDenyWriteExecute=%s: not a boolean, ignored as systemd ignores it", v);
		else
			bd->mdwe = yes;
	} else if (strcmp(key, "Environment") == 0) {
		set_environ(bd, bd->env, v);
	} else if (strcmp(key, "EnvironmentFile") == 0) {
		set_env_file(bd, v);
	} else if (strcmp(key, "UnsetEnvironment") == 0) {
		set_unset(bd, v);
	} else if (strcmp(key, "RootDirectory") == 0 ||
	    strcmp(key, "RootImage") == 0) {
		free(bd->rootdir);
		bd->rootdir = *v != '\0' ? xstrdup(v) : NULL;
	}
}

/* ---- The syntax ---- */

static char *
strip(char *s)
{
	char *e;

	s += strspn(s, " \t\n\r");
	for (e = s + strlen(s); e > s && strchr(" \t\n\r", e[-1]); )
		*--e = '\0';
	return s;
}

/* A section header's name: no control character, quote or backslash
   (string_is_safe). */
static bool
safe(const char *s)
{
	for (; *s != '\0'; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f || *s == '"' ||
		    *s == '\'' || *s == '\\')
			return false;
	return true;
}

/* One logical line (parse_line). false: the unit fails to load. */
static bool
parse_line(struct build *bd, char *l, bool *section)
{
	size_t len;
	char *eq;

	l = strip(l);
	if (*l == '\0')
		return true;
	if (!utf8_valid((unsigned char *)l, strlen(l))) {
		say(bd->c, bd->file, bd->line, "not UTF-8: systemd does not load the unit");
		return false;
	}
	if (*l == '[') {
		len = strlen(l);
		if (l[len - 1] == ']')
			l[len - 1] = '\0';
		if (l[len - 1] != '\0' || !safe(l + 1)) {
			say(bd->c, bd->file, bd->line, "a bad section header: systemd does not load the unit");
			return false;
		}
		*section = true;
		bd->in = strcmp(l + 1, bd->manager ? "Manager" : "Service") == 0;
		return true;
	}
	if (!*section) {
		say(bd->c, bd->file, bd->line, "an assignment outside of a section, ignored as systemd ignores it");
		return true;
	}
	if ((eq = strchr(l, '=')) == NULL || eq == l) {
		say(bd->c, bd->file, bd->line, "not an assignment, ignored as systemd ignores it");
		return true;
	}
	*eq = '\0';
	if (bd->in)
		setting(bd, strip(l), strip(eq + 1));
	return true;
}

/* The end of the line at p: at "\n", "\r", "\r\n" or a NUL, as systemd's
   read_line() ends one. *next: where the next starts. */
static size_t
line_end(const char *p, const char *end, const char **next)
{
	const char *e = p;

	while (e < end && *e != '\n' && *e != '\r' && *e != '\0')
		e++;
	*next = e < end ? e + 1 + (*e == '\r' && e + 1 < end &&
	    e[1] == '\n') : e;
	return (size_t)(e - p);
}

/* A whole file (config_parse). false: the unit fails to load. */
static bool
parse_file(struct build *bd, const char *text, size_t size)
{
	const char *p = text, *end = text + size, *next;
	struct buf cont = { NULL, 0, 0, false };
	char *l;
	size_t len, k;
	bool section = false, esc, ok = true;

	if (size >= 3 && memcmp(p, "\xef\xbb\xbf", 3) == 0)
		p += 3;
	for (bd->line = 1; p < end && ok; p = next, bd->line++) {
		len = line_end(p, end, &next);
		if (len > LONG_LINE_MAX || cont.len + len > LONG_LINE_MAX) {
			say(bd->c, bd->file, bd->line, "a line longer than 1 MiB: systemd does not load the unit");
			ok = false;
			break;
		}
		k = strspn(p, " \t");
		if (k < len && (p[k] == '#' || p[k] == ';'))
			continue;
		if (cont.p == NULL) {
			cont.p = xmalloc(len + 1);
			cont.cap = len + 1;
			cont.heap = true;
		}
		buf_add(&cont, p, len);
		for (esc = false, k = 0; k < cont.len; k++)
			esc = !esc && cont.p[k] == '\\';
		if (esc) {
			cont.p[cont.len - 1] = ' ';
			continue;
		}
		l = xstrdup(cont.p);
		ok = parse_line(bd, l, &section);
		free(l);
		cont.len = 0;
		cont.p[0] = '\0';
	}
	if (ok && cont.len > 0) {
		l = xstrdup(cont.p);
		ok = parse_line(bd, l, &section);
		free(l);
	}
	buf_free(&cont);
	return ok;
}

/* ---- Files ---- */

/* Read a unit file or drop-in at path in the root: 1 with its text, 0
   when it is masked (empty, or /dev/null), -1 when it cannot be read
   (said). */
static int
read_conf(struct ctx *c, const char *path, char **text, size_t *len)
{
	struct rootfs_stat st;

	*text = NULL;
	if (rootfs_stat(c->fs, path, &st, NULL, 0) < 0) {
		say(c, path, 0, "cannot be read: %s", strerror(errno));
		return -1;
	}
	if (st.type == S_IFCHR)
		return 0;
	if ((*text = rootfs_read(c->fs, path, UNIT_MAX, len)) == NULL) {
		say(c, path, 0, "cannot be read: %s", errno == EFBIG ?
		    "larger than 16 MiB" : rootfs_strerror(errno));
		return -1;
	}
	if (*len == 0) {
		free(*text);
		*text = NULL;
		return 0;
	}
	return 1;
}

/* The names of a directory, as rootfs_list gives them. */
struct names {
	char **v;
	size_t n;
};

static void
add_name(void *arg, const char *name)
{
	struct names *l = arg;

	if (name[0] == '.')
		return;
	l->v = xrealloc(l->v, (l->n + 1) * sizeof(*l->v));
	l->v[l->n++] = xstrdup(name);
}

static int
by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The entries of a directory of the root, in the order of their names:
   fn(c, dir, name, type, target, arg) for each, type a DT_ value, target
   a link's (else ""). A missing directory is none; one that cannot be
   read is said. */
static void
each_entry(struct ctx *c, const char *dir,
    void (*fn)(struct ctx *c, const char *dir, const char *name,
    unsigned type, const char *target, void *arg), void *arg)
{
	struct names l = { NULL, 0 };
	struct rootfs_stat st;
	char target[4096], *path;
	unsigned type;
	size_t i;

	if (rootfs_list(c->fs, dir, add_name, &l) < 0 && errno != ENOENT)
		say(c, dir, 0, "cannot read the directory: %s", strerror(errno));
	if (l.n > 1)
		qsort(l.v, l.n, sizeof(*l.v), by_name);
	for (i = 0; i < l.n; i++) {
		if (asprintf(&path, "%s/%s", dir, l.v[i]) < 0)
			oom();
		if (rootfs_lstat(c->fs, path, &st, target, sizeof(target)) < 0) {
			say(c, path, 0, "cannot be read: %s", strerror(errno));
		} else {
			type = st.type == S_IFREG ? DT_REG : st.type ==
			    S_IFLNK ? DT_LNK : st.type == S_IFDIR ? DT_DIR :
			    DT_UNKNOWN;
			fn(c, dir, l.v[i], type, target, arg);
		}
		free(path);
		free(l.v[i]);
	}
	free(l.v);
}

/* A path without "." and "..", as systemd simplifies a link's target
   (chase_symlinks with CHASE_NOFOLLOW|CHASE_NONEXISTENT). */
static char *
simplify(const char *dir, const char *target)
{
	char *s, *out, *tok, *save = NULL;
	size_t n = 0;

	if (asprintf(&s, "%s/%s", target[0] == '/' ? "" : dir, target) < 0)
		oom();
	out = xmalloc(strlen(s) + 2);
	out[0] = '\0';
	for (tok = strtok_r(s, "/", &save); tok != NULL;
	    tok = strtok_r(NULL, "/", &save)) {
		if (strcmp(tok, ".") == 0)
			continue;
		if (strcmp(tok, "..") == 0) {
			while (n > 0 && out[--n] != '/')
				;
			out[n] = '\0';
			continue;
		}
		n += (size_t)sprintf(out + n, "/%s", tok);
	}
	free(s);
	if (n == 0)
		strcpy(out, "/");
	return out;
}

static struct entry *
entry_of(struct ctx *c, const char *name)
{
	size_t i;

	for (i = 0; i < c->ne; i++)
		if (strcmp(c->e[i].name, name) == 0)
			return &c->e[i];
	return NULL;
}

/* An entry of a unit directory: the first of its name is kept. */
static void
add_entry(struct ctx *c, const char *dir, const char *name, unsigned type,
    const char *target, void *arg)
{
	char *abs, *slash;
	struct entry *e;
	size_t i;

	(void)arg;
	if ((type != DT_REG && type != DT_LNK) || !service_name(name) ||
	    entry_of(c, name) != NULL)
		return;
	c->e = xrealloc(c->e, (c->ne + 1) * sizeof(*c->e));
	e = &c->e[c->ne++];
	e->name = xstrdup(name);
	e->kind = E_FILE;
	e->alias = NULL;
	if (asprintf(&e->path, "%s/%s", dir, name) < 0)
		oom();
	if (type != DT_LNK)
		return;
	abs = simplify(dir, target);
	slash = strrchr(abs, '/');
	*slash = '\0';
	if (strcmp(abs, "/dev") == 0 && strcmp(slash + 1, "null") == 0) {
		e->kind = E_MASKED;
	} else if (strcmp(slash + 1, name) != 0) {
		/* Into a directory of the path, by name or real name: an
		   alias. */
		for (i = 0; i < c->ndir; i++)
			if (strcmp(abs, c->dir[i]) == 0 ||
			    strcmp(abs, c->real[i]) == 0)
				break;
		if (i < c->ndir) {
			e->kind = E_ALIAS;
			e->alias = xstrdup(slash + 1);
		}
	}
	free(abs);
}

/* The unit an alias stands for, its chain followed; NULL when it stands
   for none, or for itself through a loop (said). */
static const struct entry *
aliased(struct ctx *c, const struct entry *e, bool tell)
{
	const struct entry *a = e;
	size_t hops;

	for (hops = 0; a != NULL && a->kind == E_ALIAS; hops++) {
		if (hops == FOLLOW_MAX) {
			if (tell)
				say(c, e->path, 0, "an alias loop from %s: systemd cannot load it", e->name);
			return NULL;
		}
		a = entry_of(c, a->alias);
	}
	return a;
}

/* The unit directories the root has, each once (a merged /usr makes
   /lib/systemd/system /usr/lib's). */
static void
find_dirs(struct ctx *c)
{
	struct rootfs_stat st;
	char real[4096];
	size_t i, k, n = 0;

	c->dir = xcalloc(NELEM(unit_dirs), sizeof(*c->dir));
	c->real = xcalloc(NELEM(unit_dirs), sizeof(*c->real));
	for (i = 0; i < NELEM(unit_dirs); i++) {
		if (rootfs_stat(c->fs, unit_dirs[i], &st, real,
		    sizeof(real)) < 0 || st.type != S_IFDIR) {
			if (errno != ENOENT)
				say(c, unit_dirs[i], 0, "cannot read the directory: %s", strerror(errno));
			continue;
		}
		/* The same directory by its real name in the root. */
		for (k = 0; k < n && strcmp(c->real[k], real) != 0; k++)
			;
		if (k == n) {
			c->dir[n] = xstrdup(unit_dirs[i]);
			c->real[n++] = xstrdup(real);
		}
	}
	c->ndir = n;
}

/* ---- Drop-ins ---- */

struct dropin {
	char *name, *path;
};
struct dropins {
	char **dir;		/* the drop-in directories, in order */
	size_t ndir;
	struct dropin *v;	/* the .conf files kept */
	size_t n;
};

static void
add_dropin_dir(struct dropins *d, const char *dir, const char *unit)
{
	d->dir = xrealloc(d->dir, (d->ndir + 1) * sizeof(*d->dir));
	if (asprintf(&d->dir[d->ndir++], "%s/%s.d", dir, unit) < 0)
		oom();
}

/* unit_file_find_dirs: the name, its template, its dash prefixes. */
static void
dropin_dirs(struct dropins *d, const char *dir, const char *name)
{
	const char *at = strchr(name, '@'), *dot = strrchr(name, '.');
	size_t plen = (size_t)((at != NULL ? at : dot) - name);
	char *t, *prefix, *dash, *built;
	bool inst;

	add_dropin_dir(d, dir, name);
	if ((t = template_of(name)) != NULL) {
		dropin_dirs(d, dir, t);
		free(t);
	}
	prefix = xmalloc(plen + 1);
	memcpy(prefix, name, plen);
	prefix[plen] = '\0';
	if (plen > 0 && prefix[plen - 1] == '-')
		prefix[--plen] = '\0';
	dash = strrchr(prefix, '-');
	if (dash != NULL && dash > prefix) {
		/* An instance's prefix keeps the instance; a template's
		   does not (unit_name_build_from_type). */
		dash[1] = '\0';
		inst = at != NULL && at + 1 < dot;
		if (asprintf(&built, "%s%s%.*s%s", prefix, inst ? "@" : "",
		    inst ? (int)(dot - at - 1) : 0, inst ? at + 1 : "", dot) < 0)
			oom();
		dropin_dirs(d, dir, built);
		free(built);
	}
	free(prefix);
}

/* A .conf file of a drop-in directory, unless one of its name came from
   an earlier directory (conf_files_list_strv). */
static void
add_dropin(struct ctx *c, const char *dir, const char *name, unsigned type,
    const char *target, void *arg)
{
	struct dropins *d = arg;
	size_t i, len = strlen(name);

	(void)c;
	(void)target;
	if ((type != DT_REG && type != DT_LNK) || len < 6 ||
	    strcmp(name + len - 5, ".conf") != 0)
		return;
	for (i = 0; i < d->n; i++)
		if (strcmp(d->v[i].name, name) == 0)
			return;
	d->v = xrealloc(d->v, (d->n + 1) * sizeof(*d->v));
	d->v[d->n].name = xstrdup(name);
	if (asprintf(&d->v[d->n++].path, "%s/%s", dir, name) < 0)
		oom();
}

static int
by_dropin(const void *a, const void *b)
{
	return strcmp(((const struct dropin *)a)->name,
	    ((const struct dropin *)b)->name);
}

/* The files of the drop-in directories, sorted by name. */
static void
list_dropins(struct ctx *c, struct dropins *d)
{
	size_t i;

	for (i = 0; i < d->ndir; i++)
		each_entry(c, d->dir[i], add_dropin, d);
	if (d->n > 1)
		qsort(d->v, d->n, sizeof(*d->v), by_dropin);
}

/* The drop-ins of a unit of names (the unit's, then its aliases'), in
   the order systemd parses them. */
static void
find_dropins(struct ctx *c, char **names, size_t nnames, struct dropins *d)
{
	size_t i, k;

	memset(d, 0, sizeof(*d));
	for (k = 0; k < nnames; k++)
		for (i = 0; i < c->ndir; i++)
			dropin_dirs(d, c->dir[i], names[k]);
	for (i = 0; i < c->ndir; i++)
		add_dropin_dir(d, c->dir[i], "service");
	list_dropins(c, d);
}

static void
dropins_free(struct dropins *d)
{
	size_t i;

	for (i = 0; i < d->ndir; i++)
		free(d->dir[i]);
	for (i = 0; i < d->n; i++) {
		free(d->v[i].name);
		free(d->v[i].path);
	}
	free(d->dir);
	free(d->v);
}

/* ---- Environment files ---- */

/*
 * The assignments of an environment file, as systemd's
 * parse_env_file_internal() reads it: KEY=VALUE a line, "#" and ";"
 * comments, blanks around the key and before the value dropped, a value
 * unquoted (a backslash keeps the next character; blanks at its end
 * dropped), in single quotes (as it is) or double quotes (a backslash
 * keeps " \ ` $, and before another character stays); a backslash before
 * a newline joins the lines. A character at a time, in its states.
 */
enum env_state { PRE_KEY, KEY, PRE_VALUE, VALUE, VALUE_ESC, SQ, DQ, DQ_ESC,
	COMMENT, COMMENT_ESC };
struct env_parse {
	bool bad;		/* a key or value that is not UTF-8 */
	enum env_state st;
	struct buf key, val;
	size_t keyend, valend;	/* the length without trailing blanks */
	const char *from;
	struct svc_var *vars;
};

static bool
newline(char ch)
{
	return ch == '\n' || ch == '\r';
}

static bool
blank(char ch)
{
	return ch == ' ' || ch == '\t';
}

/* The end of an assignment's line: KEY=VALUE into the variables. */
static void
env_push(struct env_parse *e)
{
	char *a;

	if (e->st == VALUE)
		e->val.len = e->valend;
	buf_add(&e->val, "", 0);
	e->val.p[e->val.len] = '\0';
	if (!utf8_valid((unsigned char *)e->key.p, e->key.len) ||
	    !utf8_valid((unsigned char *)e->val.p, e->val.len))
		e->bad = true;
	else if (env_name(e->key.p, e->key.len)) {
		if (asprintf(&a, "%s=%s", e->key.p, e->val.p) < 0)
			oom();
		assign(e->vars, a, e->from);
		free(a);
	}
	e->st = PRE_KEY;
}

/* A character before the value: the key, a comment. */
static void
env_key(struct env_parse *e, char ch)
{
	switch (e->st) {
	case PRE_KEY:
		if (ch == '#' || ch == ';') {
			e->st = COMMENT;
		} else if (!blank(ch) && !newline(ch)) {
			e->st = KEY;
			e->key.len = 0;
			buf_add(&e->key, &ch, 1);
			e->keyend = e->key.len;
		}
		break;
	case KEY:
		if (newline(ch)) {
			e->st = PRE_KEY;
		} else if (ch == '=') {
			e->st = PRE_VALUE;
			e->key.p[e->keyend] = '\0';
			e->key.len = e->keyend;
			e->val.len = e->valend = 0;
		} else {
			buf_add(&e->key, &ch, 1);
			if (!blank(ch))
				e->keyend = e->key.len;
		}
		break;
	case COMMENT:
		e->st = ch == '\\' ? COMMENT_ESC : newline(ch) ? PRE_KEY :
		    COMMENT;
		break;
	default:
		e->st = COMMENT;
		break;
	}
}

/* A character of the value. */
static void
env_value(struct env_parse *e, char ch)
{
	enum env_state st = e->st;

	if ((st == PRE_VALUE || st == VALUE) && newline(ch)) {
		env_push(e);
		return;
	}
	if (st == PRE_VALUE && (ch == '\'' || ch == '"')) {
		e->st = ch == '\'' ? SQ : DQ;
		return;
	}
	if ((st == PRE_VALUE || st == VALUE) && ch == '\\') {
		e->st = VALUE_ESC;
		return;
	}
	if ((st == SQ && ch == '\'') || (st == DQ && ch == '"')) {
		e->st = PRE_VALUE;
		return;
	}
	if (st == DQ && ch == '\\') {
		e->st = DQ_ESC;
		return;
	}
	if (st == PRE_VALUE && blank(ch))
		return;
	if (st == DQ_ESC && strchr("\"\\`$", ch) == NULL && ch != '\n')
		buf_add(&e->val, "\\", 1);
	if (!((st == VALUE_ESC && newline(ch)) || (st == DQ_ESC && ch == '\n')))
		buf_add(&e->val, &ch, 1);
	if (!blank(ch) || st != VALUE)
		e->valend = e->val.len;
	e->st = st == DQ_ESC || st == DQ ? DQ : st == SQ ? SQ : VALUE;
}

/* false when systemd refuses the file: a key or value that is not
   UTF-8 (load_env_file_push). */
static bool
env_file(const char *text, size_t len, const char *from,
    struct svc_var *vars)
{
	struct env_parse e = { .st = PRE_KEY, .from = from, .vars = vars };
	size_t i;
	char ch;

	e.key.p = xmalloc(64), e.key.cap = 64, e.key.heap = true;
	e.val.p = xmalloc(64), e.val.cap = 64, e.val.heap = true;
	/* A value the text ends in is pushed, its quote open or not. */
	for (i = 0; i <= len; i++) {
		ch = i < len ? text[i] : '\0';
		if (e.st == PRE_KEY || e.st == KEY || e.st == COMMENT ||
		    e.st == COMMENT_ESC) {
			if (ch != '\0')
				env_key(&e, ch);
		} else if (ch != '\0') {
			env_value(&e, ch);
		} else {
			env_push(&e);
		}
	}
	buf_free(&e.key);
	buf_free(&e.val);
	return !e.bad;
}

/* Does s hold a glob(7) pattern? */
static bool
pattern(const char *s)
{
	return strpbrk(s, "*?[") != NULL;
}

/* One file of EnvironmentFile=, into vars. false when it cannot be
   read. */
static bool
env_file_at(struct ctx *c, const char *path, struct svc_var *vars,
    int *err)
{
	size_t len;
	char *text;

	if ((text = rootfs_read(c->fs, path, ENV_FILE_MAX, &len)) == NULL) {
		*err = errno;
		return false;
	}
	/* systemd reads it as a string: a NUL in it, and it refuses it
	   (read_full_stream, src/basic/fileio.c). */
	*err = memchr(text, '\0', len) != NULL ? EBADMSG :
	    !env_file(text, len, path, vars) ? EINVAL : 0;
	free(text);
	return *err == 0;
}

/*
 * The files of EnvironmentFile=, in turn, a later one winning
 * (exec_context_load_environment in src/core/execute.c: each a glob; a
 * file missing or unreadable fails the start, unless "-"). false: systemd
 * does not start the service (said).
 */
/* The files a pattern of EnvironmentFile= matches, read in turn. */
struct env_glob {
	struct ctx *c;
	struct svc_var *vars;
	int *err;
	bool any, ok;
};

static void
env_matched(void *arg, const char *path)
{
	struct env_glob *g = arg;

	g->any = true;
	if (g->ok)
		g->ok = env_file_at(g->c, path, g->vars, g->err);
}

static bool
env_files(struct ctx *c, const struct build *bd, const char *unit_file,
    struct svc_var *vars)
{
	const struct envfile *f;
	struct env_glob g;
	size_t i;
	int err = ENOENT;
	bool ok;

	for (i = 0; i < bd->nef; i++) {
		f = &bd->ef[i];
		if (!pattern(f->path)) {
			ok = env_file_at(c, f->path, vars, &err);
		} else {
			/* glob(3) in the root: none matching is a failure. */
			g = (struct env_glob){ c, vars, &err, false, true };
			rootfs_glob(c->fs, f->path, env_matched, &g);
			ok = g.any && g.ok;
		}
		/* An image's file whose bytes were not kept: what it sets
		   is not known, "-" or not. */
		if (!ok && (err == ENODATA || err == ENOBUFS)) {
			say(c, unit_file, 0, "EnvironmentFile=%s: %s: %s is not judged", f->path, rootfs_strerror(err), bd->name);
			return false;
		}
		/* A suite's packages: a maintainer script may make it. */
		if (!ok && !f->ignore && err == ENOENT && c->packages) {
			say(c, unit_file, 0, "EnvironmentFile=%s: no package of the suite holds it (a maintainer script may make it): %s is not judged", f->path, bd->name);
			return false;
		}
		if (!ok && !f->ignore) {
			say(c, unit_file, 0, "EnvironmentFile=%s: %s: systemd does not start %s, not judged", f->path, rootfs_strerror(err), bd->name);
			return false;
		}
	}
	return true;
}

/* The program of a command, as systemd finds it in the root: absolute,
   or a name in its fixed path. NULL when there is none. */
static char *
program(struct ctx *c, const char *path)
{
	struct rootfs_stat st;
	char *p;
	size_t i;

	for (i = 0; i < (path[0] == '/' ? 1 : NELEM(exec_path)); i++) {
		if (path[0] == '/')
			p = xstrdup(path);
		else if (asprintf(&p, "%s/%s", exec_path[i], path) < 0)
			oom();
		if (rootfs_stat(c->fs, p, &st, NULL, 0) == 0 &&
		    st.type == S_IFREG)
			return p;
		free(p);
	}
	return NULL;
}

/* The environment a service's processes get, of the variables the
   verdicts need: DefaultEnvironment=, Environment=, the files,
   UnsetEnvironment=. */
static bool
environment(struct ctx *c, struct build *bd, const char *unit_file,
    struct svc_var *vars)
{
	const char *u, *eq;
	size_t i, k, n;

	for (i = 0; i < SVC_NVARS; i++) {
		const struct svc_var *v = bd->env[i].value != NULL ?
		    &bd->env[i] : &c->defenv[i];

		if (v->value != NULL)
			var_set(&vars[i], v->value, strlen(v->value), v->from);
	}
	if (!env_files(c, bd, unit_file, vars))
		return false;
	for (k = 0; k < bd->nunset; k++) {
		u = bd->unset[k];
		eq = strchr(u, '=');
		n = eq != NULL ? (size_t)(eq - u) : strlen(u);
		for (i = 0; i < SVC_NVARS; i++)
			if (vars[i].value != NULL &&
			    n == strlen(var_names[i]) &&
			    strncmp(u, var_names[i], n) == 0 &&
			    (eq == NULL || strcmp(eq + 1, vars[i].value) == 0))
				var_clear(&vars[i]);
	}
	return true;
}

static void
build_free(struct build *bd)
{
	size_t i;

	for (i = 0; i < bd->ncmd; i++)
		free(bd->cmd[i].path);
	for (i = 0; i < SVC_NVARS; i++)
		var_clear(&bd->env[i]);
	for (i = 0; i < bd->nef; i++)
		free(bd->ef[i].path);
	for (i = 0; i < bd->nunset; i++)
		free(bd->unset[i]);
	free(bd->cmd);
	free(bd->ef);
	free(bd->unset);
	free(bd->rootdir);
}

/* A file of the unit parsed into bd: false when systemd would not load
   the unit. */
static bool
parse_at(struct ctx *c, struct build *bd, const char *path, bool *masked)
{
	char *text;
	size_t len;
	bool ok;
	int r;

	*masked = false;
	if ((r = read_conf(c, path, &text, &len)) <= 0) {
		*masked = r == 0;
		return r == 0;
	}
	bd->file = path;
	ok = parse_file(bd, text, len) && !bd->failed;
	free(text);
	return ok;
}

/* The names of the unit that e is: its own, then its aliases'. */
static size_t
names_of(struct ctx *c, const struct entry *e, char ***out)
{
	char **v = xcalloc(c->ne + 1, sizeof(*v));
	size_t n = 0, i;

	v[n++] = e->name;
	for (i = 0; i < c->ne; i++)
		if (c->e[i].kind == E_ALIAS && aliased(c, &c->e[i], false) == e)
			v[n++] = c->e[i].name;
	*out = v;
	return n;
}

/* The service of a unit file: loaded, with its drop-ins; kept when it
   sets MemoryDenyWriteExecute=yes or a variable of the verdicts. */
static void
load_service(struct ctx *c, const struct entry *e, struct systemd *sd)
{
	struct build bd = { .c = c, .name = e->name, .mdwe = -1 };
	struct svc_var vars[SVC_NVARS] = { { NULL, NULL } };
	struct service *s;
	struct dropins d;
	char **names, *p;
	const char *at;
	size_t n, i;
	bool masked, ok;

	if (!parse_at(c, &bd, e->path, &masked) || masked)
		goto out;
	n = names_of(c, e, &names);
	/* A template stands for its instances: it gets the drop-ins every
	   instance gets, but those of an instance's own name (no unit name
	   holds a newline). */
	if ((at = strstr(e->name, "@.")) != NULL &&
	    asprintf(&names[0], "%.*s\n%s", (int)(at - e->name + 1), e->name,
	    at + 1) < 0)
		oom();
	find_dropins(c, names, n, &d);
	if (at != NULL)
		free(names[0]);
	free(names);
	for (i = 0, ok = true; i < d.n && ok; i++)
		ok = parse_at(c, &bd, d.v[i].path, &masked);
	dropins_free(&d);
	for (i = 0; i < SVC_NVARS && bd.mdwe != 1 && bd.nef == 0; i++)
		if (bd.env[i].value != NULL || c->defenv[i].value != NULL)
			break;
	if (!ok || (bd.mdwe != 1 && bd.nef == 0 && i == SVC_NVARS))
		goto out;
	if (bd.rootdir != NULL) {
		say(c, e->path, 0, "%s runs its commands in RootDirectory= or RootImage= %s: not judged", e->name, bd.rootdir);
		goto out;
	}
	if (!environment(c, &bd, e->path, vars))
		goto out;
	for (i = 0; i < SVC_NVARS && bd.mdwe != 1; i++)
		if (vars[i].value != NULL)
			break;
	if (bd.mdwe != 1 && i == SVC_NVARS)
		goto out;
	sd->svc = xrealloc(sd->svc, (sd->n + 1) * sizeof(*sd->svc));
	s = &sd->svc[sd->n++];
	memset(s, 0, sizeof(*s));
	s->name = xstrdup(e->name);
	s->file = xstrdup(e->path);
	s->mdwe = bd.mdwe == 1;
	memcpy(s->env, vars, sizeof(vars));
	memset(vars, 0, sizeof(vars));
	for (i = 0; i < bd.ncmd; i++) {
		if ((p = program(c, bd.cmd[i].path)) == NULL && c->packages) {
			say(c, e->path, 0, "%s=%s: no package of the suite holds it: not judged", bd.cmd[i].setting, bd.cmd[i].path);
			continue;
		}
		if (p == NULL) {
			say(c, e->path, 0, "%s=%s: no such program in the root: systemd cannot run it (status 203/EXEC), not judged", bd.cmd[i].setting, bd.cmd[i].path);
			continue;
		}
		s->cmd = xrealloc(s->cmd, (s->ncmd + 1) * sizeof(*s->cmd));
		s->cmd[s->ncmd] = bd.cmd[i];
		s->cmd[s->ncmd++].path = p;
	}
out:
	for (i = 0; i < SVC_NVARS; i++)
		var_clear(&vars[i]);
	build_free(&bd);
}

/* system.conf and its drop-ins: DefaultEnvironment=. */
static void
read_manager(struct ctx *c)
{
	struct build bd = { .c = c, .name = "system.conf", .manager = true };
	struct dropins d;
	struct rootfs_stat st;
	char *main_file = NULL;
	size_t i;
	bool masked;

	for (i = 0; i < NELEM(conf_dirs) && main_file == NULL; i++) {
		if (asprintf(&main_file, "%s/system.conf", conf_dirs[i]) < 0)
			oom();
		if (rootfs_stat(c->fs, main_file, &st, NULL, 0) == 0)
			break;
		free(main_file);
		main_file = NULL;
	}
	if (main_file != NULL)
		parse_at(c, &bd, main_file, &masked);
	free(main_file);
	memset(&d, 0, sizeof(d));
	for (i = 0; i < NELEM(conf_dirs); i++)
		add_dropin_dir(&d, conf_dirs[i], "system.conf");
	list_dropins(c, &d);
	for (i = 0; i < d.n; i++) {
		bd.failed = false;
		parse_at(c, &bd, d.v[i].path, &masked);
	}
	dropins_free(&d);
	build_free(&bd);
}

/* NNN of "libsystemd-shared-NNN.so" (systemd's meson.build names it
   by the project's major version), 1 to 9999; else was. */
static unsigned
shared_version(const char *needed, unsigned was)
{
	const char *p = needed + 18;
	char *end;
	unsigned long v;

	if (strncmp(needed, "libsystemd-shared-", 18) != 0 ||
	    *p < '1' || *p > '9')
		return was;
	errno = 0;
	v = strtoul(p, &end, 10);
	if (errno != 0 || v > 9999 || strcmp(end, ".so") != 0)
		return was;
	return (unsigned)v;
}

/* The manager and its version, from the name of the library it needs. */
static void
find_manager(struct systemd *sd, const struct rootfs *fs,
    struct objects *objs)
{
	const struct obj *o;
	const char *n;
	size_t i;

	for (i = 0; i < NELEM(managers) && sd->binary == NULL; i++) {
		o = objects_at(objs, fs, managers[i]);
		if (o == NULL || o->error != NULL)
			continue;
		sd->binary = xstrdup(managers[i]);
		for (n = o->needed; *n != '\0'; n += strlen(n) + 1)
			sd->version = shared_version(n, sd->version);
	}
}


bool
script_interpreter(const char *head, size_t n, char *name, size_t cap)
{
	size_t at, len;

	if (n < 2 || head[0] != '#' || head[1] != '!' || cap == 0)
		return false;
	for (at = 2; at < n && (head[at] == ' ' || head[at] == '\t'); at++)
		;
	for (len = 0; at + len < n && head[at + len] != ' ' &&
	    head[at + len] != '\t' && head[at + len] != '\n' &&
	    head[at + len] != '\0' && len + 1 < cap; len++)
		;
	memcpy(name, head + at, len);
	name[len] = '\0';
	return true;
}

/* Does path match the pattern dir followed by tail? */
static bool
under(const char *dir, const char *tail, const char *path)
{
	char pat[256];

	snprintf(pat, sizeof(pat), "%s%s", dir, tail);
	return fnmatch(pat, path, FNM_PATHNAME) == 0;
}

size_t
units_keeps(const char *path)
{
	size_t i;

	if (strncmp(path, "/etc/", 5) != 0 && strstr(path, "/systemd/") ==
	    NULL)
		return 0;
	/* The unit files, and their drop-ins in NAME.d. */
	for (i = 0; i < NELEM(unit_dirs); i++)
		if (under(unit_dirs[i], "/*", path) ||
		    under(unit_dirs[i], "/*/*", path))
			return UNIT_MAX;
	for (i = 0; i < NELEM(conf_dirs); i++)
		if (under(conf_dirs[i], "/system.conf", path) ||
		    under(conf_dirs[i], "/system.conf.d/*", path))
			return UNIT_MAX;
	/* EnvironmentFile= may name any of /etc, where the others are. */
	if (strncmp(path, "/etc/", 5) == 0)
		return ENV_FILE_MAX;
	return 0;
}

static int
by_entry(const void *a, const void *b)
{
	return strcmp(((const struct entry *)a)->name,
	    ((const struct entry *)b)->name);
}

void
systemd_read(struct systemd *sd, const struct rootfs *fs,
    struct objects *objs, bool packages, units_say *fn, void *arg)
{
	struct ctx c = { .fs = fs, .packages = packages, .say = fn,
	    .arg = arg };
	size_t i;

	memset(sd, 0, sizeof(*sd));
	if (objs != NULL)
		find_manager(sd, fs, objs);
	read_manager(&c);
	find_dirs(&c);
	for (i = 0; i < c.ndir; i++)
		each_entry(&c, c.dir[i], add_entry, NULL);
	if (c.ne > 1)
		qsort(c.e, c.ne, sizeof(*c.e), by_entry);
	for (i = 0; i < c.ne; i++)
		if (c.e[i].kind == E_ALIAS)
			aliased(&c, &c.e[i], true);
	for (i = 0; i < c.ne; i++)
		if (c.e[i].kind == E_FILE)
			load_service(&c, &c.e[i], sd);
	for (i = 0; i < c.ne; i++) {
		free(c.e[i].name);
		free(c.e[i].path);
		free(c.e[i].alias);
	}
	for (i = 0; i < c.ndir; i++) {
		free(c.dir[i]);
		free(c.real[i]);
	}
	for (i = 0; i < SVC_NVARS; i++)
		var_clear(&c.defenv[i]);
	free(c.e);
	free(c.dir);
	free(c.real);
}

void
systemd_free(struct systemd *sd)
{
	size_t i, k;

	for (i = 0; i < sd->n; i++) {
		struct service *s = &sd->svc[i];

		for (k = 0; k < s->ncmd; k++)
			free(s->cmd[k].path);
		for (k = 0; k < SVC_NVARS; k++)
			var_clear(&s->env[k]);
		free(s->cmd);
		free(s->name);
		free(s->file);
	}
	free(sd->svc);
	free(sd->binary);
	memset(sd, 0, sizeof(*sd));
}
