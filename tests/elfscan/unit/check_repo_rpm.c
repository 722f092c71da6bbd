/*
 * check_repo_rpm.c - what repo-rpm.c hands on of each package of an
 * rpm-md repository, the fields no output of elfscan shows
 * (tests/elfscan/repo-rpm.sh judges the rest with rpmbuild and
 * createrepo_c): the version with its epoch, or without when it is 0; the
 * source name out of the source rpm's; the names of the requires and
 * provides, and not those of the conflicts; entities decoded; an uppercase
 * pkgid as the lowercase SHA256 of the file's bytes (repo_check() agrees);
 * the architecture read, noarch, never src; and rpm's names of the OCI
 * platforms. A plain primary.xml is read as a compressed one is. Built
 * without libxml2, rpm-md: is refused.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "repo.h"
#include "sha256.h"
#include "elfgen.h"

#define NPKG 8

/* What was handed on: the fields of each package, copied. */
struct got {
	size_t n;
	char *name[NPKG], *version[NPKG], *arch[NPKG], *source[NPKG];
	char *filename[NPKG], *sha256[NPKG], *depends[NPKG], *provides[NPKG];
	unsigned long long size[NPKG];
	int check[NPKG];
};

static char root[4096], arg[4200];
static struct got got;

static void
collect(void *ctx, const struct repo_package *p)
{
	struct got *g = ctx;

	ck_assert_uint_lt(g->n, NPKG);
	g->name[g->n] = strdup(p->name);
	g->version[g->n] = strdup(p->version);
	g->arch[g->n] = strdup(p->arch);
	g->source[g->n] = strdup(p->source);
	g->filename[g->n] = strdup(p->filename);
	g->sha256[g->n] = strdup(p->sha256);
	g->depends[g->n] = strdup(p->depends);
	g->provides[g->n] = strdup(p->provides);
	g->size[g->n] = p->size;
	g->check[g->n] = repo_check(p);
	g->n++;
}

/* root/name holding text; its SHA256 into hex, uppercase when upper. */
static void
put(const char *name, const char *text, char hex[SHA256_HEX], int upper)
{
	char path[8300];
	struct sha256 c;
	FILE *f;
	char *h;

	snprintf(path, sizeof(path), "%s/%s", root, name);
	ck_assert_ptr_nonnull(f = fopen(path, "w"));
	ck_assert_int_eq(fputs(text, f) >= 0, 1);
	ck_assert_int_eq(fclose(f), 0);
	if (hex == NULL)
		return;
	sha256_init(&c);
	sha256_update(&c, text, strlen(text));
	sha256_hex(&c, hex);
	for (h = hex; upper && *h != '\0'; h++)
		if (*h >= 'a' && *h <= 'f')
			*h = (char)(*h - 'a' + 'A');
}

/* One <package> of the primary metadata. */
static void
package(char *out, size_t cap, const char *name, const char *arch,
    const char *epoch, const char *hex, size_t size, const char *href,
    const char *format)
{
	size_t len = strlen(out);

	snprintf(out + len, cap - len,
	    "<package type=\"rpm\"><name>%s</name><arch>%s</arch>"
	    "<version epoch=\"%s\" ver=\"1.0\" rel=\"3.fc40\"/>"
	    "<checksum type=\"sha256\" pkgid=\"YES\">%s</checksum>"
	    "<summary>s</summary><size package=\"%zu\" installed=\"9\"/>"
	    "<location href=\"%s\"/><format>%s</format></package>\n",
	    name, arch, epoch, hex, size, href, format);
}

static void
make_repo(void)
{
	static const char foo[] = "the bytes of foo", doc[] = "of foo-doc";
	char primary[8192] = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	    "<metadata xmlns=\"http://linux.duke.edu/metadata/common\" "
	    "xmlns:rpm=\"http://linux.duke.edu/metadata/rpm\" packages=\"4\">\n";
	char repomd[4096], h1[SHA256_HEX], h2[SHA256_HEX], hp[SHA256_HEX];
	char sub[8300];

	snprintf(root, sizeof(root), "%s/check_repo_rpm.XXXXXX",
	    getenv("TMPDIR") != NULL ? getenv("TMPDIR") : "/tmp");
	ck_assert_ptr_nonnull(mkdtemp(root));
	snprintf(arg, sizeof(arg), "rpm-md:%s", root);
	snprintf(sub, sizeof(sub), "%s/repodata", root);
	ck_assert_int_eq(mkdir(sub, 0700), 0);
	snprintf(sub, sizeof(sub), "%s/Packages", root);
	ck_assert_int_eq(mkdir(sub, 0700), 0);
	put("Packages/foo.rpm", foo, h1, 1);
	put("Packages/foo-doc.rpm", doc, h2, 0);
	package(primary, sizeof(primary), "foo", "x86_64", "2", h1,
	    strlen(foo), "Packages/foo.rpm",
	    "<rpm:sourcerpm>foo-1.0-3.fc40.src.rpm</rpm:sourcerpm>"
	    "<rpm:provides><rpm:entry name=\"foo\" flags=\"EQ\"/>"
	    "<rpm:entry name=\"foo(x86-64)\"/></rpm:provides>"
	    "<rpm:requires><rpm:entry name=\"libc.so.6()(64bit)\"/>"
	    "<rpm:entry name=\"/bin/sh\" pre=\"1\"/></rpm:requires>"
	    "<rpm:conflicts><rpm:entry name=\"bar\"/></rpm:conflicts>"
	    "<file>/usr/bin/foo</file>");
	package(primary, sizeof(primary), "foo", "src", "2", h1, strlen(foo),
	    "Packages/foo.rpm", "<rpm:sourcerpm/>");
	package(primary, sizeof(primary), "foo", "aarch64", "0", h1,
	    strlen(foo), "Packages/foo.rpm",
	    "<rpm:sourcerpm>foo-1.0-3.fc40.src.rpm</rpm:sourcerpm>");
	package(primary, sizeof(primary), "foo-doc", "noarch", "0", h2,
	    strlen(doc), "Packages/foo-doc.rpm",
	    "<rpm:sourcerpm>foo-1.0-3.fc40.src.rpm</rpm:sourcerpm>"
	    "<rpm:provides><rpm:entry name=\"doc&amp;more\"/></rpm:provides>");
	strcat(primary, "</metadata>\n");
	put("repodata/primary.xml", primary, hp, 0);
	snprintf(repomd, sizeof(repomd),
	    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	    "<repomd xmlns=\"http://linux.duke.edu/metadata/repo\">"
	    "<revision>1</revision><data type=\"filelists\">"
	    "<location href=\"repodata/none.xml\"/></data>"
	    "<data type=\"primary\"><checksum type=\"sha256\">%s</checksum>"
	    "<location href=\"repodata/primary.xml\"/>"
	    "<size>%zu</size></data></repomd>\n", hp, strlen(primary));
	put("repodata/repomd.xml", repomd, NULL, 0);
}

static void
setup(void)
{
	memset(&got, 0, sizeof(got));
	make_repo();
}

static void
teardown(void)
{
	static const char *const names[] = { "Packages/foo.rpm",
	    "Packages/foo-doc.rpm", "repodata/primary.xml",
	    "repodata/repomd.xml", "Packages", "repodata", "" };
	char path[8300];
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", root, names[i]);
		remove(path);
	}
}

START_TEST(test_fields)
{
	struct repo_opts o = { .arch = "x86_64" };
	int r = repo_packages(arg, &o, collect, &got);

#ifndef HAVE_LIBXML2
	ck_assert_int_eq(r, -1);
	ck_assert_uint_eq(got.n, 0);
#else
	ck_assert_int_eq(r, 0);
	ck_assert_uint_eq(got.n, 2);
	ck_assert_str_eq(got.name[0], "foo");
	ck_assert_str_eq(got.version[0], "2:1.0-3.fc40");
	ck_assert_str_eq(got.arch[0], "x86_64");
	ck_assert_str_eq(got.source[0], "foo");
	ck_assert_str_eq(got.filename[0], "Packages/foo.rpm");
	ck_assert_str_eq(got.depends[0], "libc.so.6()(64bit), /bin/sh");
	ck_assert_str_eq(got.provides[0], "foo, foo(x86-64)");
	ck_assert_uint_eq(got.size[0], strlen("the bytes of foo"));
	ck_assert_int_eq(got.check[0], 0);
	ck_assert_str_eq(got.name[1], "foo-doc");
	ck_assert_str_eq(got.version[1], "1.0-3.fc40");
	ck_assert_str_eq(got.arch[1], "noarch");
	ck_assert_str_eq(got.source[1], "foo");
	ck_assert_str_eq(got.depends[1], "");
	ck_assert_str_eq(got.provides[1], "doc&more");
	ck_assert_int_eq(got.check[1], 0);
#endif
}
END_TEST

/* --platform linux/arm64: aarch64 and noarch. */
START_TEST(test_platform)
{
	struct repo_opts o = { .platform = "linux/arm64" };
	int r = repo_packages(arg, &o, collect, &got);

#ifndef HAVE_LIBXML2
	ck_assert_int_eq(r, -1);
#else
	ck_assert_int_eq(r, 0);
	ck_assert_uint_eq(got.n, 2);
	ck_assert_str_eq(got.arch[0], "aarch64");
	ck_assert_str_eq(got.version[0], "1.0-3.fc40");
	ck_assert_str_eq(got.arch[1], "noarch");
#endif
}
END_TEST

START_TEST(test_arch_names)
{
	ck_assert_str_eq(repo_rpm_arch("linux/amd64"), "x86_64");
	ck_assert_str_eq(repo_rpm_arch("linux/arm64/v8"), "aarch64");
	ck_assert_str_eq(repo_rpm_arch("linux/386"), "i686");
	ck_assert_str_eq(repo_rpm_arch("linux/ppc64le"), "ppc64le");
	ck_assert_str_eq(repo_rpm_arch("linux/s390x"), "s390x");
	ck_assert_str_eq(repo_rpm_arch("linux/riscv64"), "riscv64");
	ck_assert_ptr_null(repo_rpm_arch("linux/amd64x"));
	ck_assert_ptr_null(repo_rpm_arch("linux/mips64le"));
	ck_assert_ptr_null(repo_rpm_arch("linux"));
	ck_assert_int_eq(repo_named("rpm-md:/srv/rpms"), 1);
	ck_assert_int_eq(repo_named("rpm:/srv/rpms"), 0);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("repo-rpm");
	TCase *tc = tcase_create("primary");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_fields);
	tcase_add_test(tc, test_platform);
	tcase_add_test(tc, test_arch_names);
	suite_add_tcase(s, tc);
	return gen_run(s);
}
