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
 * The synchronisation primitives (see coll_shmcico_sync.h and
 * docs/protocol.md): the waiting loop, ops and banks, the received lines
 * and the xfer lines.
 */

#include <assert.h>
#include <sched.h>

#include "coll_shmcico_sync.h"

void mca_coll_shmcico_wait_round(const mca_coll_shmcico_waiter_t *waiter,
                                 unsigned *spins)
{
    if (waiter->yield) {
        /* more processes than cores: the process we wait for may need
         * this core to make progress */
        if (NULL != waiter->progress) {
            waiter->progress();
        }
        sched_yield();
        return;
    }
    if (++*spins >= waiter->spins_per_progress) {
        *spins = 0;
        if (NULL != waiter->progress) {
            waiter->progress();
        }
    } else {
        mca_coll_shmcico_cpu_relax();
    }
}

/* ------------------------------------------------------------------ */
/* Received                                                             */

void mca_coll_shmcico_received_start(const mca_coll_shmcico_view_t *view, int me,
                                     const mca_coll_shmcico_seq_t *op)
{
    mca_coll_shmcico_received_t *line = mca_coll_shmcico_received(view, me, op->bank);

    atomic_store_explicit(&line->count, 0, memory_order_relaxed);
    atomic_store_explicit(&line->error, 0, memory_order_relaxed);
    /* Release pairs with the acquire of op in _reached(): a process that
     * sees op sees the count (and error) reset, never an earlier call's. */
    atomic_store_explicit(&line->op, op->seq, memory_order_release);
}

void mca_coll_shmcico_received_set(const mca_coll_shmcico_view_t *view, int me,
                                   const mca_coll_shmcico_seq_t *op, uint64_t count,
                                   int error)
{
    mca_coll_shmcico_received_t *line = mca_coll_shmcico_received(view, me, op->bank);

    if (0 != error) {
        atomic_store_explicit(&line->error, error, memory_order_relaxed);
    }
    /* Release pairs with the acquire of count in _reached(): what this
     * process did with the units it counts (read a ring's slot, copied a
     * chunk into its buffer, or failed to) happens before. */
    atomic_store_explicit(&line->count, count, memory_order_release);
}

int mca_coll_shmcico_received_error(const mca_coll_shmcico_view_t *view, int proc,
                                    const mca_coll_shmcico_seq_t *op)
{
    mca_coll_shmcico_received_t *line = mca_coll_shmcico_received(view, proc, op->bank);

    /* ordered by the acquire of count in _reached(), before this; the
     * line holds op until proc's readers acknowledged (it waits for them) */
    return atomic_load_explicit(&line->op, memory_order_relaxed) == op->seq
        ? atomic_load_explicit(&line->error, memory_order_relaxed) : 0;
}

bool mca_coll_shmcico_received_reached(const mca_coll_shmcico_view_t *view, int proc,
                                       const mca_coll_shmcico_seq_t *op, uint64_t count)
{
    mca_coll_shmcico_received_t *line = mca_coll_shmcico_received(view, proc, op->bank);

    if (mca_coll_shmcico_op_done_at(view, proc, op)) {
        return true;
    }
    /* acquire: pairs with the releases in _start() and _set(), and orders
     * the error that _received_error() then reads */
    return atomic_load_explicit(&line->op, memory_order_acquire) == op->seq
        && atomic_load_explicit(&line->count, memory_order_acquire) >= count;
}

/* ------------------------------------------------------------------ */
/* Xfer                                                                 */

/* never 0, so that a line opened without claims matches no call */
static uint64_t claim_stamp(uint64_t seq)
{
    return (seq & UINT64_C(0x7fffffff)) | UINT64_C(0x80000000);
}

void mca_coll_shmcico_xfer_open(const mca_coll_shmcico_view_t *view, int me,
                                const mca_coll_shmcico_seq_t *op, bool claims)
{
    mca_coll_shmcico_xfer_t *line = mca_coll_shmcico_xfer(view, me, op->bank);

    atomic_store_explicit(&line->claim, claims ? claim_stamp(op->seq) << 32 : 0,
                          memory_order_relaxed);
    atomic_store_explicit(&line->completed, 0, memory_order_relaxed);
    atomic_store_explicit(&line->acks, 0, memory_order_relaxed);
    atomic_store_explicit(&line->error, 0, memory_order_relaxed);
    /* Release pairs with the acquire in mca_coll_shmcico_xfer_claim() and
     * with the acquire of the flag that announces the single copy (posted
     * after this): the counters are reset before anyone uses them. */
    atomic_store_explicit(&line->op, op->seq, memory_order_release);
}

/* the claim word: stamp << 32 | chunks taken from the back << 16 |
 * chunks taken from the front */
#define FRONT_TAKEN(value) ((value) & MCA_COLL_SHMCICO_MAX_CHUNKS)
#define BACK_TAKEN(value) (((value) >> 16) & MCA_COLL_SHMCICO_MAX_CHUNKS)

bool mca_coll_shmcico_xfer_claim(const mca_coll_shmcico_view_t *view, int proc,
                                 const mca_coll_shmcico_seq_t *op, uint64_t nchunks,
                                 mca_coll_shmcico_end_t end, uint64_t *chunk)
{
    mca_coll_shmcico_xfer_t *line = mca_coll_shmcico_xfer(view, proc, op->bank);
    uint64_t stamp = claim_stamp(op->seq) << 32, value;
    uint64_t one = MCA_COLL_SHMCICO_BACK == end ? UINT64_C(1) << 16 : 1;

    /* more would carry a count into the stamp; both sides count the
     * chunks of the same bytes in the same chunk size (chunk_for()) */
    assert(nchunks <= MCA_COLL_SHMCICO_MAX_CHUNKS);
    /* acquire: pairs with the release in _open() */
    if (atomic_load_explicit(&line->op, memory_order_acquire) != op->seq) {
        return false;
    }
    value = atomic_load_explicit(&line->claim, memory_order_relaxed);
    do {
        /* a stamp of another call: the line moved on (every chunk of
         * this call is done) or was opened without claims */
        if ((value & ~UINT64_C(0xffffffff)) != stamp
            || FRONT_TAKEN(value) + BACK_TAKEN(value) >= nchunks) {
            return false;
        }
        /* acq_rel: the winner of a chunk owns it; the line cannot be
         * reopened until the chunk is completed */
    } while (!atomic_compare_exchange_weak_explicit(&line->claim, &value, value + one,
                                                    memory_order_acq_rel,
                                                    memory_order_relaxed));
    *chunk = MCA_COLL_SHMCICO_BACK == end ? nchunks - 1 - BACK_TAKEN(value) : FRONT_TAKEN(value);
    return true;
}

void mca_coll_shmcico_xfer_complete(const mca_coll_shmcico_view_t *view, int proc,
                                    const mca_coll_shmcico_seq_t *op, int error)
{
    mca_coll_shmcico_xfer_t *line = mca_coll_shmcico_xfer(view, proc, op->bank);

    if (0 != error) {
        /* either partner's errno will do */
        atomic_store_explicit(&line->error, error, memory_order_relaxed);
    }
    /* Release pairs with the acquire in _completed(): the chunk's bytes
     * (or its error) are in place before the count says so. */
    atomic_fetch_add_explicit(&line->completed, 1, memory_order_release);
}

int mca_coll_shmcico_xfer_error(const mca_coll_shmcico_view_t *view, int proc,
                                const mca_coll_shmcico_seq_t *op)
{
    /* ordered by the acquire in _completed(), before this; proc reopens
     * the line only after the acknowledgement that follows this read */
    return atomic_load_explicit(&mca_coll_shmcico_xfer(view, proc, op->bank)->error,
                                memory_order_relaxed);
}

uint64_t mca_coll_shmcico_xfer_completed(const mca_coll_shmcico_view_t *view, int proc,
                                         const mca_coll_shmcico_seq_t *op)
{
    /* acquire: pairs with the release in _complete(), and orders the
     * error that _xfer_error() then reads */
    return atomic_load_explicit(&mca_coll_shmcico_xfer(view, proc, op->bank)->completed,
                                memory_order_acquire);
}

void mca_coll_shmcico_xfer_ack(const mca_coll_shmcico_view_t *view, int proc,
                               const mca_coll_shmcico_seq_t *op)
{
    /* Release pairs with the acquire in _acks(): this process's reads of
     * proc's buffer (and its writes into it) happen before proc returns
     * to its caller, who may reuse the buffer. */
    atomic_fetch_add_explicit(&mca_coll_shmcico_xfer(view, proc, op->bank)->acks, 1,
                              memory_order_release);
}

uint64_t mca_coll_shmcico_xfer_acks(const mca_coll_shmcico_view_t *view, int me,
                                    const mca_coll_shmcico_seq_t *op)
{
    /* acquire: pairs with the release in _ack() */
    return atomic_load_explicit(&mca_coll_shmcico_xfer(view, me, op->bank)->acks,
                                memory_order_acquire);
}

/* ------------------------------------------------------------------ */
/* Decisions (bank lines)                                               */

void mca_coll_shmcico_decision_post(const mca_coll_shmcico_view_t *view,
                                    const mca_coll_shmcico_seq_t *op, uint32_t decision,
                                    int32_t error)
{
    mca_coll_shmcico_bank_t *bank = &view->banks[op->bank];

    atomic_store_explicit(&bank->decision, decision, memory_order_relaxed);
    atomic_store_explicit(&bank->error, error, memory_order_relaxed);
    /* release: pairs with the acquire in mca_coll_shmcico_decision_posted() */
    atomic_store_explicit(&bank->op, op->seq, memory_order_release);
}

bool mca_coll_shmcico_decision_posted(const mca_coll_shmcico_view_t *view,
                                      const mca_coll_shmcico_seq_t *op, uint32_t *decision,
                                      int32_t *error)
{
    mca_coll_shmcico_bank_t *bank = &view->banks[op->bank];

    /* acquire: pairs with the release in mca_coll_shmcico_decision_post() */
    if (atomic_load_explicit(&bank->op, memory_order_acquire) != op->seq) {
        return false;
    }
    *decision = atomic_load_explicit(&bank->decision, memory_order_relaxed);
    *error = atomic_load_explicit(&bank->error, memory_order_relaxed);
    return true;
}

uint32_t mca_coll_shmcico_decision_wait(const mca_coll_shmcico_view_t *view,
                                        const mca_coll_shmcico_waiter_t *waiter,
                                        const mca_coll_shmcico_seq_t *op, int32_t *error)
{
    uint32_t decision;
    unsigned spins = 0;

    while (!mca_coll_shmcico_decision_posted(view, op, &decision, error)) {
        mca_coll_shmcico_wait_round(waiter, &spins);
    }
    return decision;
}
