/* -*- Mode: C; c-basic-offset:4 ; indent-tabs-mode:nil -*- */
/*
 * Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
 * $COPYRIGHT$
 *
 * Additional copyrights may follow
 *
 * $HEADER$
 */

/**
 * @file
 *
 * The serve skeleton every operation shares: a call is a set of flows,
 * one per block this process sends or receives, driven by one loop
 * until all are through (docs/protocol.md, "A call").  The operations
 * (coll_shmcico_plan_*.c) only say which flows a process has.
 *
 *  - A send flow writes its block into a queue, or announces it for
 *    single copy and may then help its reader with the chunks.
 *  - A receive flow waits for the block's first flag and follows what it
 *    says: fragments in a queue, a single copy, or no data (the root's
 *    error or its decision to hand the call back).
 *  - The loop gives queue work and a process's own copies first place,
 *    then the copy of its own block, then help with another process's
 *    chunks; it ends when every flow is through and every reader of this
 *    process's buffer has acknowledged.
 */

#ifndef MCA_COLL_SHMCICO_FLOW_H
#define MCA_COLL_SHMCICO_FLOW_H

#include "coll_shmcico_engine.h"

typedef enum {
    MCA_COLL_SHMCICO_FLOW_SEND_QUEUE,   /**< write a block into a queue */
    MCA_COLL_SHMCICO_FLOW_SEND_SINGLE,  /**< help a reader with its chunks */
    MCA_COLL_SHMCICO_FLOW_RECEIVE
} mca_coll_shmcico_flow_kind_t;

typedef enum {
    MCA_COLL_SHMCICO_FLOW_WAITING = 0,  /**< receive: before the first flag */
    MCA_COLL_SHMCICO_FLOW_QUEUE,
    MCA_COLL_SHMCICO_FLOW_SINGLE,
    MCA_COLL_SHMCICO_FLOW_ENDED
} mca_coll_shmcico_flow_state_t;

struct mca_coll_shmcico_call_t;

/** One block this process sends or receives in a call. */
typedef struct mca_coll_shmcico_flow_t {
    mca_coll_shmcico_flow_kind_t kind;
    mca_coll_shmcico_flow_state_t state;
    int peer;                       /**< the process at the other end: a receive
                                         acknowledges it, a single-copy send may
                                         help it (the one reader it serves) */
    int notify_one;                 /**< storage of a one-process notify list */
    mca_coll_shmcico_queue_t queue;
    mca_coll_shmcico_readers_t readers;     /**< send queue: its readers (rings) */
    const mca_coll_shmcico_block_t *block;  /**< this process's side of the block */
    /* single copy */
    mca_coll_shmcico_region_t remote;       /**< the other side's block */
    int remote_proc;                /**< whose address space it is in */
    bool have_remote;
    int claim_proc;                 /**< whose xfer line shares the chunks, -1: none */
    int avail_proc;                 /**< receive: whose received count says which
                                         chunks exist, -1: all do */
    uint64_t chunk;
    uint64_t nchunks;
    uint64_t next;                  /**< the next chunk taken in order */
    uint64_t pending;               /**< a claimed chunk not there yet, or UINT64_MAX */
    uint64_t limit;                 /**< bytes that move: min(sent, room) */
    bool helping;                   /**< its chunks are help: after own work */
    bool complete;                  /**< receive: nothing was dropped */
    bool passing;                   /**< receive: its children copy from its source */
    bool from_root;                 /**< receive: a refusal is the root's, for all */
    bool offer_late;                /**< receive: offer when the SINGLE flag comes */
    bool entry;                     /**< send single: the reader is a Gather root,
                                         its block is in its entries */
} mca_coll_shmcico_flow_t;

/** What a plan hands the skeleton for one call. */
typedef struct mca_coll_shmcico_call_t {
    mca_coll_shmcico_engine_t *engine;
    mca_coll_shmcico_seq_t op;
    mca_coll_shmcico_flow_t *flows;
    int nflows;
    mca_coll_shmcico_stream_t *own_src;     /**< this process's own block, copied */
    mca_coll_shmcico_stream_t *own_dst;     /**<   locally (both NULL: none) */
    uint64_t acks_expected;         /**< readers that must acknowledge this process */
    bool (*on_single)(struct mca_coll_shmcico_call_t *call,
                      mca_coll_shmcico_flow_t *flow,
                      const mca_coll_shmcico_flag_t *flag);   /**< Bcast: forward */
    bool rings;                     /**< some receive flow reads a ring */
    const int *children;            /**< Bcast: whom a receive flow forwards to */
    int nchildren;
    mca_coll_shmcico_result_t result;
} mca_coll_shmcico_call_t;

/** A call on the engine's next op (no waiting). */
void mca_coll_shmcico_call_start(mca_coll_shmcico_call_t *call,
                                 mca_coll_shmcico_engine_t *engine);

/** A new flow of the call, zeroed but for its kind and block. */
mca_coll_shmcico_flow_t *mca_coll_shmcico_call_flow(mca_coll_shmcico_call_t *call,
                                                    mca_coll_shmcico_flow_kind_t kind,
                                                    const mca_coll_shmcico_block_t *block);

/**
 * Send flows: put the block into data_proc's queue announced to
 * notify[] (queue), or announce it for single copy in notify[]'s first
 * flag: count elements from displ bytes on in this process's posted
 * region, all of them there already or not (a Bcast source still
 * receiving).  A single-copy flow helps its reader (flow->peer) when the
 * caller sets flow->claim_proc to the xfer line they share.
 */
void mca_coll_shmcico_send_queue(mca_coll_shmcico_call_t *call,
                                 mca_coll_shmcico_flow_t *flow, int data_proc,
                                 const int *notify, int nnotify,
                                 mca_coll_shmcico_readers_t readers);
void mca_coll_shmcico_send_single(mca_coll_shmcico_call_t *call,
                                  mca_coll_shmcico_flow_t *flow, const int *notify,
                                  int nnotify, uint64_t displ, uint64_t count, bool all);

/** A Bcast inner process announces its own buffer to its children as a
 *  source of what in (its receive flow) brings: in's chunks, which it
 *  counts in its received line as it holds them, and in's bytes. */
void mca_coll_shmcico_relay_single(mca_coll_shmcico_call_t *call,
                                   mca_coll_shmcico_flow_t *out,
                                   const mca_coll_shmcico_flow_t *in, const int *notify,
                                   int nnotify);

/** Whether a send flow goes by single copy (and was not refused). */
static inline bool mca_coll_shmcico_flow_copies(const mca_coll_shmcico_flow_t *flow)
{
    return MCA_COLL_SHMCICO_FLOW_SEND_SINGLE == flow->kind
        && MCA_COLL_SHMCICO_FLOW_ENDED != flow->state;
}

/** Whether block's region fits in this process's slots (it can be
 *  published for single copy). */
static inline bool mca_coll_shmcico_region_fits(const mca_coll_shmcico_engine_t *e,
                                                const mca_coll_shmcico_block_t *block)
{
    return NULL != block->region
        && block->region->npieces <= mca_coll_shmcico_region_capacity(&e->view);
}

/** Whether this process's side of block goes by single copy: its size
 *  says so, the system lets this process copy, and its region fits. */
static inline bool mca_coll_shmcico_goes_single(const mca_coll_shmcico_engine_t *e,
                                                const mca_coll_shmcico_block_t *block)
{
    return block->single && NULL != e->copier.copy && mca_coll_shmcico_region_fits(e, block);
}

/**
 * This process's own block out, announced in its own flag (Gather(v)
 * non-roots, Allgather(v)): a refusal when its arguments were bad
 * (error), through its queue to readers, or by single copy where the
 * block may and can go that way, with its xfer line open for claims
 * (pushes: the copy goes into the root's entry, claims by this
 * process).  Returns the flow.
 */
mca_coll_shmcico_flow_t *mca_coll_shmcico_send_own(mca_coll_shmcico_call_t *call,
                                                   const mca_coll_shmcico_block_t *own,
                                                   int32_t error,
                                                   mca_coll_shmcico_readers_t readers,
                                                   bool pushes);

/** Announce to notify[] that no data follows (kind FAULT or DECLINE). */
void mca_coll_shmcico_send_refusal(mca_coll_shmcico_call_t *call, const int *notify,
                                   int nnotify, uint64_t kind, int32_t error);

/** A root hands its verdict to notify[]: the call's result says so at
 *  the root too. */
void mca_coll_shmcico_send_verdict(mca_coll_shmcico_call_t *call, const int *notify,
                                   int nnotify, const mca_coll_shmcico_verdict_t *verdict);

/**
 * A receive flow: the block announced in flag_proc's first flag, whose
 * queue fragments lie in data_proc's slots; acknowledge peer after a
 * single copy.
 */
void mca_coll_shmcico_receive(mca_coll_shmcico_call_t *call,
                              mca_coll_shmcico_flow_t *flow, int flag_proc,
                              int data_proc, int peer);

/**
 * A receive flow of a block the root sends (Bcast, Scatter(v)),
 * announced in this process's own flag: a refusal there is the root's,
 * for everyone.  With offer, this process's region is posted and its
 * xfer line opened for claims, so that the root can help copy into it:
 * at once for a region of one piece per element, when the SINGLE flag
 * comes for more (their pieces go into this process's first slot, where
 * a root that sends the block through the queues after all may write).
 */
void mca_coll_shmcico_receive_from_root(mca_coll_shmcico_call_t *call,
                                        mca_coll_shmcico_flow_t *flow, int data_proc,
                                        int peer, bool offer);

/** After mca_coll_shmcico_send_single(): a root's flow of reader's block
 *  helps the reader with its chunks where there are several; a block of
 *  one chunk is the reader's alone, whose pull is faster than the root's
 *  push (docs/tuning.md, "Single copy from 16 KiB"). */
void mca_coll_shmcico_help_reader(mca_coll_shmcico_flow_t *flow, int reader);

/** A receiver offers to share the chunks of its block's single copy:
 *  its region posted (its pieces in its first slot of the bank) and its
 *  xfer line open for claims, its own claims taken there. */
void mca_coll_shmcico_offer(mca_coll_shmcico_call_t *call, mca_coll_shmcico_flow_t *flow);

/** Set up a receive flow's single copy from its first flag: the
 *  source's block, chunks, and whose claims (claim_proc) it takes. */
bool mca_coll_shmcico_receive_single(mca_coll_shmcico_call_t *call,
                                     mca_coll_shmcico_flow_t *flow,
                                     const mca_coll_shmcico_flag_t *flag, int claim_proc);

/** The call failed to copy (errno-style err, 0: it did not): the
 *  first failure is the call's result. */
static inline void mca_coll_shmcico_call_failed(mca_coll_shmcico_call_t *call, int err)
{
    if (0 != err && MCA_COLL_SHMCICO_COPY_FAILED != call->result.status) {
        call->result.status = MCA_COLL_SHMCICO_COPY_FAILED;
        call->result.copy_errno = err;
    }
}

/** One step of a single-copy flow (coll_shmcico_flow_single.c): a reader
 *  copies its next chunk, or acknowledges when all are in place; a
 *  sender helps with a chunk once its reader's place is posted.  Returns
 *  whether it moved anything. */
bool mca_coll_shmcico_step_single_in(mca_coll_shmcico_call_t *call,
                                     mca_coll_shmcico_flow_t *flow);
bool mca_coll_shmcico_step_single_out(mca_coll_shmcico_call_t *call,
                                      mca_coll_shmcico_flow_t *flow);

/** Run the call's flows to their end; finishes the op and returns the
 *  result. */
mca_coll_shmcico_result_t mca_coll_shmcico_call_run(mca_coll_shmcico_call_t *call);

#endif /* MCA_COLL_SHMCICO_FLOW_H */
