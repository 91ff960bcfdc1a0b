/*
 * Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
 * $COPYRIGHT$
 *
 * Additional copyrights may follow
 *
 * $HEADER$
 */

/*
 * queue-handoff: how long one block takes from one process to another
 * through a queue of slots, by the queue transport's two ways of writing
 * a slot, and by one kernel copy.  No MPI.  It asks the question behind
 * coll_shmcico_streaming_min (docs/design.md, "Streaming stores"):
 * what does a writer's ordinary store cost when the slot's lines sit in
 * the reader's cache from the slot's last use, and what do streaming
 * stores, which do not take the lines back first, cost instead?
 *
 * Two processes on CPUs 0 and 1 (on a virtual machine, whichever host
 * cores the vCPUs are on at the moment: run test/bench/line-latency
 * before and after).  The writer cuts a block of B bytes into fragments
 * of F bytes, writes fragment k into slot k % S once the reader is done
 * with fragment k - S, and raises the slot's flag; the reader waits for
 * each flag, copies the fragment out and says it is done; the block's
 * time runs from the writer's start to the reader's last copy.  Three
 * ways, one after the other for each size:
 *   ordinary   memcpy into the slot;
 *   streaming  mca_coll_shmcico_copy_streaming(), the component's own
 *              routine;
 *   cma        no queue: the reader copies the writer's block with one
 *              process_vm_readv, as coll/tuned's CMA does.
 * The writer's block stays the same (warm, as shmcico-bench --cache
 * warm), or with --cold every handoff takes the next block of a pool of
 * 256 MiB per side.
 *
 * Usage: queue-handoff [--cold] [--repeats N (default 2000)] [SIZE[K|M]...]
 * Prints, per size and way, the median and smallest time of the repeats
 * in microseconds (the first tenth of the repeats is a warm-up).
 */

#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "coll_shmcico_stream.h"
#include "host.h"

#define SLOTS 8
#define FRAGMENT 8192
#define POOL ((size_t) 256 << 20)
#define MAX_BLOCK ((size_t) 16 << 20)

enum { ORDINARY, STREAMING, CMA, NWAYS };
static const char *const way_names[NWAYS] = { "ordinary", "streaming", "cma" };

/* what both processes share */
typedef struct {
    line_t flag[SLOTS];         /* fragments written, as a running count */
    line_t done[SLOTS];         /* fragments read */
    line_t start;               /* handoffs begun */
    line_t end;                 /* handoffs the reader finished */
    _Alignas(4096) unsigned char slot[SLOTS][FRAGMENT];
} shared_t;

static size_t fragment_bytes(size_t block, uint64_t f)
{
    size_t left = block - (size_t) f * FRAGMENT;

    return left < FRAGMENT ? left : FRAGMENT;
}

/* the writer's side of one handoff; *k counts fragments over handoffs */
static void write_block(shared_t *s, int way, const unsigned char *src, size_t block,
                        uint64_t *k)
{
    for (uint64_t f = 0; (size_t) f * FRAGMENT < block; ++f, ++*k) {
        unsigned char *slot = s->slot[*k % SLOTS];
        size_t n = fragment_bytes(block, f);
        if (*k >= SLOTS) {
            line_wait(&s->done[*k % SLOTS], *k - SLOTS + 1);
        }
        if (STREAMING == way) {
            mca_coll_shmcico_copy_streaming(slot, src + f * FRAGMENT, n);
        } else {
            memcpy(slot, src + f * FRAGMENT, n);
        }
        line_post(&s->flag[*k % SLOTS], *k + 1);
    }
}

/* the reader's side of one handoff */
static void read_block(shared_t *s, int way, pid_t writer, const unsigned char *src,
                       unsigned char *dst, size_t block, uint64_t *k)
{
    if (CMA == way) {
        struct iovec local = { dst, block }, remote = { (void *) src, block };
        if (process_vm_readv(writer, &local, 1, &remote, 1, 0) != (ssize_t) block) {
            perror("queue-handoff: process_vm_readv");
            _exit(1);
        }
        return;
    }
    for (uint64_t f = 0; (size_t) f * FRAGMENT < block; ++f, ++*k) {
        line_wait(&s->flag[*k % SLOTS], *k + 1);
        memcpy(dst + f * FRAGMENT, s->slot[*k % SLOTS], fragment_bytes(block, f));
        line_post(&s->done[*k % SLOTS], *k + 1);
    }
}

/* the block of handoff r in a pool of blocks (one block when warm) */
static size_t block_at(size_t r, size_t block, int cold)
{
    return cold ? r % (POOL / block) * block : 0;
}

static int compare(const void *a, const void *b)
{
    double x = *(const double *) a, y = *(const double *) b;

    return (x > y) - (x < y);
}

/* one way at one size: reps handoffs, timed at the writer */
static void measure(shared_t *s, unsigned char *src, int way, size_t block, int reps,
                    int cold, uint64_t *handoff, uint64_t *k, double *times)
{
    int warmup = reps / 10;

    for (int r = 0; r < warmup + reps; ++r) {
        const unsigned char *from = src + block_at(*handoff, block, cold);
        uint64_t t0 = now_ns();
        line_post(&s->start, ++*handoff);
        if (CMA != way) {
            write_block(s, way, from, block, k);
        }
        line_wait(&s->end, *handoff);
        if (r >= warmup) {
            times[r - warmup] = 1e-3 * (double) (now_ns() - t0);
        }
    }
}

/* the reader: follows the writer's schedule of (way, size) */
static void reader_loop(shared_t *s, pid_t writer, unsigned char *src, const size_t *sizes,
                        int nsizes, int reps, int cold)
{
    unsigned char *dst = malloc(cold ? POOL : MAX_BLOCK);
    uint64_t handoff = 0, k = 0;

    if (NULL == dst) {
        _exit(1);
    }
    memset(dst, 0, cold ? POOL : MAX_BLOCK);
    pin(1);
    for (int i = 0; i < nsizes; ++i) {
        for (int way = 0; way < NWAYS; ++way) {
            for (int r = 0; r < reps + reps / 10; ++r) {
                size_t at = block_at(handoff, sizes[i], cold);
                line_wait(&s->start, ++handoff);
                read_block(s, way, writer, src + at, dst + at, sizes[i], &k);
                line_post(&s->end, handoff);
            }
        }
    }
    _exit(0);
}

/* a size: bytes, with a K or M suffix; 0 when it is none or too large */
static size_t size_of(const char *text)
{
    char *end;
    unsigned long long v = strtoull(text, &end, 10);
    int shift = 'K' == *end ? 10 : 'M' == *end ? 20 : 0;

    if (end == text || '-' == text[0] || '\0' != end[0 != shift]) {
        return 0;
    }
    return v > (MAX_BLOCK >> shift) ? 0 : (size_t) v << shift;
}

static int parse(int argc, char **argv, int *cold, int *reps, size_t *sizes)
{
    int n = 0;

    for (int i = 1; i < argc; ++i) {
        if (0 == strcmp(argv[i], "--cold")) {
            *cold = 1;
        } else if (0 == strcmp(argv[i], "--repeats") && i + 1 < argc) {
            *reps = atoi(argv[++i]);
        } else if (n < 32 && 0 != (sizes[n] = size_of(argv[i]))) {
            ++n;
        } else {
            return -1;
        }
    }
    return *reps > 0 ? n : -1;
}

int main(int argc, char **argv)
{
    static const size_t defaults[] = { 512, 2048, 4096, 8192, 16384, 65536, 262144 };
    size_t sizes[32];
    int cold = 0, reps = 2000, nsizes = parse(argc, argv, &cold, &reps, sizes);
    shared_t *s = mmap(NULL, sizeof(shared_t), PROT_READ | PROT_WRITE,
                       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    unsigned char *src = malloc(cold ? POOL : MAX_BLOCK);
    double *times = malloc((size_t) reps * sizeof(double));
    uint64_t handoff = 0, k = 0;
    pid_t writer = getpid(), reader;

    if (nsizes < 0 || MAP_FAILED == s || NULL == src || NULL == times) {
        fprintf(stderr, "usage: queue-handoff [--cold] [--repeats N] [SIZE[K|M]...]\n");
        return 1;
    }
    if (0 == nsizes) {
        nsizes = (int) (sizeof(defaults) / sizeof(defaults[0]));
        memcpy(sizes, defaults, sizeof(defaults));
    }
    memset(src, 1, cold ? POOL : MAX_BLOCK);
    reader = fork();
    if (0 == reader) {
        reader_loop(s, writer, src, sizes, nsizes, reps, cold);
    }
    pin(0);
    printf("# queue-handoff: %s blocks, %d slots of %d bytes, %d repeats\n",
           cold ? "cold" : "warm", SLOTS, FRAGMENT, reps);
    for (int i = 0; i < nsizes; ++i) {
        printf("%9zu", sizes[i]);
        for (int way = 0; way < NWAYS; ++way) {
            measure(s, src, way, sizes[i], reps, cold, &handoff, &k, times);
            qsort(times, (size_t) reps, sizeof(double), compare);
            printf("  %s %8.2f us (min %7.2f)", way_names[way], times[reps / 2], times[0]);
        }
        printf("\n");
        fflush(stdout);
    }
    waitpid(reader, NULL, 0);
    return 0;
}
