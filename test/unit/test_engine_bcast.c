/*
 * Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
 * $COPYRIGHT$
 *
 * Additional copyrights may follow
 *
 * $HEADER$
 */

/*
 * The engine's Bcast run by threads standing in for processes: every
 * tree, several queue geometries, sizes around fragment, bank and queue
 * boundaries (inline fragments too), every root, a strided stream packed
 * and unpacked through callbacks, a receiver with a short buffer
 * (truncated, nothing written past it, the next operation still right),
 * a root that declines and a root that reports an error to everyone.
 */

#include <stdlib.h>
#include <string.h>

#include "coll_shmcico_tree.h"
#include "threads.h"
#include "unit.h"

#define GUARD 64
#define GUARD_BYTE 0xa5

typedef struct bcast_case {
    mca_coll_shmcico_tree_t tree;
    const size_t *sizes;        /* one operation per size, roots rotate */
    int nsizes;
    int short_rank;             /* receiver with half a buffer, -1 none */
    int strided;                /* everyone uses a strided stream */
    int decline_every;          /* the root declines every n-th op, 0 never */
    int fault_every;            /* the root reports an error every n-th op */
} bcast_case;

#define FAULT_CODE 54321

static unsigned char pattern(size_t op, size_t i)
{
    return (unsigned char) (op * 131 + i * 7 + 1);
}

/* A strided stream: the bytes live at even offsets of the buffer. */
typedef struct strided {
    mca_coll_shmcico_stream_t stream;
    unsigned char *buf;
} strided;

static size_t strided_pack(mca_coll_shmcico_stream_t *s, void *shm, size_t len)
{
    strided *st = (strided *) s;

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

static const char *current_case;

static int fail(int rank, const char *what, size_t op)
{
    fprintf(stderr, "%s: rank %d op %zu: %s\n", current_case, rank, op, what);
    return 1;
}

static int run_op(threads_world *w, mca_coll_shmcico_engine_t *e,
                  const bcast_case *c, size_t op, size_t size)
{
    int rank = e->rank, root = (int) (op % (size_t) w->p), rc, expect, failures = 0;
    size_t room = (rank == c->short_rank && rank != root) ? size / 2 : size;
    size_t span = c->strided ? 2 * room : room;
    unsigned char *mem = malloc(span + 2 * GUARD + 1), *buf = mem + GUARD;
    bool decline = c->decline_every && 0 == op % (size_t) c->decline_every;
    bool fault = c->fault_every && 0 == op % (size_t) c->fault_every;
    uint32_t mode = decline ? MCA_COLL_SHMCICO_MODE_DECLINE
        : fault ? MCA_COLL_SHMCICO_MODE_FAULT : MCA_COLL_SHMCICO_MODE_SERVE;
    strided st = { .buf = buf };

    memset(mem, GUARD_BYTE, span + 2 * GUARD + 1);
    for (size_t i = 0; rank == root && i < size; ++i) {
        buf[c->strided ? 2 * i : i] = pattern(op, i);
    }
    if (c->strided) {
        st.stream = (mca_coll_shmcico_stream_t) { .length = room, .pack = strided_pack,
                                                  .unpack = strided_unpack };
    } else {
        mca_coll_shmcico_stream_contig(&st.stream, buf, room);
    }
    rc = mca_coll_shmcico_engine_bcast(e, &c->tree, root, &st.stream, mode, FAULT_CODE);
    expect = decline ? MCA_COLL_SHMCICO_DECLINED : fault ? MCA_COLL_SHMCICO_FAULTED
        : (room < size ? MCA_COLL_SHMCICO_TRUNCATED : MCA_COLL_SHMCICO_DONE);
    if (rc != expect || (fault && FAULT_CODE != e->fault)) {
        failures += fail(rank, "unexpected return code", op);
    }
    for (size_t i = 0; !decline && !fault && rank != root && i < room; ++i) {
        if (buf[c->strided ? 2 * i : i] != pattern(op, i)) {
            failures += fail(rank, "wrong data", op);
            break;
        }
    }
    for (size_t i = 0; i < GUARD; ++i) {
        if (mem[i] != GUARD_BYTE || buf[span + i] != GUARD_BYTE) {
            failures += fail(rank, "guard bytes overwritten", op);
            break;
        }
    }
    free(mem);
    return failures;
}

static int bcast_body(threads_world *w, mca_coll_shmcico_engine_t *e, void *arg)
{
    const bcast_case *c = arg;
    int failures = 0;

    for (int i = 0; i < c->nsizes && failures < 5; ++i) {
        failures += run_op(w, e, c, (size_t) i, c->sizes[i]);
    }
    return failures;
}

static void run_case(const char *name, int p, uint32_t s, uint32_t w, size_t f,
                     mca_coll_shmcico_tree_type_t type, bcast_case *c)
{
    int32_t numa[MAX_THREADS];
    int failures;

    for (int i = 0; i < p; ++i) {
        numa[i] = i % 2;
    }
    current_case = name;
    CHECK(0 == mca_coll_shmcico_tree_init(&c->tree, type, 2, p, numa), "%s: tree", name);
    failures = threads_run(p, s, w, f, bcast_body, c);
    CHECK(0 == failures, "%s: %d failures", name, failures);
    mca_coll_shmcico_tree_fini(&c->tree);
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

/* the list repeated p times, shifted, so that every size meets every root */
static int every_root(size_t *out, const size_t *sizes, int n, int p)
{
    int count = 0;

    for (int r = 0; r < p; ++r) {
        for (int i = 0; i < n; ++i) {
            out[count++] = sizes[(i + r) % n];
        }
    }
    return count;
}

int main(void)
{
    static const struct { uint32_t s, w; size_t f; } geometries[] = {
        { 8, 2, 256 }, { 4, 4, 64 }, { 6, 3, 128 }, { 1, 1, 64 }, { 16, 2, 4096 }
    };
    static const int procs[] = { 2, 3, 5, 8 };
    size_t sizes[16], all[16 * MAX_THREADS];
    char name[128];

    for (size_t g = 0; g < sizeof(geometries) / sizeof(geometries[0]); ++g) {
        int n = boundary_sizes(sizes, geometries[g].f, geometries[g].s, geometries[g].w);
        for (size_t pi = 0; pi < sizeof(procs) / sizeof(procs[0]); ++pi) {
            for (int t = 0; t < MCA_COLL_SHMCICO_TREE_COUNT; ++t) {
                bcast_case c = { .sizes = all, .short_rank = -1,
                                 .nsizes = every_root(all, sizes, n, procs[pi]) };
                snprintf(name, sizeof(name), "bcast s=%u w=%u f=%zu p=%d tree=%s",
                         geometries[g].s, geometries[g].w, geometries[g].f, procs[pi],
                         mca_coll_shmcico_tree_name(t));
                run_case(name, procs[pi], geometries[g].s, geometries[g].w,
                         geometries[g].f, t, &c);
            }
        }
    }
    {
        int n = boundary_sizes(sizes, 128, 8, 2);
        bcast_case strided = { .sizes = sizes, .nsizes = n, .short_rank = -1, .strided = 1 };
        bcast_case truncated = { .sizes = sizes, .nsizes = n, .short_rank = 3 };
        bcast_case declined = { .sizes = sizes, .nsizes = n, .short_rank = -1,
                                .decline_every = 3 };
        bcast_case faulted = { .sizes = sizes, .nsizes = n, .short_rank = -1,
                               .fault_every = 2 };
        run_case("bcast strided", 5, 8, 2, 128,
                 MCA_COLL_SHMCICO_TREE_KNOMIAL, &strided);
        run_case("bcast short receiver", 6, 8, 2, 128, MCA_COLL_SHMCICO_TREE_KARY,
                 &truncated);
        run_case("bcast declined every 3rd", 4, 4, 2, 128, MCA_COLL_SHMCICO_TREE_CHAIN,
                 &declined);
        run_case("bcast with the root's error every 2nd", 6, 8, 2, 128,
                 MCA_COLL_SHMCICO_TREE_KARY, &faulted);
    }
    return unit_report("test_engine_bcast");
}
