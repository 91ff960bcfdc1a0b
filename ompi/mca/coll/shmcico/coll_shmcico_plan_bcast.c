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
 * Bcast's flows (docs/protocol.md, "Bcast").  The message moves down the
 * notification tree, every flag from parent to child:
 *  - through the root's queue: an inner process forwards each fragment's
 *    flag to its children first, then copies the fragment out of the
 *    root's slot, so the copies of a fragment run in parallel;
 *  - by single copy: every process copies the chunks from its parent's
 *    buffer as soon as the parent holds them (the root holds all), so the
 *    root's memory is not the only source and, with the NUMA tree, each
 *    chunk crosses between NUMA nodes once per node.  The root helps the
 *    leaves among its children: they share their chunks with it.  A
 *    process whose buffer cannot serve as a source passes its parent's
 *    on to its children and waits for them before it acknowledges.
 */

#include "coll_shmcico_flow.h"
#include "coll_shmcico_tree.h"

/* An inner process learned that the message comes by single copy: its
 * children copy from its own buffer when it will hold all of it, else
 * from its source, and acknowledge to it either way. */
static bool forward_single(mca_coll_shmcico_call_t *call, mca_coll_shmcico_flow_t *flow,
                           const mca_coll_shmcico_flag_t *flag)
{
    mca_coll_shmcico_engine_t *e = call->engine;
    uint64_t total = mca_coll_shmcico_flag_total(flag);
    mca_coll_shmcico_flow_t *out;

    if (!mca_coll_shmcico_receive_single(call, flow, flag, flow->claim_proc)) {
        return false;
    }
    if (0 == call->nchildren) {
        return true;
    }
    mca_coll_shmcico_xfer_open(&e->view, e->rank, &call->op, false);
    flow->passing = !mca_coll_shmcico_region_fits(e, flow->block) || flow->limit != total;
    if (flow->passing) {
        mca_coll_shmcico_queue_forward(&e->view, &call->op, &flow->queue, flag,
                                       call->op.first_slot, 0);
        return true;
    }
    if (flow->block->region->npieces > 1) {
        /* its pieces go into its first slot of the bank */
        mca_coll_shmcico_op_claim(&e->view, e->rank, &e->waiter, &call->op);
    }
    mca_coll_shmcico_region_post(&e->view, e->rank, &call->op, flow->block->region);
    mca_coll_shmcico_received_start(&e->view, e->rank, &call->op);
    out = mca_coll_shmcico_call_flow(call, MCA_COLL_SHMCICO_FLOW_SEND_SINGLE, flow->block);
    /* the children copy what it holds so far, in its parent's chunks:
     * see mca_coll_shmcico_step_single_in() */
    mca_coll_shmcico_relay_single(call, out, flow, call->children, call->nchildren);
    call->acks_expected = (uint64_t) call->nchildren;
    return true;
}

static void bcast_root(mca_coll_shmcico_call_t *call, const mca_coll_shmcico_block_t *data,
                       const mca_coll_shmcico_verdict_t *verdict)
{
    mca_coll_shmcico_engine_t *e = call->engine;
    mca_coll_shmcico_readers_t everyone = { .only = -1, .except = e->rank };

    mca_coll_shmcico_op_claim(&e->view, e->rank, &e->waiter, &call->op);
    if (0 != verdict->error || verdict->decline) {
        mca_coll_shmcico_send_verdict(call, call->children, call->nchildren, verdict);
        return;
    }
    if (!mca_coll_shmcico_goes_single(e, data)) {
        mca_coll_shmcico_send_queue(call, mca_coll_shmcico_call_flow(call,
                                        MCA_COLL_SHMCICO_FLOW_SEND_QUEUE, data),
                                    e->rank, call->children, call->nchildren, everyone);
        return;
    }
    mca_coll_shmcico_region_post(&e->view, e->rank, &call->op, data->region);
    mca_coll_shmcico_xfer_open(&e->view, e->rank, &call->op, false);
    call->acks_expected = (uint64_t) call->nchildren;
    for (int i = 0; i < call->nchildren; ++i) {
        /* one flow per child: the leaves among them share their chunks */
        mca_coll_shmcico_flow_t *flow = mca_coll_shmcico_call_flow(call,
                                            MCA_COLL_SHMCICO_FLOW_SEND_SINGLE, data);
        mca_coll_shmcico_send_single(call, flow, &call->children[i], 1, 0,
                                     data->region->count, true);
        flow->peer = call->children[i];
        mca_coll_shmcico_help_reader(flow, call->children[i]);
    }
}

/* A leaf that would copy by single copy offers to share its chunks with
 * the root, which holds all of the message from the start. */
static void bcast_member(mca_coll_shmcico_call_t *call, const mca_coll_shmcico_block_t *data,
                         int parent, int root)
{
    mca_coll_shmcico_engine_t *e = call->engine;
    mca_coll_shmcico_flow_t *flow = mca_coll_shmcico_call_flow(call,
                                        MCA_COLL_SHMCICO_FLOW_RECEIVE, data);

    mca_coll_shmcico_receive_from_root(call, flow, root, parent,
                                       0 == call->nchildren
                                       && mca_coll_shmcico_goes_single(e, data));
    call->on_single = forward_single;
}

mca_coll_shmcico_result_t
mca_coll_shmcico_engine_bcast(mca_coll_shmcico_engine_t *engine,
                              const struct mca_coll_shmcico_place_t *place,
                              const mca_coll_shmcico_block_t *data,
                              const mca_coll_shmcico_verdict_t *verdict)
{
    mca_coll_shmcico_call_t call;

    mca_coll_shmcico_call_start(&call, engine);
    call.children = place->children;
    call.nchildren = place->nchildren;
    if (engine->rank == place->root) {
        bcast_root(&call, data, verdict);
    } else {
        bcast_member(&call, data, place->parent, place->root);
    }
    return mca_coll_shmcico_call_run(&call);
}
