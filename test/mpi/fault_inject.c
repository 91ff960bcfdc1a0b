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
 *                               exists and no other rank has attached;
 *                               a value that is an absolute path names a
 *                               file made first, to say it happened
 *   SHMCICO_FAULT_SEE_DIR_AT_YIELD=DIR  whenever the component gives the
 *                               core away (sched_yield(): only in the
 *                               setup's trips, where the processes are
 *                               not crowded), DIR.yielded is made, and
 *                               DIR.file-at-yield too where DIR (the
 *                               backing directory) holds a file then
 *
 * test/mpi/fault_malloc.c makes malloc() fail, in a library of its own.
 */

#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <execinfo.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/types.h>
#include <unistd.h>

#include "fault_caller.h"

#define NAME_STEP 0x1111111111111111ull


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
    const char *die = getenv("SHMCICO_FAULT_DIE_IN_SETUP");

    if (NULL != die && called_by_component()) {
        /* an absolute path: a file that says it happened (output of a
         * process killed at once may never reach mpirun) */
        int mark = '/' == die[0] ? open(die, O_WRONLY | O_CREAT | O_CLOEXEC, 0600) : -1;
        if (mark >= 0) {
            (void) close(mark);
        }
        (void) raise(SIGKILL);
    }
    real = (int (*)(int, off_t, off_t)) dlsym(RTLD_NEXT, "posix_fallocate");
    return real(fd, offset, len);
}

/* an empty file at prefix + suffix */
static void mark(const char *prefix, const char *suffix)
{
    char path[4096];
    int fd;

    (void) snprintf(path, sizeof(path), "%s%s", prefix, suffix);
    fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
    if (fd >= 0) {
        (void) close(fd);
    }
}

/* whether dir holds anything but . and .. */
static int holds_a_file(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int found = 0;

    while (NULL != d && !found && NULL != (e = readdir(d))) {
        found = 0 != strcmp(e->d_name, ".") && 0 != strcmp(e->d_name, "..");
    }
    if (NULL != d) {
        (void) closedir(d);
    }
    return found;
}

int sched_yield(void)
{
    int (*real)(void);
    const char *dir = getenv("SHMCICO_FAULT_SEE_DIR_AT_YIELD");

    if (NULL != dir && called_by_component()) {
        mark(dir, ".yielded");
        if (holds_a_file(dir)) {
            mark(dir, ".file-at-yield");
        }
    }
    real = (int (*)(void)) dlsym(RTLD_NEXT, "sched_yield");
    return real();
}
