# Manual pages (mdoc).
dist_man_MANS += man/chstk.1 man/elfscan.1 man/elfscan-hardening.7 \
	man/elfscan-inputs.7 man/elfscan-output.7 man/elfscan-suites.7 \
	man/elfscan-system.7
