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
 * boundaries (inline fragments too), every root, both transports (the
 * queue, and single copy through memcpy or Linux CMA, with chunks that
 * the root and the leaves share), a strided layout copied piece by piece
 * or through a bounce buffer, a receiver with a short buffer (truncated,
 * nothing written past it, the next call still right), a receiver that
 * chose the other transport (it follows the root), a root that hands
 * the call back and one that reports an error to everyone, a root that
 * writes the slots with streaming stores (it counts those bytes), a
 * root that leaves a block of one chunk to its reader (it copies none),
 * receivers with buffers longer than the message and chunks of their
 * own (an inner one announces its parent's chunks and bytes to its
 * children), and a kernel that refuses some single copies (every
 * process that holds wrong bytes says so: a failed push reaches the
 * reader through its xfer line, a failed pull reaches an inner
 * process's children through its received line).
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "coll_shmcico_tree.h"
#include "threads.h"
#include "unit.h"

#define GUARD 64
#define GUARD_BYTE 0xa5

typedef struct bcast_case {
    mca_coll_shmcico_tree_t tree;
    const size_t *sizes;        /* one call per size, roots rotate */
    int nsizes;
    size_t single_min;          /* messages of at least this go by single copy */
    size_t chunk;               /* bytes per chunk of a single copy */
    int short_rank;             /* receiver with half a buffer, -1 none */
    int other_choice_rank;      /* receiver that chooses the other transport, -1 none */
    int strided;                /* everyone uses a strided layout */
    int no_region;              /* ... without a region: bounce buffer */
    int decline_every;          /* the root declines every n-th call, 0 never */
    int fault_every;            /* the root reports an error every n-th call */
    int streaming;              /* the root writes the slots with streaming stores */
    int late_readers;           /* readers call 50 us after the root */
    int long_receivers;         /* receivers have twice the message's room, and
                                   chunks of twice the chunk for their own blocks */
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

/* The block a process brings: its stream and region over buf. */
static void make_block(const bcast_case *c, strided *st, mca_coll_shmcico_region_t *region,
                       unsigned char *buf, size_t room, bool single,
                       mca_coll_shmcico_block_t *block)
{
    st->buf = buf;
    if (c->strided) {
        st->stream = (mca_coll_shmcico_stream_t) { .length = room, .pack = strided_pack,
                                                   .unpack = strided_unpack };
        *region = (mca_coll_shmcico_region_t) { .base = (uint64_t) (uintptr_t) buf,
                                                .count = room, .extent = 2, .size = 1,
                                                .npieces = 1 };
        region->first = (mca_coll_shmcico_piece_t) { .offset = 0, .len = 1 };
        region->pieces = &region->first;
    } else {
        mca_coll_shmcico_stream_contig(&st->stream, buf, room);
        st->stream.streaming = c->streaming && room > MCA_COLL_SHMCICO_INLINE;
        mca_coll_shmcico_region_contig(region, buf, room);
    }
    *block = (mca_coll_shmcico_block_t) { .stream = &st->stream, .single = single,
                                          .region = c->no_region ? NULL : region,
                                          .chunk = c->chunk };
}

/* the copier refuses some copies */
static bool refusing(const threads_world *w)
{
    return THREADS_PUSHES_FAIL == w->copier || THREADS_PULLS_FROM_0_FAIL == w->copier;
}

/* what the call must have returned, and the transport it must have used */
static int check_result(threads_world *w, const bcast_case *c, int rank, int root,
                        size_t op, size_t size, size_t room,
                        const mca_coll_shmcico_result_t *r)
{
    bool decline = c->decline_every && 0 == op % (size_t) c->decline_every;
    bool fault = c->fault_every && 0 == op % (size_t) c->fault_every;
    /* the root's choice, which everyone follows */
    bool single = (size >= c->single_min) != (root == c->other_choice_rank)
        && THREADS_NO_COPIER != w->copier && !c->no_region;
    mca_coll_shmcico_status_t expect = decline ? MCA_COLL_SHMCICO_DECLINED
        : fault ? MCA_COLL_SHMCICO_FAULTED
        : room < size ? MCA_COLL_SHMCICO_TRUNCATED : MCA_COLL_SHMCICO_DONE;
    int failures = 0;

    if (refusing(w) && MCA_COLL_SHMCICO_COPY_FAILED == r->status) {
        /* its own copy or its source's was refused: its bytes may be wrong */
        return EPERM == r->copy_errno ? 0 : fail(rank, "a refused copy without EPERM", op);
    }
    if (r->status != expect || (fault && FAULT_CODE != r->mpi_error)) {
        failures += fail(rank, "unexpected status", op);
    }
    if (!decline && !fault && (r->used_single != single || r->used_queue == single)) {
        failures += fail(rank, "unexpected transport", op);
    }
    /* a block of one chunk is the reader's: a root that pushed it would
     * be slower than the reader's pull */
    if (!decline && !fault && single && rank == root && size <= c->chunk && 0 != r->copied) {
        failures += fail(rank, "the root copied a one-chunk block", op);
    }
    if (r->streamed != (rank == root && c->streaming && !single && !decline && !fault
                        && size > MCA_COLL_SHMCICO_INLINE ? size : 0)) {
        failures += fail(rank, "unexpected bytes written by streaming stores", op);
    }
    return failures;
}

/* the message's bytes up to room, nothing after them */
static int check_bytes(const bcast_case *c, int rank, int root, size_t op, size_t room,
                       size_t size, const unsigned char *mem, size_t span, bool data)
{
    const unsigned char *buf = mem + GUARD;
    int failures = 0;

    for (size_t i = 0; data && rank != root && i < room; ++i) {
        if (buf[c->strided ? 2 * i : i] != (i < size ? pattern(op, i) : GUARD_BYTE)) {
            failures += fail(rank, i < size ? "wrong data" : "written past the message", op);
            break;
        }
    }
    for (size_t i = 0; i < GUARD; ++i) {
        if (mem[i] != GUARD_BYTE || buf[span + i] != GUARD_BYTE) {
            failures += fail(rank, "guard bytes overwritten", op);
            break;
        }
    }
    return failures;
}

static int run_op(threads_world *w, mca_coll_shmcico_engine_t *e,
                  const bcast_case *c, mca_coll_shmcico_place_t *place, size_t op,
                  size_t size)
{
    int rank = e->rank, root = (int) (op % (size_t) w->p), failures;
    size_t room = (rank == c->short_rank && rank != root) ? size / 2
                : c->long_receivers && rank != root ? 2 * size : size;
    size_t span = c->strided ? 2 * room : room;
    unsigned char *mem = malloc(span + 2 * GUARD + 1), *buf = mem + GUARD;
    mca_coll_shmcico_verdict_t verdict = {
        .decline = c->decline_every && 0 == op % (size_t) c->decline_every,
        .error = c->fault_every && 0 == op % (size_t) c->fault_every ? FAULT_CODE : 0
    };
    bool single = (size >= c->single_min) != (rank == c->other_choice_rank);
    mca_coll_shmcico_region_t region;
    mca_coll_shmcico_block_t block;
    mca_coll_shmcico_result_t r;
    strided st;

    memset(mem, GUARD_BYTE, span + 2 * GUARD + 1);
    for (size_t i = 0; rank == root && i < size; ++i) {
        buf[c->strided ? 2 * i : i] = pattern(op, i);
    }
    make_block(c, &st, &region, buf, room, single, &block);
    block.chunk = c->long_receivers && rank != root ? 2 * c->chunk : c->chunk;
    if (c->late_readers && rank != root) {
        usleep(50);                 /* the root waits, ready to help */
    }
    r = mca_coll_shmcico_engine_bcast(e, mca_coll_shmcico_place_for(&c->tree, rank, root,
                                                                     place),
                                      &block, &verdict);
    failures = check_result(w, c, rank, root, op, size, room, &r);
    failures += check_bytes(c, rank, root, op, room, size, mem, span,
                            !verdict.decline && 0 == verdict.error
                            && MCA_COLL_SHMCICO_COPY_FAILED != r.status);
    free(mem);
    return failures;
}

static int bcast_body(threads_world *w, mca_coll_shmcico_engine_t *e, void *arg)
{
    const bcast_case *c = arg;
    int children[MAX_THREADS], failures = 0;
    /* in the case's tree, found again as the roots change */
    mca_coll_shmcico_place_t place = { .root = -1, .children = children };

    for (int i = 0; i < c->nsizes; ++i) {    /* all of them: the others wait */
        failures += run_op(w, e, c, &place, (size_t) i, c->sizes[i]);
    }
    return failures;
}

static void run_case(const char *name, int p, uint32_t s, uint32_t w, size_t f,
                     threads_copier copier, mca_coll_shmcico_tree_type_t type,
                     bcast_case *c)
{
    int32_t numa[MAX_THREADS];
    int failures;

    for (int i = 0; i < p; ++i) {
        numa[i] = i % 2;
    }
    current_case = name;
    CHECK(0 == mca_coll_shmcico_tree_init(&c->tree, type, 2, p, numa), "%s: tree", name);
    failures = threads_run(p, s, w, f, copier, bcast_body, c);
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

/* every geometry, process count and tree, each with a copier in turn:
 * single copy from the bank's size on, in chunks of 3 fragments + 5 */
static void geometry_cases(void)
{
    static const struct { uint32_t s, w; size_t f; } geometries[] = {
        { 8, 2, 256 }, { 4, 4, 64 }, { 6, 3, 128 }, { 1, 1, 64 }, { 16, 2, 4096 }
    };
    static const int procs[] = { 2, 3, 5, 8 };
    size_t sizes[16], all[16 * MAX_THREADS];
    char name[160];
    int turn = 0;

    for (size_t g = 0; g < sizeof(geometries) / sizeof(geometries[0]); ++g) {
        size_t f = geometries[g].f;
        int n = boundary_sizes(sizes, f, geometries[g].s, geometries[g].w);
        for (size_t pi = 0; pi < sizeof(procs) / sizeof(procs[0]); ++pi) {
            for (int t = 0; t < MCA_COLL_SHMCICO_TREE_COUNT; ++t) {
                threads_copier copier = (threads_copier) (turn++ % 3);
                bcast_case c = { .sizes = all, .short_rank = -1, .other_choice_rank = -1,
                                 .nsizes = every_root(all, sizes, n, procs[pi]),
                                 .single_min = f * geometries[g].s / geometries[g].w,
                                 .chunk = 3 * f + 5 };
                snprintf(name, sizeof(name), "bcast s=%u w=%u f=%zu p=%d tree=%s copier=%d",
                         geometries[g].s, geometries[g].w, f, procs[pi],
                         mca_coll_shmcico_tree_name(t), (int) copier);
                run_case(name, procs[pi], geometries[g].s, geometries[g].w, f, copier, t, &c);
            }
        }
    }
}

/* layouts, short and contrary receivers, verdicts, refused copies:
 * s=8 w=2 f=128 */
static const struct {
    const char *name;
    int p;
    threads_copier copier;
    int tree;
    bcast_case c;
} special[] = {
    { "strided, queue", 5, THREADS_MEMCPY, MCA_COLL_SHMCICO_TREE_KNOMIAL,
      { .strided = 1, .single_min = SIZE_MAX } },
    { "strided, single copy piece by piece", 5, THREADS_CMA, MCA_COLL_SHMCICO_TREE_KARY,
      { .strided = 1, .single_min = 0 } },
    { "strided, single copy through bounce", 4, THREADS_MEMCPY,
      MCA_COLL_SHMCICO_TREE_FLAT, { .strided = 1, .no_region = 1, .single_min = 0 } },
    { "short receiver, queue", 6, THREADS_MEMCPY, MCA_COLL_SHMCICO_TREE_KARY,
      { .short_rank = 3, .single_min = SIZE_MAX } },
    { "short receiver, single copy", 6, THREADS_CMA, MCA_COLL_SHMCICO_TREE_KARY,
      { .short_rank = 1, .single_min = 0 } },
    { "receiver with the other choice", 5, THREADS_MEMCPY, MCA_COLL_SHMCICO_TREE_FLAT,
      { .other_choice_rank = 2, .single_min = 1000 } },
    { "inner receiver with the other choice", 7, THREADS_CMA, MCA_COLL_SHMCICO_TREE_CHAIN,
      { .other_choice_rank = 1, .single_min = 1000 } },
    { "declined every 3rd", 4, THREADS_MEMCPY, MCA_COLL_SHMCICO_TREE_CHAIN,
      { .decline_every = 3, .single_min = 1000 } },
    { "root's error every 2nd", 6, THREADS_MEMCPY, MCA_COLL_SHMCICO_TREE_KARY,
      { .fault_every = 2, .single_min = 1000 } },
    { "streaming stores, queue", 5, THREADS_MEMCPY, MCA_COLL_SHMCICO_TREE_KARY,
      { .streaming = 1, .single_min = SIZE_MAX } },
    { "streaming stores, short receiver", 4, THREADS_MEMCPY, MCA_COLL_SHMCICO_TREE_CHAIN,
      { .streaming = 1, .short_rank = 2, .single_min = SIZE_MAX } },
    { "streaming stores beside single copy", 5, THREADS_CMA, MCA_COLL_SHMCICO_TREE_FLAT,
      { .streaming = 1, .single_min = 1000 } },
    /* every block one chunk, by single copy, the readers late: the
     * root, offered help and waiting, leaves each to its reader */
    { "one chunk, late reader", 2, THREADS_CMA, MCA_COLL_SHMCICO_TREE_FLAT,
      { .single_min = 0, .late_readers = 1, .chunk = 1 << 20 } },
    { "one chunk, late readers, memcpy", 4, THREADS_MEMCPY, MCA_COLL_SHMCICO_TREE_FLAT,
      { .single_min = 0, .late_readers = 1, .chunk = 1 << 20 } },
    /* inner receivers (kary: 1 and 2 of 6) and their children with
     * more room than the message, and chunks of their own */
    { "long receivers, single copy", 6, THREADS_CMA, MCA_COLL_SHMCICO_TREE_KARY,
      { .long_receivers = 1, .single_min = 0 } },
    { "long receivers, chain", 4, THREADS_MEMCPY, MCA_COLL_SHMCICO_TREE_CHAIN,
      { .long_receivers = 1, .single_min = 0 } },
    { "long receivers, queue", 5, THREADS_MEMCPY, MCA_COLL_SHMCICO_TREE_KARY,
      { .long_receivers = 1, .single_min = SIZE_MAX } },
    /* refused copies: the root's pushes into its leaves; the pulls
     * from process 0, whose children in the chain pass them on */
    { "pushes refused", 2, THREADS_PUSHES_FAIL, MCA_COLL_SHMCICO_TREE_FLAT,
      { .single_min = 0 } },
    { "pushes refused, four", 4, THREADS_PUSHES_FAIL, MCA_COLL_SHMCICO_TREE_KARY,
      { .single_min = 0 } },
    { "pulls from 0 refused, chain", 4, THREADS_PULLS_FROM_0_FAIL,
      MCA_COLL_SHMCICO_TREE_CHAIN, { .single_min = 0 } },
    { "pulls from 0 refused, knomial", 7, THREADS_PULLS_FROM_0_FAIL,
      MCA_COLL_SHMCICO_TREE_KNOMIAL, { .single_min = 0 } },
};

static void special_cases(void)
{
    size_t sizes[16];
    int n = boundary_sizes(sizes, 128, 8, 2);
    char name[160];

    for (size_t i = 0; i < sizeof(special) / sizeof(special[0]); ++i) {
        bcast_case c = special[i].c;
        c.sizes = sizes;
        c.nsizes = n;
        c.chunk = c.chunk ? c.chunk : 300;
        c.short_rank = c.short_rank ? c.short_rank : -1;
        c.other_choice_rank = c.other_choice_rank ? c.other_choice_rank : -1;
        snprintf(name, sizeof(name), "bcast %s", special[i].name);
        run_case(name, special[i].p, 8, 2, 128, special[i].copier,
                 (mca_coll_shmcico_tree_type_t) special[i].tree, &c);
    }
}

int main(void)
{
    geometry_cases();
    special_cases();
    /* the refusing copiers refused something: those cases tested it */
    CHECK(threads_failed_copies > 0, "no copy was refused");
    return unit_report("test_engine_bcast");
}
