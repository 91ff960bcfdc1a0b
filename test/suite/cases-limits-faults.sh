# shellcheck shell=bash
#
# Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
# The last cases of the suite: fallback to the previous component, bad
# input, limits, threads and oversubscription, faults, diagnostics,
# MPICH's collective tests, install and uninstall.
# Functions only, as every file of suite/: run-suite.sh reads them all at
# its start and calls them; they use its helpers (run_case, mpi, fact,
# every_op) and its variables (suite, results, srcdir_abs, all_ops and
# the parameter lists).
# shellcheck disable=SC2154

# calls handed to the previous component, and communicators declined
fallback_cases() {
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
}

# bad input, memory limits, kept segments, spawned jobs, threads, oversubscription
limits_cases() {
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
}

# faults (faults.sh)
fault_cases() {
    for fault in hostile-names die-in-setup kill-rank kill-in-single-copy trips-after-unlink abort full-backing \
                 readonly-backing; do
        run_case "fault-$fault" 300 -- "$srcdir_abs/faults.sh" "$fault"
    done
    run_case fault-kill-on-a-node 300 -- "$srcdir_abs/faults.sh" kill-on-a-node
}

# the MPI_T counters and verbose output
diagnostic_cases() {
    run_case mpit-example 120 --expect 'coll_shmcico_bcast_served +[0-9]+ +\+10$' \
        --expect 'coll_shmcico_allgather_bytes +[0-9]+ +\+[1-9][0-9]*$' \
        --expect 'coll_shmcico_segment_bytes +[1-9][0-9]* +\(size\)' \
        -- bash -c "mpi 3 -- examples/mpit_counters && echo 'example: OK'"
    run_case verbose-10 120 --expect 'segment of [0-9]+ bytes \(s=8 f=8192 w=2, tree numa/4\), rank [0-9] on NUMA node [0-9-]+, single copy (cma|smsc)$' \
        --expect 'NUMA placement (on|not available)' --expect 'declined: fewer than 2 processes' \
        -- mpi 2 verbose 10 -- mpi/test_stress 100
    run_case verbose-0-silent 120 --reject 'coll:shmcico' -- mpi 2 -- mpi/test_stress 100
}

# MPICH's collective tests (mpich-coll.sh)
mpich_cases() {
    # (nodes: on simulated nodes, as multinode_cases)
    for config in default single-copy queues nodes; do
        run_case "mpich-coll-$config" 900 -- "$srcdir_abs/mpich-coll.sh" "$config"
    done
}

# install and uninstall (install.sh)
install_cases() {
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
