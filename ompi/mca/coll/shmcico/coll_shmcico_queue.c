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
 * The queue transport (see coll_shmcico_queue.h and docs/protocol.md):
 * fragments into and out of the slots of one bank, flags, rings.
 */

#include "coll_shmcico_queue.h"

/* (no division in the first lap: the path of every small call) */
static uint64_t fragment_slot(const mca_coll_shmcico_view_t *view,
                              const mca_coll_shmcico_seq_t *op, uint64_t k)
{
    uint64_t ring = mca_coll_shmcico_bank_slots(view);

    return op->first_slot + (k < ring ? k : k % ring);
}

static uint64_t fragment_lap(const mca_coll_shmcico_view_t *view, uint64_t k)
{
    uint64_t ring = mca_coll_shmcico_bank_slots(view);

    return k < ring ? 0 : k / ring;
}

/* Bytes of fragment k of a block. */
static uint64_t fragment_bytes(const mca_coll_shmcico_view_t *view, uint64_t bytes,
                               uint64_t k)
{
    uint64_t f = view->layout.fragment_size, left = bytes - k * f;

    return left < f ? left : f;
}

/* Whether the readers received fragment k - s/w, the one whose slot
 * fragment k takes. */
static bool ring_free(const mca_coll_shmcico_view_t *view, const mca_coll_shmcico_seq_t *op,
                      const mca_coll_shmcico_readers_t *readers, uint64_t k)
{
    uint64_t ring = mca_coll_shmcico_bank_slots(view), need = k - ring + 1;

    if (k < ring) {
        return true;                /* the op's claim freed the first lap */
    }
    if (readers->only >= 0) {
        return mca_coll_shmcico_received_reached(view, readers->only, op, need);
    }
    for (int i = 0; i < (int) view->layout.nprocs; ++i) {
        if (i != readers->except && !mca_coll_shmcico_received_reached(view, i, op, need)) {
            return false;
        }
    }
    return true;
}

bool mca_coll_shmcico_queue_write(const mca_coll_shmcico_view_t *view,
                                  const mca_coll_shmcico_seq_t *op,
                                  mca_coll_shmcico_queue_t *q,
                                  const mca_coll_shmcico_readers_t *readers)
{
    uint64_t k = q->next, size = fragment_bytes(view, q->bytes, k);
    uint32_t slot = (uint32_t) fragment_slot(view, op, k);
    unsigned char small[MCA_COLL_SHMCICO_INLINE];

    if (mca_coll_shmcico_queue_through(view, q) || !ring_free(view, op, readers, k)) {
        return false;
    }
    mca_coll_shmcico_stream_put(q->stream, size <= MCA_COLL_SHMCICO_INLINE
                                ? small : mca_coll_shmcico_slot(view, q->data_proc, slot),
                                size);
    mca_coll_shmcico_queue_post(view, op, q->notify, q->nnotify, slot, fragment_lap(view, k),
                                small, size, q->bytes);
    ++q->next;
    return true;
}

void mca_coll_shmcico_queue_refuse(const mca_coll_shmcico_view_t *view,
                                   const mca_coll_shmcico_seq_t *op,
                                   const mca_coll_shmcico_queue_t *q, uint64_t kind,
                                   int32_t error)
{
    mca_coll_shmcico_flags_post(view, op, q->notify, q->nnotify, op->first_slot, 0, &error,
                                sizeof(error), kind, 0);
}

mca_coll_shmcico_flag_t *mca_coll_shmcico_queue_first(const mca_coll_shmcico_view_t *view,
                                                      const mca_coll_shmcico_seq_t *op,
                                                      int flag_proc)
{
    mca_coll_shmcico_flag_t *flag = mca_coll_shmcico_flag(view, flag_proc, op->first_slot);

    return mca_coll_shmcico_flag_arrived(flag, op, 0) ? flag : NULL;
}

void mca_coll_shmcico_queue_forward(const mca_coll_shmcico_view_t *view,
                                    const mca_coll_shmcico_seq_t *op,
                                    const mca_coll_shmcico_queue_t *q,
                                    const mca_coll_shmcico_flag_t *flag, uint32_t slot,
                                    uint64_t lap)
{
    mca_coll_shmcico_flags_post(view, op, q->notify, q->nnotify, slot, lap, &flag->payload,
                                sizeof(flag->payload), mca_coll_shmcico_flag_size(flag),
                                mca_coll_shmcico_flag_total(flag));
}

bool mca_coll_shmcico_queue_read(const mca_coll_shmcico_view_t *view,
                                 const mca_coll_shmcico_seq_t *op,
                                 mca_coll_shmcico_queue_t *q, bool *complete)
{
    uint64_t k = q->next, lap = fragment_lap(view, k), size;
    uint32_t slot = (uint32_t) fragment_slot(view, op, k);
    mca_coll_shmcico_flag_t *flag = mca_coll_shmcico_flag(view, q->flag_proc, slot);

    if (mca_coll_shmcico_queue_through(view, q)
        || !mca_coll_shmcico_flag_arrived(flag, op, lap)) {
        return false;
    }
    mca_coll_shmcico_queue_forward(view, op, q, flag, slot, lap);
    size = mca_coll_shmcico_flag_size(flag) & ~MCA_COLL_SHMCICO_KIND_BITS;
    *complete &= mca_coll_shmcico_stream_get(q->stream,
                                             mca_coll_shmcico_fragment_at(view, flag,
                                                                          q->data_proc, slot,
                                                                          size),
                                             size);
    ++q->next;
    return true;
}
