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
 * The serve skeleton (see coll_shmcico_flow.h and docs/protocol.md):
 * setting up flows, stepping queue flows and waiting ones, and the loop
 * that runs a call.  The single-copy flows are in
 * coll_shmcico_flow_single.c.
 */

#include <errno.h>

#include "coll_shmcico_flow.h"

/* bytes of a process's own block copied at once, between other work */
#define OWN_CHUNK ((size_t) 256 << 10)

void mca_coll_shmcico_call_start(mca_coll_shmcico_call_t *call,
                                 mca_coll_shmcico_engine_t *engine)
{
    memset(call, 0, sizeof(*call));
    call->engine = engine;
    call->flows = engine->flows;
    mca_coll_shmcico_op_next(&engine->view, &engine->last, &call->op);
    call->result.status = MCA_COLL_SHMCICO_DONE;
}

mca_coll_shmcico_flow_t *mca_coll_shmcico_call_flow(mca_coll_shmcico_call_t *call,
                                                    mca_coll_shmcico_flow_kind_t kind,
                                                    const mca_coll_shmcico_block_t *block)
{
    mca_coll_shmcico_flow_t *flow = &call->flows[call->nflows++];

    memset(flow, 0, sizeof(*flow));
    flow->kind = kind;
    flow->block = block;
    flow->claim_proc = -1;
    flow->avail_proc = -1;
    flow->pending = UINT64_MAX;
    flow->complete = true;
    return flow;
}

/* ------------------------------------------------------------------ */
/* Setting up flows                                                     */

void mca_coll_shmcico_send_queue(mca_coll_shmcico_call_t *call,
                                 mca_coll_shmcico_flow_t *flow, int data_proc,
                                 const int *notify, int nnotify,
                                 mca_coll_shmcico_readers_t readers)
{
    flow->queue = (mca_coll_shmcico_queue_t) {
        .data_proc = data_proc, .flag_proc = -1, .notify = notify, .nnotify = nnotify,
        .bytes = flow->block->stream->length, .stream = flow->block->stream
    };
    flow->readers = readers;
    flow->state = MCA_COLL_SHMCICO_FLOW_QUEUE;
    call->result.used_queue = true;
}

mca_coll_shmcico_flow_t *mca_coll_shmcico_send_own(mca_coll_shmcico_call_t *call,
                                                   const mca_coll_shmcico_block_t *own,
                                                   int32_t error,
                                                   mca_coll_shmcico_readers_t readers,
                                                   bool pushes)
{
    mca_coll_shmcico_engine_t *e = call->engine;
    bool single = mca_coll_shmcico_goes_single(e, own);
    mca_coll_shmcico_flow_t *flow =
        mca_coll_shmcico_call_flow(call, single ? MCA_COLL_SHMCICO_FLOW_SEND_SINGLE
                                                : MCA_COLL_SHMCICO_FLOW_SEND_QUEUE, own);

    flow->notify_one = e->rank;
    if (0 != error) {
        mca_coll_shmcico_send_refusal(call, &flow->notify_one, 1,
                                      MCA_COLL_SHMCICO_KIND_FAULT, error);
        flow->state = MCA_COLL_SHMCICO_FLOW_ENDED;
    } else if (!single) {
        mca_coll_shmcico_send_queue(call, flow, e->rank, &flow->notify_one, 1, readers);
    } else {
        mca_coll_shmcico_region_post(&e->view, e->rank, &call->op, own->region);
        mca_coll_shmcico_xfer_open(&e->view, e->rank, &call->op, pushes);
        mca_coll_shmcico_send_single(call, flow, &flow->notify_one, 1, 0,
                                     own->region->count, true);
    }
    return flow;
}

void mca_coll_shmcico_send_refusal(mca_coll_shmcico_call_t *call, const int *notify,
                                   int nnotify, uint64_t kind, int32_t error)
{
    mca_coll_shmcico_queue_t q = { .notify = notify, .nnotify = nnotify };

    mca_coll_shmcico_queue_refuse(&call->engine->view, &call->op, &q, kind, error);
}

void mca_coll_shmcico_send_verdict(mca_coll_shmcico_call_t *call, const int *notify,
                                   int nnotify, const mca_coll_shmcico_verdict_t *verdict)
{
    mca_coll_shmcico_send_refusal(call, notify, nnotify,
                                  verdict->decline ? MCA_COLL_SHMCICO_KIND_DECLINE
                                                   : MCA_COLL_SHMCICO_KIND_FAULT,
                                  verdict->error);
    call->result.status = verdict->decline ? MCA_COLL_SHMCICO_DECLINED
                                           : MCA_COLL_SHMCICO_FAULTED;
    call->result.mpi_error = verdict->error;
}

void mca_coll_shmcico_receive(mca_coll_shmcico_call_t *call,
                              mca_coll_shmcico_flow_t *flow, int flag_proc,
                              int data_proc, int peer)
{
    flow->queue = (mca_coll_shmcico_queue_t) {
        .data_proc = data_proc, .flag_proc = flag_proc, .notify = call->children,
        .nnotify = call->nchildren, .stream = flow->block->stream
    };
    flow->peer = peer;
    flow->state = MCA_COLL_SHMCICO_FLOW_WAITING;
}

void mca_coll_shmcico_receive_from_root(mca_coll_shmcico_call_t *call,
                                        mca_coll_shmcico_flow_t *flow, int data_proc,
                                        int peer, bool offer)
{
    mca_coll_shmcico_receive(call, flow, call->engine->rank, data_proc, peer);
    flow->from_root = true;
    flow->claim_proc = -1;
    flow->offer_late = offer && flow->block->region->npieces > 1;
    if (offer && !flow->offer_late) {
        mca_coll_shmcico_offer(call, flow);
    }
}

/* ------------------------------------------------------------------ */
/* Receive flows                                                        */

static bool step_queue_read(mca_coll_shmcico_call_t *call, mca_coll_shmcico_flow_t *flow)
{
    const mca_coll_shmcico_view_t *view = &call->engine->view;
    bool moved = false;

    while (mca_coll_shmcico_queue_read(view, &call->op, &flow->queue, &flow->complete)) {
        moved = true;
    }
    if (mca_coll_shmcico_queue_through(view, &flow->queue)) {
        flow->state = MCA_COLL_SHMCICO_FLOW_ENDED;
    }
    return moved;
}

/* the block's first flag: follow what it says */
static bool step_waiting(mca_coll_shmcico_call_t *call, mca_coll_shmcico_flow_t *flow)
{
    const mca_coll_shmcico_view_t *view = &call->engine->view;
    mca_coll_shmcico_flag_t *flag = mca_coll_shmcico_queue_first(view, &call->op,
                                                                 flow->queue.flag_proc);
    uint64_t kind;

    if (NULL == flag) {
        return false;
    }
    kind = mca_coll_shmcico_flag_size(flag) & MCA_COLL_SHMCICO_KIND_BITS;
    if (0 == kind) {
        flow->queue.bytes = mca_coll_shmcico_flag_total(flag);
        flow->state = MCA_COLL_SHMCICO_FLOW_QUEUE;
        call->rings |= mca_coll_shmcico_queue_rings(view, flow->queue.bytes);
        call->result.used_queue = true;
        return true;
    }
    if (MCA_COLL_SHMCICO_KIND_SINGLE == kind) {
        bool ok;
        if (flow->offer_late) {
            mca_coll_shmcico_offer(call, flow);
        }
        ok = NULL != call->on_single ? call->on_single(call, flow, flag)
            : mca_coll_shmcico_receive_single(call, flow, flag, flow->claim_proc);
        if (!ok) {
            mca_coll_shmcico_call_failed(call, EPROTO);
            flow->state = MCA_COLL_SHMCICO_FLOW_ENDED;
        }
        return true;
    }
    /* no data follows: the root's error or decision, or a sender's own
     * bad arguments (its block stays as it is) */
    mca_coll_shmcico_queue_forward(view, &call->op, &flow->queue, flag,
                                   call->op.first_slot, 0);
    if (flow->from_root) {
        call->result.status = MCA_COLL_SHMCICO_KIND_FAULT == kind ? MCA_COLL_SHMCICO_FAULTED
                                                                 : MCA_COLL_SHMCICO_DECLINED;
        call->result.mpi_error = flag->payload.error;
    }
    flow->state = MCA_COLL_SHMCICO_FLOW_ENDED;
    return true;
}

/* ------------------------------------------------------------------ */
/* The loop                                                             */

/* a flow that knows its transport */
static bool step_moving(mca_coll_shmcico_call_t *call, mca_coll_shmcico_flow_t *flow)
{
    switch (flow->state) {
    case MCA_COLL_SHMCICO_FLOW_QUEUE:
        if (MCA_COLL_SHMCICO_FLOW_SEND_QUEUE == flow->kind) {
            bool moved = mca_coll_shmcico_queue_write(&call->engine->view, &call->op,
                                                      &flow->queue, &flow->readers);
            if (mca_coll_shmcico_queue_through(&call->engine->view, &flow->queue)) {
                flow->state = MCA_COLL_SHMCICO_FLOW_ENDED;
            }
            return moved;
        }
        return step_queue_read(call, flow);
    case MCA_COLL_SHMCICO_FLOW_SINGLE:
        return MCA_COLL_SHMCICO_FLOW_SEND_SINGLE == flow->kind
            ? mca_coll_shmcico_step_single_out(call, flow)
            : mca_coll_shmcico_step_single_in(call, flow);
    default:
        return false;
    }
}

static bool step(mca_coll_shmcico_call_t *call, mca_coll_shmcico_flow_t *flow)
{
    if (MCA_COLL_SHMCICO_FLOW_WAITING != flow->state) {
        return step_moving(call, flow);
    }
    if (!step_waiting(call, flow)) {
        return false;
    }
    /* a flow that learned its transport goes on at once: a small block
     * ends here, not a round of the loop later */
    (void) step_moving(call, flow);
    return true;
}

/* Fragments this process has of every ring it reads, UINT64_MAX while
 * it knows of none (a flow still waiting for its first flag may turn out
 * to be one: it counts 0). */
static uint64_t rings_received(const mca_coll_shmcico_call_t *call)
{
    const mca_coll_shmcico_view_t *view = &call->engine->view;
    uint64_t least = UINT64_MAX;
    bool ring = false;

    for (int i = 0; i < call->nflows; ++i) {
        const mca_coll_shmcico_flow_t *f = &call->flows[i];
        if (MCA_COLL_SHMCICO_FLOW_RECEIVE != f->kind) {
            continue;
        }
        if (MCA_COLL_SHMCICO_FLOW_WAITING == f->state) {
            least = 0;
        } else if (MCA_COLL_SHMCICO_FLOW_QUEUE == f->state
                   && mca_coll_shmcico_queue_rings(view, f->queue.bytes)) {
            least = f->queue.next < least ? f->queue.next : least;
            ring = true;
        }
    }
    return ring ? least : UINT64_MAX;
}

/* Tell the writers of the rings this process reads how far it got. */
static void post_rings(mca_coll_shmcico_call_t *call, uint64_t *posted)
{
    const mca_coll_shmcico_view_t *view = &call->engine->view;
    uint64_t now;

    if (!call->rings) {
        return;                     /* nothing to tell: no walk of the flows */
    }
    now = rings_received(call);
    if (UINT64_MAX == now || now == *posted) {
        return;
    }
    if (UINT64_MAX == *posted) {
        mca_coll_shmcico_received_start(view, call->engine->rank, &call->op);
    }
    mca_coll_shmcico_received_set(view, call->engine->rank, &call->op, now, 0);
    *posted = now;
}

/* one pass over the flows of one priority: help or not */
static bool step_all(mca_coll_shmcico_call_t *call, bool help)
{
    bool moved = false;

    for (int i = 0; i < call->nflows; ++i) {
        mca_coll_shmcico_flow_t *flow = &call->flows[i];
        bool helps = flow->helping && MCA_COLL_SHMCICO_FLOW_SINGLE == flow->state;
        if (helps == help && MCA_COLL_SHMCICO_FLOW_ENDED != flow->state) {
            moved |= step(call, flow);
        }
    }
    return moved;
}

/* A large own block goes with streaming stores, which do not first read
 * the destination's lines into the cache (docs/design.md, "Streaming
 * stores"): where its receive stream asks for them (the caller's rule
 * by size) and both ends are contiguous. */
static bool own_streams(const mca_coll_shmcico_stream_t *src,
                        const mca_coll_shmcico_stream_t *dst)
{
    return dst->own_streaming && NULL != src->contig && NULL != dst->contig;
}

static bool step_own(mca_coll_shmcico_call_t *call)
{
    mca_coll_shmcico_stream_t *src = call->own_src, *dst = call->own_dst;
    bool complete = true, streaming;
    size_t before;

    if (NULL == src || NULL == dst) {
        return false;
    }
    streaming = own_streams(src, dst);
    before = dst->done;
    if (0 == mca_coll_shmcico_stream_copy(dst, src, OWN_CHUNK, streaming, &complete)) {
        call->own_src = call->own_dst = NULL;
        return false;
    }
    call->result.own_streamed += streaming ? dst->done - before : 0;
    if (!complete && MCA_COLL_SHMCICO_DONE == call->result.status) {
        call->result.status = MCA_COLL_SHMCICO_TRUNCATED;
    }
    return true;
}

static bool call_through(mca_coll_shmcico_call_t *call)
{
    for (int i = 0; i < call->nflows; ++i) {
        if (MCA_COLL_SHMCICO_FLOW_SEND_SINGLE != call->flows[i].kind
            && MCA_COLL_SHMCICO_FLOW_ENDED != call->flows[i].state) {
            return false;
        }
    }
    return NULL == call->own_src
        && (0 == call->acks_expected
            || mca_coll_shmcico_xfer_acks(&call->engine->view, call->engine->rank, &call->op)
               >= call->acks_expected);
}

/* what the call's queues moved, and whether anything was dropped */
static void account(mca_coll_shmcico_call_t *call)
{
    mca_coll_shmcico_result_t *r = &call->result;

    for (int i = 0; i < call->nflows; ++i) {
        const mca_coll_shmcico_flow_t *f = &call->flows[i];
        if (MCA_COLL_SHMCICO_FLOW_SEND_SINGLE != f->kind && 0 != f->queue.next) {
            r->queued += f->queue.stream->done;
            if (MCA_COLL_SHMCICO_FLOW_SEND_QUEUE == f->kind && f->queue.stream->streaming) {
                r->streamed += f->queue.stream->done;
            }
        }
        if (!f->complete && MCA_COLL_SHMCICO_DONE == r->status) {
            r->status = MCA_COLL_SHMCICO_TRUNCATED;
        }
    }
}

mca_coll_shmcico_result_t mca_coll_shmcico_call_run(mca_coll_shmcico_call_t *call)
{
    uint64_t posted = UINT64_MAX;
    unsigned spins = 0;

    for (;;) {
        bool moved = step_all(call, false);

        post_rings(call, &posted);
        moved = moved || step_own(call) || step_all(call, true);
        if (call_through(call)) {
            break;
        }
        if (!moved) {
            mca_coll_shmcico_wait_round(&call->engine->waiter, &spins);
        }
    }
    account(call);
    mca_coll_shmcico_op_finish(&call->engine->view, call->engine->rank, &call->op);
    return call->result;
}
