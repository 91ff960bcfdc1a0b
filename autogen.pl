#!/usr/bin/env perl
#
# Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
# Generate the configure script of the out-of-tree build (like Open MPI's
# own autogen.pl, which builds the in-tree component).

use strict;
use warnings;
use File::Basename;
use Cwd 'abs_path';

chdir(dirname(abs_path($0))) or die "autogen.pl: cannot enter the source tree\n";
foreach my $tool ("autoreconf", "automake", "libtoolize") {
    system("command -v $tool >/dev/null 2>&1") == 0
        or die "autogen.pl: $tool not found (Debian/Ubuntu: apt-get install autoconf automake libtool)\n";
}
mkdir "config/aux" unless -d "config/aux";
print "autogen.pl: running autoreconf\n";
system("autoreconf", "--force", "--install", "--warnings=no-portability") == 0
    or die "autogen.pl: autoreconf failed\n";
print "autogen.pl: done; now run ./configure\n";
