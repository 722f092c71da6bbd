/*
 * report.c - the last stage: elfscan's output. One writer per format
 * (struct writer below): aligned text for people, JSON Lines for machines,
 * SARIF for code scanning (its document kept by sarif.c), NUL-separated
 * paths for chstk --files-from; a new format is one more writer. Each
 * record is built in a buffer and written with one call under the lock, so
 * that the workers' records never interleave, and the progress line is
 * erased first.
 */
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "diff.h"
#include "evidence.h"
#include "report.h"
#include "sarif.h"
#include "xalloc.h"

/* Erase the progress line before anything is printed. */
static void
clear_line(struct report *r)
{
	pthread_mutex_lock(&r->err_lock);
	if (r->line)
		fputs("\r\033[K", stderr);
	r->line = false;
	pthread_mutex_unlock(&r->err_lock);
}

/* Write b to stderr, after what went to stdout. */
static void
to_stderr(struct report *r, struct buf *b)
{
	pthread_mutex_lock(&r->lock);
	fflush(stdout);
	pthread_mutex_lock(&r->err_lock);
	if (r->line)
		fputs("\r\033[K", stderr);
	r->line = false;
	fwrite(b->p, 1, b->len, stderr);
	pthread_mutex_unlock(&r->err_lock);
	pthread_mutex_unlock(&r->lock);
	buf_free(b);
}

static void
emit(struct report *r, struct buf *b)
{
	pthread_mutex_lock(&r->lock);
	clear_line(r);
	fwrite(b->p, 1, b->len, stdout);
	pthread_mutex_unlock(&r->lock);
	buf_free(b);
}

static const char *
stack_word(enum chstk_state s)
{
	return s == CHSTK_EXEC ? "exec" : s == CHSTK_NOEXEC ? "noexec" :
	    "absent";
}

/* "in" when all code of a fixed-address 32-bit x86 program is below
   16 MiB, the ASCII armor of i386 kernels; NULL where it means nothing. */
static const char *
armor_word(const struct chstk_info *info)
{
	if ((info->machine != EM_386 && info->machine != 6 /* EM_486 */) ||
	    info->elf_class != ELFCLASS32 || info->type != ET_EXEC ||
	    !info->has_exec_code)
		return NULL;
	return info->exec_limit < 0x1000000 ? "in" : "out";
}

static void
findings_list(struct buf *b, uint64_t f, bool json)
{
	unsigned i;
	bool first = true;

	for (i = 0; i < F_COUNT; i++) {
		if (!(f & F_BIT(i)))
			continue;
		if (json)
			buf_addf(b, "%s\"%s\"", first ? "" : ",",
			    finding_kind(i)->id);
		else
			buf_addf(b, "%s%s", first ? "" : ",",
			    finding_kind(i)->id);
		first = false;
	}
	if (first && !json)
		buf_add(b, "-", 1);
}

/* The file and what in it, as JSON members. */
static void
json_where(struct buf *b, const struct where *w)
{
	buf_add(b, "\"path\":", 7);
	buf_json(b, w->path);
	if (w->image != NULL) {
		buf_add(b, ",\"image\":", 9);
		buf_json(b, w->image);
	}
	if (w->member != NULL) {
		buf_add(b, ",\"member\":", 10);
		buf_json(b, w->member);
	}
	if (w->layer != NULL) {
		buf_add(b, ",\"layer\":", 9);
		buf_json(b, w->layer);
	}
}

/* The file and what in it, for people: FILE[!IMAGE][!MEMBER]. */
static void
text_where(struct buf *b, const struct where *w)
{
	buf_text(b, w->path);
	if (w->image != NULL) {
		buf_add(b, "!", 1);
		buf_text(b, w->image);
	}
	if (w->member != NULL) {
		buf_add(b, "!", 1);
		buf_text(b, w->member);
	}
}

static const char *
relro_word(enum relro r)
{
	static const char *const w[] = {
		[RELRO_NA] = "-", [RELRO_NONE] = "none",
		[RELRO_PARTIAL] = "partial", [RELRO_FULL] = "full",
	};

	return w[r];
}

static const char *
pie_word(enum pie p)
{
	static const char *const w[] = {
		[PIE_NA] = "-", [PIE_NO] = "no", [PIE_YES] = "yes",
		[PIE_STATIC] = "static",
	};

	return w[p];
}

static const char *
tri_word(enum tri t)
{
	static const char *const w[] = {
		[T_NA] = "-", [T_UNKNOWN] = "?", [T_NO] = "no", [T_YES] = "yes",
	};

	return w[t];
}

static const char *
tri_json(enum tri t)
{
	return t == T_YES ? "true" : t == T_NO ? "false" : "null";
}

/* IBT+SHSTK, BTI+PAC: the protections the property note asks for. */
static void
cfi_text(struct buf *b, const struct hard *h)
{
	size_t start = b->len;

	if (h->ibt == T_NA && h->bti == T_NA) {
		buf_add(b, "-", 1);
	} else if (h->ibt != T_NA) {
		if (h->ibt == T_YES)
			buf_add(b, "ibt", 3);
		if (h->shstk == T_YES)
			buf_addf(b, "%sshstk", h->ibt == T_YES ? "+" : "");
	} else {
		if (h->bti == T_YES)
			buf_add(b, "bti", 3);
		if (h->pac == T_YES)
			buf_addf(b, "%spac", h->bti == T_YES ? "+" : "");
	}
	if (b->len == start)
		buf_add(b, "no", 2);
	while (b->len - start < 9)
		buf_add(b, " ", 1);
	buf_add(b, " ", 1);
}

/* ENDBR: at the entry point of an x86 program, then the exported
   functions with a landing pad of all: "yes", "no,2/3", "3/3", "-". */
static void
endbr_text(struct buf *b, const struct hard *h)
{
	size_t start = b->len;

	if (h->entry_endbr != T_NA)
		buf_puts(b, tri_word(h->entry_endbr));
	if (h->functions > 0)
		buf_addf(b, "%s%u/%u", b->len > start ? "," : "", h->endbr,
		    h->functions);
	if (b->len == start)
		buf_add(b, "-", 1);
	while (b->len - start < 9)
		buf_add(b, " ", 1);
	buf_add(b, " ", 1);
}

/* The --hardening columns; CLASH is the stack allocations of a page or
   more probed, of those the code shows, or what other evidence says. */
static void
hard_text(struct buf *b, const struct hard *h, const struct evidence *ev)
{
	char fort[16], clash[24];

	if (!h->known) {
		buf_addf(b, "%-7s %-6s %-6s %-7s %-6s %-9s %-4s %-7s %-9s %-5s ",
		    "-", "-", "-", "-", "-", "-", "-", "-", "-", "-");
		return;
	}
	if (h->fortify == T_UNKNOWN || h->fortify == T_NA)
		snprintf(fort, sizeof(fort), "%s", tri_word(h->fortify));
	else
		snprintf(fort, sizeof(fort), "%u/%u", h->nfortified,
		    h->nfortified + h->nunfortified);
	buf_addf(b, "%-7s %-6s %-6s %-7s %-6s ", relro_word(h->relro),
	    pie_word(h->pie), tri_word(h->canary), fort,
	    h->paths == T_NA ? "-" : h->paths == T_YES ? "ok" :
	    h->paths == T_NO ? "unsafe" : "?");
	cfi_text(b, h);
	buf_addf(b, "%-4s %-7s ", tri_word(h->symbols),
	    tri_word(h->textrel));
	endbr_text(b, h);
	if (ev->code && ev->probed + ev->unprobed > 0)
		snprintf(clash, sizeof(clash), "%u/%u", ev->probed,
		    ev->probed + ev->unprobed);
	else
		snprintf(clash, sizeof(clash), "%s", tri_word(h->stack_clash));
	buf_addf(b, "%-5s ", clash);
}

static void
json_names(struct buf *b, const char *key, const unsigned char *idx,
    unsigned n, bool known)
{
	unsigned i;

	buf_addf(b, ",\"%s\":", key);
	if (!known) {
		buf_add(b, "null", 4);
		return;
	}
	buf_add(b, "[", 1);
	for (i = 0; i < n; i++)
		buf_addf(b, "%s\"%s\"", i ? "," : "", fortify_name(idx[i]));
	buf_add(b, "]", 1);
}

static void
json_string_or_null(struct buf *b, const char *key, bool has, const char *s)
{
	buf_addf(b, ",\"%s\":", key);
	if (has)
		buf_json(b, s);
	else
		buf_add(b, "null", 4);
}

/* A JSON count, null where it means nothing. */
static void
json_count(struct buf *b, const char *key, bool known, unsigned n)
{
	if (known)
		buf_addf(b, ",\"%s\":%u", key, n);
	else
		buf_addf(b, ",\"%s\":null", key);
}

/* The members of annocheck's tests of the binary alone (elfscan(1),
   HARDENING), after the others of --hardening. */
static void
annocheck_json(struct buf *b, const struct chstk_info *info,
    const struct hard *h)
{
	const struct chstk_hardening *hd = info->hardening;
	bool pads = info->kind != CHSTK_KIND_OBJECT &&
	    (info->machine == EM_X86_64 || info->machine == EM_386 ||
	    info->machine == EM_AARCH64);
	char names[128];

	buf_addf(b, ",\"textrel\":%s,\"dynamic_segments\":%u,"
	    "\"dynamic_sections\":%u,\"writable_got\":%s", tri_json(h->textrel),
	    hd->dynamic_segments, hd->dynamic_sections,
	    h->textrel == T_NA ? "null" : hd->writable_relocs ? "true" :
	    "false");
	json_string_or_null(b, "property_note", h->property != T_NA,
	    h->property_fault != NULL ? h->property_fault : "ok");
	buf_addf(b, ",\"entry_endbr\":%s", tri_json(h->entry_endbr));
	json_count(b, "exported_functions", pads, h->functions);
	json_count(b, "exported_endbr", pads, h->endbr);
	buf_addf(b, ",\"bti_plt\":%s,\"pac_plt\":%s,\"odd_segments\":[%s%s%s]",
	    tri_json(h->bti_plt), tri_json(h->pac_plt),
	    h->odd & ODD_TLS_EXEC ? "\"tls-exec\"" : "",
	    h->odd == (ODD_TLS_EXEC | ODD_STACK_NOT_RW) ? "," : "",
	    h->odd & ODD_STACK_NOT_RW ? "\"stack-not-rw\"" : "");
	json_string_or_null(b, "relro_gaps", h->relro_covers == T_YES ||
	    h->relro_covers == T_NO, relro_names(h->relro_gaps, names,
	    sizeof(names)));
	json_string_or_null(b, "outside_paths", h->system_paths != T_NA,
	    h->outside);
	json_count(b, "suspicious_symbols", h->names != T_UNKNOWN,
	    h->nsuspicious);
	json_string_or_null(b, "suspicious_symbol", h->nsuspicious > 0,
	    h->suspicious);
	buf_addf(b, ",\"language\":%s", h->lang == LANG_GO ? "\"go\"" :
	    h->lang == LANG_RUST ? "\"rust\"" : "null");
	json_string_or_null(b, "go_version", hd->go_version[0] != '\0',
	    hd->go_version);
}

/* The --hardening members, after "findings" and "allowed". */
static void
hard_json(struct buf *b, const struct chstk_info *info, const struct hard *h)
{
	const struct chstk_hardening *hd = info->hardening;
	bool fk = h->fortify != T_UNKNOWN;
	unsigned i;

	if (!h->known)
		return;
	buf_addf(b, ",\"relro\":%s%s%s,\"bind_now\":%s,\"pie\":%s%s%s,"
	    "\"canary\":%s,\"fortify\":%s", h->relro == RELRO_NA ? "" : "\"",
	    h->relro == RELRO_NA ? "null" : relro_word(h->relro),
	    h->relro == RELRO_NA ? "" : "\"", tri_json(h->bind_now),
	    h->pie == PIE_NA ? "" : "\"",
	    h->pie == PIE_NA ? "null" : pie_word(h->pie),
	    h->pie == PIE_NA ? "" : "\"", tri_json(h->canary),
	    tri_json(h->fortify));
	if (h->canary_checks >= 0)
		buf_addf(b, ",\"canary_checks\":%jd",
		    (intmax_t)h->canary_checks);
	else
		buf_puts(b, ",\"canary_checks\":null");
	json_names(b, "fortified", h->fortified, h->nfortified, fk);
	json_names(b, "unfortified", h->unfortified, h->nunfortified, fk);
	json_string_or_null(b, "rpath", hd->has_rpath, hd->rpath);
	json_string_or_null(b, "runpath", hd->has_runpath, hd->runpath);
	json_string_or_null(b, "unsafe_paths", h->paths != T_NA, h->unsafe);
	buf_addf(b, ",\"ibt\":%s,\"shstk\":%s,\"bti\":%s,\"pac\":%s,"
	    "\"symbols\":%s", tri_json(h->ibt), tri_json(h->shstk),
	    tri_json(h->bti), tri_json(h->pac), tri_json(h->symbols));
	buf_addf(b, ",\"stack_clash\":%s,\"optimized\":%s,"
	    "\"auto_var_init\":%s", tri_json(h->stack_clash),
	    tri_json(h->optimized), tri_json(h->auto_var_init));
	if (hd->build_id_len > 0) {
		buf_puts(b, ",\"build_id\":\"");
		for (i = 0; i < hd->build_id_len; i++)
			buf_addf(b, "%02x", hd->build_id[i]);
		buf_puts(b, "\"");
	} else {
		buf_puts(b, ",\"build_id\":null");
	}
	annocheck_json(b, info, h);
}

/*
 * The counters the summaries give (enum counter), each named once: the
 * JSON summary writes them in this order, those of --hardening in its
 * "hardening" member and those of the system verdicts in "system", and
 * the text summary's sentences below name them.
 */
enum group { G_SCAN, G_HARDENING, G_SYSTEM, G_DIFF, G_PROC };
static const char *const group_key[] = { NULL, "hardening", "system",
    "diff", "processes" };
static const struct counter_name {
	const char *key;
	unsigned c;
	enum group group;
} counters[] = {
	{ "files", C_FILES, G_SCAN }, { "directories", C_DIRS, G_SCAN },
	{ "images", C_IMAGES, G_SCAN },
	{ "exec", C_STATE + CHSTK_EXEC, G_SCAN },
	{ "noexec", C_STATE + CHSTK_NOEXEC, G_SCAN },
	{ "absent", C_STATE + CHSTK_DEFAULT, G_SCAN },
	{ "effective_exec", C_EFF_EXEC, G_SCAN },
	{ "with_findings", C_FINDINGS, G_SCAN },
	{ "allowed", C_ALLOWED, G_SCAN }, { "errors", C_ERRORS, G_SCAN },
	{ "judged", C_SCOPE + SCOPE_LINUX, G_SCAN },
	{ "boot_loader", C_SCOPE + SCOPE_BOOT, G_SCAN },
	{ "foreign_machine", C_SCOPE + SCOPE_FOREIGN_MACHINE, G_SCAN },
	{ "debug_files", C_SCOPE + SCOPE_DEBUG, G_SCAN },
	{ "unlinked_members", C_SCOPE + SCOPE_UNLINKED, G_SCAN },
	{ "lto_only", C_SCOPE + SCOPE_LTO, G_SCAN },
	{ "foreign_os", C_SCOPE + SCOPE_FOREIGN_OS, G_SCAN },
	{ "programs", C_PROGRAMS, G_HARDENING },
	{ "pie", C_PIE, G_HARDENING },
	{ "linked", C_LINKED, G_HARDENING },
	{ "relro_full", C_RELRO + RELRO_FULL, G_HARDENING },
	{ "relro_partial", C_RELRO + RELRO_PARTIAL, G_HARDENING },
	{ "relro_none", C_RELRO + RELRO_NONE, G_HARDENING },
	{ "canary", C_CANARY + T_YES, G_HARDENING },
	{ "no_canary", C_CANARY + T_NO, G_HARDENING },
	{ "canary_unknown", C_CANARY + T_UNKNOWN, G_HARDENING },
	{ "fortified", C_FORTIFY + T_YES, G_HARDENING },
	{ "unfortified", C_FORTIFY + T_NO, G_HARDENING },
	{ "fortify_unknown", C_FORTIFY + T_UNKNOWN, G_HARDENING },
	{ "unsafe_paths", C_UNSAFE_PATHS, G_HARDENING },
	{ "x86", C_X86, G_HARDENING },
	{ "ibt_shstk", C_IBT_SHSTK, G_HARDENING },
	{ "aarch64", C_ARM, G_HARDENING },
	{ "bti_pac", C_BTI_PAC, G_HARDENING },
	{ "stripped", C_STRIPPED, G_HARDENING },
	{ "textrel", C_TEXTREL, G_HARDENING },
	{ "x86_programs", C_X86_PROGRAMS, G_HARDENING },
	{ "entry_endbr", C_ENTRY_ENDBR, G_HARDENING },
	{ "go", C_GO, G_HARDENING }, { "rust", C_RUST, G_HARDENING },
	{ "programs_judged", C_SYS_PROGRAMS, G_SYSTEM },
	{ "verdicts", C_VERDICTS, G_SYSTEM },
	{ "stack_made_exec", C_V_STACK, G_SYSTEM },
	{ "startup_refused", C_V_STARTUP, G_SYSTEM },
	{ "plugin_refused", C_V_PLUGIN_REFUSED, G_SYSTEM },
	{ "plugin_exec_stack", C_V_PLUGIN_EXEC, G_SYSTEM },
	{ "unresolved", C_V_UNRESOLVED, G_SYSTEM },
	{ "tunable_exec_stack", C_V_TUNABLE, G_SYSTEM },
	{ "mdwe_breaks", C_V_MDWE, G_SYSTEM },
	{ "regressions", C_REGRESSIONS, G_DIFF },
	{ "improvements", C_IMPROVEMENTS, G_DIFF },
	{ "added", C_ADDED, G_DIFF }, { "removed", C_REMOVED, G_DIFF },
	{ "processes_read", C_P_READ, G_PROC },
	{ "proc_findings", C_P_FINDINGS, G_PROC },
	{ "proc_exec_stack", C_P_EXEC, G_PROC },
	{ "proc_unasked", C_P_UNASKED, G_PROC },
	{ "proc_rwx", C_P_RWX, G_PROC },
	{ "proc_differs", C_P_DIFFERS, G_PROC },
	{ "kernel_threads", C_P_KERNEL, G_PROC },
	{ "proc_exited", C_P_EXITED, G_PROC },
	{ "proc_unreadable", C_P_UNREADABLE, G_PROC },
};
#define NCOUNTERS (sizeof(counters) / sizeof(counters[0]))

/*
 * The text summary, in sentences: {KEY} is the counter of that key, {KEY
 * ONE|MANY} the counter and the word for its number, and a [PART] is left
 * out when its first counter is 0.
 */
static const char text_counts[] =
    "{files file|files}[ in {directories directory|directories}], {images ELF image|ELF images}: {exec} exec, {noexec} noexec, {absent} absent; {effective_exec} with an executable stack, {with_findings} with findings, {allowed} allowed, {errors error|errors}; ";
static const char text_scope[] =
    "not run or linked by Linux, so not judged (but with --all): {boot_loader boot-loader module|boot-loader modules}, {foreign_machine program for a machine|programs for machines} the root does not run, {debug_files debug file|debug files}, {unlinked_members unlinked archive member|unlinked archive members}, {lto_only LTO-only object|LTO-only objects}, {foreign_os} for other systems\n";
static const char text_hardening[] =
    "hardening: {pie} of {programs program|programs} PIE; of {linked program or library|programs and libraries}, {relro_full} full RELRO, {relro_partial} partial, {relro_none} none; canary {canary} yes, {no_canary} no, {canary_unknown} unknown; fortified {fortified} yes, {unfortified} no, {fortify_unknown} unknown; {unsafe_paths unsafe search path|unsafe search paths}; {ibt_shstk} of {x86} x86 IBT+SHSTK, {bti_pac} of {aarch64} aarch64 BTI+PAC; {stripped} stripped; {textrel} with text relocations; ENDBR at {entry_endbr} of {x86_programs} x86 entry points; {go} Go, {rust} Rust\n";
static const char text_diff[] =
    "diff: {regressions regression|regressions}, {improvements improvement|improvements}; {added image|images} only in the new, {removed} only in the old\n";
static const char text_system[] =
    "system: {programs_judged program|programs} judged; {verdicts verdict|verdicts}: {stack_made_exec program gets|programs get} an executable stack from a library, {startup_refused} will not start, {plugin_refused plugin|plugins} refused, {plugin_exec_stack plugin makes|plugins make} a host's stack executable, {unresolved needed library|needed libraries} not found, {mdwe_breaks service|services} broken by MemoryDenyWriteExecute=yes\n";
static const char text_processes[] =
    "processes: {processes_read} read, {proc_findings} with findings: {proc_exec_stack} with an executable stack asked for, {proc_unasked} with one nothing asked for, {proc_rwx} with other writable and executable memory; {proc_differs} not as their files say; {kernel_threads kernel thread|kernel threads}, {proc_exited} exited while read, {proc_unreadable} unreadable\n";

/*
 * A format: each hook fills b with one record, which report.c writes to
 * the standard output; a NULL hook writes nothing. Without an error hook,
 * what could not be read is a message on the standard error.
 */
struct writer {
	void (*header)(struct buf *b, const struct opts *o);
	/* h: NULL without --hardening; ev: the evidence, ev->looked false
	   where none was read */
	void (*image)(struct buf *b, const struct where *w,
	    const struct chstk_info *info, const struct verdict *v,
	    const struct hard *h, const struct evidence *ev);
	void (*error)(struct buf *b, const struct where *w, enum unread what,
	    bool allowed, const char *msg);
	void (*finding_path)(struct buf *b, const char *path);
	/* After the records, what each kind of finding met means (v: the
	   counters, by enum counter) */
	void (*notes)(struct buf *b, const unsigned long *v);
	/* v: the counters, by enum counter; groups: 1 << enum group of the
	   counters to give (the scan's but with --proc alone) */
	void (*summary)(struct buf *b, const unsigned long *v,
	    unsigned groups, double seconds);
	bool summary_on_stderr;	/* standard output is for the records */
	/* A format whose document is kept elsewhere (SARIF: sarif.c) writes
	   its records itself, under the output lock, instead of image and
	   error. */
	void (*log_image)(struct report *r, const struct where *w,
	    const struct chstk_info *info, const struct verdict *v,
	    const struct hard *h, const struct evidence *ev);
	void (*log_error)(struct report *r, const struct where *w,
	    enum unread what, bool allowed, const char *msg);
	/* An --allow pattern that allowed nothing: without a hook, a
	   message on the standard error. */
	void (*unused)(struct buf *b, const struct allow_pattern *p);
	void (*log_unused)(struct report *r, const struct allow_pattern *p);
	/* A root's rules, and its verdicts. */
	void (*root)(struct buf *b, const char *root, const char *image,
	    const char *rules);
	void (*verdict)(struct buf *b, const struct sys_verdict *v);
	void (*log_verdict)(struct report *r, const struct sys_verdict *v);
	/* --diff: a defence that changed. */
	void (*change)(struct buf *b, const struct diff_change *c);
	void (*log_change)(struct report *r, const struct diff_change *c);
	/* A running process; as for files, without an error hook one that
	   could not be read is a message on the standard error. */
	void (*process)(struct buf *b, const struct proc_verdict *v);
	void (*log_process)(struct report *r, const struct proc_verdict *v);
};

/* Does the record say why the image asks for an executable stack? Every
   image that gets one: a program or library that asks, an object that
   makes what it is linked into ask. */
static bool
has_cause(const struct chstk_info *info, const struct verdict *v)
{
	return v->effective == EFF_EXEC && info->kind != CHSTK_KIND_OTHER;
}

/* The cause and whether 'chstk -E' is safe, for people: "from the
   assembly source a.S; chstk -E: likely safe: ..." */
static enum ev_safe
stack_cause_text(struct buf *b, const struct chstk_info *info,
    const struct evidence *ev)
{
	char cause[1024];
	enum ev_safe safe = ev_cause(info, ev, cause, sizeof(cause));

	buf_puts(b, cause);
	buf_puts(b, "; chstk -E: ");
	buf_puts(b, ev_safe_phrase(safe, info, ev));
	return safe;
}

/* "7/9" of the units that record their options. */
static void
of_units(struct buf *b, const char *what, unsigned n, unsigned of,
    const char **sep)
{
	buf_addf(b, "%s%s %u/%u", *sep, what, n, of);
	*sep = ", ";
}

/* What the evidence shows of how the image was built, for people (with
   --hardening): the units and their options, annobin's notes, the code;
   "; " between the three. */
static void
built_text(struct buf *b, const struct evidence *ev)
{
	const struct ev_flags *f = &ev->f;
	const char *sep = ": ", *part = "";
	unsigned r = ev->recorded;

	if (ev->units > 0) {
		buf_addf(b, "%u unit%s", ev->units, ev->units == 1 ? "" : "s");
		if (ev->compiler[0] != '\0') {
			buf_puts(b, " (");
			buf_text(b, ev->compiler);
			buf_puts(b, ")");
		}
		if (ev->debug_file[0] != '\0') {
			buf_puts(b, " from ");
			buf_text(b, ev->debug_file);
		}
		part = "; ";
	}
	if (r > 0) {
		of_units(b, "-O2+", f->opt[OPT_2] + f->opt[OPT_3] +
		    f->opt[OPT_S] + f->opt[OPT_FAST], r, &sep);
		of_units(b, "stack-clash", f->stack_clash, r, &sep);
		of_units(b, "cf-protection", f->cf_full, r, &sep);
		of_units(b, "auto-var-init", f->auto_var_init, r, &sep);
		of_units(b, "lto", f->lto, r, &sep);
		of_units(b, "stack-protector-strong", f->sp_strong, r, &sep);
		if (f->defines > 0)
			of_units(b, "glibcxx-assertions", f->glibcxx, f->defines,
			    &sep);
	}
	if (ev->fl.units > 0) {
		of_units(b, "fortify3", ev->fl.level[3], ev->fl.units, &sep);
		of_units(b, "fortify2", ev->fl.level[2], ev->fl.units, &sep);
		of_units(b, "fortify1", ev->fl.level[1], ev->fl.units, &sep);
	} else if (r > 0) {
		buf_addf(b, "%sfortify unknown", sep);
		sep = ", ";
	}
	if (ev->unrecorded > 0)
		buf_addf(b, "%s%u without recorded options", sep,
		    ev->unrecorded), sep = ", ";
	if (ev->gimple > 0)
		buf_addf(b, "%s%u by LTO", sep, ev->gimple), sep = ", ";
	if (ev->assembler > 0)
		buf_addf(b, "%s%u assembly", sep, ev->assembler);
	if (ev->an_notes > 0) {
		buf_addf(b, "%sannobin: %u notes", part, ev->an_notes);
		part = "; ";
	}
	if (ev->code && ev->probed + ev->unprobed == 0)
		buf_addf(b, "%scode: no stack frame of a page or more", part);
	else if (ev->code)
		buf_addf(b, "%scode: %u of %u stack frames of a page or more probed",
		    part, ev->probed, ev->probed + ev->unprobed);
	if (ev->code && ev->trampolines > 0)
		buf_addf(b, ", %u trampoline%s", ev->trampolines,
		    ev->trampolines == 1 ? "" : "s");
	if (ev->debug_problem[0] != '\0') {
		buf_addf(b, "%s", part);
		buf_text(b, ev->debug_problem);
	}
}

/* Anything for built_text to say? Not the code alone: the CLASH column
   says what it shows. */
static bool
has_built(const struct evidence *ev)
{
	return ev->looked && (ev->units > 0 || ev->an_notes > 0 ||
	    ev->debug_problem[0] != '\0');
}

static void
text_header(struct buf *b, const struct opts *o)
{
	if (o->diff) {
		buf_addf(b, "%-11s %-7s %-8s %-8s %s\n", "CHANGE", "DEFENCE",
		    "WAS", "NOW", "FILE: WHAT");
		return;
	}
	buf_addf(b, "%-7s %-7s %-6s %-2s %-9s %-5s ", "STACK", "EFFECT",
	    "TYPE", "BI", "MACHINE", "ARMOR");
	if (o->hardening)
		buf_addf(b, "%-7s %-6s %-6s %-7s %-6s %-9s %-4s %-7s %-9s %-5s ",
		    "RELRO", "PIE", "CANARY", "FORTIFY", "RPATH", "CFI", "SYMS",
		    "TEXTREL", "ENDBR", "CLASH");
	buf_addf(b, "%-30s %s\n", "FINDINGS", "FILE");
}

static void
text_image(struct buf *b, const struct where *w,
    const struct chstk_info *info, const struct verdict *v,
    const struct hard *h, const struct evidence *ev)
{
	const char *armor = armor_word(info);
	char mbuf[16];
	size_t start;

	buf_addf(b, "%-7s %-7s %-6s %-2d %-9s %-5s ", stack_word(info->state),
	    effective_name(v->effective), type_name(info),
	    info->elf_class == ELFCLASS64 ? 64 : 32,
	    machine_name(info->machine, mbuf, sizeof(mbuf)),
	    armor ? armor : "-");
	if (h != NULL)
		hard_text(b, h, ev);
	start = b->len;
	findings_list(b, v->findings, false);
	if (v->allowed)
		buf_add(b, "(allowed)", 9);
	/* The class of an image not judged; judged with --all, its
	   findings are what counts. */
	if (v->scope != SCOPE_LINUX && v->findings == 0 && !v->allowed)
		buf_addf(b, "(%s)", scope_name(v->scope));
	while (b->len - start < 30)
		buf_add(b, " ", 1);
	buf_add(b, " ", 1);
	text_where(b, w);
	buf_add(b, "\n", 1);
}

/* The counter of the key key[0, len); 0 for an unknown key. */
static unsigned long
counter_of(const char *key, size_t len, const unsigned long *v)
{
	size_t i;

	for (i = 0; i < NCOUNTERS; i++)
		if (strlen(counters[i].key) == len &&
		    strncmp(counters[i].key, key, len) == 0)
			return v[counters[i].c];
	return 0;
}

/* The {KEY} or {KEY ONE|MANY} at p, just after its '{', to b. Returns
   what follows its '}'. */
static const char *
text_count(struct buf *b, const char *p, const unsigned long *v)
{
	size_t len = strcspn(p, " }"), one, many;
	unsigned long n = counter_of(p, len, v);

	buf_addf(b, "%lu", n);
	p += len;
	if (*p == ' ') {
		one = strcspn(++p, "|}");
		many = p[one] == '|' ? strcspn(p + one + 1, "}") : 0;
		if (n == 1)
			buf_addf(b, " %.*s", (int)one, p);
		else
			buf_addf(b, " %.*s", (int)many, p + one + 1);
		p += one + (p[one] == '|' ? 1 + many : 0);
	}
	return *p == '}' ? p + 1 : p;
}

/* A text summary's sentence: tmpl (text_counts above) to b. */
static void
text_sentence(struct buf *b, const char *tmpl, const unsigned long *v)
{
	const char *p = tmpl, *key;
	size_t n;

	while (*p != '\0') {
		n = strcspn(p, "{[]");
		buf_add(b, p, n);
		p += n;
		if (*p == '{') {
			p = text_count(b, p + 1, v);
		} else if (*p == '[') {
			key = strchr(p, '{');
			n = key != NULL ? strcspn(key + 1, " }") : 0;
			if (key == NULL || counter_of(key + 1, n, v) == 0)
				p += strcspn(p, "]");
			if (*p != '\0')
				p++;
		} else if (*p == ']') {
			p++;
		}
	}
}

/* text, as words after prefix, wrapped at 79 columns, the lines after
   the first indented by indent. A quoted command is not broken: a quote
   that starts a word runs to the next quote. */
static void
text_wrap_in(struct buf *b, const char *prefix, size_t indent,
    const char *text)
{
	size_t col = strlen(prefix), len;
	const char *p = text, *q;
	bool start = true;

	buf_puts(b, prefix);
	while (*p != '\0') {
		for (q = p; *q != '\0' && *q != ' '; q++)
			if (*q == '\'' && q == p && (q = strchr(q + 1, '\'')) ==
			    NULL) {
				q = p + strlen(p);
				break;
			}
		len = (size_t)(q - p);
		if (!start && col + 1 + len > 79) {
			buf_addf(b, "\n%*s", (int)indent, "");
			col = indent;
		} else if (!start) {
			buf_add(b, " ", 1);
			col++;
		}
		buf_add(b, p, len);
		col += len;
		start = false;
		for (p = q; *p == ' '; p++)
			;
	}
	buf_add(b, "\n", 1);
}

/* The same, the lines after the first indented as far as the prefix
   goes. */
static void
text_wrap(struct buf *b, const char *prefix, const char *text)
{
	text_wrap_in(b, prefix, strlen(prefix), text);
}

/* What each kind of finding met means, and how to fix it, once. */
static void
text_notes(struct buf *b, const unsigned long *v)
{
	const struct finding_kind *k;
	unsigned long n;
	unsigned i;
	bool first = true;

	for (i = 0; i < F_COUNT; i++) {
		if ((n = v[C_KIND + i]) == 0)
			continue;
		k = finding_kind(i);
		buf_addf(b, "%s%s (%lu %s%s): ", first ? "\n" : "",
		    k->id, n, k->noun, n == 1 ? "" : "s");
		first = false;
		buf_puts(b, k->brief);
		buf_add(b, "\n", 1);
		text_wrap(b, "  Why: ", k->full);
		text_wrap(b, "  Fix: ", k->help);
	}
}

static void
text_summary(struct buf *b, const unsigned long *v, unsigned groups,
    double seconds)
{
	if (groups & 1u << G_SCAN) {
		text_sentence(b, text_counts, v);
		buf_addf(b, "%.2f s\n", seconds);
		if (v[C_IMAGES] > v[C_SCOPE + SCOPE_LINUX])
			text_sentence(b, text_scope, v);
	}
	if (groups & 1u << G_HARDENING)
		text_sentence(b, text_hardening, v);
	if (groups & 1u << G_SYSTEM)
		text_sentence(b, text_system, v);
	if (groups & 1u << G_DIFF)
		text_sentence(b, text_diff, v);
	if (groups & 1u << G_PROC)
		text_sentence(b, text_processes, v);
	if (!(groups & 1u << G_SCAN))
		buf_addf(b, "%.2f s\n", seconds);
}

/* The verdict's why, and for an image that asks for an executable stack
   its cause and whether chstk -E is safe, in a phrase: into buf. */
static const char *
why_of(const struct chstk_info *info, const struct verdict *v,
    const struct evidence *ev, char *buf, size_t len)
{
	char cause[1024];
	enum ev_safe safe;

	if (!has_cause(info, v))
		return v->why;
	safe = ev_cause(info, ev, cause, sizeof(cause));
	snprintf(buf, len, "%s; %s; chstk -E: %s", v->why, cause,
	    ev_safe_phrase(safe, info, ev));
	return buf;
}

/* The cause's members: why the image asks, what in it says so, whether
   chstk -E is safe. */
static void
cause_json(struct buf *b, const struct chstk_info *info,
    const struct evidence *ev)
{
	char cause[1024];
	enum ev_safe safe = ev_cause(info, ev, cause, sizeof(cause));
	const char *p, *q;

	buf_puts(b, ",\"cause\":");
	buf_json(b, cause);
	buf_addf(b, ",\"exec_safe\":\"%s\",\"exec_safe_why\":",
	    ev_safe_word(safe));
	buf_json(b, ev_safe_phrase(safe, info, ev));
	buf_puts(b, ",\"assembly_sources\":[");
	for (p = ev->asm_names; ev->asm_listed > 0 && *p != '\0'; p = q) {
		char one[EV_TEXT];

		q = strstr(p, ", ");
		snprintf(one, sizeof(one), "%.*s", (int)(q != NULL ?
		    (size_t)(q - p) : strlen(p)), p);
		buf_puts(b, p == ev->asm_names ? "" : ",");
		buf_json(b, one);
		q = q != NULL ? q + 2 : p + strlen(p);
	}
	buf_puts(b, "],\"trampolines\":");
	if (ev->code)
		buf_addf(b, "%u", ev->trampolines);
	else
		buf_puts(b, "null");
}

/* [min,max] of an annobin setting, or null. */
static void
annobin_json(struct buf *b, const char *key,
    const struct chstk_annobin_value *v)
{
	if (v->min < 0)
		buf_addf(b, ",\"%s\":null", key);
	else
		buf_addf(b, ",\"%s\":[%d,%d]", key, v->min, v->max);
}

/* The "evidence" member of --hardening: the units' options, annobin's
   notes, the code. */
static void
evidence_json(struct buf *b, const struct evidence *ev)
{
	static const char *const opt_key[OPT_COUNT] = { "O0", "O1", "O2",
	    "O3", "Os", "Og", "Ofast" };
	const struct ev_flags *f = &ev->f;
	unsigned i;

	buf_addf(b, ",\"evidence\":{\"units\":%u,\"assembler\":%u,"
	    "\"gimple\":%u,\"recorded\":%u,\"unrecorded\":%u,"
	    "\"units_cut\":%s", ev->units, ev->assembler, ev->gimple,
	    ev->recorded, ev->unrecorded, ev->units_cut ? "true" : "false");
	json_string_or_null(b, "compiler", ev->compiler[0] != '\0',
	    ev->compiler);
	json_string_or_null(b, "debug_file", ev->debug_file[0] != '\0',
	    ev->debug_file);
	json_string_or_null(b, "debug_problem", ev->debug_problem[0] != '\0',
	    ev->debug_problem);
	json_string_or_null(b, "error", ev->error[0] != '\0', ev->error);
	buf_puts(b, ",\"options\":{");
	for (i = 0; i < OPT_COUNT; i++)
		buf_addf(b, "%s\"%s\":%u", i ? "," : "", opt_key[i], f->opt[i]);
	buf_addf(b, ",\"stack_clash\":%u,\"cf_protection_full\":%u,"
	    "\"auto_var_init\":%u,\"lto\":%u,\"stack_protector_strong\":%u,"
	    "\"stack_protector\":%u", f->stack_clash, f->cf_full,
	    f->auto_var_init, f->lto, f->sp_strong, f->sp_basic);
	if (f->defines > 0)
		buf_addf(b, ",\"defines\":%u,\"fortify\":[%u,%u,%u,%u],"
		    "\"glibcxx_assertions\":%u}", f->defines, f->fortify[0],
		    f->fortify[1], f->fortify[2], f->fortify[3], f->glibcxx);
	else
		buf_puts(b, ",\"defines\":0,\"fortify\":null,"
		    "\"glibcxx_assertions\":null}");
	if (ev->fl.units > 0)
		buf_addf(b, ",\"fortify_level\":{\"units\":%u,\"macros\":%u,"
		    "\"levels\":[%u,%u,%u,%u]}", ev->fl.units, ev->fl.macros,
		    ev->fl.level[0], ev->fl.level[1], ev->fl.level[2],
		    ev->fl.level[3]);
	else
		buf_puts(b, ",\"fortify_level\":null");
	if (ev->an_notes == 0) {
		buf_puts(b, ",\"annobin\":null");
	} else {
		buf_addf(b, ",\"annobin\":{\"notes\":%u", ev->an_notes);
		annobin_json(b, "stack_protector", &ev->an_stack_prot);
		annobin_json(b, "stack_clash", &ev->an_stack_clash);
		annobin_json(b, "cf_protection_full", &ev->an_cf_full);
		annobin_json(b, "fortify", &ev->an_fortify);
		annobin_json(b, "glibcxx_assertions",
		    &ev->an_glibcxx_assertions);
		annobin_json(b, "optimize", &ev->an_optimize);
		annobin_json(b, "lto", &ev->an_lto);
		annobin_json(b, "auto_var_init", &ev->an_auto_var_init);
		buf_puts(b, "}");
	}
	if (ev->code)
		buf_addf(b, ",\"code\":{\"trampolines\":%u,\"probed\":%u,"
		    "\"unprobed\":%u,\"cut\":%s}}", ev->trampolines, ev->probed,
		    ev->unprobed, ev->code_cut ? "true" : "false");
	else
		buf_puts(b, ",\"code\":null}");
}

static void
json_image(struct buf *b, const struct where *w,
    const struct chstk_info *info, const struct verdict *v,
    const struct hard *h, const struct evidence *ev)
{
	const char *armor = armor_word(info);
	char mbuf[16], why[1536];

	buf_add(b, "{", 1);
	json_where(b, w);
	buf_addf(b, ",\"type\":\"%s\",\"class\":%d,\"endian\":\"%s\",\"machine\":\"%s\",\"stack\":\"%s\",\"effective\":\"%s\",\"why\":",
	    type_name(info), info->elf_class == ELFCLASS64 ? 64 : 32,
	    info->data == ELFDATA2MSB ? "big" : "little",
	    machine_name(info->machine, mbuf, sizeof(mbuf)),
	    stack_word(info->state), effective_name(v->effective));
	buf_json(b, why_of(info, v, ev, why, sizeof(why)));
	buf_addf(b, ",\"wx\":%u,", info->wx);
	if (info->has_exec_code)
		buf_addf(b, "\"exec_limit\":\"%#jx\",",
		    (uintmax_t)info->exec_limit);
	else
		buf_add(b, "\"exec_limit\":null,", 18);
	buf_addf(b, "\"armor\":%s,\"findings\":[", armor == NULL ? "null" :
	    strcmp(armor, "in") == 0 ? "true" : "false");
	findings_list(b, v->findings, true);
	buf_addf(b, "],\"allowed\":%s,\"scope\":\"%s\"",
	    v->allowed ? "true" : "false", scope_name(v->scope));
	if (has_cause(info, v))
		cause_json(b, info, ev);
	if (ev->error[0] != '\0') {
		buf_puts(b, ",\"evidence_error\":");
		buf_json(b, ev->error);
	}
	if (h != NULL)
		hard_json(b, info, h);
	if (h != NULL && h->known && ev->looked)
		evidence_json(b, ev);
	buf_add(b, "}\n", 2);
}

static void
json_error(struct buf *b, const struct where *w, enum unread what,
    bool allowed, const char *msg)
{
	buf_add(b, "{", 1);
	json_where(b, w);
	buf_add(b, ",\"error\":", 9);
	buf_json(b, msg);
	buf_addf(b, ",\"findings\":[%s]", what != UNREAD_ERROR && !allowed ?
	    "\"malformed\"" : "");
	if (what != UNREAD_ERROR)
		buf_addf(b, ",\"allowed\":%s", allowed ? "true" : "false");
	buf_add(b, "}\n", 2);
}

static void
json_summary(struct buf *b, const unsigned long *v, unsigned groups,
    double seconds)
{
	enum group in = G_SCAN;
	const char *sep = "";
	size_t i;

	buf_puts(b, "{\"summary\":{");
	for (i = 0; i < NCOUNTERS; i++) {
		if (!(groups & 1u << counters[i].group))
			continue;
		if (counters[i].group != in) {
			buf_addf(b, "%s%s\"%s\":{", in != G_SCAN ? "}" : "", sep,
			    group_key[counters[i].group]);
			sep = "";
			in = counters[i].group;
		}
		buf_addf(b, "%s\"%s\":%lu", sep, counters[i].key,
		    v[counters[i].c]);
		sep = ",";
	}
	buf_addf(b, "%s\"seconds\":%.3f}}\n", in != G_SCAN ? "}," : sep,
	    seconds);
}

/* {"unused_allow":{...}}: a pattern that allowed nothing, and where it
   was written (null for --allow-pattern). */
static void
json_unused(struct buf *b, const struct allow_pattern *p)
{
	buf_puts(b, "{\"unused_allow\":{\"pattern\":");
	buf_json(b, p->text);
	buf_puts(b, ",\"file\":");
	if (p->file != NULL) {
		buf_json(b, p->file);
		buf_addf(b, ",\"line\":%u}}\n", p->line);
	} else {
		buf_puts(b, "null,\"line\":null}}\n");
	}
}

/* -0: the path of a file with findings, once. */
static void
print0_path(struct buf *b, const char *path)
{
	buf_add(b, path, strlen(path) + 1);
}

/* Why a finding at w is suppressed: the --allow pattern that waived it. */
static void
justify(struct report *r, const struct where *w, char *just, size_t len)
{
	const struct allow_pattern *p = allow_which(&r->o->allow, w);

	snprintf(just, len, "allowed by the pattern '%s' of the --allow list",
	    p != NULL ? p->text : "?");
}

/* What takes an image's SARIF results, one by one. */
typedef void result_fn(void *ctx, unsigned bit, const struct region *region,
    const char *why, const char *justification);

/* One SARIF result per finding, to put; findings an --allow pattern
   waived are suppressed results, the pattern their justification. */
static void
sarif_results(const struct chstk_info *info, const struct verdict *v,
    const struct hard *h, const struct evidence *ev, result_fn *put,
    void *ctx)
{
	struct region mark = { info->mark_offset, info->mark_size };
	struct region wx_region = { info->wx_offset, info->wx_size };
	char just[512], wx[64], lack[600], why[1536];
	uint64_t waived = 0;
	unsigned i;

	if (v->findings == 0 && !v->allowed)
		return;
	if (v->allowed) {
		waived = v->waived;
		snprintf(just, sizeof(just), "allowed by the pattern '%s' of the --allow list",
		    v->allowed_by != NULL ? v->allowed_by->text : "?");
	}
	snprintf(wx, sizeof(wx), "%u writable and executable segment%s",
	    info->wx, info->wx == 1 ? "" : "s");
	for (i = 0; i < F_COUNT; i++) {
		if (!((v->findings | waived) & F_BIT(i)))
			continue;
		/* What --require found missing is no byte range's. */
		if (F_BIT(i) & F_HARDENING)
			put(ctx, i, NULL, hard_why(F_BIT(i), h, lack,
			    sizeof(lack)), NULL);
		else if (F_BIT(i) == F_WX_SEGMENT)
			put(ctx, i, &wx_region, wx,
			    waived & F_BIT(i) ? just : NULL);
		else
			put(ctx, i, &mark, why_of(info, v, ev, why,
			    sizeof(why)), waived & F_BIT(i) ? just : NULL);
	}
}

struct sarif_at {
	struct sarif *s;
	const struct where *w;
};

static void
sarif_put(void *ctx, unsigned bit, const struct region *region,
    const char *why, const char *justification)
{
	struct sarif_at *at = ctx;

	sarif_result(at->s, bit, at->w, region, why, justification);
}

static void
sarif_image(struct report *r, const struct where *w,
    const struct chstk_info *info, const struct verdict *v,
    const struct hard *h, const struct evidence *ev)
{
	struct sarif_at at = { r->sarif, w };

	sarif_results(info, v, h, ev, sarif_put, &at);
}

/* What could not be read: a malformed image is a finding, anything else
   a notification of the run. */
static void
sarif_error(struct report *r, const struct where *w, enum unread what,
    bool allowed, const char *msg)
{
	char just[512];

	if (what == UNREAD_ERROR) {
		sarif_notification(r->sarif, w, msg);
		return;
	}
	if (allowed)
		justify(r, w, just, sizeof(just));
	sarif_result(r->sarif, (unsigned)__builtin_ctzll(F_MALFORMED), w, NULL,
	    msg, allowed ? just : NULL);
}

/* A host of a verdict, for people: "/usr/bin/a (via libb.so.1)". */
static void
host_text(struct buf *b, const struct sys_host *h)
{
	buf_text(b, h->path);
	if (h->via[0] != '\0') {
		buf_puts(b, " (via ");
		buf_text(b, h->via);
		buf_puts(b, ")");
	}
}

/* The hosts a verdict names in the text and SARIF messages. */
#define HOSTS_SAID 5

/* What a host is, for the words of its kind. */
enum host_kind { HOST_PROGRAM, HOST_LIBRARY, HOST_PLUGIN, HOST_SERVICE };

static enum host_kind
host_kind(const struct sys_host *h)
{
	if (h->service || strchr(h->path, '/') == NULL)
		return HOST_SERVICE;
	if (h->plugin)
		return HOST_PLUGIN;
	return h->library ? HOST_LIBRARY : HOST_PROGRAM;
}

/* The hosts of one kind: programs, libraries, plugins (a path), or
   services (a unit's name, no "/"; a suite's unit file). */
static void
hosts_of(struct buf *b, const struct sys_verdict *v, enum host_kind kind)
{
	static const char *const noun[][2] = {
		[HOST_PROGRAM] = { "program", "programs" },
		[HOST_LIBRARY] = { "library", "libraries" },
		[HOST_PLUGIN] = { "plugin", "plugins" },
		[HOST_SERVICE] = { "service", "services" },
	};
	size_t i, n = 0, said = 0;

	for (i = 0; i < v->nhosts; i++)
		n += host_kind(&v->hosts[i]) == kind;
	if (n == 0)
		return;
	buf_addf(b, "; %zu %s: ", n, noun[kind][n != 1]);
	for (i = 0; i < v->nhosts && said < HOSTS_SAID; i++) {
		if (host_kind(&v->hosts[i]) != kind)
			continue;
		if (said++ > 0)
			buf_puts(b, ", ");
		host_text(b, &v->hosts[i]);
	}
	if (n > HOSTS_SAID)
		buf_addf(b, " and %zu more", n - HOSTS_SAID);
}

static void
hosts_text(struct buf *b, const struct sys_verdict *v)
{
	hosts_of(b, v, HOST_PROGRAM);
	hosts_of(b, v, HOST_LIBRARY);
	hosts_of(b, v, HOST_PLUGIN);
	hosts_of(b, v, HOST_SERVICE);
}

static void
text_root(struct buf *b, const char *root, const char *image,
    const char *rules)
{
	buf_puts(b, "root ");
	buf_text(b, root);
	if (image != NULL) {
		buf_puts(b, "!");
		buf_text(b, image);
	}
	buf_puts(b, ": ");
	buf_text(b, rules);
	buf_puts(b, "\n");
}

/* A verdict's cause, after its why: "; from the assembly source a.S;
   chstk -E: likely safe: ..." */
static void
verdict_cause(struct buf *b, const struct sys_verdict *v, bool text)
{
	if (v->cause == NULL)
		return;
	buf_puts(b, "; ");
	if (text)
		buf_text(b, v->cause);
	else
		buf_puts(b, v->cause);
	buf_puts(b, "; chstk -E: ");
	buf_puts(b, v->exec_safe_why);
}

static void
text_verdict(struct buf *b, const struct sys_verdict *v)
{
	buf_addf(b, "%-18s ", finding_kind(v->finding)->id);
	buf_text(b, v->subject);
	buf_puts(b, ": ");
	buf_text(b, v->why);
	verdict_cause(b, v, true);
	hosts_text(b, v);
	buf_puts(b, "\n");
}

static void
json_root(struct buf *b, const char *root, const char *image,
    const char *rules)
{
	buf_puts(b, "{\"root\":");
	buf_json(b, root);
	if (image != NULL) {
		buf_puts(b, ",\"image\":");
		buf_json(b, image);
	}
	buf_puts(b, ",\"rules\":");
	buf_json(b, rules);
	buf_puts(b, "}\n");
}

static void
json_verdict(struct buf *b, const struct sys_verdict *v)
{
	size_t i;

	buf_addf(b, "{\"verdict\":\"%s\",\"root\":",
	    finding_kind(v->finding)->id);
	buf_json(b, v->root);
	if (v->image != NULL) {
		buf_puts(b, ",\"image\":");
		buf_json(b, v->image);
	}
	buf_puts(b, ",\"subject\":");
	buf_json(b, v->subject);
	buf_puts(b, ",\"why\":");
	buf_json(b, v->why);
	if (v->cause != NULL) {
		buf_puts(b, ",\"cause\":");
		buf_json(b, v->cause);
		buf_addf(b, ",\"exec_safe\":\"%s\",\"exec_safe_why\":",
		    v->exec_safe);
		buf_json(b, v->exec_safe_why);
	}
	buf_puts(b, ",\"hosts\":[");
	for (i = 0; i < v->nhosts; i++) {
		buf_puts(b, i ? ",{\"path\":" : "{\"path\":");
		buf_json(b, v->hosts[i].path);
		buf_puts(b, ",\"via\":");
		buf_json(b, v->hosts[i].via);
		buf_puts(b, "}");
	}
	buf_puts(b, "]}\n");
}

/* A verdict is a SARIF result at its subject, a file of the root (or,
   for a library found nowhere, the first program that needs it). */
static void
sarif_verdict(struct report *r, const struct sys_verdict *v)
{
	char space[2048], *path;
	struct where w = { NULL };
	const char *in;
	struct buf b;

	in = v->finding == __builtin_ctzll(F_UNRESOLVED) && v->nhosts > 0 ?
	    v->hosts[0].path : v->subject;
	if (v->in_image) {
		w.image = v->image;
		w.member = in;
		path = xstrdup(v->root);
	} else if (asprintf(&path, "%s%s", strcmp(v->root, "/") == 0 ? "" :
	    v->root, in) < 0) {
		oom();
	}
	w.path = path;
	BUF_INIT(b, space);
	buf_puts(&b, v->why);
	if (v->finding == __builtin_ctzll(F_UNRESOLVED)) {
		buf_puts(&b, ": ");
		buf_puts(&b, v->subject);
	}
	verdict_cause(&b, v, false);
	hosts_text(&b, v);
	sarif_result(r->sarif, v->finding, &w, NULL, b.p, NULL);
	buf_free(&b);
	free(path);
}

/* An image of a diff, for people: FILE[!MEMBER]. */
static void
text_named(struct buf *b, const char *path, const char *member)
{
	buf_text(b, path);
	if (member != NULL) {
		buf_add(b, "!", 1);
		buf_text(b, member);
	}
}

static void
text_change(struct buf *b, const struct diff_change *c)
{
	buf_addf(b, "%-11s %-7s %-8s %-8s ", c->worse ? "regression" :
	    "improvement", c->key, c->old != NULL ? c->was : "-", c->now);
	if (c->new != NULL)
		text_named(b, c->new, c->new_member);
	else
		text_named(b, c->old, c->old_member);
	buf_puts(b, ": ");
	buf_puts(b, c->why);
	buf_puts(b, "\n");
}

static void
json_change(struct buf *b, const struct diff_change *c)
{
	buf_addf(b, "{\"diff\":\"%s\",\"path\":", c->worse ?
	    "regression" : "improvement");
	buf_json(b, c->path);
	buf_puts(b, ",\"old\":");
	if (c->old != NULL)
		buf_json(b, c->old);
	else
		buf_puts(b, "null");
	if (c->old_member != NULL) {
		buf_puts(b, ",\"old_member\":");
		buf_json(b, c->old_member);
	}
	buf_puts(b, ",\"new\":");
	buf_json(b, c->new);
	if (c->new_member != NULL) {
		buf_puts(b, ",\"new_member\":");
		buf_json(b, c->new_member);
	}
	buf_addf(b, ",\"property\":\"%s\",\"was\":", c->key);
	if (c->old != NULL)
		buf_json(b, c->was);
	else
		buf_puts(b, "null");
	buf_addf(b, ",\"now\":\"%s\",\"why\":", c->now);
	buf_json(b, c->why);
	buf_puts(b, "}\n");
}

/* A regression is a SARIF result at the new image; what got better is
   not a finding. */
static void
sarif_change(struct report *r, const struct diff_change *c)
{
	struct where w = { .path = c->new, .member = c->new_member };
	char why[512];

	if (!c->worse)
		return;
	snprintf(why, sizeof(why), "%s (%s: was %s, now %s)", c->why, c->key,
	    c->old != NULL ? c->was : "absent", c->now);
	sarif_result(r->sarif, (unsigned)__builtin_ctzll(F_REGRESSION), &w,
	    NULL, why, NULL);
}

static void
sarif_unused(struct report *r, const struct allow_pattern *p)
{
	sarif_unused_pattern(r->sarif, p->text, p->file, p->line);
}

/* The rwx mappings a record names in the text and SARIF messages. */
#define AREAS_SAID 5

static void
cause_text(struct buf *b, const struct proc_cause *c)
{
	if (c->path == NULL) {
		buf_text(b, c->why);
		return;
	}
	buf_text(b, c->path);
	buf_puts(b, " (");
	buf_text(b, c->why);
	buf_puts(b, ")");
}

static void
area_text(struct buf *b, const struct proc_area *a)
{
	buf_addf(b, "; rwx %lx-%lx (%lu KiB, ", a->start, a->end,
	    (a->end - a->start) >> 10);
	buf_text(b, a->what[0] != '\0' ? a->what : "anonymous");
	if (a->tid != 0)
		buf_addf(b, ", the stack of thread %d", a->tid);
	buf_puts(b, "): ");
	buf_text(b, a->why != NULL ? a->why :
	    "nothing it loaded asks for it");
}

/* What a process's memory is, for people: its stack and what asks for
   it, its other writable and executable memory, what was not read, and
   whether all is as its files say. */
static void
process_text(struct buf *b, const struct proc_verdict *v)
{
	size_t i, n = 0;

	buf_puts(b, "stack ");
	buf_puts(b, v->stack != NULL ? v->stack : "none");
	for (i = 0; i < v->ncauses; i++) {
		if (!v->causes[i].main)
			continue;
		buf_puts(b, n++ ? ", " : ", asked for by ");
		cause_text(b, &v->causes[i]);
	}
	for (i = 0; i < v->nareas && i < AREAS_SAID; i++)
		area_text(b, &v->areas[i]);
	if (v->nareas > AREAS_SAID)
		buf_addf(b, "; %zu more rwx mappings", v->nareas - AREAS_SAID);
	for (i = 0; i < v->nunread; i++) {
		buf_puts(b, "; not read: ");
		cause_text(b, &v->unread[i]);
	}
	buf_puts(b, v->differs == NULL ? "; matches" : "; differs: ");
	if (v->differs != NULL)
		buf_text(b, v->differs);
}

/* "pid 42 (name)" */
static void
process_name(struct buf *b, const struct proc_verdict *v)
{
	buf_addf(b, "pid %d", v->pid);
	if (v->comm[0] == '\0')
		return;
	buf_puts(b, " (");
	buf_text(b, v->comm);
	buf_puts(b, ")");
}

static void
text_process(struct buf *b, const struct proc_verdict *v)
{
	size_t start = b->len;

	findings_list(b, v->findings, false);
	while (b->len - start < 18)
		buf_add(b, " ", 1);
	buf_add(b, " ", 1);
	process_name(b, v);
	if (v->state == PROC_KERNEL) {
		buf_puts(b, ": a kernel thread, no memory of its own\n");
		return;
	}
	if (v->state == PROC_EXITED) {
		buf_puts(b, ": exited while it was read\n");
		return;
	}
	buf_puts(b, " ");
	buf_text(b, v->exe);
	if (strcmp(v->root, "/") != 0) {
		buf_puts(b, " (root ");
		buf_text(b, v->root);
		buf_puts(b, ")");
	}
	buf_puts(b, ": ");
	process_text(b, v);
	buf_puts(b, "\n");
}

static void
json_causes(struct buf *b, const char *key, const struct proc_cause *c,
    size_t n, bool flags)
{
	size_t i;

	buf_addf(b, ",\"%s\":[", key);
	for (i = 0; i < n; i++) {
		buf_puts(b, i ? ",{\"path\":" : "{\"path\":");
		if (c[i].path != NULL)
			buf_json(b, c[i].path);
		else
			buf_puts(b, "null");
		buf_puts(b, ",\"why\":");
		buf_json(b, c[i].why);
		if (flags)
			buf_addf(b, ",\"main\":%s,\"threads\":%s",
			    c[i].main ? "true" : "false",
			    c[i].threads ? "true" : "false");
		buf_puts(b, "}");
	}
	buf_puts(b, "]");
}

static void
json_areas(struct buf *b, const struct proc_verdict *v)
{
	const struct proc_area *a;
	size_t i;

	buf_puts(b, ",\"rwx\":[");
	for (i = 0; i < v->nareas; i++) {
		a = &v->areas[i];
		buf_addf(b, "%s{\"start\":\"%#lx\",\"end\":\"%#lx\","
		    "\"size\":%lu,\"what\":", i ? "," : "", a->start, a->end,
		    a->end - a->start);
		buf_json(b, a->what);
		if (a->tid != 0)
			buf_addf(b, ",\"thread\":%d", a->tid);
		else
			buf_puts(b, ",\"thread\":null");
		buf_puts(b, ",\"why\":");
		if (a->why != NULL)
			buf_json(b, a->why);
		else
			buf_puts(b, "null");
		buf_puts(b, "}");
	}
	buf_puts(b, "]");
}

static void
json_process(struct buf *b, const struct proc_verdict *v)
{
	static const char *const state[] = {
		[PROC_READ] = "read", [PROC_KERNEL] = "kernel-thread",
		[PROC_EXITED] = "exited", [PROC_UNREADABLE] = "unreadable",
	};

	buf_addf(b, "{\"pid\":%d,\"comm\":", v->pid);
	buf_json(b, v->comm);
	buf_addf(b, ",\"state\":\"%s\"", state[v->state]);
	if (v->state == PROC_UNREADABLE) {
		buf_puts(b, ",\"error\":");
		buf_json(b, v->error);
	}
	if (v->state == PROC_READ) {
		buf_puts(b, ",\"root\":");
		buf_json(b, v->root);
		buf_puts(b, ",\"exe\":");
		buf_json(b, v->exe);
		buf_puts(b, ",\"stack\":");
		if (v->stack != NULL)
			buf_json(b, v->stack);
		else
			buf_puts(b, "null");
		json_causes(b, "asked_by", v->causes, v->ncauses, true);
		json_areas(b, v);
		json_causes(b, "unread", v->unread, v->nunread, false);
		buf_addf(b, ",\"matches\":%s,\"differs\":",
		    v->differs == NULL ? "true" : "false");
		if (v->differs != NULL)
			buf_json(b, v->differs);
		else
			buf_puts(b, "null");
	}
	buf_puts(b, ",\"findings\":[");
	findings_list(b, v->findings, true);
	buf_puts(b, "]}\n");
}

/* A process with findings: a result per finding at its program; one that
   could not be read, a notification; any other, nothing. */
static void
sarif_process(struct report *r, const struct proc_verdict *v)
{
	struct region whole = { 0, v->exe_size };
	char space[2048], *path;
	struct where w = { NULL };
	struct buf b;
	unsigned i;

	if (v->state != PROC_UNREADABLE && v->findings == 0)
		return;
	BUF_INIT(b, space);
	process_name(&b, v);
	buf_puts(&b, ": ");
	if (v->state == PROC_UNREADABLE) {
		if (asprintf(&path, "/proc/%d", v->pid) < 0)
			oom();
		w.path = path;
		buf_puts(&b, v->error);
		sarif_notification(r->sarif, &w, b.p);
	} else {
		if (asprintf(&path, "%s%s", strcmp(v->root, "/") == 0 ? "" :
		    v->root, v->exe) < 0)
			oom();
		w.path = path;
		process_text(&b, v);
		for (i = 0; i < F_COUNT; i++)
			if (v->findings & F_BIT(i))
				sarif_result(r->sarif, i, &w, v->exe_size ?
				    &whole : NULL, b.p, NULL);
	}
	buf_free(&b);
	free(path);
}

static const struct writer text_writer = {
	.header = text_header, .image = text_image, .notes = text_notes,
	.summary = text_summary, .root = text_root, .verdict = text_verdict,
	.change = text_change, .process = text_process,
};
static const struct writer json_writer = {
	.image = json_image, .error = json_error, .summary = json_summary,
	.root = json_root, .verdict = json_verdict, .change = json_change,
	.unused = json_unused, .process = json_process,
};
static const struct writer sarif_writer = {
	.log_image = sarif_image, .log_error = sarif_error,
	.log_verdict = sarif_verdict, .log_change = sarif_change,
	.log_unused = sarif_unused, .log_process = sarif_process,
	.summary = text_summary, .summary_on_stderr = true,
};
static const struct writer print0_writer = {
	.finding_path = print0_path, .summary = text_summary,
	.summary_on_stderr = true,
};

static const struct writer *
writer(const struct report *r)
{
	if (r->o->print0)
		return &print0_writer;
	if (r->sarif != NULL)
		return &sarif_writer;
	return r->o->format == FORMAT_JSON ? &json_writer : &text_writer;
}

void
report_header(struct report *r)
{
	char space[256];
	struct buf b;

	if (writer(r)->header == NULL || r->o->quiet || r->o->no_header)
		return;
	BUF_INIT(b, space);
	writer(r)->header(&b, r->o);
	emit(r, &b);
}

/* Evidence that could not be read, said where the format says it: a
   message on the standard error, or, in SARIF, a notification; JSON
   records carry it. Not an error: the image was read. */
static void
evidence_problem(struct report *r, const struct where *w, const char *error)
{
	char space[512], msg[EV_TEXT + 40];
	struct buf b;

	if (error[0] == '\0' || writer(r)->image == json_image)
		return;
	snprintf(msg, sizeof(msg), "cannot read its DWARF: %s", error);
	if (writer(r)->log_error != NULL) {
		pthread_mutex_lock(&r->lock);
		sarif_notification(r->sarif, w, msg);
		pthread_mutex_unlock(&r->lock);
		return;
	}
	BUF_INIT(b, space);
	buf_add(&b, "elfscan: ", 9);
	text_where(&b, w);
	buf_addf(&b, ": %s\n", msg);
	to_stderr(r, &b);
}

/* Keep "WHERE: " and what b holds, to be said after the records. */
static void
keep_line(struct report *r, struct lines *l, const struct where *w,
    const char *text)
{
	char space[1024];
	struct buf line;

	BUF_INIT(line, space);
	text_where(&line, w);
	buf_puts(&line, ": ");
	buf_puts(&line, text);
	pthread_mutex_lock(&r->lock);
	l->v = xrealloc(l->v, (l->n + 1) * sizeof(*l->v));
	l->v[l->n++] = xstrdup(line.p);
	pthread_mutex_unlock(&r->lock);
	buf_free(&line);
}

/* In text, the image's cause and how it was built: into cause and built
   (NULL: nothing to say). */
static void
after_lines(const struct report *r, const struct chstk_info *info,
    const struct verdict *v, const struct hard *h, const struct evidence *ev,
    char **cause, char **built)
{
	char space[1024];
	struct buf b;

	*cause = *built = NULL;
	/* What the marking or the findings say already is not said
	   again: only what the evidence shows. */
	if (has_cause(info, v)) {
		BUF_INIT(b, space);
		if (stack_cause_text(&b, info, ev) != SAFE_UNKNOWN ||
		    ev->assembler > 0 || ev->trampolines > 0)
			*cause = xstrdup(b.p);
		buf_free(&b);
	}
	if (r->o->hardening && h != NULL && h->known && has_built(ev)) {
		BUF_INIT(b, space);
		built_text(&b, ev);
		*built = xstrdup(b.p);
		buf_free(&b);
	}
}

/* Are the after-lines of an image with those findings said? */
static bool
says_after(const struct report *r, uint64_t findings)
{
	return writer(r) == &text_writer && !r->o->no_header &&
	    !(r->o->quiet && findings == 0);
}

/* The after-lines kept, to be said after the records. */
static void
keep_after(struct report *r, const struct where *w, const char *cause,
    const char *built)
{
	if (cause != NULL)
		keep_line(r, &r->causes, w, cause);
	if (built != NULL)
		keep_line(r, &r->built, w, built);
}

void
report_image(struct report *r, const struct where *w,
    const struct chstk_info *info, const struct verdict *v,
    const struct hard *h, const struct evidence *ev)
{
	char space[1024];
	struct buf b;

	char *cause, *built;

	evidence_problem(r, w, ev->error);
	if (says_after(r, v->findings)) {
		after_lines(r, info, v, h, ev, &cause, &built);
		keep_after(r, w, cause, built);
		free(cause);
		free(built);
	}
	if (writer(r)->log_image != NULL) {
		pthread_mutex_lock(&r->lock);
		clear_line(r);
		writer(r)->log_image(r, w, info, v, h, ev);
		pthread_mutex_unlock(&r->lock);
		return;
	}
	if (writer(r)->image == NULL || (r->o->quiet && v->findings == 0))
		return;
	BUF_INIT(b, space);
	writer(r)->image(&b, w, info, v, r->o->hardening ? h : NULL, ev);
	emit(r, &b);
}

static void
render_put(void *ctx, unsigned bit, const struct region *region,
    const char *why, const char *justification)
{
	struct rendered *x = ctx;
	struct rendered_result *res;

	x->results = xrealloc(x->results, (x->nresults + 1) *
	    sizeof(*x->results));
	res = &x->results[x->nresults++];
	res->bit = bit;
	res->region = region != NULL;
	res->offset = region != NULL ? region->offset : 0;
	res->length = region != NULL ? region->length : 0;
	res->why = xstrdup(why);
	res->justification = justification != NULL ?
	    xstrdup(justification) : NULL;
}

void
report_render(struct report *r, const struct where *w,
    const struct chstk_info *info, const struct verdict *v,
    const struct hard *h, const struct evidence *ev, struct rendered *x)
{
	char space[1024];
	const struct hard *shown = r->o->hardening ? h : NULL;
	struct buf b;

	memset(x, 0, sizeof(*x));
	BUF_INIT(b, space);
	text_image(&b, w, info, v, shown, ev);
	x->text = xstrdup(b.p);
	buf_free(&b);
	BUF_INIT(b, space);
	json_image(&b, w, info, v, shown, ev);
	x->json = xstrdup(b.p);
	buf_free(&b);
	after_lines(r, info, v, h, ev, &x->cause, &x->built);
	x->dwarf = xstrdup(ev->error);
	sarif_results(info, v, h, ev, render_put, x);
}

void
report_rendered(struct report *r, const struct where *w,
    const struct rendered *x, uint64_t findings)
{
	const char *text;
	size_t i;

	evidence_problem(r, w, x->dwarf != NULL ? x->dwarf : "");
	if (says_after(r, findings))
		keep_after(r, w, x->cause, x->built);
	if (writer(r)->log_image != NULL) {
		pthread_mutex_lock(&r->lock);
		clear_line(r);
		for (i = 0; i < x->nresults; i++) {
			const struct rendered_result *res = &x->results[i];
			struct region region = { res->offset, res->length };

			sarif_result(r->sarif, res->bit, w, res->region ?
			    &region : NULL, res->why, res->justification);
		}
		pthread_mutex_unlock(&r->lock);
		return;
	}
	if (writer(r)->image == NULL || (r->o->quiet && findings == 0))
		return;
	text = writer(r)->image == json_image ? x->json : x->text;
	pthread_mutex_lock(&r->lock);
	clear_line(r);
	fputs(text, stdout);
	pthread_mutex_unlock(&r->lock);
}

void
rendered_free(struct rendered *x)
{
	size_t i;

	free(x->text);
	free(x->json);
	free(x->cause);
	free(x->built);
	free(x->dwarf);
	for (i = 0; i < x->nresults; i++) {
		free(x->results[i].why);
		free(x->results[i].justification);
	}
	free(x->results);
	memset(x, 0, sizeof(*x));
}

void
report_error(struct report *r, const struct where *w, enum unread what,
    bool allowed, const char *msg)
{
	char space[1024];
	struct buf b;

	if (what == UNREAD_ERROR)
		stat_add(r->st, C_ERRORS);
	if (writer(r)->log_error != NULL) {
		pthread_mutex_lock(&r->lock);
		clear_line(r);
		writer(r)->log_error(r, w, what, allowed, msg);
		pthread_mutex_unlock(&r->lock);
		return;
	}
	BUF_INIT(b, space);
	if (writer(r)->error != NULL) {
		writer(r)->error(&b, w, what, allowed, msg);
		emit(r, &b);
		return;
	}
	/* A waived finding is no message. */
	if (allowed)
		return;
	buf_add(&b, "elfscan: ", 9);
	text_where(&b, w);
	buf_addf(&b, ": %s%s\n", what == UNREAD_ELF ? "malformed ELF: " : "",
	    msg);
	to_stderr(r, &b);
}

void
report_unused(struct report *r)
{
	const struct allow *a = &r->o->allow;
	char space[512];
	struct buf b;
	size_t i;

	for (i = 0; i < a->n; i++) {
		const struct allow_pattern *p = &a->v[i];

		if (atomic_load(&p->used))
			continue;
		if (writer(r)->log_unused != NULL) {
			pthread_mutex_lock(&r->lock);
			writer(r)->log_unused(r, p);
			pthread_mutex_unlock(&r->lock);
			continue;
		}
		BUF_INIT(b, space);
		if (writer(r)->unused != NULL) {
			writer(r)->unused(&b, p);
			emit(r, &b);
		} else if (p->file != NULL) {
			buf_addf(&b, "elfscan: %s:%u: unused pattern: %s\n", p->file, p->line, p->text);
			to_stderr(r, &b);
		} else {
			buf_addf(&b, "elfscan: --allow-pattern: unused pattern: %s\n", p->text);
			to_stderr(r, &b);
		}
	}
}

void
report_path0(struct report *r, const char *path)
{
	char space[1024];
	struct buf b;

	if (writer(r)->finding_path == NULL)
		return;
	BUF_INIT(b, space);
	writer(r)->finding_path(&b, path);
	emit(r, &b);
}

/* The counters, read. */
static void
counts(const struct report *r, unsigned long *v)
{
	size_t i;

	for (i = 0; i < C_COUNT; i++)
		v[i] = atomic_load(&r->st->c[i]);
}

static int
by_text(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The lines kept, under a title, in order, wrapped as the notes are;
   then freed. */
static void
said_after(struct buf *b, struct lines *l, const char *title)
{
	size_t i;

	if (l->n == 0)
		return;
	buf_addf(b, "\n%s\n", title);
	qsort(l->v, l->n, sizeof(*l->v), by_text);
	for (i = 0; i < l->n; i++) {
		text_wrap_in(b, "  ", 4, l->v[i]);
		free(l->v[i]);
	}
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

void
report_notes(struct report *r)
{
	unsigned long v[C_COUNT];
	char space[4096];
	struct buf b;

	BUF_INIT(b, space);
	said_after(&b, &r->causes,
	    "Why they get an executable stack, and whether 'chstk -E' is safe:");
	said_after(&b, &r->built,
	    "How they were built, by their DWARF and annobin's notes:");
	if (writer(r)->notes != NULL && !r->o->no_header) {
		counts(r, v);
		writer(r)->notes(&b, v);
	}
	if (b.len > 0)
		emit(r, &b);
	else
		buf_free(&b);
}

void
report_note(struct report *r, const char *path, const char *msg)
{
	char space[1024];
	struct buf b;

	BUF_INIT(b, space);
	buf_puts(&b, "elfscan: ");
	buf_text(&b, path);
	buf_puts(&b, ": ");
	buf_text(&b, msg);
	buf_puts(&b, "\n");
	to_stderr(r, &b);
}

void
report_root(struct report *r, const char *root, const char *image,
    const char *rules)
{
	char space[1024];
	struct buf b;

	if (writer(r)->root == NULL || r->o->quiet)
		return;
	BUF_INIT(b, space);
	writer(r)->root(&b, root, image, rules);
	emit(r, &b);
}

void
report_verdict(struct report *r, const struct sys_verdict *v)
{
	char space[2048];
	struct buf b;

	if (writer(r)->log_verdict != NULL) {
		pthread_mutex_lock(&r->lock);
		clear_line(r);
		writer(r)->log_verdict(r, v);
		pthread_mutex_unlock(&r->lock);
		return;
	}
	if (writer(r)->verdict == NULL)
		return;
	BUF_INIT(b, space);
	writer(r)->verdict(&b, v);
	emit(r, &b);
}

void
report_change(struct report *r, const struct diff_change *c)
{
	char space[1024];
	struct buf b;

	if (writer(r)->log_change != NULL) {
		pthread_mutex_lock(&r->lock);
		clear_line(r);
		writer(r)->log_change(r, c);
		pthread_mutex_unlock(&r->lock);
		return;
	}
	if (writer(r)->change == NULL || (r->o->quiet && !c->worse))
		return;
	BUF_INIT(b, space);
	writer(r)->change(&b, c);
	emit(r, &b);
}

void
report_summary(struct report *r, double seconds)
{
	unsigned long v[C_COUNT];
	char space[1024];
	struct buf b;

	counts(r, v);
	BUF_INIT(b, space);
	writer(r)->summary(&b, v, (r->o->files ? 1u << G_SCAN : 0) |
	    (r->o->hardening ? 1u << G_HARDENING : 0) |
	    (r->o->system || r->o->suite ? 1u << G_SYSTEM : 0) |
	    (r->o->diff ? 1u << G_DIFF : 0) |
	    (r->o->proc ? 1u << G_PROC : 0), seconds);
	if (writer(r)->summary_on_stderr)
		to_stderr(r, &b);
	else
		emit(r, &b);
}

void
report_process(struct report *r, const struct proc_verdict *v)
{
	char space[2048];
	struct buf b;

	if (writer(r)->log_process != NULL) {
		pthread_mutex_lock(&r->lock);
		clear_line(r);
		writer(r)->log_process(r, v);
		pthread_mutex_unlock(&r->lock);
		return;
	}
	BUF_INIT(b, space);
	if (v->state == PROC_UNREADABLE && writer(r)->error == NULL) {
		buf_puts(&b, "elfscan: ");
		process_name(&b, v);
		buf_addf(&b, ": %s\n", v->error);
		to_stderr(r, &b);
		return;
	}
	if (writer(r)->process == NULL || (r->o->quiet && v->findings == 0)) {
		buf_free(&b);
		return;
	}
	writer(r)->process(&b, v);
	emit(r, &b);
}
