/*
 * Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
 * $COPYRIGHT$
 *
 * Additional copyrights may follow
 *
 * $HEADER$
 */

/* Threads standing in for the processes of a communicator: a segment in
 * ordinary memory, formatted as rank 0 would, and one engine per thread.
 * Single copies go through memcpy (threads share one address space) or
 * through Linux CMA on the process's own pid, as between processes. */

#ifndef SHMCICO_UNIT_THREADS_H
#define SHMCICO_UNIT_THREADS_H

#include "coll_shmcico_engine.h"

#define MAX_THREADS 16

typedef enum {
    THREADS_NO_COPIER,          /* no single copy: everything queued */
    THREADS_MEMCPY,
    THREADS_CMA,                /* process_vm_readv/writev */
    THREADS_PUSHES_FAIL,        /* memcpy, but every push fails (EPERM), nothing written */
    THREADS_PULLS_FROM_0_FAIL   /* memcpy, but pulls from thread 0 fail (EPERM) */
} threads_copier;

typedef struct threads_world {
    int p;
    mca_coll_shmcico_layout_t layout;
    void *base;
    int32_t numa[MAX_THREADS];          /* NUMA node of each thread */
    threads_copier copier;
} threads_world;

/* What one thread runs; returns its number of failures. */
typedef int (*threads_body_fn)(threads_world *w, mca_coll_shmcico_engine_t *engine,
                               void *arg);

/* Run body on p threads over a fresh segment of the given geometry;
 * returns the failures of all threads, and checks that every process is
 * done with the last call of every bank at the end (one failure if not). */
int threads_run(int p, uint32_t slots, uint32_t banks, size_t fragment,
                threads_copier copier, threads_body_fn body, void *arg);

/* Copies the failing copiers refused so far, all worlds together. */
extern _Atomic int threads_failed_copies;

/* The copiers, usable outside a world too (context: unused). */
int threads_memcpy_copy(void *context, int peer, bool to_peer, const struct iovec *local,
                        const struct iovec *remote, size_t n);
int threads_cma_copy(void *context, int peer, bool to_peer, const struct iovec *local,
                     const struct iovec *remote, size_t n);

#endif
