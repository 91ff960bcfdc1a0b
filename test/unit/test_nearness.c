/*
 * Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
 * $COPYRIGHT$
 *
 * Additional copyrights may follow
 *
 * $HEADER$
 */

/*
 * Whether processes are near one another (coll_shmcico_nearness.h):
 *  - the rule: near where the slowest trip of a line is at most two
 *    thirds of a load from memory, both known; far where either is
 *    unknown;
 *  - the ping-pong between two threads on one line: every ball served is
 *    returned, and the trip is known (not how long: the threads may
 *    share a core);
 *  - a second partner on the same line after the first: its balls are
 *    its own, the trip measured again;
 *  - a partner that never answers: the serving side gives up after its
 *    patience with an unknown trip, and a partner whose server never
 *    serves gives up too (false), both bounded;
 *  - memory's latency is a time where the machine can flush a line;
 *  - the watch (each process's view during the run): its rule is the
 *    median of the last rounds; two threads as two processes of a
 *    segment, each at most a bank's worth of calls ahead of the other,
 *    take rounds every period from the second on and turn their view to
 *    what the threshold says (near under a huge one, far under 1 ns)
 *    once, the setup's answer before; a call looked at once, not twice;
 *    nothing where not watched, nor where the other never marked.
 */

#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <time.h>

#include <stdlib.h>
#include <string.h>

#include "coll_shmcico_nearness.h"
#include "unit.h"
#include "unit_segment.h"

static mca_coll_shmcico_pingpong_t line;

typedef struct partner_t {
    int proc;
    bool returned;
} partner_t;

static void *partner(void *arg)
{
    partner_t *p = arg;

    p->returned = mca_coll_shmcico_pingpong_return(&line, p->proc);
    return NULL;
}

static void rule(void)
{
    CHECK(mca_coll_shmcico_near(50, 130), "a trip of 50 ns against memory's 130: near");
    CHECK(mca_coll_shmcico_near(86, 130), "86 ns, 130: near (two thirds is 86.7)");
    CHECK(!mca_coll_shmcico_near(90, 130), "90 ns, 130: far");
    CHECK(!mca_coll_shmcico_near(190, 130), "190 ns, 130: far");
    CHECK(!mca_coll_shmcico_near(50, 0), "memory unknown: far");
    CHECK(!mca_coll_shmcico_near(MCA_COLL_SHMCICO_TRIP_UNKNOWN, 130), "trip unknown: far");
}

/* rank 0's side with a thread as process proc */
static void trip_with(int proc)
{
    partner_t p = { .proc = proc };
    pthread_t t;
    uint64_t trip;

    pthread_create(&t, NULL, partner, &p);
    trip = mca_coll_shmcico_pingpong_serve(&line, proc);
    pthread_join(t, NULL);
    CHECK(p.returned, "process %d returned every ball", proc);
    CHECK(MCA_COLL_SHMCICO_TRIP_UNKNOWN != trip,
          "process %d: a trip of %llu ns", proc, (unsigned long long) trip);
}

static void nobody_answers(void)
{
    partner_t p = { .proc = 7 };
    pthread_t t;

    CHECK(MCA_COLL_SHMCICO_TRIP_UNKNOWN == mca_coll_shmcico_pingpong_serve(&line, 5),
          "no process 5: the trip is unknown after the patience");
    pthread_create(&t, NULL, partner, &p);     /* nobody serves process 7 */
    pthread_join(t, NULL);
    CHECK(!p.returned, "process 7, never served, stops waiting");
}

static atomic_bool busy;

static void *spin(void *arg)
{
    (void) arg;
    while (atomic_load_explicit(&busy, memory_order_relaxed)) {
    }
    return NULL;
}

static double seconds(void)
{
    struct timespec t;

    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double) t.tv_sec + 1e-9 * (double) t.tv_nsec;
}

/* this thread and a busy one on CPU 0, nobody answering process 9 */
static void patience_beside_a_busy_thread(void)
{
    cpu_set_t one, before;
    pthread_t t;
    double start, took;

    CPU_ZERO(&one);
    CPU_SET(0, &one);
    pthread_getaffinity_np(pthread_self(), sizeof(before), &before);
    pthread_setaffinity_np(pthread_self(), sizeof(one), &one);
    atomic_store(&busy, true);
    pthread_create(&t, NULL, spin, NULL);
    pthread_setaffinity_np(t, sizeof(one), &one);
    start = seconds();
    CHECK(MCA_COLL_SHMCICO_TRIP_UNKNOWN == mca_coll_shmcico_pingpong_serve(&line, 9),
          "beside a busy thread, no process 9: the trip is unknown");
    took = seconds() - start;
    atomic_store(&busy, false);
    pthread_join(t, NULL);
    pthread_setaffinity_np(pthread_self(), sizeof(before), &before);
    CHECK(took < 1.2, "it gave up after %.2f s (patience 1 s)", took);
}

static void watch_rule(void)
{
    uint64_t near_mostly[] = { 30, 200, 40 }, far_mostly[] = { 200, 30, 150 };

    CHECK(mca_coll_shmcico_watch_judge(near_mostly, 3, 97), "30, 200, 40 ns under 97: near");
    CHECK(!mca_coll_shmcico_watch_judge(far_mostly, 3, 97), "200, 30, 150 ns under 97: far");
    CHECK(mca_coll_shmcico_watch_judge(far_mostly + 1, 1, 97), "30 ns alone: near");
}

/* two processes of one segment, played by two threads */
static mca_coll_shmcico_view_t wview;
static _Atomic uint64_t progress[2];     /* the last call each thread started */

/* many more periods than the three rounds a view needs: in some runs
 * most loads come as fast as a hit and their rounds are lost (87 % in
 * one MPI run) */
#define WATCH_PERIODS 128
#define WATCH_CALLS (WATCH_PERIODS * MCA_COLL_SHMCICO_WATCH_PERIOD)
#define WATCH_LEAD 8                    /* a bank's worth of calls, as claims allow */

typedef struct watcher_t {
    int me;
    mca_coll_shmcico_watch_t watch;
    int rounds, changes, again;
} watcher_t;

/* each process on a CPU of its own where there are two: a line the
 * other wrote then comes from the other core's cache, never as a hit */
static void pin_to(int cpu)
{
    cpu_set_t mine, one;

    pthread_getaffinity_np(pthread_self(), sizeof(mine), &mine);
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    if (CPU_COUNT(&mine) >= 2 && CPU_ISSET(cpu, &mine)) {
        pthread_setaffinity_np(pthread_self(), sizeof(one), &one);
    }
}

static void *watcher(void *arg)
{
    watcher_t *w = arg;

    if (1 == w->me) {
        pin_to(1);
    }
    for (uint64_t seq = 1; seq <= WATCH_CALLS; ++seq) {
        while (atomic_load(&progress[1 - w->me]) + WATCH_LEAD < seq) {
            sched_yield();
        }
        atomic_store(&progress[w->me], seq);
        switch (mca_coll_shmcico_watch_call(&w->watch, &wview, w->me, seq)) {
        case MCA_COLL_SHMCICO_WATCH_CHANGED:
            ++w->changes;
            /* fall through */
        case MCA_COLL_SHMCICO_WATCH_ROUND:
            ++w->rounds;
            break;
        default:
            break;
        }
        w->again += MCA_COLL_SHMCICO_WATCH_NOTHING
                    != mca_coll_shmcico_watch_call(&w->watch, &wview, w->me, seq);
    }
    atomic_store(&progress[w->me], UINT64_MAX / 2);     /* done: the other runs on */
    return NULL;
}

static void *segment_of_two(void)
{
    mca_coll_shmcico_layout_t l;
    int32_t numa[2] = { 0, 0 };
    void *base;

    CHECK(0 == mca_coll_shmcico_layout_init(&l, 4096, 2, 8, 2, 8192), "layout of two");
    base = unit_segment(&l, numa);
    CHECK(0 == mca_coll_shmcico_view_init(&wview, base, &l), "view of two");
    return base;
}

/* both processes watch from the setup's answer set_near under threshold */
static void watch_two(bool set_near, uint64_t threshold, bool expect_near)
{
    watcher_t w[2] = { { .me = 0 }, { .me = 1 } };
    pthread_t t;

    atomic_store(&progress[0], 0);
    atomic_store(&progress[1], 0);
    cpu_set_t before;

    for (int i = 0; i < 2; ++i) {
        mca_coll_shmcico_watch_init(&w[i].watch, set_near, threshold);
    }
    pthread_getaffinity_np(pthread_self(), sizeof(before), &before);
    pthread_create(&t, NULL, watcher, &w[1]);
    pin_to(0);
    (void) watcher(&w[0]);
    pthread_join(t, NULL);
    pthread_setaffinity_np(pthread_self(), sizeof(before), &before);
    for (int i = 0; i < 2; ++i) {
        /* a round in each period from the second, but where a load came
         * as fast as a hit (the rule skips those) */
        CHECK(w[i].rounds >= 3 && w[i].rounds <= WATCH_PERIODS - 1,
              "threshold %llu, process %d: %d rounds", (unsigned long long) threshold, i,
              w[i].rounds);
        CHECK(w[i].watch.near == expect_near && w[i].changes == (set_near != expect_near),
              "threshold %llu, process %d: %s after %d changes", (unsigned long long) threshold,
              i, w[i].watch.near ? "near" : "far", w[i].changes);
        CHECK(0 == w[i].again, "process %d: a call looked at twice %d times", i, w[i].again);
    }
}

static void watch_alone(void)
{
    mca_coll_shmcico_watch_t w;
    int looked = 0;

    mca_coll_shmcico_watch_init(&w, true, 1);
    for (uint64_t seq = 1; seq <= 4 * MCA_COLL_SHMCICO_WATCH_PERIOD; ++seq) {
        looked += MCA_COLL_SHMCICO_WATCH_NOTHING
                  != mca_coll_shmcico_watch_call(&w, &wview, 0, seq + 2 * WATCH_CALLS);
    }
    CHECK(0 == looked && w.near, "process 1 never marks again: no round, still near");
    looked = 0;
    mca_coll_shmcico_watch_init(&w, true, 0);
    for (uint64_t seq = 1; seq <= 4 * MCA_COLL_SHMCICO_WATCH_PERIOD; ++seq) {
        looked += MCA_COLL_SHMCICO_WATCH_NOTHING != mca_coll_shmcico_watch_call(&w, &wview, 0, seq);
    }
    CHECK(0 == looked && w.near, "not watched: no round, the setup's answer");
}

static void watch(void)
{
    void *base = segment_of_two();

    watch_rule();
    watch_two(false, UINT64_C(1000000000), true);
    watch_two(true, 1, false);
    watch_two(true, UINT64_C(1000000000), true);
    watch_alone();
    free(base);
}

int main(void)
{
    uint64_t memory = mca_coll_shmcico_memory_ns();

    rule();
    trip_with(1);
    trip_with(2);
    nobody_answers();
    patience_beside_a_busy_thread();
    trip_with(3);                               /* the line works after a timeout */
#if defined(__x86_64__) || defined(__aarch64__)
    CHECK(memory > 0 && memory < 100000, "a load from memory: %llu ns",
          (unsigned long long) memory);
#endif
    CHECK(memory == mca_coll_shmcico_memory_ns(), "memory's latency is measured once");
    watch();
    return unit_report("test_nearness");
}
