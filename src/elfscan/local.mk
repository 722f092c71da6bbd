# Rules for src/elfscan/ (included by the top-level Makefile.am).
