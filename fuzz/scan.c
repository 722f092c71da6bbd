/*
 * scan.c - fuzz target for the read path. Any bytes are scanned from
 * memory (chstk_scan_mem) and from a file (chstk_scan_fd on a memfd, where
 * libelf reads archive members in place; and once more as elfscan reads a
 * file, its first KiB lent and its size asked only when a check needs it):
 * none may crash, hang, leak or touch memory it does not own (the
 * sanitizers see to that), every report must be possible (common.c), and
 * they must agree: the same images in the same states. So must a scan of the bytes as a stream of known size
 * (chstk_scan_stream, fed in pieces of changing sizes), which keeps only
 * what it will read again; of unknown size it must keep the promises.
 * With CHSTK_READ_HARDENING, memory, file and stream must agree on the
 * images, the symbols handed over and what else an image's info says (a
 * want asking for every image's sections), and so must a scan with the sizes
 * lib/hardening.c reads symbol tables by made small (chstk__symread_sizes),
 * which reads the names of these small inputs through a window as it does
 * those of string tables over 16 MiB: the same symbols, none missed, none
 * read wrong; and the same dlopen notes, a list that ends within its room.
 * With CHSTK_READ_CODE too, the code of the entry point and of
 * the exported functions is part of what must agree, and so must a scan
 * that reads that code through a window of 4 bytes, moved for nearly every
 * function; the hardening of each image (dynamic segments and sections,
 * property note and its fault, RELRO coverage, Go's version) must agree
 * too, and keep its promises. The hardening scans read the evidence too
 * (CHSTK_READ_EVIDENCE, CHSTK_READ_CODE_SEARCH: the DWARF through libdw,
 * annobin's notes, the code): every unit handed over must be possible, its
 * strings cut where promised, and memory, file and stream must agree on
 * the units, the notes and the code's counts. A callback that asks to stop
 * must stop the scan.
 */
#include <string.h>
#include <unistd.h>

#include "fuzz.h"
#include "internal.h"

static struct fuzz_scan mem, fd, lent, stream, unsized;

/* What a scan with CHSTK_READ_HARDENING saw. */
struct hard_scan {
	int r;
	unsigned images, symbols, units;
	uint64_t digest;	/* of the symbols, in any order */
	uint64_t unit_digest;	/* of the units, in order */
	uint64_t evidence;	/* of the evidence read of each image */
};

/* FNV-1a of what the callback sees of sym: a sum of these is the same
   whatever order the symbols come in (a window takes them in the order of
   their names), and differs when one is missed or read wrong. */
static uint64_t
symbol_hash(const struct chstk_sym *sym)
{
	unsigned char what[4 + CHSTK_CODE_LEN] = { sym->cut, sym->dynamic,
	    sym->undefined, (unsigned char)(sym->type << 4 | sym->bind) };
	uint64_t h = UINT64_C(14695981039346656037);
	const char *p;
	size_t i;

	if (sym->code != NULL)
		memcpy(what + 4, sym->code, CHSTK_CODE_LEN);
	for (p = sym->name; *p != '\0'; p++)
		h = (h ^ (unsigned char)*p) * UINT64_C(1099511628211);
	for (i = 0; i < sizeof(what); i++)
		h = (h ^ what[i]) * UINT64_C(1099511628211);
	return h;
}

/* The same of what the library read of an image's hardening: the fields
   annocheck's tests read. */
static uint64_t
hardening_hash(const struct chstk_hardening *hd)
{
	uint64_t v[] = { hd->dynamic_segments, hd->dynamic_sections,
	    hd->aarch64_bti_plt, hd->aarch64_pac_plt, hd->tls_exec,
	    hd->property_notes, hd->property_fault, hd->relro_sections,
	    hd->relro_outside, hd->writable_relocs, hd->go_buildid,
	    hd->has_entry_code, hd->x86_feature_1, hd->aarch64_feature_1 };
	uint64_t h = UINT64_C(14695981039346656037);
	const char *p;
	size_t i;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		h = (h ^ v[i]) * UINT64_C(1099511628211);
	for (i = 0; hd->has_entry_code && i < CHSTK_CODE_LEN; i++)
		h = (h ^ hd->entry_code[i]) * UINT64_C(1099511628211);
	for (p = hd->go_version; *p != '\0'; p++)
		h = (h ^ (unsigned char)*p) * UINT64_C(1099511628211);
	return h;
}

static int
on_symbol(void *arg, const struct chstk_sym *sym)
{
	struct hard_scan *h = arg;

	must(sym->name != NULL && strlen(sym->name) <= 1024);
	must(sym->type <= 15 && sym->bind <= 15);
	must(sym->code == NULL || (sym->dynamic && !sym->undefined &&
	    sym->type == STT_FUNC));
	h->symbols++;
	h->digest += symbol_hash(sym);
	return 0;
}

static uint64_t
mix(uint64_t h, uint64_t v)
{
	return (h ^ v) * UINT64_C(1099511628211);
}

static uint64_t
string_hash(uint64_t h, const char *s)
{
	for (; *s != '\0'; s++)
		h = mix(h, (unsigned char)*s);
	return mix(h, 0);
}

static int
on_unit(void *arg, const struct chstk_unit *u)
{
	struct hard_scan *h = arg;

	must(u->name != NULL && u->producer != NULL);
	must(strlen(u->name) < CHSTK_PATH_LEN);
	must(strlen(u->producer) < CHSTK_PATH_LEN);
	must(!u->name_cut || strlen(u->name) == CHSTK_PATH_LEN - 1);
	must(!u->producer_cut || strlen(u->producer) == CHSTK_PATH_LEN - 1);
	h->units++;
	h->unit_digest = mix(string_hash(string_hash(h->unit_digest,
	    u->name), u->producer), u->language);
	return 0;
}

/* What the evidence read of one image says, as a number. */
static uint64_t
evidence_hash(const struct chstk_hardening *hd)
{
	const struct chstk_annobin_value *an[] = { &hd->an_stack_prot,
	    &hd->an_stack_clash, &hd->an_cf_full, &hd->an_fortify,
	    &hd->an_glibcxx_assertions, &hd->an_optimize, &hd->an_lto,
	    &hd->an_auto_var_init };
	uint64_t h = UINT64_C(14695981039346656037);
	size_t i;

	h = mix(mix(mix(h, hd->dwarf), hd->units), hd->units_cut);
	h = mix(mix(mix(h, hd->code), hd->code_cut), hd->trampolines);
	h = mix(mix(mix(h, hd->probed), hd->unprobed), hd->an_notes);
	for (i = 0; i < sizeof(an) / sizeof(an[0]); i++)
		h = mix(mix(h, (uint64_t)an[i]->min), (uint64_t)an[i]->max);
	for (i = 0; i < hd->build_id_len; i++)
		h = mix(h, hd->build_id[i]);
	return string_hash(h, hd->evidence_error);
}

/* FNV-1a of the image's dlopen notes, which must be a list that ends
   within its room. */
static uint64_t
dlopen_hash(const struct chstk_hardening *hd)
{
	uint64_t h = UINT64_C(14695981039346656037);
	size_t at = 0, len, i;

	must(hd->dlopen != NULL);
	while ((len = strlen(hd->dlopen + at)) > 0) {
		at += len + 1;
		must(at < CHSTK_DLOPEN_LEN);
	}
	for (i = 0; i < at; i++)
		h = (h ^ (unsigned char)hd->dlopen[i]) * UINT64_C(1099511628211);
	return (h ^ hd->dlopen_cut) * UINT64_C(1099511628211);
}

/* Every image's sections and dynamic symbols, asked of want. */
static unsigned
want_all(void *arg, const struct chstk_info *info)
{
	(void)arg, (void)info;
	return CHSTK_READ_SECTIONS | CHSTK_READ_DYNSYM;
}

/* The facts beyond the marking, summed like the symbols. */
static uint64_t
facts_hash(const struct chstk_info *info)
{
	const struct chstk_sections *t = info->sections;
	uint64_t v[] = { info->cut, info->exec_in_file,
	    (uint64_t)(int64_t)info->abi_tag,
	    info->hardening ? (uint64_t)info->hardening->guard_reads : 0,
	    t != NULL,
	    t ? t->count : 0, t ? t->alloc : 0, t ? t->alloc_bytes : 0,
	    t ? t->alloc_nobits : 0, t ? t->symtab : 0, t ? t->globals : 0,
	    t ? t->lto : 0, t ? t->modname : 0 };
	uint64_t h = UINT64_C(14695981039346656037);
	size_t i;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		h = (h ^ v[i]) * UINT64_C(1099511628211);
	return h;
}

static int
on_hard_image(void *arg, const char *member, const struct chstk_info *info,
    const struct chstk_error *err)
{
	struct hard_scan *h = arg;
	const struct chstk_hardening *hd;

	(void)member;
	h->images++;
	if (info == NULL) {
		fuzz_check_error(err->code, err);
		return 0;
	}
	hd = info->hardening;
	h->digest += facts_hash(info);
	/* A file cut short is reported, its marking standing, without what
	   lies past its end (elfscan calls it malformed). */
	if (hd == NULL) {
		must(info->cut);
		return 0;
	}
	must(hd->guard_reads >= -1);
	must(hd->rpath != NULL && strlen(hd->rpath) < CHSTK_PATH_LEN);
	must(hd->runpath != NULL && strlen(hd->runpath) < CHSTK_PATH_LEN);
	must(hd->has_rpath || hd->rpath[0] == '\0');
	must(hd->has_runpath || hd->runpath[0] == '\0');
	must(!hd->symtab || hd->sections);
	must(hd->build_id_len <= CHSTK_BUILD_ID_MAX);
	must(hd->evidence_error != NULL &&
	    strlen(hd->evidence_error) < 256);
	must(hd->dwarf || hd->units == 0);
	must(hd->units <= CHSTK_UNITS_MAX);
	must(!hd->code || info->machine == 62 /* EM_X86_64 */);
	must(hd->an_notes > 0 || (hd->an_stack_clash.min == -1 &&
	    hd->an_fortify.max == -1));
	h->evidence = mix(h->evidence, evidence_hash(hd));
	must((hd->relro_outside & ~hd->relro_sections) == 0);
	must(hd->relro_sections < 1u << CHSTK_RELRO_KINDS);
	must(hd->property_fault <= CHSTK_PROPERTY_MANY);
	must(hd->property_notes > 0 || !hd->property);
	must(hd->dynamic_segments > 0 || !hd->dynamic);
	must(strlen(hd->go_version) < sizeof(hd->go_version));
	must(!hd->has_entry_code || info->type == ET_EXEC ||
	    info->type == ET_DYN);
	h->digest += hardening_hash(hd);
	h->digest += dlopen_hash(hd);
	return 0;
}

/* in: a file descriptor, -1 for memory, -2 for a stream of known size. */
static void
hard_scan(const uint8_t *data, size_t size, int in, struct hard_scan *h)
{
	struct chstk_scan_opts o = {
		.read = CHSTK_READ_HARDENING | CHSTK_READ_CODE |
		    CHSTK_READ_EVIDENCE | CHSTK_READ_CODE_SEARCH | CHSTK_READ_WANT,
		.symbol = on_symbol,
		.unit = on_unit,
		.want = want_all,
	};
	/* A stream of known size, 1000 bytes a read. */
	struct fuzz_pieces c = fuzz_pieces(data, size, 1000);
	struct chstk_error err;

	memset(h, 0, sizeof(*h));
	if (in == -2)
		h->r = chstk_scan_stream_with(fuzz_read_piece, &c, size, &o,
		    on_hard_image, h, &err);
	else if (in == -1)
		h->r = chstk_scan_mem_with(data, size, &o, on_hard_image, h,
		    &err);
	else
		h->r = chstk_scan_fd_with(in, &o, on_hard_image, h, &err);
	if (h->r < 0)
		fuzz_check_error(h->r, &err);
	else
		must(h->r == 0);
}

static int
stop_at_first(void *arg, const char *member, const struct chstk_info *info,
    const struct chstk_error *err)
{
	unsigned *calls = arg;

	(void)member, (void)info, (void)err;
	(*calls)++;
	return 42;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct chstk__symread_sizes sizes = chstk__symread_sizes;
	struct hard_scan hm, hf, hs, hw;
	struct chstk_error err;
	unsigned calls = 0;
	int in, r;

	fuzz_scan_mem(data, size, &mem);
	in = fuzz_memfd(data, size);
	fuzz_scan_fd(in, &fd);
	/* As elfscan reads a file it listed: its first 1 KiB lent, its size
	   asked only when a check needs it. */
	fuzz_scan_fd_with(in, &(struct chstk_scan_opts){ .head = data,
	    .head_len = size < 1024 ? size : 1024, .regular = true }, &lent);
	hard_scan(data, size, -1, &hm);
	hard_scan(data, size, in, &hf);
	hard_scan(data, size, -2, &hs);
	close(in);
	/* Every string table through a window of 1024 bytes (the least, the
	   longest name handed over), 170 64-bit symbols at a time. */
	chstk__symread_sizes.names_whole = 0;
	chstk__symread_sizes.names_win = 1024;
	chstk__symread_sizes.block = 4096;
	chstk__symread_sizes.code_win = CHSTK_CODE_LEN;
	hard_scan(data, size, -1, &hw);
	chstk__symread_sizes = sizes;

	must(hm.r == hf.r && hm.images == hf.images &&
	    hm.symbols == hf.symbols && hm.digest == hf.digest);
	/* A stream kept whole reads as memory does. */
	must(hm.r == hs.r && hm.images == hs.images &&
	    hm.symbols == hs.symbols && hm.digest == hs.digest);
	must(hm.r == hw.r && hm.images == hw.images &&
	    hm.symbols == hw.symbols && hm.digest == hw.digest);
	/* And so does the evidence. */
	must(hm.units == hf.units && hm.units == hs.units &&
	    hm.units == hw.units);
	must(hm.unit_digest == hf.unit_digest &&
	    hm.unit_digest == hs.unit_digest &&
	    hm.unit_digest == hw.unit_digest);
	must(hm.evidence == hf.evidence && hm.evidence == hs.evidence &&
	    hm.evidence == hw.evidence);
	must(hm.images == mem.images || (hm.r < 0 && hm.images == 0 &&
	    mem.images == 1 && !fuzz_is_archive(data, size)));

	must(mem.r >= 0 || mem.images == 0 || fuzz_is_archive(data, size));
	must((mem.r < 0) == (fd.r < 0));
	must(mem.images == fd.images);
	must(memcmp(mem.state, fd.state, mem.images < FUZZ_MAX_IMAGES ?
	    mem.images : FUZZ_MAX_IMAGES) == 0);
	must(lent.r == fd.r && lent.images == fd.images);
	must(memcmp(lent.state, fd.state, fd.images < FUZZ_MAX_IMAGES ?
	    fd.images : FUZZ_MAX_IMAGES) == 0);

	fuzz_scan_stream(data, size, true, &stream);
	must(stream.r == mem.r);
	must(stream.images == mem.images);
	must(memcmp(mem.state, stream.state, mem.images < FUZZ_MAX_IMAGES ?
	    mem.images : FUZZ_MAX_IMAGES) == 0);
	fuzz_scan_stream(data, size, false, &unsized);

	r = chstk_scan_mem(data, size, stop_at_first, &calls, &err);
	must(mem.images == 0 ? r == mem.r && calls == 0 : r == 42 && calls == 1);
	return 0;
}
