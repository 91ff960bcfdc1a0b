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
 * Scatterv data movement: the root owns the banks, publishes the bytes of
 * every block, and writes block i into process i's own queue, so that
 * each receiver copies out of memory on its own NUMA node.  The root's
 * own block never goes through shared memory.
 */

#include "coll_shmcico_engine.h"

int mca_coll_shmcico_engine_scatterv(mca_coll_shmcico_engine_t *engine,
                                     int root, mca_coll_shmcico_stream_t *recv,
                                     mca_coll_shmcico_stream_t *const *blocks,
                                     const uint64_t *counts, uint32_t mode,
                                     uint64_t fault)
{
    mca_coll_shmcico_queue_t *queues = engine->queues;
    mca_coll_shmcico_plan_t plan = { .owner = engine->rank == root };

    if (plan.owner) {
        /* destinations in rank order after the root, so that the root's
         * neighbours are not always served first */
        for (int i = 1; i < engine->nprocs; ++i) {
            int dest = (root + i) % engine->nprocs;
            queues[plan.nwrites++] = (mca_coll_shmcico_queue_t) {
                .proc = dest, .stream = blocks[dest] };
        }
        plan.writes = queues;
        plan.counts = counts;
        plan.mode = mode;
        plan.fault = fault;
        plan.self_src = blocks[root];
        plan.self_dst = recv;
    } else {
        queues[0] = (mca_coll_shmcico_queue_t) { .proc = engine->rank, .stream = recv };
        plan.reads = queues;
        plan.nreads = 1;
    }
    return mca_coll_shmcico_engine_run(engine, &plan);
}
