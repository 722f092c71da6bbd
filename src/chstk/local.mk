# Rules for src/chstk/ (included by the top-level Makefile.am).
