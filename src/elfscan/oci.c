/*
 * oci.c - container images: the file system a container of the image
 * would see, scanned without unpacking it.
 *
 * Three forms: an OCI image layout (a directory with oci-layout and
 * index.json, blobs under blobs/ALG/HEX), an OCI archive (the same in a
 * tar), and a `docker save` tarball (manifest.json naming each image's
 * layer tarballs). An index may hold several images (tags, platforms). An
 * image is its manifest: one that several tags name, or that an index
 * lists twice, is read once, under all its names joined by commas (a tag,
 * and [OS/ARCH] for one platform of a multi-platform index); the caller
 * may select one tag (oci:DIR:TAG, as skopeo names it) and one platform
 * (struct oci_select). An image is named in what is reported when it has
 * a tag, or when the file holds several.
 *
 * The layers are read once each, top layer first, as streams
 * (container_scan_stream). Reading downwards, the first version of a path
 * met is the one the container sees; the image's file system as a table
 * of its paths (tree.h) says whether each entry is, as it is built. So a
 * file deleted by an upper layer's whiteout, or replaced, is never
 * reported, and each file once, as its last version; memory grows with
 * the number of paths, not with the size of the image. A hard link in a
 * layer names a file of the same layer, read before it: the link gets
 * that file's results.
 *
 * An image judged as a root (out->root) is read twice: first for its file
 * system alone, with the few files its rules come from kept, and no ELF
 * file read; then as above, its rules known, each file handed over as a
 * file of the root, by its identity in the table.
 *
 * Blob names come from the JSON documents only after a check: a digest is
 * ALG:HEX, a docker layer path is relative and free of "..". Documents are
 * read up to JSON_MAX bytes and parsed with json-c.
 */
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "container.h"
#include "lazy.h"
#include "tree.h"
#include "xalloc.h"

#define JSON_MAX (4u << 20)	/* bytes of an index or manifest */
#define IMAGES_MAX 1024
#define LAYERS_MAX 1024
#define NEST_MAX 4		/* indexes within indexes */

/* Where the blobs are: files under a layout directory, or tar members. */
struct src {
	int fd;
	bool dir;
	const char *path;	/* the image's file or directory */
	char *index;		/* a layout's index.json, by its path */
	const struct oci_select *sel;
	const struct container_out *out;
};

/* A blob's bytes, as a stream. */
struct source {
	ssize_t (*read)(void *arg, void *buf, size_t len);
	void *arg;
	uint64_t size;		/* or UINT64_MAX */
};

/* One image: its names and its layers, bottom first. */
struct image {
	char *name;		/* its names, joined by "," */
	char *key;		/* what it is: its manifest's digest (docker's:
				   its config's name) */
	bool tagged;		/* named by a tag, not by a digest */
	size_t n;
	char *blob[LAYERS_MAX];		/* the layer's file */
	char *digest[LAYERS_MAX];	/* the layer's digest */
};

struct images {
	struct image **v;
	size_t n;
};

static void
fail(struct src *src, const char *layer, const char *what, const char *why)
{
	struct batch b = { .at = { .path = src->path, .layer = layer,
	    .streamed = true } };

	batch_add(&b, FOUND_ERROR, NULL, "cannot read image: %.200s: %.200s",
	    what, why);
	src->out->found(src->out->arg, &b);
	batch_clear(&b);
}

/* ---- blobs: files of a layout, or members of a tar ---- */

struct blob {
	int fd;			/* a layout's file, or -1 */
	struct archive *a;	/* the tar, at the member */
	uint64_t size;
};

static ssize_t
blob_read(void *arg, void *buf, size_t len)
{
	struct blob *b = arg;
	ssize_t n;

	if (b->a != NULL) {
		n = libarchive.archive_read_data(b->a, buf, len);
		return n < 0 ? -1 : n;
	}
	do
		n = read(b->fd, buf, len);
	while (n == -1 && errno == EINTR);
	return n;
}

/* A tar member's name without "./" (and a directory's final "/"). */
static bool
same_name(const char *member, const char *want)
{
	size_t n;

	while (member[0] == '.' && member[1] == '/')
		member += 2;
	n = strlen(want);
	return strncmp(member, want, n) == 0 && (member[n] == '\0' ||
	    (member[n] == '/' && member[n + 1] == '\0'));
}

/* Open the tar on src->fd from its start, at the member named name; a
   symbolic link to a member (docker's layer.tar) is followed once.
   Returns the reader, or NULL with why set. */
static struct archive *
tar_find(struct src *src, const char *name, uint64_t *size, int depth,
    const char **why)
{
	struct archive *a = libarchive.archive_read_new();
	struct archive_entry *ae;
	char target[4096], *slash;
	int r;

	if (a == NULL || lseek(src->fd, 0, SEEK_SET) == -1) {
		*why = a == NULL ? "out of memory" : strerror(errno);
		libarchive.archive_read_free(a);
		return NULL;
	}
	libarchive.archive_read_support_format_tar(a);
	if (libarchive.archive_read_open_fd(a, src->fd, 65536) != ARCHIVE_OK) {
		*why = "not a tar archive";
		libarchive.archive_read_free(a);
		return NULL;
	}
	while ((r = libarchive.archive_read_next_header(a, &ae)) == ARCHIVE_OK ||
	    r == ARCHIVE_WARN) {
		const char *p = libarchive.archive_entry_pathname(ae);

		if (p == NULL || !same_name(p, name))
			continue;
		if (libarchive.archive_entry_filetype(ae) == AE_IFLNK &&
		    depth == 0 && libarchive.archive_entry_symlink(ae) != NULL) {
			/* relative to the link's directory */
			const char *t = libarchive.archive_entry_symlink(ae);

			snprintf(target, sizeof(target), "%s", name);
			slash = strrchr(target, '/');
			if (slash == NULL)
				slash = target;
			*slash = '\0';
			while (strncmp(t, "../", 3) == 0 && slash != target) {
				t += 3;
				slash = strrchr(target, '/');
				if (slash == NULL)
					slash = target;
				*slash = '\0';
			}
			snprintf(slash, sizeof(target) - (size_t)(slash -
			    target), "%s%s", slash == target ? "" : "/", t);
			libarchive.archive_read_free(a);
			return tar_find(src, target, size, 1, why);
		}
		*size = libarchive.archive_entry_size_is_set(ae) &&
		    libarchive.archive_entry_size(ae) >= 0 ?
		    (uint64_t)libarchive.archive_entry_size(ae) : UINT64_MAX;
		return a;
	}
	*why = r == ARCHIVE_EOF ? "no such member" : libarchive.archive_error_string(a);
	if (*why == NULL)
		*why = "unknown error";
	libarchive.archive_read_free(a);
	return NULL;
}

/* A blob's name, if safe: relative, no "..", no empty component. */
static bool
safe_name(const char *name)
{
	const char *p;

	if (name[0] == '/' || name[0] == '\0' || strlen(name) > 1024)
		return false;
	for (p = name; *p != '\0'; p += strcspn(p, "/"), p += *p == '/')
		if (*p == '/' || (p[0] == '.' && (p[1] == '/' || p[1] == '\0' ||
		    (p[1] == '.' && (p[2] == '/' || p[2] == '\0')))))
			return false;
	return true;
}

/* "ALG:HEX" as the blob's name in a layout, "blobs/ALG/HEX"; false when
   the digest is not of that form. */
static bool
digest_blob(const char *digest, char *buf, size_t len)
{
	size_t alg = strspn(digest, "abcdefghijklmnopqrstuvwxyz0123456789+._-");
	size_t hex;

	if (alg == 0 || digest[alg] != ':')
		return false;
	hex = strspn(digest + alg + 1, "0123456789abcdef");
	if (hex < 32 || digest[alg + 1 + hex] != '\0')
		return false;
	return (size_t)snprintf(buf, len, "blobs/%.*s/%s", (int)alg, digest,
	    digest + alg + 1) < len;
}

/* Call fn with a stream of the blob's bytes. Returns fn's value, or -1
   with why set when the blob cannot be opened. */
static int
with_blob(struct src *src, const char *name,
    int (*fn)(void *arg, const struct source *s), void *arg,
    const char **why)
{
	struct blob b = { .fd = -1 };
	struct source st = { blob_read, &b, UINT64_MAX };
	struct stat sb;
	int r;

	if (src->dir) {
		b.fd = openat(src->fd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC |
		    O_NONBLOCK);
		if (b.fd == -1 || fstat(b.fd, &sb) == -1 ||
		    !S_ISREG(sb.st_mode)) {
			*why = b.fd == -1 || errno != 0 ? strerror(errno) :
			    "not a regular file";
			if (b.fd != -1)
				close(b.fd);
			return -1;
		}
		st.size = (uint64_t)sb.st_size;
	} else if ((b.a = tar_find(src, name, &st.size, 0, why)) == NULL) {
		return -1;
	}
	r = fn(arg, &st);
	if (b.fd != -1)
		close(b.fd);
	libarchive.archive_read_free(b.a);
	return r;
}

/* ---- JSON documents ---- */

struct doc {
	json_object *root;
	const char *why;
};

static int
parse_doc(void *arg, const struct source *s)
{
	struct doc *d = arg;
	json_tokener *tok;
	char *buf;
	size_t len = 0;
	ssize_t n = 1;

	if (s->size != UINT64_MAX && s->size > JSON_MAX) {
		d->why = "larger than 4 MiB";
		return -1;
	}
	buf = xcalloc(1, JSON_MAX + 1);
	while (len <= JSON_MAX && (n = s->read(s->arg, buf + len,
	    JSON_MAX + 1 - len)) > 0)
		len += (size_t)n;
	if (n < 0 || len > JSON_MAX) {
		d->why = n < 0 ? "cannot read" : "larger than 4 MiB";
		free(buf);
		return -1;
	}
	tok = json_tokener_new();
	d->root = tok != NULL ? json_tokener_parse_ex(tok, buf, (int)len) :
	    NULL;
	if (d->root != NULL && json_tokener_get_error(tok) != json_tokener_success) {
		json_object_put(d->root);
		d->root = NULL;
	}
	if (d->root == NULL)
		d->why = "not JSON";
	json_tokener_free(tok);
	free(buf);
	return d->root != NULL ? 0 : -1;
}

/* The document in blob name, or NULL (reported). */
static json_object *
read_doc(struct src *src, const char *name)
{
	struct doc d = { NULL, NULL };

	if (with_blob(src, name, parse_doc, &d, &d.why) < 0) {
		fail(src, NULL, name, d.why);
		return NULL;
	}
	return d.root;
}

static const char *
get_str(json_object *o, const char *key)
{
	json_object *v;

	if (o == NULL || !json_object_object_get_ex(o, key, &v) ||
	    !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

static json_object *
get_array(json_object *o, const char *key)
{
	json_object *v;

	if (o == NULL || !json_object_object_get_ex(o, key, &v) ||
	    !json_object_is_type(v, json_type_array))
		return NULL;
	return v;
}

/* The image whose key is key, or NULL. */
static struct image *
image_of(const struct images *im, const char *key)
{
	size_t k;

	for (k = 0; k < im->n; k++)
		if (strcmp(im->v[k]->key, key) == 0)
			return im->v[k];
	return NULL;
}

/* One more name for the image, unless it has it. */
static void
add_name(struct image *i, const char *name)
{
	size_t len = strlen(name);
	const char *p;
	char *joined;

	for (p = i->name; p != NULL; p = strchr(p, ',')) {
		p += *p == ',';
		if (strncmp(p, name, len) == 0 && (p[len] == ',' ||
		    p[len] == '\0'))
			return;
	}
	if (asprintf(&joined, "%s,%s", i->name, name) < 0)
		oom();
	free(i->name);
	i->name = joined;
}

/* A new image, or NULL (reported) past the limit. */
static struct image *
add_image(struct src *src, struct images *im, const char *name,
    const char *key, bool tagged)
{
	struct image **nv, *i;

	if (im->n >= IMAGES_MAX) {
		fail(src, NULL, "index", "more than 1024 images");
		return NULL;
	}
	nv = xrealloc(im->v, (im->n + 1) * sizeof(*nv));
	im->v = nv;
	i = im->v[im->n++] = xcalloc(1, sizeof(*i));
	i->name = xstrdup(name);
	i->key = xstrdup(key);
	i->tagged = tagged;
	return i;
}

static bool
add_layer(struct src *src, struct image *i, const char *blob,
    const char *digest)
{
	if (i->n >= LAYERS_MAX) {
		fail(src, NULL, i->name, "more than 1024 layers");
		return false;
	}
	i->blob[i->n] = xstrdup(blob);
	i->digest[i->n++] = xstrdup(digest);
	return true;
}

/* An OCI image manifest, of digest key: its layers. */
static void
oci_manifest(struct src *src, struct images *im, const char *name,
    const char *key, bool tagged, json_object *m)
{
	json_object *layers = get_array(m, "layers");
	struct image *i;
	char blob[1200];
	size_t k;

	if (layers == NULL) {
		fail(src, NULL, name, "a manifest without layers");
		return;
	}
	if ((i = add_image(src, im, name, key, tagged)) == NULL)
		return;
	for (k = 0; k < json_object_array_length(layers); k++) {
		const char *d = get_str(json_object_array_get_idx(layers, k),
		    "digest");

		if (d == NULL || !digest_blob(d, blob, sizeof(blob))) {
			fail(src, NULL, name, "a layer without a valid digest");
			return;
		}
		if (!add_layer(src, i, blob, d))
			return;
	}
}

/* A descriptor's platform, "OS/ARCH[/VARIANT]" in buf; false without
   one. */
static bool
platform_of(json_object *d, char *buf, size_t len)
{
	json_object *p;
	const char *os, *arch, *variant;

	if (!json_object_object_get_ex(d, "platform", &p) ||
	    (os = get_str(p, "os")) == NULL ||
	    (arch = get_str(p, "architecture")) == NULL)
		return false;
	variant = get_str(p, "variant");
	snprintf(buf, len, "%.100s/%.100s%s%.100s", os, arch, variant ? "/" :
	    "", variant ? variant : "");
	return true;
}

/* Is the platform (OS/ARCH[/VARIANT]) the one asked for? A variant
   counts only when both name one. */
static bool
platform_is(const char *have, const char *want)
{
	size_t h = strcspn(have, "/"), w = strcspn(want, "/");
	const char *hv, *wv;

	if (h != w || strncmp(have, want, h) != 0 || have[h] == '\0' ||
	    want[w] == '\0')
		return false;
	have += h + 1;
	want += w + 1;
	h = strcspn(have, "/");
	w = strcspn(want, "/");
	if (h != w || strncmp(have, want, h) != 0)
		return false;
	hv = have[h] == '/' ? have + h + 1 : NULL;
	wv = want[w] == '/' ? want + w + 1 : NULL;
	return hv == NULL || wv == NULL || strcmp(hv, wv) == 0;
}

/* The name of what descriptor d of the index name lists (of digest, and
   the tag ref or NULL), in label: at the top, its tag or its digest;
   below, the index's name and its platform, or its digest. Returns
   whether the name is a tag's. */
static bool
label_of(json_object *d, const char *name, bool tagged, int depth,
    const char *ref, const char *digest, char *label, size_t len)
{
	char plat[320];

	if (depth == 0)
		snprintf(label, len, "%s", ref != NULL ? ref : digest);
	else if (platform_of(d, plat, sizeof(plat)))
		snprintf(label, len, "%s[%s]", name, plat);
	else
		snprintf(label, len, "%s@%s", name, digest);
	return depth == 0 ? ref != NULL : tagged;
}

/* An OCI index: each manifest, or index, it lists, once, but those the
   selection leaves out. Returns how many it took. */
static size_t
oci_index(struct src *src, struct images *im, const char *name, bool tagged,
    json_object *idx, int depth)
{
	json_object *list = get_array(idx, "manifests"), *ann, *doc, *d;
	const char *want = src->sel->platform;
	char blob[1200], label[1200], plat[320];
	size_t k, taken = 0, other = 0;
	struct image *known;

	if (list == NULL) {
		fail(src, NULL, name, "an index without manifests");
		return 0;
	}
	for (k = 0; k < json_object_array_length(list); k++) {
		const char *digest, *ref = NULL, *type;
		bool tag;

		d = json_object_array_get_idx(list, k);
		digest = get_str(d, "digest");
		if (json_object_object_get_ex(d, "annotations", &ann))
			ref = get_str(ann, "org.opencontainers.image.ref.name");
		if (depth == 0 && src->sel->ref != NULL && (ref == NULL ||
		    strcmp(ref, src->sel->ref) != 0))
			continue;
		if (platform_of(d, plat, sizeof(plat)) && want != NULL &&
		    !platform_is(plat, want)) {
			other++;
			continue;
		}
		if (digest == NULL || !digest_blob(digest, blob, sizeof(blob))) {
			fail(src, NULL, name, "a manifest without a valid digest");
			continue;
		}
		taken++;
		tag = label_of(d, name, tagged, depth, ref, digest, label,
		    sizeof(label));
		if ((known = image_of(im, digest)) != NULL) {
			add_name(known, label);
			known->tagged = known->tagged || tag;
			continue;
		}
		if ((doc = read_doc(src, blob)) == NULL)
			continue;
		type = get_str(doc, "mediaType");
		if (get_array(doc, "manifests") != NULL && depth < NEST_MAX)
			oci_index(src, im, label, tag, doc, depth + 1);
		else if (type == NULL || strstr(type, "manifest") != NULL)
			oci_manifest(src, im, label, digest, tag, doc);
		json_object_put(doc);
	}
	if (taken == 0 && other > 0) {
		snprintf(plat, sizeof(plat), "no image for the platform %.200s",
		    want);
		fail(src, NULL, name, plat);
	}
	return taken;
}

/* A docker reference as docker compares them: without "docker.io/" and
   "library/", with ":latest" when it names no tag. */
static void
docker_ref(const char *ref, char *buf, size_t len)
{
	const char *slash;

	if (strncmp(ref, "docker.io/", 10) == 0)
		ref += 10;
	if (strncmp(ref, "library/", 8) == 0)
		ref += 8;
	slash = strrchr(ref, '/');
	snprintf(buf, len, "%s%s", ref, strchr(slash != NULL ? slash : ref,
	    ':') != NULL ? "" : ":latest");
}

/* The k-th tag of a docker entry's list, or NULL. */
static const char *
docker_tag(json_object *tags, size_t k)
{
	json_object *t = tags != NULL && k < json_object_array_length(tags) ?
	    json_object_array_get_idx(tags, k) : NULL;

	return t != NULL && json_object_is_type(t, json_type_string) ?
	    json_object_get_string(t) : NULL;
}

/* Is entry k of docker's list the selected one: its index (@K), or one
   of its tags? */
static bool
docker_selected(const char *sel, size_t k, json_object *tags)
{
	char want[600], have[600], at[32];
	const char *t;
	size_t j;

	if (sel[0] == '@') {
		snprintf(at, sizeof(at), "@%zu", k);
		return strcmp(sel, at) == 0;
	}
	docker_ref(sel, want, sizeof(want));
	for (j = 0; (t = docker_tag(tags, j)) != NULL; j++) {
		docker_ref(t, have, sizeof(have));
		if (strcmp(have, want) == 0)
			return true;
	}
	return false;
}

/* The layers of docker's entry e, to the image. */
static void
docker_layers(struct src *src, struct image *i, json_object *layers)
{
	size_t j;

	for (j = 0; j < json_object_array_length(layers); j++) {
		json_object *l = json_object_array_get_idx(layers, j);
		const char *p = json_object_is_type(l, json_type_string) ?
		    json_object_get_string(l) : NULL;
		char digest[200];

		if (p == NULL || !safe_name(p)) {
			fail(src, NULL, i->name, "a layer with an unsafe name");
			return;
		}
		/* <hex>.tar, <id>/layer.tar, blobs/sha256/<hex> */
		if (strspn(p, "0123456789abcdef") == 64 &&
		    strcmp(p + 64, ".tar") == 0)
			snprintf(digest, sizeof(digest), "sha256:%.64s", p);
		else if (strncmp(p, "blobs/sha256/", 13) == 0)
			snprintf(digest, sizeof(digest), "sha256:%.64s", p + 13);
		else
			snprintf(digest, sizeof(digest), "%.199s", p);
		if (!add_layer(src, i, p, digest))
			return;
	}
}

/* docker save's manifest.json: one entry an image, once by its config,
   under its tags, or the one selected. Returns how many it took. */
static size_t
docker_manifest(struct src *src, struct images *im, json_object *list)
{
	const char *sel = src->sel->ref;
	size_t k, j, taken = 0;

	if (!json_object_is_type(list, json_type_array)) {
		fail(src, NULL, "manifest.json", "not a list");
		return 0;
	}
	for (k = 0; k < json_object_array_length(list); k++) {
		json_object *e = json_object_array_get_idx(list, k);
		json_object *tags = get_array(e, "RepoTags");
		json_object *layers = get_array(e, "Layers");
		const char *config = get_str(e, "Config"), *t;
		bool by_tag = sel != NULL && sel[0] != '@';
		const char *name = by_tag ? sel : docker_tag(tags, 0);
		struct image *i;

		if (sel != NULL && !docker_selected(sel, k, tags))
			continue;
		taken++;
		if (layers == NULL || config == NULL) {
			fail(src, NULL, "manifest.json", "an image without layers");
			continue;
		}
		if ((i = image_of(im, config)) != NULL) {
			if (name != NULL)
				add_name(i, name);
			i->tagged = i->tagged || name != NULL;
		} else if ((i = add_image(src, im, name != NULL ? name : config,
		    config, name != NULL)) == NULL) {
			return taken;
		} else {
			docker_layers(src, i, layers);
		}
		for (j = 1; !by_tag && (t = docker_tag(tags, j)) != NULL; j++)
			add_name(i, t);
	}
	return taken;
}

/* ---- the file system: layers top down ---- */

struct layer {
	struct src *src;
	const struct image *image;
	bool named;		/* several images: name each */
	struct tree *tree;
	bool root;		/* the image is a root (out->root) */
	bool keeping;		/* the first pass of a root: its file system
				   and the bytes it keeps, nothing scanned */
	int index;
	const char *digest;
	struct batch kept;	/* what the layer's files held, for links */
};

/* A batch of the layer, to the judge, with the image and the layer; of a
   root, as its files, by their identity. */
static void
forward(struct layer *l, const struct batch *b)
{
	struct batch out = *b;

	out.at.image = l->named ? l->image->name : NULL;
	out.at.layer = l->digest;
	out.at.file = l->src->index;
	out.at.streamed = true;
	/* An archive's members are no files of the root. */
	if (l->root && b->n > 0 && b->v[0].member != NULL) {
		out.packed = false;
		out.dev = 0;
		out.ino = strchr(b->v[0].member, '!') == NULL ?
		    tree_id(l->tree, b->v[0].member) : 0;
	}
	l->src->out->found(l->src->out->arg, &out);
}

/* What each file of the layer holds: kept for its hard links, judged. */
static void
on_layer_found(void *arg, const struct batch *b)
{
	struct layer *l = arg;
	size_t i;

	if (l->keeping)
		return;
	for (i = 0; i < b->n; i++)
		if (b->v[i].kind == FOUND_IMAGE)
			batch_copy(&l->kept, b->v[i].member, &b->v[i]);
		else
			batch_add(&l->kept, b->v[i].kind, b->v[i].member, "%s",
			    b->v[i].msg);
	forward(l, b);
}

/* A hard link: what its target, read before it in the layer, held, under
   its own name (and an .a's objects under it). */
static void
link_to(struct layer *l, const char *name, const char *target)
{
	struct batch b = { .at.path = l->src->path };
	char member[8192];
	size_t i, tl = strlen(target);

	for (i = 0; i < l->kept.n; i++) {
		const struct found *f = &l->kept.v[i];

		if (f->member == NULL || strncmp(f->member, target, tl) != 0 ||
		    (f->member[tl] != '\0' && f->member[tl] != '!'))
			continue;
		snprintf(member, sizeof(member), "%s%s", name, f->member + tl);
		if (f->kind == FOUND_IMAGE)
			batch_copy(&b, member, f);
		else
			batch_add(&b, f->kind, member, "%s", f->msg);
	}
	if (b.n > 0)
		forward(l, &b);
	batch_clear(&b);
}

static enum tree_kind
type_of(struct archive_entry *ae)
{
	switch (libarchive.archive_entry_filetype(ae)) {
	case AE_IFDIR:
		return TREE_DIR;
	case AE_IFREG:
		return TREE_FILE;
	case AE_IFLNK:
		return TREE_LINK;
	default:
		return libarchive.archive_entry_hardlink(ae) != NULL ?
		    TREE_FILE : TREE_OTHER;
	}
}

/* Each entry of the layer: applied to the file system, and scanned or
   kept when the container sees it. */
static enum entry_do
on_entry(void *arg, const char *name, struct archive_entry *ae, size_t *max)
{
	struct layer *l = arg;
	char path[4200], target[4200];
	const char *link = libarchive.archive_entry_hardlink(ae);
	struct tree_entry e = { .path = path, .type = type_of(ae),
	    .symlink = libarchive.archive_entry_symlink(ae) };
	size_t len = strlen(name);

	while (len > 1 && name[len - 1] == '/')
		len--;
	if (len <= 1 || len >= sizeof(path) - 1)
		return ENTRY_SKIP;
	memcpy(path, name, len);
	path[len] = '\0';
	if (e.type == TREE_LINK && e.symlink == NULL)
		e.symlink = "";
	if (link != NULL) {
		while (link[0] == '.' && link[1] == '/')
			link += 2;
		snprintf(target, sizeof(target), "/%s", link);
		e.hardlink = target;
	}
	if (!tree_add(l->tree, l->index, &e) || e.type != TREE_FILE)
		return ENTRY_SKIP;
	if (l->keeping)
		return (*max = l->src->out->keep(path)) > 0 ? ENTRY_KEEP :
		    ENTRY_SKIP;
	if (link != NULL) {
		link_to(l, path, target);
		return ENTRY_SKIP;
	}
	return ENTRY_SCAN;
}

/* The bytes of a file the first pass of a root keeps. */
static void
on_kept(void *arg, const char *name, const void *data, size_t len)
{
	struct layer *l = arg;

	tree_keep(l->tree, name, data, len);
}

static int
read_layer(void *arg, const struct source *s)
{
	struct layer *l = arg;
	struct container_out out = { .found = on_layer_found, .arg = l,
	    .entry = on_entry, .kept = on_kept,
	    .hardening = l->src->out->hardening && !l->keeping,
	    .code = l->src->out->code && !l->keeping,
	    .dynamic = l->root && !l->keeping };

	container_scan_stream(s->read, s->arg, s->size, l->src->path, "/",
	    &out);
	return 0;
}

/* Each layer, top first. What cannot be read is said by the pass that
   scans. */
static void
each_layer(struct src *src, const struct image *i, struct layer *l)
{
	const char *why;
	size_t k;

	for (k = i->n; k-- > 0;) {
		l->index = (int)k;
		l->digest = i->digest[k];
		if (with_blob(src, i->blob[k], read_layer, l, &why) < 0 &&
		    !l->keeping)
			fail(src, i->digest[k], i->blob[k], why);
		batch_clear(&l->kept);
	}
}

/* An image: its layers, scanned; a root's read first for its file
   system, which the second pass, giving the same entries again, only
   reads. */
static void
scan_image(struct src *src, const struct image *i, bool named)
{
	struct layer l = { .src = src, .image = i, .named = named,
	    .tree = tree_new(), .root = src->out->root != NULL,
	    .kept = { .at.path = src->path } };

	if (l.root) {
		l.keeping = true;
		each_layer(src, i, &l);
		l.keeping = false;
		src->out->root(src->out->arg, named ? i->name : NULL, l.tree);
	}
	each_layer(src, i, &l);
	if (l.root)
		src->out->root_done(src->out->arg);
	tree_free(l.tree);
}

bool
oci_is_layout(int dirfd)
{
	return faccessat(dirfd, "oci-layout", F_OK, 0) == 0 &&
	    faccessat(dirfd, "index.json", F_OK, 0) == 0;
}

bool
oci_is_archive(int fd)
{
	const char *why;
	struct archive *a;
	struct archive_entry *ae;
	bool found = false;
	int r;

	if (lazy_archive_load(&why) < 0)
		return false;
	a = libarchive.archive_read_new();
	if (a == NULL || lseek(fd, 0, SEEK_SET) == -1) {
		libarchive.archive_read_free(a);
		return false;
	}
	libarchive.archive_read_support_format_tar(a);
	if (libarchive.archive_read_open_fd(a, fd, 65536) == ARCHIVE_OK)
		while (!found &&
		    ((r = libarchive.archive_read_next_header(a, &ae)) ==
		    ARCHIVE_OK || r == ARCHIVE_WARN)) {
			const char *p = libarchive.archive_entry_pathname(ae);

			found = p != NULL && (same_name(p, "oci-layout") ||
			    same_name(p, "manifest.json"));
		}
	libarchive.archive_read_free(a);
	/* The tar is read again from its start, as an image or not. */
	lseek(fd, 0, SEEK_SET);
	return found;
}

void
oci_scan(int fd, bool dir, const char *path, const struct oci_select *sel,
    const struct container_out *out)
{
	static const struct oci_select all = { NULL, NULL };
	struct src src = { .fd = fd, .dir = dir, .path = path,
	    .sel = sel != NULL ? sel : &all, .out = out };
	struct images im = { NULL, 0 };
	json_object *top;
	const char *why;
	uint64_t size;
	struct archive *a;
	size_t k, j, taken = 1;

	if (lazy_archive_load(&why) < 0) {
		fail(&src, NULL, "libarchive", why);
		return;
	}
	if (dir && asprintf(&src.index, "%s/index.json", path) < 0)
		oom();
	/* An OCI layout or archive has index.json; docker's, manifest.json. */
	if (dir || (a = tar_find(&src, "index.json", &size, 0, &why)) != NULL) {
		if (!dir)
			libarchive.archive_read_free(a);
		if ((top = read_doc(&src, "index.json")) != NULL)
			taken = oci_index(&src, &im, "index.json", false, top, 0);
	} else if ((top = read_doc(&src, "manifest.json")) != NULL) {
		taken = docker_manifest(&src, &im, top);
	}
	json_object_put(top);
	if (top != NULL && taken == 0 && src.sel->ref != NULL)
		fail(&src, NULL, src.sel->ref, "no image of that name");
	for (k = 0; k < im.n; k++) {
		scan_image(&src, im.v[k], im.v[k]->tagged || im.n > 1);
		for (j = 0; j < im.v[k]->n; j++) {
			free(im.v[k]->blob[j]);
			free(im.v[k]->digest[j]);
		}
		free(im.v[k]->name);
		free(im.v[k]->key);
		free(im.v[k]);
	}
	free(im.v);
	free(src.index);
}
