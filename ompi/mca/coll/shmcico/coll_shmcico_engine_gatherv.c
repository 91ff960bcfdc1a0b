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
 * Gatherv data movement: the root owns the banks and publishes the bytes
 * it expects from every process; each process writes its block into its
 * own queue (memory on its own NUMA node) and the root copies the
 * fragments out, whichever is ready first.  The root's own block never
 * goes through shared memory.
 */

#include "coll_shmcico_engine.h"

int mca_coll_shmcico_engine_gatherv(mca_coll_shmcico_engine_t *engine,
                                    int root, mca_coll_shmcico_stream_t *send,
                                    mca_coll_shmcico_stream_t *const *blocks,
                                    const uint64_t *counts, uint32_t mode,
                                    uint64_t fault)
{
    mca_coll_shmcico_queue_t *queues = engine->queues;
    mca_coll_shmcico_plan_t plan = { .owner = engine->rank == root };

    if (plan.owner) {
        for (int i = 1; i < engine->nprocs; ++i) {
            int source = (root + i) % engine->nprocs;
            queues[plan.nreads++] = (mca_coll_shmcico_queue_t) {
                .proc = source, .stream = blocks[source] };
        }
        plan.reads = queues;
        plan.counts = counts;
        plan.mode = mode;
        plan.fault = fault;
        plan.self_src = send;
        plan.self_dst = blocks[root];
    } else {
        queues[0] = (mca_coll_shmcico_queue_t) { .proc = engine->rank, .stream = send };
        plan.writes = queues;
        plan.nwrites = 1;
    }
    return mca_coll_shmcico_engine_run(engine, &plan);
}
