/*
 * Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
 * $COPYRIGHT$
 *
 * Additional copyrights may follow
 *
 * $HEADER$
 */

/*
 * What the benchmarks without MPI (line-latency, copy-bandwidth) share:
 * a monotonic clock, and pinning the calling thread to one CPU.
 */

#ifndef SHMCICO_BENCH_HOST_H
#define SHMCICO_BENCH_HOST_H

#include <sched.h>
#include <time.h>

static inline double now(void)
{
    struct timespec t;

    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double) t.tv_sec + 1e-9 * (double) t.tv_nsec;
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
