/*
 * hardening.c - the other defences against overflows (--hardening): what
 * the library read of an image (struct chstk_hardening, its symbols)
 * judged into RELRO, PIE, canary, FORTIFY_SOURCE, search paths, control-
 * flow protection and symbols, and the --require policy. The tables below
 * are data, each citing where it comes from; elfscan(1), HARDENING, says
 * the rule behind every field and where checksec and hardening-check
 * disagree.
 */
#include <elf.h>
#include <stdlib.h>
#include <string.h>

#include "evidence.h"
#include "verdict.h"
#include "xalloc.h"

/*
 * The functions glibc fortifies: those for which glibc 2.36 (Debian 12,
 * x86_64 libc.so.6) exports a checking variant __NAME_chk, as listed in
 * debug/Versions, which _FORTIFY_SOURCE makes the headers call
 * (<bits/string_fortified.h>, <bits/stdio2.h>, <bits/unistd.h> ...).
 * fdelt is FD_SET's and FD_CLR's check; longjmp's is __longjmp_chk. Sorted
 * for bsearch; the index is the bit of a struct hard_syms.
 */
static const char *const fortifiable[] = {
	"asprintf", "confstr", "dprintf", "explicit_bzero", "fdelt", "fgets",
	"fgets_unlocked", "fgetws", "fgetws_unlocked", "fprintf", "fread",
	"fread_unlocked", "fwprintf", "getcwd", "getdomainname", "getgroups",
	"gethostname", "getlogin_r", "gets", "getwd", "longjmp", "mbsnrtowcs",
	"mbsrtowcs", "mbstowcs", "memcpy", "memmove", "mempcpy", "memset",
	"obstack_printf", "obstack_vprintf", "poll", "ppoll", "pread",
	"pread64", "printf", "ptsname_r", "read", "readlink", "readlinkat",
	"realpath", "recv", "recvfrom", "snprintf", "sprintf", "stpcpy",
	"stpncpy", "strcat", "strcpy", "strncat", "strncpy", "swprintf",
	"syslog", "ttyname_r", "vasprintf", "vdprintf", "vfprintf",
	"vfwprintf", "vprintf", "vsnprintf", "vsprintf", "vswprintf",
	"vsyslog", "vwprintf", "wcpcpy", "wcpncpy", "wcrtomb", "wcscat",
	"wcscpy", "wcsncat", "wcsncpy", "wcsnrtombs", "wcsrtombs", "wcstombs",
	"wctomb", "wmemcpy", "wmemmove", "wmempcpy", "wmemset", "wprintf",
};
#define NFORT (sizeof(fortifiable) / sizeof(fortifiable[0]))
_Static_assert(NFORT == HARD_NFORT, "HARD_NFORT is the table's size");

/*
 * The canary's symbols: GCC's and Clang's calls (__stack_chk_fail, and
 * __stack_chk_fail_local in 32-bit position-independent code, which
 * libc_nonshared.a defines), the guard variable of targets without a TLS
 * slot for it (__stack_chk_guard: AArch64, ARM, PowerPC-less static
 * links), the same in musl, uClibc and bionic; OpenBSD's libc
 * (__guard_local, __stack_smash_handler); Intel's compiler
 * (__intel_security_cookie).
 */
static const char *const canary_names[] = {
	"__stack_chk_fail", "__stack_chk_fail_local", "__stack_chk_guard",
	"__guard_local", "__stack_smash_handler", "__intel_security_cookie",
};

/*
 * Symbols only Rust's standard library defines: its panic handler and
 * personality routine, and the allocator shims rustc emits. They are in
 * the static table: a stripped Rust program leaves no trace there.
 */
static const char *const rust_names[] = {
	"__rust_alloc", "__rust_dealloc", "__rust_realloc", "rust_begin_unwind",
	"rust_eh_personality", "rust_panic",
};

/* The landing pads an indirect branch may land on: x86's ENDBR64 and
   ENDBR32 (Intel SDM, CET), AArch64's BTI c, BTI jc, PACIASP and PACIBSP
   (Arm ARM, BTYPE), whose instructions are little-endian in any file. */
static const unsigned char endbr64[] = { 0xf3, 0x0f, 0x1e, 0xfa };
static const unsigned char endbr32[] = { 0xf3, 0x0f, 0x1e, 0xfb };
static const unsigned char bti_pads[][4] = {
	{ 0x5f, 0x24, 0x03, 0xd5 }, { 0xdf, 0x24, 0x03, 0xd5 },
	{ 0x3f, 0x23, 0x03, 0xd5 }, { 0x7f, 0x23, 0x03, 0xd5 },
};

static int
cmp_name(const void *key, const void *elem)
{
	return strcmp(key, *(const char *const *)elem);
}

/* The fortifiable function name (with the __*_chk stripped when chk). */
static int
fort_index(const char *name, bool *chk)
{
	char base[64];
	const char *const *hit;
	size_t len = strcspn(name, "@");

	*chk = len > 6 && strncmp(name, "__", 2) == 0 &&
	    strncmp(name + len - 4, "_chk", 4) == 0;
	if (*chk) {
		name += 2;
		len -= 6;
	}
	if (len == 0 || len >= sizeof(base))
		return -1;
	memcpy(base, name, len);
	base[len] = '\0';
	hit = bsearch(base, fortifiable, NFORT, sizeof(fortifiable[0]),
	    cmp_name);
	return hit == NULL ? -1 : (int)(hit - fortifiable);
}

/* What a name's characters may hide: nothing, only spaces, or worse. */
enum { NAME_OK, NAME_SPACE, NAME_BAD };

/*
 * annocheck's unicode test (contains_suspicious_characters() in annobin's
 * hardened.c): a control character or DEL, bytes that are no UTF-8, or a
 * character of Trojan Source (CVE-2021-42574): zero-width U+200B-U+200D,
 * bidirectional U+202A-U+202E and U+2066-U+2069; a space only in Go. Unlike
 * annocheck, the whole name is read (it stops at the first two- or
 * four-byte character) and a sequence must be UTF-8 to its last byte; a
 * sequence the 1024 bytes handed over cut is not held against the name.
 */
static int
name_flaw(const unsigned char *p, size_t len, bool cut)
{
	static const uint32_t least[] = { 0, 0x80, 0x800, 0x10000 };
	int flaw = NAME_OK;
	size_t i, n, k;
	uint32_t c;

	for (i = 0; i < len; i += n + 1) {
		n = 0;
		if (p[i] == ' ') {
			flaw = NAME_SPACE;
			continue;
		}
		if (p[i] < 0x20 || p[i] == 0x7f)
			return NAME_BAD;
		if (p[i] < 0x80)
			continue;
		n = p[i] >= 0xf0 ? 3 : p[i] >= 0xe0 ? 2 : p[i] >= 0xc0 ? 1 : 0;
		if (n == 0 || p[i] > 0xf4)
			return NAME_BAD;
		if (len - i - 1 < n)
			return cut ? flaw : NAME_BAD;
		c = p[i] & (0x3fu >> n);
		for (k = 1; k <= n; k++) {
			if ((p[i + k] & 0xc0) != 0x80)
				return NAME_BAD;
			c = c << 6 | (p[i + k] & 0x3f);
		}
		if (c < least[n] || c > 0x10ffff ||
		    (c >= 0xd800 && c <= 0xdfff) ||
		    (c >= 0x200b && c <= 0x200d) ||
		    (c >= 0x202a && c <= 0x202e) ||
		    (c >= 0x2066 && c <= 0x2069))
			return NAME_BAD;
	}
	return flaw;
}

/* The name, its bytes outside printable ASCII as \xNN, cut to fit. */
static void
escape_name(char *out, size_t len, const char *name)
{
	const unsigned char *p = (const unsigned char *)name;
	size_t have = 0;

	for (; *p != '\0' && have + 5 < len; p++)
		if (*p < 0x20 || *p >= 0x7f)
			have += (size_t)snprintf(out + have, len - have,
			    "\\x%02x", *p);
		else
			out[have++] = (char)*p;
	out[have] = '\0';
}

/* What a symbol's name and code say of the image (struct hard_syms). */
static void
name_and_code(struct hard_syms *s, const struct chstk_sym *sym)
{
	size_t i;

	switch (name_flaw((const unsigned char *)sym->name,
	    strlen(sym->name), sym->cut)) {
	case NAME_BAD:
		if (s->suspicious++ == 0)
			escape_name(s->first_suspicious,
			    sizeof(s->first_suspicious), sym->name);
		break;
	case NAME_SPACE:
		if (s->spaced++ == 0)
			escape_name(s->first_spaced, sizeof(s->first_spaced),
			    sym->name);
		break;
	}
	for (i = 0; i < sizeof(rust_names) / sizeof(rust_names[0]); i++)
		if (!sym->dynamic && strcmp(sym->name, rust_names[i]) == 0)
			s->rust = true;
	if (sym->code == NULL)
		return;
	s->functions++;
	s->endbr64 += memcmp(sym->code, endbr64, 4) == 0;
	s->endbr32 += memcmp(sym->code, endbr32, 4) == 0;
	for (i = 0; i < sizeof(bti_pads) / sizeof(bti_pads[0]); i++)
		s->bti += memcmp(sym->code, bti_pads[i], 4) == 0;
}

void
hard_syms_clear(struct hard_syms *s)
{
	memset(s, 0, sizeof(*s));
}

/* One symbol of the image being read: a canary's, or a fortifiable
   function referenced (SHN_UNDEF: dynamic in a linked image, static in an
   object, which has no dynamic table). */
void
hard_syms_add(struct hard_syms *s, const struct chstk_sym *sym)
{
	size_t i, len;
	bool chk;
	int f;

	name_and_code(s, sym);
	if (sym->cut)
		return;
	len = strcspn(sym->name, "@");
	for (i = 0; i < sizeof(canary_names) / sizeof(canary_names[0]); i++)
		if (strlen(canary_names[i]) == len &&
		    strncmp(sym->name, canary_names[i], len) == 0)
			s->canary = true;
	if (!sym->undefined)
		return;
	if ((f = fort_index(sym->name, &chk)) < 0)
		return;
	s->fort[f] |= (unsigned char)(1u << (sym->dynamic ? 0 : 2)) <<
	    (chk ? 1 : 0);
}

/*
 * Is one entry of a search path unsafe: empty (the current directory for
 * glibc's fillin_rpath()), relative (to the current directory, not the
 * object: ".", "lib", "../x"), or in a directory anyone may write to?
 */
static bool
unsafe_entry(const char *p, size_t len)
{
	static const char *const shared[] = { "/tmp", "/var/tmp", "/dev/shm" };
	size_t i, n;

	if (len == 0 || p[0] != '/')
		return !(len >= 7 && strncmp(p, "$ORIGIN", 7) == 0) &&
		    !(len >= 9 && strncmp(p, "${ORIGIN}", 9) == 0);
	for (i = 0; i < sizeof(shared) / sizeof(shared[0]); i++) {
		n = strlen(shared[i]);
		if (len >= n && strncmp(p, shared[i], n) == 0 &&
		    (len == n || p[n] == '/'))
			return true;
	}
	return false;
}

/* Append the unsafe entries of path to h->unsafe, separated by ':'. */
static void
unsafe_entries(const char *path, struct hard *h)
{
	const char *p = path, *end;
	size_t len, have;

	for (;; p = end + 1) {
		end = strchr(p, ':');
		len = end != NULL ? (size_t)(end - p) : strlen(p);
		if (unsafe_entry(p, len)) {
			have = strlen(h->unsafe);
			if (h->nunsafe++ > 0 && have + 1 < sizeof(h->unsafe))
				h->unsafe[have++] = ':';
			if (have + len < sizeof(h->unsafe)) {
				memcpy(h->unsafe + have, p, len);
				h->unsafe[have + len] = '\0';
			}
		}
		if (end == NULL)
			break;
	}
}

static enum tri
tri(bool known, bool yes)
{
	return !known ? T_NA : yes ? T_YES : T_NO;
}

static void
judge_paths(const struct chstk_hardening *h, struct hard *out)
{
	if (h->has_rpath)
		unsafe_entries(h->rpath, out);
	if (h->has_runpath)
		unsafe_entries(h->runpath, out);
	out->paths = !h->has_rpath && !h->has_runpath ? T_NA :
	    out->nunsafe > 0 ? T_NO : h->rpath_cut || h->runpath_cut ?
	    T_UNKNOWN : T_YES;
}

/*
 * Does a function of the image check a canary? Its symbols say so (a
 * static program's hold libc's own, protected, code); a stripped static
 * program has none to say it, but its code does where the library
 * counted the guard's reads (x86): one is a yes, none a no. Elsewhere its
 * canary is unknown, never a no without evidence: its dynamic symbol
 * table, when it has one, names no import.
 */
static enum tri
canary_of(const struct chstk_info *info, const struct chstk_hardening *h,
    const struct hard_syms *s)
{
	bool stripped_static = info->kind == CHSTK_KIND_PROGRAM &&
	    !info->interp && !h->symtab;

	if (s->canary || h->guard_reads > 0)
		return T_YES;
	if (h->guard_reads == 0)
		return T_NO;
	if (stripped_static)
		return T_UNKNOWN;
	return h->symtab || h->dynsym ? T_NO : T_UNKNOWN;
}

static void
judge_symbols(const struct chstk_info *info, const struct chstk_hardening *h,
    const struct hard_syms *s, struct hard *out)
{
	bool object = info->kind == CHSTK_KIND_OBJECT;
	unsigned mask = object ? 3u << 2 : 3u;
	size_t i;

	out->canary = canary_of(info, h, s);
	out->canary_checks = h->guard_reads;
	/* The dynamic table names what an image takes from libc; a static
	   program's symtab holds libc's own, used or not. */
	if (!object && !h->dynsym) {
		out->fortify = T_UNKNOWN;
		return;
	}
	for (i = 0; i < NFORT; i++) {
		unsigned f = s->fort[i] & mask;

		if (object)
			f >>= 2;
		/* Both, when the compiler could not size every call. */
		if (f & 2)
			out->fortified[out->nfortified++] = (unsigned char)i;
		if (f & 1)
			out->unfortified[out->nunfortified++] = (unsigned char)i;
	}
	out->fortify = out->nfortified > 0 ? T_YES : out->nunfortified > 0 ?
	    T_NO : T_NA;
}

/* The protections the property note asks for; none when glibc's loader
   ignores the note (elf/dl-load.c, _dl_process_pt_gnu_property: its
   alignment, its size, a property running past it, properties out of
   order). */
static void
judge_cfi(const struct chstk_info *info, const struct chstk_hardening *h,
    struct hard *out)
{
	bool x86 = info->machine == EM_X86_64 || info->machine == EM_386;
	bool arm = info->machine == EM_AARCH64;
	enum chstk_property_fault f = h->property_fault;
	bool ignored = f == CHSTK_PROPERTY_ALIGN || f == CHSTK_PROPERTY_SIZE ||
	    f == CHSTK_PROPERTY_OVERRUN || f == CHSTK_PROPERTY_ORDER;
	uint32_t x = ignored ? 0 : h->x86_feature_1;
	uint32_t a = ignored ? 0 : h->aarch64_feature_1;

	out->ibt = tri(x86, x & 1);
	out->shstk = tri(x86, x & 2);
	out->bti = tri(arm, a & 1);
	out->pac = tri(arm, a & 2);
}

/* What is wrong with a property note, by enum chstk_property_fault. */
static const char *const property_faults[] = {
	[CHSTK_PROPERTY_ALIGN] = "misaligned",
	[CHSTK_PROPERTY_NOT_FIRST] = "not the first note of its segment",
	[CHSTK_PROPERTY_SIZE] = "descriptor size not a multiple of the alignment",
	[CHSTK_PROPERTY_OVERRUN] = "a property runs past the note",
	[CHSTK_PROPERTY_ORDER] = "properties out of order",
	[CHSTK_PROPERTY_FEATURE] = "a feature property not of 4 bytes",
	[CHSTK_PROPERTY_MANY] = "more than one property note",
};

/* The sections of the CHSTK_RELRO_* bits, by bit index. */
static const char *const relro_sections[CHSTK_RELRO_KINDS] = {
	".dynamic", ".got", ".got.plt", ".init_array", ".fini_array",
	".preinit_array", ".data.rel.ro",
};

const char *
relro_names(unsigned bits, char *buf, size_t len)
{
	size_t have = 0;
	unsigned i;

	buf[0] = '\0';
	for (i = 0; i < CHSTK_RELRO_KINDS && have < len; i++)
		if (bits & 1u << i)
			have += (size_t)snprintf(buf + have, len - have, "%s%s",
			    have ? ":" : "", relro_sections[i]);
	return buf;
}

/*
 * annocheck's run-path rule (check_runtime_search_paths() in annobin's
 * hardened.c): each entry starts with /usr or $ORIGIN and has no "..".
 * Read by entries: "/usr" or "/usr/..." ("/usrx" is elsewhere), "$ORIGIN"
 * or "${ORIGIN}" alone or before a '/', no ".." entry of the path
 * ("a..b" is a name). Empty entries are the unsafe ones' (unsafe_entry).
 */
static bool
outside_entry(const char *p, size_t len)
{
	size_t i, n;

	if (!(len >= 4 && strncmp(p, "/usr", 4) == 0 &&
	    (len == 4 || p[4] == '/')) &&
	    !(len >= 7 && strncmp(p, "$ORIGIN", 7) == 0 &&
	    (len == 7 || p[7] == '/')) &&
	    !(len >= 9 && strncmp(p, "${ORIGIN}", 9) == 0 &&
	    (len == 9 || p[9] == '/')))
		return len > 0;
	for (i = 0; i < len; i += n + 1) {
		n = strcspn(p + i, "/:");
		if (n > len - i)
			n = len - i;
		if (n == 2 && p[i] == '.' && p[i + 1] == '.')
			return true;
	}
	return false;
}

/* The entries of path outside the system's directories, to h->outside. */
static void
outside_entries(const char *path, struct hard *h)
{
	const char *p = path, *end;
	size_t len, have;

	for (;; p = end + 1) {
		end = strchr(p, ':');
		len = end != NULL ? (size_t)(end - p) : strlen(p);
		if (outside_entry(p, len)) {
			have = strlen(h->outside);
			if (h->noutside++ > 0 && have + 1 < sizeof(h->outside))
				h->outside[have++] = ':';
			if (have + len < sizeof(h->outside)) {
				memcpy(h->outside + have, p, len);
				h->outside[have + len] = '\0';
			}
		}
		if (end == NULL)
			break;
	}
}

/* The landing pads of the image's exported functions, by its machine. */
static void
judge_pads(const struct chstk_info *info, const struct chstk_hardening *h,
    const struct hard_syms *s, struct hard *out)
{
	out->entry_endbr = T_NA;
	if (info->machine == EM_X86_64 || info->machine == EM_386) {
		out->functions = s->functions;
		out->endbr = info->machine == EM_X86_64 ? s->endbr64 :
		    s->endbr32;
	} else if (info->machine == EM_AARCH64) {
		out->functions = s->functions;
		out->endbr = s->bti;
	}
	/* annocheck skips shared libraries: their entry, if any, is not
	   where a program starts. */
	if (info->kind != CHSTK_KIND_PROGRAM ||
	    (info->machine != EM_X86_64 && info->machine != EM_386))
		return;
	out->entry_endbr = !h->has_entry_code ? T_UNKNOWN :
	    memcmp(h->entry_code, info->machine == EM_X86_64 ? endbr64 :
	    endbr32, 4) == 0 ? T_YES : T_NO;
}

/* annocheck's tests of the binary alone: elfscan(1), HARDENING. */
static void
judge_annocheck(const struct chstk_info *info,
    const struct chstk_hardening *h, const struct hard_syms *s,
    struct hard *out)
{
	bool linked = info->kind == CHSTK_KIND_PROGRAM ||
	    info->kind == CHSTK_KIND_SHARED;
	bool go = h->go_buildid || h->go_version[0] != '\0';

	out->lang = go ? LANG_GO : s->rust ? LANG_RUST : LANG_UNKNOWN;
	out->textrel = tri(linked, h->textrel);
	out->one_dynamic = tri(linked, h->dynamic_segments <= 1 &&
	    h->dynamic_sections <= 1);
	out->property = h->property_notes == 0 &&
	    h->property_fault == CHSTK_PROPERTY_OK ? T_NA :
	    h->property_fault == CHSTK_PROPERTY_OK ? T_YES : T_NO;
	out->property_fault = h->property_fault == CHSTK_PROPERTY_OK ? NULL :
	    property_faults[h->property_fault];
	judge_pads(info, h, s, out);
	out->bti_plt = out->pac_plt = T_NA;
	if (linked && info->machine == EM_AARCH64 && h->dynamic) {
		out->bti_plt = h->aarch64_bti_plt ? T_YES : T_NO;
		out->pac_plt = h->aarch64_pac_plt ? T_YES : T_NO;
	}
	if (h->tls_exec)
		out->odd |= ODD_TLS_EXEC;
	if (linked && info->state != CHSTK_DEFAULT &&
	    (info->stack_flags & (PF_R | PF_W)) != (PF_R | PF_W))
		out->odd |= ODD_STACK_NOT_RW;
	/* .got.plt is written by lazy binding: RELRO covers it only with
	   immediate binding. */
	out->relro_gaps = h->relro_outside & (h->bind_now ? ~0u :
	    ~(unsigned)CHSTK_RELRO_GOT_PLT);
	out->relro_covers = !linked || !h->gnu_relro ? T_NA :
	    !h->sections ? T_UNKNOWN : out->relro_gaps ? T_NO : T_YES;
	if (h->has_rpath)
		outside_entries(h->rpath, out);
	if (h->has_runpath)
		outside_entries(h->runpath, out);
	out->system_paths = !h->has_rpath && !h->has_runpath ? T_NA :
	    out->noutside > 0 ? T_NO : h->rpath_cut || h->runpath_cut ?
	    T_UNKNOWN : T_YES;
	out->nsuspicious = s->suspicious + (go ? 0 : s->spaced);
	memcpy(out->suspicious, s->suspicious > 0 ? s->first_suspicious :
	    s->first_spaced, sizeof(out->suspicious));
	out->names = !h->symtab && !h->dynsym ? T_UNKNOWN :
	    out->nsuspicious > 0 ? T_NO : T_YES;
}

void
hardening_judge(const struct chstk_info *info, const struct hard_syms *s,
    const struct evidence *ev, struct hard *out)
{
	const struct chstk_hardening *h = info->hardening;
	bool linked = info->kind == CHSTK_KIND_PROGRAM ||
	    info->kind == CHSTK_KIND_SHARED;

	memset(out, 0, sizeof(*out));
	out->canary_checks = -1;
	out->known = h != NULL && info->kind != CHSTK_KIND_OTHER;
	if (!out->known)
		return;
	out->machine = info->machine;
	out->relro = !linked ? RELRO_NA : !h->gnu_relro ? RELRO_NONE :
	    h->bind_now ? RELRO_FULL : RELRO_PARTIAL;
	out->bind_now = tri(linked, h->bind_now);
	out->pie = info->kind != CHSTK_KIND_PROGRAM ? PIE_NA : !info->pie ?
	    PIE_NO : info->interp ? PIE_YES : PIE_STATIC;
	out->symbols = h->symtab ? T_YES : T_NO;
	judge_paths(h, out);
	judge_symbols(info, h, s, out);
	judge_cfi(info, h, out);
	out->stack_clash = ev != NULL && ev->looked ? ev_stack_clash(ev) :
	    T_UNKNOWN;
	out->optimized = ev != NULL && ev->looked ? ev_optimized(ev) :
	    T_UNKNOWN;
	out->auto_var_init = ev != NULL && ev->looked ?
	    ev_auto_var_init(ev) : T_UNKNOWN;
	judge_annocheck(info, h, s, out);
}

const char *
fortify_name(unsigned i)
{
	return i < NFORT ? fortifiable[i] : "?";
}

/* The properties --require names, each with the finding it gives. */
static const struct {
	const char *name;
	uint64_t finding;
} props[] = {
	{ "pie", F_NO_PIE }, { "relro", F_NO_FULL_RELRO },
	{ "canary", F_NO_CANARY }, { "fortify", F_NO_FORTIFY },
	{ "rpath", F_UNSAFE_RPATH }, { "ibt", F_NO_IBT },
	{ "shstk", F_NO_SHSTK }, { "bti", F_NO_BTI }, { "pac", F_NO_PAC },
	{ "stripped", F_NOT_STRIPPED },
	/* annocheck's tests of the binary alone, by its names where one
	   word says it. */
	{ "textrel", F_TEXTREL }, { "one-dynamic", F_MULTI_DYNAMIC },
	{ "property-note", F_BAD_PROPERTY }, { "endbr", F_NO_ENDBR },
	{ "bti-plt", F_NO_BTI_PLT }, { "segments", F_ODD_SEGMENT },
	{ "relro-coverage", F_RELRO_GAP }, { "run-path", F_RUN_PATH_OUTSIDE },
	{ "unicode", F_SUSPICIOUS_NAME },
	/* A GNU_RELRO segment, full or partial (Debian's promise). */
	{ "gnu-relro", F_NO_RELRO },
	/* The compiler's defences, by the evidence. */
	{ "stack-clash", F_NO_STACK_CLASH }, { "optimized", F_NOT_OPTIMIZED },
	{ "auto-var-init", F_NO_AUTO_VAR_INIT },
};

const char *
require_property(size_t i)
{
	return i < sizeof(props) / sizeof(props[0]) ? props[i].name : NULL;
}

uint64_t
require_finding(const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < sizeof(props) / sizeof(props[0]); i++)
		if (strlen(props[i].name) == len &&
		    strncmp(props[i].name, name, len) == 0)
			return props[i].finding;
	return 0;
}

/* Parse "[GLOB=]PROP,PROP..." into r. 0, or -1 naming the bad word. */
int
require_parse(struct require *r, const char *arg, const char **bad)
{
	const char *eq = strrchr(arg, '='), *p, *end;
	uint64_t finding;
	size_t len;

	memset(r, 0, sizeof(*r));
	if (eq != NULL) {
		r->glob = xmalloc((size_t)(eq - arg) + 1);
		memcpy(r->glob, arg, (size_t)(eq - arg));
		r->glob[eq - arg] = '\0';
	}
	for (p = eq != NULL ? eq + 1 : arg; ; p = end + 1) {
		end = strchr(p, ',');
		len = end != NULL ? (size_t)(end - p) : strlen(p);
		if ((finding = require_finding(p, len)) == 0) {
			*bad = p;
			free(r->glob);
			r->glob = NULL;
			return -1;
		}
		r->findings |= finding;
		if (end == NULL)
			return 0;
	}
}

/* The findings of annocheck's tests the image fails. */
static uint64_t
annocheck_got(const struct hard *h)
{
	uint64_t got = 0;

	if (h->textrel == T_YES)
		got |= F_TEXTREL;
	if (h->one_dynamic == T_NO)
		got |= F_MULTI_DYNAMIC;
	if (h->property == T_NO)
		got |= F_BAD_PROPERTY;
	if (h->entry_endbr == T_NO || h->endbr < h->functions)
		got |= F_NO_ENDBR;
	if (h->bti_plt == T_NO)
		got |= F_NO_BTI_PLT;
	if (h->odd != 0)
		got |= F_ODD_SEGMENT;
	if (h->relro_covers == T_NO)
		got |= F_RELRO_GAP;
	if (h->system_paths == T_NO)
		got |= F_RUN_PATH_OUTSIDE;
	if (h->names == T_NO)
		got |= F_SUSPICIOUS_NAME;
	return got;
}

/* Does the requirement hold for the image: its machine, its kind? */
static bool
require_applies(const struct require *r, const struct hard *h)
{
	size_t i;

	if (r->machine != 0 && r->machine != h->machine)
		return false;
	for (i = 0; i < sizeof(r->except) / sizeof(r->except[0]); i++)
		if (r->except[i] != 0 && r->except[i] == h->machine)
			return false;
	return !r->programs || h->pie != PIE_NA;
}

/* The findings a missing required property gives; a property that is
   unknown, or means nothing for this image, is not held against it. */
uint64_t
require_check(const struct require *req, size_t n, const struct where *w,
    const struct hard *h)
{
	uint64_t want = 0, got = 0;
	size_t i;

	if (!h->known)
		return 0;
	for (i = 0; i < n; i++)
		if ((req[i].glob == NULL || where_match(req[i].glob, w)) &&
		    require_applies(&req[i], h))
			want |= req[i].findings;
	if (h->pie == PIE_NO)
		got |= F_NO_PIE;
	if (h->relro == RELRO_NONE || h->relro == RELRO_PARTIAL)
		got |= F_NO_FULL_RELRO;
	if (h->relro == RELRO_NONE)
		got |= F_NO_RELRO;
	if (h->canary == T_NO)
		got |= F_NO_CANARY;
	if (h->fortify == T_NO)
		got |= F_NO_FORTIFY;
	if (h->paths == T_NO)
		got |= F_UNSAFE_RPATH;
	if (h->ibt == T_NO)
		got |= F_NO_IBT;
	if (h->shstk == T_NO)
		got |= F_NO_SHSTK;
	if (h->bti == T_NO)
		got |= F_NO_BTI;
	if (h->pac == T_NO)
		got |= F_NO_PAC;
	if (h->symbols == T_YES)
		got |= F_NOT_STRIPPED;
	if (h->stack_clash == T_NO)
		got |= F_NO_STACK_CLASH;
	if (h->optimized == T_NO)
		got |= F_NOT_OPTIMIZED;
	if (h->auto_var_init == T_NO)
		got |= F_NO_AUTO_VAR_INIT;
	return want & (got | annocheck_got(h));
}

void
require_free(struct require *r, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(r[i].glob);
	free(r);
}

/* The entries of names (fortify_name indexes), up to a few, in buf. */
static void
name_list(char *buf, size_t len, const unsigned char *idx, unsigned n)
{
	size_t have = strlen(buf);
	unsigned i;

	for (i = 0; i < n && i < 4 && have < len; i++)
		have += (size_t)snprintf(buf + have, len - have, "%s%s",
		    i ? ", " : "", fortify_name(idx[i]));
	if (n > 4 && have < len)
		snprintf(buf + have, len - have, " and %u more", n - 4);
}

/* hard_why() for annocheck's tests. */
static const char *
annocheck_why(uint64_t bit, const struct hard *h, char *buf, size_t len)
{
	char names[128];

	if (bit == F_TEXTREL)
		return "its dynamic section has DT_TEXTREL or DF_TEXTREL";
	if (bit == F_MULTI_DYNAMIC)
		return "it has more than one dynamic segment or dynamic section";
	if (bit == F_BAD_PROPERTY)
		snprintf(buf, len, "its GNU property note: %s",
		    h->property_fault != NULL ? h->property_fault : "?");
	else if (bit == F_NO_ENDBR && h->entry_endbr == T_NO)
		snprintf(buf, len, "its entry point lacks ENDBR; %u of %u exported functions start with a landing pad",
		    h->endbr, h->functions);
	else if (bit == F_NO_ENDBR)
		snprintf(buf, len, "%u of %u exported functions start with a landing pad",
		    h->endbr, h->functions);
	else if (bit == F_NO_BTI_PLT)
		return "its dynamic section lacks DT_AARCH64_BTI_PLT";
	else if (bit == F_ODD_SEGMENT)
		return h->odd & ODD_TLS_EXEC ? "its TLS segment is executable" :
		    "its GNU_STACK segment lacks read or write";
	else if (bit == F_RELRO_GAP)
		snprintf(buf, len, "its GNU_RELRO segment does not cover %s",
		    relro_names(h->relro_gaps, names, sizeof(names)));
	else if (bit == F_RUN_PATH_OUTSIDE)
		snprintf(buf, len, "its search path holds %s", h->outside);
	else if (h->nsuspicious == 1)
		snprintf(buf, len, "a suspicious symbol name: %s",
		    h->suspicious);
	else
		snprintf(buf, len, "%u suspicious symbol names, the first %s",
		    h->nsuspicious, h->suspicious);
	return buf;
}

const char *
hard_why(uint64_t bit, const struct hard *h, char *buf, size_t len)
{
	switch (bit) {
	case F_NO_PIE:
		return "linked at a fixed address (ET_EXEC)";
	case F_NO_RELRO:
		return "no GNU_RELRO segment: its relocated data stays writable";
	case F_NO_FULL_RELRO:
		return h->relro == RELRO_NONE ?
		    "no GNU_RELRO segment: its relocated data stays writable" :
		    "GNU_RELRO without immediate binding (BIND_NOW): its lazily bound GOT stays writable";
	case F_NO_CANARY:
		return h->canary_checks == 0 ?
		    "no canary symbol, and none of its code reads the stack protector's guard" :
		    "no __stack_chk_fail or other canary symbol in its symbol tables";
	case F_NO_FORTIFY:
		snprintf(buf, len, "it calls ");
		name_list(buf, len, h->unfortified, h->nunfortified);
		snprintf(buf + strlen(buf), len - strlen(buf),
		    " and none of their __*_chk variants");
		return buf;
	case F_UNSAFE_RPATH:
		snprintf(buf, len, "its search path holds %s", h->unsafe);
		return buf;
	case F_NO_IBT:
		return "its GNU property note lacks the x86 IBT bit";
	case F_NO_SHSTK:
		return "its GNU property note lacks the x86 SHSTK bit";
	case F_NO_BTI:
		return "its GNU property note lacks the AArch64 BTI bit";
	case F_NO_PAC:
		return "its GNU property note lacks the AArch64 PAC bit";
	case F_NO_STACK_CLASH:
		return "its code allocates a stack frame of a page or more without probing it, or its notes or compilation units say it was built without -fstack-clash-protection";
	case F_NOT_OPTIMIZED:
		return "its notes or compilation units say it was built below -O2";
	case F_NO_AUTO_VAR_INIT:
		return "its notes or compilation units say it was built without -ftrivial-auto-var-init";
	case F_NOT_STRIPPED:
		return "a .symtab section is left";
	default:
		return annocheck_why(bit, h, buf, len);
	}
}
