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
 * The queue (copy-in/copy-out) transport: a block travels as fragments of
 * f bytes through the s/w slots a queue has in the call's bank; a flag
 * per slot announces each fragment (docs/protocol.md, "Queues" and
 * "Rings").
 *
 *  - Fragment k of a block goes into slot k mod (s/w) of the bank, lap
 *    k / (s/w).  Every block has at least one fragment (an empty one for
 *    an empty block): its flag tells the reader the block's bytes.
 *  - A fragment of up to 32 bytes travels in the flag's payload.
 *  - When a block has more fragments than the bank has slots, the slots
 *    are a ring: before it writes fragment k >= s/w the writer waits until
 *    every reader of the queue has received fragment k - s/w (their
 *    received lines, see coll_shmcico_sync.h).  A reader counts in its
 *    received line the fragments it has of every ring it reads.
 *  - The reader follows the writer: it takes as many fragments as the
 *    writer's first flag says, keeps what fits its buffer and reports a
 *    truncation when bytes had to be dropped.  So a writer and a reader
 *    that disagree on the size stay in step.
 *  - Bcast forwards: a reader passes each fragment's flag on to its
 *    children in the notification tree before it copies the fragment out
 *    of the root's slot.
 */

#ifndef MCA_COLL_SHMCICO_QUEUE_H
#define MCA_COLL_SHMCICO_QUEUE_H

#include "coll_shmcico_stream.h"
#include "coll_shmcico_sync.h"

/** The readers of a queue: one process, or every process but one. */
typedef struct mca_coll_shmcico_readers_t {
    int only;                       /**< the reader, or -1 */
    int except;                     /**< with only == -1: the one that does not read */
} mca_coll_shmcico_readers_t;

/** One queue of one call, as one process (its writer or a reader) sees it. */
typedef struct mca_coll_shmcico_queue_t {
    int data_proc;                  /**< whose slots hold the fragments */
    int flag_proc;                  /**< reader: whose flags announce them */
    const int *notify;              /**< whose flags it posts: a writer its */
    int nnotify;                    /**<   readers', a Bcast reader its children's */
    uint64_t bytes;                 /**< the block's bytes, as its writer has them */
    uint64_t next;                  /**< the next fragment to write or read */
    mca_coll_shmcico_stream_t *stream;
} mca_coll_shmcico_queue_t;

/** Fragments of a block of bytes (at least one). */
static inline uint64_t mca_coll_shmcico_queue_fragments(const mca_coll_shmcico_view_t *view,
                                                        uint64_t bytes)
{
    uint64_t f = view->layout.fragment_size;

    /* the division only when there is more than one: it is on the path
     * of every small call */
    return bytes <= f ? 1 : (bytes - 1) / f + 1;
}

/** Whether a block of bytes needs its queue's slots more than once. */
static inline bool mca_coll_shmcico_queue_rings(const mca_coll_shmcico_view_t *view,
                                                uint64_t bytes)
{
    return mca_coll_shmcico_queue_fragments(view, bytes) > mca_coll_shmcico_bank_slots(view);
}

/** Whether every fragment of the queue has been written or read. */
static inline bool mca_coll_shmcico_queue_through(const mca_coll_shmcico_view_t *view,
                                                  const mca_coll_shmcico_queue_t *q)
{
    return q->next >= mca_coll_shmcico_queue_fragments(view, q->bytes);
}

/** Where an arrived flag's fragment lies: in the flag's payload (up to
 *  MCA_COLL_SHMCICO_INLINE bytes) or in data_proc's slot. */
static inline const unsigned char *
mca_coll_shmcico_fragment_at(const mca_coll_shmcico_view_t *view,
                             const mca_coll_shmcico_flag_t *flag, int data_proc,
                             uint32_t slot, uint64_t size)
{
    return size <= MCA_COLL_SHMCICO_INLINE ? flag->payload.data
                                           : mca_coll_shmcico_slot(view, data_proc, slot);
}

/**
 * Writer: announce a fragment of size bytes (of a block of total) to the
 * flags of slot in notify[]; one of up to MCA_COLL_SHMCICO_INLINE bytes
 * is given in inline_data and goes into each payload, a larger one must
 * be in the slot already.
 */
static inline void mca_coll_shmcico_queue_post(const mca_coll_shmcico_view_t *view,
                                               const mca_coll_shmcico_seq_t *op,
                                               const int *notify, int nnotify, uint32_t slot,
                                               uint64_t lap, const void *inline_data,
                                               uint64_t size, uint64_t total)
{
    mca_coll_shmcico_flags_post(view, op, notify, nnotify, slot, lap, inline_data,
                                size <= MCA_COLL_SHMCICO_INLINE ? size : 0, size, total);
}

/**
 * Writer: put fragment q->next of the block (q->bytes from q->stream)
 * into q->data_proc's slot and post the flags of q->notify, unless the
 * ring's slot still holds a fragment some reader has not received.
 * Returns whether it wrote.
 */
bool mca_coll_shmcico_queue_write(const mca_coll_shmcico_view_t *view,
                                  const mca_coll_shmcico_seq_t *op,
                                  mca_coll_shmcico_queue_t *q,
                                  const mca_coll_shmcico_readers_t *readers);

/**
 * Writer: tell the readers through q->notify's first flag that no data
 * follows: kind is MCA_COLL_SHMCICO_KIND_FAULT (with the writer's MPI
 * error) or _DECLINE.
 */
void mca_coll_shmcico_queue_refuse(const mca_coll_shmcico_view_t *view,
                                   const mca_coll_shmcico_seq_t *op,
                                   const mca_coll_shmcico_queue_t *q, uint64_t kind,
                                   int32_t error);

/** Reader: the flag of the block's first fragment, once it arrived; NULL
 *  before. */
mca_coll_shmcico_flag_t *mca_coll_shmcico_queue_first(const mca_coll_shmcico_view_t *view,
                                                      const mca_coll_shmcico_seq_t *op,
                                                      int flag_proc);

/**
 * Reader: take fragment q->next if its flag arrived (forwarding the flag
 * to q->notify first), keeping what fits into q->stream; *complete is
 * cleared when bytes had to be dropped.  q->bytes must be set from the
 * first flag.  Returns whether it took a fragment.
 */
bool mca_coll_shmcico_queue_read(const mca_coll_shmcico_view_t *view,
                                 const mca_coll_shmcico_seq_t *op,
                                 mca_coll_shmcico_queue_t *q, bool *complete);

/** Forward an arrived flag of the given slot and lap to q->notify (Bcast:
 *  refusals and single copies travel down the tree too). */
void mca_coll_shmcico_queue_forward(const mca_coll_shmcico_view_t *view,
                                    const mca_coll_shmcico_seq_t *op,
                                    const mca_coll_shmcico_queue_t *q,
                                    const mca_coll_shmcico_flag_t *flag, uint32_t slot,
                                    uint64_t lap);

#endif /* MCA_COLL_SHMCICO_QUEUE_H */
