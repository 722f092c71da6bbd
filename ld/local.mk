# Rules for ld/ (included by the top-level Makefile.am).

# The ASCII-armor linker script, for users to pass with -Wl,-T.
armordir = $(pkgdatadir)/ld
dist_armor_DATA = ld/elf_i386_small.x
dist_man_MANS += man/elf_i386_small.7

# Its tests build real programs from these sources at make check time and
# judge them with readelf, eu-elflint and the running kernel.
armor_tests = \
	tests/armor/c-program.sh \
	tests/armor/cxx-program.sh \
	tests/armor/static.sh \
	tests/armor/limits.sh \
	tests/armor/pie.sh \
	tests/armor/lld.sh \
	tests/armor/gold.sh
TESTS += $(armor_tests)
dist_check_SCRIPTS += $(armor_tests)
EXTRA_DIST += \
	tests/armor/common.sh \
	tests/armor/fixture.c \
	tests/armor/fixture-cxx.cc \
	tests/armor/selfmaps.c \
	tests/armor/selfmaps.h

# The tests compile with the compilers configure found; make does not pass
# them through the environment, so they read them from this file.
check_SCRIPTS += tests/armor/armor-env.sh
CLEANFILES += tests/armor/armor-env.sh
tests/armor/armor-env.sh: Makefile
	$(AM_V_GEN)$(MKDIR_P) tests/armor && \
	{ echo "CC='$(CC)'"; echo "CXX='$(CXX)'"; } >$@-t && mv $@-t $@

# A failed test keeps its programs in tests/armor/NAME.dir for a look.
clean-local: clean-local-armor
clean-local-armor:
	-rm -rf tests/armor/*.dir
.PHONY: clean-local-armor
