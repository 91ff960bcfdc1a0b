/*
 * Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
 * $COPYRIGHT$
 *
 * Additional copyrights may follow
 *
 * $HEADER$
 */

/*
 * MPI_Scatter(v), MPI_Gather(v) and MPI_Allgather(v) through coll/shmcico,
 * checked byte for byte against what MPI semantics say every buffer must
 * hold (every process computes every other's data from a seed):
 *  - block sizes 0, 1, f-1, f, f+1, bank +- 1, queue +- 1 and 2 MiB + 5
 *    (f, s, w from the component's MPI_T control variables), every root;
 *  - count patterns (v-variants): zeros anywhere (the root's own too), one
 *    huge block and the rest tiny, random; displacements in reverse rank
 *    order with gaps, and overlapping send blocks for Scatterv;
 *  - the datatypes of the Bcast tests, different on both sides with the
 *    same signature; MPI_IN_PLACE; the communicators of the Bcast tests;
 *  - a receiver whose count is short gets MPI_ERR_TRUNCATE and nothing
 *    is written outside its buffer; the next operation is right.
 * Every call must move coll_shmcico_<op>_served by one on every rank
 * (calls MPI itself skips, such as Scatter with count 0, must not move
 * it); guard bytes and bytes outside the blocks must stay untouched.
 *
 * Usage: test_vector scatter|scatterv|gather|gatherv|allgather|allgatherv
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shmcico_test.h"

typedef enum { SCATTER, SCATTERV, GATHER, GATHERV, ALLGATHER, ALLGATHERV } op_t;
static const char *const op_names[] = {
    "scatter", "scatterv", "gather", "gatherv", "allgather", "allgatherv"
};

enum { UNIFORM, ZEROS, ONE_HUGE, RANDOM, NPATTERNS };

#define MAXP 64

static op_t op;
static const st_type *types;
static size_t f, s, w;

typedef struct vcall {
    MPI_Comm comm;
    const char *comm_name;
    const st_type *type;
    int root;
    int counts[MAXP];           /* elements of every block */
    int displs[MAXP];           /* elements, in the buffer with the blocks */
    int in_place;
    int short_rank;             /* a receiver with a short count, or -1 */
    uint64_t seed;
} vcall;

static int is_v(void)
{
    return SCATTERV == op || GATHERV == op || ALLGATHERV == op;
}

static int is_scatter(void)
{
    return SCATTER == op || SCATTERV == op;
}

static int is_allgather(void)
{
    return ALLGATHER == op || ALLGATHERV == op;
}

/* ---- The call's data, as every process can compute it ----------- */

/* The counts and displacements a process passes for the buffer of
 * blocks: the call's own, except for a short receiver of an Allgather(v),
 * which thinks the next process's block (every block, for Allgather) is
 * half as long. */
typedef struct view {
    int counts[MAXP];
    int displs[MAXP];
} view;

static void blocks_view(const vcall *c, int me, int p, view *v)
{
    for (int i = 0; i < p; ++i) {
        v->counts[i] = c->counts[i];
        v->displs[i] = c->displs[i];
    }
    if (!is_allgather() || me != c->short_rank) {
        return;
    }
    if (ALLGATHERV == op) {
        v->counts[(me + 1) % p] /= 2;
        return;
    }
    for (int i = 0; i < p; ++i) {
        v->counts[i] = c->counts[i] / 2;
        v->displs[i] = i * v->counts[i];
    }
}

static size_t blocks_span(const vcall *c, int p, const view *v)
{
    MPI_Aint lb, extent;
    size_t span = 1;

    MPI_Type_get_extent(c->type->blocks_type, &lb, &extent);
    for (int i = 0; i < p; ++i) {
        size_t end = (size_t) v->displs[i] * (size_t) extent
            + st_span(c->type->blocks_type, v->counts[i]);
        span = end > span ? end : span;
    }
    return span;
}

static unsigned char *block_at(unsigned char *buf, const vcall *c, const view *v, int i)
{
    MPI_Aint lb, extent;

    MPI_Type_get_extent(c->type->blocks_type, &lb, &extent);
    return buf + (size_t) v->displs[i] * (size_t) extent;
}

/* the count process i passes for its single buffer */
static int single_count(const vcall *c, int i)
{
    if (i == c->short_rank && is_scatter()) {
        return c->counts[i] / 2;        /* receives less than is sent */
    }
    if (i == c->short_rank && !is_allgather()) {
        return 2 * c->counts[i] + 1;    /* gather: sends more than expected */
    }
    return c->counts[i];
}

/* the single buffer process i sends (gather, allgather) */
static unsigned char *source_single(const vcall *c, int i, size_t *span)
{
    int count = single_count(c, i);
    unsigned char *buf;

    *span = st_span(c->type->single_type, count);
    buf = malloc(*span + 1);
    st_fill(buf, *span, c->seed + (uint64_t) i + 1);
    return buf;
}

/* the root's buffer of blocks (scatter) */
static unsigned char *source_blocks(const vcall *c, int p, size_t *span)
{
    view v;
    unsigned char *buf;

    blocks_view(c, c->root, p, &v);
    *span = blocks_span(c, p, &v);
    buf = malloc(*span);
    st_fill(buf, *span, c->seed);
    return buf;
}

/* the message of block i, packed */
static char *message(const vcall *c, int p, int i, int *size)
{
    size_t span;
    char *packed;

    if (is_scatter()) {
        view v;
        unsigned char *root_buf = source_blocks(c, p, &span);
        blocks_view(c, c->root, p, &v);
        packed = st_pack(block_at(root_buf, c, &v, i), c->counts[i],
                         c->type->blocks_type, size);
        free(root_buf);
    } else {
        unsigned char *single = source_single(c, i, &span);
        packed = st_pack(single, single_count(c, i), c->type->single_type, size);
        free(single);
    }
    return packed;
}

/* what process me's buffer of blocks must hold after a gather or an
 * allgather: every message unpacked into its block, holes untouched */
static void expected_blocks(const vcall *c, int p, const view *v, unsigned char *image,
                            size_t span)
{
    memset(image, ST_POISON, span);
    for (int i = 0; i < p; ++i) {
        int size;
        char *packed = message(c, p, i, &size);
        st_unpack_into(packed, size, block_at(image, c, v, i), v->counts[i],
                       c->type->blocks_type);
        free(packed);
    }
}

/* ---- One call ------------------------------------------------------ */

static int call_op(const vcall *c, int is_root, const view *v, const void *sbuf,
                   int scount, void *rbuf, int rcount)
{
    MPI_Datatype bt = c->type->blocks_type, st = c->type->single_type;
    /* counts and displacements significant at the root only: NULL elsewhere */
    const int *counts = is_root ? v->counts : NULL, *displs = is_root ? v->displs : NULL;

    switch (op) {
    case SCATTER:
        return MPI_Scatter(sbuf, scount, bt, rbuf, rcount, st, c->root, c->comm);
    case SCATTERV:
        return MPI_Scatterv(sbuf, counts, displs, bt, rbuf, rcount, st, c->root, c->comm);
    case GATHER:
        return MPI_Gather(sbuf, scount, st, rbuf, rcount, bt, c->root, c->comm);
    case GATHERV:
        return MPI_Gatherv(sbuf, scount, st, rbuf, counts, displs, bt, c->root, c->comm);
    case ALLGATHER:
        return MPI_Allgather(sbuf, scount, st, rbuf, rcount, bt, c->comm);
    default:
        return MPI_Allgatherv(sbuf, scount, st, rbuf, v->counts, v->displs, bt, c->comm);
    }
}

/* whether MPI itself returns before reaching any component */
static int skipped_by_mpi(const vcall *c, int me, int p)
{
    int all_zero = 1;

    for (int i = 0; i < p; ++i) {
        all_zero &= 0 == c->counts[i];
    }
    if (SCATTER == op || GATHER == op || ALLGATHER == op) {
        return 0 == c->counts[me] || all_zero;
    }
    return ALLGATHERV == op && all_zero;
}

/* whether process me must see MPI_ERR_TRUNCATE */
static int truncated_at(const vcall *c, int me, int p)
{
    if (c->short_rank < 0 || 0 == st_type_size(c->type->single_type)) {
        return 0;
    }
    if (is_scatter()) {
        return me == c->short_rank && single_count(c, me) < c->counts[me];
    }
    if (is_allgather()) {
        int victim = ALLGATHERV == op ? (me + 1) % p : me;
        return me == c->short_rank && c->counts[victim] / 2 < c->counts[victim];
    }
    return me == c->root && c->short_rank != c->root;
}

static void check_bytes(const vcall *c, const char *what, const void *got,
                        const void *want, size_t bytes)
{
    long at = st_first_diff(got, want, bytes);

    ST_CHECK(at < 0, "%s %s %s root %d counts[0]=%d: %s byte %ld is %#x, expected %#x",
             op_names[op], c->comm_name, c->type->name, c->root, c->counts[0], what, at,
             at < 0 ? 0 : ((const unsigned char *) got)[at],
             at < 0 ? 0 : ((const unsigned char *) want)[at]);
}

/* the single buffer after the call: what a scatter receiver must have
 * received, or a gather sender's data unchanged */
static void check_single(const vcall *c, int me, int p, const st_buf *single,
                         const unsigned char *sent)
{
    ST_CHECK(st_guards_ok(single), "%s %s: guard bytes of the single buffer "
             "overwritten", op_names[op], c->comm_name);
    if (is_scatter()) {
        int size;
        char *packed = message(c, p, me, &size);
        unsigned char *image = malloc(single->bytes + 1);
        st_unpack_image(packed, size, image, single->bytes, single_count(c, me),
                        c->type->single_type);
        check_bytes(c, "received", single->data, image, single->bytes);
        free(image);
        free(packed);
    } else {
        check_bytes(c, "send buffer changed:", single->data, sent, single->bytes);
    }
}

/* the blocks after the call: a scatter root's unchanged, or every block
 * received */
static void check_blocks(const vcall *c, int p, const view *v, const st_buf *blocks)
{
    unsigned char *image;
    size_t span;

    ST_CHECK(st_guards_ok(blocks), "%s %s: guard bytes of the blocks overwritten",
             op_names[op], c->comm_name);
    if (is_scatter()) {
        image = source_blocks(c, p, &span);
        check_bytes(c, "send blocks changed:", blocks->data, image, blocks->bytes);
    } else {
        image = malloc(blocks->bytes);
        expected_blocks(c, p, v, image, blocks->bytes);
        check_bytes(c, "blocks", blocks->data, image, blocks->bytes);
    }
    free(image);
}

/* the buffer of blocks before the call */
static st_buf prepare_blocks(const vcall *c, int me, int p, const view *v)
{
    st_buf blocks = st_alloc(blocks_span(c, p, v));
    unsigned char *image;
    size_t span;

    if (is_scatter()) {
        image = source_blocks(c, p, &span);
        memcpy(blocks.data, image, blocks.bytes);
    } else {
        image = malloc(blocks.bytes);
        expected_blocks(c, p, v, image, blocks.bytes);
        memset(blocks.data, ST_POISON, blocks.bytes);
        if (c->in_place) {
            /* the process's own block is already where it belongs */
            memcpy(block_at(blocks.data, c, v, me), block_at(image, c, v, me),
                   st_span(c->type->blocks_type, v->counts[me]));
        }
    }
    free(image);
    return blocks;
}

static void run_call(const vcall *c)
{
    int me, p, err, cls, is_root, has_blocks, has_single;
    unsigned char *sent = NULL;
    st_buf single = { 0 }, blocks = { 0 };
    char name[64];
    unsigned long long before, moved;
    size_t span;
    view v;

    MPI_Comm_rank(c->comm, &me);
    MPI_Comm_size(c->comm, &p);
    is_root = me == c->root;
    has_blocks = is_allgather() || is_root;
    has_single = !(c->in_place && has_blocks);
    blocks_view(c, me, p, &v);
    snprintf(name, sizeof(name), "%s_served", op_names[op]);

    if (has_single && is_scatter()) {
        single = st_alloc(st_span(c->type->single_type, single_count(c, me)));
        memset(single.data, ST_POISON, single.bytes);
    } else if (has_single) {
        sent = source_single(c, me, &span);
        single = st_alloc(span);
        memcpy(single.data, sent, span);
    }
    if (has_blocks) {
        blocks = prepare_blocks(c, me, p, &v);
    }

    before = st_counter(name);
    if (is_scatter()) {
        err = call_op(c, is_root, &v, blocks.data, v.counts[0],
                      has_single ? (void *) single.data : MPI_IN_PLACE,
                      single_count(c, me));
    } else {
        err = call_op(c, is_root, &v, has_single ? (void *) single.data : MPI_IN_PLACE,
                      single_count(c, me), blocks.data, v.counts[0]);
    }
    moved = st_counter(name) - before;

    MPI_Error_class(err, &cls);
    if (truncated_at(c, me, p)) {
        ST_CHECK(MPI_ERR_TRUNCATE == cls, "%s %s %s root %d: short count got error "
                 "class %d, expected MPI_ERR_TRUNCATE", op_names[op], c->comm_name,
                 c->type->name, c->root, cls);
    } else {
        ST_CHECK(MPI_SUCCESS == err, "%s %s %s root %d counts[0]=%d: error class %d",
                 op_names[op], c->comm_name, c->type->name, c->root, c->counts[0], cls);
    }
    ST_CHECK(moved == (skipped_by_mpi(c, me, p) || p < 2 ? 0u : 1u),
             "%s %s %s root %d counts[0]=%d: %s moved by %llu", op_names[op],
             c->comm_name, c->type->name, c->root, c->counts[0], name, moved);
    if (has_single) {
        check_single(c, me, p, &single, sent);
        st_free(&single);
    }
    if (has_blocks) {
        check_blocks(c, p, &v, &blocks);
        st_free(&blocks);
    }
    free(sent);
}

/* ---- Cases ----------------------------------------------------------- */

static int count_for(int pattern, int i, int p, int root, int n, uint64_t seed)
{
    uint64_t state = seed * 31 + (uint64_t) i;

    switch (pattern) {
    case ZEROS: return (i % 3 == root % 3) ? 0 : n + i;
    case ONE_HUGE: return i == (root + 1) % p ? 8 * n + 3 : i % 2;
    case RANDOM: return (int) (st_random(&state) % (uint64_t) (2 * n + 1));
    default: return n;
    }
}

/* Counts and displacements: regular operations get equal blocks one after
 * the other; v-variants the pattern, blocks in reverse rank order with
 * gaps (or all at 0 for overlapping Scatterv send blocks). */
static void layout(vcall *c, int p, int pattern, int n, int overlap)
{
    int at = 0;

    for (int i = p - 1; i >= 0; --i) {
        c->counts[i] = is_v() ? count_for(pattern, i, p, c->root, n, c->seed) : n;
        c->displs[i] = overlap ? 0 : at;
        at += overlap ? 0 : c->counts[i] + 3;
    }
    for (int i = 0; !is_v() && i < p; ++i) {
        c->displs[i] = i * n;
    }
}

static void every_root(MPI_Comm comm, const char *name, const st_type *type,
                       size_t bytes, int pattern, int in_place, int overlap,
                       uint64_t seed)
{
    size_t elem = st_type_size(type->single_type);
    int p, n = elem ? (int) (bytes / elem) : 1;

    MPI_Comm_size(comm, &p);
    for (int root = 0; root < p; ++root) {
        vcall c = { .comm = comm, .comm_name = name, .type = type, .root = root,
                    .in_place = in_place, .short_rank = -1,
                    .seed = seed + (uint64_t) root };
        layout(&c, p, pattern, n, overlap);
        run_call(&c);
    }
}

static void sizes_on(MPI_Comm comm, const char *name)
{
    size_t sizes[] = { 0, 1, f - 1, f, f + 1, s / w * f - 1, s / w * f + 1,
                       s * f - 1, s * f + 1, (2 << 20) + 5 };

    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); ++i) {
        every_root(comm, name, &types[0], sizes[i], UNIFORM, 0, 0, 100 + i);
    }
}

static void patterns_on(MPI_Comm comm, const char *name)
{
    size_t sizes[] = { 7, f + 1, s * f + 1 };

    for (int pattern = ZEROS; is_v() && pattern < NPATTERNS; ++pattern) {
        for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); ++i) {
            every_root(comm, name, &types[0], sizes[i], pattern, 0, 0,
                       200 + 10 * (uint64_t) pattern + i);
        }
    }
    if (SCATTERV == op) {
        every_root(comm, name, &types[1], 4 * f + 8, RANDOM, 0, 1, 250);
    }
}

static void types_on(MPI_Comm comm, const char *name)
{
    size_t sizes[] = { 1, s / w * f + 1, s * f - 1 };

    for (int t = 1; t < ST_ZERO_SIZE_TYPE; ++t) {
        for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); ++i) {
            every_root(comm, name, &types[t], sizes[i], is_v() ? RANDOM : UNIFORM, 0, 0,
                       300 + 10 * (uint64_t) t + i);
        }
    }
}

static void in_place_on(MPI_Comm comm, const char *name)
{
    size_t sizes[] = { 1, f + 1, s * f + 1 };

    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); ++i) {
        every_root(comm, name, &types[0], sizes[i], is_v() ? ONE_HUGE : UNIFORM, 1, 0,
                   400 + i);
        every_root(comm, name, &types[3], sizes[i], UNIFORM, 1, 0, 410 + i);
    }
}

/* a short count: truncation where MPI puts it, nothing written outside,
 * the next operation right */
static void truncation_on(MPI_Comm comm, const char *name)
{
    size_t sizes[] = { 100, 3 * f + 5, 3 * s * f + 5 };
    int p;

    MPI_Comm_size(comm, &p);
    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); ++i) {
        for (int t = 0; t < ST_ZERO_SIZE_TYPE; t += 4) {
            for (int root = 0; root < p; root += p - 1 > 0 ? p - 1 : 1) {
                vcall c = { .comm = comm, .comm_name = name, .type = &types[t],
                            .root = root, .short_rank = (root + 1) % p,
                            .seed = 500 + i };
                size_t elem = st_type_size(types[t].single_type);
                layout(&c, p, UNIFORM, (int) (sizes[i] / elem), 0);
                if (is_allgather() && 0 == c.short_rank) {
                    c.short_rank = 1;   /* rank 0's counts lead: keep them right */
                }
                run_call(&c);
                c.short_rank = -1;
                run_call(&c);
            }
        }
    }
}

static void interleaved(MPI_Comm a, MPI_Comm b, MPI_Comm c3)
{
    MPI_Comm comms[3] = { a, b, c3 };
    const char *names[3] = { "interleaved-a", "interleaved-b", "interleaved-c" };
    size_t sizes[] = { 1, f - 1, s / w * f + 1, s * f + 1, 100000 };
    uint64_t state = 42;

    for (int round = 0; round < 45; ++round) {
        int k = round % 3, p;
        vcall c;
        MPI_Comm_size(comms[k], &p);
        c = (vcall) { .comm = comms[k], .comm_name = names[k], .type = &types[round % 2],
                      .root = (int) (st_random(&state) % (uint64_t) p),
                      .short_rank = -1, .seed = 600 + (uint64_t) round };
        layout(&c, p, (int) (st_random(&state) % NPATTERNS),
               (int) (sizes[st_random(&state) % 5] / st_type_size(c.type->single_type)), 0);
        run_call(&c);
    }
}

static int parse_op(const char *name)
{
    for (int i = 0; i <= ALLGATHERV; ++i) {
        if (0 == strcmp(name, op_names[i])) {
            op = (op_t) i;
            return 1;
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    MPI_Comm dup, evenodd, reversed, shared, dup2, dup3;
    int rank, size, evenodd_size;

    st_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc < 2 || !parse_op(argv[1]) || size > MAXP) {
        st_fail("usage: test_vector scatter|scatterv|gather|gatherv|allgather|"
                "allgatherv (at most %d processes)", MAXP);
        return st_finish("test_vector");
    }
    f = (size_t) st_cvar("fragment_size");
    s = (size_t) st_cvar("slots");
    w = (size_t) st_cvar("banks");
    types = st_types();

    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &evenodd);
    MPI_Comm_split(MPI_COMM_WORLD, 0, -rank, &reversed);
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &shared);
    MPI_Comm_dup(MPI_COMM_WORLD, &dup2);
    MPI_Comm_dup(reversed, &dup3);
    MPI_Comm_size(evenodd, &evenodd_size);
    MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(evenodd, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(reversed, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(shared, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(dup2, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(dup3, MPI_ERRORS_RETURN);

    sizes_on(MPI_COMM_WORLD, "world");
    patterns_on(MPI_COMM_WORLD, "world");
    types_on(MPI_COMM_WORLD, "world");
    in_place_on(MPI_COMM_WORLD, "world");
    truncation_on(MPI_COMM_WORLD, "world");
    patterns_on(dup, "dup");
    if (evenodd_size > 1) {
        sizes_on(evenodd, "even/odd");
    }
    types_on(reversed, "reversed-keys");
    in_place_on(reversed, "reversed-keys");
    patterns_on(shared, "split-type-shared");
    interleaved(dup2, dup3, evenodd);

    MPI_Comm_free(&dup);
    MPI_Comm_free(&evenodd);
    MPI_Comm_free(&reversed);
    MPI_Comm_free(&shared);
    MPI_Comm_free(&dup2);
    MPI_Comm_free(&dup3);
    return st_finish("test_vector");
}
