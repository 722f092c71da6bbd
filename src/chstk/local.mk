# chstk, the command line tool.
bin_PROGRAMS += src/chstk/chstk
src_chstk_chstk_SOURCES = src/chstk/main.c
src_chstk_chstk_LDADD = lib/libchstk.la
