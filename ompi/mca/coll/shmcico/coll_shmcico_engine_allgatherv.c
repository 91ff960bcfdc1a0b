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
 * Allgatherv data movement: every process writes its block once into its
 * own queue and reads every other queue, whichever fragment is ready
 * first, starting with its right neighbour so that readers spread over
 * the queues.  There is no root: rank 0 owns the banks and publishes the
 * bytes of every block, which every process follows.
 */

#include "coll_shmcico_engine.h"

int mca_coll_shmcico_engine_allgatherv(mca_coll_shmcico_engine_t *engine,
                                       mca_coll_shmcico_stream_t *send,
                                       mca_coll_shmcico_stream_t *own,
                                       mca_coll_shmcico_stream_t *const *blocks,
                                       const uint64_t *counts, uint32_t mode,
                                       uint64_t fault)
{
    mca_coll_shmcico_queue_t *queues = engine->queues;
    int me = engine->rank, p = engine->nprocs;
    mca_coll_shmcico_plan_t plan = {
        .owner = 0 == me, .mode = mode, .fault = fault,
        .counts = counts, .writes = queues, .nwrites = 1,
        .reads = queues + 1, .nreads = p - 1,
        .self_src = own, .self_dst = blocks[me]
    };

    queues[0] = (mca_coll_shmcico_queue_t) { .proc = me, .stream = send };
    for (int i = 1; i < p; ++i) {
        int source = (me + i) % p;
        queues[i] = (mca_coll_shmcico_queue_t) { .proc = source, .stream = blocks[source] };
    }
    return mca_coll_shmcico_engine_run(engine, &plan);
}
