/*
 * buildid.c - the build-id of a program or shared object: the descriptor
 * of its first NT_GNU_BUILD_ID note of owner "GNU", in its PT_NOTE
 * segments, as the debuggers find its separate debug file by it
 * (/usr/lib/debug/.build-id/XX/YYYY.debug). Read with the dynamic section
 * (CHSTK_READ_HARDENING or CHSTK_READ_DYNAMIC). Each segment is read
 * up to NOTES_MAX bytes, range-checked first; a note that runs past its
 * segment ends the walk of that segment, as the loaders' walks do.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#ifndef NT_GNU_BUILD_ID
#define NT_GNU_BUILD_ID 3
#endif

/* .note.gnu.build-id, .note.ABI-tag, .note.package and systemd's
   .note.dlopen share a segment: a few hundred bytes, at times a few
   kilobytes. */
#define NOTES_MAX 65536

/* The notes in buf[0, len), aligned to align: the build-id into h.
   Returns whether it was found. */
static bool
walk_notes(const unsigned char *buf, size_t len, size_t align, bool msb,
    struct chstk_hardening *h)
{
	struct chstk__notes w = { buf, len, 0, align, align, msb };
	struct chstk__note n;

	while (chstk__note_next(&w, &n) > 0)
		if (n.type == NT_GNU_BUILD_ID && chstk__note_gnu(&n)) {
			if (n.descsz > 0 && n.descsz <= CHSTK_BUILD_ID_MAX) {
				memcpy(h->build_id, n.desc, n.descsz);
				h->build_id_len = (unsigned)n.descsz;
			}
			return true;
		}
	return false;
}

/* The notes of one segment [off, off + len), len <= NOTES_MAX: read on
   the stack when they fit there, else on the heap. 1 found, 0 not, or an
   error. */
static int
segment_notes(const struct chstk_image *im, uint64_t off, size_t len,
    size_t align, struct chstk_hardening *h, struct chstk_error *err)
{
	unsigned char small[4096], *buf = small;
	bool msb = im->ehdr.e_ident[EI_DATA] == ELFDATA2MSB;
	int r;

	if (len > sizeof(small) && (buf = malloc(len)) == NULL)
		return chstk__syserror(err, "cannot read the build-id");
	r = chstk__src_read(im->src, off, buf, len, "note segment", err);
	if (r == 0)
		r = walk_notes(buf, len, align, msb, h);
	if (buf != small)
		free(buf);
	return r;
}

int
chstk__build_id(const struct chstk_image *im, struct chstk_hardening *h,
    struct chstk_error *err)
{
	uint64_t size = chstk__src_size(im->src);
	size_t i;
	int r;

	h->build_id_len = 0;
	for (i = 0; i < im->phnum; i++) {
		const GElf_Phdr *ph = &im->phdr[i];

		if (ph->p_type != PT_NOTE || ph->p_filesz < 12)
			continue;
		/* A note segment the file does not hold is the loader's
		   problem, not the build-id's: passed over. */
		if (!chstk__in_range(ph->p_offset, ph->p_filesz, size))
			continue;
		r = segment_notes(im, ph->p_offset, ph->p_filesz < NOTES_MAX ?
		    (size_t)ph->p_filesz : NOTES_MAX, ph->p_align == 8 ? 8 : 4,
		    h, err);
		if (r != 0)
			return r < 0 ? r : 0;
	}
	return 0;
}
