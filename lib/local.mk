# Rules for lib/ (included by the top-level Makefile.am).
