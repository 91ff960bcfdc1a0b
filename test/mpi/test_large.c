/*
 * Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
 * $COPYRIGHT$
 *
 * Additional copyrights may follow
 *
 * $HEADER$
 */

/*
 * 64-bit sizes end to end: a Gatherv whose total is over 2^31 bytes, with
 * a block that starts more than 2^31 bytes into the root's buffer, and the
 * Scatterv that sends it back; then an Allgather of blocks of 2^31 + 13
 * bytes, each one single copy of more than the kernel moves in one call;
 * every byte checked, all served by coll/shmcico, the Allgather by single
 * copy; then a Bcast of 2^31 + 13 bytes by single copy and through the
 * queues (a communicator with the hint shmcico_single_copy=off), and a
 * Scatter and a Gather of blocks of 2^31 + 13 bytes by single copy, the
 * transport of each proved by its counters.  Needs (2p + 1) blocks of
 * 1.2 GB, then p + 1 blocks of 2 GiB per process (13 GB at np 2).
 *
 * "test_large multinode" (on simulated nodes, 2x2: ranks 0 and 1 on one
 * node, 2 and 3 on the other): Gatherv and Scatterv across nodes with
 * blocks of another node over 2^31 bytes, and blocks that together pass
 * 2^31; then Gather and Scatter to and from rank 2, and an Allgather, of
 * blocks of 683 MiB, whose displacements (rank x count bytes) pass 2^31
 * on the second node; every byte checked, every call served across nodes
 * by coll/shmcico; with test/mpi/fault_malloc.c preloaded, a Gatherv
 * whose leader cannot allocate
 * its node's message while a block of 1.2 GB comes to it apart.  Needs
 * about 14 GB at a time.
 * "test_large single": single copy works between the processes (the
 * suite runs where the kernel allows it), so each call that can go by
 * single copy must, whatever the component's own setup found.
 * Run by "make check-large", which test/run-tests.sh runs.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shmcico_test.h"

#define BLOCK_DOUBLES 150000000     /* 1.2 GB per process */

static double value(int rank, size_t i)
{
    return (double) rank * 1e9 + (double) i;
}

static long first_wrong(const double *block, int rank, size_t n)
{
    for (size_t i = 0; i < n; ++i) {
        if (block[i] != value(rank, i)) {
            return (long) i;
        }
    }
    return -1;
}

/* a type of BIG_BYTES bytes: two halves of 2^30 and 13 bytes */
#define BIG_BYTES ((size_t) 2147483661)     /* 2^31 + 13 */

static MPI_Datatype big_type(void)
{
    MPI_Datatype half, parts[2], big;
    int lens[2] = { 2, 13 };
    MPI_Aint displs[2] = { 0, (MPI_Aint) 1 << 31 };

    MPI_Type_contiguous(1 << 30, MPI_BYTE, &half);
    parts[0] = half;
    parts[1] = MPI_BYTE;
    MPI_Type_create_struct(2, lens, displs, parts, &big);
    MPI_Type_commit(&big);
    MPI_Type_free(&half);
    return big;
}

static unsigned char big_value(int rank, size_t i)
{
    return (unsigned char) ((size_t) rank * 31 + i % 251);
}

/* bytes, or the job ends: the other processes would wait in the call */
static void *must_alloc(size_t bytes, int rank, const char *what)
{
    void *p = malloc(bytes);

    if (NULL == p) {
        fprintf(stderr, "test_large: rank %d: no memory for the %s\n", rank, what);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    return p;
}

/* rank's bytes repeat every 251: a chunk of PATTERN_BYTES (a multiple of
 * 251) holds them from any offset that is a multiple of it, so blocks of
 * gigabytes are filled and checked with memcpy() and memcmp() */
#define PATTERN_BYTES ((size_t) 251 * 4096)

static const unsigned char *pattern_of(int rank)
{
    static unsigned char pattern[PATTERN_BYTES];
    static int made_for = -1;

    for (size_t i = 0; made_for != rank && i < PATTERN_BYTES; ++i) {
        pattern[i] = big_value(rank, i);
    }
    made_for = rank;
    return pattern;
}

static void fill_block(unsigned char *block, size_t bytes, int rank)
{
    const unsigned char *pattern = pattern_of(rank);

    for (size_t at = 0; at < bytes; at += PATTERN_BYTES) {
        memcpy(block + at, pattern, bytes - at < PATTERN_BYTES ? bytes - at : PATTERN_BYTES);
    }
}

/* block holds rank's bytes: checked, what = the call */
static void check_block(const unsigned char *block, size_t bytes, int rank, const char *what)
{
    const unsigned char *pattern = pattern_of(rank);
    size_t at = 0, n = bytes < PATTERN_BYTES ? bytes : PATTERN_BYTES;

    while (at < bytes && 0 == memcmp(block + at, pattern, n)) {
        at += n;
        n = bytes - at < PATTERN_BYTES ? bytes - at : PATTERN_BYTES;
    }
    while (at < bytes && block[at] == big_value(rank, at)) {     /* the first wrong byte */
        ++at;
    }
    ST_CHECK(at == bytes, "%s: block of rank %d wrong at byte %zu", what, rank, at);
}

static void fill_big(unsigned char *block, int rank)
{
    fill_block(block, BIG_BYTES, rank);
}

static void check_big(const unsigned char *block, int rank, const char *what)
{
    check_block(block, BIG_BYTES, rank, what);
}

/* "test_large single": the kernel allows single copy between the
 * processes, so the calls that can go by single copy must */
static int expect_single;

/* whether the calls that can go by single copy must: as the suite says,
 * else as the segment's setup found */
static int single_works(void)
{
    return expect_single || st_counter("single_copy_comms") > 0;
}

/* An Allgather of one block of 2^31 + 13 bytes from every process: one
 * chunk by single copy, more than the kernel moves in one call. */
static void check_allgather(int rank, int size)
{
    unsigned char *mine = must_alloc(BIG_BYTES, rank, "allgather");
    unsigned char *all = must_alloc((size_t) size * BIG_BYTES, rank, "allgather");
    unsigned long long served = st_counter("allgather_served");
    unsigned long long single = st_counter("allgather_single_copy");
    MPI_Datatype big = big_type();
    int err;

    fill_big(mine, rank);
    err = MPI_Allgather(mine, 1, big, all, 1, big, MPI_COMM_WORLD);
    ST_CHECK(MPI_SUCCESS == err, "allgather error %d", err);
    ST_CHECK(1 == st_counter("allgather_served") - served, "allgather not served by shmcico");
    /* by single copy wherever the kernel allows it between the processes */
    ST_CHECK(st_counter("allgather_single_copy") - single == (unsigned) single_works(),
             "allgather: single copy +%llu, expected +%d", st_counter("allgather_single_copy")
             - single, single_works());
    for (int b = 0; MPI_SUCCESS == err && b < size; ++b) {
        check_big(all + (size_t) b * BIG_BYTES, b, "allgather");
    }
    MPI_Type_free(&big);
    free(mine);
    free(all);
}

/* an operation's counters: calls served, by single copy, through the queues */
typedef struct served_t {
    unsigned long long served, single, queue;
} served_t;

static unsigned long long counter_of(const char *op, const char *what)
{
    char name[64];

    snprintf(name, sizeof(name), "%s_%s", op, what);
    return st_counter(name);
}

static served_t served_now(const char *op)
{
    return (served_t) { counter_of(op, "served"), counter_of(op, "single_copy"),
                        counter_of(op, "queue") };
}

/* one call of op was served since before, by single copy (single) or
 * through the queues */
static void check_served_by(const char *op, int single, served_t before)
{
    served_t now = served_now(op);
    unsigned long long v = now.served - before.served, s = now.single - before.single;
    unsigned long long q = now.queue - before.queue;

    ST_CHECK(1 == v && s == (unsigned) single && q == (unsigned) !single,
             "%s of 2^31 + 13 bytes: served +%llu, single copy +%llu, queue +%llu; expected "
             "+1 +%d +%d", op, v, s, q, single, !single);
}

/* A Bcast of 2^31 + 13 bytes from rank 0 on comm, by single copy or not */
static void check_bcast(MPI_Comm comm, int rank, int single, const char *what)
{
    unsigned char *data = must_alloc(BIG_BYTES, rank, "bcast");
    served_t before = served_now("bcast");
    MPI_Datatype big = big_type();
    int err;

    memset(data, 0, BIG_BYTES);
    if (0 == rank) {
        fill_big(data, 0);
    }
    err = MPI_Bcast(data, 1, big, 0, comm);
    ST_CHECK(MPI_SUCCESS == err, "%s: error %d", what, err);
    check_served_by("bcast", single, before);
    check_big(data, 0, what);
    MPI_Type_free(&big);
    free(data);
}

/* A Scatter from rank 0, then a Gather back to it, of one block of
 * 2^31 + 13 bytes per process, by single copy where it works */
static void check_scatter_gather(int rank, int size)
{
    unsigned char *mine = must_alloc(BIG_BYTES, rank, "scatter"), *all = NULL;
    MPI_Datatype big = big_type();
    served_t before;
    int err;

    all = 0 == rank ? must_alloc((size_t) size * BIG_BYTES, rank, "scatter") : NULL;
    for (int b = 0; 0 == rank && b < size; ++b) {
        fill_big(all + (size_t) b * BIG_BYTES, b);
    }
    memset(mine, 0, BIG_BYTES);
    before = served_now("scatter");
    err = MPI_Scatter(all, 1, big, mine, 1, big, 0, MPI_COMM_WORLD);
    ST_CHECK(MPI_SUCCESS == err, "scatter error %d", err);
    check_served_by("scatter", single_works(), before);
    check_big(mine, rank, "scatter");
    if (0 == rank) {
        memset(all, 0, (size_t) size * BIG_BYTES);
    }
    before = served_now("gather");
    err = MPI_Gather(mine, 1, big, all, 1, big, 0, MPI_COMM_WORLD);
    ST_CHECK(MPI_SUCCESS == err, "gather error %d", err);
    check_served_by("gather", single_works(), before);
    for (int b = 0; 0 == rank && b < size; ++b) {
        check_big(all + (size_t) b * BIG_BYTES, b, "gather");
    }
    MPI_Type_free(&big);
    free(all);
    free(mine);
}

/* Bcast by both transports, Scatter and Gather by single copy */
static void check_rooted(int rank, int size)
{
    MPI_Info info;
    MPI_Comm queues;

    check_bcast(MPI_COMM_WORLD, rank, single_works(), "bcast by single copy");
    MPI_Info_create(&info);
    MPI_Info_set(info, "shmcico_single_copy", "off");
    MPI_Comm_dup_with_info(MPI_COMM_WORLD, info, &queues);
    MPI_Info_free(&info);
    check_bcast(queues, rank, 0, "bcast through the queues");
    MPI_Comm_free(&queues);
    check_scatter_gather(rank, size);
}

/* ---- across nodes ------------------------------------------------ */

#define OVER_2GIB_DOUBLES (((size_t) 1 << 28) + 4)     /* 2^31 + 32 bytes */
#define OVER_1GIB_DOUBLES ((size_t) 150000000)          /* 1.2 GB */

/* A Gatherv to rank 0 of blocks of counts[] doubles, then the Scatterv
 * that sends them back, across two nodes (ranks 2 and 3 on the other
 * node): every block checked where it arrives. */
static void check_across(int rank, int size, const int *counts, const char *what)
{
    int displs[4], err;
    size_t total = 0;
    double *mine = malloc((size_t) counts[rank] * sizeof(double)), *all = NULL;
    unsigned long long g0 = st_counter("gatherv_multinode");
    unsigned long long s0 = st_counter("scatterv_multinode");

    for (int i = 0; i < size; ++i) {
        displs[i] = (int) total;
        total += (size_t) counts[i];
    }
    all = 0 == rank ? malloc(total * sizeof(double)) : NULL;
    if (NULL == mine || (0 == rank && NULL == all)) {
        fprintf(stderr, "test_large: rank %d: no memory (%s)\n", rank, what);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    for (size_t i = 0; i < (size_t) counts[rank]; ++i) {
        mine[i] = value(rank, i);
    }
    err = MPI_Gatherv(mine, counts[rank], MPI_DOUBLE, all, counts, displs, MPI_DOUBLE, 0,
                      MPI_COMM_WORLD);
    ST_CHECK(MPI_SUCCESS == err, "%s: gatherv error %d", what, err);
    ST_CHECK(1 == st_counter("gatherv_multinode") - g0, "%s: gatherv not served across nodes",
             what);
    for (int i = 0; 0 == rank && i < size; ++i) {
        long at = first_wrong(all + displs[i], i, (size_t) counts[i]);
        ST_CHECK(at < 0, "%s: gatherv: block %d wrong at element %ld", what, i, at);
    }
    memset(mine, 0, (size_t) counts[rank] * sizeof(double));
    err = MPI_Scatterv(all, counts, displs, MPI_DOUBLE, mine, counts[rank], MPI_DOUBLE, 0,
                       MPI_COMM_WORLD);
    ST_CHECK(MPI_SUCCESS == err, "%s: scatterv error %d", what, err);
    ST_CHECK(1 == st_counter("scatterv_multinode") - s0,
             "%s: scatterv not served across nodes", what);
    ST_CHECK(first_wrong(mine, rank, (size_t) counts[rank]) < 0, "%s: scatterv: block wrong",
             what);
    free(all);
    free(mine);
}

#define REGULAR_BYTES ((size_t) 715827883)    /* 3 x this > 2^31 - 1 */

static void check_regular(const unsigned char *block, int rank, const char *what)
{
    check_block(block, REGULAR_BYTES, rank, what);
}

/* Gather to rank 2, Scatter from it, and Allgather, of REGULAR_BYTES
 * per process: the root's node holds ranks 2 and 3, whose blocks lie
 * past 2^31 bytes into the buffer of blocks */
static void check_regular_across(int rank, int size)
{
    unsigned char *mine = must_alloc(REGULAR_BYTES, rank, "regular blocks"), *all = NULL;
    unsigned long long g0 = st_counter("gather_multinode"), s0 = st_counter("scatter_multinode");
    unsigned long long a0 = st_counter("allgather_multinode");
    int err;

    fill_block(mine, REGULAR_BYTES, rank);
    /* the other processes' buffers of blocks only for the Allgather: the
     * leaders' messages need memory too (at most about 14 GB at a time) */
    all = 2 == rank ? must_alloc((size_t) size * REGULAR_BYTES, rank, "regular blocks") : NULL;
    err = MPI_Gather(mine, (int) REGULAR_BYTES, MPI_BYTE, all, (int) REGULAR_BYTES, MPI_BYTE, 2,
                     MPI_COMM_WORLD);
    ST_CHECK(MPI_SUCCESS == err && 1 == st_counter("gather_multinode") - g0,
             "gather of 683 MiB blocks: error %d, not served across nodes?", err);
    for (int b = 0; 2 == rank && b < size; ++b) {
        check_regular(all + (size_t) b * REGULAR_BYTES, b, "gather");
    }
    memset(mine, 0, REGULAR_BYTES);
    err = MPI_Scatter(all, (int) REGULAR_BYTES, MPI_BYTE, mine, (int) REGULAR_BYTES, MPI_BYTE,
                      2, MPI_COMM_WORLD);
    ST_CHECK(MPI_SUCCESS == err && 1 == st_counter("scatter_multinode") - s0,
             "scatter of 683 MiB blocks: error %d, not served across nodes?", err);
    check_regular(mine, rank, "scatter");
    all = NULL != all ? all : must_alloc((size_t) size * REGULAR_BYTES, rank, "regular blocks");
    memset(all, 0, (size_t) size * REGULAR_BYTES);
    err = MPI_Allgather(mine, (int) REGULAR_BYTES, MPI_BYTE, all, (int) REGULAR_BYTES,
                        MPI_BYTE, MPI_COMM_WORLD);
    ST_CHECK(MPI_SUCCESS == err && 1 == st_counter("allgather_multinode") - a0,
             "allgather of 683 MiB blocks: error %d, not served across nodes?", err);
    for (int b = 0; b < size; ++b) {
        check_regular(all + (size_t) b * REGULAR_BYTES, b, "allgather");
    }
    free(all);
    free(mine);
}

/* A Gatherv to rank 0 whose block of rank 3 (1.2 GB) goes to its leader,
 * rank 2, apart, while rank 2 cannot allocate its node's message
 * (test/mpi/fault_malloc.c): rank 2 returns MPI_ERR_NO_MEM, the root an
 * error, rank 3 is not left waiting with its block, and the next Gatherv
 * is right. */
static void no_memory_apart(int rank, int size)
{
    const int counts[4] = { 5, 7, 3, (int) OVER_1GIB_DOUBLES }, small[4] = { 5, 7, 3, 9 };
    int displs[4], cls, err;
    double *mine = must_alloc((size_t) counts[rank] * sizeof(double), rank, "apart"), *all;

    all = must_alloc(0 == rank ? (OVER_1GIB_DOUBLES + 15) * sizeof(double) : 1, rank, "apart");
    for (int i = 0, at = 0; i < size; at += counts[i++]) {
        displs[i] = at;
    }
    for (size_t i = 0; i < (size_t) counts[rank]; ++i) {
        mine[i] = value(rank, i);
    }
    if (2 == rank) {
        (void) st_fault_malloc_from(100000000);
    }
    err = MPI_Gatherv(mine, counts[rank], MPI_DOUBLE, all, counts, displs, MPI_DOUBLE, 0,
                      MPI_COMM_WORLD);
    (void) st_fault_malloc_from(0);
    MPI_Error_class(err, &cls);
    ST_CHECK(2 == rank ? MPI_ERR_NO_MEM == cls : 0 == rank ? MPI_SUCCESS != cls
             : MPI_SUCCESS == cls, "no memory at rank 2 for a block apart: rank %d error %d",
             rank, cls);
    for (int i = 0, at = 0; i < size; at += small[i++]) {
        displs[i] = at;
    }
    err = MPI_Gatherv(mine, small[rank], MPI_DOUBLE, all, small, displs, MPI_DOUBLE, 0,
                      MPI_COMM_WORLD);
    ST_CHECK(MPI_SUCCESS == err, "the Gatherv after: error %d", err);
    for (int i = 0; 0 == rank && i < size; ++i) {
        ST_CHECK(first_wrong(all + displs[i], i, (size_t) small[i]) < 0,
                 "the Gatherv after: block %d wrong", i);
    }
    free(all);
    free(mine);
}

static int check_multinode(int rank, int size)
{
    /* node order on the other node: rank 2 (its leader), then rank 3 */
    const int member_over[4] = { 5, 7, 3, (int) OVER_2GIB_DOUBLES };
    const int leader_over[4] = { 5, 7, (int) OVER_2GIB_DOUBLES, 3 };
    const int both_over_1gib[4] = { 5, 7, (int) OVER_1GIB_DOUBLES, (int) OVER_1GIB_DOUBLES };

    ST_CHECK(4 == size, "run on 2x2 simulated nodes (np 4), not np %d", size);
    if (4 == size) {
        check_across(rank, size, member_over, "a member's block over 2 GiB");
        check_across(rank, size, leader_over, "the leader's block over 2 GiB, one after it");
        check_across(rank, size, both_over_1gib, "two blocks of 1.2 GB");
        check_regular_across(rank, size);
        if (st_fault_malloc_from(0)) {
            no_memory_apart(rank, size);
        }
    }
    return st_finish("test_large multinode");
}

int main(int argc, char **argv)
{
    int rank, size, *counts, *displs, err;
    double *mine, *all = NULL;
    size_t total = 0;
    unsigned long long g0, s0;

    st_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc > 1 && 0 == strcmp(argv[1], "multinode")) {
        return check_multinode(rank, size);
    }
    expect_single = argc > 1 && 0 == strcmp(argv[1], "single");
    /* counters count from their first read: before the first segment */
    (void) st_counter("single_copy_comms");
    counts = malloc(size * sizeof(int));
    displs = malloc(size * sizeof(int));
    for (int i = 0; i < size; ++i) {
        /* a gap of one block before the last one: its offset passes 2^31 */
        counts[i] = BLOCK_DOUBLES;
        displs[i] = (i + (i == size - 1)) * BLOCK_DOUBLES;
    }
    total = (size_t) (size + 1) * BLOCK_DOUBLES;
    mine = malloc((size_t) BLOCK_DOUBLES * sizeof(double));
    for (size_t i = 0; i < BLOCK_DOUBLES; ++i) {
        mine[i] = value(rank, i);
    }
    if (0 == rank) {
        all = malloc(total * sizeof(double));
        ST_CHECK(NULL != all, "no memory for %zu bytes", total * sizeof(double));
        printf("test_large: gatherv of %zu bytes, last block at byte offset %zu\n",
               (size_t) size * BLOCK_DOUBLES * sizeof(double),
               (size_t) displs[size - 1] * sizeof(double));
    }
    g0 = st_counter("gatherv_served");
    err = MPI_Gatherv(mine, BLOCK_DOUBLES, MPI_DOUBLE, all, counts, displs, MPI_DOUBLE, 0,
                      MPI_COMM_WORLD);
    ST_CHECK(MPI_SUCCESS == err, "gatherv error %d", err);
    ST_CHECK(1 == st_counter("gatherv_served") - g0, "gatherv not served by shmcico");
    for (int i = 0; 0 == rank && i < size; ++i) {
        long at = first_wrong(all + displs[i], i, BLOCK_DOUBLES);
        ST_CHECK(at < 0, "gatherv: block %d wrong at element %ld", i, at);
    }

    memset(mine, 0, (size_t) BLOCK_DOUBLES * sizeof(double));
    s0 = st_counter("scatterv_served");
    err = MPI_Scatterv(all, counts, displs, MPI_DOUBLE, mine, BLOCK_DOUBLES, MPI_DOUBLE, 0,
                       MPI_COMM_WORLD);
    ST_CHECK(MPI_SUCCESS == err, "scatterv error %d", err);
    ST_CHECK(1 == st_counter("scatterv_served") - s0, "scatterv not served by shmcico");
    ST_CHECK(first_wrong(mine, rank, BLOCK_DOUBLES) < 0, "scatterv: block wrong");

    free(all);
    free(mine);
    check_allgather(rank, size);
    check_rooted(rank, size);
    free(counts);
    free(displs);
    return st_finish("test_large");
}
