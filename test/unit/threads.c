/*
 * Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
 * $COPYRIGHT$
 *
 * Additional copyrights may follow
 *
 * $HEADER$
 */

#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>

#include "threads.h"

typedef struct thread_arg {
    threads_world *w;
    int rank;
    threads_body_fn body;
    void *arg;
    pthread_barrier_t *barrier;
    int failures;
} thread_arg;

/* more threads than cores: yield while waiting */
static const mca_coll_shmcico_waiter_t waiter = { .yield = true, .spins_per_progress = 64 };

int threads_memcpy_copy(void *context, int peer, bool to_peer, const struct iovec *local,
                        const struct iovec *remote, size_t n)
{
    (void) context;
    (void) peer;
    for (size_t i = 0; i < n; ++i) {
        if (to_peer) {
            memcpy(remote[i].iov_base, local[i].iov_base, local[i].iov_len);
        } else {
            memcpy(local[i].iov_base, remote[i].iov_base, local[i].iov_len);
        }
    }
    return 0;
}

int threads_cma_copy(void *context, int peer, bool to_peer, const struct iovec *local,
                     const struct iovec *remote, size_t n)
{
    size_t want = 0;
    ssize_t got;

    (void) context;
    (void) peer;
    for (size_t i = 0; i < n; ++i) {
        want += local[i].iov_len;
    }
    got = to_peer ? process_vm_writev(getpid(), local, n, remote, n, 0)
                  : process_vm_readv(getpid(), local, n, remote, n, 0);
    return got < 0 ? errno : (size_t) got == want ? 0 : EIO;
}

_Atomic int threads_failed_copies;

/* a kernel that refuses some copies: a peer made itself non-dumpable */
static int pushes_fail_copy(void *context, int peer, bool to_peer, const struct iovec *local,
                            const struct iovec *remote, size_t n)
{
    if (to_peer) {
        ++threads_failed_copies;
        return EPERM;
    }
    return threads_memcpy_copy(context, peer, to_peer, local, remote, n);
}

static int pulls_from_0_fail_copy(void *context, int peer, bool to_peer,
                                  const struct iovec *local, const struct iovec *remote,
                                  size_t n)
{
    if (!to_peer && 0 == peer) {
        ++threads_failed_copies;
        return EPERM;
    }
    return threads_memcpy_copy(context, peer, to_peer, local, remote, n);
}

static mca_coll_shmcico_copy_fn_t copier_of(threads_copier kind)
{
    switch (kind) {
    case THREADS_MEMCPY: return threads_memcpy_copy;
    case THREADS_CMA: return threads_cma_copy;
    case THREADS_PUSHES_FAIL: return pushes_fail_copy;
    case THREADS_PULLS_FROM_0_FAIL: return pulls_from_0_fail_copy;
    default: return NULL;
    }
}

static void *thread_main(void *p)
{
    thread_arg *t = p;
    mca_coll_shmcico_engine_t engine;
    mca_coll_shmcico_copier_t copier = { .copy = copier_of(t->w->copier) };

    if (0 != mca_coll_shmcico_engine_init(&engine, t->w->base, &t->w->layout,
                                          t->rank, &waiter, &copier)) {
        fprintf(stderr, "rank %d: engine refused the segment\n", t->rank);
        exit(1);
    }
    mca_coll_shmcico_segment_identify(&engine.view, t->rank, (int32_t) getpid());
    pthread_barrier_wait(t->barrier);
    t->failures = t->body(t->w, &engine, t->arg);
    mca_coll_shmcico_engine_fini(&engine);
    return NULL;
}

/* banks some process is not done with: every process must have said it
 * is done with the last call of every bank */
static int banks_busy(threads_world *w)
{
    mca_coll_shmcico_view_t view;
    int busy = 0;

    if (0 != mca_coll_shmcico_view_init(&view, w->base, &w->layout)) {
        return 1;
    }
    for (uint32_t b = 0; b < w->layout.banks; ++b) {
        uint64_t last = atomic_load(&mca_coll_shmcico_done(&view, 0, b)->op);
        for (int i = 1; i < w->p; ++i) {
            busy += atomic_load(&mca_coll_shmcico_done(&view, i, b)->op) != last;
        }
    }
    return busy;
}

int threads_run(int p, uint32_t slots, uint32_t banks, size_t fragment,
                threads_copier copier, threads_body_fn body, void *arg)
{
    threads_world w = { .p = p, .copier = copier };
    pthread_t threads[MAX_THREADS];
    thread_arg args[MAX_THREADS];
    pthread_barrier_t barrier;
    int failures = 0;

    for (int i = 0; i < p; ++i) {
        w.numa[i] = i % 2;
    }
    if (p > MAX_THREADS
        || 0 != mca_coll_shmcico_layout_init(&w.layout, 4096, (uint32_t) p, slots,
                                             banks, fragment)) {
        fprintf(stderr, "bad world p=%d s=%u w=%u f=%zu\n", p, slots, banks, fragment);
        return 1;
    }
    /* anonymous memory is zero, as a fresh backing file is, and pages
     * nobody touches cost nothing */
    w.base = mmap(NULL, w.layout.segment_size, PROT_READ | PROT_WRITE,
                  MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (MAP_FAILED == w.base) {
        perror("mmap");
        return 1;
    }
    mca_coll_shmcico_segment_format(w.base, &w.layout, w.numa);
    pthread_barrier_init(&barrier, NULL, (unsigned) p);
    for (int i = 0; i < p; ++i) {
        args[i] = (thread_arg) { &w, i, body, arg, &barrier, 0 };
        pthread_create(&threads[i], NULL, thread_main, &args[i]);
    }
    for (int i = 0; i < p; ++i) {
        pthread_join(threads[i], NULL);
        failures += args[i].failures;
    }
    if (banks_busy(&w)) {
        fprintf(stderr, "a process is not done with a bank after the last call\n");
        ++failures;
    }
    pthread_barrier_destroy(&barrier);
    munmap(w.base, w.layout.segment_size);
    return failures;
}
