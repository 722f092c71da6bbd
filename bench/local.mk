# Rules for bench/ (included by the top-level Makefile.am).
