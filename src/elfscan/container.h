/*
 * container.h - what holds files, read without unpacking it: packages,
 * wheels and tarballs (container.c, with libarchive, loaded by lazy.c),
 * and container images (oci.c; ref.c reads their names as skopeo writes
 * them). Each hands what it finds, a batch at a
 * time, to the caller's found(); it knows nothing of the judge. Kept out
 * of the library, as elfutils keeps libdwfl above libelf: it brings
 * libarchive, json-c and the limits on expansion.
 */
#ifndef CONTAINER_H
#define CONTAINER_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "batch.h"
#include "sha256.h"

struct archive_entry;
struct tree;

enum container {
	CONTAINER_NONE, CONTAINER_DEB, CONTAINER_RPM, CONTAINER_ZIP,
	CONTAINER_TAR, CONTAINER_CPIO, CONTAINER_COMPRESSED,
};
/* What a file's first n bytes say it is: CONTAINER_HEAD bytes are enough
   (a tar's magic ends there). */
#define CONTAINER_HEAD 262
enum container container_kind(const unsigned char *head, size_t n);
/* A package's file (container_out's file). */
struct container_file {
	const char *name;	/* the member, as inside */
	enum { CFILE_LINK, CFILE_KEPT, CFILE_SCRIPT } type;
	/* A link's target; a kept file's bytes (NULL: it holds more than
	   keep() allows); a script's first line, from its "#!" to its end
	   or to the first 256 bytes. */
	const char *data;
	size_t len;
};
#define CFILE_LINE 256
/* What to do with an entry of an image's layer (container_out). */
enum entry_do { ENTRY_SKIP, ENTRY_SCAN, ENTRY_KEEP };
/* Where a container's images and errors go: a batch after each member
   (path the container, member names as inside), which found may keep
   only during the call. */
struct container_out {
	void (*found)(void *arg, const struct batch *b);
	void *arg;
	/* NULL, or for container_scan_stream: each entry of the archive
	   (not of archives inside), named, before it is read; returns
	   ENTRY_SCAN to scan it (a regular file), ENTRY_KEEP to hand its
	   bytes to kept(), at most *max of them, or ENTRY_SKIP. */
	enum entry_do (*entry)(void *arg, const char *name,
	    struct archive_entry *ae, size_t *max);
	/* The bytes of an entry to keep: len of them, or (data NULL) none,
	   the entry holding more than *max. */
	void (*kept)(void *arg, const char *name, const void *data,
	    size_t len);
	bool hardening;		/* read the hardening too, and the
				   evidence of DWARF and notes */
	bool code;		/* and the code's (CHSTK_READ_CODE_SEARCH) */
	bool dynamic;		/* read how each image links (the files of
				   a root: system.h) */
	/* oci_scan: NULL, or each image is a root (elfscan --system
	   IMAGE): its layers are read twice, first for its file system
	   alone (tree.h), with the bytes of the files keep() names (at most
	   the size it returns); then root(arg, image, t) is called (image:
	   of several, its name; else NULL), the image's files are handed to
	   found(), its members named by in-root paths and identified by t,
	   and root_done(arg). t is lent until then. */
	size_t (*keep)(const char *path);
	void (*root)(void *arg, const char *image, const struct tree *t);
	void (*root_done)(void *arg);
	/* NULL, or for a package (a .deb's data.tar, an .rpm's payload; of
	   the file scanned, not of one inside it): what the system it is
	   installed on reads of its files that are no ELF files, each
	   handed over as it is met: the symbolic links, the files keep()
	   names (by in-root path: "/etc/default/foo"), and the executable
	   files that start with "#!". */
	void (*file)(void *arg, const struct container_file *f);
};
void container_scan(int fd, const char *path, enum container kind,
    const struct container_out *out);
/* container_scan_hashed: the same, the file read once from its start to
   its end, every byte into d: whole when it was read to the end. */
struct container_digest {
	struct sha256 sha;
	uint64_t size;
	bool whole;
};
void container_scan_hashed(int fd, const char *path, enum container kind,
    const struct container_out *out, struct container_digest *d);
/* An archive read from the stream read(arg, ...) of size bytes (or
   UINT64_MAX), an image layer: its members named prefix and their names,
   in batches for path; containers inside are not opened, the library's
   files are. */
void container_scan_stream(ssize_t (*read)(void *arg, void *buf,
    size_t len), void *arg, uint64_t size, const char *path,
    const char *prefix, const struct container_out *out);

/* oci.c: container images: an OCI image layout (a directory), or an OCI
   archive or docker save tarball (a plain tar). */
/* Is the directory open on dirfd an OCI image layout? */
bool oci_is_layout(int dirfd);
/* Does the plain tar open on fd hold an image? The offset is left at 0. */
bool oci_is_archive(int fd);
/* ref.c: is arg an image reference, TRANSPORT:PATH[:REF] (oci:,
   oci-archive:, docker-archive:)? Then *path is its path, *ref what it
   selects or NULL, both allocated. */
bool image_ref(const char *arg, char **path, char **ref);

/* Which images of an image file to scan: a NULL member selects all. */
struct oci_select {
	const char *ref;	/* a tag (org.opencontainers.image.ref.name,
				   or docker's RepoTags), or "@N" for the
				   N-th image of a docker save tarball */
	const char *platform;	/* OS/ARCH[/VARIANT]: of a multi-platform
				   index, the images of that platform */
};
/* Scan the image or images of the layout directory (dir) or the tar
   open on fd, named path, that sel (or NULL) selects: out->found for each
   file's images, and each error. */
void oci_scan(int fd, bool dir, const char *path,
    const struct oci_select *sel, const struct container_out *out);

#endif
