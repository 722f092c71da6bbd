# Rules for ld/ (included by the top-level Makefile.am).
