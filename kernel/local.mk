# Rules for kernel/ (included by the top-level Makefile.am).
