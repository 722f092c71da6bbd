# Rules for packaging/ (included by the top-level Makefile.am).
