/*
 * tree.h - the file system a container of an image sees, as a table of
 * its paths (tree.c), built while oci.c reads the layers, top one first,
 * and read by rootfs.c when the image is judged as a root (system.h).
 *
 * The layers are applied as the OCI image spec's changesets are (and as
 * overlayfs merges them): the highest layer holding a path decides what
 * it is; a whiteout (.wh.NAME) deletes NAME of the layers below, an
 * opaque marker (.wh..wh..opq) empties its directory of what the layers
 * below put there, and a file, a link or a whiteout hides what lower
 * layers have under its path. A path under an entry of a layer is a
 * directory of that layer, named or not.
 *
 * What is kept of a path is what finding files in the image takes: its
 * type, a symbolic link's target, a regular file's identity (a hard link
 * has its target's), and for the few files the caller asks to keep
 * (tree_keep), their bytes, up to TREE_KEEP_MAX in all. Memory grows with
 * the number of paths, not with the size of the image.
 */
#ifndef TREE_H
#define TREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The bytes kept of all files of one image, at most. */
#define TREE_KEEP_MAX (128u << 20)

enum tree_kind {
	TREE_NONE,		/* deleted by a whiteout */
	TREE_DIR, TREE_FILE, TREE_LINK,
	TREE_OTHER,		/* a device, a FIFO */
};

/* An entry of a layer, as its tar names it. */
struct tree_entry {
	const char *path;	/* "/usr/bin/ls": absolute, no "." or ".."
				   component, no final "/" */
	enum tree_kind type;
	const char *symlink;	/* TREE_LINK: the target, as written */
	const char *hardlink;	/* a hard link: the path of the file of the
				   same layer it links to; or NULL */
};

struct tree;
struct tree *tree_new(void);
void tree_free(struct tree *t);
/* Apply one entry of layer (the layers are given top first, each entry
   of a layer in its order; a layer may be given again, from its first
   entry, once the layers below it are: the answers are the same).
   Returns whether the entry is what the container sees at its path: a
   whiteout or opaque marker never is. */
bool tree_add(struct tree *t, int layer, const struct tree_entry *e);
/* The identity of the regular file at path as the container sees it
   (its links not followed): 1 and up, or 0 when it is none. */
uint32_t tree_id(const struct tree *t, const char *path);
/* Keep the bytes of the file at path, which tree_add just found visible:
   len bytes, or (data NULL) none, the file being larger than the caller
   reads. -1 when the image's files kept would pass TREE_KEEP_MAX. */
int tree_keep(struct tree *t, const char *path, const void *data,
    size_t len);

/* What a path of the image is, its links resolved as RESOLVE_IN_ROOT
   resolves them: within the image, an absolute target from its root,
   ".." stopping at it. */
struct tree_file {
	enum tree_kind type;
	uint32_t id;		/* TREE_FILE: its identity */
	enum {
		TREE_NOT_KEPT,	/* its bytes were not asked for */
		TREE_KEPT,
		TREE_TOO_BIG,	/* larger than the caller reads */
		TREE_OVER,	/* past TREE_KEEP_MAX */
	} kept;
	const char *data;	/* TREE_KEPT: its bytes, NUL-terminated; a
				   link's (follow false): its target */
	size_t len;
};
/* Resolve path (absolute) into *f, the last component's link followed
   when follow; the path with its links resolved into real (cap bytes),
   when real is not NULL. 0, or -1 and errno: ENOENT, ENOTDIR, ELOOP (40
   links), ENAMETOOLONG. */
int tree_resolve(const struct tree *t, const char *path, bool follow,
    struct tree_file *f, char *real, size_t cap);
/* Call fn with the name of each entry of the directory at dir (a path
   with its links resolved), in no order. */
void tree_list(const struct tree *t, const char *dir,
    void (*fn)(void *arg, const char *name), void *arg);

#endif
