/*
 * sarif.c - SARIF 2.1.0 output (see sarif.h for the contract).
 *
 * Each kind of finding is a rule (the table below, in the order of enum
 * finding: the stack's, then the defences --require asks for) with the
 * texts and the security-severity code scanning sorts by. A result names its file by a URI relative to the root it was found
 * under, with that root's uriBaseId (SCANROOT, or SCANROOT1... for several
 * roots) defined once in originalUriBaseIds; the member and, in an image,
 * the image's reference and layer, go in the location's logical location
 * and properties. The partial fingerprint hashes the rule, the relative
 * URI, the member and the image reference, not the root's absolute path or
 * anything of the run, so the same finding keeps it across runs and
 * machines.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "elfscan.h"
#include "sarif.h"

#define INFORMATION_URI "https://example.invalid/chstk"
#define FINGERPRINT "elfscanFinding/v1"

static const struct rule {
	const char *name;	/* PascalCase, for people */
	const char *level;	/* error, warning or note */
	const char *severity;	/* security-severity, CVSS-like 0.0 - 10.0 */
	const char *brief;	/* shortDescription */
	const char *full;	/* fullDescription */
	const char *help;	/* how to fix it */
} rules[F_COUNT] = {
	{ "ExecutableStack", "error", "7.5",
	  "The stack will be executable.",
	  "The program or library gets an executable stack, by its marking "
	  "or by the system's default for an unmarked image: code injected "
	  "on the stack can run.",
	  "Mark the file non-executable with 'chstk -E FILE' when it does not "
	  "run code on its stack; rebuild its objects with "
	  "'-Wa,--noexecstack' and link with '-z noexecstack' so that the "
	  "marking comes from the build. If it truly needs an executable "
	  "stack (nested functions of GCC, some JITs), list it in the "
	  "--allow file." },
	{ "ReadImpliesExec", "error", "8.0",
	  "Every readable mapping will be executable.",
	  "An unmarked program on a machine whose kernel then sets "
	  "READ_IMPLIES_EXEC: not only the stack but every readable "
	  "mapping of the process can be executed.",
	  "Mark the program with 'chstk -E FILE', or rebuild it with "
	  "'-Wa,--noexecstack' and '-z noexecstack': a marked program does "
	  "not get READ_IMPLIES_EXEC." },
	{ "DlopenRefused", "error", "6.0",
	  "glibc 2.41 and later refuse to dlopen this library.",
	  "A shared object that asks for an executable stack: glibc 2.41 "
	  "and later refuse to load it with dlopen, and earlier versions "
	  "make every thread stack of the process executable when it is "
	  "loaded.",
	  "Mark the library with 'chstk -E FILE', or rebuild it with "
	  "'-Wa,--noexecstack' and link it with '-z noexecstack'." },
	{ "UnknownDefault", "warning", "3.0",
	  "The stack of this unmarked image depends on the machine.",
	  "The image carries no stack marking, and its stack depends on the "
	  "CPU or the C library, which the file cannot tell.",
	  "Give the image an explicit marking: 'chstk -E FILE', or build "
	  "with '-Wa,--noexecstack' and '-z noexecstack'." },
	{ "NoGnuStackNote", "warning", "5.0",
	  "The object has no .note.GNU-stack section.",
	  "A relocatable object without a .note.GNU-stack section: GNU ld "
	  "makes every program or library it is linked into ask for an "
	  "executable stack.",
	  "Assemble with '-Wa,--noexecstack', or add "
	  "'.section .note.GNU-stack,\"\",@progbits' to the assembly "
	  "source; 'chstk -E FILE' adds the note to the object." },
	{ "WritableExecutableSegment", "warning", "6.5",
	  "A segment is both writable and executable.",
	  "A loadable segment (or, in an object, an allocated section) is "
	  "writable and executable at once: code written to it can run.",
	  "Link with '-z separate-code' and find the section that asks for "
	  "write and execute (an assembly .section with \"awx\" flags, or a "
	  "linker script); no marking fixes this." },
	{ "MalformedElf", "warning", "4.0",
	  "The ELF file does not parse.",
	  "The file starts like an ELF file but a header, count, offset or "
	  "size in it is invalid: neither this scanner nor, likely, the "
	  "loader can read it.",
	  "Rebuild the file, or remove it when it is not meant to be an ELF "
	  "program, library or object." },
	/* What --require found missing (hardening.c; elfscan(1),
	   HARDENING, gives the rule behind each). */
	{ "NotPositionIndependent", "warning", "5.0",
	  "The program is not position-independent.",
	  "A program linked as ET_EXEC is loaded at the address it was "
	  "linked for: address space layout randomization cannot move its "
	  "code and data, so an attacker knows where they lie.",
	  "Compile with '-fPIE' and link with '-pie' (the default of GCC on "
	  "Debian and Fedora); a static program with '-static-pie'." },
	{ "NoFullRelro", "warning", "5.0",
	  "The image lacks full RELRO.",
	  "Without a GNU_RELRO segment the relocated data (GOT, dynamic "
	  "section) stays writable; with one but without immediate binding "
	  "(partial RELRO) the lazily bound part of the GOT stays writable: "
	  "an overwrite there redirects a call.",
	  "Link with '-Wl,-z,relro,-z,now'." },
	{ "NoStackProtector", "warning", "5.5",
	  "The image references no stack protector symbol.",
	  "None of the stack protector's symbols (__stack_chk_fail and the "
	  "others elfscan(1) lists) is in the image's symbol tables: no "
	  "function checks a canary before it returns, so a stack buffer "
	  "overflow can overwrite a return address unnoticed. (An image "
	  "without any array on a stack needs none.)",
	  "Compile with '-fstack-protector-strong'." },
	{ "NotFortified", "warning", "4.0",
	  "Fortifiable functions are called without their checks.",
	  "The image calls functions of glibc that _FORTIFY_SOURCE replaces "
	  "with checking variants (memcpy by __memcpy_chk and the like) and "
	  "calls none of those variants: it was built without "
	  "_FORTIFY_SOURCE, or without optimization.",
	  "Compile with '-O2 -D_FORTIFY_SOURCE=3' (or =2)." },
	{ "UnsafeSearchPath", "error", "7.0",
	  "The library search path has an unsafe entry.",
	  "An RPATH or RUNPATH entry that is empty or relative (searched "
	  "from the current directory, not the image's) or under a "
	  "directory anyone can write to (/tmp, /var/tmp, /dev/shm) lets "
	  "someone else supply the libraries the image loads.",
	  "Drop the entry, or make it absolute to a directory only root "
	  "writes to, or relative to $ORIGIN; 'patchelf --remove-rpath "
	  "FILE' removes the search path from a built file." },
	{ "NoIndirectBranchTracking", "note", "3.0",
	  "The image is not marked for x86 IBT.",
	  "Its GNU property note does not mark the image compatible with "
	  "indirect branch tracking (Intel CET IBT): a process that loads "
	  "it runs without it, and an indirect jump may land on any "
	  "instruction.",
	  "Compile and link every object with '-fcf-protection=full' (or "
	  "'branch'); one object without the marking removes it from the "
	  "whole image." },
	{ "NoShadowStack", "note", "3.0",
	  "The image is not marked for x86 shadow stacks.",
	  "Its GNU property note does not mark the image compatible with "
	  "shadow stacks (Intel CET SHSTK): a process that loads it runs "
	  "without one, and a return address overwritten on the stack is "
	  "not caught.",
	  "Compile and link every object with '-fcf-protection=full' (or "
	  "'return')." },
	{ "NoBranchTargetIdentification", "note", "3.0",
	  "The image is not marked for AArch64 BTI.",
	  "Its GNU property note does not mark the image compatible with "
	  "branch target identification: its pages are not guarded, and an "
	  "indirect branch may land on any instruction.",
	  "Compile and link every object with "
	  "'-mbranch-protection=standard' (or 'bti')." },
	{ "NoPointerAuthentication", "note", "3.0",
	  "The image is not marked for AArch64 PAC.",
	  "Its GNU property note does not say that the image signs its "
	  "return addresses (pointer authentication): an overwritten return "
	  "address is used as it is.",
	  "Compile every object with '-mbranch-protection=standard' (or "
	  "'pac-ret')." },
	{ "NotStripped", "note", "1.0",
	  "The image keeps its symbol table.",
	  "A .symtab section is left in the image: it names every function "
	  "and object with its address, a map for whoever studies the file, "
	  "and takes space.",
	  "Strip the file ('strip --strip-unneeded FILE'; packages: the "
	  "distribution's strip step, which keeps the debugging symbols in "
	  "a separate package)." },
};

/* A scanned root: how paths under it become relative URIs. */
struct root {
	const char *path;	/* as given, trailing slashes dropped */
	size_t len;
	bool dir;		/* false: a file, named relative to its
				   directory */
	char id[32];		/* its uriBaseId */
};

struct sarif {
	FILE *out, *notes;
	unsigned long results, notifications;
	size_t n;
	struct root root[];
};

/* The characters of a JSON string; bytes that are not UTF-8 become
   \u00XX (as Latin-1). */
static void
json_chars(FILE *f, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	unsigned n, i;

	for (; *s != '\0'; s += n) {
		n = s[0] < 0x80 ? 1 : s[0] >= 0xc2 && s[0] < 0xe0 ? 2 :
		    s[0] >= 0xe0 && s[0] < 0xf0 ? 3 :
		    s[0] >= 0xf0 && s[0] < 0xf5 ? 4 : 0;
		for (i = 1; i < n; i++)
			if ((s[i] & 0xc0) != 0x80)
				n = 0;
		if (n == 1 && (*s == '"' || *s == '\\'))
			fprintf(f, "\\%c", *s);
		else if (n == 1 && (*s < 0x20 || *s == 0x7f))
			fprintf(f, "\\u%04x", *s);
		else if (n > 0)
			fwrite(s, 1, n, f);
		else
			fprintf(f, "\\u%04x", *s);
		if (n == 0)
			n = 1;
	}
}

static void
json_str(FILE *f, const char *str)
{
	putc('"', f);
	json_chars(f, str);
	putc('"', f);
}

/* A path as a URI path: RFC 3986 unreserved characters and "/" as they
   are, every other byte %-encoded (":" too, so that a relative reference
   never reads as a scheme). */
static void
uri_path(FILE *f, const char *path)
{
	const unsigned char *s = (const unsigned char *)path;

	for (; *s != '\0'; s++)
		if ((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		    (*s >= '0' && *s <= '9') || strchr("-._~/", *s) != NULL)
			putc(*s, f);
		else
			fprintf(f, "%%%02X", *s);
}

/* FNV-1a over a string and its terminator, from h. */
static uint64_t
fnv(uint64_t h, const char *s)
{
	do {
		h ^= (unsigned char)*s;
		h *= 0x100000001b3ULL;
	} while (*s++ != '\0');
	return h;
}

static void
write_rules(FILE *f)
{
	unsigned i;

	for (i = 0; i < F_COUNT; i++) {
		const struct rule *r = &rules[i];

		fprintf(f, "%s{\"id\":", i ? "," : "");
		json_str(f, finding_name(i));
		fprintf(f, ",\"name\":\"%s\",\"shortDescription\":{\"text\":",
		    r->name);
		json_str(f, r->brief);
		fputs("},\"fullDescription\":{\"text\":", f);
		json_str(f, r->full);
		fputs("},\"help\":{\"text\":", f);
		json_str(f, r->help);
		fprintf(f, "},\"defaultConfiguration\":{\"level\":\"%s\"},"
		    "\"properties\":{\"security-severity\":\"%s\","
		    "\"tags\":[\"security\"]}}", r->level, r->severity);
	}
}

/* The base URI of a root: its directory, or a file's directory. */
static void
write_base(FILE *f, const struct root *r)
{
	char *real = realpath(r->path, NULL), *slash;

	fprintf(f, "\"%s\":{\"uri\":\"file://", r->id);
	if (real != NULL && !r->dir && (slash = strrchr(real, '/')) != NULL)
		slash[1] = '\0';
	uri_path(f, real != NULL ? real : "/");
	if (real == NULL || real[strlen(real) - 1] != '/')
		putc('/', f);
	fputs("\"}", f);
	free(real);
}

struct sarif *
sarif_begin(FILE *out, char *const *roots, size_t n)
{
	struct sarif *s = calloc(1, sizeof(*s) + n * sizeof(s->root[0]));
	struct stat st;
	size_t i;

	if (s == NULL || (s->notes = tmpfile()) == NULL) {
		free(s);
		return NULL;
	}
	s->out = out;
	s->n = n;
	for (i = 0; i < n; i++) {
		struct root *r = &s->root[i];

		r->path = roots[i];
		r->len = strlen(roots[i]);
		while (r->len > 1 && r->path[r->len - 1] == '/')
			r->len--;
		r->dir = stat(r->path, &st) == 0 && S_ISDIR(st.st_mode);
		if (n == 1)
			snprintf(r->id, sizeof(r->id), "SCANROOT");
		else
			snprintf(r->id, sizeof(r->id), "SCANROOT%zu", i + 1);
	}
	fputs("{\"$schema\":\"https://json.schemastore.org/sarif-2.1.0.json\","
	    "\"version\":\"2.1.0\",\"runs\":[{\"tool\":{\"driver\":{"
	    "\"name\":\"elfscan\",\"fullName\":\"elfscan (chstk)\",", out);
	fprintf(out, "\"version\":\"%s\",\"semanticVersion\":\"%s\","
	    "\"informationUri\":\"%s\",\"rules\":[", chstk_version(),
	    chstk_version(), INFORMATION_URI);
	write_rules(out);
	fputs("]}},\"originalUriBaseIds\":{", out);
	for (i = 0; i < n; i++) {
		if (i > 0)
			putc(',', out);
		write_base(out, &s->root[i]);
	}
	fputs("},\"results\":[\n", out);
	return s;
}

/* The root a path was found under (the longest that holds it), and the
   path relative to the root's base; NULL when none holds it. */
static const struct root *
root_of(const struct sarif *s, const char *path, const char **rel)
{
	const struct root *best = NULL;
	size_t i;

	for (i = 0; i < s->n; i++) {
		const struct root *r = &s->root[i];
		const char *p = path + r->len;

		if (strncmp(path, r->path, r->len) != 0 || (best != NULL &&
		    best->len >= r->len))
			continue;
		if (!r->dir && *p == '\0') {
			const char *slash = strrchr(path, '/');

			best = r;
			*rel = slash != NULL && slash[1] != '\0' ? slash + 1 :
			    path;
		} else if (r->dir && (*p == '/' || (r->len == 1 &&
		    r->path[0] == '/'))) {
			best = r;
			*rel = *p == '/' ? p + 1 : p;
		}
	}
	return best;
}

/* The location: the file, and the member as a logical location. */
static const char *
write_location(const struct sarif *s, FILE *f, const struct sarif_where *w)
{
	const char *rel = w->path;
	const struct root *r = root_of(s, w->path, &rel);
	struct stat st;

	fputs("{\"physicalLocation\":{\"artifactLocation\":{\"uri\":\"", f);
	if (r == NULL)
		fputs("file://", f);
	uri_path(f, rel);
	putc('"', f);
	if (r != NULL)
		fprintf(f, ",\"uriBaseId\":\"%s\"", r->id);
	putc('}', f);
	/* Without the marking's bytes, the whole file. */
	if (w->has_region)
		fprintf(f, ",\"region\":{\"byteOffset\":%ju,\"byteLength\":%ju}",
		    (uintmax_t)w->offset, (uintmax_t)w->length);
	else if (stat(w->path, &st) == 0 && S_ISREG(st.st_mode))
		fprintf(f, ",\"region\":{\"byteOffset\":0,\"byteLength\":%jd}",
		    (intmax_t)st.st_size);
	putc('}', f);
	if (w->member != NULL) {
		fputs(",\"logicalLocations\":[{\"name\":", f);
		json_str(f, w->member);
		fputs(",\"fullyQualifiedName\":\"", f);
		json_chars(f, rel);
		if (w->image != NULL) {
			putc('!', f);
			json_chars(f, w->image);
		}
		putc('!', f);
		json_chars(f, w->member);
		fputs("\",\"kind\":\"module\"}],\"properties\":{\"member\":", f);
		json_str(f, w->member);
		if (w->image != NULL) {
			fputs(",\"image\":", f);
			json_str(f, w->image);
		}
		if (w->layer != NULL) {
			fputs(",\"layer\":", f);
			json_str(f, w->layer);
		}
		putc('}', f);
	}
	putc('}', f);
	return rel;
}

/* The file as the text output names it, for messages. */
static void
write_name(FILE *f, const struct sarif_where *w)
{
	json_chars(f, w->path);
	if (w->image != NULL) {
		putc('!', f);
		json_chars(f, w->image);
	}
	if (w->member != NULL) {
		putc('!', f);
		json_chars(f, w->member);
	}
}

void
sarif_result(struct sarif *s, unsigned bit, const struct sarif_where *w,
    const char *why, const char *justification)
{
	const struct rule *r = &rules[bit < F_COUNT ? bit : F_COUNT - 1];
	FILE *f = s->out;
	const char *rel;
	uint64_t h1, h2;

	fprintf(f, "%s{\"ruleId\":\"%s\",\"ruleIndex\":%u,\"level\":\"%s\","
	    "\"message\":{\"text\":\"", s->results++ ? ",\n" : "",
	    finding_name(bit), bit, r->level);
	/* The rule's sentence without its period, then why. */
	fwrite(r->brief, 1, strlen(r->brief) - 1, f);
	fputs(": ", f);
	json_chars(f, why);
	if (w->member != NULL) {
		fputs(" (in '", f);
		write_name(f, w);
		fputs("')", f);
	}
	fputs(".\"},\"locations\":[", f);
	rel = write_location(s, f, w);
	h1 = fnv(fnv(0xcbf29ce484222325ULL, finding_name(bit)), rel);
	h1 = fnv(fnv(h1, w->image ? w->image : ""), w->member ? w->member : "");
	h2 = fnv(fnv(0x84222325cbf29ce4ULL, w->member ? w->member : ""), rel);
	h2 = fnv(fnv(h2, w->image ? w->image : ""), finding_name(bit));
	fprintf(f, "],\"partialFingerprints\":{\"" FINGERPRINT "\":"
	    "\"%016jx%016jx\"}", (uintmax_t)h1, (uintmax_t)h2);
	if (justification != NULL) {
		fputs(",\"suppressions\":[{\"kind\":\"external\","
		    "\"status\":\"accepted\",\"justification\":", f);
		json_str(f, justification);
		fputs("}]", f);
	}
	putc('}', f);
}

void
sarif_notification(struct sarif *s, const struct sarif_where *w,
    const char *msg)
{
	FILE *f = s->notes;

	fprintf(f, "%s{\"level\":\"error\",\"message\":{\"text\":\"",
	    s->notifications++ ? ",\n" : "");
	fputs("Cannot scan '", f);
	write_name(f, w);
	fputs("': ", f);
	json_chars(f, msg);
	fputs(".\"},\"locations\":[", f);
	write_location(s, f, w);
	fputs("]}", f);
}

int
sarif_end(struct sarif *s, bool successful)
{
	char buf[8192];
	size_t n;
	int r = 0;

	fprintf(s->out, "\n],\"invocations\":[{\"executionSuccessful\":%s",
	    successful ? "true" : "false");
	if (s->notifications > 0) {
		fputs(",\"toolExecutionNotifications\":[\n", s->out);
		rewind(s->notes);
		while ((n = fread(buf, 1, sizeof(buf), s->notes)) > 0)
			fwrite(buf, 1, n, s->out);
		if (ferror(s->notes))
			r = -1;
		fputs("\n]", s->out);
	}
	fputs("}]}]}\n", s->out);
	fclose(s->notes);
	free(s);
	return r;
}
