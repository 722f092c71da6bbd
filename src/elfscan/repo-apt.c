/*
 * repo-apt.c - an apt repository as input: apt:ROOT:SUITE[:COMPONENTS],
 * ROOT a directory holding dists/ and pool/ as a Debian mirror lays them
 * out, or the http(s) URL of one. Its stages, each vouching for the next:
 *   1. dists/SUITE/InRelease (its signed text) or Release: the SHA256 list
 *      of the indices, and the suite's components when none are named;
 *   2. COMPONENT/binary-ARCH/Packages.xz, .gz or plain, the first the
 *      Release lists that is there: its size and SHA256 checked against
 *      the Release, then decompressed (index.c);
 *   3. each stanza of the Packages of ARCH or all, handed on as a
 *      struct repo_package, its Size and SHA256 the index's: repo_check()
 *      (repo.c) vouches for the pool file before it is read.
 * What fails is said in one line naming the index or the package; the
 * component or the package is skipped, the rest goes on.
 *
 * By URL, each file is fetched (fetch.h) into elfscan's cache, then
 * checked as a directory's is: the Release each time, into lists/ under
 * its URL flattened; an index, when the copy in lists/ is not the one the
 * Release lists; a package, into by-sha256/ under the index's digest, by
 * repo_check(), so only when the caller reads it and has no copy.
 *
 * With --keyring, stage 1 is vouched for too, as apt does with signed-by=:
 * InRelease must carry a good signature by a key of the keyrings, or else
 * Release one in Release.gpg (repo-gpgv.c), and only the text gpgv
 * verified is read. Without, the signature is not checked: InRelease's
 * signed text is read as Release is, so this vouches for the pool against
 * the Release, not for the Release against the archive's key.
 */
#include <err.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fetch.h"
#include "index.h"
#include "repo.h"
#include "sha256.h"
#include "xalloc.h"

#define PREFIX "apt:"
#define RELEASE_MAX (64u << 20)	/* bytes of a Release, or an index file */
#define INDEX_MAX (1u << 30)	/* bytes of a decompressed Packages */

/* One line of the Release's SHA256 list. */
struct sum {
	char hex[SHA256_HEX];
	uint64_t size;
	char *name;
};

struct repo {
	const char *arg;	/* as named */
	char *root, *suite, *components;
	const char *url;	/* root, when it is a URL; else NULL */
	char *lists, *blobs;	/* by URL: the cache's directories */
	const char *arch;
	const struct repo_opts *o;
	struct sum *sums;
	size_t nsums;
	char *release_components;
	void (*add)(void *ctx, const struct repo_package *p);
	void *ctx;
	int failed;
};

bool
repo_apt_named(const char *arg)
{
	return strncmp(arg, PREFIX, strlen(PREFIX)) == 0;
}

/* OCI's architecture names (Go's GOARCH), with the variant where dpkg's
   names differ by it, and dpkg's. */
static const struct repo_arch arches[] = {
	{ "amd64", "amd64" }, { "arm64", "arm64" }, { "386", "i386" },
	{ "arm/v7", "armhf" }, { "arm/v6", "armel" }, { "arm/v5", "armel" },
	{ "arm", "armhf" }, { "ppc64le", "ppc64el" }, { "s390x", "s390x" },
	{ "riscv64", "riscv64" }, { "mips64le", "mips64el" },
	{ "mipsle", "mipsel" }, { "loong64", "loong64" },
};

const char *
repo_apt_arch(const char *platform)
{
	return repo_arch_name(platform, arches,
	    sizeof(arches) / sizeof(arches[0]));
}

/* The signed text of an InRelease (RFC 4880 section 7): after the armor
   header's blank line, up to the signature, its "- " escapes undone. */
static void
clearsigned(char *text)
{
	char *p = strstr(text, "\n\n"), *end, *out = text, *line;

	if (strncmp(text, "-----BEGIN PGP SIGNED MESSAGE-----", 34) != 0 ||
	    p == NULL)
		return;
	end = strstr(p, "\n-----BEGIN PGP SIGNATURE-----");
	if (end != NULL)
		*end = '\0';
	for (line = p + 2; *line != '\0'; line++) {
		if ((line == p + 2 || line[-1] == '\n') &&
		    strncmp(line, "- ", 2) == 0)
			line += 2;
		*out++ = *line;
	}
	*out++ = '\n';
	*out = '\0';
}

/* " HEX SIZE NAME" of the SHA256 list into s; false when it is not. */
static bool
sum_line(const char *line, size_t len, struct sum *s)
{
	char hex[65], name[4097];
	uintmax_t size;
	char buf[4200];

	if (len >= sizeof(buf))
		return false;
	memcpy(buf, line, len);
	buf[len] = '\0';
	if (sscanf(buf, " %64s %ju %4096s", hex, &size, name) != 3 ||
	    strlen(hex) != 64 || !index_hex(hex, 64))
		return false;
	memcpy(s->hex, hex, sizeof(s->hex));
	s->size = size;
	s->name = xstrdup(name);
	return true;
}

/* The Release's Components and SHA256 list. */
static void
parse_release(struct repo *r, const char *text)
{
	const char *line = text, *end;
	bool in_sums = false;
	size_t len;

	for (; *line != '\0'; line = *end != '\0' ? end + 1 : end) {
		end = strchr(line, '\n');
		if (end == NULL)
			end = line + strlen(line);
		len = (size_t)(end - line);
		if (line[0] == ' ' && in_sums) {
			r->sums = xrealloc(r->sums, (r->nsums + 1) *
			    sizeof(*r->sums));
			if (sum_line(line, len, &r->sums[r->nsums]))
				r->nsums++;
			continue;
		}
		in_sums = len == 7 && strncmp(line, "SHA256:", 7) == 0;
		if (strncmp(line, "Components:", 11) == 0 && len > 11) {
			free(r->release_components);
			r->release_components = xmalloc(len - 11 + 1);
			memcpy(r->release_components, line + 11, len - 11);
			r->release_components[len - 11] = '\0';
		}
	}
}


/* The URL of dists/SUITE/name; the caller frees it. */
static char *
dists_url(const struct repo *r, const char *name)
{
	char *dists, *path, *url;

	if (asprintf(&dists, "dists/%s/%s", r->suite, name) < 0)
		oom();
	path = fetch_escape(dists, false);
	if (asprintf(&url, "%s/%s", r->url, path) < 0)
		oom();
	free(path);
	free(dists);
	return url;
}

/* Where dists/SUITE/name is read: under ROOT, or by URL the copy in
   lists/; the caller frees it. */
static char *
dists_path(const struct repo *r, const char *name)
{
	char *path, *url, *flat;

	if (r->url == NULL) {
		if (asprintf(&path, "%s/dists/%s/%s", r->root, r->suite,
		    name) < 0)
			oom();
		return path;
	}
	url = dists_url(r, name);
	flat = fetch_escape(url, true);
	if (asprintf(&path, "%s/%s", r->lists, flat) < 0)
		oom();
	free(flat);
	free(url);
	return path;
}

/* dists/SUITE/name fetched into path: 0; 1 when the server has none and
   it is not the last file to try; else -1, said with what is skipped. */
static int
fetch_index(const struct repo *r, const char *name, const char *path,
    bool last, const char *skipped)
{
	char *url = dists_url(r, name);
	struct fetch_got got;
	int ret = 0;

	if (fetch_file(url, path, RELEASE_MAX, NULL, &got) != 0) {
		ret = !last && (got.http == 404 || got.http == 410) ? 1 : -1;
		if (ret < 0)
			warnx("%s: %s: cannot fetch: %s: %s", r->arg, url,
			    got.why, skipped);
	}
	free(url);
	return ret;
}

/* dists/SUITE/name, read whole (by URL, fetched first); NULL with errno
   set, or ENOENT when it cannot be fetched (said). */
static char *
read_dists(const struct repo *r, const char *name, size_t *len)
{
	char *path, *text;
	int e;

	path = dists_path(r, name);
	if (r->url != NULL && fetch_index(r, name, path, true,
	    "repository skipped") != 0) {
		free(path);
		errno = ENOENT;
		return NULL;
	}
	text = index_read(path, RELEASE_MAX, len, NULL);
	e = errno;
	free(path);
	errno = e;
	return text;
}

/*
 * With --keyring: of the text of dists/SUITE/name (InRelease or Release,
 * len bytes, taken), the part a key of the keyrings signed, its length
 * into *len; NULL (said) when none did.
 */
static char *
signed_text(const struct repo *r, const char *name, char *text,
    size_t *len)
{
	bool detached = strcmp(name, "Release") == 0;
	char why[256], *sig = NULL, *out = NULL;
	size_t siglen = 0;

	if (detached && (sig = read_dists(r, "Release.gpg", &siglen)) == NULL)
		warnx("%s: dists/%s/Release.gpg: %s: repository skipped",
		    r->arg, r->suite, errno == ENOENT ?
		    "not signed: --keyring needs InRelease or Release.gpg" :
		    strerror(errno));
	else if ((out = repo_gpgv(r->o->keyrings, r->o->nkeyrings, text,
	    *len, sig, siglen, len, why)) == NULL)
		warnx("%s: dists/%s/%s: %s: repository skipped", r->arg,
		    r->suite, detached ? "Release.gpg" : "InRelease", why);
	free(sig);
	free(text);
	return out;
}

static int
read_release(struct repo *r)
{
	static const char *const names[] = { "InRelease", "Release" };
	char *path, *text = NULL;
	size_t i, len;
	int error = ENOENT, fetched;

	for (i = 0; i < 2 && text == NULL; i++) {
		path = dists_path(r, names[i]);
		fetched = r->url != NULL ? fetch_index(r, names[i], path,
		    i == 1, "repository skipped") : 0;
		if (fetched < 0) {
			free(path);
			return -1;
		}
		if (fetched == 0 && (text = index_read(path, RELEASE_MAX, &len,
		    NULL)) == NULL && errno != ENOENT)
			error = errno;
		free(path);
	}
	if (text == NULL) {
		warnx("%s: cannot read dists/%s/Release: %s", r->arg,
		    r->suite, strerror(error));
		return -1;
	}
	if (r->o->nkeyrings == 0)
		clearsigned(text);
	else if ((text = signed_text(r, names[i - 1], text, &len)) == NULL)
		return -1;
	parse_release(r, text);
	free(text);
	if (r->nsums == 0) {
		warnx("%s: cannot read dists/%s/Release: no SHA256 list",
		    r->arg, r->suite);
		return -1;
	}
	return 0;
}

static const struct sum *
find_sum(const struct repo *r, const char *name)
{
	size_t i;

	for (i = 0; i < r->nsums; i++)
		if (strcmp(r->sums[i].name, name) == 0)
			return &r->sums[i];
	return NULL;
}

/* A stanza's fields that name its package file. */
struct stanza {
	const char *package, *version, *arch, *filename, *size, *sha256;
	const char *source, *depends, *predepends, *provides;
};

/* The stanza, its Size and SHA256 valid, handed on. */
static void
add_package(struct repo *r, const struct stanza *st)
{
	struct repo_package p = { .repo = r->arg, .name = st->package,
	    .version = st->version, .arch = st->arch,
	    .filename = st->filename, .sha256 = st->sha256,
	    .provides = st->provides != NULL ? st->provides : "" };
	char *path, *url = NULL, *file, *depends, *source, *end;

	errno = 0;
	p.size = strtoull(st->size, &end, 10);
	if (*end != '\0' || errno != 0 || strlen(st->sha256) != 64 ||
	    !index_hex(st->sha256, 64)) {
		warnx("%s/%s: package %s %s: the index gives no valid Size and SHA256",
		    r->root, st->filename, st->package, st->version);
		r->failed = -1;
		return;
	}
	if (r->url != NULL) {
		file = fetch_escape(st->filename, false);
		if (asprintf(&url, "%s/%s", r->url, file) < 0 ||
		    asprintf(&path, "%s/%s", r->blobs, st->sha256) < 0)
			oom();
		free(file);
	} else if (asprintf(&path, "%s/%s", r->root, st->filename) < 0)
		oom();
	if (asprintf(&depends, "%s%s%s", st->predepends != NULL ?
	    st->predepends : "", st->predepends != NULL &&
	    st->depends != NULL ? ", " : "", st->depends != NULL ?
	    st->depends : "") < 0)
		oom();
	/* "Source: NAME (VERSION)" when the versions differ. */
	source = xstrdup(st->source != NULL ? st->source : st->package);
	source[strcspn(source, " (")] = '\0';
	p.path = path;
	p.url = url;
	p.depends = depends;
	p.source = source;
	r->add(r->ctx, &p);
	free(source);
	free(depends);
	free(url);
	free(path);
}

/* Each stanza of the Packages text, its lines ended by NULs in place. */
static void
read_stanzas(struct repo *r, const char *index, char *text)
{
	static const char *const names[] = { "Package", "Version",
	    "Architecture", "Filename", "Size", "SHA256", "Source", "Depends",
	    "Pre-Depends", "Provides" };
	struct stanza st = { NULL };
	const char **field[] = { &st.package, &st.version, &st.arch,
	    &st.filename, &st.size, &st.sha256, &st.source, &st.depends,
	    &st.predepends, &st.provides };
	char *line = text, *end;
	size_t i, len;

	for (; line != NULL; line = end) {
		if ((end = strchr(line, '\n')) != NULL)
			*end++ = '\0';
		if (*line != '\0') {
			for (i = 0; i < sizeof(names) / sizeof(names[0]);
			    i++) {
				len = strlen(names[i]);
				if (strncmp(line, names[i], len) == 0 &&
				    line[len] == ':')
					*field[i] = line + len + 1 +
					    strspn(line + len + 1, " \t");
			}
			if (end != NULL)
				continue;
		}
		if (st.package == NULL)
			continue;
		if (st.filename == NULL || st.size == NULL ||
		    st.sha256 == NULL || !index_path_ok(st.filename)) {
			warnx("%s: %s: package %s: no Filename, Size and SHA256 of a path inside the repository",
			    r->arg, index, st.package);
			r->failed = -1;
		} else if (st.arch == NULL || strcmp(st.arch, r->arch) == 0 ||
		    strcmp(st.arch, "all") == 0) {
			if (st.version == NULL)
				st.version = "";
			add_package(r, &st);
		}
		memset(&st, 0, sizeof(st));
	}
}

/* The text of the component's Packages (*len bytes, digest hex, its
   Release line *s), the first of its forms the Release lists that is
   there; by URL, fetched unless the copy there is the Release's. NULL
   when there is none: said when *said. */
static char *
index_text(struct repo *r, const char *comp, char name[4096],
    const struct sum **s, size_t *len, char hex[SHA256_HEX], bool *said)
{
	static const char *const forms[] = { ".xz", ".gz", "" };
	char *path, *text = NULL, skipped[4200];
	size_t i, n = 0, at[3];
	int fetched;

	for (i = 0; i < 3; i++) {
		snprintf(name, 4096, "%s/binary-%s/Packages%s", comp, r->arch,
		    forms[i]);
		if (find_sum(r, name) != NULL)
			at[n++] = i;
	}
	snprintf(skipped, sizeof(skipped), "component %s skipped", comp);
	for (i = 0; i < n && text == NULL && !*said; i++) {
		snprintf(name, 4096, "%s/binary-%s/Packages%s", comp, r->arch,
		    forms[at[i]]);
		*s = find_sum(r, name);
		path = dists_path(r, name);
		text = index_read(path, RELEASE_MAX, len, hex);
		if (r->url != NULL && (text == NULL || *len != (*s)->size ||
		    strcmp(hex, (*s)->hex) != 0)) {
			free(text);
			text = NULL;
			if ((fetched = fetch_index(r, name, path, i + 1 == n,
			    skipped)) == 0)
				text = index_read(path, RELEASE_MAX, len, hex);
			*said = fetched < 0;
		}
		free(path);
	}
	return text;
}

/* The component's Packages, checked against the Release. */
static void
read_component(struct repo *r, const char *comp)
{
	char name[4096], *text, *plain, hex[SHA256_HEX], why[256];
	const struct sum *s = NULL;
	size_t len = 0, plen;
	bool said = false;

	if (strstr(comp, "..") != NULL) {
		warnx("%s: %s: not a component: component skipped", r->arg,
		    comp);
		r->failed = -1;
		return;
	}
	if ((text = index_text(r, comp, name, &s, &len, hex, &said)) ==
	    NULL) {
		if (!said)
			warnx("%s: %s/binary-%s/Packages: none the Release lists is there: component %s skipped",
			    r->arg, comp, r->arch, comp);
		r->failed = -1;
		return;
	}
	if (len != s->size || strcmp(hex, s->hex) != 0) {
		warnx("%s: %s: its %s is not the Release's: component %s skipped",
		    r->arg, name, len != s->size ? "size" : "SHA256", comp);
		r->failed = -1;
	} else if ((plain = index_decompress(text, len, INDEX_MAX, &plen,
	    why)) == NULL) {
		warnx("%s: %s: cannot decompress: %s: component %s skipped",
		    r->arg, name, why, comp);
		r->failed = -1;
	} else {
		read_stanzas(r, name, plain);
		free(plain);
	}
	free(text);
}

static char *
dup_n(const char *s, size_t n)
{
	char *d = xmalloc(n + 1);

	memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

/* ROOT, SUITE and COMPONENTS of arg; -1 when it is not one (said). */
static int
parse_ref(struct repo *r, const char *arg)
{
	const char *p = arg + strlen(PREFIX), *path = p, *c1, *c2;
	size_t len;

	if (strncmp(p, "http://", 7) == 0 || strncmp(p, "https://", 8) == 0) {
		if (!fetch_supported()) {
			warnx("%s: %s", arg, FETCH_UNSUPPORTED);
			return -1;
		}
		/* The authority may hold a port's ':'; the path starts at the
		   first '/' after it. */
		path = strchr(strstr(p, "://") + 3, '/');
		if (path == NULL) {
			warnx("%s: not apt:URL:SUITE[:COMPONENT[,COMPONENT]], URL http(s)://HOST[:PORT]/PATH",
			    arg);
			return -1;
		}
	}
	if ((c1 = strchr(path, ':')) == NULL || c1 == p || c1[1] == '\0' ||
	    c1[1] == ':') {
		warnx("%s: not apt:ROOT:SUITE[:COMPONENT[,COMPONENT]]", arg);
		return -1;
	}
	for (len = (size_t)(c1 - p); path != p && p[len - 1] == '/'; len--)
		;
	r->root = dup_n(p, len);
	r->url = path != p ? r->root : NULL;
	c2 = strchr(c1 + 1, ':');
	r->suite = dup_n(c1 + 1, c2 != NULL ? (size_t)(c2 - c1 - 1) :
	    strlen(c1 + 1));
	r->components = c2 != NULL && c2[1] != '\0' ? xstrdup(c2 + 1) : NULL;
	if (strstr(r->suite, "..") != NULL) {
		warnx("%s: not a suite: %s", arg, r->suite);
		return -1;
	}
	return 0;
}

/* By URL, the cache's directories for the Release and the indices, and
   for the packages; -1 when they cannot be made (said). */
static int
open_cache(struct repo *r)
{
	if (r->url == NULL)
		return 0;
	if ((r->lists = fetch_cache("lists")) == NULL ||
	    (r->blobs = fetch_cache("by-sha256")) == NULL) {
		warnx("%s: no cache directory for what is fetched: %s: repository skipped",
		    r->arg, strerror(errno));
		return -1;
	}
	return 0;
}

int
repo_apt_packages(const char *arg, const struct repo_opts *o,
    void (*add)(void *ctx, const struct repo_package *p), void *ctx)
{
	const char *platform = o->platform;
	struct repo r = { .arg = arg, .add = add, .ctx = ctx, .o = o,
	    .arch = o->arch != NULL ? o->arch : repo_apt_arch(platform) };
	char *list, *comp, *save;
	size_t i;

	if (r.arch == NULL) {
		warnx("%s: no dpkg architecture for %s: name one with --arch",
		    arg, platform != NULL ? platform : "this machine");
		return -1;
	}
	if (parse_ref(&r, arg) < 0 || open_cache(&r) < 0 ||
	    read_release(&r) < 0) {
		r.failed = -1;
		goto out;
	}
	list = xstrdup(r.components != NULL ? r.components :
	    r.release_components != NULL ? r.release_components : "main");
	for (comp = strtok_r(list, ", \t", &save); comp != NULL;
	    comp = strtok_r(NULL, ", \t", &save))
		read_component(&r, comp);
	free(list);
out:
	for (i = 0; i < r.nsums; i++)
		free(r.sums[i].name);
	free(r.sums);
	free(r.root);
	free(r.lists);
	free(r.blobs);
	free(r.suite);
	free(r.components);
	free(r.release_components);
	return r.failed;
}
