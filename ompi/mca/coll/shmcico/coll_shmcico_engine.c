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
 * The bank protocol shared by every operation (see the description in
 * coll_shmcico_engine.h) and the waiting loop.
 */

#include <sched.h>

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
