/*
 * repo-arch.c - the architecture a repository is read for (repo.h): an
 * OCI platform's (--platform), or this machine's, by the names of the
 * repository's kind (repo-apt.c's dpkg names, repo-rpm.c's rpm names).
 */
#include <string.h>

#include "repo.h"

/* This machine's architecture, as OCI names it, or NULL. */
static const char *
native(void)
{
#if defined(__x86_64__)
	return "amd64";
#elif defined(__aarch64__)
	return "arm64";
#elif defined(__i386__)
	return "386";
#elif defined(__arm__)
	return "arm/v7";
#elif defined(__powerpc64__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	return "ppc64le";
#elif defined(__s390x__)
	return "s390x";
#elif defined(__riscv) && __riscv_xlen == 64
	return "riscv64";
#else
	return NULL;
#endif
}

const char *
repo_arch_name(const char *platform, const struct repo_arch *t, size_t n)
{
	const char *slash;
	size_t i, len;

	if (platform == NULL)
		platform = native();
	else if ((slash = strchr(platform, '/')) != NULL)
		platform = slash + 1;
	else
		return NULL;
	if (platform == NULL)
		return NULL;
	for (i = 0; i < n; i++) {
		len = strlen(t[i].oci);
		if (strncmp(platform, t[i].oci, len) == 0 &&
		    (platform[len] == '\0' || (platform[len] == '/' &&
		    strchr(t[i].oci, '/') == NULL)))
			return t[i].name;
	}
	return NULL;
}

