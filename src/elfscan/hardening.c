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

static void
judge_symbols(const struct chstk_info *info, const struct chstk_hardening *h,
    const struct hard_syms *s, struct hard *out)
{
	bool object = info->kind == CHSTK_KIND_OBJECT;
	unsigned mask = object ? 3u << 2 : 3u;
	size_t i;

	out->canary = s->canary ? T_YES : h->symtab || h->dynsym ? T_NO :
	    T_UNKNOWN;
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

static void
judge_cfi(const struct chstk_info *info, const struct chstk_hardening *h,
    struct hard *out)
{
	bool x86 = info->machine == EM_X86_64 || info->machine == EM_386;
	bool arm = info->machine == EM_AARCH64;

	out->ibt = tri(x86, h->x86_feature_1 & 1);
	out->shstk = tri(x86, h->x86_feature_1 & 2);
	out->bti = tri(arm, h->aarch64_feature_1 & 1);
	out->pac = tri(arm, h->aarch64_feature_1 & 2);
}

void
hardening_judge(const struct chstk_info *info, const struct hard_syms *s,
    const struct evidence *ev, struct hard *out)
{
	const struct chstk_hardening *h = info->hardening;
	bool linked = info->kind == CHSTK_KIND_PROGRAM ||
	    info->kind == CHSTK_KIND_SHARED;

	memset(out, 0, sizeof(*out));
	out->known = h != NULL && info->kind != CHSTK_KIND_OTHER;
	if (!out->known)
		return;
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
}

const char *
fortify_name(unsigned i)
{
	return i < NFORT ? fortifiable[i] : "?";
}

/* The properties --require names, each with the finding it gives. */
static const struct {
	const char *name;
	unsigned finding;
} props[] = {
	{ "pie", F_NO_PIE }, { "relro", F_NO_FULL_RELRO },
	{ "canary", F_NO_CANARY }, { "fortify", F_NO_FORTIFY },
	{ "rpath", F_UNSAFE_RPATH }, { "ibt", F_NO_IBT },
	{ "shstk", F_NO_SHSTK }, { "bti", F_NO_BTI }, { "pac", F_NO_PAC },
	{ "stripped", F_NOT_STRIPPED }, { "stack-clash", F_NO_STACK_CLASH },
	{ "optimized", F_NOT_OPTIMIZED },
	{ "auto-var-init", F_NO_AUTO_VAR_INIT },
};

const char *
require_property(size_t i)
{
	return i < sizeof(props) / sizeof(props[0]) ? props[i].name : NULL;
}

/* Parse "[GLOB=]PROP,PROP..." into r. 0, or -1 naming the bad word. */
int
require_parse(struct require *r, const char *arg, const char **bad)
{
	const char *eq = strrchr(arg, '='), *p, *end;
	size_t i, len;

	memset(r, 0, sizeof(*r));
	if (eq != NULL) {
		r->glob = xmalloc((size_t)(eq - arg) + 1);
		memcpy(r->glob, arg, (size_t)(eq - arg));
		r->glob[eq - arg] = '\0';
	}
	for (p = eq != NULL ? eq + 1 : arg; ; p = end + 1) {
		end = strchr(p, ',');
		len = end != NULL ? (size_t)(end - p) : strlen(p);
		for (i = 0; i < sizeof(props) / sizeof(props[0]); i++)
			if (strlen(props[i].name) == len &&
			    strncmp(props[i].name, p, len) == 0)
				break;
		if (i == sizeof(props) / sizeof(props[0])) {
			*bad = p;
			free(r->glob);
			r->glob = NULL;
			return -1;
		}
		r->findings |= props[i].finding;
		if (end == NULL)
			return 0;
	}
}

/* The findings a missing required property gives; a property that is
   unknown, or means nothing for this image, is not held against it. */
unsigned
require_check(const struct require *req, size_t n, const struct where *w,
    const struct hard *h)
{
	unsigned want = 0, got = 0;
	size_t i;

	if (!h->known)
		return 0;
	for (i = 0; i < n; i++)
		if (req[i].glob == NULL || where_match(req[i].glob, w))
			want |= req[i].findings;
	if (h->pie == PIE_NO)
		got |= F_NO_PIE;
	if (h->relro == RELRO_NONE || h->relro == RELRO_PARTIAL)
		got |= F_NO_FULL_RELRO;
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
	return want & got;
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

const char *
hard_why(unsigned bit, const struct hard *h, char *buf, size_t len)
{
	switch (bit) {
	case F_NO_PIE:
		return "linked at a fixed address (ET_EXEC)";
	case F_NO_FULL_RELRO:
		return h->relro == RELRO_NONE ?
		    "no GNU_RELRO segment: its relocated data stays writable" :
		    "GNU_RELRO without immediate binding (BIND_NOW): its lazily bound GOT stays writable";
	case F_NO_CANARY:
		return "no __stack_chk_fail or other canary symbol in its symbol tables";
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
	default:
		return "a .symtab section is left";
	}
}
