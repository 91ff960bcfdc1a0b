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
 *  - memory's latency is a time where the machine can flush a line.
 */

#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <time.h>

#include "coll_shmcico_nearness.h"
#include "unit.h"

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
    return unit_report("test_nearness");
}
