/*
 * error.c - filling the caller's struct chstk_error.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <libelf.h>

#include "internal.h"

static int vset(struct chstk_error *err, int code, int sys_errno,
    const char *fmt, va_list ap) __attribute__((format(printf, 4, 0)));

static int
vset(struct chstk_error *err, int code, int sys_errno, const char *fmt,
    va_list ap)
{
	if (err == NULL)
		return code;
	err->code = code;
	err->sys_errno = sys_errno;
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	return code;
}

int
chstk__error(struct chstk_error *err, int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vset(err, code, 0, fmt, ap);
	va_end(ap);
	return code;
}

int
chstk__syserror(struct chstk_error *err, const char *fmt, ...)
{
	int saved = errno;
	int code = saved == ENOMEM ? CHSTK_ERR_NOMEM : CHSTK_ERR_SYS;
	char why[128];
	size_t len;
	va_list ap;

	if (err == NULL)
		return code;
	va_start(ap, fmt);
	vset(err, code, saved, fmt, ap);
	va_end(ap);
	/* GNU strerror_r may return a static string instead of filling why. */
	len = strlen(err->msg);
	snprintf(err->msg + len, sizeof(err->msg) - len, ": %s",
	    strerror_r(saved, why, sizeof(why)));
	errno = saved;
	return code;
}

int
chstk__elferror(struct chstk_error *err, const char *what)
{
	return chstk__error(err, CHSTK_ERR_CORRUPT, "%s: %s", what,
	    elf_errmsg(elf_errno()));
}

void
chstk__clear_error(struct chstk_error *err)
{
	if (err == NULL)
		return;
	err->code = CHSTK_OK;
	err->sys_errno = 0;
	err->msg[0] = '\0';
}
