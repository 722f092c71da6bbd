/*
 * env.c - the value of glibc.rtld.execstack a root's processes see (see
 * system.h), as glibc reads GLIBC_TUNABLES (elf/dl-tunables.c, 2.41:
 * "NAME=VALUE" entries separated by ':', the last of a name winning; an
 * entry without "=" makes ld.so ignore the whole variable; a value that is
 * not a number, or out of the tunable's range (0 to 1 in 2.41, 0 to 2
 * since the value 2 came), is ignored, and the default, 1, stays), and as
 * the files that set it write it.
 */
#include <stdlib.h>
#include <string.h>

#include "system.h"
#include "xalloc.h"

#define NAME "glibc.rtld.execstack"

/* glibc's _dl_strtoul: decimal, or hexadecimal after 0x; -1 when the
   value is not a number. */
static long
number(const char *s, size_t len)
{
	unsigned base = 10, d;
	long v = 0;
	size_t i = 0;

	if (len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		i = 2;
	}
	if (i == len)
		return -1;
	for (; i < len; i++) {
		if (s[i] >= '0' && s[i] <= '9')
			d = (unsigned)(s[i] - '0');
		else if (base == 16 && s[i] >= 'a' && s[i] <= 'f')
			d = (unsigned)(s[i] - 'a' + 10);
		else if (base == 16 && s[i] >= 'A' && s[i] <= 'F')
			d = (unsigned)(s[i] - 'A' + 10);
		else
			return -1;
		if (v > 1000)
			return 1000;
		v = v * (long)base + (long)d;
	}
	return v;
}

int
tunable_execstack(const char *t, int maxval)
{
	const char *e, *eq;
	int value = TUNABLE_UNSET;
	long v;

	if (t == NULL)
		return TUNABLE_UNSET;
	for (; *t != '\0'; t = *e != '\0' ? e + 1 : e) {
		e = strchrnul(t, ':');
		eq = memchr(t, '=', (size_t)(e - t));
		if (eq == NULL)
			return TUNABLE_UNSET;
		if ((size_t)(eq - t) != strlen(NAME) ||
		    strncmp(t, NAME, strlen(NAME)) != 0)
			continue;
		v = number(eq + 1, (size_t)(e - eq - 1));
		if (v >= 0 && v <= maxval)
			value = (int)v;
	}
	return value;
}

char *
env_file_value(const char *text, const char *name)
{
	size_t nlen = strlen(name), len;
	const char *p, *e, *v;
	char *value = NULL;

	for (p = text; *p != '\0'; p = *e != '\0' ? e + 1 : e) {
		e = strchrnul(p, '\n');
		while (p < e && (*p == ' ' || *p == '\t'))
			p++;
		if (e - p > 7 && strncmp(p, "export ", 7) == 0)
			p += 7;
		if ((size_t)(e - p) <= nlen || strncmp(p, name, nlen) != 0 ||
		    p[nlen] != '=')
			continue;
		v = p + nlen + 1;
		len = (size_t)(e - v);
		while (len > 0 && (v[len - 1] == ' ' || v[len - 1] == '\t' ||
		    v[len - 1] == '\r'))
			len--;
		if (len >= 2 && (v[0] == '"' || v[0] == '\'') &&
		    v[len - 1] == v[0]) {
			v++;
			len -= 2;
		}
		free(value);
		value = xmalloc(len + 1);
		memcpy(value, v, len);
		value[len] = '\0';
	}
	return value;
}
