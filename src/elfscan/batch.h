/*
 * batch.h - what the reading stage hands to the judge (batch.c): the
 * images of one file, or of one member of a container, each as the
 * library read it, with what could not be read. The reading stage
 * (read.c, container.c, oci.c) fills a batch; the judge only reads it.
 */
#ifndef BATCH_H
#define BATCH_H

#include <stddef.h>
#include <sys/types.h>

#include "chstk.h"
#include "evidence.h"
#include "verdict.h"
#include "where.h"

enum found_kind {
	FOUND_IMAGE,		/* an ELF image, in info */
	FOUND_MALFORMED,	/* an ELF image that does not parse: a finding */
	FOUND_DAMAGED,		/* an ar archive whose structure is damaged
				   part of the way: a finding too */
	FOUND_ERROR,		/* what could not be read: an error */
};
struct found {
	enum found_kind kind;
	char *member;		/* NULL for the file itself; owned */
	bool ar_member;		/* an ar archive's member (an image of a
				   package is a member too, and may not be) */
	struct chstk_info info;	/* info.hardening and its strings owned */
	/* With --hardening (info.hardening): what its symbols say; NULL:
	   none read (found_syms). Out of line, as ev. */
	struct hard_syms *syms;
	/* What its DWARF, notes and code say, when the library was asked
	   for them (batch.evidence); NULL: nothing read, as ev_clear has
	   it (found_ev). Out of line: an archive's members wait here for
	   the judge, a thousand and more of them. */
	struct evidence *ev;
	unsigned scope_syms;	/* what its symbols say of its class
				   (scope_symbol) */
	char *msg;		/* "what failed: why", but for images; owned */
};
struct batch {
	/* The file, and in a container or an image where its members are;
	   each found's member completes it. All lent; at.member unused. */
	struct where at;
	/* Read out of a package, a tarball or an image: no file of a root,
	   whose rules do not apply to it (but an image judged as a root's,
	   oci.c). */
	bool packed;
	/* With the system verdicts, the identity of the file in its root
	   (an image's: tree.h); 0 when it is no file of a root. */
	dev_t dev;
	ino_t ino;
	/* The library was asked for the evidence (CHSTK_READ_EVIDENCE). */
	bool evidence;
	struct found *v;
	size_t n, cap;
	struct hard_syms syms;	/* of the image being read */
	struct evidence ev;	/* of the image being read: its units */
	unsigned scope_syms;	/* of the image being read */
};
/* A symbol of the image being read: the library hands them over before
   the image itself, and keeps none. */
int batch_symbol(void *batch, const struct chstk_sym *sym);
/* A compilation unit of the image being read, handed over before it. */
int batch_unit(void *batch, const struct chstk_unit *unit);
/* What more to read of an image, once its headers are read (a
   chstk_want_fn): what its class needs. */
unsigned batch_want(void *batch, const struct chstk_info *info);
void batch_image(struct batch *b, const char *member, bool ar_member,
    const struct chstk_info *info);
/* An image found before (f, of another batch), again under member. */
void batch_copy(struct batch *b, const char *member, const struct found *f);
void batch_add(struct batch *b, enum found_kind kind, const char *member,
    const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* The images and errors judged already let go; the file and the image
   being read kept. */
void batch_drop(struct batch *b);
void batch_clear(struct batch *b);
/* The evidence of f, read or none. Inline: the judge reads a batch, and
   calls nothing of batch.c, a stage below it. */
static inline const struct evidence *
found_ev(const struct found *f)
{
	return f->ev != NULL ? f->ev : &ev_none;
}
/* What the symbols of f say, read or not. */
static inline const struct hard_syms *
found_syms(const struct found *f)
{
	static const struct hard_syms none;

	return f->syms != NULL ? f->syms : &none;
}

#endif
