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
 * The single-copy flows of the serve skeleton (coll_shmcico_flow.h).
 * The protocol they follow is docs/protocol.md, "Single copy"; in short:
 *  - the source posts its region, then a SINGLE flag: whose region, the
 *    chunk size, and where the block lies in that region;
 *  - where the other side can help, the chunks are shared through the
 *    xfer line of the process that is not the root (a Bcast or Scatter
 *    reader that offers help, a Gather sender): each side claims a
 *    chunk with a compare-and-swap, a pull the first one left and a
 *    push the last one, and counts it completed there; without sharing,
 *    the reader copies its chunks in order;
 *  - the reader pulls (through a bounce buffer when its own layout is
 *    not published); a helper pushes once the reader's region, or the
 *    Gather root's entry, is posted;
 *  - a reader with every chunk in place acknowledges the process whose
 *    flag it followed (a Bcast reader whose children copy from the same
 *    source first waits for their acknowledgements).
 */

#include <errno.h>
#include <stdlib.h>

#include "coll_shmcico_flow.h"

/* ------------------------------------------------------------------ */
/* Setting up                                                           */

/* the SINGLE flag: this process's region from displ, total bytes in
 * chunks of chunk bytes */
static void announce(mca_coll_shmcico_call_t *call, mca_coll_shmcico_flow_t *flow,
                     const int *notify, int nnotify, uint64_t displ, uint64_t count,
                     bool all, uint64_t chunk, uint64_t total)
{
    mca_coll_shmcico_payload_t payload = { .single = {
        .source = call->engine->rank, .all = all, .chunk = chunk, .displ = displ,
        .count = count } };

    mca_coll_shmcico_flags_post(&call->engine->view, &call->op, notify, nnotify,
                                call->op.first_slot, 0, &payload, sizeof(payload.single),
                                MCA_COLL_SHMCICO_KIND_SINGLE, total);
    flow->chunk = chunk;
    flow->state = MCA_COLL_SHMCICO_FLOW_SINGLE;
    call->result.used_single = true;
}

void mca_coll_shmcico_send_single(mca_coll_shmcico_call_t *call,
                                  mca_coll_shmcico_flow_t *flow, const int *notify,
                                  int nnotify, uint64_t displ, uint64_t count, bool all)
{
    announce(call, flow, notify, nnotify, displ, count, all, flow->block->chunk,
             flow->block->stream->length);
}

void mca_coll_shmcico_relay_single(mca_coll_shmcico_call_t *call,
                                   mca_coll_shmcico_flow_t *out,
                                   const mca_coll_shmcico_flow_t *in, const int *notify,
                                   int nnotify)
{
    /* in's chunks, which this process counts in its received line, and
     * what it will hold (a longer buffer holds no more) */
    announce(call, out, notify, nnotify, 0, out->block->region->count, false, in->chunk,
             in->limit);
}

void mca_coll_shmcico_help_reader(mca_coll_shmcico_flow_t *flow, int reader)
{
    if (mca_coll_shmcico_chunks(flow->block->stream->length, flow->chunk) > 1) {
        flow->claim_proc = reader;
        flow->helping = true;
    } else {
        flow->state = MCA_COLL_SHMCICO_FLOW_ENDED;  /* the reader's alone */
    }
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

/* chunk k of the flow's single copy, pulled (receive) or pushed (send);
 * returns 0 or the copy's errno (the call's too) */
static int copy_chunk(mca_coll_shmcico_call_t *call, mca_coll_shmcico_flow_t *flow,
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
    mca_coll_shmcico_call_failed(call, err);
    call->result.copied += 0 == err ? len : 0;     /* what MPI_T counts as single copy */
    return err;
}

/* ------------------------------------------------------------------ */
/* Receive flows: pulling                                               */

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
    if (flow->claim_proc >= 0) {
        /* a chunk its partner failed to copy for it */
        mca_coll_shmcico_call_failed(call, mca_coll_shmcico_xfer_error(view, flow->claim_proc,
                                                                       &call->op));
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
                                           flow->nchunks, MCA_COLL_SHMCICO_FRONT,
                                           &flow->pending);
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

bool mca_coll_shmcico_step_single_in(mca_coll_shmcico_call_t *call,
                                     mca_coll_shmcico_flow_t *flow)
{
    const mca_coll_shmcico_view_t *view = &call->engine->view;
    int err;

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
    err = copy_chunk(call, flow, flow->pending);
    if (0 == err && flow->avail_proc >= 0) {
        /* a source that failed to get a chunk passes on wrong bytes */
        err = mca_coll_shmcico_received_error(view, flow->avail_proc, &call->op);
        mca_coll_shmcico_call_failed(call, err);
    }
    if (flow->claim_proc >= 0) {
        mca_coll_shmcico_xfer_complete(view, flow->claim_proc, &call->op, err);
    } else {
        flow->next = flow->pending + 1;
        if (call->nchildren > 0 && !flow->passing) {
            /* its children copy what it holds */
            mca_coll_shmcico_received_set(view, call->engine->rank, &call->op, flow->next,
                                          err);
        }
    }
    flow->pending = UINT64_MAX;
    return true;
}

/* ------------------------------------------------------------------ */
/* Send flows: pushing                                                  */

/* A Gather root's place for this process's block, once the root has
 * published it: false while it has not, or when it takes no help. */
static bool root_entry(mca_coll_shmcico_call_t *call, mca_coll_shmcico_flow_t *flow)
{
    const mca_coll_shmcico_view_t *view = &call->engine->view;
    mca_coll_shmcico_entry_t *entry
        = &mca_coll_shmcico_entries(view, call->op.bank)[call->engine->rank];
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

bool mca_coll_shmcico_step_single_out(mca_coll_shmcico_call_t *call,
                                      mca_coll_shmcico_flow_t *flow)
{
    uint64_t k;

    if (flow->claim_proc < 0 || !helper_ready(call, flow)) {
        return false;
    }
    if (!mca_coll_shmcico_xfer_claim(&call->engine->view, flow->claim_proc, &call->op,
                                     flow->nchunks, MCA_COLL_SHMCICO_BACK, &k)) {
        flow->state = MCA_COLL_SHMCICO_FLOW_ENDED;     /* nothing left to help with */
        return false;
    }
    mca_coll_shmcico_xfer_complete(&call->engine->view, flow->claim_proc, &call->op,
                                   copy_chunk(call, flow, k));
    return true;
}
