# libchstk: the marking. The core is a convenience library so that the unit
# tests can reach the internal modules; the installed library exports only
# the public chstk_* API.
noinst_LTLIBRARIES = lib/libchstk-core.la
lib_libchstk_core_la_SOURCES = \
	lib/chstk.h lib/internal.h \
	lib/error.c lib/version.c lib/state.c lib/stream.c lib/source.c \
	lib/edit.c \
	lib/image.c lib/encode.c lib/phdr.c lib/object.c lib/archive.c \
	lib/hardening.c lib/buildid.c lib/dwarf.c lib/annobin.c lib/code.c \
	lib/scan.c lib/rewrite.c lib/update.c
lib_libchstk_core_la_CFLAGS = $(AM_CFLAGS) $(LIBDW_CFLAGS) $(LIBELF_CFLAGS)
lib_libchstk_core_la_LIBADD = $(LIBDW_LIBS) $(LIBELF_LIBS)

lib_LTLIBRARIES += lib/libchstk.la
lib_libchstk_la_SOURCES =
lib_libchstk_la_LIBADD = lib/libchstk-core.la $(LIBDW_LIBS) $(LIBELF_LIBS)
lib_libchstk_la_LDFLAGS = $(AM_LDFLAGS) -version-info $(LIBCHSTK_LT_VERSION) \
	-export-symbols-regex '^chstk_[a-z]'

include_HEADERS += lib/chstk.h
pkgconfig_DATA += lib/libchstk.pc
