/*
 * where.h - what a record of elfscan's is about: a file, and what inside
 * it. The reading stage fills it (batch.h), the judge passes it on, and
 * every writer names the finding by it (report.h, sarif.h).
 */
#ifndef WHERE_H
#define WHERE_H

#include <stdbool.h>

struct where {
	const char *path;	/* the file, as the walk names it */
	size_t root;		/* path[0, root) is the directory named on
				   the command line it was found under, which
				   stands for / in its installed path (what
				   --allow matches); 0 for a file named, or
				   under a default root */
	const char *member;	/* a member of a container or archive, a
				   path inside an image; or NULL */
	const char *image;	/* in an image file, the image's names
				   (its tags, joined by ","), when it has a
				   tag or is one of several; or NULL */
	const char *layer;	/* in an image, the layer's digest */
	const char *file;	/* the file to locate it by when path is a
				   directory: a layout's index.json, which
				   names its images; or NULL */
	bool streamed;		/* read out of a container: the image's
				   offsets are in the member, not the file
				   (false for a member of an uncompressed
				   tar or cpio file, whose are the file's) */
	unsigned long long size;	/* the file's size, when it is known
					   but the file may be gone (a
					   package a store holds); else 0 */
};

#endif
