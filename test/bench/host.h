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
 * copy-bandwidth, cma-trace) share: a monotonic clock, and pinning the
 * calling thread to one CPU.
 */

#ifndef SHMCICO_BENCH_HOST_H
#define SHMCICO_BENCH_HOST_H

#include <sched.h>
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

#endif /* SHMCICO_BENCH_HOST_H */
