/*
 * Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
 * $COPYRIGHT$
 *
 * Additional copyrights may follow
 *
 * $HEADER$
 */

/*
 * A preload library (LD_PRELOAD) for the out-of-memory tests
 * (test_multinode no-memory, test_large multinode): malloc() or calloc()
 * called from the component's own code fails, ENOMEM, from N bytes on,
 * between the test's calls of
 *
 *   shmcico_fault_malloc_from(N)    (0: never; the test finds it with
 *                                    dlsym(RTLD_DEFAULT, ...): an atomic
 *                                    word, not the environment, which
 *                                    other threads read meanwhile)
 *
 * Every other malloc() goes to the C library's.  It cannot go with a
 * sanitizer's runtime, whose allocator must see every block: the suite
 * does not run these cases under the sanitizers.
 */

#define _GNU_SOURCE
#include <errno.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdlib.h>

#include "fault_caller.h"

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t n, size_t size);

/* the component's malloc() and calloc() fail from this many bytes on;
 * 0: never */
static _Atomic size_t fail_from;

void shmcico_fault_malloc_from(size_t bytes)
{
    atomic_store(&fail_from, bytes);
}

/* whether an allocation of size bytes fails: inlined, so that the
 * backtrace's first frame is malloc()'s or calloc()'s, the next their
 * caller's */
static inline __attribute__((always_inline)) int refused(size_t size)
{
    static __thread int inside;     /* backtrace() may allocate */
    size_t from = atomic_load_explicit(&fail_from, memory_order_relaxed);
    int refuse = 0;

    if (0 != from && size >= from && !inside) {
        inside = 1;
        /* the component's own calls only: a collective of the previous
         * component that the component calls (coll/han's allreduce
         * allocates) must not fail, as it does not check */
        refuse = called_by_component_within(1);
        inside = 0;
    }
    if (refuse) {
        errno = ENOMEM;
    }
    return refuse;
}

void *malloc(size_t size)
{
    return refused(size) ? NULL : __libc_malloc(size);
}

void *calloc(size_t n, size_t size)
{
    /* (n * size overflowing: the C library's calloc() refuses it) */
    return refused(n * size) ? NULL : __libc_calloc(n, size);
}
