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
 * Synchronisation primitives of coll/shmcico: waiting, slot flags, the
 * bank an op uses, the lines that say how far a process got, and the
 * chunk claims and acknowledgements of single copies.  Every
 * acquire/release pair is commented at both ends.  The protocol built on
 * them is described in docs/protocol.md ("Ops and banks", "Flags",
 * "Rings", "Single copy").
 *
 *  - Every process numbers the collective calls on a communicator
 *    (seq = 1, 2, ...); call n uses bank n % w, and every call takes one
 *    number whatever its size, so processes agree without talking even
 *    when their arguments do not.
 *  - Before it writes a slot, a flag or the bank line of bank b in call n,
 *    a process waits until every other process is done with call n - w
 *    (done[b] >= n - w): nobody reads that bank's previous contents any
 *    more.  Writers without a claim (a Bcast relay forwarding its
 *    parent's flags, a reader writing only its own region, xfer and
 *    received lines): docs/protocol.md, "Ops and banks".  Every process stores done[b] = n when it no longer touches
 *    anything of call n.
 *  - A flag holds (seq, lap, size, total, payload).  The first post of a
 *    slot in call n stores lap 0, then seq = n with release; a later post
 *    of the same slot in the same call (a ring's next lap) stores lap with
 *    release.  A reader waits for seq == n, then lap == L, both with
 *    acquire, in that order: once it sees seq == n it cannot see a lap of
 *    an earlier call.
 */

#ifndef MCA_COLL_SHMCICO_SYNC_H
#define MCA_COLL_SHMCICO_SYNC_H

#include <string.h>

#include "coll_shmcico_segment.h"

/**
 * How a process waits: spin, and every spins_per_progress rounds call
 * progress() (Open MPI's opal_progress) so that other communication
 * keeps moving; when yield is set (more processes than cores) give the
 * core away on every round.
 */
typedef struct mca_coll_shmcico_waiter_t {
    void (*progress)(void);
    bool yield;
    unsigned spins_per_progress;
} mca_coll_shmcico_waiter_t;

/** One collective call as the protocol sees it. */
typedef struct mca_coll_shmcico_seq_t {
    uint64_t seq;                   /**< n, the call's number */
    uint32_t bank;                  /**< n % w */
    uint32_t first_slot;            /**< the bank's first slot */
} mca_coll_shmcico_seq_t;

static inline void mca_coll_shmcico_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield" ::: "memory");
#endif
}

/** One round of a waiting loop (see mca_coll_shmcico_waiter_t). */
void mca_coll_shmcico_wait_round(const mca_coll_shmcico_waiter_t *waiter,
                                 unsigned *spins);

/* ------------------------------------------------------------------ */
/* Ops and banks                                                        */

/* Inline, the three of them: every call, of a few bytes too, takes an op,
 * claims its bank and finishes it. */

/** The call after *last: its number and bank (no waiting); it becomes
 *  *last. */
static inline void mca_coll_shmcico_op_next(const mca_coll_shmcico_view_t *view,
                                            mca_coll_shmcico_seq_t *last,
                                            mca_coll_shmcico_seq_t *op)
{
    /* seq % w, counted on from the last call's bank: no division on the
     * path of every call */
    op->seq = last->seq + 1;
    op->bank = last->bank + 1 == view->layout.banks ? 0 : last->bank + 1;
    op->first_slot = op->bank * mca_coll_shmcico_bank_slots(view);
    *last = *op;
}

/** Whether process proc is done with op (it touches nothing of it). */
static inline bool mca_coll_shmcico_op_done_at(const mca_coll_shmcico_view_t *view,
                                               int proc, const mca_coll_shmcico_seq_t *op)
{
    /* Acquire pairs with the release in mca_coll_shmcico_op_finish():
     * whatever proc did in op (reading slots, copying from a buffer)
     * happened before. */
    return atomic_load_explicit(&mca_coll_shmcico_done(view, proc, op->bank)->op,
                                memory_order_acquire) >= op->seq;
}

/** Wait until every other process is done with the bank's previous call,
 *  before this process writes a slot, flag or bank line of op's bank. */
static inline void mca_coll_shmcico_op_claim(const mca_coll_shmcico_view_t *view, int me,
                                             const mca_coll_shmcico_waiter_t *waiter,
                                             const mca_coll_shmcico_seq_t *op)
{
    mca_coll_shmcico_seq_t previous = *op;
    unsigned spins = 0;

    if (op->seq <= view->layout.banks) {
        return;                     /* the bank's first call */
    }
    previous.seq = op->seq - view->layout.banks;
    for (int i = 0; i < (int) view->layout.nprocs; ++i) {
        /* acquire (in _done_at): once process i is done with the previous
         * call of the bank, its reads of the slots, flags and bank line
         * are over, so they can be overwritten */
        while (i != me && !mca_coll_shmcico_op_done_at(view, i, &previous)) {
            mca_coll_shmcico_wait_round(waiter, &spins);
        }
    }
}

#define MCA_COLL_SHMCICO_PREFETCHED_PROCS 16

/** This process touches nothing of op any more; fetch into the cache
 *  what the next call's claim will read (the done lines of up to
 *  MCA_COLL_SHMCICO_PREFETCHED_PROCS processes after it). */
static inline void mca_coll_shmcico_op_finish(const mca_coll_shmcico_view_t *view, int me,
                                              const mca_coll_shmcico_seq_t *op)
{
    uint32_t next_bank = op->bank + 1 == view->layout.banks ? 0 : op->bank + 1;
    int p = (int) view->layout.nprocs;
    int n = p - 1 < MCA_COLL_SHMCICO_PREFETCHED_PROCS ? p - 1
                                                      : MCA_COLL_SHMCICO_PREFETCHED_PROCS;

    /* Release pairs with the acquire in mca_coll_shmcico_op_done_at():
     * this process's reads and writes of op happen before anyone reuses
     * what they touched.  A store to the process's own line: it does not
     * wait for anything. */
    atomic_store_explicit(&mca_coll_shmcico_done(view, me, op->bank)->op, op->seq,
                          memory_order_release);
    for (int i = 1, proc = me; i <= n; ++i) {
        proc = proc + 1 == p ? 0 : proc + 1;
        __builtin_prefetch(&mca_coll_shmcico_done(view, proc, next_bank)->op, 0, 3);
    }
}

/* ------------------------------------------------------------------ */
/* Flags                                                                */

/**
 * Post a flag for fragment "lap" of op: the fragment (in the slot or the
 * payload) and the payload must be written before, and a fragment
 * written with streaming stores fenced (mca_coll_shmcico_copy_streaming()
 * ends with the fence: a release store does not order those stores).
 * The release store (seq for lap 0, lap for later laps) pairs with the
 * acquire loads in mca_coll_shmcico_flag_arrived(): a reader that sees it
 * sees the fragment, size, total and payload.
 */
static inline void mca_coll_shmcico_flag_post(mca_coll_shmcico_flag_t *flag,
                                              const mca_coll_shmcico_seq_t *op,
                                              uint64_t lap, uint64_t size, uint64_t total)
{
    atomic_store_explicit(&flag->size, size, memory_order_relaxed);
    atomic_store_explicit(&flag->total, total, memory_order_relaxed);
    if (0 == lap) {
        atomic_store_explicit(&flag->lap, 0, memory_order_relaxed);
        atomic_store_explicit(&flag->seq, op->seq, memory_order_release);
    } else {
        atomic_store_explicit(&flag->lap, lap, memory_order_release);
    }
}

/**
 * Announce to every process of notify[] in its flag of slot: the first
 * payload_bytes of payload (0: none; at most the size of a flag's
 * payload, MCA_COLL_SHMCICO_INLINE) go into the flag's payload, then the
 * flag is posted (release in mca_coll_shmcico_flag_post()).  The one
 * loop over notify lists: fragments, refusals, forwarded flags and
 * single-copy announcements all go through it.
 */
static inline void mca_coll_shmcico_flags_post(const mca_coll_shmcico_view_t *view,
                                               const mca_coll_shmcico_seq_t *op,
                                               const int *notify, int nnotify,
                                               uint32_t slot, uint64_t lap,
                                               const void *payload, size_t payload_bytes,
                                               uint64_t size, uint64_t total)
{
    for (int i = 0; i < nnotify; ++i) {
        mca_coll_shmcico_flag_t *flag = mca_coll_shmcico_flag(view, notify[i], slot);

        if (payload_bytes > 0) {
            memcpy(&flag->payload, payload, payload_bytes);
        }
        mca_coll_shmcico_flag_post(flag, op, lap, size, total);
    }
}

/** Whether the flag holds fragment "lap" of op (acquire: pairs with the
 *  release in mca_coll_shmcico_flag_post(); seq first, see the top). */
static inline bool mca_coll_shmcico_flag_arrived(mca_coll_shmcico_flag_t *flag,
                                                 const mca_coll_shmcico_seq_t *op,
                                                 uint64_t lap)
{
    return atomic_load_explicit(&flag->seq, memory_order_acquire) == op->seq
        && atomic_load_explicit(&flag->lap, memory_order_acquire) == lap;
}

/** Size and kind bits of an arrived flag. */
static inline uint64_t mca_coll_shmcico_flag_size(const mca_coll_shmcico_flag_t *flag)
{
    return atomic_load_explicit(&flag->size, memory_order_relaxed);
}

/** The writer's bytes of the whole block, of an arrived flag. */
static inline uint64_t mca_coll_shmcico_flag_total(const mca_coll_shmcico_flag_t *flag)
{
    return atomic_load_explicit(&flag->total, memory_order_relaxed);
}

/* ------------------------------------------------------------------ */
/* Decisions (bank lines)                                               */

/** The deciding process's word on op for everyone (MCA_COLL_SHMCICO_
 *  DECISION_*, and its MPI error with _FAULT), on the bank line of op's
 *  bank (release: whatever it wrote before, such as a Gather root's
 *  entries and region, is visible with the decision). */
void mca_coll_shmcico_decision_post(const mca_coll_shmcico_view_t *view,
                                    const mca_coll_shmcico_seq_t *op, uint32_t decision,
                                    int32_t error);

/** Whether op's decision is posted (acquire: pairs with _post), and
 *  then the decision and its error. */
bool mca_coll_shmcico_decision_posted(const mca_coll_shmcico_view_t *view,
                                      const mca_coll_shmcico_seq_t *op, uint32_t *decision,
                                      int32_t *error);

/** Wait for op's decision; returns it, and its error in *error. */
uint32_t mca_coll_shmcico_decision_wait(const mca_coll_shmcico_view_t *view,
                                        const mca_coll_shmcico_waiter_t *waiter,
                                        const mca_coll_shmcico_seq_t *op, int32_t *error);

/* ------------------------------------------------------------------ */
/* How far a process got (rings, and chunks a Bcast source holds)        */

/** Start counting what this process received in op (count 0). */
void mca_coll_shmcico_received_start(const mca_coll_shmcico_view_t *view, int me,
                                     const mca_coll_shmcico_seq_t *op);

/** This process received count units of op (release: see _reached);
 *  error (an errno, 0: none): a single copy of a chunk it counts failed,
 *  which its readers must return too. */
void mca_coll_shmcico_received_set(const mca_coll_shmcico_view_t *view, int me,
                                   const mca_coll_shmcico_seq_t *op, uint64_t count,
                                   int error);

/** The errno that proc's received line carries for op (0: none), once
 *  mca_coll_shmcico_received_reached() said yes for the chunks read. */
int mca_coll_shmcico_received_error(const mca_coll_shmcico_view_t *view, int proc,
                                    const mca_coll_shmcico_seq_t *op);

/** Whether process proc received at least count units of op, or is done
 *  with it. */
bool mca_coll_shmcico_received_reached(const mca_coll_shmcico_view_t *view, int proc,
                                       const mca_coll_shmcico_seq_t *op, uint64_t count);

/* ------------------------------------------------------------------ */
/* Single copy: chunk claims and acknowledgements (the xfer line)       */

/** Chunks of one single copy that an xfer line can count: the claim word
 *  counts the chunks taken from each end in 16 bits
 *  (mca_coll_shmcico_chunk_for() never makes more). */
#define MCA_COLL_SHMCICO_MAX_CHUNKS 0xffffu

/**
 * Which end of a single copy's chunks a claim takes.  Pulls take them
 * from the front and pushes from the back, so that from call to call on
 * the same buffers each side copies the same end of a block and writes
 * lines that its own last copy left in its cache, instead of lines that
 * the other core holds (docs/design.md, "Which end each side takes").
 */
typedef enum {
    MCA_COLL_SHMCICO_FRONT = 0,     /**< chunks 0, 1, ... (pulls) */
    MCA_COLL_SHMCICO_BACK = 1       /**< chunks n - 1, n - 2, ... (pushes) */
} mca_coll_shmcico_end_t;

/** Open this process's xfer line for op: no reader finished yet, and,
 *  with claims, every chunk free for this process and its partner. */
void mca_coll_shmcico_xfer_open(const mca_coll_shmcico_view_t *view, int me,
                                const mca_coll_shmcico_seq_t *op, bool claims);

/** Take the next chunk from one end of the nchunks (at most
 *  MCA_COLL_SHMCICO_MAX_CHUNKS) of the single copy through proc's xfer
 *  line: false when none is left, or proc offers no claims in op. */
bool mca_coll_shmcico_xfer_claim(const mca_coll_shmcico_view_t *view, int proc,
                                 const mca_coll_shmcico_seq_t *op, uint64_t nchunks,
                                 mca_coll_shmcico_end_t end, uint64_t *chunk);

/** A chunk taken with mca_coll_shmcico_xfer_claim() is copied; error
 *  (an errno, 0: none): its copy failed, which the line's owner must
 *  return too. */
void mca_coll_shmcico_xfer_complete(const mca_coll_shmcico_view_t *view, int proc,
                                    const mca_coll_shmcico_seq_t *op, int error);

/** The errno of a failed chunk of proc's single copy in op (0: none),
 *  once mca_coll_shmcico_xfer_completed() counted every chunk. */
int mca_coll_shmcico_xfer_error(const mca_coll_shmcico_view_t *view, int proc,
                                const mca_coll_shmcico_seq_t *op);

/** Chunks of proc's single copy in op copied so far (its line open). */
uint64_t mca_coll_shmcico_xfer_completed(const mca_coll_shmcico_view_t *view, int proc,
                                         const mca_coll_shmcico_seq_t *op);

/** A reader is finished with proc's buffer (proc's xfer line is open for
 *  op: it was opened before the flag the reader followed). */
void mca_coll_shmcico_xfer_ack(const mca_coll_shmcico_view_t *view, int proc,
                               const mca_coll_shmcico_seq_t *op);

/** Readers finished with this process's buffer in op (its line open). */
uint64_t mca_coll_shmcico_xfer_acks(const mca_coll_shmcico_view_t *view, int me,
                                    const mca_coll_shmcico_seq_t *op);

#endif /* MCA_COLL_SHMCICO_SYNC_H */
