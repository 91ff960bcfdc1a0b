/*
 * Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
 * $COPYRIGHT$
 *
 * Additional copyrights may follow
 *
 * $HEADER$
 */

/*
 * A preload library (LD_PRELOAD) for the fault tests.  It changes only
 * calls made from coll/shmcico's own DSO; Open MPI and everything else
 * get the C library's functions untouched.
 *
 *   SHMCICO_FAULT_NAMES=HEX     getrandom() yields HEX, HEX + STEP,
 *                               HEX + 2 * STEP, ... (STEP = 0x1111...),
 *                               so a test knows the names of the backing
 *                               files the component will try
 *   SHMCICO_FAULT_DIE_IN_SETUP  the process kills itself (SIGKILL) when
 *                               it reserves the backing file: the file
 *                               exists and no other rank has attached
 *   shmcico_fault_malloc_from(N) (a function: a test finds it with
 *                               dlsym(RTLD_DEFAULT, ...) and calls it
 *                               around one call) malloc() of N bytes or
 *                               more fails (ENOMEM); 0: never.  Every
 *                               other malloc() goes to the next one (a
 *                               sanitizer's, where one is preloaded after
 *                               this library)
 */

#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <execinfo.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/types.h>

#define NAME_STEP 0x1111111111111111ull

/* whether the component's DSO is among the few callers above this
 * function (not only the first: a sanitizer's interceptor may sit in
 * between) */
static int called_by_component(void)
{
    void *frames[4];
    int n = backtrace(frames, 4);

    for (int i = 1; i < n; ++i) {
        Dl_info info;
        if (0 != dladdr(frames[i], &info) && NULL != info.dli_fname
            && NULL != strstr(info.dli_fname, "mca_coll_shmcico")) {
            return 1;
        }
    }
    return 0;
}

ssize_t getrandom(void *buf, size_t len, unsigned int flags)
{
    static uint64_t next;
    static int started;
    const char *names = getenv("SHMCICO_FAULT_NAMES");
    ssize_t (*real)(void *, size_t, unsigned int);

    if (NULL != names && called_by_component()) {
        if (!started) {
            next = strtoull(names, NULL, 16);
            started = 1;
        }
        memcpy(buf, &next, len < sizeof(next) ? len : sizeof(next));
        next += NAME_STEP;
        return (ssize_t) len;
    }
    real = (ssize_t (*)(void *, size_t, unsigned int)) dlsym(RTLD_NEXT, "getrandom");
    return real(buf, len, flags);
}

int posix_fallocate(int fd, off_t offset, off_t len)
{
    int (*real)(int, off_t, off_t);

    if (NULL != getenv("SHMCICO_FAULT_DIE_IN_SETUP")
        && called_by_component()) {
        (void) raise(SIGKILL);
    }
    real = (int (*)(int, off_t, off_t)) dlsym(RTLD_NEXT, "posix_fallocate");
    return real(fd, offset, len);
}

extern void *__libc_malloc(size_t size);

/* malloc() of the component fails from this many bytes on; 0: never */
static _Atomic size_t fail_from;

/* The test's switch (found with dlsym(RTLD_DEFAULT, ...)): an atomic
 * word, not the environment, which other threads read while a test would
 * change it. */
void shmcico_fault_malloc_from(size_t bytes)
{
    atomic_store(&fail_from, bytes);
}

/* The malloc() after this library's: a sanitizer's, whose free() gets
 * every block, or the C library's */
static void *next_malloc(size_t size)
{
    static void *(*_Atomic next)(size_t);
    static __thread int resolving;
    void *(*found)(size_t) = atomic_load(&next);

    if (NULL == found && resolving) {
        return __libc_malloc(size);         /* dlsym's own needs, if any */
    }
    if (NULL == found) {
        resolving = 1;
        found = (void *(*)(size_t)) dlsym(RTLD_NEXT, "malloc");
        resolving = 0;
        found = NULL != found ? found : __libc_malloc;
        atomic_store(&next, found);
    }
    return found(size);
}

void *malloc(size_t size)
{
    static __thread int inside;     /* backtrace() may allocate */
    size_t from = atomic_load_explicit(&fail_from, memory_order_relaxed);
    int refuse = 0;

    if (0 != from && size >= from && !inside) {
        inside = 1;
        refuse = called_by_component();
        inside = 0;
    }
    if (refuse) {
        errno = ENOMEM;
        return NULL;
    }
    return next_malloc(size);
}
