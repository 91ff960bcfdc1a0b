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
 * A process's engine on a communicator: its scratch space, and the copy
 * of its own block (which never leaves the process).
 */

#include <stdlib.h>

#include "coll_shmcico_engine.h"
#include "coll_shmcico_flow.h"

/* a bounce buffer holds at most this much of a chunk at once */
#define BOUNCE_BYTES ((size_t) 256 << 10)

int mca_coll_shmcico_engine_init(mca_coll_shmcico_engine_t *engine, void *base,
                                 const mca_coll_shmcico_layout_t *layout, int rank,
                                 const mca_coll_shmcico_waiter_t *waiter,
                                 const mca_coll_shmcico_copier_t *copier)
{
    memset(engine, 0, sizeof(*engine));
    if (0 != mca_coll_shmcico_view_init(&engine->view, base, layout)) {
        return -1;
    }
    engine->rank = rank;
    engine->nprocs = (int) layout->nprocs;
    engine->waiter = *waiter;
    engine->copier = *copier;
    engine->bounce_size = BOUNCE_BYTES;
    engine->scratch = malloc(layout->nprocs * sizeof(int));
    engine->flows = malloc(layout->nprocs * sizeof(mca_coll_shmcico_flow_t));
    if (NULL == engine->scratch || NULL == engine->flows) {
        mca_coll_shmcico_engine_fini(engine);
        return -1;
    }
    return 0;
}

void mca_coll_shmcico_engine_fini(mca_coll_shmcico_engine_t *engine)
{
    free(engine->scratch);
    free(engine->flows);
    free(engine->bounce);
    engine->scratch = NULL;
    engine->flows = NULL;
    engine->bounce = NULL;
}

size_t mca_coll_shmcico_stream_copy(mca_coll_shmcico_stream_t *dst,
                                    mca_coll_shmcico_stream_t *src, size_t max,
                                    bool streaming, bool *complete)
{
    unsigned char bounce[4096];
    size_t left = src->length - src->done, len = left < max ? left : max;

    if (streaming && NULL != src->contig && NULL != dst->contig) {
        size_t take = mca_coll_shmcico_stream_room(dst, len);

        mca_coll_shmcico_copy_streaming(dst->contig + dst->done, src->contig + src->done,
                                        take);
        dst->done += take;
        src->done += len;
        *complete &= take == len;
        return len;
    }
    if (NULL != src->contig) {
        *complete &= mca_coll_shmcico_stream_get(dst, src->contig + src->done, len);
        src->done += len;
        return len;
    }
    len = len < sizeof(bounce) ? len : sizeof(bounce);
    mca_coll_shmcico_stream_put(src, bounce, len);
    *complete &= mca_coll_shmcico_stream_get(dst, bounce, len);
    return len;
}
