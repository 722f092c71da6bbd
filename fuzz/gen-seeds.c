/*
 * gen-seeds.c - ELF images made byte by byte (tests/unit/elfgen.c) for the
 * seed corpus: programs and objects of both classes and byte orders in
 * every marking, with the layouts the rewrite handles differently (a
 * PT_GNU_STACK to flip, a PT_NULL to reuse, padding to grow the table into,
 * no room at all), and a PIE with a dynamic section. Usage: gen-seeds DIR
 */
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "elfgen.h"

static const char *dir;

static void
put(const char *name, const struct gen *g, const unsigned char *buf,
    size_t size)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/gen-%d%s-%s", dir, g->bits,
	    g->big ? "be" : "le", name);
	f = fopen(path, "wb");
	if (f == NULL || fwrite(buf, 1, size, f) != size || fclose(f) != 0) {
		perror(path);
		exit(1);
	}
}

/* A PIE: PT_PHDR, PT_INTERP, text, data holding a dynamic section. */
static void
pie(const struct gen *g, unsigned char *buf, size_t size)
{
	struct gen g2 = *g;
	size_t es = gen_phentsize(g), eh = gen_ehsize(g), dw = g->bits / 8;
	struct gen_phdr ph[5] = {
		{ PT_PHDR, PF_R, eh, eh, 5 * es, 5 * es, 8 },
		{ PT_INTERP, PF_R, 0x300, 0x300, 16, 16, 1 },
		{ PT_LOAD, PF_R | PF_X, 0, 0, 0x800, 0x800, 0x1000 },
		{ PT_LOAD, PF_R | PF_W, 0x1000, 0x1000, 0x100, 0x100, 0x1000 },
		{ PT_DYNAMIC, PF_R | PF_W, 0x1000, 0x1000, 4 * dw, 4 * dw, dw },
	};

	g2.type = ET_DYN;
	gen_program(&g2, buf, size, ph, 5);
	memcpy(buf + 0x300, "/lib/ld.so.1", 13);
	gen_put(g, buf + 0x1000, (int)dw, DT_FLAGS_1);
	gen_put(g, buf + 0x1000 + dw, (int)dw, DF_1_PIE);
	put("pie", g, buf, size);
}

static void
programs(const struct gen *g)
{
	unsigned char buf[0x1100];
	struct gen_phdr ph[4] = {
		{ PT_LOAD, PF_R | PF_X, 0, 0x400000, 0x800, 0x800, 0x1000 },
		{ PT_LOAD, PF_R | PF_W, 0x1000, 0x401000, 0x100, 0x300, 0x1000 },
		{ PT_GNU_STACK, PF_R | PF_W, 0, 0, 0, 0, 16 },
		{ PT_NULL, 0, 0, 0, 0, 0, 0 },
	};

	gen_program(g, buf, sizeof(buf), ph, 3);
	put("noexec", g, buf, sizeof(buf));
	ph[2].flags |= PF_X;
	gen_program(g, buf, sizeof(buf), ph, 3);
	put("exec", g, buf, sizeof(buf));
	gen_program(g, buf, sizeof(buf), ph, 2);
	put("default-padding", g, buf, sizeof(buf));
	ph[2] = ph[3];
	gen_program(g, buf, sizeof(buf), ph, 3);
	put("default-null", g, buf, sizeof(buf));
	/* No padding: the text runs to the data, so the table must move to
	   the end of the file. */
	ph[0].filesz = ph[0].memsz = 0x1000;
	gen_program(g, buf, sizeof(buf), ph, 2);
	memset(buf + 0x100, 0x90, 0xf00);
	put("default-full", g, buf, sizeof(buf));
	pie(g, buf, sizeof(buf));
}

static void
objects(const struct gen *g)
{
	struct gen o = *g;
	unsigned char buf[1024];
	size_t n;

	o.type = ET_REL;
	n = gen_object(&o, buf, 0, 0);
	put("obj-default.o", g, buf, n);
	n = gen_object(&o, buf, 1, 0);
	put("obj-noexec.o", g, buf, n);
	n = gen_object(&o, buf, 1, SHF_EXECINSTR);
	put("obj-exec.o", g, buf, n);
	n = gen_object(&o, buf, 2, 0);
	put("obj-note-symbol.o", g, buf, n);
}

int
main(int argc, char **argv)
{
	static const struct gen shapes[] = {
		{ 64, 0, ET_EXEC, EM_X86_64 }, { 32, 0, ET_EXEC, EM_386 },
		{ 64, 1, ET_EXEC, EM_S390 }, { 32, 1, ET_EXEC, EM_PPC },
	};
	size_t i;

	if (argc != 2) {
		fprintf(stderr, "usage: gen-seeds DIR\n");
		return 2;
	}
	dir = argv[1];
	for (i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
		programs(&shapes[i]);
		objects(&shapes[i]);
	}
	return 0;
}
