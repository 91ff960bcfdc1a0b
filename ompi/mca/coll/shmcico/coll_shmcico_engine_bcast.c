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
 * Bcast data movement: the root pipelines fragments through the slots of
 * its own queue, bank by bank; the notification tree carries each slot's
 * flag from the root down to the leaves, with the root's total (and its
 * decision to hand the call back), so no other process ever waits on the
 * bank's line.  An inner process forwards the flag to its children first
 * and then copies the fragment out of the root's slot, so the copies of
 * a fragment run in parallel.  Fragments of up to 32 bytes travel inside
 * the flags themselves: a small Bcast costs one cache line per process.
 */

#include "coll_shmcico_engine.h"
#include "coll_shmcico_tree.h"

/* Post fragment "slot" to the children; an inline fragment is copied
 * into each child's flag first. */
static void notify(const mca_coll_shmcico_view_t *view, const int *children,
                   int nchildren, uint32_t slot, uint64_t seq, uint64_t size,
                   uint64_t total, const unsigned char *inline_data)
{
    for (int i = 0; i < nchildren; ++i) {
        mca_coll_shmcico_flag_t *flag = mca_coll_shmcico_flag(view, children[i], slot);

        if (0 == (size & MCA_COLL_SHMCICO_FLAG_BITS) && size <= MCA_COLL_SHMCICO_INLINE) {
            memcpy(flag->data, inline_data, size);
        }
        mca_coll_shmcico_flag_post(flag, seq, size, total, 0);
    }
}

static uint64_t min_u64(uint64_t a, uint64_t b)
{
    return a < b ? a : b;
}

/* The root fills the slots of one bank after the other until the whole
 * message is in; every Bcast has at least one fragment (an empty one for
 * an empty message), whose flag tells the others the total. */
static int bcast_root(mca_coll_shmcico_engine_t *engine, const int *children,
                      int nchildren, mca_coll_shmcico_stream_t *stream,
                      uint32_t mode, uint64_t fault)
{
    const mca_coll_shmcico_view_t *view = &engine->view;
    uint64_t total = stream->length, f = view->layout.fragment_size;
    uint32_t nslots = mca_coll_shmcico_bank_slots(engine);
    unsigned char small[MCA_COLL_SHMCICO_INLINE];
    mca_coll_shmcico_use_t use;

    do {
        mca_coll_shmcico_bank_acquire(engine, &use);
        mca_coll_shmcico_bank_publish(&use, total, mode);
        if (MCA_COLL_SHMCICO_MODE_SERVE != mode) {
            /* the decision travels down the tree; total carries the code */
            notify(view, children, nchildren, use.first_slot, use.seq,
                   mca_coll_shmcico_mode_flag(mode), fault, NULL);
            mca_coll_shmcico_bank_done(engine, &use);
            engine->fault = fault;
            return mca_coll_shmcico_mode_result(mode);
        }
        for (uint32_t i = 0; i < nslots && (0 == i || stream->done < total); ++i) {
            uint32_t slot = use.first_slot + i;
            uint64_t size = min_u64(f, total - stream->done);
            unsigned char *to = size <= MCA_COLL_SHMCICO_INLINE
                ? small : mca_coll_shmcico_slot(view, engine->rank, slot);

            mca_coll_shmcico_stream_put(stream, to, size);
            notify(view, children, nchildren, slot, use.seq, size, total, small);
        }
        mca_coll_shmcico_bank_done(engine, &use);
    } while (stream->done < total);
    return MCA_COLL_SHMCICO_DONE;
}

static int bcast_member(mca_coll_shmcico_engine_t *engine, const int *children,
                        int nchildren, int root,
                        mca_coll_shmcico_stream_t *stream)
{
    const mca_coll_shmcico_view_t *view = &engine->view;
    uint32_t nslots = mca_coll_shmcico_bank_slots(engine);
    uint64_t received = 0, total = UINT64_MAX;
    bool complete = true;
    mca_coll_shmcico_use_t use;

    do {
        mca_coll_shmcico_bank_next(engine, &use);
        for (uint32_t i = 0; i < nslots && received < total; ++i) {
            uint32_t slot = use.first_slot + i;
            mca_coll_shmcico_flag_t *flag = mca_coll_shmcico_flag(view, engine->rank, slot);
            uint64_t size = mca_coll_shmcico_flag_wait(&engine->waiter, flag, use.seq);

            total = atomic_load_explicit(&flag->total, memory_order_relaxed);
            notify(view, children, nchildren, slot, use.seq, size, total, flag->data);
            if (MCA_COLL_SHMCICO_MODE_SERVE != mca_coll_shmcico_flag_mode(size)) {
                mca_coll_shmcico_bank_done(engine, &use);
                engine->fault = total;
                return mca_coll_shmcico_mode_result(mca_coll_shmcico_flag_mode(size));
            }
            /* an inline fragment is in this process's own flag */
            complete &= mca_coll_shmcico_stream_get(stream,
                                                    size <= MCA_COLL_SHMCICO_INLINE
                                                    ? flag->data
                                                    : mca_coll_shmcico_slot(view, root, slot),
                                                    size);
            received += size;
        }
        mca_coll_shmcico_bank_done(engine, &use);
    } while (received < total);
    return complete ? MCA_COLL_SHMCICO_DONE : MCA_COLL_SHMCICO_TRUNCATED;
}

int mca_coll_shmcico_engine_bcast(mca_coll_shmcico_engine_t *engine,
                                  const struct mca_coll_shmcico_tree_t *tree,
                                  int root, mca_coll_shmcico_stream_t *stream,
                                  uint32_t mode, uint64_t fault)
{
    int *children = engine->children;
    int nchildren = mca_coll_shmcico_tree_children(tree, engine->rank, root,
                                                   children);
    int ret;

    if (engine->rank == root) {
        ret = bcast_root(engine, children, nchildren, stream, mode, fault);
    } else {
        ret = bcast_member(engine, children, nchildren, root, stream);
    }
    engine->moved = stream->done;
    mca_coll_shmcico_bank_prefetch(engine);
    return ret;
}
