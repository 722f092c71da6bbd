/*
 * repo-rpm.c - an rpm-md repository as input: rpm-md:ROOT, ROOT a
 * directory holding repodata/ as createrepo_c writes it. Its stages, each
 * vouching for the next:
 *   1. repodata/repomd.xml: the location, size and SHA256 of the primary
 *      metadata;
 *   2. that file, read whole: its size and SHA256 checked against
 *      repomd.xml, then decompressed (index.c) as a stream;
 *   3. each package of the primary metadata of ARCH or noarch, parsed as
 *      the stream comes (Fedora's is hundreds of MB decompressed: libxml2's
 *      reader holds one package at a time), handed on as a struct
 *      repo_package, its size and SHA256 (its pkgid) the index's:
 *      repo_check() (repo.c) vouches for the .rpm before it is read.
 * What fails is said in one line naming the index or the package; the
 * repository or the package is skipped, the rest goes on.
 *
 * With --keyring, stage 1 is vouched for too, as dnf does with
 * repo_gpgcheck: repomd.xml must carry a good detached signature by a key
 * of the keyrings, repodata/repomd.xml.asc (repo-gpgv.c), or the
 * repository is skipped. A package's own header signature is not checked
 * (its bytes are the index's, and the index is signed). libxml2 is loaded
 * when the first
 * repository is met (lazy.c); without it (configure --without-libxml2)
 * rpm-md: is refused.
 */
#include <err.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "fetch.h"
#include "index.h"
#include "lazy.h"
#include "repo.h"
#include "xalloc.h"

#define PREFIX "rpm-md:"

bool
repo_rpm_named(const char *arg)
{
	return strncmp(arg, PREFIX, strlen(PREFIX)) == 0;
}

/* OCI's architecture names (Go's GOARCH) and rpm's. */
static const struct repo_arch arches[] = {
	{ "amd64", "x86_64" }, { "arm64", "aarch64" }, { "386", "i686" },
	{ "ppc64le", "ppc64le" }, { "s390x", "s390x" },
	{ "riscv64", "riscv64" },
};

const char *
repo_rpm_arch(const char *platform)
{
	return repo_arch_name(platform, arches,
	    sizeof(arches) / sizeof(arches[0]));
}

#ifndef HAVE_LIBXML2
int
repo_rpm_packages(const char *arg, const struct repo_opts *o,
    void (*add)(void *ctx, const struct repo_package *p), void *ctx)
{
	(void)o;
	(void)add;
	(void)ctx;
	warnx("%s: built without libxml2", arg);
	return -1;
}
#else
#define REPOMD "repodata/repomd.xml"
#define REPOMD_MAX (16u << 20)	/* bytes of repomd.xml */
#define REPOMD_ASC "repodata/repomd.xml.asc"
#define SIG_MAX (1u << 20)	/* bytes of its signature (one: 300) */
#define PRIMARY_MAX (1u << 30)	/* bytes of the primary metadata as read */
#define PRIMARY_XML_MAX (16ull << 30)	/* and decompressed, streamed */
#define NS_REPO "http://linux.duke.edu/metadata/repo"
#define NS_COMMON "http://linux.duke.edu/metadata/common"
#define NS_RPM "http://linux.duke.edu/metadata/rpm"
/* No network, and no blank text between elements. */
#define XML_OPTIONS (XML_PARSE_NONET | XML_PARSE_NOBLANKS)

struct repo {
	const char *arg;	/* as named */
	const char *root, *arch;
	const struct repo_opts *o;
	char *url;		/* root, when it is a URL, without its last
				   '/'; else NULL */
	char *lists, *blobs;	/* by URL: the cache's directories */
	void (*add)(void *ctx, const struct repo_package *p);
	void *ctx;
	int failed;
};

/* Where the file rel of the repository is read: under ROOT; by URL, the
   copy in the cache's lists/, fetched unless it is there with the SHA256
   wanted (when one is). NULL when it cannot be fetched (said, with what is
   skipped), or (*other) a whole body came that is not the one wanted. The
   caller frees it. */
static char *
file_of(struct repo *r, const char *rel, uint64_t max, const char *sha256,
    bool *other)
{
	char *path, *url, *esc, hex[SHA256_HEX];
	struct fetch_got got;
	size_t len;
	char *have;
	int f;

	*other = false;
	if (r->url == NULL) {
		if (asprintf(&path, "%s/%s", r->root, rel) < 0)
			oom();
		return path;
	}
	esc = fetch_escape(rel, false);
	if (asprintf(&url, "%s/%s", r->url, esc) < 0)
		oom();
	free(esc);
	esc = fetch_escape(url, true);
	if (asprintf(&path, "%s/%s", r->lists, esc) < 0)
		oom();
	free(esc);
	if (sha256 != NULL && (have = index_read(path, max, &len, hex)) !=
	    NULL) {
		free(have);
		if (strcmp(hex, sha256) == 0) {
			free(url);
			return path;
		}
	}
	if ((f = fetch_file(url, path, max, sha256, &got)) != 0) {
		if (f < 0)
			warnx("%s: %s: cannot fetch: %s: repository skipped",
			    r->arg, url, got.why);
		*other = f > 0;
		free(path);
		path = NULL;
	}
	free(url);
	return path;
}

/* A document being read, with the first error libxml2 gave. */
struct xml {
	xmlTextReaderPtr r;
	char why[256];
};

/* What repomd.xml says of the primary metadata; each may be NULL. */
struct primary {
	char *href, *base, *sum_type, *sum, *size;
};

/* What primary.xml says of a package; each may be NULL. */
struct pkg {
	char *type, *name, *arch, *epoch, *ver, *rel;
	char *sum_type, *sum, *size, *href, *base, *sourcerpm;
	struct buf depends, provides;
	char depends_space[256], provides_space[256];
};

static void
xml_error(void *arg, xmlErrorPtr e)
{
	struct xml *x = arg;
	char *c;

	if (x->why[0] != '\0' || e->level < XML_ERR_ERROR)
		return;
	snprintf(x->why, sizeof(x->why), "line %d: %s", e->line,
	    e->message != NULL ? e->message : "not well-formed");
	for (c = x->why; *c != '\0'; c++)
		if (*c == '\n' || *c == '\r')
			*c = ' ';
	while (c > x->why && c[-1] == ' ')
		*--c = '\0';
}

/* Is the reader at the start of the element ns:name at depth? */
static bool
at(const struct xml *x, int depth, const char *ns, const char *name)
{
	const xmlChar *n, *u;

	if (libxml2.xmlTextReaderNodeType(x->r) != XML_READER_TYPE_ELEMENT ||
	    libxml2.xmlTextReaderDepth(x->r) != depth)
		return false;
	n = libxml2.xmlTextReaderConstLocalName(x->r);
	u = libxml2.xmlTextReaderConstNamespaceUri(x->r);
	return n != NULL && u != NULL && strcmp((const char *)n, name) == 0 &&
	    strcmp((const char *)u, ns) == 0;
}

/* A copy of the attribute named (qualified: "xml:base") of the element
   the reader is at, or NULL. */
static char *
attr(const struct xml *x, const char *name)
{
	const xmlChar *n, *v;
	char *got = NULL;
	int more;

	for (more = libxml2.xmlTextReaderMoveToFirstAttribute(x->r);
	    more == 1 && got == NULL;
	    more = libxml2.xmlTextReaderMoveToNextAttribute(x->r)) {
		n = libxml2.xmlTextReaderConstName(x->r);
		v = libxml2.xmlTextReaderConstValue(x->r);
		if (n != NULL && strcmp((const char *)n, name) == 0)
			got = xstrdup(v != NULL ? (const char *)v : "");
	}
	libxml2.xmlTextReaderMoveToElement(x->r);
	return got;
}

/* The text of the element the reader is at, which it reads to its end: a
   copy, or NULL when the document breaks. */
static char *
text(const struct xml *x)
{
	char space[256], *got;
	struct buf b;
	const xmlChar *v;
	int depth = libxml2.xmlTextReaderDepth(x->r), type, r = 1;

	BUF_INIT(b, space);
	if (!libxml2.xmlTextReaderIsEmptyElement(x->r))
		while ((r = libxml2.xmlTextReaderRead(x->r)) == 1) {
			type = libxml2.xmlTextReaderNodeType(x->r);
			if (type == XML_READER_TYPE_END_ELEMENT &&
			    libxml2.xmlTextReaderDepth(x->r) == depth)
				break;
			if ((type == XML_READER_TYPE_TEXT ||
			    type == XML_READER_TYPE_CDATA ||
			    type == XML_READER_TYPE_SIGNIFICANT_WHITESPACE) &&
			    (v = libxml2.xmlTextReaderConstValue(x->r)) != NULL)
				buf_puts(&b, (const char *)v);
		}
	got = r == 1 ? xstrdup(b.p) : NULL;
	buf_free(&b);
	return got;
}

/* *field = v, what it held freed; false when v is NULL. */
static bool
set(char **field, char *v)
{
	free(*field);
	*field = v;
	return v != NULL;
}

/* The location, checksum and size of the primary metadata, from the
   children of its <data> (the reader at depth 2); false when the
   document breaks. */
static bool
primary_field(const struct xml *x, struct primary *pm)
{
	if (at(x, 2, NS_REPO, "location")) {
		set(&pm->base, attr(x, "xml:base"));
		set(&pm->href, attr(x, "href"));
	} else if (at(x, 2, NS_REPO, "checksum")) {
		set(&pm->sum_type, attr(x, "type"));
		return set(&pm->sum, text(x));
	} else if (at(x, 2, NS_REPO, "size"))
		return set(&pm->size, text(x));
	return true;
}

/* With --keyring: repomd.xml's text (len bytes, taken) when a key of the
   keyrings signed it (repomd.xml.asc); NULL (said) when none did. */
static char *
signed_repomd(struct repo *r, char *doc, size_t *len)
{
	char why[256], *path, *sig = NULL, *out = NULL;
	size_t siglen = 0;
	bool other;

	/* By URL, one that cannot be fetched is said by file_of(). */
	if ((path = file_of(r, REPOMD_ASC, SIG_MAX, NULL, &other)) != NULL &&
	    (sig = index_read(path, SIG_MAX, &siglen, NULL)) == NULL)
		warnx("%s: %s: %s: repository skipped", r->arg, REPOMD_ASC,
		    errno == ENOENT ?
		    "not signed: --keyring needs repodata/repomd.xml.asc" :
		    strerror(errno));
	else if (sig != NULL && (out = repo_gpgv(r->o->keyrings,
	    r->o->nkeyrings, doc, *len, sig, siglen, len, why)) == NULL)
		warnx("%s: %s: %s: repository skipped", r->arg, REPOMD_ASC,
		    why);
	free(path);
	free(sig);
	free(doc);
	return out;
}

/* What repomd.xml says of the primary metadata (its first <data
   type="primary">), into pm; -1 when it cannot be read (said). */
static int
read_repomd(struct repo *r, struct primary *pm)
{
	struct xml x = { NULL };
	char *path, *doc, *type;
	size_t len;
	bool in = false, seen = false, other;
	int got;

	if ((path = file_of(r, REPOMD, REPOMD_MAX, NULL, &other)) == NULL)
		return -1;
	doc = index_read(path, REPOMD_MAX, &len, NULL);
	free(path);
	if (doc == NULL) {
		warnx("%s: repodata/repomd.xml: cannot read: %s", r->arg,
		    strerror(errno));
		return -1;
	}
	if (r->o->nkeyrings > 0 && (doc = signed_repomd(r, doc, &len)) ==
	    NULL)
		return -1;
	if ((x.r = libxml2.xmlReaderForMemory(doc, (int)len, REPOMD, NULL,
	    XML_OPTIONS)) == NULL)
		oom();
	libxml2.xmlTextReaderSetStructuredErrorHandler(x.r, xml_error, &x);
	while ((got = libxml2.xmlTextReaderRead(x.r)) == 1) {
		if (at(&x, 1, NS_REPO, "data")) {
			type = attr(&x, "type");
			in = !seen && type != NULL &&
			    strcmp(type, "primary") == 0 &&
			    !libxml2.xmlTextReaderIsEmptyElement(x.r);
			seen = seen || in;
			free(type);
		} else if (libxml2.xmlTextReaderDepth(x.r) <= 1)
			in = false;
		else if (in && !primary_field(&x, pm))
			got = -1;
		if (got < 0)
			break;
	}
	libxml2.xmlFreeTextReader(x.r);
	free(doc);
	if (got < 0) {
		warnx("%s: repodata/repomd.xml: not XML: %s", r->arg,
		    x.why[0] != '\0' ? x.why : "not well-formed");
		return -1;
	}
	return 0;
}

/* The primary metadata repomd.xml names, read whole and vouched for by
   it; NULL when it cannot be (said). */
static char *
read_primary(struct repo *r, const struct primary *pm, size_t *len)
{
	char *path, *doc, hex[SHA256_HEX], *end;
	uint64_t size;
	bool other;

	if (pm->href == NULL || pm->sum == NULL || pm->size == NULL) {
		warnx("%s: repodata/repomd.xml: no location, checksum and size of the primary metadata",
		    r->arg);
		return NULL;
	}
	if (pm->sum_type == NULL || strcmp(pm->sum_type, "sha256") != 0) {
		warnx("%s: repodata/repomd.xml: the primary metadata's checksum is %s, not sha256",
		    r->arg, pm->sum_type != NULL ? pm->sum_type : "of no type");
		return NULL;
	}
	if (pm->base != NULL) {
		warnx("%s: repodata/repomd.xml: the primary metadata's location has an xml:base: not supported",
		    r->arg);
		return NULL;
	}
	errno = 0;
	size = strtoull(pm->size, &end, 10);
	if (!index_path_ok(pm->href) || strlen(pm->sum) != 64 ||
	    !index_hex(pm->sum, 64) || *end != '\0' || errno != 0 ||
	    pm->size[0] == '\0') {
		warnx("%s: repodata/repomd.xml: no valid location, SHA256 and size of the primary metadata inside the repository",
		    r->arg);
		return NULL;
	}
	if ((path = file_of(r, pm->href, size, pm->sum, &other)) == NULL) {
		if (other)
			warnx("%s: %s: its SHA256 is not repomd.xml's: repository skipped",
			    r->arg, pm->href);
		return NULL;
	}
	doc = index_read(path, PRIMARY_MAX, len, hex);
	free(path);
	if (doc == NULL)
		warnx("%s: %s: cannot read: %s: repository skipped", r->arg,
		    pm->href, strerror(errno));
	else if (*len != size || strcmp(hex, pm->sum) != 0) {
		warnx("%s: %s: its %s is not repomd.xml's: repository skipped",
		    r->arg, pm->href, *len != size ? "size" : "SHA256");
		free(doc);
		doc = NULL;
	}
	return doc;
}

static void
pkg_free(struct pkg *p)
{
	char **f[] = { &p->type, &p->name, &p->arch, &p->epoch, &p->ver,
	    &p->rel, &p->sum_type, &p->sum, &p->size, &p->href, &p->base,
	    &p->sourcerpm };
	size_t i;

	for (i = 0; i < sizeof(f) / sizeof(f[0]); i++)
		free(*f[i]);
	buf_free(&p->depends);
	buf_free(&p->provides);
}

/* One element of a <package> (the reader at depth 2 or below) into p;
   *list is the <rpm:requires> or <rpm:provides> being read, or NULL.
   False when the document breaks. */
static bool
pkg_field(const struct xml *x, struct pkg *p, struct buf **list)
{
	char *name;

	if (at(x, 4, NS_RPM, "entry")) {
		if (*list != NULL && (name = attr(x, "name")) != NULL) {
			if ((*list)->len > 0)
				buf_puts(*list, ", ");
			buf_puts(*list, name);
			free(name);
		}
	} else if (libxml2.xmlTextReaderDepth(x->r) == 3)
		*list = at(x, 3, NS_RPM, "requires") ? &p->depends :
		    at(x, 3, NS_RPM, "provides") ? &p->provides : NULL;
	if (at(x, 3, NS_RPM, "sourcerpm"))
		return set(&p->sourcerpm, text(x));
	if (at(x, 2, NS_COMMON, "name"))
		return set(&p->name, text(x));
	if (at(x, 2, NS_COMMON, "arch"))
		return set(&p->arch, text(x));
	if (at(x, 2, NS_COMMON, "checksum")) {
		set(&p->sum_type, attr(x, "type"));
		return set(&p->sum, text(x));
	}
	if (at(x, 2, NS_COMMON, "version")) {
		set(&p->epoch, attr(x, "epoch"));
		set(&p->ver, attr(x, "ver"));
		set(&p->rel, attr(x, "rel"));
	} else if (at(x, 2, NS_COMMON, "size"))
		set(&p->size, attr(x, "package"));
	else if (at(x, 2, NS_COMMON, "location")) {
		set(&p->base, attr(x, "xml:base"));
		set(&p->href, attr(x, "href"));
	}
	return true;
}

/* NAME of NAME-VERSION-RELEASE.src.rpm, or NULL. */
static char *
source_name(const char *srpm)
{
	char *s, *dash;
	size_t len = strlen(srpm), n = strlen(".src.rpm");
	int i;

	if (len <= n || strcmp(srpm + len - n, ".src.rpm") != 0)
		return NULL;
	s = xstrdup(srpm);
	s[len - n] = '\0';
	for (i = 0; i < 2; i++) {
		if ((dash = strrchr(s, '-')) == NULL || dash == s) {
			free(s);
			return NULL;
		}
		*dash = '\0';
	}
	return s;
}

/* Can p be handed on? Said when not (index names the primary metadata,
   version is p's). */
static bool
pkg_ok(struct repo *r, const char *index, struct pkg *p,
    const char *version, uint64_t *size)
{
	const char *no = NULL;
	char *end, *c;

	if (p->sum == NULL || p->size == NULL || p->href == NULL)
		no = "no checksum, size and location";
	else if (p->sum_type == NULL || strcmp(p->sum_type, "sha256") != 0) {
		warnx("%s: %s: package %s %s: its checksum is %s, not sha256: package skipped",
		    r->arg, index, p->name, version, p->sum_type != NULL ?
		    p->sum_type : "of no type");
		return false;
	} else if (p->base != NULL)
		no = "its location has an xml:base: not supported";
	else if (!index_path_ok(p->href))
		no = "its location is not a path inside the repository";
	else {
		for (c = p->sum; *c != '\0'; c++)
			if (*c >= 'A' && *c <= 'F')
				*c = (char)(*c - 'A' + 'a');
		errno = 0;
		*size = strtoull(p->size, &end, 10);
		if (strlen(p->sum) != 64 || !index_hex(p->sum, 64) ||
		    *end != '\0' || errno != 0 || p->size[0] == '\0')
			no = "no valid SHA256 and size";
	}
	if (no != NULL)
		warnx("%s: %s: package %s %s: %s: package skipped", r->arg,
		    index, p->name, version, no);
	return no == NULL;
}

/* p, when it is of the architecture read or noarch and can be read,
   handed on. */
static void
hand_on(struct repo *r, const char *index, struct pkg *p)
{
	struct repo_package rp = { .repo = r->arg };
	char *version, *path, *source = NULL, *url = NULL;
	bool epoch;

	if (p->type == NULL || strcmp(p->type, "rpm") != 0)
		return;
	if (p->name == NULL || p->arch == NULL) {
		warnx("%s: %s: a package without name and arch: package skipped",
		    r->arg, index);
		r->failed = -1;
		return;
	}
	if (strcmp(p->arch, "noarch") != 0 && strcmp(p->arch, r->arch) != 0)
		return;
	epoch = p->epoch != NULL && p->epoch[0] != '\0' &&
	    strcmp(p->epoch, "0") != 0;
	if (asprintf(&version, "%s%s%s-%s", epoch ? p->epoch : "",
	    epoch ? ":" : "", p->ver != NULL ? p->ver : "",
	    p->rel != NULL ? p->rel : "") < 0)
		oom();
	if (!pkg_ok(r, index, p, version, &rp.size)) {
		r->failed = -1;
		free(version);
		return;
	}
	if (r->url != NULL) {
		char *esc = fetch_escape(p->href, false);

		if (asprintf(&url, "%s/%s", r->url, esc) < 0 ||
		    asprintf(&path, "%s/%s", r->blobs, p->sum) < 0)
			oom();
		free(esc);
	} else if (asprintf(&path, "%s/%s", r->root, p->href) < 0)
		oom();
	if (p->sourcerpm != NULL)
		source = source_name(p->sourcerpm);
	rp.name = p->name;
	rp.version = version;
	rp.arch = p->arch;
	rp.source = source != NULL ? source : p->name;
	rp.filename = p->href;
	rp.path = path;
	rp.url = url;
	rp.sha256 = p->sum;
	rp.depends = p->depends.p;
	rp.provides = p->provides.p;
	r->add(r->ctx, &rp);
	free(source);
	free(url);
	free(path);
	free(version);
}

/* The <package> the reader is at, read to its end and handed on; -1 when
   the document breaks. */
static int
read_package(struct repo *r, const struct xml *x, const char *index)
{
	struct pkg p = { NULL };
	struct buf *list = NULL;
	int got = 1;

	BUF_INIT(p.depends, p.depends_space);
	BUF_INIT(p.provides, p.provides_space);
	p.type = attr(x, "type");
	if (!libxml2.xmlTextReaderIsEmptyElement(x->r))
		while ((got = libxml2.xmlTextReaderRead(x->r)) == 1 &&
		    libxml2.xmlTextReaderDepth(x->r) > 1)
			if (!pkg_field(x, &p, &list)) {
				got = -1;
				break;
			}
	if (got == 1)
		hand_on(r, index, &p);
	pkg_free(&p);
	return got == 1 ? 0 : -1;
}

/* libxml2's input: the decompressed primary metadata. */
static int
stream_read(void *ctx, char *buf, int len)
{
	return (int)index_stream_read(ctx, buf, (size_t)len);
}

/* Each package of the primary metadata (doc, len bytes, vouched for),
   parsed as it is decompressed. */
static void
read_packages(struct repo *r, const char *index, const char *doc,
    size_t len)
{
	struct index_stream *s = index_open(doc, len, PRIMARY_XML_MAX);
	struct xml x = { NULL };
	int got;

	if ((x.r = libxml2.xmlReaderForIO(stream_read, NULL, s, index, NULL,
	    XML_OPTIONS)) == NULL)
		got = -1;
	else {
		libxml2.xmlTextReaderSetStructuredErrorHandler(x.r, xml_error,
		    &x);
		while ((got = libxml2.xmlTextReaderRead(x.r)) == 1)
			if (at(&x, 1, NS_COMMON, "package") &&
			    read_package(r, &x, index) < 0) {
				got = -1;
				break;
			}
		libxml2.xmlFreeTextReader(x.r);
	}
	if (got < 0 && index_error(s)[0] != '\0')
		warnx("%s: %s: cannot decompress: %s: the rest of the repository skipped",
		    r->arg, index, index_error(s));
	else if (got < 0)
		warnx("%s: %s: not XML: %s: the rest of the repository skipped",
		    r->arg, index, x.why[0] != '\0' ? x.why :
		    "not well-formed");
	if (got < 0)
		r->failed = -1;
	index_close(s);
}

int
repo_rpm_packages(const char *arg, const struct repo_opts *o,
    void (*add)(void *ctx, const struct repo_package *p), void *ctx)
{
	struct repo r = { .arg = arg, .root = arg + strlen(PREFIX), .o = o,
	    .add = add, .ctx = ctx,
	    .arch = o->arch != NULL ? o->arch : repo_rpm_arch(o->platform) };
	struct primary pm = { NULL };
	const char *no;
	char *doc;
	size_t len;

	if (strncmp(r.root, "http://", 7) == 0 ||
	    strncmp(r.root, "https://", 8) == 0) {
		if (!fetch_supported()) {
			warnx("%s: %s", arg, FETCH_UNSUPPORTED);
			return -1;
		}
		r.url = xstrdup(r.root);
		while (strlen(r.url) > 8 && r.url[strlen(r.url) - 1] == '/')
			r.url[strlen(r.url) - 1] = '\0';
		if ((r.lists = fetch_cache("lists")) == NULL ||
		    (r.blobs = fetch_cache("by-sha256")) == NULL) {
			warnx("%s: no cache directory for what is fetched: %s: repository skipped",
			    arg, strerror(errno));
			r.failed = -1;
			goto out;
		}
	}
	if (r.root[0] == '\0') {
		warnx("%s: not rpm-md:ROOT", arg);
		return -1;
	}
	if (r.arch == NULL) {
		warnx("%s: no rpm architecture for %s: name one with --arch",
		    arg, o->platform != NULL ? o->platform : "this machine");
		return -1;
	}
	if (lazy_xml_load(&no) < 0) {
		warnx("%s: %s", arg, no);
		return -1;
	}
	if (read_repomd(&r, &pm) < 0 ||
	    (doc = read_primary(&r, &pm, &len)) == NULL)
		r.failed = -1;
	else {
		read_packages(&r, pm.href, doc, len);
		free(doc);
	}
out:
	free(pm.href);
	free(pm.base);
	free(pm.sum_type);
	free(pm.sum);
	free(pm.size);
	free(r.url);
	free(r.lists);
	free(r.blobs);
	return r.failed;
}
#endif
