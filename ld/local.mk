# Rules for ld/ (included by the top-level Makefile.am).

# The ASCII-armor linker script, for users to pass with -Wl,-T.
armordir = $(pkgdatadir)/ld
dist_armor_DATA = ld/elf_i386_small.x
dist_man_MANS += man/elf_i386_small.7
