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
 * Scatter(v) and Gather(v)'s flows, mirror images (docs/protocol.md,
 * "Scatter and Gather").  The root's own block never leaves it.
 *  - Scatter: the root writes block i into process i's queue, or
 *    announces it in i's first flag for single copy; every process pulls
 *    its own block, and the root, once its own block is copied, helps
 *    those that share their chunks.
 *  - Gather: every process writes its block into its own queue, or
 *    announces it for single copy; the root publishes once where every
 *    block goes, so each process pushes its own block while the root,
 *    after its own, pulls chunks of theirs.  A process whose block goes
 *    through its queue returns as soon as it is written: it waits for
 *    the root only with a size limit, whose decision is the root's.
 */

#include "coll_shmcico_flow.h"

/* The root's blocks share one datatype: its region is published with
 * base 0, each block's flag or entry carries the block's address. */
static void post_root_region(mca_coll_shmcico_call_t *call,
                             const mca_coll_shmcico_region_t *block)
{
    mca_coll_shmcico_region_t common = *block;

    common.base = 0;
    mca_coll_shmcico_region_post(&call->engine->view, call->engine->rank, &call->op,
                                 &common);
}

static mca_coll_shmcico_flow_t *one_flow(mca_coll_shmcico_call_t *call,
                                         mca_coll_shmcico_flow_kind_t kind,
                                         const mca_coll_shmcico_block_t *block, int peer)
{
    mca_coll_shmcico_flow_t *flow = mca_coll_shmcico_call_flow(call, kind, block);

    flow->notify_one = peer;
    flow->peer = peer;
    return flow;
}

/* ------------------------------------------------------------------ */
/* Scatter                                                              */

static void scatter_root(mca_coll_shmcico_call_t *call, const mca_coll_shmcico_block_t *blocks)
{
    mca_coll_shmcico_engine_t *e = call->engine;
    bool posted = false;

    for (int n = 1; n < e->nprocs; ++n) {
        int i = (e->rank + n) % e->nprocs;
        const mca_coll_shmcico_block_t *b = &blocks[i];
        bool single = mca_coll_shmcico_goes_single(e, b);
        mca_coll_shmcico_flow_t *flow = one_flow(call, single ? MCA_COLL_SHMCICO_FLOW_SEND_SINGLE
                                                               : MCA_COLL_SHMCICO_FLOW_SEND_QUEUE,
                                                 b, i);
        if (!single) {
            mca_coll_shmcico_readers_t reader = { .only = i, .except = -1 };
            mca_coll_shmcico_send_queue(call, flow, i, &flow->notify_one, 1, reader);
            continue;
        }
        if (!posted) {
            post_root_region(call, b->region);
            mca_coll_shmcico_xfer_open(&e->view, e->rank, &call->op, false);
            posted = true;
        }
        mca_coll_shmcico_send_single(call, flow, &flow->notify_one, 1, b->region->base,
                                     b->region->count, true);
        mca_coll_shmcico_help_reader(flow, i);     /* if i shares its chunks */
        ++call->acks_expected;
    }
}

static void scatter_member(mca_coll_shmcico_call_t *call, const mca_coll_shmcico_block_t *own,
                           int root)
{
    mca_coll_shmcico_engine_t *e = call->engine;
    mca_coll_shmcico_flow_t *flow = one_flow(call, MCA_COLL_SHMCICO_FLOW_RECEIVE, own, root);

    mca_coll_shmcico_receive_from_root(call, flow, e->rank, root,
                                       mca_coll_shmcico_goes_single(e, own));
}

/* ------------------------------------------------------------------ */
/* Gather                                                               */

/* Where every block goes, for the processes that push theirs: the
 * decision's post releases the region and the entries (the acquire is
 * in root_entry(), coll_shmcico_flow_single.c). */
static void gather_publish(mca_coll_shmcico_call_t *call, const mca_coll_shmcico_block_t *blocks,
                           uint32_t decision, int32_t error)
{
    mca_coll_shmcico_engine_t *e = call->engine;
    mca_coll_shmcico_entry_t *entries = mca_coll_shmcico_entries(&e->view, call->op.bank);
    bool posted = false;

    for (int i = 0; NULL != blocks && i < e->nprocs; ++i) {
        bool helped = i != e->rank && mca_coll_shmcico_goes_single(e, &blocks[i]);
        if (helped && !posted) {
            post_root_region(call, blocks[i].region);
            posted = true;
        }
        atomic_store_explicit(&entries[i].displ, helped ? blocks[i].region->base
                                                        : MCA_COLL_SHMCICO_NO_ENTRY,
                              memory_order_relaxed);
        atomic_store_explicit(&entries[i].count, helped ? blocks[i].region->count : 0,
                              memory_order_relaxed);
    }
    mca_coll_shmcico_decision_post(&e->view, &call->op, decision, error);
}

static void gather_root(mca_coll_shmcico_call_t *call, const mca_coll_shmcico_block_t *blocks,
                        const mca_coll_shmcico_verdict_t *verdict)
{
    mca_coll_shmcico_engine_t *e = call->engine;
    mca_coll_shmcico_entry_t *entries = mca_coll_shmcico_entries(&e->view, call->op.bank);

    mca_coll_shmcico_op_claim(&e->view, e->rank, &e->waiter, &call->op);
    if (verdict->decline) {
        /* only with a size limit, where every sender follows the root */
        gather_publish(call, NULL, MCA_COLL_SHMCICO_DECISION_DECLINE, 0);
        call->result.status = MCA_COLL_SHMCICO_DECLINED;
        return;
    }
    /* with bad arguments its blocks are empty: it still takes part */
    gather_publish(call, blocks, 0 != verdict->error ? MCA_COLL_SHMCICO_DECISION_FAULT
                                                     : MCA_COLL_SHMCICO_DECISION_SERVE,
                   verdict->error);
    if (0 != verdict->error) {
        call->result.status = MCA_COLL_SHMCICO_FAULTED;
        call->result.mpi_error = verdict->error;
    }
    for (int n = 1; n < e->nprocs; ++n) {
        int i = (e->rank + n) % e->nprocs;
        mca_coll_shmcico_flow_t *flow = one_flow(call, MCA_COLL_SHMCICO_FLOW_RECEIVE,
                                                 &blocks[i], i);
        mca_coll_shmcico_receive(call, flow, i, i, i);
        flow->claim_proc = i;       /* a sender by single copy shares its chunks */
        /* a sender that can push its block does: pulling is help */
        flow->helping = MCA_COLL_SHMCICO_NO_ENTRY
            != atomic_load_explicit(&entries[i].displ, memory_order_relaxed);
    }
}

/* With a size limit the root decides for everyone: wait for it. */
static bool gather_follow(mca_coll_shmcico_call_t *call)
{
    mca_coll_shmcico_engine_t *e = call->engine;
    int32_t error;

    switch (mca_coll_shmcico_decision_wait(&e->view, &e->waiter, &call->op, &error)) {
    case MCA_COLL_SHMCICO_DECISION_DECLINE:
        call->result.status = MCA_COLL_SHMCICO_DECLINED;
        return false;
    case MCA_COLL_SHMCICO_DECISION_FAULT:
        call->result.status = MCA_COLL_SHMCICO_FAULTED;
        call->result.mpi_error = error;
        return true;                /* the root still takes part */
    default:
        return true;
    }
}

static void gather_member(mca_coll_shmcico_call_t *call, const mca_coll_shmcico_block_t *own,
                          int root, int32_t error)
{
    mca_coll_shmcico_engine_t *e = call->engine;
    mca_coll_shmcico_readers_t reader = { .only = root, .except = -1 };
    mca_coll_shmcico_flow_t *flow;

    mca_coll_shmcico_op_claim(&e->view, e->rank, &e->waiter, &call->op);
    flow = mca_coll_shmcico_send_own(call, own, error, reader, true);
    flow->peer = root;
    if (mca_coll_shmcico_flow_copies(flow)) {
        flow->claim_proc = e->rank;
        flow->entry = true;         /* it pushes where the root's entry says */
        call->acks_expected = 1;
    }
}

mca_coll_shmcico_result_t
mca_coll_shmcico_engine_rooted(mca_coll_shmcico_engine_t *engine, int root, bool scatter,
                               const mca_coll_shmcico_block_t *own,
                               const mca_coll_shmcico_block_t *blocks,
                               const mca_coll_shmcico_verdict_t *verdict, bool follow_root)
{
    mca_coll_shmcico_call_t call;
    bool is_root = engine->rank == root;

    mca_coll_shmcico_call_start(&call, engine);
    if (is_root && scatter) {
        mca_coll_shmcico_op_claim(&engine->view, engine->rank, &engine->waiter, &call.op);
        if (0 != verdict->error || verdict->decline) {
            /* every other process learns it from its first flag */
            for (int n = 1; n < engine->nprocs; ++n) {
                engine->scratch[n - 1] = (root + n) % engine->nprocs;
            }
            mca_coll_shmcico_send_verdict(&call, engine->scratch, engine->nprocs - 1,
                                          verdict);
        } else {
            scatter_root(&call, blocks);
        }
    } else if (is_root) {
        gather_root(&call, blocks, verdict);
    } else if (scatter) {
        scatter_member(&call, own, root);
    } else if (!follow_root || gather_follow(&call)) {
        gather_member(&call, own, root, verdict->error);
    }
    if (is_root && NULL != own && MCA_COLL_SHMCICO_DONE == call.result.status) {
        call.own_src = scatter ? blocks[root].stream : own->stream;
        call.own_dst = scatter ? own->stream : blocks[root].stream;
    }
    return mca_coll_shmcico_call_run(&call);
}
