/*
 * Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
 * $COPYRIGHT$
 *
 * Additional copyrights may follow
 *
 * $HEADER$
 */

/*
 * cma-trace: a preload library (LD_PRELOAD) that writes a timeline of
 * every kernel copy between address spaces and of every MPI_Bcast,
 * MPI_Scatter and MPI_Gather, for docs/results/cold-16m-np2/timeline/
 * and docs/results/rooted-np2-timeline/.  It asks where the time of a
 * large call goes: into the kernel's copies (and how fast each copied),
 * or between them (a process waiting for the other).  Both coll/shmcico's
 * single copy and coll/tuned's (btl/vader's CMA) call the C library's
 * process_vm_readv / process_vm_writev, so both are seen.
 *
 * Every event is an interval of CLOCK_MONOTONIC, which all processes of
 * a machine share, so the timelines of the processes line up.  At exit
 * each process writes CMA_TRACE_DIR/trace.PID (default: the current
 * directory), one line per event:
 *   START_NS END_NS KIND BYTES ADDRESS
 * KIND is pull (process_vm_readv), push (process_vm_writev), short (a
 * copy that failed or moved fewer bytes than asked), or bcast, scatter
 * or gather (an MPI_Bcast, MPI_Scatter or MPI_Gather; BYTES the count
 * times the type's size of this process's block; the call's
 * communicator tells nothing here, so a tool tells components apart by
 * their copies).  ADDRESS (hexadecimal) is the other process's first
 * address of a copy, the buffer of a Bcast, the receive buffer of a
 * Scatter, the send buffer of a Gather.  The first MAX_EVENTS events
 * are kept.
 *
 *   mpirun -np 2 -x LD_PRELOAD=test/bench/.libs/cma-trace.so \
 *          -x CMA_TRACE_DIR=DIR test/bench/shmcico-bench ...
 */

#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/uio.h>
#include <unistd.h>

#include <mpi.h>

#include "host.h"

#define MAX_EVENTS (1 << 20)

typedef ssize_t (*vm_copy_fn)(pid_t, const struct iovec *, unsigned long,
                              const struct iovec *, unsigned long, unsigned long);

typedef struct {
    uint64_t start, end, bytes, remote;
    const char *kind;
} event_t;

static event_t *events;
static atomic_long nevents;

static void record(const char *kind, uint64_t start, uint64_t bytes, const void *remote)
{
    long i;

    if (NULL == events) {
        return;
    }
    i = atomic_fetch_add(&nevents, 1);
    if (i < MAX_EVENTS) {
        events[i] = (event_t) { .start = start, .end = now_ns(), .bytes = bytes,
                                .remote = (uintptr_t) remote, .kind = kind };
    }
}

__attribute__((constructor)) static void trace_open(void)
{
    events = calloc(MAX_EVENTS, sizeof(event_t));  /* kind NULL: not written yet */
}

__attribute__((destructor)) static void trace_write(void)
{
    const char *dir = getenv("CMA_TRACE_DIR");
    long n = atomic_load(&nevents);
    char path[4096];
    FILE *f;

    snprintf(path, sizeof(path), "%s/trace.%d", NULL != dir ? dir : ".", (int) getpid());
    if (NULL == events || NULL == (f = fopen(path, "w"))) {
        return;
    }
    for (long i = 0; i < n && i < MAX_EVENTS; ++i) {
        if (NULL == events[i].kind) {
            continue;           /* a thread still writing it at exit */
        }
        fprintf(f, "%llu %llu %s %llu %llx\n", (unsigned long long) events[i].start,
                (unsigned long long) events[i].end, events[i].kind,
                (unsigned long long) events[i].bytes, (unsigned long long) events[i].remote);
    }
    fclose(f);
}

static uint64_t iov_bytes(const struct iovec *iov, unsigned long n)
{
    uint64_t bytes = 0;

    for (unsigned long i = 0; i < n; ++i) {
        bytes += iov[i].iov_len;
    }
    return bytes;
}

static ssize_t traced(const char *name, vm_copy_fn *real, const char *kind, pid_t pid,
                      const struct iovec *local, unsigned long nlocal,
                      const struct iovec *remote, unsigned long nremote, unsigned long flags)
{
    uint64_t start, bytes = iov_bytes(local, nlocal);
    ssize_t got;
    int saved;

    if (NULL == *real) {
        *real = (vm_copy_fn) dlsym(RTLD_NEXT, name);
    }
    if (NULL == *real) {
        errno = ENOSYS;
        return -1;
    }
    start = now_ns();
    got = (*real)(pid, local, nlocal, remote, nremote, flags);
    saved = errno;              /* the caller reads it (EINTR, EPERM) */

    record(got == (ssize_t) bytes ? kind : "short", start, bytes,
           nremote > 0 ? remote[0].iov_base : NULL);
    errno = saved;
    return got;
}

ssize_t process_vm_readv(pid_t pid, const struct iovec *local, unsigned long nlocal,
                         const struct iovec *remote, unsigned long nremote, unsigned long flags)
{
    static vm_copy_fn real;

    return traced("process_vm_readv", &real, "pull", pid, local, nlocal, remote, nremote, flags);
}

ssize_t process_vm_writev(pid_t pid, const struct iovec *local, unsigned long nlocal,
                          const struct iovec *remote, unsigned long nremote, unsigned long flags)
{
    static vm_copy_fn real;

    return traced("process_vm_writev", &real, "push", pid, local, nlocal, remote, nremote, flags);
}

/* a call's interval, with its block of COUNT elements of TYPE at BUF */
static void record_call(const char *kind, uint64_t start, int count, MPI_Datatype type,
                        const void *buf)
{
    int size = 0;

    PMPI_Type_size(type, &size);
    record(kind, start, (uint64_t) size * (uint64_t) count, buf);
}

int MPI_Bcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm)
{
    uint64_t start = now_ns();
    int rc = PMPI_Bcast(buf, count, type, root, comm);

    record_call("bcast", start, count, type, buf);
    return rc;
}

int MPI_Scatter(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                MPI_Datatype rtype, int root, MPI_Comm comm)
{
    uint64_t start = now_ns();
    int rc = PMPI_Scatter(sbuf, scount, stype, rbuf, rcount, rtype, root, comm);

    record_call("scatter", start, rcount, rtype, rbuf);
    return rc;
}

int MPI_Gather(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
               MPI_Datatype rtype, int root, MPI_Comm comm)
{
    uint64_t start = now_ns();
    int rc = PMPI_Gather(sbuf, scount, stype, rbuf, rcount, rtype, root, comm);

    record_call("gather", start, scount, stype, sbuf);
    return rc;
}
