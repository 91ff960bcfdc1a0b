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
 * The setup's ping-pong, memory's latency and the watch during the run
 * (coll_shmcico_nearness.h).
 *
 * The balls rank 0 serves process i are i * 2 * ROUNDS + 1, + 3, ...,
 * and i returns each plus one: a process that stopped waiting can never
 * take another's ball for its own.  The waits spin on plain loads (a
 * pause instruction would add its own tens of ns to every trip), look
 * at the clock once in 1024 rounds, and yield the core after 4096.
 */

#include <sched.h>
#include <stdatomic.h>
#include <time.h>

#include "coll_shmcico_nearness.h"
#include "coll_shmcico_residency.h"

#define SPINS_BEFORE_YIELD 4096

static uint64_t now_ns(void)
{
    struct timespec t;

    (void) clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t) t.tv_sec * 1000000000u + (uint64_t) t.tv_nsec;
}

/* until the line holds ball (acquire: pairs with the other side's
 * release store of it); false past deadline.  A trip that takes more
 * than a few thousand spins is no line's: the other side does not run,
 * so give it the core (processes bound to one core, which the setup's
 * count of processes and cores does not see).  A yield can cost a time
 * slice of whatever else runs there, so the clock is read after each. */
static bool wait_ball(mca_coll_shmcico_pingpong_t *line, uint64_t ball, uint64_t deadline)
{
    unsigned spins = 0;

    while (atomic_load_explicit(&line->ball, memory_order_acquire) != ball) {
        bool yielded = ++spins > SPINS_BEFORE_YIELD;
        if (yielded) {
            sched_yield();
        }
        if ((yielded || 0 == (spins & 1023)) && now_ns() > deadline) {
            return false;
        }
    }
    return true;
}

static uint64_t first_ball(int proc)
{
    return (uint64_t) proc * 2 * MCA_COLL_SHMCICO_PINGPONG_ROUNDS;
}

uint64_t mca_coll_shmcico_pingpong_serve(mca_coll_shmcico_pingpong_t *line, int proc)
{
    uint64_t base = first_ball(proc), best = MCA_COLL_SHMCICO_TRIP_UNKNOWN, start = 0;
    uint64_t deadline = now_ns() + MCA_COLL_SHMCICO_PINGPONG_PATIENCE_NS;

    for (uint64_t r = 0; r < MCA_COLL_SHMCICO_PINGPONG_ROUNDS; ++r) {
        if (0 == r % MCA_COLL_SHMCICO_PINGPONG_BATCH) {
            start = now_ns();
        }
        /* release: pairs with the acquire in the other side's wait_ball() */
        atomic_store_explicit(&line->ball, base + 2 * r + 1, memory_order_release);
        if (!wait_ball(line, base + 2 * r + 2, deadline)) {
            return MCA_COLL_SHMCICO_TRIP_UNKNOWN;
        }
        if (r >= MCA_COLL_SHMCICO_PINGPONG_BATCH
            && MCA_COLL_SHMCICO_PINGPONG_BATCH - 1 == r % MCA_COLL_SHMCICO_PINGPONG_BATCH) {
            uint64_t trip = (now_ns() - start) / (2 * MCA_COLL_SHMCICO_PINGPONG_BATCH);
            best = trip < best ? trip : best;
        }
    }
    return best;
}

bool mca_coll_shmcico_pingpong_return(mca_coll_shmcico_pingpong_t *line, int proc)
{
    uint64_t base = first_ball(proc);
    uint64_t deadline = now_ns() + MCA_COLL_SHMCICO_PINGPONG_PATIENCE_NS;

    for (uint64_t r = 0; r < MCA_COLL_SHMCICO_PINGPONG_ROUNDS; ++r) {
        if (!wait_ball(line, base + 2 * r + 1, deadline)) {
            return false;
        }
        /* release: pairs with the acquire in rank 0's wait_ball() */
        atomic_store_explicit(&line->ball, base + 2 * r + 2, memory_order_release);
    }
    return true;
}

uint64_t mca_coll_shmcico_memory_ns(void)
{
    static _Atomic uint64_t known;      /* memory_ns + 1; 0: not measured yet */
    uint64_t ns = atomic_load_explicit(&known, memory_order_relaxed), flushed;

    if (0 == ns) {
        /* threads that ask at once each measure, and keep one of the
         * answers; only rank 0's decides, once per setup */
        (void) mca_coll_shmcico_residency_calibrate(NULL, &flushed);
        ns = flushed / MCA_COLL_SHMCICO_RESIDENCY_LOADS + 1;
        atomic_store_explicit(&known, ns, memory_order_relaxed);
    }
    return ns - 1;
}

/* ------------------------------------------------------------------ */
/* Watched                                                              */

/* The clock's own cost, the least of a few empty timings (once per
 * process; threads that ask at once each measure and keep one answer) */
static uint64_t clock_cost_ns(void)
{
    static _Atomic uint64_t known;      /* cost + 1; 0: not measured yet */
    uint64_t cost = atomic_load_explicit(&known, memory_order_relaxed);

    if (0 == cost) {
        cost = UINT64_MAX;
        for (int i = 0; i < 16; ++i) {
            uint64_t start = now_ns(), took = now_ns() - start;
            cost = took < cost ? took : cost;
        }
        atomic_store_explicit(&known, cost + 1, memory_order_relaxed);
        return cost;
    }
    return cost - 1;
}

/* How long a load of word took (ns, the clock's cost taken off), and
 * what it read.  The clock reads the time stamp counter in order with
 * the loads before it, so the second reading waits for this one. */
static uint64_t timed_load(_Atomic uint64_t *word, uint64_t *value)
{
    uint64_t start = now_ns(), took, cost;

    /* relaxed: the mark orders nothing, only its arrival is timed */
    *value = atomic_load_explicit(word, memory_order_relaxed);
    took = now_ns() - start;
    cost = clock_cost_ns();
    return took > cost ? took - cost : 0;
}

void mca_coll_shmcico_watch_init(mca_coll_shmcico_watch_t *watch, bool near,
                                 uint64_t threshold_ns)
{
    *watch = (mca_coll_shmcico_watch_t) { .threshold_ns = threshold_ns, .near = near };
    if (0 != threshold_ns) {
        (void) clock_cost_ns();
    }
}

bool mca_coll_shmcico_watch_judge(const uint64_t *rounds, int n, uint64_t threshold_ns)
{
    int at_most = 0;

    for (int i = 0; i < n; ++i) {
        at_most += rounds[i] <= threshold_ns;
    }
    return 2 * at_most > n;             /* the median is at most the threshold */
}

/* The slowest load of the others' watch lines, or 0 where one is not
 * marked for this period (mark) or came as fast as a cache hit */
static uint64_t round_of(const mca_coll_shmcico_view_t *view, int me, uint64_t mark)
{
    uint64_t slowest = 0;

    for (int i = 0; i < (int) view->layout.nprocs; ++i) {
        uint64_t found, took;
        if (i == me) {
            continue;
        }
        took = timed_load(&mca_coll_shmcico_watch_line(view, i)->mark, &found);
        if (found != mark || took < MCA_COLL_SHMCICO_WATCH_HIT_NS) {
            return 0;
        }
        slowest = took > slowest ? took : slowest;
    }
    return slowest;
}

mca_coll_shmcico_watched_t mca_coll_shmcico_watch_call(mca_coll_shmcico_watch_t *watch,
                                                       const mca_coll_shmcico_view_t *view,
                                                       int me, uint64_t seq)
{
    uint64_t phase = seq % MCA_COLL_SHMCICO_WATCH_PERIOD, slowest;
    bool was = watch->near;

    if (0 == watch->threshold_ns || seq == watch->last_seq || seq < MCA_COLL_SHMCICO_WATCH_PERIOD
        || !mca_coll_shmcico_watch_due(seq)) {
        return MCA_COLL_SHMCICO_WATCH_NOTHING;
    }
    watch->last_seq = seq;          /* a call the skeleton retries looks once */
    if (0 == phase) {
        /* relaxed: nothing is read through the mark */
        atomic_store_explicit(&mca_coll_shmcico_watch_line(view, me)->mark, seq,
                              memory_order_relaxed);
        return MCA_COLL_SHMCICO_WATCH_NOTHING;
    }
    slowest = round_of(view, me, seq - MCA_COLL_SHMCICO_WATCH_PERIOD / 2);
    if (0 == slowest) {
        return MCA_COLL_SHMCICO_WATCH_NOTHING;
    }
    watch->rounds[watch->taken++ % MCA_COLL_SHMCICO_WATCH_ROUNDS] = slowest;
    if (watch->taken >= MCA_COLL_SHMCICO_WATCH_ROUNDS) {
        watch->near = mca_coll_shmcico_watch_judge(watch->rounds, MCA_COLL_SHMCICO_WATCH_ROUNDS,
                                                   watch->threshold_ns);
    }
    return watch->near != was ? MCA_COLL_SHMCICO_WATCH_CHANGED : MCA_COLL_SHMCICO_WATCH_ROUND;
}
