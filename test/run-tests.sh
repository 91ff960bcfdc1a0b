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
# Two passes:
#  1. the whole suite against the system's Open MPI (4.1 on Debian 12),
#     in this tree, then its valgrind and 64-bit suites (make -C test
#     check-valgrind, check-large);
#  2. the MPI part of the suite against Debian 13's packaged Open MPI 5.0,
#     with the user buffers on transparent huge pages (pass 1 has them on
#     4 KiB pages), in a Debian 13 root made (once, then kept) by
#     test/debian13-root.sh:
#     the tree's distribution in build-deb13/, configured and built
#     inside the root with the internal headers Debian's package lacks
#     taken from its source package; then the 64-bit suite on one node
#     against the same build (check-large LARGE_SUITE=large-one-node:
#     5.0's single copy goes through smsc).  SHMCICO_DEBIAN13_PASS=no
#     leaves this pass out (it needs root, and debootstrap the first
#     time).
# When SHMCICO_OMPI5_PREFIX names an Open MPI 5.0 built by
# test/build-openmpi5.sh (such as /opt/coll-shmcico/openmpi-5.0), a third
# pass runs the MPI part of the suite against it, from build-ompi5/.
# The last line of the output is "N passed, N failed" over every pass (a
# build that fails counts as one failed test).

set -u
cd "$(dirname "$0")/.."

log=$(mktemp)
trap 'rm -f "$log"' EXIT
passed=0
failed=0
status=0
timings=()

# summary_of LOG: "PASSED FAILED" from the suite's last line
summary_of() {
    grep -E '^[0-9]+ passed, [0-9]+ failed$' "$1" | tail -n 1 \
        | sed -e 's/ passed, / /' -e 's/ failed//'
}

# count NAME START PIPESTATUS: add the pass's results to the totals
count() {
    local name=$1 start=$2 pass_status=$3 p f
    read -r p f <<<"$(summary_of "$log")"
    p=${p:-0} f=${f:-1}
    # a pass that failed (make, a build, a script) counts one failure
    # even where its last summary said none
    if [ "$pass_status" -ne 0 ]; then
        status=1
        [ "$f" -gt 0 ] || f=1
    fi
    [ "$f" -eq 0 ] || status=1      # a failed case fails the run, whatever make said
    passed=$((passed + p))
    failed=$((failed + f))
    timings+=("$name: $p passed, $f failed in $((SECONDS - start)) s")
}

start=$SECONDS
(
    set -e
    # valgrind: check-valgrind; python3: the configure of MPICH's tests
    test/install-deps.sh valgrind python3
    ./autogen.pl
    ./configure
    make -j"$(nproc)"
    # the test programs on every core (make check would build them one
    # after another: a minute here), then the suite
    make -s --no-print-directory -j"$(nproc)" -C test check-programs
    make -s --no-print-directory check
) 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}      # before any other command resets it
system="Open MPI $(ompi_info --version 2>/dev/null | head -n 1 | sed 's/.*v//') (system)"
count "$system" "$start" "$rc"

# the suites "make check" leaves out, against the same build: every rank
# under valgrind memcheck (about a minute), and 64-bit sizes for real
# (blocks over 2^31 bytes on one node and across simulated nodes: 15 GiB
# of memory, a few minutes)
for extra in check-valgrind check-large; do
    echo "== make -C test $extra"
    start=$SECONDS
    make -s --no-print-directory -C test "$extra" 2>&1 | tee "$log"
    rc=${PIPESTATUS[0]}
    count "$system, $extra" "$start" "$rc"
done

if [ "${SHMCICO_DEBIAN13_PASS:-yes}" != no ]; then
    echo "== the MPI suite again, against Debian 13's packaged Open MPI 5.0 in a Debian 13 root" \
         "(build in build-deb13/)"
    start=$SECONDS
    (
        set -e
        test/debian13-root.sh make
        rm -rf build-deb13
        make -s --no-print-directory distdir distdir=build-deb13
        test/debian13-root.sh run --bind "$PWD/build-deb13" -- bash -c '
            set -e
            cd "$1"
            echo "Debian $(cat /etc/debian_version), $(ompi_info --version | head -n 1)"
            ./configure -q
            make -s -j"$(nproc)"
            make -s --no-print-directory -j"$(nproc)" -C test check-programs
            SUITE_HUGE_PAGES=1 make -s --no-print-directory -C test check SUITE=mpi' bash "$PWD/build-deb13"
    ) 2>&1 | tee "$log"
    rc=${PIPESTATUS[0]}
    deb13="Open MPI $(sed -n 's/^openmpi //p' "$(test/debian13-root.sh path)/.coll-shmcico-root" \
                           2>/dev/null) (Debian 13 root)"
    count "$deb13" "$start" "$rc"

    # (after a pass that failed before it built, this would only count
    # the same failure again)
    if [ -f build-deb13/test/Makefile ]; then
        echo "== make -C test check-large LARGE_SUITE=large-one-node, against the same build"
        start=$SECONDS
        test/debian13-root.sh run --bind "$PWD/build-deb13" -- \
            make -s --no-print-directory -C "$PWD/build-deb13/test" check-large \
                 LARGE_SUITE=large-one-node 2>&1 | tee "$log"
        rc=${PIPESTATUS[0]}
        count "$deb13, check-large (one node)" "$start" "$rc"
    else
        echo "not run: check-large against Debian 13's Open MPI 5.0 (its build did not start)"
    fi
else
    echo "not run: the MPI suite and check-large against Debian 13's Open MPI 5.0" \
         "(SHMCICO_DEBIAN13_PASS=no)"
fi

ompi5=${SHMCICO_OMPI5_PREFIX:-}
if [ -n "$ompi5" ]; then
    echo "== the MPI suite again, against the Open MPI in $ompi5 (build in build-ompi5/)"
    start=$SECONDS
    (
        set -e
        [ -x "$ompi5/bin/mpicc" ] || { echo "no Open MPI in $ompi5 (test/build-openmpi5.sh makes one)"; exit 1; }
        rm -rf build-ompi5
        make -s --no-print-directory distdir distdir=build-ompi5
        cd build-ompi5
        ./configure -q --with-ompi="$ompi5"
        make -s -j"$(nproc)"
        make -s --no-print-directory -j"$(nproc)" -C test check-programs
        make -s --no-print-directory -C test check SUITE=mpi
    ) 2>&1 | tee "$log"
    rc=${PIPESTATUS[0]}
    count "Open MPI in $ompi5" "$start" "$rc"
fi

echo "== passes"
printf '  %s\n' "${timings[@]}"
echo "$passed passed, $failed failed"
exit "$status"
