#!/usr/bin/env bash
#
# Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
# Build coll/shmcico from this source tree and run every test.  On a
# fresh Debian 12 (or Ubuntu) machine as root it first installs the
# packages it needs.
#
# The suite runs against the system's Open MPI 4.1.  When an Open MPI 5.0
# built by test/build-openmpi5.sh is found (in $SHMCICO_OMPI5_PREFIX,
# default /opt/coll-shmcico/openmpi-5.0), the component is built again
# for it, in build-ompi5/ from the tree's distribution, and the MPI part
# of the suite runs against it too; otherwise the output says that this
# part was skipped.  The last line of the output is "N passed, N failed"
# over everything (a build that fails counts as one failed test).

set -u
cd "$(dirname "$0")/.."
ompi5=${SHMCICO_OMPI5_PREFIX:-/opt/coll-shmcico/openmpi-5.0}

log=$(mktemp)
trap 'rm -f "$log"' EXIT

# summary_of LOG: "PASSED FAILED" from the suite's last line
summary_of() {
    grep -E '^[0-9]+ passed, [0-9]+ failed$' "$1" | tail -n 1 \
        | sed -e 's/ passed, / /' -e 's/ failed//'
}

(
    set -e
    test/install-deps.sh
    ./autogen.pl
    ./configure
    make -j"$(nproc)"
    make -s --no-print-directory check
) 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
read -r passed failed <<<"$(summary_of "$log")"
passed=${passed:-0} failed=${failed:-1}

if [ -x "$ompi5/bin/mpicc" ] && [ -f "$ompi5/include/openmpi/ompi/mca/coll/coll.h" ]; then
    echo "== the suite again, against Open MPI $("$ompi5/bin/ompi_info" --version \
        | head -n 1 | sed 's/.*v//') in $ompi5 (build in build-ompi5/)"
    (
        set -e
        rm -rf build-ompi5
        make -s --no-print-directory distdir distdir=build-ompi5
        cd build-ompi5
        ./configure -q --with-ompi="$ompi5"
        make -s -j"$(nproc)"
        make -s --no-print-directory -C test check SUITE=mpi
    ) 2>&1 | tee "$log"
    [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
    read -r passed5 failed5 <<<"$(summary_of "$log")"
    passed=$((passed + ${passed5:-0}))
    failed=$((failed + ${failed5:-1}))
else
    echo "skipped: the suite against Open MPI 5.0 (no build in $ompi5;" \
         "test/build-openmpi5.sh makes one)"
fi

echo "$passed passed, $failed failed"
exit "$status"
