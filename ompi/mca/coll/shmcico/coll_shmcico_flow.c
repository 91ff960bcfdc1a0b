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
 * setting up flows, stepping each kind, and the loop that runs a call.
 */

#include <errno.h>
#include <stdlib.h>

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

void mca_coll_shmcico_send_single(mca_coll_shmcico_call_t *call,
                                  mca_coll_shmcico_flow_t *flow, const int *notify,
                                  int nnotify, uint64_t displ, uint64_t count, bool all)
{
    const mca_coll_shmcico_view_t *view = &call->engine->view;

    for (int i = 0; i < nnotify; ++i) {
        mca_coll_shmcico_flag_t *flag = mca_coll_shmcico_flag(view, notify[i],
                                                              call->op.first_slot);
        flag->payload.single.source = call->engine->rank;
        flag->payload.single.all = all;
        flag->payload.single.chunk = flow->block->chunk;
        flag->payload.single.displ = displ;
        flag->payload.single.count = count;
        mca_coll_shmcico_flag_post(flag, &call->op, 0, MCA_COLL_SHMCICO_KIND_SINGLE,
                                   flow->block->stream->length);
    }
    flow->chunk = flow->block->chunk;
    flow->state = MCA_COLL_SHMCICO_FLOW_SINGLE;
    call->result.used_single = true;
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
    call->result.error = verdict->error;
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

void mca_coll_shmcico_offer(mca_coll_shmcico_call_t *call, mca_coll_shmcico_flow_t *flow)
{
    mca_coll_shmcico_engine_t *e = call->engine;

    if (flow->block->region->npieces > 1) {
        /* its pieces go into its first slot of the bank */
        mca_coll_shmcico_op_claim(&e->view, e->rank, &e->waiter, &call->op);
    }
    mca_coll_shmcico_xfer_open(&e->view, e->rank, &call->op, true);
    mca_coll_shmcico_region_post(&e->view, e->rank, &call->op, flow->block->region);
    flow->claim_proc = e->rank;
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

bool mca_coll_shmcico_receive_single(mca_coll_shmcico_call_t *call,
                                     mca_coll_shmcico_flow_t *flow,
                                     const mca_coll_shmcico_flag_t *flag, int claim_proc)
{
    const mca_coll_shmcico_payload_t *p = &flag->payload;
    uint64_t total = mca_coll_shmcico_flag_total(flag);
    uint64_t room = flow->block->stream->length;

    if (!mca_coll_shmcico_region_fetch(&call->engine->view, p->single.source, &call->op,
                                       &flow->remote)) {
        return false;               /* posted before the flag: never */
    }
    mca_coll_shmcico_region_block(&flow->remote, p->single.displ, p->single.count);
    flow->remote_proc = p->single.source;
    flow->have_remote = true;
    flow->chunk = p->single.chunk;
    flow->limit = total < room ? total : room;
    flow->complete = total <= room;
    flow->nchunks = mca_coll_shmcico_chunks(flow->limit, flow->chunk);
    flow->avail_proc = p->single.all ? -1 : p->single.source;
    flow->claim_proc = claim_proc;
    flow->state = MCA_COLL_SHMCICO_FLOW_SINGLE;
    call->result.used_single = true;
    return true;
}

/* ------------------------------------------------------------------ */
/* Chunks                                                               */

static void copy_failed(mca_coll_shmcico_call_t *call, int err)
{
    if (0 != err && MCA_COLL_SHMCICO_COPY_FAILED != call->result.status) {
        call->result.status = MCA_COLL_SHMCICO_COPY_FAILED;
        call->result.error = err;
    }
}

/* into a bounce buffer and unpacked: chunks in order only */
static int copy_through_bounce(mca_coll_shmcico_call_t *call,
                               mca_coll_shmcico_flow_t *flow, int source,
                               uint64_t offset, uint64_t len)
{
    mca_coll_shmcico_engine_t *e = call->engine;
    mca_coll_shmcico_region_t bounce;
    int err = 0;

    if (NULL == e->bounce && NULL == (e->bounce = malloc(e->bounce_size))) {
        return ENOMEM;
    }
    for (uint64_t done = 0; done < len && 0 == err; ) {
        uint64_t piece = len - done < e->bounce_size ? len - done : e->bounce_size;

        mca_coll_shmcico_region_contig(&bounce, e->bounce, piece);
        err = mca_coll_shmcico_single_copy(&e->copier, source, false, &bounce, 0,
                                           &flow->remote, offset + done, piece);
        flow->complete &= mca_coll_shmcico_stream_get(flow->block->stream, e->bounce, piece);
        done += piece;
    }
    return err;
}

/* chunk k of the flow's single copy, pulled (receive) or pushed (send) */
static void copy_chunk(mca_coll_shmcico_call_t *call, mca_coll_shmcico_flow_t *flow,
                       uint64_t k)
{
    bool push = MCA_COLL_SHMCICO_FLOW_SEND_SINGLE == flow->kind;
    int other = flow->remote_proc;
    uint64_t offset = k * flow->chunk;
    uint64_t len = flow->limit - offset < flow->chunk ? flow->limit - offset : flow->chunk;
    int err;

    if (NULL != flow->block->region) {
        err = mca_coll_shmcico_single_copy(&call->engine->copier, other, push,
                                           flow->block->region, offset, &flow->remote,
                                           offset, len);
    } else {
        err = copy_through_bounce(call, flow, other, offset, len);
    }
    copy_failed(call, err);
    call->result.copied += len;
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
            copy_failed(call, EPROTO);
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
        call->result.error = flag->payload.error;
    }
    flow->state = MCA_COLL_SHMCICO_FLOW_ENDED;
    return true;
}

/* every chunk copied: acknowledge the process whose flag this one
 * followed (one whose children copy from its source waits for them) */
static bool finish_single(mca_coll_shmcico_call_t *call, mca_coll_shmcico_flow_t *flow)
{
    const mca_coll_shmcico_view_t *view = &call->engine->view;

    if (flow->passing
        && mca_coll_shmcico_xfer_acks(view, call->engine->rank, &call->op)
           < (uint64_t) call->nchildren) {
        return false;
    }
    mca_coll_shmcico_xfer_ack(view, flow->peer, &call->op);
    flow->state = MCA_COLL_SHMCICO_FLOW_ENDED;
    return true;
}

/* the next chunk to copy: claimed, or the next in order; false when none
 * is left to take */
static bool take_chunk(mca_coll_shmcico_call_t *call, mca_coll_shmcico_flow_t *flow)
{
    if (UINT64_MAX != flow->pending) {
        return true;
    }
    if (flow->claim_proc >= 0) {
        return mca_coll_shmcico_xfer_claim(&call->engine->view, flow->claim_proc, &call->op,
                                           flow->nchunks, &flow->pending);
    }
    if (flow->next < flow->nchunks) {
        flow->pending = flow->next;
        return true;
    }
    return false;
}

/* whether everything of the single copy is in place */
static bool chunks_through(mca_coll_shmcico_call_t *call, const mca_coll_shmcico_flow_t *flow)
{
    if (flow->claim_proc < 0) {
        return flow->next >= flow->nchunks;
    }
    return mca_coll_shmcico_xfer_completed(&call->engine->view, flow->claim_proc, &call->op)
        >= flow->nchunks;
}

static bool step_single_in(mca_coll_shmcico_call_t *call, mca_coll_shmcico_flow_t *flow)
{
    const mca_coll_shmcico_view_t *view = &call->engine->view;

    if (!take_chunk(call, flow)) {
        return chunks_through(call, flow) && finish_single(call, flow);
    }
    /* a chunk its source does not hold yet (a Bcast source that is still
     * copying it from its own parent) */
    if (flow->avail_proc >= 0
        && !mca_coll_shmcico_received_reached(view, flow->avail_proc, &call->op,
                                              flow->pending + 1)) {
        return false;
    }
    copy_chunk(call, flow, flow->pending);
    if (flow->claim_proc >= 0) {
        mca_coll_shmcico_xfer_complete(view, flow->claim_proc, &call->op);
    } else {
        flow->next = flow->pending + 1;
        if (call->nchildren > 0 && !flow->passing) {
            /* its children copy what it holds */
            mca_coll_shmcico_received_set(view, call->engine->rank, &call->op, flow->next);
        }
    }
    flow->pending = UINT64_MAX;
    return true;
}

/* ------------------------------------------------------------------ */
/* Send flows                                                           */

/* A Gather root's place for this process's block, once the root has
 * published it: false while it has not, or when it takes no help. */
static bool root_entry(mca_coll_shmcico_call_t *call, mca_coll_shmcico_flow_t *flow)
{
    const mca_coll_shmcico_view_t *view = &call->engine->view;
    mca_coll_shmcico_entry_t *entry = &mca_coll_shmcico_entries(view, call->op.bank)[call->engine->rank];
    uint32_t decision;
    int32_t error;
    uint64_t displ;

    /* the root's region and entries come with its decision (acquire in
     * mca_coll_shmcico_decision_posted()) */
    if (!mca_coll_shmcico_decision_posted(view, &call->op, &decision, &error)) {
        return false;
    }
    displ = atomic_load_explicit(&entry->displ, memory_order_relaxed);
    if (MCA_COLL_SHMCICO_DECISION_SERVE != decision
        || MCA_COLL_SHMCICO_NO_ENTRY == displ
        || !mca_coll_shmcico_region_fetch(view, flow->peer, &call->op, &flow->remote)) {
        flow->state = MCA_COLL_SHMCICO_FLOW_ENDED;     /* the root copies it all */
        return false;
    }
    mca_coll_shmcico_region_block(&flow->remote, displ,
                                  atomic_load_explicit(&entry->count, memory_order_relaxed));
    return true;
}

/* The reader's block, once it offers help: Bcast and Scatter readers
 * post their region, a Gather root its entries. */
static bool helper_ready(mca_coll_shmcico_call_t *call, mca_coll_shmcico_flow_t *flow)
{
    uint64_t room;

    if (flow->have_remote) {
        return true;
    }
    if (flow->entry ? !root_entry(call, flow)
                    : !mca_coll_shmcico_region_fetch(&call->engine->view, flow->peer,
                                                     &call->op, &flow->remote)) {
        return false;
    }
    room = mca_coll_shmcico_region_bytes(&flow->remote);
    flow->remote_proc = flow->peer;
    flow->limit = flow->block->stream->length < room ? flow->block->stream->length : room;
    flow->nchunks = mca_coll_shmcico_chunks(flow->limit, flow->chunk);
    flow->have_remote = true;
    return true;
}

static bool step_single_out(mca_coll_shmcico_call_t *call, mca_coll_shmcico_flow_t *flow)
{
    uint64_t k;

    if (flow->claim_proc < 0 || !helper_ready(call, flow)) {
        return false;
    }
    if (!mca_coll_shmcico_xfer_claim(&call->engine->view, flow->claim_proc, &call->op,
                                     flow->nchunks, &k)) {
        flow->state = MCA_COLL_SHMCICO_FLOW_ENDED;     /* nothing left to help with */
        return false;
    }
    copy_chunk(call, flow, k);
    mca_coll_shmcico_xfer_complete(&call->engine->view, flow->claim_proc, &call->op);
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
        return MCA_COLL_SHMCICO_FLOW_SEND_SINGLE == flow->kind ? step_single_out(call, flow)
                                                               : step_single_in(call, flow);
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
    mca_coll_shmcico_received_set(view, call->engine->rank, &call->op, now);
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

static bool step_own(mca_coll_shmcico_call_t *call)
{
    bool complete = true;

    if (NULL == call->own_src || NULL == call->own_dst
        || 0 == mca_coll_shmcico_stream_copy(call->own_dst, call->own_src, OWN_CHUNK,
                                             &complete)) {
        call->own_src = call->own_dst = NULL;
        return false;
    }
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
