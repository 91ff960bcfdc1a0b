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
 * Allgather(v)'s flows (docs/protocol.md, "Allgather"): every process
 * writes its block once into its own queue, or announces it for single
 * copy, and takes every other block, starting with its right neighbour's
 * so that readers spread over the sources.  There is no root: with a
 * size limit rank 0 decides for everyone (the only wait for another
 * process's decision), otherwise each process decides for its own block.
 */

#include "coll_shmcico_flow.h"

static void send_block(mca_coll_shmcico_call_t *call, const mca_coll_shmcico_block_t *send,
                       int32_t error)
{
    mca_coll_shmcico_engine_t *e = call->engine;
    mca_coll_shmcico_readers_t others = { .only = -1, .except = e->rank };
    mca_coll_shmcico_flow_t *flow = mca_coll_shmcico_send_own(call, send, error, others, false);

    if (mca_coll_shmcico_flow_copies(flow)) {
        call->acks_expected = (uint64_t) e->nprocs - 1;
    }
}

/* rank 0's decision with a size limit: published on the bank line */
static bool follow_rank0(mca_coll_shmcico_call_t *call, const mca_coll_shmcico_verdict_t *verdict)
{
    mca_coll_shmcico_engine_t *e = call->engine;
    int32_t error;

    if (0 == e->rank) {
        mca_coll_shmcico_decision_post(&e->view, &call->op, verdict->decline
                                       ? MCA_COLL_SHMCICO_DECISION_DECLINE
                                       : MCA_COLL_SHMCICO_DECISION_SERVE, 0);
        return !verdict->decline;
    }
    return MCA_COLL_SHMCICO_DECISION_DECLINE
        != mca_coll_shmcico_decision_wait(&e->view, &e->waiter, &call->op, &error);
}

mca_coll_shmcico_result_t
mca_coll_shmcico_engine_allgather(mca_coll_shmcico_engine_t *engine,
                                  const mca_coll_shmcico_block_t *send,
                                  mca_coll_shmcico_stream_t *own,
                                  const mca_coll_shmcico_block_t *blocks,
                                  const mca_coll_shmcico_verdict_t *verdict,
                                  bool follow_root)
{
    mca_coll_shmcico_call_t call;
    int me = engine->rank, p = engine->nprocs;

    mca_coll_shmcico_call_start(&call, engine);
    mca_coll_shmcico_op_claim(&engine->view, me, &engine->waiter, &call.op);
    if (follow_root && !follow_rank0(&call, verdict)) {
        call.result.status = MCA_COLL_SHMCICO_DECLINED;
        return mca_coll_shmcico_call_run(&call);
    }
    if (NULL != send) {
        send_block(&call, send, verdict->error);
    }
    for (int n = 1; n < p; ++n) {
        int i = (me + n) % p;
        mca_coll_shmcico_flow_t *flow = mca_coll_shmcico_call_flow(&call,
                                            MCA_COLL_SHMCICO_FLOW_RECEIVE, &blocks[i]);
        mca_coll_shmcico_receive(&call, flow, i, i, i);
    }
    if (NULL != own && 0 == verdict->error) {
        call.own_src = own;
        call.own_dst = blocks[me].stream;
    }
    return mca_coll_shmcico_call_run(&call);
}
