#!/usr/bin/env bash
#
# Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
# build-in-ompi-tree.sh [PREFIX]
#
# Builds coll/shmcico the way Open MPI builds its own components: inside
# an Open MPI 4.1 source tree, through Open MPI's autogen.pl, configure
# and make.  The source is Debian's package (apt-get source openmpi, with
# deb-src enabled, as on a stock Debian 12); the component directory of
# this tree is copied into it as ompi/mca/coll/shmcico, with its in-tree
# files (configure.m4, Makefile.am, owner.txt).  The result is installed
# into PREFIX (default /opt/coll-shmcico/openmpi-4.1-in-tree) and checked:
# ompi_info lists the component, and a 2-process job is served by it.
#
# Takes 30 to 60 minutes on 2 cores; not part of the test suite.  Logs go
# to $WORK (default /var/tmp/coll-shmcico-in-tree).

set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
prefix=${1:-/opt/coll-shmcico/openmpi-4.1-in-tree}
work=${WORK:-/var/tmp/coll-shmcico-in-tree}

log() { echo "build-in-ompi-tree: $*"; }

mkdir -p "$work"
cd "$work"
if [ "$(id -u)" = 0 ]; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq dpkg-dev build-essential \
        autoconf automake libtool flex perl libhwloc-dev libnuma-dev >/dev/null
fi
# the source of the Open MPI installed here (4.1.4-3 on Debian 12), not
# whatever newer version another deb-src line offers
version=$(dpkg-query -W -f='${source:Version}' libopenmpi-dev 2>/dev/null || true)
tree=$(ls -d openmpi-4.1*/ 2>/dev/null | head -n 1 || true)
if [ -z "$tree" ]; then
    log "fetching the source package: apt-get source openmpi${version:+=$version}"
    apt-get source "openmpi${version:+=$version}" >"$work/source.log" 2>&1 \
        || { tail -n 20 "$work/source.log"; exit 1; }
    tree=$(ls -d openmpi-4.1*/ 2>/dev/null | head -n 1 || true)
    [ -n "$tree" ] || { log "no Open MPI 4.1 source tree in $work"; exit 1; }
fi
tree=$work/${tree%/}
log "Open MPI source tree: $tree"

log "copying the component into ompi/mca/coll/shmcico"
rm -rf "$tree/ompi/mca/coll/shmcico"
mkdir -p "$tree/ompi/mca/coll/shmcico"
(cd "$src/ompi/mca/coll/shmcico" \
    && cp ./*.c ./*.h Makefile.am configure.m4 owner.txt "$tree/ompi/mca/coll/shmcico/")

cd "$tree"
log "running Open MPI's autogen.pl (log: $work/autogen.log)"
# --force: a release tarball refuses to rerun it otherwise; a new component
# needs it
./autogen.pl --force >"$work/autogen.log" 2>&1 || { tail -n 30 "$work/autogen.log"; exit 1; }
log "configuring for $prefix (log: $work/configure.log)"
./configure --prefix="$prefix" --with-hwloc=external --disable-mpi-fortran \
    --disable-oshmem --disable-mpi-java >"$work/configure.log" 2>&1 \
    || { tail -n 30 "$work/configure.log"; exit 1; }
grep -q 'checking if MCA component coll:shmcico can compile... yes' "$work/configure.log" \
    || { log "Open MPI's configure did not take the component"; exit 1; }
log "building (log: $work/make.log)"
make -j"$(nproc)" >"$work/make.log" 2>&1 || { tail -n 40 "$work/make.log"; exit 1; }
make install >"$work/install.log" 2>&1 || { tail -n 40 "$work/install.log"; exit 1; }

log "checking the installed Open MPI"
"$prefix/bin/ompi_info" | grep 'MCA coll: shmcico'
"$prefix/bin/mpicc" -o "$work/check" "$src/docs/examples/mpit_counters.c"
run_as_root=()
[ "$(id -u)" = 0 ] && run_as_root=(--allow-run-as-root)
"$prefix/bin/mpirun" "${run_as_root[@]}" --oversubscribe -np 2 "$work/check" \
    | tee "$work/check.log"
grep -Eq 'coll_shmcico_bcast_served +[0-9]+ +\+10$' "$work/check.log" \
    || { log "the in-tree component did not serve the Bcasts"; exit 1; }
log "done: Open MPI with coll/shmcico built in, in $prefix"
