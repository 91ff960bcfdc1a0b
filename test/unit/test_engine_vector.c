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
 * for processes, on small queues so that blocks run around their rings:
 *  - count patterns: uniform, zeros anywhere (the root's own too), one
 *    huge block and the rest tiny, random;
 *  - displacements in reverse rank order with gaps (and overlapping send
 *    blocks for Scatterv), every root, in place or not;
 *  - both transports in one call: blocks from single_min bytes on go by
 *    single copy (memcpy or Linux CMA), in chunks the root helps with,
 *    smaller ones through the queues; a process that chooses otherwise
 *    than its partner (the side with the data leads);
 *  - a process whose buffer is short gets TRUNCATED and nothing is
 *    written outside the blocks; a root that expects more than is sent
 *    gets what was sent; a root's verdict: handed back (everyone
 *    DECLINED, Gatherv and Allgatherv senders follow it) or its bad
 *    arguments (its error to those who wait for it); a sender's own bad
 *    arguments (its block is not delivered, the others are); every
 *    process is done with every bank at the end;
 *  - a process's own block copied with streaming stores from a threshold
 *    on (the result counts it), in place or not;
 *  - the 64-bit arithmetic: a 5 GiB block through 1 GiB fragments.
 */

#include <errno.h>
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
    int other_rank;     /* -1, or a process that chooses the other transport */
    size_t single_min;  /* blocks of at least this go by single copy */
    int decline_every;  /* the root (rank 0) hands every n-th call back */
    int fault_every;    /* every n-th call the root (allgatherv: process
                           op % p) has bad arguments */
    size_t own_streaming_min;   /* own blocks from here with streaming stores
                                   (0: never; only in cases without faults) */
    int refusing;               /* the copier refuses some copies: a process
                                   returns the right bytes or EPERM */
} vcase;

#define FAULT_CODE 4242
#define CHUNK 300

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

static unsigned char byte_of(int op, int source, size_t i)
{
    return (unsigned char) (mix((uint64_t) op << 32 | (uint64_t) source << 20) + i);
}

/* One call at one process: its buffers, and what it must see. */
typedef struct vcall {
    const vcase *c;
    threads_world *w;
    mca_coll_shmcico_engine_t *e;
    int op, root, me, p;
    size_t counts[MAX_THREADS], displs[MAX_THREADS], room[MAX_THREADS], span;
    mca_coll_shmcico_stream_t streams[MAX_THREADS], own_stream, copy_stream;
    mca_coll_shmcico_region_t regions[MAX_THREADS], own_region;
    mca_coll_shmcico_block_t blocks[MAX_THREADS], own;
    unsigned char *buf, *sbuf;
    bool any_single, any_queue;     /* transports of the blocks it takes part in */
    uint64_t own_streamed;          /* bytes of its own block it copies with streaming
                                       stores */
} vcall;

/* what a process copying its own block of bytes streams */
static uint64_t own_streams(const vcall *v, size_t bytes)
{
    return mca_coll_shmcico_streaming_stores && 0 != v->c->own_streaming_min
        && bytes >= v->c->own_streaming_min ? bytes : 0;
}

/* the receive stream a process copies its own block into asks for
 * streaming stores as the glue's rule by size says */
static void mark_own_dst(const vcall *v, mca_coll_shmcico_stream_t *dst)
{
    dst->own_streaming = 0 != own_streams(v, dst->length);
}

/* blocks in reverse rank order, 13 bytes apart */
static void make_layout(vcall *v)
{
    size_t at = 0;

    for (int j = v->p - 1; j >= 0; --j) {
        v->counts[j] = count_of(v->c, v->op, j, v->p);
        v->displs[j] = v->c->overlap ? 0 : at;
        at += v->c->overlap ? 0 : v->counts[j] + 13;
    }
    v->span = 13;
    for (int j = 0; j < v->p; ++j) {
        size_t end = v->displs[j] + v->counts[j] + 13;
        v->span = end > v->span ? end : v->span;
    }
}

/* whether process who sends or expects a block of bytes by single copy */
static bool single_view(const vcall *v, int who, size_t bytes)
{
    return (bytes >= v->c->single_min) != (who == v->c->other_rank);
}

/* the transport of a block, chosen by its sender: note it when this
 * process takes part */
static void note_block(vcall *v, int sender, size_t bytes, bool takes_part)
{
    bool single = single_view(v, sender, bytes) && THREADS_NO_COPIER != v->w->copier;

    v->any_single |= takes_part && single;
    v->any_queue |= takes_part && !single;
}

static void make_block(const vcall *v, mca_coll_shmcico_block_t *block,
                       mca_coll_shmcico_stream_t *stream, mca_coll_shmcico_region_t *region,
                       unsigned char *at, size_t bytes)
{
    mca_coll_shmcico_stream_contig(stream, at, bytes);
    mca_coll_shmcico_region_contig(region, at, bytes);
    *block = (mca_coll_shmcico_block_t) { .stream = stream, .region = region, .chunk = CHUNK,
                                          .single = single_view(v, v->me, bytes) };
}

/* blocks over buf, each with room[j] bytes */
static void open_blocks(vcall *v)
{
    for (int j = 0; j < v->p; ++j) {
        make_block(v, &v->blocks[j], &v->streams[j], &v->regions[j], v->buf + v->displs[j],
                   v->room[j]);
    }
}

/* Receive buffer check: block j holds source j's bytes up to got[j],
 * everything else is still poison. */
static int check_blocks(const vcall *v, const size_t *got)
{
    unsigned char *expect = malloc(v->span);
    int wrong;

    memset(expect, POISON, v->span);
    for (int j = 0; j < v->p; ++j) {
        for (size_t i = 0; i < got[j]; ++i) {
            expect[v->displs[j] + i] = byte_of(v->op, j, i);
        }
    }
    wrong = 0 != memcmp(v->buf, expect, v->span);
    free(expect);
    return wrong;
}

static bool declined(const vcall *v)
{
    return v->c->decline_every && 0 == v->op % v->c->decline_every;
}

static bool faulty(const vcall *v, int who)
{
    int culprit = ALLGATHERV == v->c->op ? v->op % v->p : v->root;

    return !declined(v) && v->c->fault_every && 0 == v->op % v->c->fault_every
        && who == culprit;
}

static mca_coll_shmcico_verdict_t verdict_of(const vcall *v)
{
    bool decider = v->me == (ALLGATHERV == v->c->op ? 0 : v->root);

    return (mca_coll_shmcico_verdict_t) { .decline = decider && declined(v),
                                          .error = faulty(v, v->me) ? FAULT_CODE : 0 };
}

/* the call says that a copy it took part in was refused */
static bool refused(const mca_coll_shmcico_result_t *r)
{
    return MCA_COLL_SHMCICO_COPY_FAILED == r->status;
}

/* the status and transports a process must see */
static int check_result(const vcall *v, const mca_coll_shmcico_result_t *r,
                        mca_coll_shmcico_status_t want)
{
    if (v->c->refusing && MCA_COLL_SHMCICO_COPY_FAILED == r->status) {
        /* a copy into or out of its buffer was refused: its bytes may be
         * wrong, and it says so; it counts no byte of a refused copy (a
         * Gatherv sender only pushes, and every push is refused) */
        if (GATHERV == v->c->op && v->me != v->root && 0 != r->copied) {
            fprintf(stderr, "refused pushes counted as %llu bytes copied\n",
                    (unsigned long long) r->copied);
            return 1;
        }
        return EPERM != r->copy_errno;
    }
    if (r->status != want) {
        fprintf(stderr, "status %d, expected %d\n", (int) r->status, (int) want);
        return 1;
    }
    if (MCA_COLL_SHMCICO_FAULTED == want) {
        return FAULT_CODE != r->mpi_error;
    }
    if (MCA_COLL_SHMCICO_DECLINED == want) {
        return 0;
    }
    if (r->used_single != v->any_single || r->used_queue != v->any_queue) {
        fprintf(stderr, "transports single %d queue %d, expected %d %d\n",
                r->used_single, r->used_queue, v->any_single, v->any_queue);
        return 1;
    }
    if (r->own_streamed != v->own_streamed) {
        fprintf(stderr, "own block streamed %llu bytes, expected %llu\n",
                (unsigned long long) r->own_streamed, (unsigned long long) v->own_streamed);
        return 1;
    }
    return 0;
}

static int run_scatterv(vcall *v)
{
    mca_coll_shmcico_verdict_t verdict = verdict_of(v);
    bool in_place = v->c->in_place && v->me == v->root, bad = false;
    size_t room = v->me == v->c->short_rank ? v->counts[v->me] / 2 : v->counts[v->me];
    unsigned char *recv = malloc(room + 1);
    mca_coll_shmcico_status_t want = declined(v) ? MCA_COLL_SHMCICO_DECLINED
        : faulty(v, v->root) ? MCA_COLL_SHMCICO_FAULTED
        : !in_place && room < v->counts[v->me] ? MCA_COLL_SHMCICO_TRUNCATED
        : MCA_COLL_SHMCICO_DONE;
    mca_coll_shmcico_result_t r;

    for (size_t i = 0; i < v->span; ++i) {
        v->buf[i] = byte_of(v->op, -1, i);
    }
    for (int j = 0; j < v->p; ++j) {
        v->room[j] = v->counts[j];
        note_block(v, v->root, v->counts[j],
                   j != v->root && (v->me == v->root || j == v->me));
    }
    open_blocks(v);
    make_block(v, &v->own, &v->own_stream, &v->own_region, recv, room);
    mark_own_dst(v, &v->own_stream);
    v->own_streamed = v->me == v->root && !in_place && MCA_COLL_SHMCICO_DONE == want
        ? own_streams(v, v->counts[v->root]) : 0;
    r = mca_coll_shmcico_engine_rooted(v->e, v->root, true, in_place ? NULL : &v->own,
                                       v->blocks, &verdict, false);
    for (size_t i = 0; MCA_COLL_SHMCICO_DONE == want && !in_place && !refused(&r) && i < room;
         ++i) {
        bad |= recv[i] != byte_of(v->op, -1, v->displs[v->me] + i);
    }
    free(recv);
    return bad || check_result(v, &r, want);
}

static int run_gatherv(vcall *v)
{
    mca_coll_shmcico_verdict_t verdict = verdict_of(v);
    bool in_place = v->c->in_place && v->me == v->root, is_root = v->me == v->root;
    bool root_bad = faulty(v, v->root), truncated = false;
    bool follow = 0 != v->c->decline_every;
    size_t got[MAX_THREADS];
    mca_coll_shmcico_result_t r;
    int bad = 0;

    for (size_t i = 0; i < v->counts[v->me]; ++i) {
        v->sbuf[i] = byte_of(v->op, v->me, i);
    }
    memset(v->buf, POISON, v->span);
    for (int j = 0; j < v->p; ++j) {
        /* the root expects half from the short process, which sends all,
         * and more than it sends from the long one (not an error) */
        v->room[j] = j == v->c->short_rank && j != v->root ? v->counts[j] / 2 : v->counts[j];
        v->room[j] = j == v->c->long_rank ? 3 * v->counts[j] + 200 : v->room[j];
        v->room[j] = is_root && root_bad ? 0 : v->room[j];
        got[j] = v->room[j] < v->counts[j] ? v->room[j] : v->counts[j];
        truncated |= j != v->root && got[j] < v->counts[j] && !root_bad;
        note_block(v, j, v->counts[j], j != v->root && (is_root || j == v->me));
    }
    if (in_place && !root_bad) {
        memcpy(v->buf + v->displs[v->me], v->sbuf, v->counts[v->me]);
    }
    open_blocks(v);
    make_block(v, &v->own, &v->own_stream, &v->own_region, v->sbuf, v->counts[v->me]);
    mark_own_dst(v, &v->streams[v->root]);
    v->own_streamed = is_root && !in_place && !root_bad && !declined(v)
        ? own_streams(v, v->counts[v->root]) : 0;
    r = mca_coll_shmcico_engine_rooted(v->e, v->root, false, in_place ? NULL : &v->own,
                                       v->blocks, &verdict, follow);
    bad |= is_root && !root_bad && !declined(v) && !refused(&r) && check_blocks(v, got);
    return bad || check_result(v, &r, declined(v) ? MCA_COLL_SHMCICO_DECLINED
                                      : root_bad && (is_root || follow)
                                      ? MCA_COLL_SHMCICO_FAULTED
                                      : is_root && truncated ? MCA_COLL_SHMCICO_TRUNCATED
                                      : MCA_COLL_SHMCICO_DONE);
}

static int run_allgatherv(vcall *v)
{
    mca_coll_shmcico_verdict_t verdict = verdict_of(v);
    int victim = (v->c->short_rank + 1) % v->p;
    bool in_place = v->c->in_place, me_bad = faulty(v, v->me), short_view = false;
    bool follow = 0 != v->c->decline_every;
    size_t got[MAX_THREADS];
    mca_coll_shmcico_result_t r;

    for (size_t i = 0; i < v->counts[v->me]; ++i) {
        v->sbuf[i] = byte_of(v->op, v->me, i);
    }
    memset(v->buf, POISON, v->span);
    for (int j = 0; j < v->p; ++j) {
        /* the short process thinks the next one's block is half as long */
        bool halved = v->me == v->c->short_rank && j == victim && j != v->me;
        v->room[j] = me_bad ? 0 : halved ? v->counts[j] / 2 : v->counts[j];
        got[j] = faulty(v, j) && j != v->me ? 0 : v->room[j];
        /* a process with bad arguments takes part with empty buffers */
        short_view |= !faulty(v, j) && j != v->me
            && (halved ? v->room[j] < v->counts[j] : me_bad && v->counts[j] > 0);
        note_block(v, j, v->counts[j], !faulty(v, j));
    }
    mca_coll_shmcico_stream_contig(&v->copy_stream, v->sbuf, v->counts[v->me]);
    if (in_place && !me_bad) {
        memcpy(v->buf + v->displs[v->me], v->sbuf, v->counts[v->me]);
    }
    open_blocks(v);
    make_block(v, &v->own, &v->own_stream, &v->own_region,
               in_place ? v->buf + v->displs[v->me] : v->sbuf, v->counts[v->me]);
    mark_own_dst(v, &v->streams[v->me]);
    v->own_streamed = !in_place && !me_bad && !declined(v)
        ? own_streams(v, v->counts[v->me]) : 0;
    r = mca_coll_shmcico_engine_allgather(v->e, &v->own, in_place ? NULL : &v->copy_stream,
                                          v->blocks, &verdict, follow);
    if (me_bad) {
        got[v->me] = in_place ? v->counts[v->me] : 0;
    }
    return (!declined(v) && !refused(&r) && check_blocks(v, got))
        || check_result(v, &r, declined(v) ? MCA_COLL_SHMCICO_DECLINED
                               : short_view ? MCA_COLL_SHMCICO_TRUNCATED
                               : MCA_COLL_SHMCICO_DONE);
}

static int vector_body(threads_world *w, mca_coll_shmcico_engine_t *e, void *arg)
{
    const vcase *c = arg;
    int failures = 0;

    for (int op = 0; op < c->nops; ++op) {   /* all of them: the others wait */
        vcall v = { .c = c, .w = w, .e = e, .op = op, .root = op % w->p, .me = e->rank,
                    .p = w->p };
        int bad;

        make_layout(&v);
        v.buf = malloc(v.span);
        v.sbuf = malloc(v.span);
        switch (c->op) {
        case SCATTERV: bad = run_scatterv(&v); break;
        case GATHERV: bad = run_gatherv(&v); break;
        default: bad = run_allgatherv(&v); break;
        }
        if (bad) {
            fprintf(stderr, "%s pattern %d op %d rank %d: wrong result\n",
                    op_names[c->op], c->pattern, op, e->rank);
            ++failures;
        }
        free(v.buf);
        free(v.sbuf);
    }
    return failures;
}

static void run_vector(vcase c, int p, uint32_t s, uint32_t w, size_t f,
                       threads_copier copier)
{
    int failures = threads_run(p, s, w, f, copier, vector_body, &c);

    CHECK(0 == failures, "%s p=%d s=%u w=%u f=%zu copier=%d pattern=%d unit=%zu "
          "single_min=%zu overlap=%d in_place=%d short=%d long=%d other=%d decline=%d "
          "fault=%d: %d failures", op_names[c.op], p, s, w, f, (int) copier, c.pattern,
          c.unit, c.single_min, c.overlap, c.in_place, c.short_rank, c.long_rank,
          c.other_rank, c.decline_every, c.fault_every, failures);
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
    uint64_t bytes = *(uint64_t *) arg;
    mca_coll_shmcico_stream_t send = { .length = 1 == e->rank ? bytes : 0,
                                       .pack = skip_bytes, .unpack = skip_bytes };
    mca_coll_shmcico_stream_t s0 = { .length = 0, .pack = skip_bytes, .unpack = skip_bytes };
    mca_coll_shmcico_stream_t s1 = { .length = bytes, .pack = skip_bytes,
                                     .unpack = skip_bytes };
    mca_coll_shmcico_block_t own = { .stream = &send };
    mca_coll_shmcico_block_t blocks[2] = { { .stream = &s0 }, { .stream = &s1 } };
    mca_coll_shmcico_verdict_t v = { 0 };
    mca_coll_shmcico_result_t r;

    (void) w;
    r = mca_coll_shmcico_engine_rooted(e, 0, false, 0 == e->rank ? NULL : &own, blocks, &v,
                                       false);
    return r.status != MCA_COLL_SHMCICO_DONE || (0 == e->rank && s1.done != bytes)
        || (1 == e->rank && send.done != bytes);
}

/* every operation with the patterns, in place or not, at 2, 3 and 5
 * processes, the copiers in turn */
static void pattern_cases(int op)
{
    static const int procs[] = { 2, 3, 5 };
    int turn = 0;

    for (size_t pi = 0; pi < sizeof(procs) / sizeof(procs[0]); ++pi) {
        for (int pattern = 0; pattern < 4; ++pattern) {
            vcase c = { .op = op, .nops = 3 * procs[pi], .pattern = pattern, .unit = 700,
                        .short_rank = -1, .long_rank = -1, .other_rank = -1,
                        .single_min = 1000 };
            run_vector(c, procs[pi], 8, 2, 128, (threads_copier) (turn++ % 3));
            c.in_place = 1;
            run_vector(c, procs[pi], 8, 2, 128, (threads_copier) (turn++ % 3));
        }
    }
}

static void special_cases(int op)
{
    static const vcase cases[] = {
        { .nops = 10, .pattern = 3, .unit = 3000, .single_min = 2000 },
        { .nops = 8, .unit = 1000, .short_rank = 2, .single_min = 500 },
        { .nops = 8, .unit = 1000, .short_rank = 2, .single_min = SIZE_MAX },
        { .nops = 8, .unit = 600, .other_rank = 1, .single_min = 1000 },
        { .nops = 8, .unit = 600, .other_rank = 0, .single_min = 1000, .short_rank = 2 },
        { .nops = 9, .pattern = 1, .unit = 500, .decline_every = 3, .single_min = 400 },
        { .nops = 8, .pattern = 3, .unit = 900, .fault_every = 2, .single_min = 900 },
        { .nops = 8, .unit = 40, .short_rank = 2, .single_min = SIZE_MAX },
        { .nops = 8, .unit = 40, .short_rank = 0, .single_min = SIZE_MAX },
        { .nops = 8, .unit = 100, .long_rank = 1, .single_min = 50 },
        { .nops = 8, .unit = 100, .long_rank = 1, .single_min = SIZE_MAX },
        { .nops = 9, .pattern = 2, .unit = 30, .decline_every = 3, .single_min = 200 },
        { .nops = 8, .pattern = 1, .unit = 20, .fault_every = 2, .single_min = 20 },
        { .nops = 6, .unit = 1, .single_min = SIZE_MAX },
        /* own blocks with streaming stores: lines cut at both ends, and
         * blocks below the threshold (pattern 3: 0 to 2999 bytes) */
        { .nops = 8, .unit = 1000, .single_min = 500, .own_streaming_min = 1 },
        { .nops = 9, .pattern = 3, .unit = 1000, .single_min = 2000,
          .own_streaming_min = 1500 },
    };
    static const int procs[] = { 4, 4, 4, 3, 5, 3, 4, 4, 3, 4, 4, 3, 4, 8, 3, 4 };

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
        vcase c = cases[i];
        c.op = op;
        c.short_rank = c.short_rank ? c.short_rank : -1;
        c.long_rank = GATHERV == op && c.long_rank ? c.long_rank : -1;
        c.other_rank = c.other_rank ? c.other_rank : -1;
        if (0 == i) {
            run_vector(c, procs[i], 4, 4, 64, THREADS_CMA);
        } else {
            run_vector(c, procs[i], i % 2 ? 4 : 8, 2, i % 3 ? 64 : 128,
                       (threads_copier) (1 + i % 2));
        }
    }
}

int main(void)
{
    uint64_t huge = (UINT64_C(5) << 30) + 12345;

    for (int op = SCATTERV; op <= ALLGATHERV; ++op) {
        pattern_cases(op);
        special_cases(op);
    }
    run_vector((vcase) { .op = SCATTERV, .nops = 6, .pattern = 3, .unit = 900, .overlap = 1,
                         .short_rank = -1, .long_rank = -1, .other_rank = -1,
                         .single_min = 1000 }, 3, 8, 2, 128, THREADS_CMA);
    /* refused copies: a Scatterv root's pushes, a Gatherv sender's, an
     * Allgatherv's pulls from process 0 */
    for (int op = SCATTERV; op <= ALLGATHERV; ++op) {
        run_vector((vcase) { .op = op, .nops = 8, .unit = 1000, .short_rank = -1,
                             .long_rank = -1, .other_rank = -1, .single_min = 500,
                             .refusing = 1 }, 4, 8, 2, 128,
                   ALLGATHERV == op ? THREADS_PULLS_FROM_0_FAIL : THREADS_PUSHES_FAIL);
    }
    CHECK(threads_failed_copies > 0, "no copy was refused");
    CHECK(0 == threads_run(2, 1, 1, (size_t) 1 << 30, THREADS_NO_COPIER, huge_body, &huge),
          "gatherv of a 5 GiB block through 1 GiB fragments");
    return unit_report("test_engine_vector");
}
