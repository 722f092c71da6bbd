# Rules for ld/ (included by the top-level Makefile.am).

# The ASCII-armor linker script, for users to pass with -Wl,-T.
armordir = $(pkgdatadir)/ld
dist_armor_DATA = ld/elf_i386_small.x
dist_man_MANS += man/elf_i386_small.7

# Its tests (tests/armor, registered in tests/local.mk) build real programs
# with the compilers configure found; make does not pass them through the
# environment, so they read them from this file.
check_SCRIPTS += tests/armor/armor-env.sh
CLEANFILES += tests/armor/armor-env.sh
tests/armor/armor-env.sh: Makefile
	$(AM_V_GEN)$(MKDIR_P) tests/armor && \
	{ echo "CC='$(CC)'"; echo "CXX='$(CXX)'"; } >$@-t && mv $@-t $@
