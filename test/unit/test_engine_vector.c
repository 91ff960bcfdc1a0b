/*
 * Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
 * $COPYRIGHT$
 *
 * Additional copyrights may follow
 *
 * $HEADER$
 */

/*
 * The engine's Scatterv, Gatherv and Allgatherv run by threads standing in
 * for processes, on small queues so that blocks span many banks:
 *  - count patterns: uniform, zeros anywhere (the root's own too), one
 *    huge block and the rest tiny, random;
 *  - displacements in reverse rank order with gaps (and overlapping send
 *    blocks for Scatterv), every root, in place or not;
 *  - a process whose buffer is short gets TRUNCATED and nothing is
 *    written outside the blocks; a declining owner makes everyone return
 *    DECLINED, an owner with bad arguments FAULTED with its error code;
 *    every process is done with every bank at the end;
 *  - blocks that fit one fragment, which their writers put into their
 *    queues before the owner publishes the counts: a root that expects
 *    less gets TRUNCATED, one that expects more gets what was sent;
 *  - the 64-bit arithmetic: a 5 GiB block through 1 GiB fragments.
 */

#include <stdlib.h>
#include <string.h>

#include "threads.h"
#include "unit.h"

#define POISON 0x5a

enum { SCATTERV, GATHERV, ALLGATHERV };
static const char *const op_names[] = { "scatterv", "gatherv", "allgatherv" };

typedef struct vcase {
    int op;
    int nops;
    int pattern;
    size_t unit;
    int overlap;        /* scatterv: every send block starts at 0 */
    int in_place;
    int short_rank;     /* -1, or a process whose buffer is half short */
    int long_rank;      /* gatherv: -1, or a process the root expects
                           3 * count + 200 bytes from */
    int decline_every;
    int fault_every;    /* the owner reports an error every n-th op */
} vcase;

#define FAULT_CODE 4242

static uint64_t mix(uint64_t x)
{
    x ^= x >> 31;
    x *= 0x9e3779b97f4a7c15ull;
    return x ^ (x >> 29);
}

static size_t count_of(const vcase *c, int op, int j, int p)
{
    switch (c->pattern) {
    case 1: return (size_t) (j % 3 == op % 3 ? 0 : c->unit + (size_t) j);
    case 2: return j == op % p ? 10 * c->unit : (size_t) (j % 2);
    case 3: return (size_t) (mix((uint64_t) (op * 977 + j)) % (3 * c->unit));
    default: return c->unit;
    }
}

/* blocks in reverse rank order, 13 bytes apart */
static void make_layout(const vcase *c, int op, int p, size_t *counts, size_t *displs,
                        size_t *span)
{
    size_t at = 0;

    for (int j = p - 1; j >= 0; --j) {
        counts[j] = count_of(c, op, j, p);
        displs[j] = c->overlap ? 0 : at;
        at += c->overlap ? 0 : counts[j] + 13;
    }
    *span = 13;
    for (int j = 0; j < p; ++j) {
        *span = displs[j] + counts[j] + 13 > *span ? displs[j] + counts[j] + 13 : *span;
    }
}

static unsigned char byte_of(int op, int source, size_t i)
{
    return (unsigned char) (mix((uint64_t) op << 32 | (uint64_t) source << 20) + i);
}

/* the owner's decision in operation op, and what every process returns */
static uint32_t mode_of(const vcase *c, int op)
{
    if (c->decline_every && 0 == op % c->decline_every) {
        return MCA_COLL_SHMCICO_MODE_DECLINE;
    }
    return c->fault_every && 0 == op % c->fault_every ? MCA_COLL_SHMCICO_MODE_FAULT
                                                      : MCA_COLL_SHMCICO_MODE_SERVE;
}

static int expect_rc(uint32_t mode, bool short_view)
{
    if (MCA_COLL_SHMCICO_MODE_SERVE != mode) {
        return mca_coll_shmcico_mode_result(mode);
    }
    return short_view ? MCA_COLL_SHMCICO_TRUNCATED : MCA_COLL_SHMCICO_DONE;
}

/* Receive buffer check: block j holds source j's bytes up to what fits,
 * everything else is still poison. */
static int check_blocks(const unsigned char *buf, size_t span, const size_t *displs,
                        const size_t *room, const size_t *counts, int p, int op)
{
    unsigned char *expect = malloc(span);
    int wrong;

    memset(expect, POISON, span);
    for (int j = 0; j < p; ++j) {
        size_t n = room[j] < counts[j] ? room[j] : counts[j];
        for (size_t i = 0; i < n; ++i) {
            expect[displs[j] + i] = byte_of(op, j, i);
        }
    }
    wrong = 0 != memcmp(buf, expect, span);
    free(expect);
    return wrong;
}

typedef struct op_bufs {
    size_t counts[MAX_THREADS], displs[MAX_THREADS], room[MAX_THREADS], span;
    uint64_t counts64[MAX_THREADS];
    mca_coll_shmcico_stream_t blocks[MAX_THREADS], send, own;
    mca_coll_shmcico_stream_t *block_ptrs[MAX_THREADS];
    unsigned char *buf, *sbuf;
} op_bufs;

/* streams over the blocks of buf, each with room[j] bytes */
static void open_blocks(op_bufs *b, int p)
{
    for (int j = 0; j < p; ++j) {
        mca_coll_shmcico_stream_contig(&b->blocks[j], b->buf + b->displs[j], b->room[j]);
        b->block_ptrs[j] = &b->blocks[j];
        b->counts64[j] = b->counts[j];
    }
}

static int run_scatterv(const vcase *c, mca_coll_shmcico_engine_t *e, op_bufs *b,
                        int op, int root, uint32_t mode)
{
    int me = e->rank, p = e->nprocs, rc;
    size_t room = me == c->short_rank ? b->counts[me] / 2 : b->counts[me];
    unsigned char *recv = malloc(room + 1);
    mca_coll_shmcico_stream_t rs;
    bool in_place = c->in_place && me == root, bad = false;

    for (size_t i = 0; i < b->span; ++i) {
        b->buf[i] = byte_of(op, -1, i);
    }
    for (int j = 0; j < p; ++j) {
        b->room[j] = b->counts[j];
    }
    open_blocks(b, p);
    mca_coll_shmcico_stream_contig(&rs, recv, room);
    rc = mca_coll_shmcico_engine_rooted(e, root, true, in_place ? NULL : &rs, b->block_ptrs,
                                        b->counts64,
                                        me == root ? mode : MCA_COLL_SHMCICO_MODE_SERVE,
                                        FAULT_CODE);
    for (size_t i = 0; MCA_COLL_SHMCICO_MODE_SERVE == mode && !in_place && i < room; ++i) {
        bad |= recv[i] != byte_of(op, -1, b->displs[me] + i);
    }
    free(recv);
    return bad || rc != expect_rc(mode, !in_place && room < b->counts[me])
        || (MCA_COLL_SHMCICO_FAULTED == rc && FAULT_CODE != e->fault);
}

static int run_gatherv(const vcase *c, mca_coll_shmcico_engine_t *e, op_bufs *b,
                       int op, int root, uint32_t mode)
{
    int me = e->rank, p = e->nprocs, rc;
    bool in_place = c->in_place && me == root, is_root = me == root, bad;

    for (size_t i = 0; i < b->counts[me]; ++i) {
        b->sbuf[i] = byte_of(op, me, i);
    }
    memset(b->buf, POISON, b->span);
    for (int j = 0; j < p; ++j) {
        /* the root expects half from the short process, which sends all,
         * and more than it sends from the long one (not an error) */
        b->room[j] = j == c->short_rank && j != root ? b->counts[j] / 2 : b->counts[j];
        b->room[j] = j == c->long_rank ? 3 * b->counts[j] + 200 : b->room[j];
    }
    if (in_place) {
        memcpy(b->buf + b->displs[me], b->sbuf, b->counts[me]);
    }
    open_blocks(b, p);
    for (int j = 0; j < p; ++j) {
        b->counts64[j] = b->room[j];
    }
    mca_coll_shmcico_stream_contig(&b->send, b->sbuf, b->counts[me]);
    rc = mca_coll_shmcico_engine_rooted(e, root, false, in_place ? NULL : &b->send,
                                        b->block_ptrs, b->counts64,
                                        is_root ? mode : MCA_COLL_SHMCICO_MODE_SERVE,
                                        FAULT_CODE);
    bad = is_root && MCA_COLL_SHMCICO_MODE_SERVE == mode
        && check_blocks(b->buf, b->span, b->displs, b->room, b->counts, p, op);
    bad |= MCA_COLL_SHMCICO_FAULTED == rc && FAULT_CODE != e->fault;
    return bad || rc != expect_rc(mode, is_root && c->short_rank >= 0
                                  && c->short_rank != root
                                  && b->counts[c->short_rank] / 2 < b->counts[c->short_rank]);
}

static int run_allgatherv(const vcase *c, mca_coll_shmcico_engine_t *e, op_bufs *b,
                          int op, uint32_t mode)
{
    int me = e->rank, p = e->nprocs, rc, victim = (c->short_rank + 1) % p;
    bool short_view = false, bad;
    size_t got[MAX_THREADS];

    for (size_t i = 0; i < b->counts[me]; ++i) {
        b->sbuf[i] = byte_of(op, me, i);
    }
    memset(b->buf, POISON, b->span);
    for (int j = 0; j < p; ++j) {
        b->room[j] = b->counts[j];
    }
    /* the short process thinks the next one's block is half as long */
    if (me == c->short_rank && me != victim) {
        b->room[victim] = b->counts[victim] / 2;
    }
    open_blocks(b, p);
    /* the owner's view is the one everybody follows: when the owner is
     * short, every other reader of the victim's block is cut short too */
    for (int j = 0; j < p; ++j) {
        size_t published = 0 == c->short_rank && j == victim ? b->counts[j] / 2
                                                              : b->counts[j];
        got[j] = j == me ? b->counts[j] : published < b->room[j] ? published : b->room[j];
        short_view |= got[j] < b->counts[j];
        b->counts64[j] = published;
    }
    mca_coll_shmcico_stream_contig(&b->send, c->in_place ? b->buf + b->displs[me]
                                                         : b->sbuf, b->counts[me]);
    mca_coll_shmcico_stream_contig(&b->own, b->sbuf, b->counts[me]);
    if (c->in_place) {
        memcpy(b->buf + b->displs[me], b->sbuf, b->counts[me]);
        b->block_ptrs[me] = NULL;
    }
    rc = mca_coll_shmcico_engine_allgatherv(e, &b->send, c->in_place ? NULL : &b->own,
                                            b->block_ptrs, b->counts64,
                                            0 == me ? mode : MCA_COLL_SHMCICO_MODE_SERVE,
                                            FAULT_CODE);
    bad = MCA_COLL_SHMCICO_MODE_SERVE == mode
        && check_blocks(b->buf, b->span, b->displs, got, b->counts, p, op);
    bad |= MCA_COLL_SHMCICO_FAULTED == rc && FAULT_CODE != e->fault;
    return bad || rc != expect_rc(mode, short_view);
}

static int vector_body(threads_world *w, mca_coll_shmcico_engine_t *e, void *arg)
{
    const vcase *c = arg;
    int failures = 0;
    op_bufs b;

    for (int op = 0; op < c->nops && failures < 3; ++op) {
        int root = op % w->p, bad;
        uint32_t mode = mode_of(c, op);

        make_layout(c, op, w->p, b.counts, b.displs, &b.span);
        b.buf = malloc(b.span);
        b.sbuf = malloc(b.span);
        switch (c->op) {
        case SCATTERV: bad = run_scatterv(c, e, &b, op, root, mode); break;
        case GATHERV: bad = run_gatherv(c, e, &b, op, root, mode); break;
        default: bad = run_allgatherv(c, e, &b, op, mode); break;
        }
        if (bad) {
            fprintf(stderr, "%s pattern %d op %d rank %d: wrong result\n",
                    op_names[c->op], c->pattern, op, e->rank);
            ++failures;
        }
        free(b.buf);
        free(b.sbuf);
    }
    return failures;
}

static void run_vector(vcase c, int p, uint32_t s, uint32_t w, size_t f)
{
    int failures = threads_run(p, s, w, f, vector_body, &c);

    CHECK(0 == failures, "%s p=%d s=%u w=%u f=%zu pattern=%d unit=%zu overlap=%d "
          "in_place=%d short=%d decline=%d fault=%d: %d failures", op_names[c.op], p, s,
          w, f, c.pattern, c.unit, c.overlap, c.in_place, c.short_rank, c.decline_every,
          c.fault_every, failures);
}

/* Streams that count bytes without touching memory: enough to push 5 GiB
 * through the queues' 64-bit arithmetic in a moment. */
static size_t skip_bytes(mca_coll_shmcico_stream_t *s, void *shm, size_t len)
{
    (void) s;
    (void) shm;
    return len;
}

static int huge_body(threads_world *w, mca_coll_shmcico_engine_t *e, void *arg)
{
    uint64_t bytes = *(uint64_t *) arg, counts[2] = { 0, bytes };
    mca_coll_shmcico_stream_t send = { .length = 1 == e->rank ? bytes : 0,
                                       .pack = skip_bytes, .unpack = skip_bytes };
    mca_coll_shmcico_stream_t block0 = { .length = 0, .pack = skip_bytes,
                                         .unpack = skip_bytes };
    mca_coll_shmcico_stream_t block1 = { .length = bytes, .pack = skip_bytes,
                                         .unpack = skip_bytes };
    mca_coll_shmcico_stream_t *blocks[2] = { &block0, &block1 };
    int rc;

    (void) w;
    rc = mca_coll_shmcico_engine_rooted(e, 0, false, 0 == e->rank ? NULL : &send, blocks,
                                        counts, MCA_COLL_SHMCICO_MODE_SERVE, 0);
    return rc != MCA_COLL_SHMCICO_DONE || (0 == e->rank && block1.done != bytes)
        || (1 == e->rank && send.done != bytes);
}

int main(void)
{
    static const int procs[] = { 2, 3, 5 };
    uint64_t huge = (UINT64_C(5) << 30) + 12345;

    for (int op = SCATTERV; op <= ALLGATHERV; ++op) {
        for (size_t pi = 0; pi < sizeof(procs) / sizeof(procs[0]); ++pi) {
            for (int pattern = 0; pattern < 4; ++pattern) {
                vcase c = { .op = op, .nops = 3 * procs[pi], .pattern = pattern,
                            .unit = 700, .short_rank = -1, .long_rank = -1 };
                run_vector(c, procs[pi], 8, 2, 128);
                c.in_place = 1;
                run_vector(c, procs[pi], 8, 2, 128);
            }
        }
        run_vector((vcase) { .op = op, .nops = 10, .pattern = 3, .unit = 3000,
                             .short_rank = -1, .long_rank = -1 }, 4, 4, 4, 64);
        run_vector((vcase) { .op = op, .nops = 8, .pattern = 0, .unit = 1000,
                             .short_rank = 2, .long_rank = -1 }, 4, 8, 2, 128);
        run_vector((vcase) { .op = op, .nops = 9, .pattern = 1, .unit = 500,
                             .short_rank = -1, .long_rank = -1, .decline_every = 3 },
                   3, 8, 2, 128);
        run_vector((vcase) { .op = op, .nops = 8, .pattern = 3, .unit = 900,
                             .short_rank = -1, .long_rank = -1, .fault_every = 2 },
                   4, 8, 2, 128);
        /* blocks that fit one fragment: writers go before the owner */
        /* (40 bytes lie in the slot, the 20 expected would be inline) */
        run_vector((vcase) { .op = op, .nops = 8, .pattern = 0, .unit = 40,
                             .short_rank = 2, .long_rank = -1 }, 4, 8, 2, 128);
        run_vector((vcase) { .op = op, .nops = 8, .pattern = 0, .unit = 40,
                             .short_rank = 0, .long_rank = -1 }, 3, 8, 2, 128);
        run_vector((vcase) { .op = op, .nops = 8, .pattern = 0, .unit = 100,
                             .short_rank = -1, .long_rank = 1 }, 4, 8, 2, 128);
        run_vector((vcase) { .op = op, .nops = 9, .pattern = 2, .unit = 30,
                             .short_rank = -1, .long_rank = -1, .decline_every = 3 },
                   3, 8, 2, 128);
        run_vector((vcase) { .op = op, .nops = 8, .pattern = 1, .unit = 20,
                             .short_rank = -1, .long_rank = -1, .fault_every = 2 },
                   4, 4, 2, 64);
        run_vector((vcase) { .op = op, .nops = 6, .pattern = 0, .unit = 1,
                             .short_rank = -1, .long_rank = -1 }, 8, 8, 2, 64);
    }
    run_vector((vcase) { .op = SCATTERV, .nops = 6, .pattern = 3, .unit = 900,
                         .overlap = 1, .short_rank = -1, .long_rank = -1 },
               3, 8, 2, 128);
    CHECK(0 == threads_run(2, 1, 1, (size_t) 1 << 30, huge_body, &huge),
          "gatherv of a 5 GiB block through 1 GiB fragments");
    return unit_report("test_engine_vector");
}
