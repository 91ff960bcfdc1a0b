/*
 * Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
 * $COPYRIGHT$
 *
 * Additional copyrights may follow
 *
 * $HEADER$
 */

/*
 * What the benchmark tools outside shmcico-bench (line-latency,
 * copy-bandwidth, cma-trace, queue-handoff) share: a monotonic clock,
 * pinning the calling thread to one CPU, and a cache line that one
 * process posts a growing count in and another waits on.
 */

#ifndef SHMCICO_BENCH_HOST_H
#define SHMCICO_BENCH_HOST_H

#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <time.h>

/* CLOCK_MONOTONIC in nanoseconds: the same clock in every process */
static inline uint64_t now_ns(void)
{
    struct timespec t;

    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t) t.tv_sec * 1000000000u + (uint64_t) t.tv_nsec;
}

/* the same, in seconds */
static inline double now(void)
{
    return 1e-9 * (double) now_ns();
}

/* the calling thread only (Linux: pid 0 is the calling thread) */
static inline void pin(int cpu)
{
    cpu_set_t set;

    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    (void) sched_setaffinity(0, sizeof(set), &set);     /* best effort */
}

/* a count on a cache line of its own */
typedef struct {
    _Alignas(64) _Atomic uint64_t value;
} line_t;

/* until the count reaches value; acquire: pairs with the release in
 * line_post() */
static inline void line_wait(line_t *line, uint64_t value)
{
    while (atomic_load_explicit(&line->value, memory_order_acquire) < value) {
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#endif
    }
}

/* release: pairs with the acquire in line_wait() */
static inline void line_post(line_t *line, uint64_t value)
{
    atomic_store_explicit(&line->value, value, memory_order_release);
}

#endif /* SHMCICO_BENCH_HOST_H */
