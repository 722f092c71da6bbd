# Manual pages (mdoc).
dist_man_MANS += man/chstk.1 man/elfscan.1
