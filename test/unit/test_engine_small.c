/*
 * Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
 * $COPYRIGHT$
 *
 * Additional copyrights may follow
 *
 * $HEADER$
 */

/* The small-call path (coll_shmcico_small.h), with threads as processes:
 *  - it moves every block of Bcast, Scatter, Gather and Allgather of one
 *    fragment (in a flag's payload or in a slot, empty blocks too);
 *  - in one call some processes take it and others the skeleton, in
 *    every mix, over more calls than banks: the two paths are one
 *    protocol;
 *  - a block of another kind (several fragments, a ring, a single copy)
 *    hands the call to the skeleton, which serves it: a reader with less
 *    room reports a truncation and the next calls stay in step;
 *  - a block longer than its room within one fragment is a truncation
 *    on the small path itself;
 *  - senders that write their blocks with streaming stores move the same
 *    bytes, and the small path counts the bytes it wrote so. */

#include <stdlib.h>
#include <string.h>

#include "coll_shmcico_flow.h"
#include "coll_shmcico_small.h"
#include "coll_shmcico_tree.h"
#include "threads.h"
#include "unit.h"

#define MAXB 1024                   /* bytes of a block, at most */
#define FRAGMENT 128                 /* two lines */
#define SINGLE_MIN 400              /* a sender's block from here by single copy */

enum { BCAST, SCATTER, GATHER, ALLGATHER };
static const char *const op_names[] = { "bcast", "scatter", "gather", "allgather" };

typedef enum { ALL_SMALL, ALL_SKELETON, MIXED } paths_t;

/* a check inside a thread: counted in the thread's own *bad (unit.h's
 * counters are not for threads) */
#define EXPECT(bad, cond, ...)                                                \
    do {                                                                      \
        if (!(cond)) {                                                        \
            fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__,  \
                    #cond);                                                   \
            fprintf(stderr, __VA_ARGS__);                                     \
            fputc('\n', stderr);                                              \
            ++*(bad);                                                         \
        }                                                                     \
    } while (0)

typedef struct scase {
    int op;
    int nops;
    size_t bytes;                   /* every block, and every room */
    int odd_rank;                   /* whose block has odd_bytes (-1: none); Scatter:
                                       the receiver, else the sender */
    size_t odd_bytes;
    paths_t paths;
    int streaming;                  /* senders write the slots with streaming stores */
    mca_coll_shmcico_tree_t tree;
} scase;

typedef struct buffers {
    unsigned char send[MAX_THREADS][MAXB];
    unsigned char recv[MAX_THREADS][MAXB];
    mca_coll_shmcico_span_t spans[MAX_THREADS];
    mca_coll_shmcico_stream_t streams[MAX_THREADS];
    mca_coll_shmcico_region_t regions[MAX_THREADS];
    mca_coll_shmcico_block_t blocks[MAX_THREADS];
    mca_coll_shmcico_stream_t own_stream, own_copy;
    mca_coll_shmcico_region_t own_region;
    mca_coll_shmcico_block_t own;
    mca_coll_shmcico_place_t place; /* in the case's tree: found again as roots change */
    int children[MAX_THREADS];
} buffers;

/* ------------------------------------------------------------------ */
/* What each process has                                               */

static int root_of(const scase *c, int call, int p)
{
    return BCAST == c->op || SCATTER == c->op || GATHER == c->op ? call % p : -1;
}

/* the bytes of the block from sender s to receiver r */
static size_t sent_bytes(const scase *c, int s, int r)
{
    int who = SCATTER == c->op ? r : s;

    return who == c->odd_rank ? c->odd_bytes : c->bytes;
}

static unsigned char byte_of(int s, int r, int call, size_t i)
{
    return (unsigned char) (s * 31 + r * 7 + call * 13 + (int) i + 1);
}

static bool takes_small(const scase *c, int me, int call)
{
    return ALL_SMALL == c->paths || (MIXED == c->paths && 0 != (me + call) % 3);
}

static void fill(unsigned char *at, size_t n, int s, int r, int call)
{
    for (size_t i = 0; i < n; ++i) {
        at[i] = byte_of(s, r, call, i);
    }
}

/* the senders' buffers of this process: Scatter's root has one per
 * receiver, Bcast's root one, Gather and Allgather one each */
static void fill_sends(const scase *c, buffers *b, int me, int p, int root, int call)
{
    if (SCATTER == c->op && me == root) {
        for (int r = 0; r < p; ++r) {
            fill(b->send[r], sent_bytes(c, root, r), root, r, call);
        }
    } else if (BCAST != c->op || me == root) {
        fill(b->send[0], sent_bytes(c, me, 0), me, 0, call);
    }
}

/* ------------------------------------------------------------------ */
/* The two paths                                                        */

/* a block of more than a flag's payload goes with streaming stores in
 * the cases that ask for them (only a sender's counts) */
static bool streams(const scase *c, size_t n)
{
    return c->streaming && n > MCA_COLL_SHMCICO_INLINE;
}

static mca_coll_shmcico_span_t span(const scase *c, unsigned char *at, size_t n)
{
    return (mca_coll_shmcico_span_t) { at, n, streams(c, n) };
}

static void make_block(const scase *c, mca_coll_shmcico_block_t *block,
                       mca_coll_shmcico_stream_t *stream, mca_coll_shmcico_region_t *region,
                       unsigned char *at, size_t n)
{
    mca_coll_shmcico_stream_contig(stream, at, n);
    stream->streaming = streams(c, n);
    mca_coll_shmcico_region_contig(region, at, n);
    *block = (mca_coll_shmcico_block_t) { .stream = stream, .region = region,
                                          .single = n >= SINGLE_MIN, .chunk = 128 };
}

static const mca_coll_shmcico_place_t *place_of(const mca_coll_shmcico_engine_t *e,
                                                const scase *c, buffers *b, int root)
{
    return mca_coll_shmcico_place_for(&c->tree, e->rank, root, &b->place);
}

static mca_coll_shmcico_small_t run_small(mca_coll_shmcico_engine_t *e, const scase *c,
                                          buffers *b, int root, mca_coll_shmcico_result_t *r)
{
    int me = e->rank, p = e->nprocs;
    mca_coll_shmcico_span_t own = span(c, b->recv[me], c->bytes);
    mca_coll_shmcico_span_t send = span(c, b->send[0], sent_bytes(c, me, 0));

    switch (c->op) {
    case BCAST:
        own = me == root ? send : span(c, b->recv[0], c->bytes);
        return mca_coll_shmcico_small_bcast(e, place_of(e, c, b, root), &own, r);
    case SCATTER:
        for (int i = 0; i < p; ++i) {
            b->spans[i] = span(c, b->send[i], sent_bytes(c, me, i));
        }
        return mca_coll_shmcico_small_rooted(e, root, true, &own, b->spans, r);
    default:
        for (int i = 0; i < p; ++i) {
            b->spans[i] = span(c, b->recv[i], c->bytes);
        }
        if (GATHER == c->op) {
            return mca_coll_shmcico_small_rooted(e, root, false, &send, b->spans, r);
        }
        return mca_coll_shmcico_small_allgather(e, &send, &b->spans[me], b->spans, r);
    }
}

/* the skeleton; sent: the small path wrote this process's Allgather block */
static mca_coll_shmcico_result_t run_skeleton(mca_coll_shmcico_engine_t *e, const scase *c,
                                              buffers *b, int root, bool sent)
{
    mca_coll_shmcico_verdict_t v = { 0 };
    int me = e->rank, p = e->nprocs;
    bool sends_blocks = SCATTER == c->op && me == root;
    bool own_sends = GATHER == c->op || ALLGATHER == c->op || (BCAST == c->op && me == root);
    unsigned char *own_at = own_sends ? b->send[0] : BCAST == c->op ? b->recv[0] : b->recv[me];

    for (int i = 0; i < p; ++i) {
        make_block(c, &b->blocks[i], &b->streams[i], &b->regions[i],
                   sends_blocks ? b->send[i] : b->recv[i],
                   sends_blocks ? sent_bytes(c, me, i) : c->bytes);
    }
    make_block(c, &b->own, &b->own_stream, &b->own_region, own_at,
               own_sends ? sent_bytes(c, me, 0) : c->bytes);
    switch (c->op) {
    case BCAST:
        return mca_coll_shmcico_engine_bcast(e, place_of(e, c, b, root), &b->own, &v);
    case SCATTER:
    case GATHER:
        return mca_coll_shmcico_engine_rooted(e, root, SCATTER == c->op, &b->own, b->blocks,
                                              &v, false);
    default:
        mca_coll_shmcico_stream_contig(&b->own_copy, b->send[0], sent_bytes(c, me, 0));
        return mca_coll_shmcico_engine_allgather(e, sent ? NULL : &b->own, &b->own_copy,
                                                 b->blocks, &v, false);
    }
}

/* ------------------------------------------------------------------ */
/* What each process must find                                         */

/* whether every block this process has is one fragment (the glue's
 * condition for trying the small path) */
static bool fits_small(const scase *c, int me, int p, int root)
{
    bool fits = c->bytes <= FRAGMENT;

    for (int i = 0; i < p; ++i) {
        if (SCATTER == c->op && me == root) {
            fits &= sent_bytes(c, me, i) <= FRAGMENT;
        }
    }
    if (GATHER == c->op || ALLGATHER == c->op || (BCAST == c->op && me == root)) {
        fits &= sent_bytes(c, me, 0) <= FRAGMENT;
    }
    return fits;
}

/* the blocks this process receives: from whom (-1: not one) */
static int sender_of(const scase *c, int me, int root, int i)
{
    switch (c->op) {
    case BCAST: return 0 == i && me != root ? root : -1;
    case SCATTER: return i == me ? root : -1;
    case GATHER: return me == root ? i : -1;
    default: return i;
    }
}

/* Received blocks hold the sender's bytes up to their room, nothing
 * beyond; returns whether one was cut. */
static bool check_received(const scase *c, buffers *b, int me, int p, int root, int call,
                           int *bad)
{
    bool cut = false;

    for (int i = 0; i < p; ++i) {
        int s = sender_of(c, me, root, i);
        int r = SCATTER == c->op ? me : 0;   /* as fill_sends() numbers it */
        size_t want = s < 0 ? 0 : sent_bytes(c, s, me);
        size_t got = want < c->bytes ? want : c->bytes;
        unsigned char *at = BCAST == c->op ? b->recv[0] : b->recv[i];
        bool ok = true;
        if (s < 0) {
            continue;
        }
        cut |= got < want;
        for (size_t k = 0; k < c->bytes + 8 && k < MAXB; ++k) {
            ok &= at[k] == (k < got ? byte_of(s, r, call, k) : 0);
        }
        EXPECT(bad, ok, "%s call %d: rank %d, block %d from %d", op_names[c->op], call, me, i,
               s);
    }
    return cut;
}

/* the bytes this process writes into slots on the small path with
 * streaming stores */
static uint64_t streamed_small(const scase *c, int me, int p, int root)
{
    bool writes_one = (BCAST == c->op && me == root) || (GATHER == c->op && me != root)
        || ALLGATHER == c->op;
    uint64_t n = 0;

    for (int i = 0; SCATTER == c->op && me == root && i < p; ++i) {
        n += i != root && streams(c, sent_bytes(c, me, i)) ? sent_bytes(c, me, i) : 0;
    }
    return writes_one && streams(c, sent_bytes(c, me, 0)) ? sent_bytes(c, me, 0) : n;
}

/* ------------------------------------------------------------------ */
/* The calls                                                           */

static int one_call(mca_coll_shmcico_engine_t *e, const scase *c, buffers *b, int call)
{
    int me = e->rank, p = e->nprocs, root = root_of(c, call, p), bad = 0;
    bool small = takes_small(c, me, call) && fits_small(c, me, p, root), cut;
    mca_coll_shmcico_small_t how = MCA_COLL_SHMCICO_SMALL_HANDED;
    mca_coll_shmcico_result_t r, written = { .status = MCA_COLL_SHMCICO_DONE };

    memset(b->send, 0, sizeof(b->send));
    memset(b->recv, 0, sizeof(b->recv));
    fill_sends(c, b, me, p, root, call);
    if (small) {
        how = run_small(e, c, b, root, &written);
        r = written;
    }
    if (MCA_COLL_SHMCICO_SMALL_SERVED != how) {
        r = run_skeleton(e, c, b, root, MCA_COLL_SHMCICO_SMALL_SENT == how);
        /* as the glue does: what the small path wrote of an Allgather
         * block it handed over counts too */
        r.streamed += MCA_COLL_SHMCICO_SMALL_SENT == how ? written.streamed : 0;
    }
    cut = check_received(c, b, me, p, root, call, &bad);
    EXPECT(&bad, (cut ? MCA_COLL_SHMCICO_TRUNCATED : MCA_COLL_SHMCICO_DONE) == r.status,
           "%s call %d: rank %d status %d", op_names[c->op], call, me, (int) r.status);
    if (small) {
        /* the small path serves a block cut within one fragment itself,
         * and hands over one of more fragments */
        bool handed = MCA_COLL_SHMCICO_SMALL_SERVED != how;
        EXPECT(&bad, handed == (cut && c->odd_bytes > FRAGMENT),
               "%s call %d: rank %d handed %d", op_names[c->op], call, me, (int) handed);
        EXPECT(&bad, handed || (r.used_queue && !r.used_single),
               "%s call %d: rank %d transports", op_names[c->op], call, me);
        EXPECT(&bad, MCA_COLL_SHMCICO_SMALL_HANDED == how
               || r.streamed == streamed_small(c, me, p, root),
               "%s call %d: rank %d streamed %llu bytes (small path %d)", op_names[c->op],
               call, me, (unsigned long long) r.streamed, (int) how);
    }
    EXPECT(&bad, c->streaming || 0 == r.streamed, "%s call %d: rank %d streamed %llu bytes",
           op_names[c->op], call, me, (unsigned long long) r.streamed);
    return bad;
}

static int small_body(threads_world *w, mca_coll_shmcico_engine_t *e, void *arg)
{
    const scase *c = arg;
    buffers *b = malloc(sizeof(*b));
    int failures = 0;

    (void) w;
    if (NULL != b) {
        b->place = (mca_coll_shmcico_place_t) { .root = -1, .children = b->children };
    }
    for (int call = 0; NULL != b && call < c->nops; ++call) {
        failures += one_call(e, c, b, call);
    }
    free(b);
    return NULL == b ? 1 : failures;
}

static void run_case(scase c, int p, threads_copier copier)
{
    int32_t numa[MAX_THREADS];
    int failures;

    for (int i = 0; i < p; ++i) {
        numa[i] = i % 2;
    }
    CHECK(0 == mca_coll_shmcico_tree_init(&c.tree, MCA_COLL_SHMCICO_TREE_KARY, 2, p, numa),
          "tree");
    /* 8 slots in 2 banks: a block of more than 4 fragments is a ring */
    failures = threads_run(p, 8, 2, FRAGMENT, copier, small_body, &c);
    CHECK(0 == failures, "%s p=%d bytes=%zu odd %d:%zu paths %d copier %d: %d failures",
          op_names[c.op], p, c.bytes, c.odd_rank, c.odd_bytes, (int) c.paths, (int) copier,
          failures);
    mca_coll_shmcico_tree_fini(&c.tree);
}

int main(void)
{
    static const size_t sizes[] = { 0, 8, 32, 33, 40, FRAGMENT };
    static const size_t odd[] = { 24, 200, 600, 900 };   /* cut in one fragment, several,
                                                            a ring, a single copy */
    for (int op = BCAST; op <= ALLGATHER; ++op) {
        for (int p = 2; p <= 5; ++p) {
            for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); ++k) {
                for (int paths = ALL_SMALL; paths <= MIXED; ++paths) {
                    run_case((scase) { .op = op, .nops = 7, .bytes = sizes[k], .odd_rank = -1,
                                       .paths = (paths_t) paths }, p, THREADS_NO_COPIER);
                }
            }
            for (size_t k = 0; k < sizeof(odd) / sizeof(odd[0]); ++k) {
                run_case((scase) { .op = op, .nops = 7, .bytes = 16, .odd_rank = 1,
                                   .odd_bytes = odd[k], .paths = MIXED }, p, THREADS_MEMCPY);
                run_case((scase) { .op = op, .nops = 5, .bytes = 16, .odd_rank = p - 1,
                                   .odd_bytes = odd[k], .paths = ALL_SMALL }, p,
                         THREADS_MEMCPY);
                run_case((scase) { .op = op, .nops = 7, .bytes = 100, .odd_rank = 1,
                                   .odd_bytes = odd[k], .paths = MIXED, .streaming = 1 }, p,
                         THREADS_MEMCPY);
            }
            run_case((scase) { .op = op, .nops = 7, .bytes = FRAGMENT, .odd_rank = -1,
                               .paths = ALL_SMALL, .streaming = 1 }, p, THREADS_NO_COPIER);
        }
    }
    return unit_report("test_engine_small");
}
