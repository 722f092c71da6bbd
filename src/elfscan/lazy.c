/*
 * lazy.c - load libarchive when the first container is met, libxml2 when
 * the first rpm-md repository is (see lazy.h). Their names are the
 * SONAMEs configure found (LIBARCHIVE_SONAME, LIBXML2_SONAME), so that the
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

#ifdef HAVE_LIBXML2
struct lazy_xml libxml2;

static pthread_once_t xml_once = PTHREAD_ONCE_INIT;
static const char *xml_failure;

/* libxml2's messages without a reader's handler (its generic ones). */
static void
quiet(void *ctx, const char *msg, ...)
{
	(void)ctx;
	(void)msg;
}

static void
load_xml(void)
{
	void *h = dlopen(LIBXML2_SONAME, RTLD_NOW | RTLD_LOCAL);

	if (h == NULL) {
		xml_failure = "cannot load " LIBXML2_SONAME;
		return;
	}
#define LAZY_RESOLVE(f) \
	if (xml_failure == NULL && (*(void **)&libxml2.f = dlsym(h, #f)) == \
	    NULL) \
		xml_failure = LIBXML2_SONAME " has no " #f;
	LAZY_XML_FUNCTIONS(LAZY_RESOLVE)
#undef LAZY_RESOLVE
	if (xml_failure == NULL) {
		libxml2.xmlInitParser();
		libxml2.xmlSetGenericErrorFunc(NULL, quiet);
	}
}

int
lazy_xml_load(const char **why)
{
	pthread_once(&xml_once, load_xml);
	*why = xml_failure;
	return xml_failure != NULL ? -1 : 0;
}
#endif
