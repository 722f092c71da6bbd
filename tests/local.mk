# Rules for tests/ (included by the top-level Makefile.am).
