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
 * flag from the root down to the leaves.  An inner process forwards the
 * flag to its children first and then copies the fragment out of the
 * root's slot, so the copies of a fragment run in parallel.
 */

#include "coll_shmcico_engine.h"
#include "coll_shmcico_tree.h"

static void notify(const mca_coll_shmcico_view_t *view, const int *children,
                   int nchildren, uint32_t slot, uint64_t seq, uint64_t size)
{
    for (int i = 0; i < nchildren; ++i) {
        mca_coll_shmcico_flag_post(mca_coll_shmcico_flag(view, children[i], slot),
                                   seq, size);
    }
}

static uint64_t min_u64(uint64_t a, uint64_t b)
{
    return a < b ? a : b;
}

/* The root fills the slots of one bank after the other until the whole
 * message is in; a fragment may be a little shorter than a slot when the
 * convertor does not split a basic element, so the receivers follow the
 * sizes in the flags rather than computing them. */
static int bcast_root(mca_coll_shmcico_engine_t *engine, const int *children,
                      int nchildren, mca_coll_shmcico_stream_t *stream,
                      bool decline)
{
    const mca_coll_shmcico_view_t *view = &engine->view;
    uint64_t total = stream->length, f = view->layout.fragment_size;
    uint32_t nslots = mca_coll_shmcico_bank_slots(engine);
    mca_coll_shmcico_use_t use;

    do {
        mca_coll_shmcico_bank_acquire(engine, &use);
        mca_coll_shmcico_bank_publish(&use, engine->nprocs - 1, total,
                                      decline ? MCA_COLL_SHMCICO_MODE_DECLINE
                                              : MCA_COLL_SHMCICO_MODE_SERVE);
        if (decline) {
            return MCA_COLL_SHMCICO_DECLINED;
        }
        for (uint32_t i = 0; i < nslots && stream->done < total; ++i) {
            uint32_t slot = use.first_slot + i;
            uint64_t size = mca_coll_shmcico_stream_put(stream,
                                                        mca_coll_shmcico_slot(view, engine->rank, slot),
                                                        min_u64(f, total - stream->done));

            notify(view, children, nchildren, slot, use.seq, size);
        }
    } while (stream->done < total);
    return MCA_COLL_SHMCICO_DONE;
}

static int bcast_member(mca_coll_shmcico_engine_t *engine, const int *children,
                        int nchildren, int root,
                        mca_coll_shmcico_stream_t *stream)
{
    const mca_coll_shmcico_view_t *view = &engine->view;
    uint32_t nslots = mca_coll_shmcico_bank_slots(engine);
    uint64_t received = 0;
    bool complete = true;
    mca_coll_shmcico_use_t use;

    do {
        mca_coll_shmcico_bank_join(engine, &use);
        if (MCA_COLL_SHMCICO_MODE_DECLINE == use.mode) {
            mca_coll_shmcico_bank_leave(&use);
            return MCA_COLL_SHMCICO_DECLINED;
        }
        for (uint32_t i = 0; i < nslots && received < use.total; ++i) {
            uint32_t slot = use.first_slot + i;
            uint64_t size = mca_coll_shmcico_flag_wait(&engine->waiter,
                                                       mca_coll_shmcico_flag(view, engine->rank, slot),
                                                       use.seq);

            notify(view, children, nchildren, slot, use.seq, size);
            complete &= mca_coll_shmcico_stream_get(stream,
                                                    mca_coll_shmcico_slot(view, root, slot),
                                                    size);
            received += size;
        }
        mca_coll_shmcico_bank_leave(&use);
    } while (received < use.total);
    return complete ? MCA_COLL_SHMCICO_DONE : MCA_COLL_SHMCICO_TRUNCATED;
}

int mca_coll_shmcico_engine_bcast(mca_coll_shmcico_engine_t *engine,
                                  const struct mca_coll_shmcico_tree_t *tree,
                                  int root, mca_coll_shmcico_stream_t *stream,
                                  bool decline)
{
    int *children = engine->children;
    int nchildren = mca_coll_shmcico_tree_children(tree, engine->rank, root,
                                                   children);

    if (engine->rank == root) {
        return bcast_root(engine, children, nchildren, stream, decline);
    }
    return bcast_member(engine, children, nchildren, root, stream);
}
