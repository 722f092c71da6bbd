/*
 * version.c - the library's version, which configure.ac sets.
 */
#include "internal.h"

const char *
chstk_version(void)
{
	return PACKAGE_VERSION;
}
