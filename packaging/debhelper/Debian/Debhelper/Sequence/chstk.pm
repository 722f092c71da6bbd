#!/usr/bin/perl
# The chstk addon: "dh $@ --with chstk" runs dh_chstk after dh_strip, once
# the files have their final form and before dh_makeshlibs, dh_shlibdeps
# and dh_builddeb read them. (dh loads this file into its addon API, which
# provides insert_after.)
use strict;
use warnings;

insert_after('dh_strip', 'dh_chstk');

1;
