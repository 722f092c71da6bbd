/*
 * code.c - what an image's x86-64 code shows of how it was built
 * (CHSTK_READ_EVIDENCE): the executable segments of a program or shared
 * object, or the executable sections of an object, read CHUNK bytes at a
 * time, at most CHSTK_CODE_MAX bytes in all, and searched for three
 * instruction sequences, byte patterns that GCC and Clang emit and other
 * code hardly holds:
 *
 *   trampoline   movl $0x90e3ff49, DISP(REG): GCC writing the last
 *                instruction of a nested function's trampoline, jmp *%r11
 *                (49 ff e3) and a nop, into memory on the stack; the
 *                reason a program built from C needs an executable stack
 *                (gcc/config/i386/i386.cc, ix86_trampoline_init). Found
 *                with or without -fcf-protection, at any -O.
 *   probed       sub $0x1000,%rsp followed by orq $0x0,(%rsp) (GCC) or
 *                movq $0x0,(%rsp) (Clang): a stack allocation probed a
 *                page at a time, -fstack-clash-protection; a run of them
 *                (an unrolled allocation) counts once.
 *   unprobed     sub $N,%rsp with N of a page or more (48 81 ec imm32)
 *                neither followed by a probe nor following one (the rest
 *                of a probed allocation): a frame allocated at once.
 *
 * The search goes byte by byte, not instruction by instruction (code holds
 * no map of where instructions start): a pattern inside another
 * instruction is counted too. Each is long enough that compiled code
 * hardly holds one by chance: none of the 6,000 ELF files of this
 * machine's /usr/bin, /usr/sbin and /usr/lib/x86_64-linux-gnu holds the
 * trampoline's. Allocations of a size known only at run time (alloca,
 * VLAs) are not counted either way.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* Bytes read at a time, and the most a pattern reaches forward (15
   bytes) or back (8) from where it is looked for, with room to spare. */
#define CHUNK 65536
#define CARRY 32

static const unsigned char tramp_imm[] = { 0x49, 0xff, 0xe3, 0x90 };
static const unsigned char sub_page[] = { 0x48, 0x81, 0xec, 0x00, 0x10,
    0x00, 0x00 };
static const unsigned char orq_probe[] = { 0x48, 0x83, 0x0c, 0x24, 0x00 };
static const unsigned char movq_probe[] = { 0x48, 0xc7, 0x04, 0x24, 0x00,
    0x00, 0x00, 0x00 };

/* Is there a movl $imm32 to memory (c7 /0) whose immediate starts at
   p[k], k bytes before it being the opcode, its ModRM, SIB and
   displacement? Every addressing form but a register. */
static bool
movl_imm_before(const unsigned char *p, size_t k)
{
	static const struct { size_t len; unsigned mod; int rm4; int base5; }
	    form[] = {
		{ 2, 0, 0, -1 },	/* (reg) */
		{ 3, 0, 1, 0 },		/* (base,index) */
		{ 6, 0, -1, -1 },	/* rip+disp32 (rm 101) */
		{ 7, 0, 1, 1 },		/* disp32(,index) */
		{ 3, 1, 0, -1 },	/* disp8(reg) */
		{ 4, 1, 1, -1 },	/* disp8(base,index) */
		{ 6, 2, 0, -1 },	/* disp32(reg) */
		{ 7, 2, 1, -1 },	/* disp32(base,index) */
	};
	size_t i;

	for (i = 0; i < sizeof(form) / sizeof(form[0]); i++) {
		const unsigned char *op = p - form[i].len;
		unsigned modrm, rm;

		if (form[i].len > k || op[0] != 0xc7)
			continue;
		modrm = op[1];
		rm = modrm & 7;
		if ((modrm >> 3 & 7) != 0 || modrm >> 6 != form[i].mod)
			continue;
		if (form[i].mod == 0 && form[i].len == 6) {
			if (rm == 5)
				return true;
			continue;
		}
		if (form[i].mod == 0 && rm == 5)
			continue;
		if (form[i].rm4 != (rm == 4))
			continue;
		if (form[i].base5 >= 0 && form[i].base5 != ((op[2] & 7) == 5))
			continue;
		return true;
	}
	return false;
}

/* A probe instruction at p (n bytes on): its length, or 0. */
static size_t
probe_at(const unsigned char *p, size_t n)
{
	if (n >= sizeof(orq_probe) &&
	    memcmp(p, orq_probe, sizeof(orq_probe)) == 0)
		return sizeof(orq_probe);
	if (n >= sizeof(movq_probe) &&
	    memcmp(p, movq_probe, sizeof(movq_probe)) == 0)
		return sizeof(movq_probe);
	return 0;
}

/* Does a probe instruction end just before p, k bytes of which lie
   before it? */
static bool
probe_before(const unsigned char *p, size_t k)
{
	return (k >= sizeof(orq_probe) && memcmp(p - sizeof(orq_probe),
	    orq_probe, sizeof(orq_probe)) == 0) ||
	    (k >= sizeof(movq_probe) && memcmp(p - sizeof(movq_probe),
	    movq_probe, sizeof(movq_probe)) == 0);
}

/* A sub $imm32,%rsp at p (k bytes before it, n from it on, n >= 7). */
static void
sub_at(const unsigned char *p, size_t k, size_t n, struct chstk_hardening *h)
{
	uint32_t imm;

	if (memcmp(p, sub_page, sizeof(sub_page)) == 0 &&
	    probe_at(p + 7, n - 7) > 0) {
		if (!probe_before(p, k))
			h->probed++;
		return;
	}
	imm = (uint32_t)p[3] | (uint32_t)p[4] << 8 | (uint32_t)p[5] << 16 |
	    (uint32_t)p[6] << 24;
	if (imm >= 0x1000 && imm < 0x80000000u && !probe_before(p, k) &&
	    probe_at(p + 7, n - 7) == 0)
		h->unprobed++;
}

/* The patterns that start in buf[from, upto), the bytes up to n there to
   look at: each found by the bytes it cannot do without, with memmem,
   which goes through code much faster than a look at each byte would. */
static void
look_for(const unsigned char *buf, size_t from, size_t upto, size_t n,
    struct chstk_hardening *h)
{
	const unsigned char *p, *end = buf + upto;

	for (p = buf + from; p < end && (p = memmem(p, (size_t)(buf + n - p),
	    tramp_imm, sizeof(tramp_imm))) != NULL && p < end; p++)
		if (movl_imm_before(p, (size_t)(p - buf)))
			h->trampolines++;
	for (p = buf + from; p < end && (p = memmem(p, (size_t)(buf + n - p),
	    sub_page, 3)) != NULL && p < end; p++)
		if (buf + n - p >= 7)
			sub_at(p, (size_t)(p - buf), (size_t)(buf + n - p), h);
}

/*
 * Scan [off, off + len) of the image, *budget bytes at most. buf holds,
 * before each read, up to 2 * CARRY bytes of the last one: those not
 * looked at yet, which wait for the bytes after them, and as many before
 * them, which a pattern looks back at.
 */
static int
scan_range(const struct chstk_image *im, unsigned char *buf, uint64_t off,
    uint64_t len, uint64_t *budget, struct chstk_hardening *h,
    struct chstk_error *err)
{
	size_t kept = 0, from = 0, got, n, upto, keep;
	uint64_t done = 0;
	int r;

	while (done < len && *budget > 0) {
		got = len - done < CHUNK ? (size_t)(len - done) : CHUNK;
		if (got > *budget)
			got = (size_t)*budget;
		r = chstk__src_read(im->src, off + done, buf + kept, got,
		    "code", err);
		if (r < 0)
			return r;
		done += got;
		*budget -= got;
		n = kept + got;
		if (done == len || *budget == 0)
			upto = n;
		else
			upto = n > CARRY && n - CARRY > from ? n - CARRY : from;
		look_for(buf, from, upto, n, h);
		keep = n - upto + CARRY < n ? n - upto + CARRY : n;
		memmove(buf, buf + n - keep, keep);
		from = upto - (n - keep);
		kept = keep;
	}
	if (done < len)
		h->code_cut = true;
	return 0;
}

/* The executable sections of an object, as (offset, size) into out;
   their count, at most max, or an error. */
static int
object_code(const struct chstk_image *im, uint64_t (*out)[2], size_t max,
    size_t *n, struct chstk_error *err)
{
	union { Elf32_Shdr s32[64]; Elf64_Shdr s64[64]; } m;
	bool is64 = im->ehdr.e_ident[EI_CLASS] == ELFCLASS64;
	size_t i, k, c;
	int r;

	*n = 0;
	for (i = 0; i < im->shnum; i += c) {
		c = im->shnum - i < 64 ? im->shnum - i : 64;
		r = chstk__read_entries(im, ELF_T_SHDR, im->ehdr.e_shoff, i, c,
		    &m, "section header table", err);
		if (r < 0)
			return r;
		for (k = 0; k < c && *n < max; k++) {
			uint64_t type = is64 ? m.s64[k].sh_type : m.s32[k].sh_type;
			uint64_t flags = is64 ? m.s64[k].sh_flags :
			    m.s32[k].sh_flags;

			if (type != SHT_PROGBITS || !(flags & SHF_EXECINSTR))
				continue;
			out[*n][0] = is64 ? m.s64[k].sh_offset :
			    m.s32[k].sh_offset;
			out[*n][1] = is64 ? m.s64[k].sh_size : m.s32[k].sh_size;
			(*n)++;
		}
	}
	return 0;
}

int
chstk__code_scan(const struct chstk_image *im, struct chstk_hardening_buf *b,
    struct chstk_error *err)
{
	struct chstk_hardening *h = &b->h;
	static const size_t max = 4096;
	uint64_t (*range)[2], budget = CHSTK_CODE_MAX;
	uint64_t size = chstk__src_size(im->src);
	unsigned char *buf;
	size_t i, n = 0;
	int r = 0;

	if (im->ehdr.e_machine != EM_X86_64 ||
	    im->ehdr.e_ident[EI_CLASS] != ELFCLASS64)
		return 0;
	range = malloc(max * sizeof(*range));
	buf = malloc(2 * CARRY + CHUNK);
	if (range == NULL || buf == NULL) {
		free(range);
		free(buf);
		return chstk__syserror(err, "cannot read the code");
	}
	if (im->ehdr.e_type == ET_REL)
		r = object_code(im, range, max, &n, err);
	for (i = 0; i < im->phnum && im->ehdr.e_type != ET_REL && n < max;
	    i++)
		if (im->phdr[i].p_type == PT_LOAD && im->phdr[i].p_flags & PF_X) {
			range[n][0] = im->phdr[i].p_offset;
			range[n++][1] = im->phdr[i].p_filesz;
		}
	for (i = 0; r == 0 && i < n; i++) {
		if (!chstk__in_range(range[i][0], range[i][1], size)) {
			snprintf(b->evidence_error, sizeof(b->evidence_error),
			    "its code runs past the end of the file");
			break;
		}
		r = scan_range(im, buf, range[i][0], range[i][1], &budget, h,
		    err);
	}
	h->code = r == 0 && i == n;
	free(range);
	free(buf);
	return r;
}
