/*
 * Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
 * $COPYRIGHT$
 *
 * Additional copyrights may follow
 *
 * $HEADER$
 */

/*
 * The engine's Bcast run by threads standing in for processes, on a
 * segment in ordinary memory: every tree, several queue geometries,
 * sizes around fragment, bank and queue boundaries, every root, a
 * strided (packed) stream, a receiver with a short buffer (truncated,
 * nothing written past it, the next operation still right) and a root
 * that declines.
 */

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "coll_shmcico_engine.h"
#include "coll_shmcico_tree.h"
#include "unit.h"

#define GUARD 64
#define GUARD_BYTE 0xa5

typedef struct world {
    int p;
    mca_coll_shmcico_layout_t layout;
    void *base;
    mca_coll_shmcico_tree_t tree;
    pthread_barrier_t barrier;
    const size_t *sizes;        /* one operation per size, roots rotate */
    int nsizes;
    int short_rank;             /* receiver with a short buffer, -1 none */
    int strided;                /* everyone uses a strided stream */
    int decline_every;          /* root declines every n-th op, 0 never */
} world;

typedef struct proc {
    world *w;
    int rank;
    int failures;
} proc;

static unsigned char pattern(size_t op, size_t i)
{
    return (unsigned char) (op * 131 + i * 7 + 1);
}

/* A strided stream: the bytes live at even offsets of the buffer.  Like
 * Open MPI's convertor it packs whole "elements" only (24 bytes here),
 * so the root's fragments come out shorter than the slots. */
#define ELEMENT 24

typedef struct strided {
    mca_coll_shmcico_stream_t stream;
    unsigned char *buf;
} strided;

static size_t strided_pack(mca_coll_shmcico_stream_t *s, void *shm, size_t len)
{
    strided *st = (strided *) s;
    if (len < s->length - s->done) {
        len -= len % ELEMENT;
    }
    for (size_t i = 0; i < len; ++i) {
        ((unsigned char *) shm)[i] = st->buf[2 * (s->done + i)];
    }
    return len;
}

static size_t strided_unpack(mca_coll_shmcico_stream_t *s, void *shm, size_t len)
{
    strided *st = (strided *) s;
    for (size_t i = 0; i < len; ++i) {
        st->buf[2 * (s->done + i)] = ((unsigned char *) shm)[i];
    }
    return len;
}

static void fail(proc *pr, const char *what, size_t op)
{
    if (++pr->failures <= 5) {
        fprintf(stderr, "rank %d op %zu: %s\n", pr->rank, op, what);
    }
}

static int run_op(proc *pr, mca_coll_shmcico_engine_t *e, int *children,
                  size_t op, size_t size)
{
    world *w = pr->w;
    int root = (int) (op % w->p);
    size_t room = (pr->rank == w->short_rank && pr->rank != root) ? size / 2 : size;
    size_t span = w->strided ? 2 * room : room;
    unsigned char *mem = malloc(span + 2 * GUARD + 1);
    unsigned char *buf = mem + GUARD;
    bool decline = w->decline_every && 0 == op % w->decline_every;
    strided st;
    int rc, expect;

    memset(mem, GUARD_BYTE, span + 2 * GUARD + 1);
    if (pr->rank == root && !w->strided) {
        for (size_t i = 0; i < size; ++i) {
            buf[i] = pattern(op, i);
        }
        mca_coll_shmcico_stream_contig(&st.stream, buf, size);
    } else if (w->strided) {
        for (size_t i = 0; pr->rank == root && i < size; ++i) {
            buf[2 * i] = pattern(op, i);
        }
        st.buf = buf;
        st.stream.contig = NULL;
        st.stream.length = room;
        st.stream.done = 0;
        st.stream.pack = strided_pack;
        st.stream.unpack = strided_unpack;
    } else {
        mca_coll_shmcico_stream_contig(&st.stream, buf, room);
    }
    rc = mca_coll_shmcico_engine_bcast(e, &w->tree, children, root, &st.stream,
                                       decline);
    expect = decline ? MCA_COLL_SHMCICO_DECLINED
        : (room < size ? MCA_COLL_SHMCICO_TRUNCATED : MCA_COLL_SHMCICO_DONE);
    if (rc != expect) {
        fail(pr, "unexpected return code", op);
    }
    for (size_t i = 0; !decline && pr->rank != root && i < room; ++i) {
        if (buf[w->strided ? 2 * i : i] != pattern(op, i)) {
            fail(pr, "wrong data", op);
            break;
        }
    }
    for (size_t i = 0; i < GUARD; ++i) {
        if (mem[i] != GUARD_BYTE || buf[span + i] != GUARD_BYTE) {
            fail(pr, "guard bytes overwritten", op);
            break;
        }
    }
    free(mem);
    return rc;
}

static void *proc_main(void *arg)
{
    proc *pr = arg;
    world *w = pr->w;
    mca_coll_shmcico_engine_t e;
    int *children = malloc(w->p * sizeof(int));

    memset(&e, 0, sizeof(e));
    if (0 != mca_coll_shmcico_view_init(&e.view, w->base, &w->layout)) {
        fail(pr, "view refused", 0);
    }
    e.rank = pr->rank;
    e.nprocs = w->p;
    e.waiter.yield = true;          /* more threads than cores */
    e.waiter.spins_per_progress = 64;
    pthread_barrier_wait(&w->barrier);
    for (int i = 0; i < w->nsizes; ++i) {
        run_op(pr, &e, children, (size_t) i, w->sizes[i]);
    }
    free(children);
    return NULL;
}

static void run_world(const char *name, int p, uint32_t slots, uint32_t banks,
                      size_t fragment, mca_coll_shmcico_tree_type_t type,
                      int degree, const size_t *sizes, int nsizes,
                      int short_rank, int strided, int decline_every)
{
    world w = { .p = p, .sizes = sizes, .nsizes = nsizes,
                .short_rank = short_rank, .strided = strided,
                .decline_every = decline_every };
    int32_t numa[64];
    pthread_t threads[64];
    proc procs[64];
    int failures = 0;

    for (int i = 0; i < p; ++i) {
        numa[i] = i % 2;
    }
    CHECK(0 == mca_coll_shmcico_layout_init(&w.layout, 4096, (uint32_t) p,
                                            slots, banks, fragment), "%s: layout", name);
    w.base = aligned_alloc(4096, w.layout.segment_size);
    memset(w.base, 0, w.layout.segment_size);
    mca_coll_shmcico_segment_format(w.base, &w.layout, numa);
    CHECK(0 == mca_coll_shmcico_tree_init(&w.tree, type, degree, p, numa),
          "%s: tree", name);
    pthread_barrier_init(&w.barrier, NULL, (unsigned) p);
    for (int i = 0; i < p; ++i) {
        procs[i] = (proc) { .w = &w, .rank = i };
        pthread_create(&threads[i], NULL, proc_main, &procs[i]);
    }
    for (int i = 0; i < p; ++i) {
        pthread_join(threads[i], NULL);
        failures += procs[i].failures;
    }
    CHECK(0 == failures, "%s: %d failures", name, failures);
    /* after the last operation every bank is free again */
    for (uint32_t b = 0; b < banks; ++b) {
        CHECK(0 == atomic_load(&((mca_coll_shmcico_bank_t *)
                                 ((char *) w.base + w.layout.banks_offset))[b].nreaders),
              "%s: bank %u still has readers", name, b);
    }
    pthread_barrier_destroy(&w.barrier);
    mca_coll_shmcico_tree_fini(&w.tree);
    free(w.base);
}

/* sizes around the boundaries of fragment f, bank f*s/w and queue f*s */
static int boundary_sizes(size_t *out, size_t f, uint32_t s, uint32_t w)
{
    size_t marks[] = { f, f * s / w, f * s, 3 * f * s };
    int n = 0;

    out[n++] = 0;
    out[n++] = 1;
    out[n++] = 7;
    for (size_t i = 0; i < sizeof(marks) / sizeof(marks[0]); ++i) {
        out[n++] = marks[i] - 1;
        out[n++] = marks[i];
        out[n++] = marks[i] + 1;
    }
    return n;
}

int main(void)
{
    static const struct { uint32_t s, w; size_t f; } geometries[] = {
        { 8, 2, 256 }, { 4, 4, 64 }, { 6, 3, 128 }, { 1, 1, 64 }, { 16, 2, 4096 }
    };
    static const int procs[] = { 2, 3, 5, 8 };
    size_t sizes[64];
    char name[128];

    for (size_t g = 0; g < sizeof(geometries) / sizeof(geometries[0]); ++g) {
        int n = boundary_sizes(sizes, geometries[g].f, geometries[g].s, geometries[g].w);
        for (size_t pi = 0; pi < sizeof(procs) / sizeof(procs[0]); ++pi) {
            for (int t = 0; t < MCA_COLL_SHMCICO_TREE_COUNT; ++t) {
                int p = procs[pi];
                /* every root for every size: repeat the list p times */
                size_t all[64 * 8];
                int count = 0;
                for (int r = 0; r < p; ++r) {
                    for (int i = 0; i < n; ++i) {
                        all[count++] = sizes[(i + r) % n];
                    }
                }
                snprintf(name, sizeof(name), "bcast s=%u w=%u f=%zu p=%d tree=%s",
                         geometries[g].s, geometries[g].w, geometries[g].f, p,
                         mca_coll_shmcico_tree_name(t));
                run_world(name, p, geometries[g].s, geometries[g].w,
                          geometries[g].f, t, 2, all, count, -1, 0, 0);
            }
        }
    }
    run_world("bcast strided, root packs whole elements", 5, 8, 2, 128, MCA_COLL_SHMCICO_TREE_KNOMIAL,
              2, sizes, boundary_sizes(sizes, 128, 8, 2), -1, 1, 0);
    run_world("bcast short receiver", 6, 8, 2, 128, MCA_COLL_SHMCICO_TREE_KARY,
              2, sizes, boundary_sizes(sizes, 128, 8, 2), 3, 0, 0);
    run_world("bcast declined every 3rd", 4, 4, 2, 64, MCA_COLL_SHMCICO_TREE_CHAIN,
              2, sizes, boundary_sizes(sizes, 64, 4, 2), -1, 0, 3);
    return unit_report("test_engine");
}
