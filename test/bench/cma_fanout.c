/*
 * Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
 * $COPYRIGHT$
 *
 * Additional copyrights may follow
 *
 * $HEADER$
 */

/*
 * cma-fanout: K readers pull from one process at once, as the non-roots
 * of a single-copy Scatter (each its own block) and Bcast (all the same
 * block) do.  No MPI.  It asks whether the kernel's copy out of one
 * address space keeps its speed when many processes copy out of it at
 * the same moment (docs/performance.md, "Sixteen cores").
 *
 * The source process, on CPU 0, holds its blocks in private memory, as a
 * root's user buffer.  Readers, forked processes on CPUs 1, 2, ..., each
 * pull one block of S bytes per repeat into a private buffer of their
 * own:
 *   cma     process_vm_readv from the source (Open MPI's CMA, and
 *           shmcico's single copy);
 *   memcpy  memcpy from a shared mapping of the same bytes (what the
 *           readers of shmcico's queues do).
 * Modes: own (reader i pulls block i) and same (every reader pulls
 * block 0).  A repeat starts when the source posts its number and ends
 * when the last of the K readers has posted it back; the source's clock
 * times it, and the buffers are the same every repeat (warm).
 *
 * Usage: cma-fanout [MAX_READERS (default: CPUs - 1)] [REPEATS (default 201)]
 * Prints one line per size, mode, copy and number of readers: the median
 * time of a repeat in us, and that time over the time of one reader.
 */

#define _GNU_SOURCE

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "host.h"

#define MAX_READERS 256

static const size_t sizes[] = { 16384, 65536, 262144, 1048576 };
#define NSIZES (sizeof(sizes) / sizeof(sizes[0]))

/* what the source posts for one repeat, and the readers' answers */
typedef struct {
    line_t go;                  /* repeat number posted */
    line_t done[MAX_READERS];   /* repeat number each reader finished */
    size_t bytes;               /* block size of this repeat */
    int readers;                /* readers that copy in this repeat */
    int same;                   /* every reader pulls block 0 */
    int cma;                    /* process_vm_readv, not memcpy */
} control_t;

static control_t *ctl;
static char *priv_src;          /* the source's private blocks */
static char *shared_src;        /* the same bytes in a shared mapping */
static pid_t source_pid;

static void *map(size_t bytes, int shared)
{
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
                   (shared ? MAP_SHARED : MAP_PRIVATE) | MAP_ANONYMOUS, -1, 0);

    if (MAP_FAILED == p) {
        perror("mmap");
        exit(1);
    }
    memset(p, 1, bytes);
    return p;
}

static void pull(int me, char *dst)
{
    size_t off = ctl->same ? 0 : (size_t) me * ctl->bytes;
    struct iovec local = { dst, ctl->bytes }, remote = { priv_src + off, ctl->bytes };

    if (!ctl->cma) {
        memcpy(dst, shared_src + off, ctl->bytes);
    } else if (process_vm_readv(source_pid, &local, 1, &remote, 1, 0)
               != (ssize_t) ctl->bytes) {
        perror("process_vm_readv");
        exit(1);
    }
}

/* a reader: copies while its index is below the repeat's readers */
static void reader(int me, int ncpus)
{
    char *dst = map(sizes[NSIZES - 1], 0);
    uint64_t n;

    /* a reader spins: it must not outlive the source */
    (void) prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != source_pid) {
        exit(1);
    }
    pin((me + 1) % ncpus);
    for (n = 1;; n++) {
        line_wait(&ctl->go, n);     /* acquire: the repeat's parameters */
        if (0 == ctl->bytes) {
            exit(0);
        }
        if (me < ctl->readers) {
            pull(me, dst);
        }
        line_post(&ctl->done[me], n);   /* release: the copy is done */
    }
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *) a, y = *(const double *) b;

    return (x > y) - (x < y);
}

/* the median of repeats of one configuration, in us */
static double measure(uint64_t *n, int all, int repeats, double *times)
{
    int r, i;

    for (r = 0; r < repeats; r++) {
        double t0 = now();

        line_post(&ctl->go, ++*n);      /* release: the parameters */
        for (i = 0; i < all; i++) {
            line_wait(&ctl->done[i], *n);
        }
        times[r] = 1e6 * (now() - t0);
    }
    qsort(times, (size_t) repeats, sizeof(*times), by_value);
    return times[repeats / 2];
}

/* 1, 2, 4, ... and the largest */
static int next_readers(int k, int max_readers)
{
    if (k == max_readers) {
        return k + 1;
    }
    return k * 2 > max_readers ? max_readers : k * 2;
}

static void run(int max_readers, int repeats)
{
    double *times = calloc((size_t) repeats, sizeof(double)), one = 0;
    uint64_t n = 0;
    size_t s;
    int same, cma, k;

    printf("# size mode copy readers median_us over_one_reader\n");
    for (s = 0; s < NSIZES; s++) {
        for (same = 0; same < 2; same++) {
            for (cma = 1; cma >= 0; cma--) {
                for (k = 1; k <= max_readers; k = next_readers(k, max_readers)) {
                    double t;

                    ctl->bytes = sizes[s];
                    ctl->readers = k;
                    ctl->same = same;
                    ctl->cma = cma;
                    t = measure(&n, max_readers, repeats, times);
                    if (1 == k) {
                        one = t;
                    }
                    printf("%8zu %4s %6s %3d %10.2f %6.2f\n", sizes[s], same ? "same" : "own",
                           cma ? "cma" : "memcpy", k, t, t / one);
                    fflush(stdout);
                }
            }
        }
    }
    ctl->bytes = 0;
    line_post(&ctl->go, n + 1);         /* release: the readers leave */
    free(times);
}

int main(int argc, char **argv)
{
    int ncpus = (int) sysconf(_SC_NPROCESSORS_ONLN), max_readers, repeats, i;

    max_readers = argc > 1 ? atoi(argv[1]) : ncpus - 1;
    repeats = argc > 2 ? atoi(argv[2]) : 201;
    if (max_readers < 1 || max_readers > MAX_READERS || repeats < 1) {
        fprintf(stderr, "usage: cma-fanout [MAX_READERS 1..%d] [REPEATS]\n", MAX_READERS);
        return 2;
    }
    ctl = map(sizeof(*ctl), 1);
    memset(ctl, 0, sizeof(*ctl));
    priv_src = map((size_t) max_readers * sizes[NSIZES - 1], 0);
    shared_src = map((size_t) max_readers * sizes[NSIZES - 1], 1);
    source_pid = getpid();
    printf("# cma-fanout: %d readers at most, %d repeats, %d CPUs\n", max_readers, repeats, ncpus);
    if (max_readers >= ncpus) {
        printf("# more processes than CPUs: the times are the scheduler's\n");
    }
    fflush(stdout);
    for (i = 0; i < max_readers; i++) {
        if (0 == fork()) {
            reader(i, ncpus);
        }
    }
    pin(0);
    run(max_readers, repeats);
    while (wait(NULL) > 0) {
    }
    return 0;
}
