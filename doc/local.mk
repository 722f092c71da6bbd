# Documents that are not man pages.
EXTRA_DIST += doc/reliability.md
