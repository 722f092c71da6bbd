/*
 * annobin.c - what Red Hat's annobin compiler plugins record of the
 * options each piece of code was compiled with, read for
 * CHSTK_READ_EVIDENCE from the section bytes dwarf.c hands over. Two
 * forms, after annobin 12.70 (gcc-plugin/annobin.cc, annobin-global.h.in):
 *
 *   .gnu.build.attributes   ELF notes of type NT_GNU_BUILD_ATTRIBUTE_OPEN
 *                           or _FUNC, named "GA", a type ('*' a number,
 *                           '+' true, '!' false, '$' a string), the
 *                           attribute (a byte below ' ' for the ones the
 *                           binutils name, else a string and its NUL), a
 *                           number's bytes least significant first, NUL
 *                           (binutils' include/elf/common.h;
 *                           annobin_output_note)
 *   .annobin.notes          strings "CODE:VALUE", perhaps followed by a
 *                           space and where (annobin_gen_string_note),
 *                           annobin's default since 12.x
 *
 * Each setting keeps the lowest and highest value its notes give, in the
 * order of struct chstk_hardening (weakest first).
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define NT_OPEN 0x100
#define NT_FUNC 0x101
/* binutils' GNU_BUILD_ATTRIBUTE_STACK_PROT */
#define ATTR_STACK_PROT 2

static void
note_value(struct chstk_annobin_value *v, int x)
{
	if (v->min < 0 || x < v->min)
		v->min = x;
	if (x > v->max)
		v->max = x;
}

/* -fstack-protector's setting (gcc's flag_stack_protect: 0 none, 1
   basic, 2 all, 3 strong, 4 explicit), weakest first. */
static void
stack_prot(struct chstk_hardening *h, uint64_t v)
{
	static const int strength[] = { 0, 2, 4, 3, 1 };

	if (v < sizeof(strength) / sizeof(strength[0]))
		note_value(&h->an_stack_prot, strength[v]);
}

/* gcc's enum cf_protection_level plus 1: bit 0 branch, bit 1 return. */
static void
cf_protection(struct chstk_hardening *h, uint64_t v)
{
	if (v >= 1 && v <= 16)
		note_value(&h->an_cf_full, ((v - 1) & 3) == 3);
}

/* annobin's GOW word: -O in bits 9-10, LTO in bit 16 (on) or 17 (off),
   -ftrivial-auto-var-init in bits 18-19 (1 uninitialized, 2 pattern, 3
   zero; 0 not recorded). */
static void
gow(struct chstk_hardening *h, uint64_t v)
{
	note_value(&h->an_optimize, (int)(v >> 9 & 3));
	if (v & 1u << 16)
		note_value(&h->an_lto, 1);
	else if (v & 1u << 17)
		note_value(&h->an_lto, 0);
	if ((v >> 18 & 3) != 0)
		note_value(&h->an_auto_var_init, (int)(v >> 18 & 3) - 1);
}

static void
fortify(struct chstk_hardening *h, uint64_t v)
{
	/* 0xfe: LTO compiled it, the level unknown; 0xff: not seen. */
	if (v <= 3)
		note_value(&h->an_fortify, (int)v);
}

/* One setting by annobin's name for it (the notes' attribute names), and
   its value; others are left alone. */
static void
setting(struct chstk_hardening *h, const char *name, uint64_t v)
{
	if (strcmp(name, "stack_clash") == 0)
		note_value(&h->an_stack_clash, v != 0);
	else if (strcmp(name, "cf_protection") == 0)
		cf_protection(h, v);
	else if (strcmp(name, "FORTIFY") == 0)
		fortify(h, v);
	else if (strcmp(name, "GLIBCXX_ASSERTIONS") == 0)
		note_value(&h->an_glibcxx_assertions, v != 0);
	else if (strcmp(name, "GOW") == 0)
		gow(h, v);
}

/* One note's name, p[0, n): "GA", type, attribute, value, NUL. */
static void
attribute_note(struct chstk_hardening *h, const unsigned char *p, size_t n)
{
	const unsigned char *q, *last = p + n - 1, *nul;
	char name[64];
	uint64_t v = 0;
	unsigned shift;
	size_t len;

	if (n < 5 || p[0] != 'G' || p[1] != 'A' || *last != '\0' ||
	    (p[2] != '*' && p[2] != '+' && p[2] != '!'))
		return;
	h->an_notes++;
	if (p[3] < ' ') {
		name[0] = (char)p[3];
		name[1] = '\0';
		q = p + 4;
	} else {
		nul = memchr(p + 3, '\0', n - 3);
		len = (size_t)(nul - (p + 3));
		if (len >= sizeof(name))
			return;
		memcpy(name, p + 3, len);
		name[len] = '\0';
		q = nul + 1;
	}
	if (p[2] == '*')
		for (shift = 0; q < last && shift < 64; q++, shift += 8)
			v |= (uint64_t)*q << shift;
	else
		v = p[2] == '+';
	if (name[0] == ATTR_STACK_PROT && name[1] == '\0')
		stack_prot(h, v);
	else
		setting(h, name, v);
}

void
chstk__annobin_notes(const unsigned char *buf, size_t len, bool msb,
    struct chstk_hardening *h)
{
	/* annobin aligns its notes to 4 bytes in 64-bit files too. */
	struct chstk__notes w = { buf, len, 0, 4, 4, msb };
	struct chstk__note n;

	while (chstk__note_next(&w, &n) > 0)
		if (n.type == NT_OPEN || n.type == NT_FUNC)
			attribute_note(h, n.name, n.namesz);
}

/* One string note, "CODE:VALUE[ WHERE]", s[0, n) without its NUL. */
static void
string_note(struct chstk_hardening *h, const char *s, size_t n)
{
	static const struct { char code[3]; const char *name; } codes[] = {
		{ "SC", "stack_clash" }, { "CF", "cf_protection" },
		{ "FL", "FORTIFY" }, { "GA", "GLIBCXX_ASSERTIONS" },
		{ "GW", "GOW" },
	};
	char value[32], *end;
	uint64_t v;
	size_t i, len;

	if (n < 4 || s[2] != ':')
		return;
	len = strcspn(s + 3, " ");
	if (len == 0 || len >= sizeof(value) || len > n - 3)
		return;
	memcpy(value, s + 3, len);
	value[len] = '\0';
	v = strtoull(value, &end, 0);
	if (*end != '\0')
		return;
	h->an_notes++;
	if (memcmp(s, "SP", 2) == 0) {
		stack_prot(h, v);
		return;
	}
	for (i = 0; i < sizeof(codes) / sizeof(codes[0]); i++)
		if (memcmp(s, codes[i].code, 2) == 0)
			setting(h, codes[i].name, v);
}

void
chstk__annobin_strings(const unsigned char *buf, size_t len,
    struct chstk_hardening *h)
{
	const char *p = (const char *)buf, *end = p + len, *nul;

	while (p < end) {
		nul = memchr(p, '\0', (size_t)(end - p));
		if (nul == NULL)
			return;
		string_note(h, p, (size_t)(nul - p));
		p = nul + 1;
	}
}
