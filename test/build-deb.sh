#!/usr/bin/env bash
#
# Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
# build-deb.sh [OUTDIR]
#
# Builds the Debian package openmpi-coll-shmcico from this source tree
# (the files git knows, committed or not) in a scratch copy, so that the
# tree itself is left as it is, and puts the .deb into OUTDIR (default
# ./packages).  Installs the build tools first (as root).  Install the
# result with dpkg -i: the component lands in Open MPI's own component
# directory and is selected by priority with no flag.

set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
out=$(mkdir -p "${1:-packages}" && cd "${1:-packages}" && pwd)
version=$(dpkg-parsechangelog -l "$src/debian/changelog" -S Version 2>/dev/null || echo 0)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if [ "$(id -u)" = 0 ]; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debhelper dpkg-dev \
        autoconf automake libtool libopenmpi-dev openmpi-bin libhwloc-dev libnuma-dev \
        >/dev/null
fi
mkdir "$work/openmpi-coll-shmcico-$version"
(cd "$src" && git ls-files -co --exclude-standard | tar cf - -T -) \
    | tar xf - -C "$work/openmpi-coll-shmcico-$version"
(cd "$work/openmpi-coll-shmcico-$version" && dpkg-buildpackage -us -uc -b) \
    >"$out/build.log" 2>&1 || { tail -n 30 "$out/build.log"; exit 1; }
cp "$work"/*.deb "$out"/
for deb in "$out"/openmpi-coll-shmcico_*.deb; do
    echo "built $deb:"
    dpkg-deb -c "$deb" | awk '$NF ~ /\.so$|bin\// { print "    " $NF }'
done
