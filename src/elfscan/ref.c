/*
 * ref.c - an image named on the command line as skopeo(1) names it, by a
 * transport of containers-transports(5): oci:DIR[:REF] (an OCI image
 * layout), oci-archive:FILE[:REF] (the same in a tar file),
 * docker-archive:FILE[:REF] (a docker save tarball; REF may be @N, its
 * N-th image). As containers/image does, the path ends at the first ":"
 * after the transport: a path holding a ":" is named plainly, without a
 * transport (it is then scanned whole). Which of the three a file is, its
 * contents say (oci.c): the transport says that it is an image, and which.
 */
#include <string.h>

#include "container.h"
#include "xalloc.h"

static const char *const transports[] = {
	"oci:", "oci-archive:", "docker-archive:",
};

bool
image_ref(const char *arg, char **path, char **ref)
{
	const char *colon;
	size_t i, len;

	for (i = 0; i < sizeof(transports) / sizeof(transports[0]); i++) {
		len = strlen(transports[i]);
		if (strncmp(arg, transports[i], len) == 0)
			break;
	}
	if (i == sizeof(transports) / sizeof(transports[0]))
		return false;
	arg += len;
	colon = strchr(arg, ':');
	len = colon != NULL ? (size_t)(colon - arg) : strlen(arg);
	*path = xmalloc(len + 1);
	memcpy(*path, arg, len);
	(*path)[len] = '\0';
	*ref = colon != NULL && colon[1] != '\0' ? xstrdup(colon + 1) : NULL;
	return true;
}
