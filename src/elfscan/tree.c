/*
 * tree.c - an image's file system as a table of its paths (see tree.h):
 * an open-addressing table of nodes, one a path, each with the highest
 * layer that holds the path (top: it hides the path in the layers below)
 * and the highest layer where the path hides what lower layers hold
 * under it (barrier: a file, a link, a whiteout, an opaque directory).
 * An entry of layer L is visible when no higher layer holds its path and
 * no ancestor has a barrier above L.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "tree.h"
#include "xalloc.h"

struct node {
	char *key;		/* the path; NULL: a free slot */
	int top, barrier;	/* layers, or -1 */
	unsigned char type;	/* enum tree_kind */
	unsigned char kept;	/* TREE_NOT_KEPT ... */
	uint32_t id;		/* TREE_FILE: its identity */
	char *extra;		/* a link's target, or a kept file's bytes */
	size_t len;		/* of the bytes */
};

struct tree {
	struct node *slot;
	size_t cap, n;
	uint32_t ids;		/* identities given */
	size_t kept;		/* bytes kept */
};

#define LINKS_MAX 40		/* as the kernel's path walk (MAXSYMLINKS) */

static uint64_t
hash(const char *s, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	size_t i;

	for (i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 0x100000001b3ULL;
	return h;
}

/* The node of the path's first len bytes, or NULL. */
static struct node *
lookup(const struct tree *t, const char *key, size_t len)
{
	size_t h;

	for (h = hash(key, len) & (t->cap - 1); t->slot[h].key != NULL;
	    h = (h + 1) & (t->cap - 1))
		if (strncmp(t->slot[h].key, key, len) == 0 &&
		    t->slot[h].key[len] == '\0')
			return &t->slot[h];
	return NULL;
}

static void
grow(struct tree *t)
{
	struct node *old = t->slot;
	size_t cap = t->cap, i, h;

	t->cap *= 2;
	t->slot = xcalloc(t->cap, sizeof(*t->slot));
	for (i = 0; i < cap; i++) {
		if (old[i].key == NULL)
			continue;
		h = hash(old[i].key, strlen(old[i].key)) & (t->cap - 1);
		while (t->slot[h].key != NULL)
			h = (h + 1) & (t->cap - 1);
		t->slot[h] = old[i];
	}
	free(old);
}

/* The node of the path's first len bytes, made (a directory no layer
   holds yet) when there is none. */
static struct node *
insert(struct tree *t, const char *key, size_t len)
{
	struct node *n = lookup(t, key, len);
	size_t h;

	if (n != NULL)
		return n;
	if (2 * (t->n + 1) > t->cap)
		grow(t);
	for (h = hash(key, len) & (t->cap - 1); t->slot[h].key != NULL;)
		h = (h + 1) & (t->cap - 1);
	n = &t->slot[h];
	n->key = xmalloc(len + 1);
	memcpy(n->key, key, len);
	n->key[len] = '\0';
	n->top = n->barrier = -1;
	n->type = TREE_DIR;
	t->n++;
	return n;
}

struct tree *
tree_new(void)
{
	struct tree *t = xcalloc(1, sizeof(*t));

	t->cap = 1024;
	t->slot = xcalloc(t->cap, sizeof(*t->slot));
	insert(t, "/", 1);
	return t;
}

void
tree_free(struct tree *t)
{
	size_t i;

	if (t == NULL)
		return;
	for (i = 0; i < t->cap; i++) {
		free(t->slot[i].key);
		free(t->slot[i].extra);
	}
	free(t->slot);
	free(t);
}

/* Does an ancestor of path hide layer's entries under it? */
static bool
under_barrier(const struct tree *t, int layer, const char *path)
{
	const struct node *n;
	const char *slash;

	if ((n = lookup(t, "/", 1)) != NULL && n->barrier > layer)
		return true;
	for (slash = strchr(path + 1, '/'); slash != NULL;
	    slash = strchr(slash + 1, '/'))
		if ((n = lookup(t, path, (size_t)(slash - path))) != NULL &&
		    n->barrier > layer)
			return true;
	return false;
}

static bool
hidden(const struct tree *t, int layer, const char *path)
{
	const struct node *n = lookup(t, path, strlen(path));

	return (n != NULL && n->top > layer) || under_barrier(t, layer, path);
}

/* The directories above path exist in layer: those no higher layer
   holds are its. */
static void
ancestors(struct tree *t, int layer, const char *path)
{
	const char *slash;
	struct node *n;

	for (slash = strchr(path + 1, '/'); slash != NULL;
	    slash = strchr(slash + 1, '/')) {
		n = insert(t, path, (size_t)(slash - path));
		if (n->top < layer)
			n->top = layer;
	}
}

/* A whiteout, .wh.NAME, or the opaque marker of its directory. */
static void
whiteout(struct tree *t, int layer, char *path, char *base)
{
	struct node *n;

	if (strcmp(base, ".wh..wh..opq") == 0) {
		base[-1] = '\0';
		n = insert(t, path[0] != '\0' ? path : "/", path[0] != '\0' ?
		    strlen(path) : 1);
		if (n->top < layer)
			n->top = layer;
	} else {
		memmove(base, base + 4, strlen(base + 4) + 1);
		if (hidden(t, layer, path))
			return;
		n = insert(t, path, strlen(path));
		if (n->top < layer) {
			n->top = layer;
			n->type = TREE_NONE;
		}
	}
	if (n->barrier < layer)
		n->barrier = layer;
	if (path[0] != '\0')
		ancestors(t, layer, path);
}

/* The identity of the entry: its hard link's target's, when that is the
   layer's file the container sees, else its own. */
static uint32_t
identity(struct tree *t, int layer, const struct tree_entry *e,
    const struct node *n)
{
	const struct node *to;

	if (e->hardlink != NULL &&
	    (to = lookup(t, e->hardlink, strlen(e->hardlink))) != NULL &&
	    to->top == layer && to->type == TREE_FILE && to->id != 0)
		return to->id;
	return n->id != 0 ? n->id : ++t->ids;
}

bool
tree_add(struct tree *t, int layer, const struct tree_entry *e)
{
	char path[PATH_MAX + 1], *base;
	struct node *n;
	size_t len = strlen(e->path);

	if (e->path[0] != '/' || len < 2 || len >= sizeof(path))
		return false;
	memcpy(path, e->path, len + 1);
	base = strrchr(path, '/') + 1;
	if (under_barrier(t, layer, path))
		return false;
	if (strncmp(base, ".wh.", 4) == 0) {
		whiteout(t, layer, path, base);
		return false;
	}
	n = lookup(t, path, len);
	if (n != NULL && n->top > layer)
		return false;
	n = insert(t, path, len);
	/* Given again, the same entry changes nothing: its bytes stay. */
	if (n->top == layer && n->type == e->type && (e->type != TREE_LINK ||
	    strcmp(n->extra, e->symlink) == 0))
		return true;
	n->top = layer;
	if (e->type != TREE_DIR && n->barrier < layer)
		n->barrier = layer;
	n->type = (unsigned char)e->type;
	free(n->extra);
	n->extra = e->type == TREE_LINK ? xstrdup(e->symlink) : NULL;
	n->kept = TREE_NOT_KEPT;
	n->id = e->type == TREE_FILE ? identity(t, layer, e, n) : 0;
	ancestors(t, layer, path);
	return true;
}

uint32_t
tree_id(const struct tree *t, const char *path)
{
	const struct node *n = lookup(t, path, strlen(path));

	return n != NULL && n->type == TREE_FILE ? n->id : 0;
}

int
tree_keep(struct tree *t, const char *path, const void *data, size_t len)
{
	struct node *n = lookup(t, path, strlen(path));

	if (n == NULL || n->type != TREE_FILE)
		return 0;
	free(n->extra);
	n->extra = NULL;
	if (data == NULL) {
		n->kept = TREE_TOO_BIG;
		return 0;
	}
	if (len > TREE_KEEP_MAX - t->kept) {
		n->kept = TREE_OVER;
		return -1;
	}
	n->extra = xmalloc(len + 1);
	memcpy(n->extra, data, len);
	n->extra[len] = '\0';
	n->len = len;
	n->kept = TREE_KEPT;
	t->kept += len;
	return 0;
}

/* The walk of one path: what is resolved so far, and what is left. */
struct walk {
	char cur[PATH_MAX];	/* "" for the root */
	size_t clen;
	char rest[2 * PATH_MAX];
	const struct node *n;	/* of cur */
};

/* Go up to cur's parent ("..", or a relative link's directory). */
static void
up(const struct tree *t, struct walk *w)
{
	while (w->clen > 0 && w->cur[--w->clen] != '/')
		;
	w->cur[w->clen] = '\0';
	w->n = w->clen > 0 ? lookup(t, w->cur, w->clen) : lookup(t, "/", 1);
}

/* Replace what is left, from p, by the link's target, then the rest. */
static int
follow_link(const struct tree *t, struct walk *w, const char *p)
{
	char rest[sizeof(w->rest)];
	const char *target = w->n->extra;

	if (strlen(target) + 1 + strlen(p) >= sizeof(rest))
		return -1;
	strcpy(rest, target);
	strcat(rest, "/");
	strcat(rest, p);
	strcpy(w->rest, rest);
	if (target[0] == '/') {
		w->clen = 0;
		w->cur[0] = '\0';
		w->n = lookup(t, "/", 1);
	} else {
		up(t, w);
	}
	return 0;
}

/* One component of len bytes at c: cur goes down into it. */
static int
down(const struct tree *t, struct walk *w, const char *c, size_t len)
{
	if (w->n == NULL || w->n->type != TREE_DIR) {
		errno = ENOTDIR;
		return -1;
	}
	if (len == 2 && c[0] == '.' && c[1] == '.') {
		up(t, w);
		return 0;
	}
	if (w->clen + 1 + len >= sizeof(w->cur)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	w->cur[w->clen++] = '/';
	memcpy(w->cur + w->clen, c, len);
	w->clen += len;
	w->cur[w->clen] = '\0';
	w->n = lookup(t, w->cur, w->clen);
	if (w->n == NULL || w->n->type == TREE_NONE) {
		errno = ENOENT;
		return -1;
	}
	return 0;
}

int
tree_resolve(const struct tree *t, const char *path, bool follow,
    struct tree_file *f, char *real, size_t cap)
{
	struct walk *w = xmalloc(sizeof(*w));
	const char *p, *c;
	int links = 0, r = -1;
	size_t len;

	w->clen = 0;
	w->cur[0] = '\0';
	w->n = lookup(t, "/", 1);
	errno = ENAMETOOLONG;
	if (strlen(path) >= sizeof(w->rest))
		goto out;
	strcpy(w->rest, path);
	for (p = w->rest; *(p += strspn(p, "/")) != '\0';) {
		c = p;
		len = strcspn(p, "/");
		p += len;
		if (len == 1 && c[0] == '.')
			continue;
		if (down(t, w, c, len) < 0)
			goto out;
		if (w->n->type != TREE_LINK || (!follow &&
		    p[strspn(p, "/")] == '\0'))
			continue;
		errno = ELOOP;
		if (++links > LINKS_MAX)
			goto out;
		errno = ENAMETOOLONG;
		if (follow_link(t, w, p) < 0)
			goto out;
		p = w->rest;
	}
	errno = ENAMETOOLONG;
	if (real != NULL && w->clen + 2 > cap)
		goto out;
	if (real != NULL)
		strcpy(real, w->clen > 0 ? w->cur : "/");
	memset(f, 0, sizeof(*f));
	f->type = (enum tree_kind)w->n->type;
	f->id = w->n->id;
	f->kept = w->n->kept;
	f->data = w->n->kept == TREE_KEPT || w->n->type == TREE_LINK ?
	    w->n->extra : NULL;
	f->len = w->n->kept == TREE_KEPT ? w->n->len : w->n->type ==
	    TREE_LINK ? strlen(w->n->extra) : 0;
	r = 0;
out:
	free(w);
	return r;
}

void
tree_list(const struct tree *t, const char *dir,
    void (*fn)(void *arg, const char *name), void *arg)
{
	size_t i, len = strcmp(dir, "/") == 0 ? 0 : strlen(dir);
	const char *k;

	for (i = 0; i < t->cap; i++) {
		k = t->slot[i].key;
		if (k == NULL || t->slot[i].type == TREE_NONE ||
		    strncmp(k, dir, len) != 0 || k[len] != '/' ||
		    k[len + 1] == '\0' || strchr(k + len + 1, '/') != NULL)
			continue;
		fn(arg, k + len + 1);
	}
}
