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
 * The machinery every operation shares: the waiting loop, the bank
 * protocol (see the description in coll_shmcico_engine.h), and the
 * queues of the vector operations with the driver that runs them.
 */

#include <sched.h>
#include <stdlib.h>

#include "coll_shmcico_engine.h"

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

static void use_start(mca_coll_shmcico_engine_t *engine,
                      mca_coll_shmcico_use_t *use)
{
    uint32_t bank = (uint32_t) (++engine->op % engine->view.layout.banks);

    use->seq = engine->op;
    use->bank_index = bank;
    use->bank = &engine->view.banks[bank];
    use->first_slot = bank * mca_coll_shmcico_bank_slots(engine);
}

void mca_coll_shmcico_bank_acquire(mca_coll_shmcico_engine_t *engine,
                                   mca_coll_shmcico_use_t *use)
{
    unsigned spins = 0;

    use_start(engine, use);
    /* Acquire pairs with the members' release decrement in
     * mca_coll_shmcico_bank_leave(): once nreaders reads 0, every member
     * of the previous use has finished reading the bank's slots and
     * writing its flags, so they can be overwritten. */
    while (0 != atomic_load_explicit(&use->bank->nreaders,
                                     memory_order_acquire)) {
        mca_coll_shmcico_wait_round(&engine->waiter, &spins);
    }
}

void mca_coll_shmcico_bank_publish(mca_coll_shmcico_use_t *use,
                                   int64_t nreaders, uint64_t total,
                                   uint32_t mode)
{
    use->total = total;
    use->mode = mode;
    atomic_store_explicit(&use->bank->nreaders, nreaders, memory_order_relaxed);
    atomic_store_explicit(&use->bank->total, total, memory_order_relaxed);
    atomic_store_explicit(&use->bank->mode, mode, memory_order_relaxed);
    /* Release pairs with the acquire in mca_coll_shmcico_bank_join(): it
     * orders nreaders, total, mode and the vector counts before op, so
     * a member that sees op sees them, and its decrement of nreaders
     * always comes after the store above. */
    atomic_store_explicit(&use->bank->op, use->seq, memory_order_release);
}

void mca_coll_shmcico_bank_join(mca_coll_shmcico_engine_t *engine,
                                mca_coll_shmcico_use_t *use)
{
    use_start(engine, use);
    /* acquire: pairs with the release of op in _publish() */
    mca_coll_shmcico_wait_equal(&engine->waiter, &use->bank->op, use->seq);
    use->total = atomic_load_explicit(&use->bank->total, memory_order_relaxed);
    use->mode = atomic_load_explicit(&use->bank->mode, memory_order_relaxed);
}

void mca_coll_shmcico_bank_leave(mca_coll_shmcico_use_t *use)
{
    /* Release pairs with the acquire in mca_coll_shmcico_bank_acquire():
     * this member's reads of slots and writes of flags of this use happen
     * before the next owner reuses them. */
    atomic_fetch_sub_explicit(&use->bank->nreaders, 1, memory_order_release);
}

/* ------------------------------------------------------------------ */
/* Set-up                                                               */

int mca_coll_shmcico_engine_init(mca_coll_shmcico_engine_t *engine, void *base,
                                 const mca_coll_shmcico_layout_t *layout,
                                 int rank, const mca_coll_shmcico_waiter_t *waiter)
{
    memset(engine, 0, sizeof(*engine));
    if (0 != mca_coll_shmcico_view_init(&engine->view, base, layout)) {
        return -1;
    }
    engine->rank = rank;
    engine->nprocs = (int) layout->nprocs;
    engine->waiter = *waiter;
    engine->children = malloc(layout->nprocs * sizeof(int));
    engine->queues = malloc(layout->nprocs * sizeof(mca_coll_shmcico_queue_t));
    if (NULL == engine->children || NULL == engine->queues) {
        mca_coll_shmcico_engine_fini(engine);
        return -1;
    }
    return 0;
}

void mca_coll_shmcico_engine_fini(mca_coll_shmcico_engine_t *engine)
{
    free(engine->children);
    free(engine->queues);
    engine->children = NULL;
    engine->queues = NULL;
}

/* ------------------------------------------------------------------ */
/* Streams                                                              */

bool mca_coll_shmcico_stream_copy(mca_coll_shmcico_stream_t *dst,
                                  mca_coll_shmcico_stream_t *src)
{
    unsigned char bounce[4096];
    bool complete = true;

    if (NULL != src->contig) {
        return mca_coll_shmcico_stream_get(dst, src->contig + src->done,
                                           src->length - src->done);
    }
    while (src->done < src->length) {
        size_t left = src->length - src->done;
        size_t len = mca_coll_shmcico_stream_put(src, bounce,
                                                 left < sizeof(bounce) ? left
                                                                       : sizeof(bounce));
        complete &= mca_coll_shmcico_stream_get(dst, bounce, len);
    }
    return complete;
}

/* ------------------------------------------------------------------ */
/* Queues                                                               */

static uint64_t fragments_of(const mca_coll_shmcico_engine_t *engine,
                             uint64_t bytes)
{
    uint64_t f = engine->view.layout.fragment_size;

    return (bytes + f - 1) / f;
}

/* fragments of queue q that travel in bank use u: [*first, *end) */
static void use_fragments(const mca_coll_shmcico_engine_t *engine,
                          const mca_coll_shmcico_queue_t *q, uint64_t u,
                          uint64_t *first, uint64_t *end)
{
    uint64_t per_use = mca_coll_shmcico_bank_slots(engine);
    uint64_t all = fragments_of(engine, q->bytes);

    *first = u * per_use;
    *end = (u + 1) * per_use < all ? (u + 1) * per_use : all;
}

static uint32_t fragment_slot(const mca_coll_shmcico_engine_t *engine,
                              const mca_coll_shmcico_use_t *use, uint64_t k)
{
    return use->first_slot
        + (uint32_t) (k % mca_coll_shmcico_bank_slots(engine));
}

/* Write fragment k of q: what the stream still has, up to the fragment's
 * share of the published bytes; the last fragment says whether the
 * stream had more than the owner expected. */
static void write_fragment(mca_coll_shmcico_engine_t *engine,
                           const mca_coll_shmcico_use_t *use,
                           mca_coll_shmcico_queue_t *q, uint64_t k)
{
    uint64_t f = engine->view.layout.fragment_size;
    uint64_t share = q->bytes - k * f < f ? q->bytes - k * f : f;
    uint64_t left = q->stream->length - q->stream->done;
    uint32_t slot = fragment_slot(engine, use, k);
    uint64_t size;

    size = mca_coll_shmcico_stream_put(q->stream,
                                       mca_coll_shmcico_slot(&engine->view, q->proc, slot),
                                       share < left ? share : left);
    if (k + 1 == fragments_of(engine, q->bytes) && q->stream->done < q->stream->length) {
        size |= MCA_COLL_SHMCICO_FLAG_OVERFLOW;
    }
    mca_coll_shmcico_flag_post(mca_coll_shmcico_flag(&engine->view, q->proc, slot),
                               use->seq, size);
}

/* Fragments of bank use u, round robin over the queues, so that every
 * reader gets its first fragment early. */
static void write_queues(mca_coll_shmcico_engine_t *engine,
                         const mca_coll_shmcico_use_t *use, uint64_t u,
                         mca_coll_shmcico_queue_t *queues, int n)
{
    uint64_t per_use = mca_coll_shmcico_bank_slots(engine);

    for (uint64_t k = u * per_use; k < (u + 1) * per_use; ++k) {
        for (int i = 0; i < n; ++i) {
            if (k < fragments_of(engine, queues[i].bytes)) {
                write_fragment(engine, use, &queues[i], k);
            }
        }
    }
}

/* Take fragment q->next if its flag is up; false when not yet. */
static bool try_read_fragment(mca_coll_shmcico_engine_t *engine,
                              const mca_coll_shmcico_use_t *use,
                              mca_coll_shmcico_queue_t *q)
{
    uint32_t slot = fragment_slot(engine, use, q->next);
    mca_coll_shmcico_flag_t *flag = mca_coll_shmcico_flag(&engine->view, q->proc, slot);
    uint64_t size;

    /* acquire: pairs with the release in mca_coll_shmcico_flag_post() */
    if (atomic_load_explicit(&flag->seq, memory_order_acquire) != use->seq) {
        return false;
    }
    size = atomic_load_explicit(&flag->size, memory_order_relaxed);
    q->complete &= 0 == (size & MCA_COLL_SHMCICO_FLAG_OVERFLOW);
    q->complete &= mca_coll_shmcico_stream_get(q->stream,
                                               mca_coll_shmcico_slot(&engine->view, q->proc, slot),
                                               size & ~MCA_COLL_SHMCICO_FLAG_OVERFLOW);
    ++q->next;
    return true;
}

/* Fragments of bank use u from every queue, whichever is ready first, so
 * that one slow writer does not hold up the others. */
static void read_queues(mca_coll_shmcico_engine_t *engine,
                        const mca_coll_shmcico_use_t *use, uint64_t u,
                        mca_coll_shmcico_queue_t *queues, int n)
{
    unsigned spins = 0;
    bool pending = true;

    while (pending) {
        bool moved = false;

        pending = false;
        for (int i = 0; i < n; ++i) {
            uint64_t first, end;

            use_fragments(engine, &queues[i], u, &first, &end);
            while (queues[i].next < end && try_read_fragment(engine, use, &queues[i])) {
                moved = true;
            }
            pending |= queues[i].next < end;
        }
        if (pending && !moved) {
            mca_coll_shmcico_wait_round(&engine->waiter, &spins);
        }
    }
}

/* ------------------------------------------------------------------ */
/* Vector operations                                                    */

static void start_queues(mca_coll_shmcico_queue_t *queues, int n,
                         const _Atomic uint64_t *published, const uint64_t *own)
{
    for (int i = 0; i < n; ++i) {
        queues[i].bytes = NULL != own ? own[queues[i].proc]
            : atomic_load_explicit(&published[queues[i].proc], memory_order_relaxed);
        queues[i].next = 0;
        queues[i].complete = true;
    }
}

static uint64_t largest_queue(const mca_coll_shmcico_plan_t *plan)
{
    uint64_t largest = 0;

    for (int i = 0; i < plan->nwrites; ++i) {
        largest = plan->writes[i].bytes > largest ? plan->writes[i].bytes : largest;
    }
    for (int i = 0; i < plan->nreads; ++i) {
        largest = plan->reads[i].bytes > largest ? plan->reads[i].bytes : largest;
    }
    return largest;
}

/* The owner takes a bank use; the first one carries counts[]. */
static void open_use_as_owner(mca_coll_shmcico_engine_t *engine,
                              const mca_coll_shmcico_plan_t *plan,
                              mca_coll_shmcico_use_t *use, uint64_t u,
                              uint64_t total)
{
    int64_t members = engine->nprocs - 1;

    mca_coll_shmcico_bank_acquire(engine, use);
    if (0 == u) {
        _Atomic uint64_t *counts = mca_coll_shmcico_counts(&engine->view, use->bank_index);
        for (int i = 0; i < engine->nprocs; ++i) {
            /* ordered before the members' reads by the publication */
            atomic_store_explicit(&counts[i], plan->counts[i], memory_order_relaxed);
        }
    }
    mca_coll_shmcico_bank_publish(use, members + (plan->owner_reads && !plan->decline),
                                  total, plan->decline ? MCA_COLL_SHMCICO_MODE_DECLINE
                                                       : MCA_COLL_SHMCICO_MODE_SERVE);
}

static bool queues_complete(const mca_coll_shmcico_queue_t *queues, int n)
{
    bool complete = true;

    for (int i = 0; i < n; ++i) {
        complete &= queues[i].complete;
    }
    return complete;
}

int mca_coll_shmcico_engine_run(mca_coll_shmcico_engine_t *engine,
                                const mca_coll_shmcico_plan_t *plan)
{
    uint64_t per_use = mca_coll_shmcico_bank_slots(engine), uses = 1, total = 0;
    bool complete = true;
    mca_coll_shmcico_use_t use;

    if (plan->owner) {
        start_queues(plan->writes, plan->nwrites, NULL, plan->counts);
        start_queues(plan->reads, plan->nreads, NULL, plan->counts);
        total = largest_queue(plan);
    }
    for (uint64_t u = 0; u < uses; ++u) {
        if (plan->owner) {
            open_use_as_owner(engine, plan, &use, u, total);
        } else {
            mca_coll_shmcico_bank_join(engine, &use);
        }
        if (MCA_COLL_SHMCICO_MODE_DECLINE == use.mode) {
            if (!plan->owner) {
                mca_coll_shmcico_bank_leave(&use);
            }
            return MCA_COLL_SHMCICO_DECLINED;
        }
        if (0 == u && !plan->owner) {
            const _Atomic uint64_t *published = mca_coll_shmcico_counts(&engine->view,
                                                                        use.bank_index);
            start_queues(plan->writes, plan->nwrites, published, NULL);
            start_queues(plan->reads, plan->nreads, published, NULL);
        }
        uses = (fragments_of(engine, use.total) + per_use - 1) / per_use;
        write_queues(engine, &use, u, plan->writes, plan->nwrites);
        if (0 == u && NULL != plan->self_src && NULL != plan->self_dst) {
            complete &= mca_coll_shmcico_stream_copy(plan->self_dst, plan->self_src);
        }
        read_queues(engine, &use, u, plan->reads, plan->nreads);
        if (!plan->owner || plan->owner_reads) {
            mca_coll_shmcico_bank_leave(&use);
        }
    }
    complete &= queues_complete(plan->reads, plan->nreads);
    return complete ? MCA_COLL_SHMCICO_DONE : MCA_COLL_SHMCICO_TRUNCATED;
}
