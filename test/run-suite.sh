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
# only, read whole here, so that an edit of them during a suite changes
# nothing either.
# shellcheck source=SCRIPTDIR/suite/cases-multinode.sh
source "$srcdir_abs/suite/cases-multinode.sh" || exit 2
# shellcheck source=SCRIPTDIR/suite/cases-soak-valgrind-large.sh
source "$srcdir_abs/suite/cases-soak-valgrind-large.sh" || exit 2
# shellcheck source=SCRIPTDIR/suite/cases-loading.sh
source "$srcdir_abs/suite/cases-loading.sh" || exit 2
# shellcheck source=SCRIPTDIR/suite/cases-collectives.sh
source "$srcdir_abs/suite/cases-collectives.sh" || exit 2
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
    for np in 2 3 4 5; do
        run_case "transport-np$np" 300 --expect 'single copy (cma|smsc)' \
            -- bash -c "mpi $np verbose 10 $crossovers_64k -- mpi/test_transport single"
    done
    # the default crossovers (what a user gets): below, at and above each
    # at np 5 the default Bcast goes through the queues at every size
    # (coll_shmcico_bcast_single_copy_max_procs 4), at np 9 Allgather(v)
    # too (coll_shmcico_allgather_single_copy_max_procs 8: a count of
    # processes, the same whatever the Open MPI, so a second Open MPI's
    # pass leaves np 9 out)
    local crossover_nps="2 4 5"
    [ "$suite" != default ] || crossover_nps="$crossover_nps 9"
    for np in $crossover_nps; do
        run_case "transport-default-crossovers-np$np" 300 --expect 'single copy (cma|smsc)' \
            -- bash -c "mpi $np verbose 10 -- mpi/test_transport single"
    done
    # where the kernel's copy is slow (coll_shmcico_cache_probe_kernel_ratio
    # 1: every ratio measured is at least that), on up to 4 processes a
    # sender's block goes by single copy only from its operation's
    # slow-kernel floor, and its receivers follow; at np 5 no floor
    local slow_floors
    slow_floors="$(every_op slow_kernel_single_copy_min 131072) cache_probe_kernel_ratio 1"
    for np in 2 4 5; do
        run_case "transport-slow-kernel-np$np" 300 --expect "the kernel's copy is slow" \
            -- bash -c "mpi $np verbose 10 $crossovers_64k $slow_floors -- mpi/test_transport single"
    done
    # the default floors over the default crossovers (what a user gets
    # where the kernel's copy is slow), and with the ratio 0 none
    local default_floors=(env)
    for op in $all_ops; do
        default_floors+=(-u "OMPI_MCA_coll_shmcico_${op}_slow_kernel_single_copy_min")
    done
    for np in 2 3; do
        run_case "transport-slow-kernel-default-floors-np$np" 300 \
            --expect "the kernel's copy is slow" \
            -- "${default_floors[@]}" bash -c "mpi $np verbose 10 cache_probe_kernel_ratio 1 \
                                                   -- mpi/test_transport single"
    done
    run_case transport-kernel-ratio-0-no-floor-np2 300 --expect 'no slow-kernel floor' \
        --reject "the kernel's copy is slow" \
        -- "${default_floors[@]}" bash -c "mpi 2 verbose 10 cache_probe_kernel_ratio 0 \
                                               -- mpi/test_transport single"
    # one verdict per communicator, rank 0's parameters: the median of
    # the measures taken (here rank 0's alone: the others, with the ratio
    # 0, measure nothing) against rank 0's ratio, and rank 0's floors
    local env0="$srcdir_abs/rank-env.sh" not_0 floors_0=""
    for op in $all_ops; do
        floors_0="$floors_0 OMPI_MCA_coll_shmcico_${op}_slow_kernel_single_copy_min=0"
    done
    not_0=("$env0" 1 OMPI_MCA_coll_shmcico_cache_probe_kernel_ratio=0 --
           "$env0" 2 OMPI_MCA_coll_shmcico_cache_probe_kernel_ratio=0 --)
    run_case transport-slow-kernel-agreed-np3 300 \
        --expect "the median of 1 processes' measures.*the kernel's copy is slow" \
        --reject 'no slow-kernel floor' \
        -- bash -c "mpi 3 verbose 10 $crossovers_64k $slow_floors -- ${not_0[*]} mpi/test_transport single"
    run_case transport-slow-kernel-rank0-ratio-0-np3 300 --expect 'no slow-kernel floor' \
        --reject "the kernel's copy is slow" \
        -- bash -c "mpi 3 verbose 10 $crossovers_64k $slow_floors \
                        -- $env0 0 OMPI_MCA_coll_shmcico_cache_probe_kernel_ratio=0 \
                        -- mpi/test_transport single"
    run_case transport-slow-kernel-rank0-floors-np3 300 --expect "the kernel's copy is slow" \
        -- bash -c "mpi 3 verbose 10 $crossovers_64k $slow_floors \
                        -- $env0 1 $floors_0 -- $env0 2 $floors_0 -- mpi/test_transport single"
    run_case transport-single-copy-off-np3 300 \
        -- bash -c "mpi 3 single_copy off $crossovers_64k -- mpi/test_transport off"
    # streaming stores from another threshold, and none
    run_case transport-streaming-from-100-np3 300 \
        -- bash -c "mpi 3 streaming_min 100 $crossovers_64k -- mpi/test_transport single"
    # processes near one another: queued blocks below 1 MiB with
    # ordinary stores
    run_case transport-near-np3 300 \
        -- bash -c "mpi 3 nearness near $crossovers_64k -- mpi/test_transport single"
    # and the default crossovers, where coll_shmcico_near_single_copy_min
    # (256 KiB) raises them at up to 4 processes, not at 5
    for np in 2 4 5; do
        run_case "transport-near-default-crossovers-np$np" 300 \
            -- bash -c "mpi $np nearness near -- mpi/test_transport single"
    done
    run_case transport-no-streaming-np4 300 \
        -- bash -c "mpi 4 single_copy off streaming_min 0 $crossovers_64k -- mpi/test_transport off"
    # real refusal: processes without CAP_SYS_PTRACE (dropped from the
    # bounding set when running as root) that made themselves non-dumpable
    run_case transport-single-copy-refused-np3 300 \
        --expect 'single copy off: refused by the system' \
        -- $no_ptrace_cap "$MPIRUN" --oversubscribe -np 3 --mca btl_vader_single_copy_mechanism none \
           --mca coll_shmcico_verbose 10 $(printf -- '--mca coll_shmcico_%s %s ' $crossovers_64k) \
           mpi/test_transport refused
    # refused as a container's seccomp profile refuses it: every process
    # sees alone that its own kernel copy is refused, so its queues get
    # fragments of 32 KiB by default, and every block goes through them
    run_case transport-kernel-copy-refused-np3 300 \
        --expect 'single copy off: refused by the system' \
        --expect 'segment of [0-9]+ bytes \(s=8 f=32768 ' \
        -- bash -c "mpi 3 verbose 10 $crossovers_64k -- --mca btl_vader_single_copy_mechanism none \
                    mpi/no_kernel_copy mpi/test_transport refused"
    run_case stress-kernel-copy-refused-np4 600 \
        --expect 'segment of [0-9]+ bytes \(s=8 f=32768 ' \
        -- bash -c "mpi 4 verbose 10 -- --mca btl_vader_single_copy_mechanism none \
                    mpi/no_kernel_copy mpi/test_stress 2000 all"
    # every block by single copy where the layout is worth it, and queues
    # only, over the datatype matrix (TC_TRANSPORT makes the tests check
    # each call's transport counters)
    for np in 2 3 5; do
        huge=$([ $np -le 3 ] || echo --no-huge)
        run_case "bcast-np$np-single-copy-everything" 600 \
            -- env TC_TRANSPORT=single bash -c "mpi $np $single_everything -- mpi/test_bcast $huge"
        for op in scatter scatterv gather gatherv allgather allgatherv; do
            run_case "$op-np$np-single-copy-everything" 600 \
                -- env TC_TRANSPORT=single bash -c "mpi $np $single_everything \
                                                    -- mpi/test_vector $op"
        done
    done
    run_case bcast-np5-queues-only 600 \
        -- env TC_TRANSPORT=queue bash -c "mpi 5 single_copy off -- mpi/test_bcast --no-huge"
    for np in 2 4; do
        for op in scatter scatterv gather gatherv allgather allgatherv; do
            run_case "$op-np$np-queues-only" 600 \
                -- env TC_TRANSPORT=queue bash -c "mpi $np single_copy off -- mpi/test_vector $op"
        done
    done

    echo "== cache probe: cold blocks through the queues"
    # at np 3, Allgather(v) blocks are not probed (their probe max 0), at
    # the others up to the default 4 MiB
    for np in 2 3 4 5; do
        probe_allgather=
        [ $np = 3 ] && probe_allgather="allgather_cache_probe_max 0 \
                                        allgatherv_cache_probe_max 0"
        run_case "transport-cold-np$np" 300 \
            -- bash -c "mpi $np cache_probe 1 cache_probe_ns 1 $crossovers_64k \
                            $probe_allgather -- mpi/test_transport cold"
    done
    # Bcast's own probe off: from np 3 its blocks up to
    # coll_shmcico_bcast_readers_cache_probe_max are probed still (as
    # where the kernel's copy of cold data is fast), at np 2 none
    for np in 2 3; do
        run_case "transport-cold-bcast-readers-np$np" 300 \
            -- bash -c "mpi $np cache_probe 1 cache_probe_ns 1 bcast_cache_probe_max 0 \
                            $crossovers_64k -- mpi/test_transport cold"
    done
    # the probe's loads over every layout of the datatype matrix, every
    # block found cold: all through the queues, every byte right
    run_case bcast-np3-every-block-cold 600 \
        -- env TC_TRANSPORT=queue bash -c "mpi 3 cache_probe 1 cache_probe_ns 1 \
               $single_everything $probe_everything -- mpi/test_bcast --no-huge"
    for op in scatter scatterv gather gatherv allgatherv; do
        run_case "$op-np3-every-block-cold" 600 \
            -- env TC_TRANSPORT=queue bash -c "mpi 3 cache_probe 1 cache_probe_ns 1 \
                   $single_everything $probe_everything -- mpi/test_vector $op"
    done
    # calibrated, as users run it: the choice varies, the data may not
    # (the test machine's flushed lines are slow: the calibration finds a
    # threshold, then times the kernel's copy of cold data)
    run_case bcast-np3-probe-calibrated 600 --expect 'cache probe: [0-9]+ ns cached' \
        --expect "times memcpy's \(0: not measured\): (single copy is faster|the flushed chain)" \
        -- bash -c "mpi 3 verbose 10 cache_probe 1 $single_everything $probe_everything \
                        -- mpi/test_bcast --no-huge"
    # with the kernel's ratio ignored the calibrated threshold is the
    # flushed chain (where flushed lines are slow, as here)
    run_case probe-kernel-ratio-ignored 120 \
        --expect "copy of cold data 0\.00 times memcpy's \(0: not measured\): the flushed chain" \
        --reject 'single copy is faster from memory' \
        -- bash -c "mpi 2 verbose 10 cache_probe 1 cache_probe_kernel_ratio 0 -- mpi/test_stress 100"
    # where the kernel's copy of cold data is fast (here: a ratio no
    # kernel reaches), blocks sent are not probed but a Bcast's of 3 or
    # more processes, whose readers pin its pages at once
    run_case readers-probe-kernel-fast-np3 600 \
        --expect "single copy is faster from memory, no probe of blocks sent but a Bcast's of 3 or more processes" \
        -- bash -c "mpi 3 verbose 10 cache_probe 1 cache_probe_kernel_ratio 100000 $single_everything \
                        -- mpi/test_bcast --no-huge"
    run_case allgatherv-np3-probe-calibrated 600 --expect 'cache probe: [0-9]+ ns cached' \
        -- bash -c "mpi 3 verbose 10 cache_probe 1 $single_everything $probe_everything \
                        -- mpi/test_vector allgatherv"

    # own blocks of 1 MiB with streaming stores where the probe finds
    # their destination cold (every probe cold, or none)
    run_case own-probe-cold-np3 120 \
        -- mpi 3 cache_probe 1 cache_probe_ns 1 -- mpi/test_hints own-probe cold
    run_case own-probe-warm-np3 120 \
        -- mpi 3 cache_probe 1 cache_probe_ns 1000000000000 -- mpi/test_hints own-probe warm

    echo "== per-communicator hints"
    # the cache probe off: an own block of a byte under
    # allgather_own_streaming_min must not go with streaming stores,
    # which the probe does where it finds the destination cold (as it
    # may on this machine: the own-probe cases above test that)
    for np in 2 5; do
        run_case "hints-np$np" 300 --expect 'segment of [0-9]+ bytes \(s=8 f=8192 w=2, tree chain/4\)' \
            --expect 'hint shmcico_tree=kary ignored \(the communicator.s segment is made already\); in effect: chain' \
            --expect 'hint shmcico_max_bytes=bcast:lots ignored \(not a valid value\)' \
            -- mpi $np verbose 10 cache_probe 0 -- mpi/test_hints
    done

    # a communicator made disabled by its hints gets no segment, even
    # where segments are made when communicators are
    run_case hints-disable-eager-np2 120 \
        --expect 'made at first use \(the shmcico_disable hint' \
        -- mpi 2 lazy 0 verbose 10 -- mpi/test_hints disable

    # nearness: measured at np 2 (near or far, whichever the machine is
    # in; the test checks that the streamed bytes follow the answer), not
    # measured where processes outnumber cores (far), told by hints
    run_case nearness-measured-np2 120 \
        --expect 'processes (near|far) \((a line.s trip [0-9]+ ns, a load from memory [0-9]+ ns|a trip timed out)\)' \
        --expect 'processes near \(as set\): streaming stores from 1048576 bytes' \
        --expect 'processes far \(as set\): streaming stores from 4096 bytes' \
        -- bash -c "unset OMPI_MCA_coll_shmcico_nearness; mpi 2 verbose 10 -- mpi/test_hints nearness"
    # a kept segment's setup times the trips again: as many timed answers
    # as segments, kept ones among them (messages counted, not lines:
    # mpirun's forwarding can put two processes' messages on one line)
    run_case nearness-kept-segments-np2 300 --expect 'kept segment of' \
        -- bash -c "unset OMPI_MCA_coll_shmcico_nearness; mpi 2 verbose 10 -- mpi/test_keep keep 2>&1 \
                    | tee /dev/stderr | awk '{ s += gsub(/ (kept|new) segment of /, \"&\")
                          t += gsub(/ processes (near|far) .(a line.s trip|a trip timed out)/, \"&\") }
                        END { print s, \"segments,\", t, \"timed\"; exit !(s > 0 && s == t) }'"
    crowded=$(( $(nproc) + 1 ))
    [ "$crowded" -le 64 ] || crowded=64
    run_case nearness-crowded 120 \
        --expect 'processes far \(not measured\): streaming stores from 4096 bytes' \
        -- bash -c "unset OMPI_MCA_coll_shmcico_nearness; mpi $crowded verbose 10 -- mpi/test_hints nearness"
    # watched during the run: under a threshold of 1 ns every process
    # turns far, under 1 s near, whatever the setup found; where nothing
    # was timed (crowded), or the watch is off, nothing is watched
    run_case nearness-watched-far-np2 120 \
        -- bash -c "unset OMPI_MCA_coll_shmcico_nearness; mpi 2 nearness_watch_ns 1 -- mpi/test_hints watch far"
    run_case nearness-watched-near-np2 120 \
        -- bash -c "unset OMPI_MCA_coll_shmcico_nearness; mpi 2 nearness_watch_ns 1000000000 -- mpi/test_hints watch near"
    run_case nearness-watched-crowded 120 \
        -- bash -c "unset OMPI_MCA_coll_shmcico_nearness; mpi $crowded nearness_watch_ns 1 -- mpi/test_hints watch none"
    run_case nearness-not-watched-np2 120 \
        -- bash -c "unset OMPI_MCA_coll_shmcico_nearness; mpi 2 nearness_watch false nearness_watch_ns 1 -- mpi/test_hints watch none"

    # a k-nomial tree by hint where coll_shmcico_tree_degree is 1: degree
    # 2, served; the degree in effect is no hint to refuse
    run_case hints-knomial-degree-1 120 --expect 'tree knomial/2\)' --expect 'tree kary/1\)' \
        --reject 'ignored' \
        -- mpi 3 tree_degree 1 verbose 10 -- mpi/test_hints knomial

    echo "== communicators that span nodes (simulated nodes, nodes.sh)"
    multinode_cases
    echo "== fallback"
    run_case fallback-over-limit 300 \
        --expect 'allgatherv handed to the previous component: over coll_shmcico_allgatherv_max_bytes' \
        -- mpi 3 $(every_op max_bytes 1000) verbose 20 -- mpi/test_fallback limit
    run_case nothing-handed-over-by-default 300 -- env \
        $(for op in $all_ops; do
              echo -u "OMPI_MCA_coll_shmcico_${op}_max_bytes"; done) \
        "$MPIRUN" --oversubscribe -np 3 mpi/test_fallback nolimit
    run_case fallback-intercomm 300 --expect 'declined: intercommunicator' \
        -- mpi 4 verbose 10 -- mpi/test_fallback intercomm
    run_case fallback-no-segment 300 \
        --expect 'no shared segment \(No such file or directory in /nonexistent' \
        -- mpi 3 backing_dir /nonexistent verbose 1 -- mpi/test_fallback nosegment

    echo "== bad input, limits, threads, oversubscription"
    for np in 2 3 5; do
        run_case "bad-input-np$np" 300 -- mpi $np -- --mca mpi_param_check 0 mpi/test_badinput
    done
    run_case many-comms-memory-limit 600 \
        --expect 'no shared segment \(over coll_shmcico_max_memory in ' \
        -- mpi 2 max_memory $((20 * 147456)) verbose 1 -- mpi/test_many_comms 20
    # a freed communicator's segment taken over by the next communicator
    # of the same processes (coll_shmcico_keep_segments), and without
    for np in 2 3 5; do
        run_case "keep-segments-np$np" 300 -- mpi $np -- mpi/test_keep keep
    done
    run_case keep-segments-off-np2 300 -- mpi 2 keep_segments 0 -- mpi/test_keep off
    # room for a segment of two processes (147456 bytes) but not for one
    # of three (217088): a setup over the limit drops no kept segment
    run_case keep-segments-over-limit-np3 300 \
        -- mpi 3 max_memory $((147456 + 32768)) -- mpi/test_keep over-limit
    # a setup that fails at rank 1 (no memory) on a kept segment
    if [ -z "${SANITIZER_PRELOAD:-}" ]; then
        run_case keep-segments-no-memory-np2 120 \
            -- mpi 2 -- -x LD_PRELOAD="$PWD/mpi/.libs/fault_malloc.so" mpi/test_keep no-memory
    else
        echo "not run under the sanitizers' runtime: keep-segments-no-memory-np2"
    fi
    # rank 0 keeps segments, the others do not (5.0.7's mpirun dies on
    # MPMD here, so one rank's environment differs instead)
    run_case keep-segments-rank0-only-np3 300 \
        -- mpi 3 keep_segments 0 -- "$srcdir_abs/rank-env.sh" 0 \
           OMPI_MCA_coll_shmcico_keep_segments=4 -- mpi/test_keep mixed
    # processes of two jobs (MPI_Comm_spawn, MPI_Intercomm_merge): 2 + 2
    # (single copy for every 4 MiB block) and 1 + 4 (Bcast through the
    # queues); Open MPI 5.0.7's btl/tcp needs lo named to reach the
    # spawned job here
    for split in 2+2 1+4; do
        run_case "spawn-two-jobs-$split" 300 \
            -- mpi "${split%+*}" -- --mca btl_tcp_if_include lo mpi/test_spawn "${split#*+}"
    done
    for np in 2 3; do
        run_case "threads-np$np" 600 -- mpi $np -- mpi/test_threads
    done
    # four threads set up segments at once; the limit admits two
    run_case threads-np2-memory-limit 300 \
        -- mpi 2 max_memory $((2 * 147456 + 4096)) -- mpi/test_threads limit 4
    run_case threads-np3-eager 300 --expect 'made at first use \(coll_shmcico_lazy 0 does not apply with threads' \
        -- mpi 3 lazy 0 verbose 10 -- mpi/test_threads 4 100
    run_case oversubscribed-np8-bcast 900 -- mpi 8 tree kary -- mpi/test_bcast --no-huge
    run_case oversubscribed-np8-allgatherv 900 -- mpi 8 -- mpi/test_vector allgatherv

    echo "== faults"
    for fault in hostile-names die-in-setup kill-rank kill-in-single-copy trips-after-unlink abort full-backing \
                 readonly-backing; do
        run_case "fault-$fault" 300 -- "$srcdir_abs/faults.sh" "$fault"
    done
    run_case fault-kill-on-a-node 300 -- "$srcdir_abs/faults.sh" kill-on-a-node

    echo "== diagnostics"
    run_case mpit-example 120 --expect 'coll_shmcico_bcast_served +[0-9]+ +\+10$' \
        --expect 'coll_shmcico_allgather_bytes +[0-9]+ +\+[1-9][0-9]*$' \
        --expect 'coll_shmcico_segment_bytes +[1-9][0-9]* +\(size\)' \
        -- bash -c "mpi 3 -- examples/mpit_counters && echo 'example: OK'"
    run_case verbose-10 120 --expect 'segment of [0-9]+ bytes \(s=8 f=8192 w=2, tree numa/4\), rank [0-9] on NUMA node [0-9-]+, single copy (cma|smsc)$' \
        --expect 'NUMA placement (on|not available)' --expect 'declined: fewer than 2 processes' \
        -- mpi 2 verbose 10 -- mpi/test_stress 100
    run_case verbose-0-silent 120 --reject 'coll:shmcico' -- mpi 2 -- mpi/test_stress 100

    if [ "$suite" = default ]; then
        # (the Open MPI 5.0 pass leaves them out: its Debian 13 root would
        # fetch and build them again, a few minutes more)
        echo "== MPICH's collective tests (Debian's mpich source package)"
        # (nodes: on simulated nodes, as multinode_cases)
        for config in default single-copy queues nodes; do
            run_case "mpich-coll-$config" 900 -- "$srcdir_abs/mpich-coll.sh" "$config"
        done
    fi

    echo "== install and uninstall"
    # where the DSO goes and which one Open MPI loads depend on the Open
    # MPI; libraries in other prefixes and a build apart from the sources
    # are the build system's alone: a second Open MPI's pass leaves them
    # out (its own build is of the distribution, in a directory of its own)
    # (the three ways of every pass share one copy and its objects: each
    # configures it anew; install.sh)
    local ways="default prefix component-dir"
    [ "$suite" != default ] || ways="$ways with-prefixes vpath"
    for way in $ways; do
        run_case "install-$way" 600 -- env INSTALL_SHARED_TREE="$results/install-shared" \
            "$srcdir_abs/install.sh" "$way"
    done
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
