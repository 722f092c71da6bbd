# Documents that are not man pages.
EXTRA_DIST += doc/reliability.md
EXTRA_DIST += doc/suite/elfscan-job.yaml doc/suite/elfscan-array.sh
