#!/usr/bin/env bash
#
# Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
# The test suites of coll/shmcico, run from the build's test directory by
# make (the variables below come from the Makefile):
#   run-suite.sh default   every test of "make check" (a few minutes)
#   run-suite.sh mpi       the same without what does not depend on the
#                          Open MPI: the unit tests of the engine (which
#                          do not use MPI), the engine's other tree shapes
#                          and queue geometries, MPICH's collective tests
#                          (fetched and built once, in the first pass),
#                          the install cases of the build system alone,
#                          the default crossovers at np 9: for a second
#                          Open MPI
#   run-suite.sh large     "make check-large": 64-bit sizes for real, a
#                          Gatherv of over 2^31 bytes, Allgather, Scatter
#                          and Gather of 2^31 + 13-byte blocks, Bcast of
#                          2^31 + 13 bytes by both transports (about 13 GB
#                          of memory), Gatherv and
#                          Scatterv across simulated nodes with blocks
#                          over 2^31 bytes; user buffers on huge pages
#   run-suite.sh large-one-node
#                          the same on one node only (the pass against
#                          Open MPI 5.0 in run-tests.sh: its single copy
#                          goes through smsc; what crosses nodes is the
#                          same code as under 4.1)
#   run-suite.sh soak      "make soak": the randomized mix of every served
#                          operation for SOAK_SECONDS (600) at np 2 and np 4
#   run-suite.sh valgrind  "make check-valgrind": tests at np 2 with every
#                          rank under valgrind memcheck
# Each case is one program run with a time limit; a case passes when the
# program exits 0 and says so, and when the extra checks named with it
# hold.  The last line is "N passed, N failed".
#
# The freshly built component is loaded through mca_base_component_path
# (Open MPI's own directory first), so nothing needs to be installed.
# Every segment goes to a private backing directory that must be empty at
# the end.  SUITE_HUGE_PAGES=1 puts the user buffers on transparent huge
# pages (below).

# The whole script is one block, read before it runs: a suite takes
# minutes, and bash would otherwise read each command from the file when
# it gets there (so an edit of the file, or anything that moves the
# shared offset of its descriptor, would change what runs).  The cases
# are functions in the files of suite/ beside it (cases-GROUP.sh), which
# the block reads whole at its start, before any case runs.
{
set -u
suite=${1:-default}

: "${MPIRUN:?}" "${OMPI_INFO:?}" "${OMPI_PKGLIBDIR:?}" "${COMPONENT_DIR:?}"
: "${ABI_COMPONENT_DIR:?}"
: "${ABI_LAYOUT_COMPONENT_DIR:?}"

export OMPI_MCA_mca_base_component_path="$OMPI_PKGLIBDIR:$COMPONENT_DIR"
if [ "$(id -u)" = 0 ]; then
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
if [ -e "$OMPI_PKGLIBDIR/mca_coll_shmcico.so" ]; then
    echo "note: a coll/shmcico is also installed in $OMPI_PKGLIBDIR;" \
         "the suite may load that one instead of the build's"
fi

srcdir_abs=$(cd "$(dirname "$0")" && pwd)
# The cases, by group, in suite/ beside this script: files of functions
# only, each read whole here, so that an edit of them during a suite
# changes nothing either.
# shellcheck source=SCRIPTDIR/suite/cases-loading.sh
source "$srcdir_abs/suite/cases-loading.sh" || exit 2
# shellcheck source=SCRIPTDIR/suite/cases-collectives.sh
source "$srcdir_abs/suite/cases-collectives.sh" || exit 2
# shellcheck source=SCRIPTDIR/suite/cases-transports.sh
source "$srcdir_abs/suite/cases-transports.sh" || exit 2
# shellcheck source=SCRIPTDIR/suite/cases-multinode.sh
source "$srcdir_abs/suite/cases-multinode.sh" || exit 2
# shellcheck source=SCRIPTDIR/suite/cases-limits-faults.sh
source "$srcdir_abs/suite/cases-limits-faults.sh" || exit 2
# shellcheck source=SCRIPTDIR/suite/cases-soak-valgrind-large.sh
source "$srcdir_abs/suite/cases-soak-valgrind-large.sh" || exit 2
results=$PWD/results
rm -rf "$results"
mkdir -p "$results"
suite_shm=$(mktemp -d /dev/shm/shmcico-suite.XXXXXX)
export OMPI_MCA_coll_shmcico_backing_dir="$suite_shm"
# the operations the component serves, as its parameters name them
all_ops="bcast scatter scatterv gather gatherv allgather allgatherv"
# The tests exercise shared memory at every size: no size limit unless a
# case sets one (the command line wins over the environment).  Nor the
# slow-kernel floors, which follow a timing at startup: the cases that
# check transports set them with a fixed verdict (below).
for op in $all_ops; do
    export "OMPI_MCA_coll_shmcico_${op}_max_bytes=0"
    export "OMPI_MCA_coll_shmcico_${op}_slow_kernel_single_copy_min=0"
done
shm_before=$(ls -1 /dev/shm | grep -c '^shmcico-[0-9a-f]*$')
# the simulated nodes' names live in a private copy of /etc/hosts
hosts_before=$(cksum </etc/hosts)

# User buffers on transparent huge pages (SUITE_HUGE_PAGES=1, and the
# 64-bit suite always): glibc's malloc asks for them (madvise), as where
# the kernel gives them to every process (RHEL's default); without, the
# buffers are on 4 KiB pages, Debian's default.  run-tests.sh runs the
# first pass without and the second Open MPI's pass with them.  On the
# 2-vCPU test machine a page fault is dear: the 64-bit suite took 14 min
# on 4 KiB pages and under 1 min on huge ones.
huge_pages() {
    export GLIBC_TUNABLES="${GLIBC_TUNABLES:+$GLIBC_TUNABLES:}glibc.malloc.hugetlb=1"
    echo "user buffers on transparent huge pages (GLIBC_TUNABLES=$GLIBC_TUNABLES;" \
         "the kernel's setting: $(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null))"
}
# The tests' buffers stay in their process once freed (malloc never maps
# a block of its own, nor gives the heap's top back): a test allocates
# and frees a buffer per size, root and type, and glibc would otherwise
# map each one afresh, each page faulted and zeroed again.  The pages stay
# what they were: on 4 KiB pages test_transport at np 5 took 13.7 s with
# 1.1 million page faults, 4.3 s with 71 thousand; on huge pages
# test_bcast at np 8 5.9 s with 51 thousand, 5.3 s with 20 thousand.
kept_pages() {
    export GLIBC_TUNABLES="${GLIBC_TUNABLES:+$GLIBC_TUNABLES:}glibc.malloc.mmap_max=0:glibc.malloc.trim_threshold=18446744073709551615"
    echo "user buffers kept by malloc once freed (GLIBC_TUNABLES=$GLIBC_TUNABLES)"
}
# (huge pages are kept too, but in the 64-bit suites, whose buffers of
# 2 GiB are better given back)
if [ "${SUITE_HUGE_PAGES:-0}" = 1 ] || [ "$suite" = large ] || [ "$suite" = large-one-node ]; then
    huge_pages
fi
case $suite in
    valgrind|large|large-one-node) ;;
    *) kept_pages ;;
esac

# A build with --enable-sanitizers: its runtime goes first into every
# process that loads the component (the DSO is instrumented, the MPI
# programs and ompi_info are not), errors stop the process, and any
# report fails the case even where a failing exit status is expected
# (faults).  Not into the suite's own tools: Debian's mawk, under it,
# reported its own memcmp() reading past a line.  Leaks are not
# checked: Open MPI itself does not free everything at exit.
sanitizer_reports='ERROR: AddressSanitizer|runtime error:'
time_scale=1
if [ -n "${SANITIZER_PRELOAD:-}" ]; then
    export SANITIZER_PRELOAD
    export ASAN_OPTIONS=detect_leaks=0:abort_on_error=0:verify_asan_link_order=0
    export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
    time_scale=4                        # instrumented code runs slower
    echo "sanitizers: $SANITIZER_PRELOAD preloaded into the jobs' processes and ompi_info"
    # mpirun itself goes without the runtime: only its processes run
    # shmcico's code, and ASan in mpirun reports Open MPI 4.1.4's own
    # use-after-free when it relays an MPI_Abort (a script that passes
    # -x LD_PRELOAD of its own, which wins, puts SANITIZER_PRELOAD in it)
    printf '#!/bin/sh\nexec env -u LD_PRELOAD "%s" -x LD_PRELOAD="%s" "$@"\n' \
        "$MPIRUN" "$SANITIZER_PRELOAD" >"$results/mpirun-without-sanitizer"
    printf '#!/bin/sh\nexec env LD_PRELOAD="%s" "%s" "$@"\n' \
        "$SANITIZER_PRELOAD" "$OMPI_INFO" >"$results/ompi-info-with-sanitizer"
    chmod +x "$results/mpirun-without-sanitizer" "$results/ompi-info-with-sanitizer"
    export MPICC=${MPICC:-$(dirname "$MPIRUN")/mpicc}  # beside the real mpirun
    MPIRUN=$results/mpirun-without-sanitizer
    OMPI_INFO=$results/ompi-info-with-sanitizer
fi

# processes that may not read each other's memory: without
# CAP_SYS_PTRACE (root drops it from the bounding set; other users never
# have it)
no_ptrace_cap=
if [ "$(id -u)" = 0 ]; then
    no_ptrace_cap="setpriv --bounding-set -sys_ptrace"
fi
# " <op>_PARAM VALUE" for every operation, as mpi() takes parameters
every_op() {
    local op
    for op in $all_ops; do
        printf ' %s_%s %s' "$op" "$1" "$2"
    done
}
# single copy on communicators of any size
any_size=$(every_op single_copy_max_procs 0)
# every operation's crossover at one byte: every block by single copy
# (a Bcast of 3 or more processes too: no readers' floor)
single_everything="$(every_op single_copy_min 1)$any_size bcast_readers_single_copy_min 0"
# every operation's crossover at 64 KiB: the transport tests go below, at
# and above it whatever the defaults are
crossovers_64k="$(every_op single_copy_min 65536)$any_size"

# The cache probe sends a block by single copy or through the queues by
# timing a few loads from it: the cases that check which transport served
# a call run without it, and those under "cache probe" below with its
# fixed answer (cache_probe_ns 1: every block is cold) or calibrated.
export OMPI_MCA_coll_shmcico_cache_probe=0
# Each segment's setup measures whether its processes are near one
# another, which sets the smallest block written with streaming stores
# (4 KiB far, 1 MiB near), and each process watches it during the run:
# the cases that count streamed bytes run with the answer fixed, those
# under "nearness" below measure and watch it.
export OMPI_MCA_coll_shmcico_nearness=far
# every operation probes every block
probe_everything=$(every_op cache_probe_max 4611686018427387904)

passed=0
failed=0
failed_names=()
suite_start=$(date +%s)

# run_case NAME SECONDS [--expect REGEX]... [--reject REGEX]... -- COMMAND...
# Passes when COMMAND exits 0, prints "OK" or "0 failed", and its output
# matches every --expect and no --reject.
run_case() {
    local name=$1 limit=$(($2 * time_scale)) log="$results/$1.log" start end status verdict=PASS
    local expects=() rejects=()
    shift 2
    while [ "$1" != -- ]; do
        case $1 in
            --expect) expects+=("$2") ;;
            --reject) rejects+=("$2") ;;
        esac
        shift 2
    done
    shift
    start=$(date +%s%N)
    timeout -k 10 "$limit" bash -c '"$@"' run_case "$@" >"$log" 2>&1
    status=$?
    if [ $status -ne 0 ]; then
        verdict=FAIL
        echo "exit status $status (124: over the ${limit}s limit)" >>"$log"
    fi
    grep -q -E ': OK|, 0 failed' "$log" || verdict=FAIL
    for re in "${expects[@]+"${expects[@]}"}"; do
        grep -q -E -- "$re" "$log" || { verdict=FAIL; echo "missing: $re" >>"$log"; }
    done
    if grep -q -E "$sanitizer_reports" "$log"; then
        verdict=FAIL
        echo "a sanitizer reported an error" >>"$log"
    fi
    for re in "${rejects[@]+"${rejects[@]}"}"; do
        ! grep -q -E -- "$re" "$log" || { verdict=FAIL; echo "unexpected: $re" >>"$log"; }
    done
    end=$(date +%s%N)
    printf '%-4s %-44s %6ss\n' "$verdict" "$name" \
        "$(( (end - start) / 1000000000 )).$(( (end - start) / 100000000 % 10 ))"
    if [ $verdict = PASS ]; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        failed_names+=("$name")
        sed -e 's/^/    | /' "$log" | tail -n 25
    fi
}

# mpi NP [MCA-NAME VALUE]... -- PROGRAM ARGS...
mpi() {
    local np=$1 args=()
    shift
    while [ "$1" != -- ]; do
        args+=(--mca "coll_shmcico_$1" "$2")
        shift 2
    done
    shift
    "$MPIRUN" --oversubscribe -np "$np" "${args[@]+"${args[@]}"}" "$@"
}
export -f mpi
export MPIRUN

# A case that states a fact without running a program.
fact() {
    local name=$1
    shift
    run_case "$name" 10 -- bash -c "if $*; then echo 'fact: OK'; fi"
}

# make check's suite (default) and a second Open MPI's (mpi): the cases
# of suite/, group after group
default_suite() {
    if [ "$suite" = default ]; then
        echo "== unit tests of the engine (no MPI)"
        unit_cases
    fi

    echo "== loading and parameters"
    loading_cases
    parameter_cases

    echo "== Bcast"
    bcast_cases

    echo "== Scatter(v), Gather(v), Allgather(v)"
    vector_cases

    echo "== benchmark"
    bench_cases

    echo "== transports: single copy and queues"
    transport_cases
    slow_kernel_cases
    store_cases
    transport_matrix_cases

    echo "== cache probe: cold blocks through the queues"
    probe_cold_cases
    probe_calibrated_cases

    echo "== per-communicator hints"
    hints_cases

    echo "== communicators that span nodes (simulated nodes, nodes.sh)"
    multinode_cases

    echo "== fallback"
    fallback_cases

    echo "== bad input, limits, threads, oversubscription"
    limits_cases

    echo "== faults"
    fault_cases

    echo "== diagnostics"
    diagnostic_cases

    if [ "$suite" = default ]; then
        # (the Open MPI 5.0 pass leaves them out: its Debian 13 root would
        # fetch and build them again, a few minutes more)
        echo "== MPICH's collective tests (Debian's mpich source package)"
        mpich_cases
    fi

    echo "== install and uninstall"
    install_cases
}

case $suite in
    default|mpi) default_suite ;;
    large|large-one-node) large_suite ;;
    soak) soak_suite ;;
    valgrind) valgrind_suite ;;
    *) echo "run-suite.sh: unknown suite '$suite' (default, mpi, large, large-one-node, soak, valgrind)" >&2
       exit 2 ;;
esac

echo "== leftovers"
fact no-file-left-in-backing-dir "[ -z \"\$(ls -A '$suite_shm')\" ]"
fact no-file-left-in-dev-shm \
    "[ \"\$(ls -1 /dev/shm | grep -c '^shmcico-[0-9a-f]*\$')\" -le $shm_before ]"
rmdir "$suite_shm" 2>/dev/null
fact etc-hosts-unchanged "[ \"\$(cksum </etc/hosts)\" = '$hosts_before' ]"

echo "suite took $(( $(date +%s) - suite_start ))s; logs in $results"
if [ $failed -gt 0 ]; then
    echo "failed: ${failed_names[*]}"
fi
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
exit
}
