#!/usr/bin/env bash
#
# Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
# build-openmpi5.sh [PREFIX]
#
# Builds Open MPI 5.0 from Debian 13 (trixie)'s source package into PREFIX
# (default /opt/coll-shmcico/openmpi-5.0), with the developer headers a
# coll component builds against, so that coll/shmcico can be built and
# tested for the 5.0 series on a Debian 12 machine:
#
#   test/build-openmpi5.sh                      # once: 30-60 min on 2 cores
#   ./configure --with-ompi=/opt/coll-shmcico/openmpi-5.0 && make && make check
#
# The result is cached: when PREFIX already holds a complete build of the
# same source version, nothing is done.  Needs root for apt (deb-src of
# trixie is added as its own source list; no binary package of trixie is
# installed) and about 2 GB of disk while building.  The Open MPI tarball
# includes PMIx and PRRTE, built with it; hwloc and libevent are Debian
# 12's.

set -eu
prefix=${1:-/opt/coll-shmcico/openmpi-5.0}
work=${OMPI5_BUILD_DIR:-/var/tmp/coll-shmcico-openmpi5}
stamp=$prefix/.coll-shmcico-build

log() { echo "build-openmpi5: $*"; }

add_trixie_sources() {
    local list=/etc/apt/sources.list.d/coll-shmcico-trixie-src.sources
    if ! grep -rqs '^Suites:.*trixie' /etc/apt/sources.list.d/ \
        && ! grep -qs 'deb-src .* trixie ' /etc/apt/sources.list; then
        log "adding the trixie source packages to apt ($list)"
        cat >"$list" <<'EOF'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: trixie
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
    fi
    apt-get update -qq
}

fetch_source() {
    mkdir -p "$work"
    cd "$work"
    if ! ls openmpi_5.*.orig.tar.* >/dev/null 2>&1; then
        add_trixie_sources
        log "downloading the source package openmpi/trixie"
        apt-get source --download-only openmpi/trixie
    fi
    tarball=$(ls openmpi_5.*.orig.tar.* | sort -V | tail -n 1)
    version=$(echo "$tarball" | sed -e 's/^openmpi_//' -e 's/\.orig\.tar\..*//')
}

install_build_deps() {
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
        build-essential libhwloc-dev libevent-dev zlib1g-dev perl python3 >/dev/null
}

# --with-devel-headers leaves out headers that installed ones include
# (opal_config.h includes opal/mca/threads/pthreads/threads_pthreads_mutex.h,
# for one): copy every header of the source tree that is not installed
complete_headers() {
    local src=$1 inc=$prefix/include/openmpi added=0
    cd "$src"
    while read -r header; do
        if [ ! -e "$inc/$header" ]; then
            install -D -m 644 "$header" "$inc/$header"
            added=$((added + 1))
        fi
    done < <(find opal ompi -name '*.h')
    log "completed the developer headers: $added added"
}

build() {
    local src=$work/openmpi-$version
    rm -rf "$src"
    tar xf "$work/$tarball" -C "$work"
    cd "$src"
    log "configuring Open MPI $version for $prefix"
    ./configure --prefix="$prefix" --with-devel-headers \
        --with-hwloc=external --with-libevent=external \
        --with-pmix=internal --with-prrte=internal \
        --disable-mpi-fortran --disable-oshmem --disable-mpi-java \
        >"$work/configure.log" 2>&1 \
        || { tail -n 30 "$work/configure.log"; exit 1; }
    log "building (log: $work/make.log)"
    make -j"$(nproc)" >"$work/make.log" 2>&1 || { tail -n 40 "$work/make.log"; exit 1; }
    make install >"$work/install.log" 2>&1 || { tail -n 40 "$work/install.log"; exit 1; }
    complete_headers "$src"
    echo "$version" >"$stamp"
    cd "$work"
    rm -rf "$src"
}

fetch_source
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$version" ] \
    && [ -f "$prefix/include/openmpi/ompi/mca/coll/coll.h" ] \
    && [ -f "$prefix/include/openmpi/opal/mca/threads/pthreads/threads_pthreads_mutex.h" ]; then
    log "Open MPI $version already built in $prefix"
    exit 0
fi
install_build_deps
build
log "Open MPI $version installed in $prefix ($("$prefix/bin/ompi_info" --version | head -n 1))"
