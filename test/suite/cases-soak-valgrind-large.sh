# shellcheck shell=bash
#
# Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
# The suites of run-suite.sh apart from make check's: soak (make soak),
# valgrind (make check-valgrind) and large, large-one-node (make
# check-large).
# Functions only, as every file of suite/: run-suite.sh reads them all at
# its start and calls them; they use its helpers (run_case, mpi, fact,
# every_op) and its variables (suite, results, srcdir_abs, all_ops and
# the parameter lists).
# shellcheck disable=SC2154

soak_suite() {
    local seconds=${SOAK_SECONDS:-600} np
    echo "== soak, ${seconds}s per run"
    for np in 2 4; do
        run_case "soak-np$np" $((seconds + 300)) --expect ', 0 errors$' \
            -- mpi $np -- mpi/test_soak "$seconds"
        grep '^soak:' "$results/soak-np$np.log"
    done
}

# valgrind_case NAME PROGRAM ARGS...: np 2 under memcheck, no error
# record in coll/shmcico's frames (logs in results/NAME/)
valgrind_case() {
    local name=$1
    shift
    mkdir -p "$results/$name"
    run_case "$name" 1200 --expect 'valgrind: 0 error records in coll/shmcico' \
        -- "$srcdir_abs/valgrind.sh" "$results/$name" 2 "$@"
    grep '^valgrind:' "$results/$name.log" | head -n 1
}

# valgrind_single_copy NAME PROGRAM ARGS...: valgrind_case with every
# operation's crossover at 64 KiB, as the transport tests have them
valgrind_single_copy() {
    local op
    for op in $all_ops; do
        local -x "OMPI_MCA_coll_shmcico_${op}_single_copy_min=65536"
    done
    valgrind_case "$@"
}

# the same with every process finding the kernel's copy slow: the
# slow-kernel floors at 128 KiB over crossovers at 64 KiB
valgrind_slow_kernel() {
    local op
    for op in $all_ops; do
        local -x "OMPI_MCA_coll_shmcico_${op}_slow_kernel_single_copy_min=131072"
    done
    local -x OMPI_MCA_coll_shmcico_cache_probe_kernel_ratio=1
    valgrind_single_copy "$@"
}

valgrind_suite() {
    echo "== valgrind memcheck, np 2"
    # both transports below, at and above the crossovers, the counters
    # proving which one served each block
    valgrind_single_copy valgrind-transport-single mpi/test_transport single
    valgrind_slow_kernel valgrind-transport-slow-kernel mpi/test_transport single
    valgrind_case valgrind-bcast mpi/test_bcast --no-huge
    for op in scatterv gatherv allgatherv; do
        valgrind_case "valgrind-$op" mpi/test_vector $op
    done
    valgrind_case valgrind-stress-all-ops mpi/test_stress 1000 all
    # the cache probe's loads on own blocks' destinations
    OMPI_MCA_coll_shmcico_cache_probe=1 OMPI_MCA_coll_shmcico_cache_probe_ns=1 \
        valgrind_case valgrind-own-probe mpi/test_hints own-probe cold
    # segments kept, taken over, retired and dropped, and those left
    # kept at MPI_Finalize
    valgrind_case valgrind-keep-segments mpi/test_keep keep
    # the component's own argument checks (Open MPI's would catch most)
    OMPI_MCA_mpi_param_check=0 valgrind_case valgrind-bad-input mpi/test_badinput
    # on simulated nodes: a communicator left for MPI_Finalize, whose node
    # communicator MPI_Finalize frees first (freed twice before)
    VALGRIND_NODES=2x2 valgrind_case valgrind-multinode-leftover mpi/test_multinode leftover
}

large_suite() {
    local kib
    kib=$(sed -n 's/^MemTotal: *\([0-9]*\) kB/\1/p' /proc/meminfo)
    echo "== 64-bit sizes"
    if [ "${kib:-0}" -lt $((15 * 1024 * 1024)) ]; then
        # at np 2 each process holds three blocks of 2 GiB at once
        echo "not run: 64-bit sizes need 15 GiB of memory, this machine has $((kib / 1024)) MiB"
        return
    fi
    run_case sizes-over-2GiB-np2 1200 -- mpi 2 -- mpi/test_large single
    if [ "$suite" = large ]; then
        run_case multinode-gatherv-scatterv-over-2GiB 1200 \
            -- "$srcdir_abs/nodes.sh" 2x2 -x LD_PRELOAD="$PWD/mpi/.libs/fault_malloc.so" \
               mpi/test_large multinode
    fi
}
