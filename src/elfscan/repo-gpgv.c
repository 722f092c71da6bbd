/*
 * repo-gpgv.c - a Release's OpenPGP signature checked as apt checks it:
 * by gpgv, which apt runs too, given only the keyrings named (--keyring),
 * in a GNUPGHOME of its own, so that no keyring of the user's counts.
 *
 * The bytes the caller read are copied into that directory and gpgv
 * checks the copies, so what is vouched for is what was read, not what
 * the file holds a moment later. Of a clearsigned InRelease, the text
 * handed back is the one gpgv writes with --output: the signed part
 * alone, its dash escapes undone; what comes before the armor header or
 * after the signature is not verified and never used. apt splits the file
 * itself to the same end (SplitClearSignedFile: the first signed message,
 * the unsigned text around it discarded).
 *
 * The verdict is read from gpgv's status lines (--status-fd), as apt's
 * methods/gpgv.cc reads them, not from its exit status: a GOODSIG and a
 * VALIDSIG, and no BADSIG. apt tolerates more than this: here a signature
 * by an expired or revoked key of the keyrings (EXPKEYSIG, REVKEYSIG) or
 * one that cannot be checked (ERRSIG) fails the file too, unless the key
 * is merely not in the keyrings (ERRSIG then NO_PUBKEY), which is how
 * Debian's InRelease, signed by several keys, verifies against a keyring
 * holding one of them.
 *
 * gpgv reads binary keyrings only (2.2 takes no armored key with
 * --keyring), so an armored one (a .asc file, as apt's signed-by= takes)
 * is dearmored here first (RFC 4880 section 6).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "index.h"
#include "repo.h"
#include "xalloc.h"

#define KEYRING_MAX (16u << 20)	/* bytes of a keyring (Debian's: 100 KiB) */
#define STATUS_MAX (64u << 10)	/* bytes of gpgv's status lines kept */
#define STATUS_FD 3

extern char **environ;

/* The n bytes of buf into the new file dir/name; -1 with errno set. */
static int
put(const char *dir, const char *name, const void *buf, size_t n)
{
	char path[4096];
	ssize_t w;
	int fd, e;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if ((fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC |
	    O_NOFOLLOW, 0600)) == -1)
		return -1;
	while (n > 0) {
		if ((w = write(fd, buf, n)) == -1 && errno == EINTR)
			continue;
		if (w == -1)
			break;
		buf = (const char *)buf + w;
		n -= (size_t)w;
	}
	e = errno;
	if (close(fd) == -1 && n == 0)
		return -1;
	errno = e;
	return n == 0 ? 0 : -1;
}

/* The directory and the files put in it, gone. */
static void
remove_dir(const char *dir)
{
	struct dirent *d;
	DIR *dp;

	if ((dp = opendir(dir)) != NULL) {
		while ((d = readdir(dp)) != NULL)
			if (strcmp(d->d_name, ".") != 0 &&
			    strcmp(d->d_name, "..") != 0)
				unlinkat(dirfd(dp), d->d_name, 0);
		closedir(dp);
	}
	rmdir(dir);
}

static int
b64(int c)
{
	static const char digits[] =
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	const char *p = c != '\0' ? strchr(digits, c) : NULL;

	return p != NULL ? (int)(p - digits) : -1;
}

/*
 * The packets of each armored block of text (NUL-ended), one after the
 * other, into out (as long as text, which is more than enough); their
 * length, or -1 when a block is not armor: base64 up to an optional
 * "=CRC" line and the END line. The checksum is not checked: gpgv checks
 * the packets it reads.
 */
static ssize_t
dearmor(const char *text, unsigned char *out)
{
	const char *p = text, *nl;
	unsigned bits = 0, nbits = 0;
	size_t n = 0;
	bool body = false, any = false;
	int v;

	for (; *p != '\0'; p = *nl != '\0' ? nl + 1 : nl) {
		nl = p + strcspn(p, "\n");
		if (!body && strncmp(p, "-----BEGIN PGP ", 15) == 0) {
			/* Armor headers ("Key: value") up to a blank line. */
			do {
				p = *nl != '\0' ? nl + 1 : nl;
				nl = p + strcspn(p, "\n");
			} while (*p != '\0' && strspn(p, " \t\r") < (size_t)(nl - p));
			body = any = true;
			bits = nbits = 0;
		} else if (body && (strncmp(p, "-----END PGP ", 13) == 0 ||
		    *p == '=')) {
			body = *p == '=';
			if (!body && nbits >= 6)
				return -1;
		} else if (body) {
			for (; p < nl; p++) {
				if (*p == '=' || *p == ' ' || *p == '\t' ||
				    *p == '\r')
					continue;
				if ((v = b64(*p)) < 0)
					return -1;
				bits = bits << 6 | (unsigned)v;
				if ((nbits += 6) >= 8) {
					nbits -= 8;
					out[n++] = (unsigned char)(bits >> nbits);
					bits &= (1u << nbits) - 1;
				}
			}
		}
	}
	return any && !body ? (ssize_t)n : -1;
}

/* The keyring path into dir as keyring-I.gpg, dearmored if armored;
   -1 with why. */
static int
put_keyring(const char *dir, size_t i, const char *path, char why[256])
{
	char name[64], *text;
	unsigned char *bin = NULL;
	ssize_t n;
	size_t len;
	int ret = -1;

	if ((text = index_read(path, KEYRING_MAX, &len, NULL)) == NULL) {
		snprintf(why, 256, "cannot read the keyring %s: %s", path,
		    strerror(errno));
		return -1;
	}
	snprintf(name, sizeof(name), "keyring-%zu.gpg", i);
	if (strncmp(text + strspn(text, " \t\r\n"), "-----BEGIN PGP ",
	    15) == 0) {
		bin = xmalloc(len + 1);
		if ((n = dearmor(text, bin)) <= 0) {
			snprintf(why, 256, "%s: not a keyring: its armor cannot be read",
			    path);
			goto out;
		}
		len = (size_t)n;
	}
	if (put(dir, name, bin != NULL ? (void *)bin : text, len) < 0)
		snprintf(why, 256, "cannot copy the keyring %s: %s", path,
		    strerror(errno));
	else
		ret = 0;
out:
	free(bin);
	free(text);
	return ret;
}

/* gpgv's status keywords that decide, as apt's methods/gpgv.cc reads
   them; NEWSIG starts each signature. */
enum { GOODSIG, VALIDSIG, BADSIG, ERRSIG, NO_PUBKEY, EXPKEYSIG, REVKEYSIG,
	NEWSIG, NWORDS };
static const char *const words[NWORDS] = { "GOODSIG", "VALIDSIG",
	"BADSIG", "ERRSIG", "NO_PUBKEY", "EXPKEYSIG", "REVKEYSIG", "NEWSIG" };

/* How many status lines of each keyword. Only a line's start counts: the
   rest may quote the signature, which an attacker writes. */
static void
count_words(const char *status, unsigned n[NWORDS])
{
	const char *line, *nl, *w;
	size_t i, len;

	memset(n, 0, NWORDS * sizeof(*n));
	for (line = status; line != NULL;
	    line = (nl = strchr(line, '\n')) != NULL ? nl + 1 : NULL) {
		if (strncmp(line, "[GNUPG:] ", 9) != 0)
			continue;
		w = line + 9;
		for (i = 0; i < NWORDS; i++) {
			len = strlen(words[i]);
			if (strncmp(w, words[i], len) == 0 && (w[len] == ' ' ||
			    w[len] == '\n' || w[len] == '\0'))
				n[i]++;
		}
	}
}

/* The verdict of the status lines: NULL when good, else why not. */
static const char *
verdict(const char *status)
{
	unsigned n[NWORDS];

	count_words(status, n);
	if (n[BADSIG] > 0)
		return "bad signature: the signed text or the signature was changed";
	if (n[EXPKEYSIG] > 0)
		return "signed by an expired key";
	if (n[REVKEYSIG] > 0)
		return "signed by a revoked key";
	if (n[ERRSIG] > n[NO_PUBKEY])
		return "a signature cannot be checked";
	if (n[GOODSIG] > 0 && n[VALIDSIG] > 0)
		return NULL;
	if (n[NO_PUBKEY] > 0)
		return "signed by no key of the keyring";
	return n[NEWSIG] > 0 ? "no good signature" : "not signed";
}

/* gpgv's environment: this one's, GNUPGHOME the directory home; the
   caller frees it and *own, its one string of its own. */
static char **
gpgv_env(const char *home, char **own)
{
	size_t n = 0, i, j = 0;
	char **env;

	while (environ[n] != NULL)
		n++;
	env = xmalloc((n + 2) * sizeof(*env));
	for (i = 0; i < n; i++)
		if (strncmp(environ[i], "GNUPGHOME=", 10) != 0)
			env[j++] = environ[i];
	if (asprintf(own, "GNUPGHOME=%s", home) < 0)
		oom();
	env[j++] = *own;
	env[j] = NULL;
	return env;
}

/* Up to STATUS_MAX bytes of fd, NUL-ended, into *out; the rest read
   and dropped, so that gpgv never blocks on a full pipe. Returns false
   when there was more: a verdict must not rest on a part. */
static bool
read_status(int fd, char **out)
{
	char *buf = xmalloc(STATUS_MAX + 1), drop[4096];
	bool whole = true;
	size_t n = 0;
	ssize_t r;

	for (;;) {
		if (n < STATUS_MAX)
			r = read(fd, buf + n, STATUS_MAX - n);
		else
			r = read(fd, drop, sizeof(drop));
		if (r == -1 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		if (n < STATUS_MAX)
			n += (size_t)r;
		else
			whole = false;
	}
	buf[n] = '\0';
	*out = buf;
	return whole;
}

/*
 * gpgv run with argv in the directory home, its status lines into
 * *status (the caller frees); its own output and messages go nowhere.
 * Returns 0 once it has run, whatever it found; -1 with why when it could
 * not be run or did not end.
 */
static int
run_gpgv(char *const argv[], const char *home, char **status,
    char why[256])
{
	posix_spawn_file_actions_t fa;
	char *own, **env = gpgv_env(home, &own);
	int p[2], wstatus = 0, e;
	bool whole;
	pid_t pid;

	*status = NULL;
	if (pipe2(p, O_CLOEXEC) == -1) {
		snprintf(why, 256, "cannot run gpgv: %s", strerror(errno));
		goto free_env;
	}
	posix_spawn_file_actions_init(&fa);
	/* A dup2 onto itself would leave close-on-exec set: through
	   another descriptor then. The pipe first, in case it took one of
	   0, 1 and 2. */
	if (p[1] == STATUS_FD)
		posix_spawn_file_actions_adddup2(&fa, p[1], STATUS_FD + 1);
	posix_spawn_file_actions_adddup2(&fa, p[1] == STATUS_FD ?
	    STATUS_FD + 1 : p[1], STATUS_FD);
	if (p[1] == STATUS_FD)
		posix_spawn_file_actions_addclose(&fa, STATUS_FD + 1);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	e = posix_spawnp(&pid, argv[0], &fa, NULL, argv, env);
	posix_spawn_file_actions_destroy(&fa);
	close(p[1]);
	if (e != 0) {
		snprintf(why, 256, e == ENOENT ? "gpgv is not installed: %s" :
		    "cannot run gpgv: %s", strerror(e));
		close(p[0]);
		goto free_env;
	}
	whole = read_status(p[0], status);
	close(p[0]);
	while ((e = waitpid(pid, &wstatus, 0)) == -1 && errno == EINTR)
		;
	if (e == -1 || !WIFEXITED(wstatus) || !whole) {
		if (!whole)
			snprintf(why, 256, "gpgv said more than %u bytes of status",
			    STATUS_MAX);
		else if (e != -1 && WIFSIGNALED(wstatus))
			snprintf(why, 256, "gpgv was killed by signal %d",
			    WTERMSIG(wstatus));
		else
			snprintf(why, 256, "gpgv did not end");
		free(*status);
		*status = NULL;
	}
free_env:
	free(own);
	free(env);
	return *status != NULL ? 0 : -1;
}

/* gpgv's arguments: the keyrings copied into dir, then the files; the
   caller frees the array and its strings from [3] on. */
static char **
gpgv_argv(const char *dir, size_t nkeyrings, bool detached)
{
	char **argv = xmalloc((2 * nkeyrings + 8) * sizeof(*argv));
	size_t i, n = 0;
	int r = 0;

	argv[n++] = "gpgv";
	argv[n++] = "--status-fd";
	argv[n++] = "3";	/* STATUS_FD */
	for (i = 0; i < nkeyrings; i++) {
		argv[n++] = xstrdup("--keyring");
		r |= asprintf(&argv[n++], "%s/keyring-%zu.gpg", dir, i);
	}
	if (detached) {
		r |= asprintf(&argv[n++], "%s/Release.gpg", dir);
		r |= asprintf(&argv[n++], "%s/Release", dir);
	} else {
		argv[n++] = xstrdup("--output");
		r |= asprintf(&argv[n++], "%s/signed", dir);
		r |= asprintf(&argv[n++], "%s/InRelease", dir);
	}
	if (r < 0)
		oom();
	argv[n] = NULL;
	return argv;
}

/* The files gpgv checks, into dir: the keyrings, the text, the
   signature. -1 with why. */
static int
put_all(const char *dir, const char *const *keyrings, size_t nkeyrings,
    const char *text, size_t len, const char *sig, size_t siglen,
    char why[256])
{
	size_t i;

	for (i = 0; i < nkeyrings; i++)
		if (put_keyring(dir, i, keyrings[i], why) < 0)
			return -1;
	if (put(dir, sig != NULL ? "Release" : "InRelease", text, len) < 0 ||
	    (sig != NULL && put(dir, "Release.gpg", sig, siglen) < 0)) {
		snprintf(why, 256, "cannot copy it for gpgv: %s",
		    strerror(errno));
		return -1;
	}
	return 0;
}

char *
repo_gpgv(const char *const *keyrings, size_t nkeyrings, const char *text,
    size_t len, const char *sig, size_t siglen, size_t *outlen,
    char why[256])
{
	const char *tmp = getenv("TMPDIR"), *bad;
	char dir[4096], path[4200], **argv = NULL, *status = NULL;
	char *out = NULL;
	size_t i;

	snprintf(dir, sizeof(dir), "%s/elfscan-gpgv.XXXXXX",
	    tmp != NULL && *tmp != '\0' ? tmp : "/tmp");
	if (mkdtemp(dir) == NULL) {
		snprintf(why, 256, "cannot make a directory for gpgv in %s: %s",
		    tmp != NULL && *tmp != '\0' ? tmp : "/tmp",
		    strerror(errno));
		return NULL;
	}
	if (put_all(dir, keyrings, nkeyrings, text, len, sig, siglen,
	    why) < 0)
		goto remove;
	argv = gpgv_argv(dir, nkeyrings, sig != NULL);
	if (run_gpgv(argv, dir, &status, why) < 0)
		goto remove;
	if ((bad = verdict(status)) != NULL) {
		snprintf(why, 256, "%s", bad);
	} else if (sig != NULL) {
		out = xmalloc(len + 1);
		memcpy(out, text, len);
		out[len] = '\0';
		*outlen = len;
	} else {
		/* The signed part is never longer than the whole. */
		snprintf(path, sizeof(path), "%s/signed", dir);
		if ((out = index_read(path, len, outlen, NULL)) == NULL)
			snprintf(why, 256, "gpgv wrote no signed text: %s",
			    strerror(errno));
	}
remove:
	for (i = 3; argv != NULL && argv[i] != NULL; i++)
		free(argv[i]);
	free(argv);
	free(status);
	remove_dir(dir);
	return out;
}
