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

void mca_coll_shmcico_bank_next(mca_coll_shmcico_engine_t *engine,
                                mca_coll_shmcico_use_t *use)
{
    use_start(engine, use);
}

void mca_coll_shmcico_bank_acquire(mca_coll_shmcico_engine_t *engine,
                                   mca_coll_shmcico_use_t *use)
{
    uint64_t previous;
    unsigned spins = 0;

    use_start(engine, use);
    if (use->seq <= engine->view.layout.banks) {
        return;                     /* the bank's first use */
    }
    previous = use->seq - engine->view.layout.banks;
    for (int i = 0; i < engine->nprocs; ++i) {
        _Atomic uint64_t *done = &mca_coll_shmcico_done(&engine->view, i)->use[use->bank_index];

        /* Acquire pairs with the release in mca_coll_shmcico_bank_done():
         * once process i says it is done with the previous use, its
         * reads of the bank's slots and its writes of flags are over, so
         * they can be overwritten. */
        while (i != engine->rank
               && atomic_load_explicit(done, memory_order_acquire) < previous) {
            mca_coll_shmcico_wait_round(&engine->waiter, &spins);
        }
    }
}

void mca_coll_shmcico_bank_publish(mca_coll_shmcico_use_t *use, uint64_t total,
                                   uint32_t mode)
{
    use->total = total;
    use->mode = mode;
    atomic_store_explicit(&use->bank->total, total, memory_order_relaxed);
    atomic_store_explicit(&use->bank->mode, mode, memory_order_relaxed);
    /* Release pairs with the acquire in mca_coll_shmcico_bank_join(): it
     * orders total, mode and the vector counts before op, so a member
     * that sees op sees them. */
    atomic_store_explicit(&use->bank->op, use->seq, memory_order_release);
}

void mca_coll_shmcico_bank_await(mca_coll_shmcico_engine_t *engine,
                                 mca_coll_shmcico_use_t *use)
{
    /* acquire: pairs with the release of op in _publish(); waiting for
     * equality is safe because the next owner of the bank waits for this
     * process to be done with this use before publishing another */
    mca_coll_shmcico_wait_equal(&engine->waiter, &use->bank->op, use->seq);
    use->total = atomic_load_explicit(&use->bank->total, memory_order_relaxed);
    use->mode = atomic_load_explicit(&use->bank->mode, memory_order_relaxed);
}

void mca_coll_shmcico_bank_join(mca_coll_shmcico_engine_t *engine,
                                mca_coll_shmcico_use_t *use)
{
    use_start(engine, use);
    mca_coll_shmcico_bank_await(engine, use);
}

void mca_coll_shmcico_bank_done(mca_coll_shmcico_engine_t *engine,
                                const mca_coll_shmcico_use_t *use)
{
    /* Release pairs with the acquire in mca_coll_shmcico_bank_acquire():
     * this process's reads of slots and writes of flags of this use
     * happen before the next owner reuses them.  A plain store to the
     * process's own line: it does not wait for anything. */
    atomic_store_explicit(&mca_coll_shmcico_done(&engine->view, engine->rank)->use[use->bank_index],
                          use->seq, memory_order_release);
}

#define PREFETCHED_PROCS 16

void mca_coll_shmcico_bank_prefetch(const mca_coll_shmcico_engine_t *engine)
{
    uint32_t bank = (uint32_t) ((engine->op + 1) % engine->view.layout.banks);
    int n = engine->nprocs - 1 < PREFETCHED_PROCS ? engine->nprocs - 1 : PREFETCHED_PROCS;

    for (int i = 1; i <= n; ++i) {
        int proc = (engine->rank + i) % engine->nprocs;
        __builtin_prefetch(&mca_coll_shmcico_done(&engine->view, proc)->use[bank], 0, 3);
    }
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

size_t mca_coll_shmcico_stream_copy(mca_coll_shmcico_stream_t *dst,
                                    mca_coll_shmcico_stream_t *src, size_t max,
                                    bool *complete)
{
    unsigned char bounce[4096];
    size_t left = src->length - src->done, len = left < max ? left : max;

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

/* ------------------------------------------------------------------ */
/* Queues                                                               */

/* Every queue has at least one fragment, an empty one when it carries
 * no bytes: its flag tells the reader about the operation. */
static uint64_t fragments_of(const mca_coll_shmcico_engine_t *engine,
                             uint64_t bytes)
{
    uint64_t f = engine->view.layout.fragment_size;

    return bytes == 0 ? 1 : (bytes + f - 1) / f;
}

static uint64_t uses_of(const mca_coll_shmcico_engine_t *engine, uint64_t largest)
{
    uint64_t per_use = mca_coll_shmcico_bank_slots(engine);

    return (fragments_of(engine, largest) + per_use - 1) / per_use;
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

/* Bytes of q's published count that fragment k carries. */
static uint64_t fragment_share(const mca_coll_shmcico_engine_t *engine,
                               const mca_coll_shmcico_queue_t *q, uint64_t k)
{
    uint64_t f = engine->view.layout.fragment_size;

    return q->bytes - k * f < f ? q->bytes - k * f : f;
}

/* Write fragment k of q: what the stream still has, up to the fragment's
 * share of the published bytes; the last fragment says whether the
 * stream had more than the owner expected. */
static void write_fragment(mca_coll_shmcico_engine_t *engine,
                           const mca_coll_shmcico_use_t *use,
                           mca_coll_shmcico_queue_t *q, uint64_t k, uint64_t total)
{
    uint64_t share = fragment_share(engine, q, k);
    uint64_t left = q->stream->length - q->stream->done;
    uint32_t slot = fragment_slot(engine, use, k);
    uint64_t size = share < left ? share : left;

    mca_coll_shmcico_stream_put(q->stream,
                                mca_coll_shmcico_fragment(&engine->view, q->proc, slot, size),
                                size);
    if (k + 1 == fragments_of(engine, q->bytes) && q->stream->done < q->stream->length) {
        size |= MCA_COLL_SHMCICO_FLAG_OVERFLOW;
    }
    mca_coll_shmcico_flag_post(mca_coll_shmcico_flag(&engine->view, q->proc, slot),
                               use->seq, size, total, q->bytes);
}

/* Fragments of bank use u, round robin over the queues, so that every
 * reader gets its first fragment early. */
static void write_queues(mca_coll_shmcico_engine_t *engine,
                         const mca_coll_shmcico_use_t *use, uint64_t u,
                         mca_coll_shmcico_queue_t *queues, int n, uint64_t total)
{
    uint64_t per_use = mca_coll_shmcico_bank_slots(engine);

    for (uint64_t k = u * per_use; k < (u + 1) * per_use; ++k) {
        for (int i = 0; i < n; ++i) {
            if (k >= queues[i].next && k < fragments_of(engine, queues[i].bytes)) {
                write_fragment(engine, use, &queues[i], k, total);
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
    uint64_t size, bytes, share = fragment_share(engine, q, q->next);
    const unsigned char *data;

    if (!mca_coll_shmcico_flag_ready(flag, use->seq)) {
        return false;
    }
    size = atomic_load_explicit(&flag->size, memory_order_relaxed);
    bytes = size & ~MCA_COLL_SHMCICO_FLAG_BITS;
    data = mca_coll_shmcico_fragment(&engine->view, q->proc, slot, bytes);
    q->complete &= 0 == (size & MCA_COLL_SHMCICO_FLAG_OVERFLOW);
    if (bytes > share) {
        /* an early fragment (see write_early) from a writer that had
         * more than the owner expected: what is beyond the share is
         * dropped, as the overflow bit would have made it */
        q->complete = false;
        bytes = share;
    }
    q->complete &= mca_coll_shmcico_stream_get(q->stream, data, bytes);
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

/* The owner takes a bank use; the first one carries counts[].  A call it
 * hands back is announced to the readers of its queues in their first
 * flag, since they learn everything from the flags. */
static void open_use_as_owner(mca_coll_shmcico_engine_t *engine,
                              const mca_coll_shmcico_plan_t *plan,
                              mca_coll_shmcico_use_t *use, uint64_t u,
                              uint64_t total)
{
    mca_coll_shmcico_bank_acquire(engine, use);
    if (0 == u) {
        _Atomic uint64_t *counts = mca_coll_shmcico_counts(&engine->view, use->bank_index);
        for (int i = 0; i < engine->nprocs; ++i) {
            /* ordered before the members' reads by the publication */
            atomic_store_explicit(&counts[i], plan->counts[i], memory_order_relaxed);
        }
    }
    /* with a decision other than serving, total carries the error code */
    mca_coll_shmcico_bank_publish(use, MCA_COLL_SHMCICO_MODE_SERVE == plan->mode
                                       ? total : plan->fault, plan->mode);
    for (int i = 0; MCA_COLL_SHMCICO_MODE_SERVE != plan->mode && i < plan->nwrites; ++i) {
        mca_coll_shmcico_flag_post(mca_coll_shmcico_flag(&engine->view, plan->writes[i].proc,
                                                         use->first_slot),
                                   use->seq, mca_coll_shmcico_mode_flag(plan->mode),
                                   plan->fault, 0);
    }
}

/* A reader that does not join the bank learns its queue's bytes, the
 * largest queue and the owner's decision from the first flag. */
static void read_headers(mca_coll_shmcico_engine_t *engine,
                         mca_coll_shmcico_use_t *use, mca_coll_shmcico_queue_t *queues,
                         int n)
{
    use->mode = MCA_COLL_SHMCICO_MODE_SERVE;
    use->total = 0;
    for (int i = 0; i < n; ++i) {
        mca_coll_shmcico_flag_t *flag = mca_coll_shmcico_flag(&engine->view, queues[i].proc,
                                                              use->first_slot);
        uint64_t size = mca_coll_shmcico_flag_wait(&engine->waiter, flag, use->seq);
        uint64_t total = atomic_load_explicit(&flag->total, memory_order_relaxed);

        if (MCA_COLL_SHMCICO_MODE_SERVE != mca_coll_shmcico_flag_mode(size)) {
            use->mode = mca_coll_shmcico_flag_mode(size);
        }
        queues[i].bytes = atomic_load_explicit(&flag->own, memory_order_relaxed);
        queues[i].next = 0;
        queues[i].complete = true;
        use->total = total > use->total ? total : use->total;
    }
}

/* Whether this process (not the owner) writes the first fragment of its
 * queue before the owner's publication: it does when its whole block
 * fits in one fragment, which makes a small Gather(v) or Allgather(v)
 * cost one cache-line transfer (the fragment's flag) instead of two (the
 * publication, then the flag). */
static bool writes_early(const mca_coll_shmcico_engine_t *engine,
                         const mca_coll_shmcico_plan_t *plan)
{
    return !plan->owner && 1 == plan->nwrites
        && plan->writes[0].stream->length <= engine->view.layout.fragment_size;
}

/* Write the whole of q as fragment 0 of bank use 0, before the owner
 * publishes the use, once everyone is done with the bank's previous use.
 * The owner's counts are not known yet: the fragment carries the
 * writer's bytes, and a reader whose share is smaller reports a
 * truncation (try_read_fragment).  Should the owner not serve the call,
 * nobody reads the fragment. */
static void write_early(mca_coll_shmcico_engine_t *engine, mca_coll_shmcico_use_t *use,
                        mca_coll_shmcico_queue_t *q)
{
    mca_coll_shmcico_bank_acquire(engine, use);
    q->bytes = q->stream->length;
    write_fragment(engine, use, q, 0, 0);
}

/* Open bank use u of the plan; false when the owner does not serve it.
 * Only the first use waits for the owner, whose publication carries the
 * counts and its decision; in later uses whoever writes makes sure that
 * everyone is done with the bank's previous use, and readers follow the
 * flags, so the uses of a long message pipeline w deep without a round
 * trip through the owner. */
static bool open_use(mca_coll_shmcico_engine_t *engine, const mca_coll_shmcico_plan_t *plan,
                     mca_coll_shmcico_use_t *use, uint64_t u, uint64_t total)
{
    if (u > 0) {
        if (plan->nwrites > 0) {
            mca_coll_shmcico_bank_acquire(engine, use);
        } else {
            mca_coll_shmcico_bank_next(engine, use);
        }
        return true;
    }
    if (plan->owner) {
        open_use_as_owner(engine, plan, use, u, total);
    } else if (plan->nwrites > 0) {
        /* a writer needs the owner's counts before it writes (all but an
         * early fragment) */
        bool early = writes_early(engine, plan);
        const _Atomic uint64_t *published;

        if (early) {
            write_early(engine, use, &plan->writes[0]);
            mca_coll_shmcico_bank_await(engine, use);
        } else {
            mca_coll_shmcico_bank_join(engine, use);
        }
        published = mca_coll_shmcico_counts(&engine->view, use->bank_index);
        start_queues(plan->writes, plan->nwrites, published, NULL);
        start_queues(plan->reads, plan->nreads, published, NULL);
        if (early) {
            plan->writes[0].next = 1;   /* fragment 0 is already there */
        }
    } else {
        mca_coll_shmcico_bank_next(engine, use);
        read_headers(engine, use, plan->reads, plan->nreads);
    }
    return MCA_COLL_SHMCICO_MODE_SERVE == use->mode;
}

/* A process's own block never goes through shared memory: it is copied
 * once the queues are through (copying it while waiting for fragments
 * was measured to slow the pipeline down: the reader falls behind and
 * the writers wait for the bank). */
static bool copy_own_block(const mca_coll_shmcico_plan_t *plan)
{
    bool complete = true;

    if (NULL != plan->self_src && NULL != plan->self_dst) {
        while (0 != mca_coll_shmcico_stream_copy(plan->self_dst, plan->self_src,
                                                 SIZE_MAX, &complete)) {
        }
    }
    return complete;
}

static bool queues_complete(const mca_coll_shmcico_queue_t *queues, int n)
{
    bool complete = true;

    for (int i = 0; i < n; ++i) {
        complete &= queues[i].complete;
    }
    return complete;
}

static uint64_t streamed(const mca_coll_shmcico_queue_t *queues, int n)
{
    uint64_t bytes = 0;

    for (int i = 0; i < n; ++i) {
        bytes += queues[i].stream->done;
    }
    return bytes;
}

int mca_coll_shmcico_engine_run(mca_coll_shmcico_engine_t *engine,
                                const mca_coll_shmcico_plan_t *plan)
{
    uint64_t uses = 1, total = 0;
    mca_coll_shmcico_use_t use;
    int ret;

    if (plan->owner) {
        start_queues(plan->writes, plan->nwrites, NULL, plan->counts);
        start_queues(plan->reads, plan->nreads, NULL, plan->counts);
        total = largest_queue(plan);
    }
    engine->moved = 0;
    for (uint64_t u = 0; u < uses; ++u) {
        if (!open_use(engine, plan, &use, u, total)) {
            mca_coll_shmcico_bank_done(engine, &use);
            engine->fault = use.total;
            return mca_coll_shmcico_mode_result(use.mode);
        }
        if (0 == u) {
            total = use.total;
            uses = uses_of(engine, total);
        }
        write_queues(engine, &use, u, plan->writes, plan->nwrites, total);
        read_queues(engine, &use, u, plan->reads, plan->nreads);
        mca_coll_shmcico_bank_done(engine, &use);
    }
    /* the queues' streams only: the own block never enters the segment */
    engine->moved = streamed(plan->writes, plan->nwrites) + streamed(plan->reads, plan->nreads);
    ret = copy_own_block(plan) && queues_complete(plan->reads, plan->nreads)
        ? MCA_COLL_SHMCICO_DONE : MCA_COLL_SHMCICO_TRUNCATED;
    mca_coll_shmcico_bank_prefetch(engine);
    return ret;
}
