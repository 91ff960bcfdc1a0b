/*
 * Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
 * $COPYRIGHT$
 *
 * Additional copyrights may follow
 *
 * $HEADER$
 */

/*
 * copy-bandwidth: what one core, and two cores at once, copy on this
 * machine, from the caches and from memory.  No MPI.  It asks the
 * question under every large collective at np 2 (docs/performance.md):
 * does a second core copying half of a block make the block arrive
 * sooner, when the block's bytes are warm and when they are cold?
 *
 * Four ways to move S bytes, each by memcpy and by the kernel's copy
 * between address spaces (process_vm_readv on this process, the call
 * Open MPI's CMA makes):
 *   one    one vCPU copies all S bytes (coll/tuned's Bcast at np 2);
 *   push   the same, by process_vm_writev in the CMA case (the
 *          source's side moves the bytes);
 *   halves two vCPUs copy one half each, at once (shmcico's single-copy
 *          Bcast at np 2: the receiver pulls, the root pushes, by
 *          process_vm_writev in the CMA case);
 *   both   two vCPUs copy S bytes each, at once, different blocks
 *          (Allgather at np 2, by either component).
 * Warm: the same source and destination every repeat, the first 32 MiB
 * of the pools (whether 2 x 16 MiB stay in the caches depends on their
 * size).  Cold: every repeat the next blocks of the rest of a pool of
 * POOL_MIB MiB (default 512, at least 256) per side, far larger than the
 * last-level cache.  The two threads run on CPUs 0 and 1 where they can
 * be pinned (on a virtual machine, two vCPUs: whether they are two
 * cores of the host is not known).
 *
 * First, on the fresh pools, passes of 1 MiB blocks through the whole
 * pool: two by CMA pulls (the kernel pins the source pages), two by CMA
 * pushes (it pins the destination pages), then one by memcpy: whether
 * the kernel's copy of pages it has never pinned costs more than of pages
 * it has (it does on the test machine, docs/performance.md), and how
 * many page faults the pass took (getrusage).  The ways
 * are then measured on pools every page of which the kernel has pinned,
 * as a program's buffers after their first use.
 *
 * Usage: copy-bandwidth [REPEATS (default 41)] [POOL_MIB]
 * Prints the median time per MiB and the faults of each pass, then one line per method,
 * cache state, way and size: the median and smallest time of the repeats
 * in microseconds and the median's GB/s.
 */

#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "host.h"

typedef enum { WAY_ONE, WAY_PUSH, WAY_HALVES, WAY_BOTH } way_t;

typedef struct {
    char *src;
    char *dst;
    size_t bytes;
    int push;       /* CMA: process_vm_writev (the source's side) */
} job_t;

/* what the main thread hands the helper thread for one repeat */
typedef struct {
    _Alignas(64) _Atomic uint64_t go;   /* repeat number posted */
    _Alignas(64) _Atomic uint64_t done; /* repeat number finished */
    job_t job;
    int cma;
} handoff_t;

static handoff_t handoff;

static void copy(const job_t *job, int cma)
{
    struct iovec dst = { job->dst, job->bytes }, src = { job->src, job->bytes };
    ssize_t moved;

    if (0 == job->bytes) {
        return;
    }
    if (!cma) {
        memcpy(job->dst, job->src, job->bytes);
        return;
    }
    moved = job->push ? process_vm_writev(getpid(), &src, 1, &dst, 1, 0)
                      : process_vm_readv(getpid(), &dst, 1, &src, 1, 0);
    if (moved != (ssize_t) job->bytes) {
        perror("process_vm_readv/writev");
        exit(1);
    }
}

static void *helper(void *arg)
{
    uint64_t seen = 0;

    (void) arg;
    pin(1);
    for (;;) {
        /* acquire: pairs with the release in run_repeat(), the job is visible */
        uint64_t go = atomic_load_explicit(&handoff.go, memory_order_acquire);

        if (go == seen) {
            continue;
        }
        if (UINT64_MAX == go) {
            return NULL;
        }
        copy(&handoff.job, handoff.cma);
        seen = go;
        /* release: pairs with the acquire in run_repeat(), the copy is done */
        atomic_store_explicit(&handoff.done, go, memory_order_release);
    }
}

/* one repeat: the main thread's job and the helper's (bytes 0: idle, no
 * handoff) */
static double run_repeat(const job_t *mine, const job_t *theirs, int cma, uint64_t n)
{
    double t0 = now();

    if (0 == theirs->bytes) {
        copy(mine, cma);
        return now() - t0;
    }
    handoff.job = *theirs;
    handoff.cma = cma;
    /* release: pairs with the acquire in helper() */
    atomic_store_explicit(&handoff.go, n, memory_order_release);
    copy(mine, cma);
    /* acquire: pairs with the release in helper() */
    while (atomic_load_explicit(&handoff.done, memory_order_acquire) != n) {
    }
    return now() - t0;
}

typedef struct {
    char *src, *dst;       /* the pools */
    size_t pool;           /* bytes of each */
    size_t next;           /* offset of the next cold block */
} pools_t;

/* the warm blocks: the first WARM_BYTES of each pool, never a cold one */
#define WARM_BYTES ((size_t) 32 << 20)

/* the next block of S bytes in both pools; warm: always the first */
static size_t block_at(pools_t *p, size_t bytes, int cold)
{
    size_t at;

    if (!cold) {
        return 0;
    }
    if (p->next < WARM_BYTES || p->next + bytes > p->pool) {
        p->next = WARM_BYTES;
    }
    at = p->next;
    p->next += bytes;
    return at;
}

static void jobs_for(pools_t *p, way_t way, size_t bytes, int cold, job_t *a, job_t *b)
{
    size_t at = block_at(p, bytes, cold), half = bytes / 2;

    *a = (job_t) { p->src + at, p->dst + at, bytes, WAY_PUSH == way };
    *b = (job_t) { NULL, NULL, 0, 0 };
    if (WAY_HALVES == way) {
        /* the helper is the root: it pushes its half */
        a->bytes = half;
        *b = (job_t) { p->src + at + half, p->dst + at + half, bytes - half, 1 };
    } else if (WAY_BOTH == way) {
        /* the helper's own block: the next one, or 1 block on when warm */
        size_t other = cold ? block_at(p, bytes, cold) : bytes;

        *b = (job_t) { p->src + other, p->dst + other, bytes, 0 };
    }
}

static int by_value(const void *x, const void *y)
{
    double a = *(const double *) x, b = *(const double *) y;

    return (a > b) - (a < b);
}

static void measure(pools_t *p, way_t way, size_t bytes, int cold, int cma, int repeats,
                    uint64_t *n)
{
    static const char *ways[] = { "one", "push", "halves", "both" };
    double *t = calloc((size_t) repeats, sizeof(double));
    job_t a, b;

    jobs_for(p, way, bytes, cold, &a, &b);
    (void) run_repeat(&a, &b, cma, ++*n);            /* untimed: faults, warms */
    for (int r = 0; r < repeats; ++r) {
        jobs_for(p, way, bytes, cold, &a, &b);
        t[r] = run_repeat(&a, &b, cma, ++*n);
    }
    qsort(t, (size_t) repeats, sizeof(double), by_value);
    printf("%-6s %-4s %-6s %9zu  median %9.1f us  min %9.1f us  %6.2f GB/s\n",
           cma ? "cma" : "memcpy", cold ? "cold" : "warm", ways[way], bytes,
           1e6 * t[repeats / 2], 1e6 * t[0],
           (double) bytes * (WAY_BOTH == way ? 2 : 1) / t[repeats / 2] / 1e9);
    free(t);
}

static long faults(void)
{
    struct rusage u;

    getrusage(RUSAGE_SELF, &u);
    return u.ru_minflt + u.ru_majflt;
}

/* one pass of 1 MiB blocks through the pools; returns the median in us */
static double pass(pools_t *p, int cma, int push)
{
    size_t blocks = p->pool >> 20;
    double *t = calloc(blocks, sizeof(double)), median;

    for (size_t i = 0; i < blocks; ++i) {
        job_t job = { p->src + (i << 20), p->dst + (i << 20), (size_t) 1 << 20, push };
        double t0 = now();

        copy(&job, cma);
        t[i] = now() - t0;
    }
    qsort(t, blocks, sizeof(double), by_value);
    median = 1e6 * t[blocks / 2];
    free(t);
    return median;
}

static void passes(pools_t *p)
{
    static const char *names[] = { "cma pull", "cma pull", "cma push", "cma push", "memcpy" };

    for (int i = 0; i < 5; ++i) {
        long f0 = faults();
        double median = pass(p, i < 4, i >= 2 && i < 4);

        printf("pass %d through the pool, 1 MiB blocks, %-8s: median %7.1f us, %ld page faults\n",
               i + 1, names[i], median, faults() - f0);
    }
}

static char *pool_alloc(size_t bytes)
{
    char *m = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

    if (MAP_FAILED == m) {
        perror("mmap");
        exit(1);
    }
    /* fault every page in, with bytes no two pages share: pages of equal
     * bytes may be merged (by KSM here or in a hypervisor), and a copy
     * of a merged page would read one line many times */
    for (size_t i = 0; i < bytes / sizeof(uint64_t); ++i) {
        ((uint64_t *) m)[i] = i * 0x9e3779b97f4a7c15ull + (uintptr_t) m;
    }
    return m;
}

int main(int argc, char **argv)
{
    static const size_t sizes[] = { 256 << 10, 1 << 20, 4 << 20, 16 << 20 };
    int repeats = argc > 1 ? atoi(argv[1]) : 41;
    size_t mib = argc > 2 ? (size_t) atol(argv[2]) : 512;
    pools_t p = { NULL, NULL, mib << 20, 0 };
    pthread_t thread;
    uint64_t n = 0;

    if (repeats < 1 || mib < 256) {
        fprintf(stderr, "usage: copy-bandwidth [REPEATS >= 1] [POOL_MIB >= 256]\n");
        return 1;
    }
    p.src = pool_alloc(p.pool);
    p.dst = pool_alloc(p.pool);
    pin(0);
    passes(&p);
    pthread_create(&thread, NULL, helper, NULL);
    for (int cma = 0; cma <= 1; ++cma) {
        for (int cold = 0; cold <= 1; ++cold) {
            for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); ++s) {
                for (int way = WAY_ONE; way <= WAY_BOTH; ++way) {
                    measure(&p, (way_t) way, sizes[s], cold, cma, repeats, &n);
                }
            }
        }
    }
    /* release: pairs with the acquire in helper(), which then returns */
    atomic_store_explicit(&handoff.go, UINT64_MAX, memory_order_release);
    pthread_join(thread, NULL);
    return 0;
}
