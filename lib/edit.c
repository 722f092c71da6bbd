/*
 * edit.c - an edit of a source: a few patches written over a copy of it.
 * A program's marking changes a few hundred bytes of a file that may be
 * hundreds of megabytes: the copy is the kernel's (a reflink where the
 * file system can), and only the patches are written by hand.
 */
#include <stdlib.h>

#include "internal.h"

void
chstk__edit_free(struct chstk_edit *ed)
{
	unsigned i;

	for (i = 0; i < ed->npatch; i++)
		free(ed->patch[i].buf);
	ed->npatch = 0;
}

int
chstk__edit_add(struct chstk_edit *ed, uint64_t off, size_t len,
    struct chstk_error *err)
{
	unsigned char *buf;

	if (ed->npatch == CHSTK_MAX_PATCHES)
		return chstk__error(err, CHSTK_ERR_INVAL, "too many patches");
	buf = calloc(1, len ? len : 1);
	if (buf == NULL)
		return chstk__syserror(err, "cannot plan the change");
	ed->patch[ed->npatch].off = off;
	ed->patch[ed->npatch].len = len;
	ed->patch[ed->npatch].buf = buf;
	ed->npatch++;
	return 0;
}

int
chstk__edit_write(const struct chstk_edit *ed, const struct chstk_src *src,
    int out_fd, struct chstk_error *err)
{
	unsigned i;
	int r;

	r = chstk__src_copy(src, out_fd, err);
	for (i = 0; r == 0 && i < ed->npatch; i++)
		r = chstk__pwrite_all(out_fd, ed->patch[i].buf,
		    ed->patch[i].len, ed->patch[i].off, err);
	return r;
}
