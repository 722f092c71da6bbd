#!/usr/bin/perl
# The chstk addon: "dh $@ --with chstk" runs dh_chstk right before dh_strip
# (after dh_dwz), once the files are installed and before dh_strip detaches
# their debugging information: the -dbgsym package's files then carry the
# marking dh_chstk gave, as do dh_makeshlibs, dh_shlibdeps and dh_builddeb
# after it. (dh loads this file into its addon API, which provides
# insert_before.)
use strict;
use warnings;

insert_before('dh_strip', 'dh_chstk');

1;
