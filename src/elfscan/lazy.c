/*
 * lazy.c - load libarchive when the first container is met (see lazy.h).
 * Its name is the SONAME configure found (LIBARCHIVE_SONAME), so that the
 * library loaded is the one elfscan was built against.
 */
#include <dlfcn.h>
#include <pthread.h>

#include "lazy.h"

struct lazy_archive libarchive;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static const char *failure;

static void
load(void)
{
	void *h = dlopen(LIBARCHIVE_SONAME, RTLD_NOW | RTLD_LOCAL);

	if (h == NULL) {
		failure = "cannot load " LIBARCHIVE_SONAME;
		return;
	}
	/* dlsym's void * to a function pointer: POSIX requires it to work. */
#define LAZY_RESOLVE(f) \
	if (failure == NULL && (*(void **)&libarchive.f = dlsym(h, #f)) == \
	    NULL) \
		failure = LIBARCHIVE_SONAME " has no " #f;
	LAZY_ARCHIVE_FUNCTIONS(LAZY_RESOLVE)
#undef LAZY_RESOLVE
}

int
lazy_archive_load(const char **why)
{
	pthread_once(&once, load);
	*why = failure;
	return failure != NULL ? -1 : 0;
}
