/* -*- Mode: C; c-basic-offset:4 ; indent-tabs-mode:nil -*- */
/*
 * Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
 * $COPYRIGHT$
 *
 * Additional copyrights may follow
 *
 * $HEADER$
 */

/*
 * Scatterv and Gatherv data movement, one the mirror of the other.  The
 * root owns the banks and publishes the bytes of every block.
 *  - Scatterv: the root writes block i into process i's own queue, so
 *    that each receiver copies out of memory on its own NUMA node.
 *  - Gatherv: each process writes its block into its own queue and the
 *    root copies the fragments out, whichever is ready first.
 * The root's own block never goes through shared memory.
 */

#include "coll_shmcico_engine.h"

/* Every queue is that of a non-root process (the root's in rank order
 * after it, so that its neighbours are not always first); root_writes
 * says which side fills them. */
int mca_coll_shmcico_engine_rooted(mca_coll_shmcico_engine_t *engine, int root,
                                   bool root_writes, mca_coll_shmcico_stream_t *own,
                                   mca_coll_shmcico_stream_t *const *blocks,
                                   const uint64_t *counts, uint32_t mode, uint64_t fault)
{
    mca_coll_shmcico_queue_t *queues = engine->queues;
    mca_coll_shmcico_plan_t plan = { .owner = engine->rank == root };
    int n = 1;

    if (plan.owner) {
        for (n = 0; n + 1 < engine->nprocs; ++n) {
            int proc = (root + n + 1) % engine->nprocs;
            queues[n] = (mca_coll_shmcico_queue_t) { .proc = proc, .stream = blocks[proc] };
        }
        plan.counts = counts;
        plan.mode = mode;
        plan.fault = fault;
        plan.self_src = root_writes ? blocks[root] : own;
        plan.self_dst = root_writes ? own : blocks[root];
    } else {
        queues[0] = (mca_coll_shmcico_queue_t) { .proc = engine->rank, .stream = own };
    }
    if (plan.owner == root_writes) {
        plan.writes = queues;
        plan.nwrites = n;
    } else {
        plan.reads = queues;
        plan.nreads = n;
    }
    return mca_coll_shmcico_engine_run(engine, &plan);
}
