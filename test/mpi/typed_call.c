/*
 * Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
 * $COPYRIGHT$
 *
 * Additional copyrights may follow
 *
 * $HEADER$
 */

/*
 * Every operation has two kinds of buffer: the buffer of blocks, one
 * block per process (Bcast: one block), at the root or, for Allgather(v),
 * everywhere; and the single buffer of every other process (the root's
 * too for Scatter, Gather and the Allgathers, unless MPI_IN_PLACE).
 * "Scatter-like" operations (Bcast, Scatter(v)) move data from the blocks
 * to the single buffers, the others the other way.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "typed_call.h"

/* one count per process */
static int is_v(const tc_call *c)
{
    return !st_op_regular(c->op) && ST_BCAST != c->op;
}

static int is_scatter_like(const tc_call *c)
{
    return ST_BCAST == c->op || ST_SCATTER == c->op || ST_SCATTERV == c->op;
}

int tc_is_allgather(const tc_call *c)
{
    return ST_ALLGATHER == c->op || ST_ALLGATHERV == c->op;
}

/* blocks in the buffer of blocks */
int tc_nblocks(const tc_call *c, int p)
{
    return ST_BCAST == c->op ? 1 : p;
}

/* the block that process i's single buffer corresponds to */
static int block_of(const tc_call *c, int i)
{
    return ST_BCAST == c->op ? 0 : i;
}

/* ---- Layouts --------------------------------------------------------- */

static int count_for(int pattern, int i, int p, int root, int n, uint64_t seed)
{
    uint64_t state = seed * 31 + (uint64_t) i;

    switch (pattern) {
    case TC_ZEROS: return (i % 3 == root % 3) ? 0 : n + i;
    case TC_ONE_HUGE: return i == (root + 1) % p ? 8 * n + 3 : i % 2;
    case TC_RANDOM: return (int) (st_random(&state) % (uint64_t) (2 * n + 1));
    default: return n;
    }
}

void tc_layout(tc_call *c, int p, int pattern, int n, int overlap)
{
    int at = 0;

    for (int i = p - 1; i >= 0; --i) {
        c->counts[i] = is_v(c) ? count_for(pattern, i, p, c->root, n, c->seed) : n;
        c->displs[i] = overlap ? 0 : at;
        at += overlap ? 0 : c->counts[i] + 3;
    }
    for (int i = 0; !is_v(c) && i < p; ++i) {
        c->displs[i] = i * n;
    }
}

/* ---- The call's data, as every process can compute it ----------- */

/* The counts and displacements a process passes for the buffer of
 * blocks: the call's own, except for a short receiver of an Allgather(v),
 * which thinks the next process's block (every block, for Allgather) is
 * half as long. */
typedef struct view {
    int counts[TC_MAXP];
    int displs[TC_MAXP];
} view;

static void blocks_view(const tc_call *c, int me, int p, view *v)
{
    for (int i = 0; i < tc_nblocks(c, p); ++i) {
        v->counts[i] = c->counts[i];
        v->displs[i] = c->displs[i];
    }
    if (!tc_is_allgather(c) || me != c->short_rank) {
        return;
    }
    if (ST_ALLGATHERV == c->op) {
        v->counts[(me + 1) % p] /= 2;
        return;
    }
    for (int i = 0; i < p; ++i) {
        v->counts[i] = c->counts[i] / 2;
        v->displs[i] = i * v->counts[i];
    }
}

static size_t blocks_span(const tc_call *c, int p, const view *v)
{
    MPI_Aint lb, extent;
    size_t span = 1;

    MPI_Type_get_extent(c->type->blocks_type, &lb, &extent);
    for (int i = 0; i < tc_nblocks(c, p); ++i) {
        size_t end = (size_t) v->displs[i] * (size_t) extent
            + st_span(c->type->blocks_type, v->counts[i]);
        span = end > span ? end : span;
    }
    return span;
}

static unsigned char *block_at(unsigned char *buf, const tc_call *c, const view *v, int i)
{
    MPI_Aint lb, extent;

    MPI_Type_get_extent(c->type->blocks_type, &lb, &extent);
    return buf + (size_t) v->displs[i] * (size_t) extent;
}

/* the count process i passes for its single buffer */
static int single_count(const tc_call *c, int i)
{
    int count = c->counts[block_of(c, i)];

    if (i == c->short_rank && is_scatter_like(c)) {
        return count / 2;               /* receives less than is sent */
    }
    if (i == c->short_rank && !tc_is_allgather(c)) {
        return 2 * count + 1;           /* gather: sends more than expected */
    }
    return count;
}

/* the single buffer process i sends (gather, allgather) */
static unsigned char *source_single(const tc_call *c, int i, size_t *span)
{
    int count = single_count(c, i);
    unsigned char *buf;

    *span = st_span(c->type->single_type, count);
    buf = malloc(*span + 1);
    st_fill(buf, *span, c->seed + (uint64_t) i + 1);
    return buf;
}

/* the root's buffer of blocks (scatter-like) */
static unsigned char *source_blocks(const tc_call *c, int p, size_t *span)
{
    view v;
    unsigned char *buf;

    blocks_view(c, c->root, p, &v);
    *span = blocks_span(c, p, &v);
    buf = malloc(*span);
    st_fill(buf, *span, c->seed);
    return buf;
}

/* the message for (scatter-like) or from process i, packed */
static char *message(const tc_call *c, int p, int i, int *size)
{
    size_t span;
    char *packed;

    if (is_scatter_like(c)) {
        view v;
        unsigned char *root_buf = source_blocks(c, p, &span);
        blocks_view(c, c->root, p, &v);
        packed = st_pack(block_at(root_buf, c, &v, block_of(c, i)),
                         c->counts[block_of(c, i)], c->type->blocks_type, size);
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
static void expected_blocks(const tc_call *c, int p, const view *v, unsigned char *image,
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

static int call_op(const tc_call *c, int is_root, const view *v, void *blocks,
                   void *single, int single_count)
{
    MPI_Datatype bt = c->type->blocks_type, st = c->type->single_type;
    /* counts and displacements significant at the root only: NULL elsewhere */
    const int *counts = is_root ? v->counts : NULL, *displs = is_root ? v->displs : NULL;

    switch (c->op) {
    case ST_BCAST:
        return is_root ? MPI_Bcast(blocks, v->counts[0], bt, c->root, c->comm)
                       : MPI_Bcast(single, single_count, st, c->root, c->comm);
    case ST_SCATTER:
        return MPI_Scatter(blocks, v->counts[0], bt, single, single_count, st, c->root,
                           c->comm);
    case ST_SCATTERV:
        return MPI_Scatterv(blocks, counts, displs, bt, single, single_count, st,
                            c->root, c->comm);
    case ST_GATHER:
        return MPI_Gather(single, single_count, st, blocks, v->counts[0], bt, c->root,
                          c->comm);
    case ST_GATHERV:
        return MPI_Gatherv(single, single_count, st, blocks, counts, displs, bt, c->root,
                           c->comm);
    case ST_ALLGATHER:
        return MPI_Allgather(single, single_count, st, blocks, v->counts[0], bt, c->comm);
    default:
        return MPI_Allgatherv(single, single_count, st, blocks, v->counts, v->displs, bt,
                              c->comm);
    }
}

/* whether MPI itself returns at process me before reaching any component
 * (Open MPI 4.1's rules, from the counts this process passes) */
static int skipped_by_mpi(const tc_call *c, int me, int p, const view *v)
{
    int is_root = me == c->root, own = single_count(c, me), all_zero = 1;

    if (p < 2) {
        return 1;
    }
    for (int i = 0; i < p; ++i) {
        all_zero &= 0 == v->counts[i];
    }
    switch (c->op) {
    case ST_BCAST:
        return 0 == (is_root ? v->counts[0] : own);
    case ST_SCATTER:
    case ST_GATHER:
        return 0 == (is_root && c->in_place ? v->counts[0] : own);
    case ST_ALLGATHER:
        return (!c->in_place && 0 == own) || 0 == v->counts[0];
    case ST_ALLGATHERV:
        return all_zero;
    default:
        return 0;
    }
}

int tc_legal(const tc_call *c)
{
    int p, first = -1;

    MPI_Comm_size(c->comm, &p);
    if (0 == st_type_size(c->type->single_type)) {
        return 1;                       /* no process moves a byte */
    }
    for (int me = 0; me < p; ++me) {
        view v;
        int skipped;

        blocks_view(c, me, p, &v);
        skipped = skipped_by_mpi(c, me, p, &v);
        if (first >= 0 && skipped != first) {
            return 0;
        }
        first = skipped;
    }
    return 1;
}

/* whether process me must see MPI_ERR_TRUNCATE */
static int truncated_at(const tc_call *c, int me, int p)
{
    if (c->short_rank < 0 || 0 == st_type_size(c->type->single_type)) {
        return 0;
    }
    if (is_scatter_like(c)) {
        return me == c->short_rank && me != c->root
               && single_count(c, me) < c->counts[block_of(c, me)];
    }
    if (tc_is_allgather(c)) {
        int victim = ST_ALLGATHERV == c->op ? (me + 1) % p : me;
        return me == c->short_rank && c->counts[victim] / 2 < c->counts[victim];
    }
    return me == c->root && c->short_rank != c->root;
}

static void check_bytes(const tc_call *c, const char *what, const void *got,
                        const void *want, size_t bytes)
{
    long at = st_first_diff(got, want, bytes);

    ST_CHECK(at < 0, "%s %s %s root %d counts[0]=%d: %s byte %ld is %#x, expected %#x",
             st_op_name(c->op), c->comm_name, c->type->name, c->root, c->counts[0],
             what, at, at < 0 ? 0 : ((const unsigned char *) got)[at],
             at < 0 ? 0 : ((const unsigned char *) want)[at]);
}

/* the single buffer after the call: what a receiver must have received,
 * or a sender's data unchanged */
static void check_single(const tc_call *c, int me, int p, const st_buf *single,
                         const unsigned char *sent)
{
    ST_CHECK(st_guards_ok(single), "%s %s: guard bytes of the single buffer "
             "overwritten", st_op_name(c->op), c->comm_name);
    if (is_scatter_like(c)) {
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

/* the blocks after the call: a scatter-like root's unchanged, or every
 * block received */
static void check_blocks(const tc_call *c, int p, const view *v, const st_buf *blocks)
{
    unsigned char *image;
    size_t span;

    ST_CHECK(st_guards_ok(blocks), "%s %s: guard bytes of the blocks overwritten",
             st_op_name(c->op), c->comm_name);
    if (is_scatter_like(c)) {
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
static st_buf prepare_blocks(const tc_call *c, int me, int p, const view *v)
{
    st_buf blocks = st_alloc(blocks_span(c, p, v));
    unsigned char *image;
    size_t span;

    if (is_scatter_like(c)) {
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

/* An Allgather(v) with a process whose counts are wrong, across nodes
 * (TC_MULTINODE): that process gets MPI_ERR_TRUNCATE and nothing is
 * written outside any buffer, but the other processes' data is not
 * guaranteed (each node's leader forwards blocks as it sees them). */
int tc_relaxed(const tc_call *c)
{
    return NULL != getenv("TC_MULTINODE") && tc_is_allgather(c) && c->short_rank >= 0;
}

static void check_result(const tc_call *c, int me, int p, const view *v, int err,
                         unsigned long long moved, int served_here)
{
    int cls;

    MPI_Error_class(err, &cls);
    if (tc_relaxed(c) && me != c->short_rank) {
        /* its result is not guaranteed */
    } else if (truncated_at(c, me, p)) {
        ST_CHECK(MPI_ERR_TRUNCATE == cls, "%s %s %s root %d: short count got error "
                 "class %d, expected MPI_ERR_TRUNCATE", st_op_name(c->op),
                 c->comm_name, c->type->name, c->root, cls);
    } else {
        ST_CHECK(MPI_SUCCESS == err, "%s %s %s root %d counts[0]=%d: error class %d",
                 st_op_name(c->op), c->comm_name, c->type->name, c->root,
                 c->counts[0], cls);
    }
    ST_CHECK(moved == (skipped_by_mpi(c, me, p, v) || !served_here ? 0u : 1u),
             "%s %s %s root %d counts[0]=%d: %s_served moved by %llu",
             st_op_name(c->op), c->comm_name, c->type->name, c->root, c->counts[0],
             st_op_name(c->op), moved);
}

/* the counters of op that say whether and how a call was served */
typedef struct tallies {
    unsigned long long served, single, queue, multinode;
} tallies;

static tallies tallies_of(st_op op)
{
    return (tallies) { st_op_counter(op, "served"), st_op_counter(op, "single_copy"),
                       st_op_counter(op, "queue"), st_op_counter(op, "multinode") };
}

/* after the call: each buffer's bytes (or, where the result may be
 * anything, its guard bytes); frees them */
static void check_buffers(const tc_call *c, int me, int p, const view *v, st_buf *single,
                          st_buf *blocks, const unsigned char *sent)
{
    if (NULL != single->data) {
        if (tc_relaxed(c)) {
            ST_CHECK(st_guards_ok(single), "%s %s: guard bytes of the single buffer "
                     "overwritten", st_op_name(c->op), c->comm_name);
        } else {
            check_single(c, me, p, single, sent);
        }
        st_free(single);
    }
    if (NULL != blocks->data) {
        if (tc_relaxed(c)) {
            ST_CHECK(st_guards_ok(blocks), "%s %s: guard bytes of the blocks overwritten",
                     st_op_name(c->op), c->comm_name);
        } else {
            check_blocks(c, p, v, blocks);
        }
        st_free(blocks);
    }
}

void tc_run(const tc_call *c)
{
    int me, p, err, is_root, has_blocks, has_single, served_here;
    unsigned char *sent = NULL;
    st_buf single = { 0 }, blocks = { 0 };
    tallies before, after;
    size_t span;
    view v;

    MPI_Comm_rank(c->comm, &me);
    MPI_Comm_size(c->comm, &p);
    served_here = st_served_here(c->comm);      /* collective: before anything */
    is_root = me == c->root;
    has_blocks = tc_is_allgather(c) || is_root;
    has_single = ST_BCAST == c->op ? !is_root : !(c->in_place && has_blocks);
    blocks_view(c, me, p, &v);
    if (has_single && is_scatter_like(c)) {
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
    before = tallies_of(c->op);
    err = call_op(c, is_root, &v, blocks.data,
                  has_single ? (void *) single.data : MPI_IN_PLACE, single_count(c, me));
    after = tallies_of(c->op);
    check_result(c, me, p, &v, err, after.served - before.served, served_here);
    if (!skipped_by_mpi(c, me, p, &v) && st_type_size(c->type->single_type) > 0) {
        tc_check_transport(c, me, p, served_here, after.multinode != before.multinode,
                        after.single - before.single, after.queue - before.queue);
    }
    check_buffers(c, me, p, &v, &single, &blocks, sent);
    free(sent);
}

/* ---- Communicators -------------------------------------------------- */

void tc_comms_make(tc_comms *c)
{
    MPI_Comm *all[] = { &c->dup, &c->evenodd, &c->reversed, &c->shared, &c->dup2, &c->dup3 };
    int rank;

    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_dup(MPI_COMM_WORLD, &c->dup);
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &c->evenodd);
    MPI_Comm_split(MPI_COMM_WORLD, 0, -rank, &c->reversed);
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &c->shared);
    MPI_Comm_dup(MPI_COMM_WORLD, &c->dup2);
    MPI_Comm_dup(c->reversed, &c->dup3);
    MPI_Comm_size(c->evenodd, &c->evenodd_size);
    for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); ++i) {
        MPI_Comm_set_errhandler(*all[i], MPI_ERRORS_RETURN);
    }
}

void tc_comms_free(tc_comms *c)
{
    MPI_Comm_free(&c->dup);
    MPI_Comm_free(&c->evenodd);
    MPI_Comm_free(&c->reversed);
    MPI_Comm_free(&c->shared);
    MPI_Comm_free(&c->dup2);
    MPI_Comm_free(&c->dup3);
}
