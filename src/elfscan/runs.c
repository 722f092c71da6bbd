/*
 * runs.c - which machines a root runs (struct runs, verdict.h), so that a
 * program for none of them is told from a Linux program (scope.c): firmware
 * for a guest machine, as QEMU's in /usr/share/qemu. A root runs:
 *
 *   this machine's root ("/"): what its kernel runs natively, by the
 *       machine the kernel names (/proc/sys/kernel/arch, else uname(2)),
 *       with the ABIs it runs in compat mode;
 *   the machines whose glibc dynamic linker the root holds, at the path
 *       its programs name (ldso.c), as its ELF header says: a sysroot for
 *       another machine (--system) runs that machine's programs where it
 *       is booted or entered;
 *   what a binfmt_misc handler serves (Documentation/admin-guide/
 *       binfmt-misc.rst): on this machine's root those the kernel holds
 *       (/proc/sys/fs/binfmt_misc), and in every root those it registers
 *       at boot, systemd-binfmt's (binfmt.d(5): /etc/binfmt.d,
 *       /run/binfmt.d, /usr/lib/binfmt.d) and binfmt-support's
 *       (/var/lib/binfmts, update-binfmts(8)). A handler counts when its
 *       magic matches a whole magic number at offset 0; what it asks of
 *       the bytes past the first CHSTK_HEAD_LEN (the machine's) is not
 *       checked.
 *
 * Every file is read whole and bounded (64 KiB); one that cannot be read
 * adds nothing.
 */
#include <elf.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "system.h"
#include "verdict.h"
#include "xalloc.h"

#define CONF_MAX 65536
#define FMT_MAX 256
#define MAGIC_MIN 4	/* the bytes of a magic number */

/*
 * The machines a kernel runs, by the name it gives its machine (a prefix
 * of it), with those of its compat ABIs (arch/x86/Kconfig IA32_EMULATION
 * and X86_X32_ABI; arch/arm64 COMPAT; arch/powerpc, arch/s390,
 * arch/sparc COMPAT; arch/mips MIPS32_O32 and MIPS32_N32), and the byte
 * order (0: either, where the name does not say).
 */
static const struct arch {
	const char *name;
	unsigned char data;
	unsigned short machine[3];
} arches[] = {
	{ "x86_64", ELFDATA2LSB, { EM_X86_64, EM_386 } },
	{ "i386", ELFDATA2LSB, { EM_386 } }, { "i486", ELFDATA2LSB, { EM_386 } },
	{ "i586", ELFDATA2LSB, { EM_386 } }, { "i686", ELFDATA2LSB, { EM_386 } },
	{ "aarch64_be", ELFDATA2MSB, { EM_AARCH64, EM_ARM } },
	{ "aarch64", ELFDATA2LSB, { EM_AARCH64, EM_ARM } },
	{ "arm", 0, { EM_ARM } },
	{ "ppc64le", ELFDATA2LSB, { EM_PPC64 } },
	{ "ppc64", ELFDATA2MSB, { EM_PPC64, EM_PPC } },
	{ "ppc", ELFDATA2MSB, { EM_PPC } },
	{ "s390", ELFDATA2MSB, { EM_S390 } },
	{ "mips", 0, { EM_MIPS } },
	{ "riscv", ELFDATA2LSB, { EM_RISCV } },
	{ "loongarch", ELFDATA2LSB, { EM_LOONGARCH } },
	{ "sparc", ELFDATA2MSB, { EM_SPARCV9, EM_SPARC32PLUS, EM_SPARC } },
	{ "parisc", ELFDATA2MSB, { EM_PARISC } },
	{ "alpha", ELFDATA2LSB, { EM_ALPHA } },
	{ "ia64", ELFDATA2LSB, { EM_IA_64 } },
	{ "m68k", ELFDATA2MSB, { EM_68K } },
	{ "sh", 0, { EM_SH } },
	{ "microblaze", 0, { EM_MICROBLAZE } },
	{ "openrisc", ELFDATA2MSB, { EM_OPENRISC } },
	{ "csky", ELFDATA2LSB, { EM_CSKY } },
	{ "arc", ELFDATA2LSB, { EM_ARC_COMPACT, EM_ARCV2 } },
	{ "xtensa", 0, { EM_XTENSA } },
	{ "hexagon", ELFDATA2LSB, { EM_QDSP6 } },
	{ "nios2", ELFDATA2LSB, { EM_ALTERA_NIOS2 } },
};

/* The machines whose glibc dynamic linker a root may hold (ldso.c). */
static const unsigned short interp_machines[] = {
	EM_X86_64, EM_386, EM_AARCH64, EM_ARM, EM_PPC64, EM_S390, EM_RISCV,
	EM_LOONGARCH, EM_MIPS, EM_SPARC,
};

static void
add_machine(struct runs *r, unsigned machine, unsigned elf_class,
    unsigned data)
{
	if (r->nm == RUNS_MAX)
		return;
	r->m[r->nm].machine = (unsigned short)machine;
	r->m[r->nm].elf_class = (unsigned char)elf_class;
	r->m[r->nm].data = (unsigned char)data;
	r->nm++;
}

/* The running kernel's machine; unknown: every machine runs. */
static void
kernel_machines(struct runs *r)
{
	char name[65] = "";
	struct utsname u;
	size_t i, k;
	FILE *f;

	if ((f = fopen("/proc/sys/kernel/arch", "re")) != NULL) {
		if (fgets(name, sizeof(name), f) == NULL)
			name[0] = '\0';
		fclose(f);
		name[strcspn(name, "\n")] = '\0';
	}
	if (name[0] == '\0' && uname(&u) == 0)
		snprintf(name, sizeof(name), "%s", u.machine);
	for (i = 0; i < sizeof(arches) / sizeof(arches[0]); i++)
		if (strncmp(name, arches[i].name, strlen(arches[i].name)) == 0)
			break;
	if (i == sizeof(arches) / sizeof(arches[0])) {
		r->any = true;
		return;
	}
	for (k = 0; k < 3 && arches[i].machine[k] != 0; k++)
		add_machine(r, arches[i].machine[k], 0, arches[i].data);
}

/* The library's word on a dynamic linker: its machine. */
static int
interp_seen(void *arg, const char *member, const struct chstk_info *info,
    const struct chstk_error *err)
{
	struct runs *r = arg;

	(void)err;
	if (member == NULL && info != NULL)
		add_machine(r, info->machine, info->elf_class, info->data);
	return 0;
}

/* The machines of the dynamic linkers the root holds, as the library
   reads them: from the bytes rootfs_read gives, which an image kept in
   its layer pass (an image's files have no descriptor). */
static void
interp_machines_of(struct runs *r, const struct rootfs *fs)
{
	struct chstk_error err;
	const char *interp;
	unsigned cls;
	size_t i, n;
	char *d;

	for (i = 0; i < sizeof(interp_machines) / sizeof(interp_machines[0]);
	    i++)
		for (cls = ELFCLASS32; cls <= ELFCLASS64; cls++) {
			if ((interp = ldso_default_interp(interp_machines[i],
			    cls)) == NULL ||
			    (d = rootfs_read(fs, interp, LDSO_MAX, &n)) == NULL)
				continue;
			chstk_scan_mem(d, n, interp_seen, r, &err);
			free(d);
		}
}

/* A handler's magic at offset off, as the ELF header bytes it matches. */
static void
add_format(struct runs *r, unsigned long off, const unsigned char *magic,
    size_t n, const unsigned char *mask, size_t nmask)
{
	struct binfmt b;
	size_t k;

	if (off != 0 || n < MAGIC_MIN || r->nfmt == FMT_MAX)
		return;
	memset(&b, 0, sizeof(b));
	for (k = 0; k < n && k < BINFMT_LEN; k++) {
		b.mask[k] = k < nmask ? mask[k] : 0xff;
		b.magic[k] = magic[k] & b.mask[k];
	}
	/* A handler of ELF files matches their magic number whole; one that
	   does not cannot tell them (and serves none, by runs_serve()). */
	for (k = 0; k < MAGIC_MIN; k++)
		if (b.mask[k] != 0xff)
			return;
	r->fmt = xrealloc(r->fmt, (r->nfmt + 1) * sizeof(*r->fmt));
	r->fmt[r->nfmt++] = b;
}

static int
hexval(int c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ?
	    c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* The bytes of s[0..len): "\xHH" escapes (escaped is true: the magic of
   a rule as registered), else plain hex digits (as the kernel shows it). */
static size_t
decode(const char *s, size_t len, bool escaped, unsigned char *out)
{
	size_t i = 0, n = 0, at;
	bool hex;

	while (i < len && n < 128) {
		hex = !escaped || (s[i] == '\\' && i + 1 < len &&
		    s[i + 1] == 'x');
		if (!hex) {
			out[n++] = (unsigned char)s[i++];
			continue;
		}
		at = escaped ? i + 2 : i;
		if (at + 1 >= len || hexval(s[at]) < 0 ||
		    hexval(s[at + 1]) < 0)
			break;
		out[n++] = (unsigned char)(hexval(s[at]) << 4 |
		    hexval(s[at + 1]));
		i = at + 2;
	}
	return n;
}

/* One binfmt.d line, ":name:type:offset:magic:mask:interpreter:flags",
   its first character the separator. */
static void
conf_line(struct runs *r, const char *line, size_t len)
{
	const char *f[6], *end = line + len, *p;
	unsigned char magic[128], mask[128];
	size_t n = 0, flen[6];

	if (len < 2 || line[0] == '#' || line[0] == ';')
		return;
	for (p = line + 1; n < 6 && p <= end; n++) {
		const char *q = memchr(p, line[0], (size_t)(end - p));

		f[n] = p;
		flen[n] = q != NULL ? (size_t)(q - p) : (size_t)(end - p);
		p += flen[n] + 1;
	}
	if (n < 5 || flen[1] != 1 || f[1][0] != 'M')
		return;
	add_format(r, strtoul(f[2], NULL, 10), magic,
	    decode(f[3], flen[3], true, magic), mask,
	    decode(f[4], flen[4], true, mask));
}

/* binfmt-support's admin file: package, type, offset, magic, mask,
   interpreter, a line each (Binfmt/Format.pm). */
static void
binfmts_file(struct runs *r, const char *text)
{
	const char *line[5];
	unsigned char magic[128], mask[128];
	size_t i, len[5];
	const char *p = text;

	for (i = 0; i < 5; i++) {
		line[i] = p;
		len[i] = strcspn(p, "\n");
		p += len[i];
		if (*p == '\0' && i < 4)
			return;
		p++;
	}
	if (len[1] != 5 || strncmp(line[1], "magic", 5) != 0)
		return;
	add_format(r, strtoul(line[2], NULL, 10), magic,
	    decode(line[3], len[3], true, magic), mask,
	    decode(line[4], len[4], true, mask));
}

/* A handler the kernel holds: "enabled", "offset N", "magic HEX",
   "mask HEX" lines. */
static void
proc_entry(struct runs *r, const char *text)
{
	unsigned char magic[128], mask[128];
	size_t nmagic = 0, nmask = 0, len;
	unsigned long off = 0;
	bool enabled = false;
	const char *p;

	for (p = text; *p != '\0'; p += len + (p[len] == '\n')) {
		len = strcspn(p, "\n");
		if (len == 7 && strncmp(p, "enabled", 7) == 0)
			enabled = true;
		else if (strncmp(p, "offset ", 7) == 0)
			off = strtoul(p + 7, NULL, 10);
		else if (strncmp(p, "magic ", 6) == 0)
			nmagic = decode(p + 6, len - 6, false, magic);
		else if (strncmp(p, "mask ", 5) == 0)
			nmask = decode(p + 5, len - 5, false, mask);
	}
	if (enabled)
		add_format(r, off, magic, nmagic, mask, nmask);
}

/* The directories of the handlers registered at boot, with the suffix
   of their files (NULL: any). */
static const struct {
	const char *dir, *suffix;
} boot_confs[] = {
	{ "/etc/binfmt.d", ".conf" }, { "/run/binfmt.d", ".conf" },
	{ "/usr/lib/binfmt.d", ".conf" }, { "/var/lib/binfmts", NULL },
};

size_t
runs_keeps(const char *path)
{
	const char *base = strrchr(path, '/');
	size_t i, len, sl;

	for (i = 0; i < sizeof(boot_confs) / sizeof(boot_confs[0]); i++) {
		len = strlen(boot_confs[i].dir);
		sl = boot_confs[i].suffix ? strlen(boot_confs[i].suffix) : 0;
		if (base == path + len &&
		    strncmp(path, boot_confs[i].dir, len) == 0 &&
		    base[1] != '.' && strlen(base + 1) >= sl &&
		    (sl == 0 || strcmp(path + strlen(path) - sl,
		    boot_confs[i].suffix) == 0))
			return CONF_MAX;
	}
	return 0;
}

/* A file of the kernel's (its size says 0) in the root, read until its
   end, at most CONF_MAX - 1 bytes; NULL when it cannot be read. */
static char *
read_proc(const struct rootfs *fs, const char *path)
{
	char *text;
	size_t got = 0;
	ssize_t n = 1;
	int fd;

	if ((fd = rootfs_open(fs, path)) == -1)
		return NULL;
	text = xmalloc(CONF_MAX);
	while (got < CONF_MAX - 1 &&
	    (n = read(fd, text + got, CONF_MAX - 1 - got)) > 0)
		got += (size_t)n;
	close(fd);
	text[got] = '\0';
	if (n < 0) {
		free(text);
		return NULL;
	}
	return text;
}

/* The names rootfs_list gives, kept. */
struct names {
	char **v;
	size_t n;
};

static void
add_name(void *arg, const char *name)
{
	struct names *l = arg;

	l->v = xrealloc(l->v, (l->n + 1) * sizeof(*l->v));
	l->v[l->n++] = xstrdup(name);
}

/* Each file of the directory dir in the root whose name ends in suffix
   (NULL: any), read whole, to fn: through rootfs_read, which has the
   bytes an image's layer pass kept (runs_keeps), or where proc is true
   through read_proc. */
static void
each_file(const struct rootfs *fs, const char *dir, const char *suffix,
    bool proc, void (*fn)(struct runs *r, const char *text), struct runs *r)
{
	size_t i, len, sl = suffix ? strlen(suffix) : 0;
	struct names l = { NULL, 0 };
	const char *name;
	char path[512], *text;

	rootfs_list(fs, dir, add_name, &l);
	for (i = 0; i < l.n; i++) {
		name = l.v[i];
		len = strlen(name);
		if (name[0] != '.' && (sl == 0 || (len >= sl &&
		    strcmp(name + len - sl, suffix) == 0)) &&
		    (size_t)snprintf(path, sizeof(path), "%s/%s", dir,
		    name) < sizeof(path) &&
		    (text = proc ? read_proc(fs, path) :
		    rootfs_read(fs, path, CONF_MAX, &len)) != NULL) {
			fn(r, text);
			free(text);
		}
		free(l.v[i]);
	}
	free(l.v);
}

/* A binfmt.d file: one rule a line. */
static void
conf_file(struct runs *r, const char *text)
{
	const char *p;
	size_t len;

	for (p = text; *p != '\0'; p += len + (p[len] == '\n')) {
		len = strcspn(p, "\n");
		conf_line(r, p, len);
	}
}

void
runs_read(struct runs *r, const struct rootfs *fs, bool this_machine)
{
	char *status;
	size_t i;

	memset(r, 0, sizeof(*r));
	if (this_machine)
		kernel_machines(r);
	interp_machines_of(r, fs);
	/* A root without a dynamic linker of a machine known here (static
	   programs only, or one cut down) says nothing of what it runs. */
	if (r->nm == 0)
		r->any = true;
	for (i = 0; i < sizeof(boot_confs) / sizeof(boot_confs[0]); i++)
		each_file(fs, boot_confs[i].dir, boot_confs[i].suffix, false,
		    boot_confs[i].suffix != NULL ? conf_file : binfmts_file,
		    r);
	/* The handlers the running kernel holds, when enabled. */
	if (this_machine && (status = read_proc(fs,
	    "/proc/sys/fs/binfmt_misc/status")) != NULL) {
		if (strncmp(status, "enabled", 7) == 0)
			each_file(fs, "/proc/sys/fs/binfmt_misc", NULL, true,
			    proc_entry, r);
		free(status);
	}
}

void
runs_free(struct runs *r)
{
	free(r->fmt);
	r->fmt = NULL;
	r->nfmt = 0;
}
