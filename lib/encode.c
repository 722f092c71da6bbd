/*
 * encode.c - GElf structures back to bytes in the image's own class and
 * byte order, through libelf's translators, so that the library writes
 * exactly what it means to and never depends on the host's byte order.
 */
#include <string.h>

#include "internal.h"

static int
xlate(const struct chstk_image *im, Elf_Type type, void *mem, size_t memsize,
    size_t n, unsigned char *out, struct chstk_error *err)
{
	Elf_Data src, dst;
	unsigned data = im->ehdr.e_ident[EI_DATA];

	memset(&src, 0, sizeof(src));
	memset(&dst, 0, sizeof(dst));
	src.d_type = type;
	src.d_version = EV_CURRENT;
	src.d_buf = mem;
	src.d_size = memsize;
	dst.d_buf = out;
	dst.d_size = n * chstk__fsize(im, type);
	dst.d_version = EV_CURRENT;
	if ((im->ehdr.e_ident[EI_CLASS] == ELFCLASS64 ?
	    elf64_xlatetof(&dst, &src, data) :
	    elf32_xlatetof(&dst, &src, data)) == NULL)
		return chstk__elferror(err, "cannot encode ELF structure");
	return 0;
}

int
chstk__encode_ehdr(const struct chstk_image *im, const GElf_Ehdr *e,
    unsigned char *out, struct chstk_error *err)
{
	Elf32_Ehdr e32;

	if (im->ehdr.e_ident[EI_CLASS] == ELFCLASS64) {
		Elf64_Ehdr e64 = *e;	/* GElf_Ehdr is Elf64_Ehdr */

		return xlate(im, ELF_T_EHDR, &e64, sizeof(e64), 1, out, err);
	}
	memcpy(e32.e_ident, e->e_ident, EI_NIDENT);
	e32.e_type = e->e_type;
	e32.e_machine = e->e_machine;
	e32.e_version = e->e_version;
	e32.e_entry = (Elf32_Addr)e->e_entry;
	e32.e_phoff = (Elf32_Off)e->e_phoff;
	e32.e_shoff = (Elf32_Off)e->e_shoff;
	e32.e_flags = e->e_flags;
	e32.e_ehsize = e->e_ehsize;
	e32.e_phentsize = e->e_phentsize;
	e32.e_phnum = e->e_phnum;
	e32.e_shentsize = e->e_shentsize;
	e32.e_shnum = e->e_shnum;
	e32.e_shstrndx = e->e_shstrndx;
	return xlate(im, ELF_T_EHDR, &e32, sizeof(e32), 1, out, err);
}

/* One entry at a time, so that any number of entries needs no buffer. */
int
chstk__encode_phdrs(const struct chstk_image *im, const GElf_Phdr *ph,
    size_t n, unsigned char *out, struct chstk_error *err)
{
	size_t fsize = chstk__fsize(im, ELF_T_PHDR);
	size_t i;
	int r;

	for (i = 0; i < n; i++, out += fsize) {
		if (im->ehdr.e_ident[EI_CLASS] == ELFCLASS64) {
			Elf64_Phdr p64 = ph[i];

			r = xlate(im, ELF_T_PHDR, &p64, sizeof(p64), 1, out,
			    err);
		} else {
			Elf32_Phdr p32 = {
				.p_type = ph[i].p_type,
				.p_offset = (Elf32_Off)ph[i].p_offset,
				.p_vaddr = (Elf32_Addr)ph[i].p_vaddr,
				.p_paddr = (Elf32_Addr)ph[i].p_paddr,
				.p_filesz = (Elf32_Word)ph[i].p_filesz,
				.p_memsz = (Elf32_Word)ph[i].p_memsz,
				.p_flags = ph[i].p_flags,
				.p_align = (Elf32_Word)ph[i].p_align,
			};

			r = xlate(im, ELF_T_PHDR, &p32, sizeof(p32), 1, out,
			    err);
		}
		if (r < 0)
			return r;
	}
	return 0;
}

int
chstk__encode_shdr(const struct chstk_image *im, const GElf_Shdr *sh,
    unsigned char *out, struct chstk_error *err)
{
	if (im->ehdr.e_ident[EI_CLASS] == ELFCLASS64) {
		Elf64_Shdr s64 = *sh;

		return xlate(im, ELF_T_SHDR, &s64, sizeof(s64), 1, out, err);
	} else {
		Elf32_Shdr s32 = {
			.sh_name = sh->sh_name,
			.sh_type = sh->sh_type,
			.sh_flags = (Elf32_Word)sh->sh_flags,
			.sh_addr = (Elf32_Addr)sh->sh_addr,
			.sh_offset = (Elf32_Off)sh->sh_offset,
			.sh_size = (Elf32_Word)sh->sh_size,
			.sh_link = sh->sh_link,
			.sh_info = sh->sh_info,
			.sh_addralign = (Elf32_Word)sh->sh_addralign,
			.sh_entsize = (Elf32_Word)sh->sh_entsize,
		};

		return xlate(im, ELF_T_SHDR, &s32, sizeof(s32), 1, out, err);
	}
}
