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
 * The small-call path (see coll_shmcico_small.h and docs/protocol.md,
 * "Small calls"): one fragment per block, written and read as
 * coll_shmcico_queue.c does for a block's first fragment.
 */

#include "coll_shmcico_small.h"
#include "coll_shmcico_tree.h"

/* What a block's first flag says, as far as this path is concerned. */
typedef enum {
    FIRST_NOT_YET = 0,
    FIRST_ONE,                      /* one fragment through a queue */
    FIRST_OTHER                     /* anything else: the skeleton's */
} first_t;

/* The op this call will be, not taken yet. */
static mca_coll_shmcico_seq_t peek_op(const mca_coll_shmcico_engine_t *e)
{
    mca_coll_shmcico_seq_t last = e->last, op;

    mca_coll_shmcico_op_next(&e->view, &last, &op);
    return op;
}

/* A call through the queues (none with one process). */
static mca_coll_shmcico_result_t queued_result(const mca_coll_shmcico_engine_t *e)
{
    return (mca_coll_shmcico_result_t) { .status = MCA_COLL_SHMCICO_DONE,
                                         .used_queue = e->nprocs > 1 };
}

/* Start the cache misses of a user buffer that may have left the
 * caches before this process waits on the protocol, so that they run
 * beside the flags' line transfers instead of after them (a hint: it
 * neither faults nor changes what is read; docs/design.md, "Small
 * calls"). */
#if defined(__GNUC__)
#define START_MISS(bytes, for_write) __builtin_prefetch((bytes), (for_write), 3)
#else
#define START_MISS(bytes, for_write) ((void) (bytes))
#endif

static inline void start_read(const mca_coll_shmcico_span_t *span)
{
    if (span->length > 0) {
        START_MISS(span->bytes, 0);
    }
}

static inline void start_write(const mca_coll_shmcico_span_t *span)
{
    if (span->length > 0) {
        START_MISS(span->bytes, 1);
    }
}

/* ------------------------------------------------------------------ */
/* Writing and reading one fragment                                     */

/* A block's only fragment into data_proc's first slot of the bank (or
 * into the flags' payloads), announced to notify[] as the queue
 * transport announces fragment 0; the op was claimed before. */
static void write_one(const mca_coll_shmcico_view_t *view, const mca_coll_shmcico_seq_t *op,
                      int data_proc, const int *notify, int nnotify,
                      const mca_coll_shmcico_span_t *block, mca_coll_shmcico_result_t *r)
{
    if (block->length > MCA_COLL_SHMCICO_INLINE) {
        mca_coll_shmcico_copy_to_slot(mca_coll_shmcico_slot(view, data_proc, op->first_slot),
                                      block->bytes, block->length, block->streaming);
        r->streamed += block->streaming ? block->length : 0;
    }
    mca_coll_shmcico_queue_post(view, op, notify, nnotify, op->first_slot, 0, block->bytes,
                                block->length, block->length);
    r->queued += block->length;
}

/* flag_proc's first flag of op (acquire in mca_coll_shmcico_queue_first(),
 * pairing with the writer's post: the fragment is there once it says so) */
static first_t first_flag(const mca_coll_shmcico_view_t *view, const mca_coll_shmcico_seq_t *op,
                          int flag_proc, mca_coll_shmcico_flag_t **flag)
{
    uint64_t size;

    *flag = mca_coll_shmcico_queue_first(view, op, flag_proc);
    if (NULL == *flag) {
        return FIRST_NOT_YET;
    }
    size = mca_coll_shmcico_flag_size(*flag);
    return 0 == (size & MCA_COLL_SHMCICO_KIND_BITS) && size <= view->layout.fragment_size
        && size == mca_coll_shmcico_flag_total(*flag) ? FIRST_ONE : FIRST_OTHER;
}

/* The fragment of an arrived one-fragment flag, into what room there is
 * (a truncation when bytes had to be dropped). */
static void read_one(const mca_coll_shmcico_view_t *view, const mca_coll_shmcico_seq_t *op,
                     int data_proc, mca_coll_shmcico_flag_t *flag,
                     const mca_coll_shmcico_span_t *room, mca_coll_shmcico_result_t *r)
{
    uint64_t size = mca_coll_shmcico_flag_size(flag);
    uint64_t take = size < room->length ? size : room->length;

    if (take > 0) {
        memcpy(room->bytes,
               mca_coll_shmcico_fragment_at(view, flag, data_proc, op->first_slot, size), take);
    }
    r->queued += take;
    if (take != size) {
        r->status = MCA_COLL_SHMCICO_TRUNCATED;
    }
}

/* A process's own block, which never leaves it. */
static void copy_own(const mca_coll_shmcico_span_t *src, const mca_coll_shmcico_span_t *dst,
                     mca_coll_shmcico_result_t *r)
{
    uint64_t take = src->length < dst->length ? src->length : dst->length;

    if (take > 0 && src->bytes != dst->bytes) {
        memcpy(dst->bytes, src->bytes, take);
    }
    if (take != src->length && MCA_COLL_SHMCICO_DONE == r->status) {
        r->status = MCA_COLL_SHMCICO_TRUNCATED;
    }
}

/* ------------------------------------------------------------------ */
/* Reading the blocks of others                                         */

/* Read each process's block, announced in its own first flag, as it
 * arrives (blocks[i] is the room for process i's, data in its slot);
 * false at the first flag this path does not read. */
static bool read_others(mca_coll_shmcico_engine_t *e, const mca_coll_shmcico_seq_t *op,
                        const mca_coll_shmcico_span_t *blocks, mca_coll_shmcico_result_t *r)
{
    int *pending = e->scratch, npending = 0;
    unsigned spins = 0;

    for (int n = 1; n < e->nprocs; ++n) {
        pending[npending] = (e->rank + n) % e->nprocs;
        start_write(&blocks[pending[npending++]]);
    }
    while (npending > 0) {
        int left = 0;
        for (int k = 0; k < npending; ++k) {
            mca_coll_shmcico_flag_t *flag;
            switch (first_flag(&e->view, op, pending[k], &flag)) {
            case FIRST_ONE:
                read_one(&e->view, op, pending[k], flag, &blocks[pending[k]], r);
                break;
            case FIRST_OTHER:
                return false;
            default:
                pending[left++] = pending[k];
            }
        }
        if (left == npending) {
            mca_coll_shmcico_wait_round(&e->waiter, &spins);
        }
        npending = left;
    }
    return true;
}

/* Wait for this process's own first flag; false when it is not one
 * fragment through a queue. */
static bool wait_own(mca_coll_shmcico_engine_t *e, const mca_coll_shmcico_seq_t *op,
                     mca_coll_shmcico_flag_t **flag)
{
    unsigned spins = 0;
    first_t first;

    while (FIRST_NOT_YET == (first = first_flag(&e->view, op, e->rank, flag))) {
        mca_coll_shmcico_wait_round(&e->waiter, &spins);
    }
    return FIRST_ONE == first;
}

/* The op is this process's: it touches nothing of it any more. */
static mca_coll_shmcico_small_t served(mca_coll_shmcico_engine_t *e,
                                       const mca_coll_shmcico_seq_t *op)
{
    e->last = *op;
    mca_coll_shmcico_op_finish(&e->view, e->rank, op);
    return MCA_COLL_SHMCICO_SMALL_SERVED;
}

/* ------------------------------------------------------------------ */
/* The operations                                                       */

mca_coll_shmcico_small_t
mca_coll_shmcico_small_bcast(mca_coll_shmcico_engine_t *e,
                             const struct mca_coll_shmcico_place_t *place,
                             const mca_coll_shmcico_span_t *data,
                             mca_coll_shmcico_result_t *r)
{
    mca_coll_shmcico_seq_t op = peek_op(e);
    int root = place->root;
    mca_coll_shmcico_flag_t *flag;

    *r = queued_result(e);
    if (e->rank == root) {
        start_read(data);
        mca_coll_shmcico_op_claim(&e->view, e->rank, &e->waiter, &op);
        write_one(&e->view, &op, root, place->children, place->nchildren, data, r);
        return served(e, &op);
    }
    start_write(data);
    if (!wait_own(e, &op, &flag)) {
        return MCA_COLL_SHMCICO_SMALL_HANDED;
    }
    /* the children's copies run beside this one (coll_shmcico_queue.h) */
    mca_coll_shmcico_queue_forward(&e->view, &op,
                                   &(mca_coll_shmcico_queue_t) { .notify = place->children,
                                                                 .nnotify = place->nchildren },
                                   flag, op.first_slot, 0);
    read_one(&e->view, &op, root, flag, data, r);
    return served(e, &op);
}

static mca_coll_shmcico_small_t scatter(mca_coll_shmcico_engine_t *e,
                                        const mca_coll_shmcico_seq_t *op, int root,
                                        const mca_coll_shmcico_span_t *own,
                                        const mca_coll_shmcico_span_t *blocks,
                                        mca_coll_shmcico_result_t *r)
{
    mca_coll_shmcico_flag_t *flag;

    if (e->rank != root) {
        start_write(own);
        if (!wait_own(e, op, &flag)) {
            return MCA_COLL_SHMCICO_SMALL_HANDED;
        }
        read_one(&e->view, op, e->rank, flag, own, r);
        return served(e, op);
    }
    for (int n = 1; n < e->nprocs; ++n) {
        start_read(&blocks[(root + n) % e->nprocs]);
    }
    mca_coll_shmcico_op_claim(&e->view, e->rank, &e->waiter, op);
    for (int n = 1; n < e->nprocs; ++n) {
        int i = (root + n) % e->nprocs;
        write_one(&e->view, op, i, &i, 1, &blocks[i], r);
    }
    if (NULL != own) {
        copy_own(&blocks[root], own, r);
    }
    return served(e, op);
}

/* A Gather root only reads: it neither claims the op nor publishes its
 * entries, which no sender through a queue reads (a sender by single
 * copy announces so, and the root hands the call to the skeleton). */
static mca_coll_shmcico_small_t gather(mca_coll_shmcico_engine_t *e,
                                       const mca_coll_shmcico_seq_t *op, int root,
                                       const mca_coll_shmcico_span_t *own,
                                       const mca_coll_shmcico_span_t *blocks,
                                       mca_coll_shmcico_result_t *r)
{
    if (e->rank != root) {
        start_read(own);
        mca_coll_shmcico_op_claim(&e->view, e->rank, &e->waiter, op);
        write_one(&e->view, op, e->rank, &e->rank, 1, own, r);
        return served(e, op);
    }
    if (NULL != own) {
        start_read(own);
        start_write(&blocks[root]);
    }
    if (!read_others(e, op, blocks, r)) {
        return MCA_COLL_SHMCICO_SMALL_HANDED;
    }
    if (NULL != own) {
        copy_own(own, &blocks[root], r);
    }
    return served(e, op);
}

mca_coll_shmcico_small_t
mca_coll_shmcico_small_rooted(mca_coll_shmcico_engine_t *e, int root, bool scatter_op,
                              const mca_coll_shmcico_span_t *own,
                              const mca_coll_shmcico_span_t *blocks,
                              mca_coll_shmcico_result_t *r)
{
    mca_coll_shmcico_seq_t op = peek_op(e);

    *r = queued_result(e);
    return scatter_op ? scatter(e, &op, root, own, blocks, r)
                      : gather(e, &op, root, own, blocks, r);
}

mca_coll_shmcico_small_t
mca_coll_shmcico_small_allgather(mca_coll_shmcico_engine_t *e,
                                 const mca_coll_shmcico_span_t *send,
                                 const mca_coll_shmcico_span_t *own,
                                 const mca_coll_shmcico_span_t *blocks,
                                 mca_coll_shmcico_result_t *r)
{
    mca_coll_shmcico_seq_t op = peek_op(e);
    mca_coll_shmcico_result_t written;

    *r = queued_result(e);
    start_read(send);
    mca_coll_shmcico_op_claim(&e->view, e->rank, &e->waiter, &op);
    write_one(&e->view, &op, e->rank, &e->rank, 1, send, r);
    written = *r;
    if (NULL != own) {
        copy_own(send, own, r);
    }
    if (!read_others(e, &op, blocks, r)) {
        *r = written;               /* what counts of this try is the block it wrote */
        return MCA_COLL_SHMCICO_SMALL_SENT;
    }
    return served(e, &op);
}
