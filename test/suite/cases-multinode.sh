# shellcheck shell=bash
#
# Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
# The cases of run-suite.sh on simulated nodes (nodes.sh): communicators
# that span nodes.
# Functions only, as every file of suite/: run-suite.sh reads them all at
# its start and calls them; they use its helpers (run_case, mpi, fact,
# every_op) and its variables (suite, results, srcdir_abs, all_ops and
# the parameter lists).
# shellcheck disable=SC2154

# communicators that span nodes, on simulated nodes (nodes.sh)
multinode_cases() {
    # TC_MULTINODE: an Allgather(v) with a wrong count guarantees the
    # error and the buffers' bounds, not the other processes' data
    # 1+3: a node of one process, whose node stages go to coll/self
    for layout in 2x2 2x2-by-node 3+2 3x2 1+3; do
        run_case "multinode-$layout" 600 \
            --expect 'split into [2-3] nodes: this process on node [0-2] of [1-3] processes, led by rank [0-9]' \
            -- "$srcdir_abs/nodes.sh" "$layout" -x TC_MULTINODE=1 --mca coll_shmcico_verbose 10 \
               mpi/test_multinode served
    done
    # node communicators take over the segments their predecessors kept
    run_case multinode-2x2-keep-segments 300 -- "$srcdir_abs/nodes.sh" 2x2 mpi/test_keep keep
    # a limit at node 2's first process only (world rank 2), which its
    # node's segment takes (its verbose output says so); a later hint on
    # the communicator must not replace it there
    run_case multinode-2x2-later-hint 120 \
        --expect 'gatherv handed to the previous component: over coll_shmcico_gatherv_max_bytes' \
        -- "$srcdir_abs/nodes.sh" 2x2 "$srcdir_abs/rank-env.sh" 2 \
           OMPI_MCA_coll_shmcico_gatherv_max_bytes=1 OMPI_MCA_coll_shmcico_verbose=20 \
           -- mpi/test_multinode later-hint
    # the same with the node segments made with their communicators
    # (lazy 0): what the segment agreed stays (this hung when the node
    # stages took each process's own values over it)
    run_case multinode-2x2-eager-later-hint 120 \
        --expect 'gatherv handed to the previous component: over coll_shmcico_gatherv_max_bytes' \
        -- "$srcdir_abs/nodes.sh" 2x2 --mca coll_shmcico_lazy 0 "$srcdir_abs/rank-env.sh" 2 \
           OMPI_MCA_coll_shmcico_gatherv_max_bytes=1 OMPI_MCA_coll_shmcico_verbose=20 \
           -- mpi/test_multinode later-hint
    # out of memory at a leader and at the root (test/mpi/fault_malloc.c);
    # a Bcast root's, a leader's below it and a member's on four nodes,
    # whose tree has a node two levels below the root's
    if [ -z "${SANITIZER_PRELOAD:-}" ]; then
        run_case multinode-2x2-no-memory 120 \
            -- "$srcdir_abs/nodes.sh" 2x2 -x LD_PRELOAD="$PWD/mpi/.libs/fault_malloc.so" \
               mpi/test_multinode no-memory
        run_case multinode-4x2-no-memory-bcast 120 \
            -- "$srcdir_abs/nodes.sh" 4x2 -x LD_PRELOAD="$PWD/mpi/.libs/fault_malloc.so" \
               mpi/test_multinode no-memory-bcast
    else
        # its malloc() and the sanitizer's cannot both come first
        echo "not run under the sanitizers' runtime: multinode-2x2-no-memory," \
             "multinode-4x2-no-memory-bcast"
    fi
    # the soak's random mix across nodes, on nodes of 3 and 2 processes:
    # every call checked, erroneous ones included (it found a short
    # Allgather leader's receive written past its buffer: Open MPI 4.1's
    # ob1 writes a truncated message whole)
    run_case multinode-3+2-soak-20s 300 --expect ', 0 errors$' \
        --expect 'with single copy and [1-9][0-9]* across nodes' \
        -- "$srcdir_abs/nodes.sh" 3+2 -x TC_MULTINODE=1 mpi/test_soak 20
    run_case multinode-4x1-fallback 300 \
        --expect 'not served across nodes: every node holds one process' \
        -- "$srcdir_abs/nodes.sh" 4x1 --mca coll_shmcico_verbose 10 mpi/test_multinode fallback
    run_case multinode-off-2x2-unused 300 \
        --expect 'declined: processes on other nodes \(coll_shmcico_multinode is false\)' \
        -- "$srcdir_abs/nodes.sh" 2x2 --mca coll_shmcico_multinode 0 --mca coll_shmcico_verbose 10 \
           mpi/test_plain unused
    # the whole datatype matrix, ranks placed round robin over the nodes
    # (the split proves MPI_COMM_WORLD's calls, which the programs check
    # served, went across nodes)
    local split='split into 2 nodes: this process on node [01] of 2 processes'
    run_case multinode-2x2-by-node-bcast 600 --expect "$split" \
        -- "$srcdir_abs/nodes.sh" 2x2-by-node -x TC_MULTINODE=1 --mca coll_shmcico_verbose 10 \
           mpi/test_bcast --no-huge
    for op in scatter scatterv gather gatherv allgather allgatherv; do
        run_case "multinode-2x2-by-node-$op" 600 --expect "$split" \
            -- "$srcdir_abs/nodes.sh" 2x2-by-node -x TC_MULTINODE=1 --mca coll_shmcico_verbose 10 \
               mpi/test_vector $op
    done
}
