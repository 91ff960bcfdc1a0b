/* -*- Mode: C; c-basic-offset:4 ; indent-tabs-mode:nil -*- */
/*
 * Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
 * $COPYRIGHT$
 *
 * Additional copyrights may follow
 *
 * $HEADER$
 */

/*
 * The operations, described by a table: who sends and who receives
 * which blocks.  Buffers, data checks and the count of calls that
 * coll/shmcico served all work from that description, so no operation
 * has code of its own beyond its MPI call.
 */

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"

#define COLD_POOL_MIN_REGIONS 4

/* ---------------------------------------------------------------- */
/* the calls */

static int call_bcast(const bench_call_t *c)
{
    return MPI_Bcast(c->send, c->layout->counts[0], MPI_BYTE, c->root, c->comm);
}

static int call_scatter(const bench_call_t *c)
{
    int m = c->layout->counts[c->rank];

    return MPI_Scatter(c->send, m, MPI_BYTE, c->recv, m, MPI_BYTE, c->root, c->comm);
}

static int call_scatterv(const bench_call_t *c)
{
    const bench_layout_t *l = c->layout;

    return MPI_Scatterv(c->send, l->counts, l->displs, MPI_BYTE, c->recv,
                        l->counts[c->rank], MPI_BYTE, c->root, c->comm);
}

static int call_gather(const bench_call_t *c)
{
    int m = c->layout->counts[c->rank];

    return MPI_Gather(c->send, m, MPI_BYTE, c->recv, m, MPI_BYTE, c->root, c->comm);
}

static int call_gatherv(const bench_call_t *c)
{
    const bench_layout_t *l = c->layout;

    return MPI_Gatherv(c->send, l->counts[c->rank], MPI_BYTE, c->recv,
                       l->counts, l->displs, MPI_BYTE, c->root, c->comm);
}

static int call_allgather(const bench_call_t *c)
{
    int m = c->layout->counts[c->rank];

    return MPI_Allgather(c->send, m, MPI_BYTE, c->recv, m, MPI_BYTE, c->comm);
}

static int call_allgatherv(const bench_call_t *c)
{
    const bench_layout_t *l = c->layout;

    return MPI_Allgatherv(c->send, l->counts[c->rank], MPI_BYTE, c->recv,
                          l->counts, l->displs, MPI_BYTE, c->comm);
}

/* Self-check patterns of known duration. */
static int call_null(const bench_call_t *c)
{
    (void) c;
    return MPI_SUCCESS;
}

static int call_waitup(const bench_call_t *c)
{
    bench_wait_until(bench_now() + (c->rank + 1) * c->wait_s);
    return MPI_SUCCESS;
}

#define ROOTED_TO_ALL(op, v, text) \
    { .name = #op, .what = text, .counter = #op, \
      .send_who = BENCH_WHO_ROOT, .send_span = BENCH_SPAN_ALL, \
      .recv_who = BENCH_WHO_ALL, .recv_span = BENCH_SPAN_OWN, \
      .vector = v, .sized = true, .call = call_ ## op }
#define ALL_TO(who, op, v, text) \
    { .name = #op, .what = text, .counter = #op, \
      .send_who = BENCH_WHO_ALL, .send_span = BENCH_SPAN_OWN, \
      .recv_who = who, .recv_span = BENCH_SPAN_ALL, \
      .vector = v, .sized = true, .call = call_ ## op }
#define SELF_CHECK(op, text) \
    { .name = #op, .what = text, .counter = NULL, \
      .send_who = BENCH_WHO_NONE, .recv_who = BENCH_WHO_NONE, \
      .sized = false, .call = call_ ## op }

static const bench_op_t ops[BENCH_OP_COUNT] = {
    [BENCH_OP_BCAST] = {
        .name = "bcast", .what = "m bytes from the root to every process",
        .counter = "bcast",
        .send_who = BENCH_WHO_ROOT, .send_span = BENCH_SPAN_ALL,
        .recv_who = BENCH_WHO_NONROOT, .recv_span = BENCH_SPAN_ALL,
        .one_block = true, .sized = true, .call = call_bcast
    },
    [BENCH_OP_SCATTER] = ROOTED_TO_ALL(scatter, false,
        "a block of m bytes from the root to each process"),
    [BENCH_OP_SCATTERV] = ROOTED_TO_ALL(scatterv, true,
        "a block of counts[i] bytes from the root to each process i"),
    [BENCH_OP_GATHER] = ALL_TO(BENCH_WHO_ROOT, gather, false,
        "a block of m bytes from each process to the root"),
    [BENCH_OP_GATHERV] = ALL_TO(BENCH_WHO_ROOT, gatherv, true,
        "a block of counts[i] bytes from each process i to the root"),
    [BENCH_OP_ALLGATHER] = ALL_TO(BENCH_WHO_ALL, allgather, false,
        "a block of m bytes from each process to every process"),
    [BENCH_OP_ALLGATHERV] = ALL_TO(BENCH_WHO_ALL, allgatherv, true,
        "a block of counts[i] bytes from each process i to every process"),
    [BENCH_OP_NULL] = SELF_CHECK(null,
        "self-check: every process returns at once (the method's own overhead)"),
    [BENCH_OP_WAITUP] = SELF_CHECK(waitup,
        "self-check: process r busy-waits (r+1)*D"),
};

const bench_op_t *bench_op(int id)
{
    return &ops[id];
}

int bench_op_find(const char *name)
{
    for (int id = 0; id < BENCH_OP_COUNT; ++id) {
        if (0 == strcmp(ops[id].name, name)) {
            return id;
        }
    }
    return -1;
}

double bench_op_expected(const bench_op_t *op, int nprocs, double wait_s)
{
    if (op == &ops[BENCH_OP_NULL]) {
        return 0;
    }
    if (op == &ops[BENCH_OP_WAITUP]) {
        return nprocs * wait_s;
    }
    return -1;
}

/* Components that implement only some of the operations measured here;
 * on their communicators Open MPI runs the next component for the others. */
static const struct {
    const char *component;
    unsigned ops;
} partial_components[] = {
    { "sm", 1u << BENCH_OP_BCAST },     /* and barrier, reduce, allreduce */
    { "adapt", 1u << BENCH_OP_BCAST },  /* and reduce */
    { "libnbc", 0 },                    /* nonblocking collectives only */
};

bool bench_component_provides(const char *name, const bench_op_t *op)
{
    size_t n = sizeof(partial_components) / sizeof(partial_components[0]);

    if (!op->sized) {
        return true;
    }
    for (size_t i = 0; i < n; ++i) {
        if (0 == strcmp(partial_components[i].component, name)) {
            return 0 != (partial_components[i].ops & (1u << (op - ops)));
        }
    }
    return true;
}

/* ---------------------------------------------------------------- */
/* layouts */

static uint64_t splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* Bytes of block b: m, or drawn in [0, 2m] from the seed, the same
 * sequence on every rank. */
static size_t block_bytes(const bench_op_t *op, size_t m,
                          const bench_options_t *opt, uint64_t *rng)
{
    if (op->vector && BENCH_COUNTS_IRREGULAR == opt->counts) {
        return splitmix64(rng) % (2 * m + 1);
    }
    return op->sized ? m : 0;
}

void bench_layout_make(bench_layout_t *layout, const bench_op_t *op,
                       size_t m, int size, const bench_options_t *opt)
{
    uint64_t rng = opt->counts_seed;

    layout->nblocks = op->one_block ? 1 : size;
    layout->counts = malloc(layout->nblocks * sizeof(int));
    layout->displs = malloc(layout->nblocks * sizeof(int));
    layout->total = 0;
    layout->max_count = 0;
    for (int b = 0; b < layout->nblocks; ++b) {
        size_t bytes = block_bytes(op, m, opt, &rng);

        layout->counts[b] = (int) bytes;
        layout->displs[b] = (int) layout->total;
        layout->total += bytes;
        if (bytes > layout->max_count) {
            layout->max_count = bytes;
        }
    }
}

void bench_layout_free(bench_layout_t *layout)
{
    free(layout->counts);
    free(layout->displs);
    layout->counts = layout->displs = NULL;
}

/* ---------------------------------------------------------------- */
/* buffers */

static size_t span_bytes(const bench_layout_t *layout, bench_span_t span)
{
    return BENCH_SPAN_ALL == span ? layout->total : layout->max_count;
}

static size_t page_round(size_t bytes)
{
    size_t page = (size_t) sysconf(_SC_PAGESIZE);

    return (bytes + page - 1) / page * page;
}

static void pool_grow(bench_pool_t *pool, size_t bytes)
{
    void *base = NULL;

    if (bytes <= pool->allocated) {
        return;
    }
    free(pool->base);
    pool->base = NULL;
    pool->allocated = 0;
    if (0 != posix_memalign(&base, (size_t) sysconf(_SC_PAGESIZE), bytes)) {
        fprintf(stderr, "shmcico-bench: cannot allocate %zu bytes of buffers\n", bytes);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    /* every page is touched once here, not inside a timed launch */
    memset(base, 0, bytes);
    pool->base = base;
    pool->allocated = bytes;
}

/* A region holds a send and (unless received in place) a receive
 * buffer, large enough for any root.  A cold cache cycles through at
 * least 4 regions and cold_pool bytes (64 MiB by default, as IMB's
 * -off_cache), so that each launch finds its buffers out of the
 * private caches; out of a last-level cache only where the pools of
 * the node's ranks are larger than it (docs/performance.md, Method). */
void bench_pool_prepare(bench_pool_t *pool, const bench_op_t *op,
                        const bench_layout_t *layout, bench_cache_t cache,
                        size_t cold_pool)
{
    size_t send = BENCH_WHO_NONE == op->send_who ? 0
                : page_round(span_bytes(layout, op->send_span));
    size_t recv = BENCH_WHO_NONE == op->recv_who || op->one_block ? 0
                : page_round(span_bytes(layout, op->recv_span));

    pool->send_bytes = send;
    pool->region = send + recv;
    pool->nregions = 1;
    if (BENCH_CACHE_COLD == cache && pool->region > 0) {
        pool->nregions = (cold_pool + pool->region - 1) / pool->region;
        if (pool->nregions < COLD_POOL_MIN_REGIONS) {
            pool->nregions = COLD_POOL_MIN_REGIONS;
        }
    }
    pool_grow(pool, pool->region * pool->nregions);
    pool->next = 0;
}

void bench_pool_next(bench_pool_t *pool, const bench_op_t *op,
                     bench_call_t *call)
{
    char *region;

    if (0 == pool->region) {
        call->send = call->recv = NULL;
        return;
    }
    region = pool->base + pool->next * pool->region;
    pool->next = (pool->next + 1) % pool->nregions;
    call->send = region;
    call->recv = op->one_block ? region : region + pool->send_bytes;
}

void bench_pool_free(bench_pool_t *pool)
{
    free(pool->base);
    memset(pool, 0, sizeof(*pool));
}

/* ---------------------------------------------------------------- */
/* data checks */

static bool takes_part(bench_who_t who, int rank, int root)
{
    switch (who) {
    case BENCH_WHO_ROOT:
        return rank == root;
    case BENCH_WHO_NONROOT:
        return rank != root;
    case BENCH_WHO_ALL:
        return true;
    default:
        return false;
    }
}

/* Byte i of block b; the i >> 8 term keeps a block shifted by a
 * multiple of 256 bytes from matching. */
static unsigned char pattern_byte(int block, size_t i)
{
    return (unsigned char) (block * 67 + i * 13 + (i >> 8) + 5);
}

typedef bool (*block_fn_t)(unsigned char *data, int count, int block,
                           unsigned char flip);

static bool fill_block(unsigned char *data, int count, int block,
                       unsigned char flip)
{
    for (int i = 0; i < count; ++i) {
        data[i] = pattern_byte(block, i) ^ flip;
    }
    return true;
}

static bool block_matches(unsigned char *data, int count, int block,
                          unsigned char flip)
{
    for (int i = 0; i < count; ++i) {
        if (data[i] != (pattern_byte(block, i) ^ flip)) {
            return false;
        }
    }
    return true;
}

/* Applies fn to the blocks a buffer holds: all of them at their
 * displacements, or the rank's own block at the start. */
static bool for_each_block(unsigned char *buf, const bench_layout_t *layout,
                           bench_span_t span, int rank, block_fn_t fn,
                           unsigned char flip)
{
    bool ok = true;

    if (BENCH_SPAN_OWN == span) {
        return fn(buf, layout->counts[rank], rank, flip);
    }
    for (int b = 0; b < layout->nblocks; ++b) {
        ok = fn(buf + layout->displs[b], layout->counts[b], b, flip) && ok;
    }
    return ok;
}

/* Receive buffers start with the complement of the expected data, so a
 * byte that was not delivered cannot pass. */
bool bench_check_call(const bench_op_t *op, const bench_call_t *call,
                      bench_tally_t *tally)
{
    const bench_layout_t *l = call->layout;
    bool sends = takes_part(op->send_who, call->rank, call->root);
    bool receives = takes_part(op->recv_who, call->rank, call->root);
    unsigned char *recv = op->one_block ? call->send : call->recv;

    if (receives) {
        for_each_block(recv, l, op->recv_span, call->rank, fill_block, 0xff);
    }
    if (sends) {
        for_each_block(call->send, l, op->send_span, call->rank, fill_block, 0);
    }
    if (MPI_SUCCESS != bench_tallied_call(op, call, tally)) {
        return false;
    }
    return !receives
        || for_each_block(recv, l, op->recv_span, call->rank, block_matches, 0);
}

/* ---------------------------------------------------------------- */
/* coll/shmcico's MPI_T counters */

typedef struct {
    MPI_T_pvar_handle handle;
    bool open;
} counter_t;

static MPI_T_pvar_session session;
static bool session_open;
static counter_t served[BENCH_OP_COUNT], fallback[BENCH_OP_COUNT];

/* A counter that does not exist (component not loaded, or the operation
 * not served yet) stays closed: its calls are reported as n/a. */
static void open_counter(counter_t *counter, const char *op, const char *kind)
{
    char name[96];
    int index, name_len = 0, desc_len = 0, verbosity, var_class, bind;
    int readonly, continuous, atomic, count;
    MPI_Datatype type;
    MPI_T_enum enumtype;

    snprintf(name, sizeof(name), "coll_shmcico_%s_%s", op, kind);
    if (MPI_SUCCESS != MPI_T_pvar_get_index(name, MPI_T_PVAR_CLASS_COUNTER, &index)
        || MPI_SUCCESS != MPI_T_pvar_get_info(index, NULL, &name_len, &verbosity,
                                              &var_class, &type, &enumtype, NULL,
                                              &desc_len, &bind, &readonly,
                                              &continuous, &atomic)
        || MPI_UNSIGNED_LONG_LONG != type
        || MPI_SUCCESS != MPI_T_pvar_handle_alloc(session, index, NULL,
                                                  &counter->handle, &count)) {
        return;
    }
    if (1 != count || (!continuous
                       && MPI_SUCCESS != MPI_T_pvar_start(session, counter->handle))) {
        MPI_T_pvar_handle_free(session, &counter->handle);
        return;
    }
    counter->open = true;
}

static unsigned long long read_counter(counter_t *counter)
{
    unsigned long long value = 0;

    if (counter->open) {
        MPI_T_pvar_read(session, counter->handle, &value);
    }
    return value;
}

void bench_counters_open(void)
{
    int level, provided;

    MPI_Query_thread(&level);           /* MPI_T's level becomes MPI's */
    if (MPI_SUCCESS != MPI_T_init_thread(level, &provided)) {
        return;
    }
    if (MPI_SUCCESS != MPI_T_pvar_session_create(&session)) {
        MPI_T_finalize();
        return;
    }
    session_open = true;
    for (int id = 0; id < BENCH_OP_COUNT; ++id) {
        if (NULL != ops[id].counter) {
            open_counter(&served[id], ops[id].counter, "served");
            open_counter(&fallback[id], ops[id].counter, "fallback");
        }
    }
}

void bench_counters_close(void)
{
    if (!session_open) {
        return;
    }
    for (int id = 0; id < BENCH_OP_COUNT; ++id) {
        if (served[id].open) {
            MPI_T_pvar_handle_free(session, &served[id].handle);
        }
        if (fallback[id].open) {
            MPI_T_pvar_handle_free(session, &fallback[id].handle);
        }
    }
    MPI_T_pvar_session_free(&session);
    MPI_T_finalize();
    session_open = false;
}

bool bench_counters_found(void)
{
    for (int id = 0; id < BENCH_OP_COUNT; ++id) {
        if (served[id].open) {
            return true;
        }
    }
    return false;
}

void bench_tally_reset(bench_tally_t *tally, const bench_op_t *op,
                       bool with_counters)
{
    memset(tally, 0, sizeof(*tally));
    tally->counted = with_counters && served[op - ops].open;
}

/* The counters count every call of the process, so they are read right
 * before and right after each call (outside the timed interval). */
void bench_tally_begin(bench_tally_t *tally, const bench_op_t *op)
{
    if (tally->counted) {
        tally->served_before = read_counter(&served[op - ops]);
        tally->fallback_before = read_counter(&fallback[op - ops]);
    }
}

void bench_tally_end(bench_tally_t *tally, const bench_op_t *op, int rc)
{
    ++tally->calls;
    if (MPI_SUCCESS != rc) {
        ++tally->errors;
    }
    if (tally->counted) {
        tally->served += read_counter(&served[op - ops]) - tally->served_before;
        tally->fallback += read_counter(&fallback[op - ops]) - tally->fallback_before;
    }
}

int bench_tallied_call(const bench_op_t *op, const bench_call_t *call,
                       bench_tally_t *tally)
{
    int rc;

    bench_tally_begin(tally, op);
    rc = op->call(call);
    bench_tally_end(tally, op, rc);
    return rc;
}
