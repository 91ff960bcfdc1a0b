/*
 * Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
 * $COPYRIGHT$
 *
 * Additional copyrights may follow
 *
 * $HEADER$
 */

/*
 * Bad arguments never crash, hang or write past a buffer: the affected
 * processes get an MPI error (MPI_ERRORS_RETURN), the others complete,
 * and the communicator works afterwards.  Run with mpi_param_check 0 so
 * that the arguments reach the component (with Open MPI's own checks on,
 * the MPI layer returns these errors before any component is called).
 *
 *  - a root out of range (the same on every process): MPI_ERR_ROOT;
 *  - a negative count or a NULL buffer with a count at the root of a
 *    Bcast or Scatter(v): every process gets the root's error (they wait
 *    for the root's data anyway, and learn it from the same flag);
 *  - the same at a Gather(v) root: the root gets the error, the senders
 *    complete (a sender does not wait for the root: its part is done);
 *  - the same at any other process, or at any process of an
 *    Allgather(v) (which has no deciding process): that process gets the
 *    error, it still takes part, the others complete; an Allgather(v)
 *    process whose receive counts alone are bad still sends its block,
 *    so the others get every block;
 *  - MPI_IN_PLACE where MPI gives it no meaning (a Bcast buffer, a
 *    Scatter(v) receive buffer or Gather(v) send buffer at a process
 *    other than the root): MPI_ERR_ARG as Open MPI's checks give, at that
 *    process, or everywhere for a Bcast root;
 *  - MPI_IN_PLACE as a buffer of blocks (an Allgatherv receive buffer,
 *    a Gatherv root's receive buffer, a Scatterv root's send buffer),
 *    with displacements that put every block past page 0: MPI_ERR_ARG
 *    at that process (everywhere for the Scatterv root), the others
 *    complete, and the Allgatherv process's block reaches them (it was
 *    taken as address 1 and written to or read from); with its send
 *    buffer in place as well, it sends nothing;
 *  - a receiver with more room than the root sends: success;
 *  - a Scatter root that sends nothing but has room for its own block:
 *    success, every receive buffer untouched; a Gather root that expects
 *    nothing while every process sends: MPI_ERR_TRUNCATE at the root,
 *    the senders complete (blocks of 4 KB and 256 KB, whichever
 *    transport serves them: the root takes part, where it once returned
 *    at once and left the others waiting or a call behind);
 *  - counts or displacements of a v-operation passed as NULL where
 *    they are read (a Gatherv or Scatterv root, an Allgatherv process's
 *    displacements): MPI_ERR_ARG there (everywhere for the Scatterv
 *    root), nothing written into the buffers, the Allgatherv process's
 *    block still reaches the others;
 *  - a NULL buffer whose datatype's data starts 64 bytes before it
 *    (below address 0): MPI_ERR_BUFFER, as for page 0;
 *  - not bad input: MPI_BOTTOM at a Gatherv or Scatterv root with
 *    displacements that are addresses: success, the right data.
 * After every case a correct call of the same operation on the same
 * communicator must succeed with the right data.  The MPI_T counters
 * prove that shmcico served both, the bad call too (it returns the
 * error and keeps every process in step), and handed nothing to the
 * previous component; a root out of range is answered before any
 * serving (MPI_ERR_ROOT, the same on every process), so it counts as
 * neither.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "shmcico_test.h"

#define N 1000
#define GOOD_SEED 777

static int rank, size;
static unsigned long long served_so_far, fallback_so_far;

/* Since the last check, shmcico served calls calls and handed none on. */
static void served_since(unsigned long long calls, const char *after)
{
    unsigned long long served = st_counter_sum("served"), fallback = st_counter_sum("fallback");

    ST_CHECK(served - served_so_far == calls, "after %s: %llu calls served, expected %llu",
             after, served - served_so_far, calls);
    ST_CHECK(fallback == fallback_so_far, "after %s: %llu calls handed on", after,
             fallback - fallback_so_far);
    served_so_far = served;
    fallback_so_far = fallback;
}

static int error_class(int err)
{
    int cls = MPI_SUCCESS;

    MPI_Error_class(err, &cls);
    return cls;
}

/* the communicator still works: a correct call of op, served by shmcico
 * as was the bad one before it (none where the root was out of range) */
static void still_works_after(st_op op, const char *after, unsigned long long bad_served)
{
    int counts[64];

    for (int i = 0; i < size; ++i) {
        counts[i] = 100 + i;
    }
    if (st_op_regular(op)) {
        for (int i = 0; i < size; ++i) {
            counts[i] = 100;
        }
    }
    ST_CHECK(MPI_SUCCESS == st_simple_call(op, MPI_COMM_WORLD, size - 1, counts, GOOD_SEED),
             "%s after %s: a correct call failed", st_op_name(op), after);
    served_since(bad_served + 1, after);
}

static void still_works(st_op op, const char *after)
{
    still_works_after(op, after, 1);
}

static void expect(int err, int want, const char *what)
{
    ST_CHECK(error_class(err) == want, "%s: error class %d, expected %d", what,
             error_class(err), want);
}

/* a case's send and receive buffers: untouched around, then freed */
static void free_checked(st_buf *sbuf, st_buf *rbuf, const char *what)
{
    ST_CHECK(st_guards_ok(sbuf) && st_guards_ok(rbuf), "%s: guard bytes overwritten", what);
    st_free(sbuf);
    st_free(rbuf);
}

static void bcast_cases(void)
{
    st_buf buf = st_alloc(N * sizeof(int));
    int err;

    err = MPI_Bcast(buf.data, N, MPI_INT, size, MPI_COMM_WORLD);
    expect(err, MPI_ERR_ROOT, "bcast, root out of range");
    still_works_after(ST_BCAST, "a root out of range", 0);

    err = MPI_Bcast(buf.data, 0 == rank ? -1 : N, MPI_INT, 0, MPI_COMM_WORLD);
    expect(err, MPI_ERR_COUNT, "bcast, negative count at the root");
    still_works(ST_BCAST, "a negative count at the root");

    err = MPI_Bcast(1 == rank ? NULL : buf.data, N, MPI_INT, 0, MPI_COMM_WORLD);
    expect(err, 1 == rank ? MPI_ERR_BUFFER : MPI_SUCCESS, "bcast, NULL buffer at rank 1");
    still_works(ST_BCAST, "a NULL buffer at a receiver");

    err = MPI_Bcast(0 == rank ? NULL : buf.data, N, MPI_INT, 0, MPI_COMM_WORLD);
    expect(err, MPI_ERR_BUFFER, "bcast, NULL buffer at the root");
    still_works(ST_BCAST, "a NULL buffer at the root");

    err = MPI_Bcast(buf.data, 1 == rank ? -5 : N, MPI_INT, 0, MPI_COMM_WORLD);
    expect(err, 1 == rank ? MPI_ERR_COUNT : MPI_SUCCESS, "bcast, negative count at rank 1");
    still_works(ST_BCAST, "a negative count at a receiver");

    err = MPI_Bcast(1 == rank ? MPI_IN_PLACE : buf.data, N, MPI_INT, 0, MPI_COMM_WORLD);
    expect(err, 1 == rank ? MPI_ERR_ARG : MPI_SUCCESS, "bcast, MPI_IN_PLACE at rank 1");
    still_works(ST_BCAST, "MPI_IN_PLACE at a receiver");

    err = MPI_Bcast(0 == rank ? MPI_IN_PLACE : buf.data, N, MPI_INT, 0, MPI_COMM_WORLD);
    expect(err, MPI_ERR_ARG, "bcast, MPI_IN_PLACE at the root");
    still_works(ST_BCAST, "MPI_IN_PLACE at the root");

    /* the same with a datatype of absolute addresses, a block small
     * enough for the small path (which took MPI_IN_PLACE + lb for data) */
    {
        MPI_Aint at;
        MPI_Datatype absolute;
        int len = 16;
        MPI_Get_address(buf.data, &at);
        MPI_Type_create_hindexed(1, &len, &at, MPI_INT, &absolute);
        MPI_Type_commit(&absolute);
        err = MPI_Bcast(1 == rank ? MPI_IN_PLACE : MPI_BOTTOM, 1, absolute, 0, MPI_COMM_WORLD);
        expect(err, 1 == rank ? MPI_ERR_ARG : MPI_SUCCESS,
               "bcast, MPI_IN_PLACE at rank 1 with absolute addresses");
        MPI_Type_free(&absolute);
        still_works(ST_BCAST, "MPI_IN_PLACE with absolute addresses");
    }

    /* a receiver with more room than the root sends gets what was sent */
    if (0 == rank) {
        st_fill(buf.data, N / 2 * sizeof(int), 5);
    }
    err = MPI_Bcast(buf.data, 0 == rank ? N / 2 : N, MPI_INT, 0, MPI_COMM_WORLD);
    expect(err, MPI_SUCCESS, "bcast, receivers with more room");
    ST_CHECK(st_first_wrong(buf.data, N / 2 * sizeof(int), 5) < 0,
             "bcast, receivers with more room: wrong data");
    served_since(1, "receivers with more room");
    ST_CHECK(st_guards_ok(&buf), "bcast: guard bytes overwritten");
    st_free(&buf);
}

static void scatterv_cases(void)
{
    int counts[64], displs[64];
    st_buf sbuf = st_alloc((size_t) size * N * sizeof(int)), rbuf = st_alloc(N * sizeof(int));
    int err;

    for (int i = 0; i < size; ++i) {
        counts[i] = N;
        displs[i] = i * N;
    }
    counts[size - 1] = -1;
    err = MPI_Scatterv(sbuf.data, counts, displs, MPI_INT, rbuf.data, N, MPI_INT, 0,
                       MPI_COMM_WORLD);
    expect(err, MPI_ERR_COUNT, "scatterv, negative count at the root");
    counts[size - 1] = N;
    still_works(ST_SCATTERV, "a negative count at the root");

    err = MPI_Scatterv(0 == rank ? NULL : sbuf.data, counts, displs, MPI_INT, rbuf.data, N,
                       MPI_INT, 0, MPI_COMM_WORLD);
    expect(err, MPI_ERR_BUFFER, "scatterv, NULL send buffer at the root");
    still_works(ST_SCATTERV, "a NULL send buffer at the root");

    err = MPI_Scatterv(sbuf.data, counts, displs, MPI_INT, 1 == rank ? NULL : rbuf.data, N,
                       MPI_INT, 0, MPI_COMM_WORLD);
    expect(err, 1 == rank ? MPI_ERR_BUFFER : MPI_SUCCESS,
           "scatterv, NULL receive buffer at rank 1");
    still_works(ST_SCATTERV, "a NULL receive buffer at a receiver");

    err = MPI_Scatterv(sbuf.data, counts, displs, MPI_INT, 1 == rank ? MPI_IN_PLACE : rbuf.data,
                       N, MPI_INT, 0, MPI_COMM_WORLD);
    expect(err, 1 == rank ? MPI_ERR_ARG : MPI_SUCCESS, "scatterv, MPI_IN_PLACE at rank 1");
    still_works(ST_SCATTERV, "MPI_IN_PLACE at a receiver");

    err = MPI_Scatter(sbuf.data, N, MPI_INT, rbuf.data, N, MPI_INT, size, MPI_COMM_WORLD);
    expect(err, MPI_ERR_ROOT, "scatter, root out of range");
    still_works_after(ST_SCATTER, "a root out of range", 0);
    free_checked(&sbuf, &rbuf, "scatterv");
}

static void gatherv_cases(void)
{
    int counts[64], displs[64];
    st_buf rbuf = st_alloc((size_t) size * N * sizeof(int)), sbuf = st_alloc(N * sizeof(int));
    int err;

    for (int i = 0; i < size; ++i) {
        counts[i] = N;
        displs[i] = i * N;
    }
    counts[1] = -3;
    err = MPI_Gatherv(sbuf.data, N, MPI_INT, rbuf.data, counts, displs, MPI_INT, 0,
                      MPI_COMM_WORLD);
    expect(err, 0 == rank ? MPI_ERR_COUNT : MPI_SUCCESS, "gatherv, negative count at the root");
    counts[1] = N;
    still_works(ST_GATHERV, "a negative count at the root");

    err = MPI_Gatherv(1 == rank ? NULL : sbuf.data, N, MPI_INT, rbuf.data, counts, displs,
                      MPI_INT, 0, MPI_COMM_WORLD);
    expect(err, 1 == rank ? MPI_ERR_BUFFER : MPI_SUCCESS, "gatherv, NULL send buffer at rank 1");
    still_works(ST_GATHERV, "a NULL send buffer at a sender");

    err = MPI_Gather(1 == rank ? MPI_IN_PLACE : sbuf.data, N, MPI_INT, rbuf.data, N, MPI_INT, 0,
                     MPI_COMM_WORLD);
    expect(err, 1 == rank ? MPI_ERR_ARG : MPI_SUCCESS, "gather, MPI_IN_PLACE at rank 1");
    still_works(ST_GATHER, "MPI_IN_PLACE at a sender");

    err = MPI_Gather(sbuf.data, N, MPI_INT, 0 == rank ? NULL : rbuf.data, N, MPI_INT, 0,
                     MPI_COMM_WORLD);
    expect(err, 0 == rank ? MPI_ERR_BUFFER : MPI_SUCCESS,
           "gather, NULL receive buffer at the root");
    still_works(ST_GATHER, "a NULL receive buffer at the root");
    free_checked(&sbuf, &rbuf, "gatherv");
}

/* Scatter and Gather whose root's blocks are empty while every other
 * count is n ints (its own block included) */
static void empty_root_blocks(int n)
{
    st_buf all = st_alloc((size_t) size * n * sizeof(int)), mine = st_alloc(n * sizeof(int));
    char what[64];
    int err;

    st_fill(mine.data, n * sizeof(int), 31);
    err = MPI_Scatter(all.data, 0 == rank ? 0 : n, MPI_INT, mine.data, n, MPI_INT, 0,
                      MPI_COMM_WORLD);
    snprintf(what, sizeof(what), "scatter of %d ints, nothing sent by the root", n);
    expect(err, MPI_SUCCESS, what);
    ST_CHECK(st_first_wrong(mine.data, n * sizeof(int), 31) < 0, "%s: a buffer changed", what);
    still_works(ST_SCATTER, what);

    st_fill(all.data, (size_t) size * n * sizeof(int), 32);
    err = MPI_Gather(mine.data, n, MPI_INT, all.data, 0 == rank ? 0 : n, MPI_INT, 0,
                     MPI_COMM_WORLD);
    snprintf(what, sizeof(what), "gather of %d ints, nothing expected by the root", n);
    expect(err, 0 == rank ? MPI_ERR_TRUNCATE : MPI_SUCCESS, what);
    ST_CHECK(st_first_wrong(all.data, (size_t) size * n * sizeof(int), 32) < 0,
             "%s: the root's buffer changed", what);
    still_works(ST_GATHER, what);
    ST_CHECK(st_guards_ok(&all) && st_guards_ok(&mine), "%s: guard bytes overwritten", what);
    st_free(&all);
    st_free(&mine);
}

/* Not bad input: a Gatherv and a Scatterv whose root passes MPI_BOTTOM
 * with displacements that are the blocks' addresses (in a mapping low
 * enough for an int), of n bytes each: success and the right data (the
 * skeleton took MPI_BOTTOM for a NULL buffer and answered
 * MPI_ERR_BUFFER, where the small path served the same call). */
static void bottom_with_addresses(int n)
{
    int counts[64], displs[64], err;
    st_buf mine = st_alloc((size_t) n);
    unsigned char *low = MAP_FAILED;
    char what[64];

    for (uintptr_t at = (uintptr_t) 1 << 28; MAP_FAILED == low && at < (uintptr_t) 1 << 31;
         at += (uintptr_t) 1 << 26) {
        low = mmap((void *) at, (size_t) size * n, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
    }
    ST_CHECK(MAP_FAILED != low, "no mapping below 2 GiB for MPI_BOTTOM");
    if (MAP_FAILED == low) {
        st_free(&mine);
        return;
    }
    for (int i = 0; i < size; ++i) {
        counts[i] = n;
        displs[i] = (int) ((uintptr_t) low + (size_t) i * n);
    }
    snprintf(what, sizeof(what), "gatherv of %d bytes into MPI_BOTTOM", n);
    st_fill(mine.data, (size_t) n, 50 + (uint64_t) rank);
    err = MPI_Gatherv(mine.data, n, MPI_BYTE, MPI_BOTTOM, counts, displs, MPI_BYTE, 0,
                      MPI_COMM_WORLD);
    expect(err, MPI_SUCCESS, what);
    for (int i = 0; 0 == rank && i < size; ++i) {
        ST_CHECK(st_first_wrong(low + (size_t) i * n, (size_t) n, 50 + (uint64_t) i) < 0,
                 "%s: block %d wrong", what, i);
    }
    served_since(1, what);
    snprintf(what, sizeof(what), "scatterv of %d bytes from MPI_BOTTOM", n);
    for (int i = 0; 0 == rank && i < size; ++i) {
        st_fill(low + (size_t) i * n, (size_t) n, 60 + (uint64_t) i);
    }
    err = MPI_Scatterv(MPI_BOTTOM, counts, displs, MPI_BYTE, mine.data, n, MPI_BYTE, 0,
                       MPI_COMM_WORLD);
    expect(err, MPI_SUCCESS, what);
    ST_CHECK(st_first_wrong(mine.data, (size_t) n, 60 + (uint64_t) rank) < 0, "%s: wrong data",
             what);
    served_since(1, what);
    ST_CHECK(st_guards_ok(&mine), "%s: guard bytes overwritten", what);
    munmap(low, (size_t) size * n);
    st_free(&mine);
}

static void allgatherv_cases(void)
{
    int counts[64], displs[64];
    st_buf rbuf = st_alloc((size_t) size * N * sizeof(int)), sbuf = st_alloc(N * sizeof(int));
    int err;

    for (int i = 0; i < size; ++i) {
        counts[i] = N;
        displs[i] = i * N;
    }
    if (0 == rank) {
        counts[size - 1] = -1;
    }
    st_fill(sbuf.data, N * sizeof(int), 40 + (uint64_t) rank);
    err = MPI_Allgatherv(sbuf.data, N, MPI_INT, rbuf.data, counts, displs, MPI_INT,
                         MPI_COMM_WORLD);
    expect(err, 0 == rank ? MPI_ERR_COUNT : MPI_SUCCESS, "allgatherv, negative count at rank 0");
    /* rank 0's send buffer was good: its block reached the others (it
     * once announced a fault instead, and they returned success without
     * it) */
    for (int i = 0; 0 != rank && i < size; ++i) {
        ST_CHECK(st_first_wrong((int *) rbuf.data + (size_t) i * N, N * sizeof(int),
                                40 + (uint64_t) i) < 0,
                 "allgatherv, negative count at rank 0: block %d wrong at rank %d", i, rank);
    }
    counts[size - 1] = N;
    still_works(ST_ALLGATHERV, "a negative count at rank 0");

    err = MPI_Allgatherv(1 == rank ? NULL : sbuf.data, N, MPI_INT, rbuf.data, counts, displs,
                         MPI_INT, MPI_COMM_WORLD);
    expect(err, 1 == rank ? MPI_ERR_BUFFER : MPI_SUCCESS,
           "allgatherv, NULL send buffer at rank 1");
    still_works(ST_ALLGATHERV, "a NULL send buffer at rank 1");
    free_checked(&sbuf, &rbuf, "allgatherv");
}

/* MPI_IN_PLACE where a buffer of blocks belongs, every block at least
 * a page past it */
static void in_place_blocks(void)
{
    int counts[64], displs[64];
    size_t past = 4096 / sizeof(int);
    st_buf rbuf = st_alloc((past + (size_t) size * N) * sizeof(int));
    st_buf sbuf = st_alloc(N * sizeof(int));
    int *blocks = (int *) rbuf.data + past, err;

    for (int i = 0; i < size; ++i) {
        counts[i] = N;
        displs[i] = (int) past + i * N;
    }
    st_fill(sbuf.data, N * sizeof(int), 50 + (uint64_t) rank);
    err = MPI_Allgatherv(sbuf.data, N, MPI_INT, 1 == rank ? MPI_IN_PLACE : rbuf.data, counts,
                         displs, MPI_INT, MPI_COMM_WORLD);
    expect(err, 1 == rank ? MPI_ERR_ARG : MPI_SUCCESS, "allgatherv into MPI_IN_PLACE at rank 1");
    for (int i = 0; 1 != rank && i < size; ++i) {
        ST_CHECK(st_first_wrong(blocks + (size_t) i * N, N * sizeof(int), 50 + (uint64_t) i) < 0,
                 "allgatherv into MPI_IN_PLACE at rank 1: block %d wrong at rank %d", i, rank);
    }
    still_works(ST_ALLGATHERV, "MPI_IN_PLACE as a receive buffer of blocks");

    err = MPI_Gatherv(sbuf.data, N, MPI_INT, 0 == rank ? MPI_IN_PLACE : rbuf.data, counts,
                      displs, MPI_INT, 0, MPI_COMM_WORLD);
    expect(err, 0 == rank ? MPI_ERR_ARG : MPI_SUCCESS, "gatherv into MPI_IN_PLACE at the root");
    still_works(ST_GATHERV, "MPI_IN_PLACE as the root's receive buffer");

    err = MPI_Scatterv(0 == rank ? MPI_IN_PLACE : sbuf.data, counts, displs, MPI_INT,
                       sbuf.data, N, MPI_INT, 0, MPI_COMM_WORLD);
    expect(err, MPI_ERR_ARG, "scatterv from MPI_IN_PLACE at the root");
    still_works(ST_SCATTERV, "MPI_IN_PLACE as the root's send buffer");

    /* in place at both ends: the block it would send sits in the buffer
     * of blocks, so it sends none (it once sent from address 4097) */
    err = MPI_Allgatherv(1 == rank ? MPI_IN_PLACE : sbuf.data, N, MPI_INT,
                         1 == rank ? MPI_IN_PLACE : rbuf.data, counts, displs, MPI_INT,
                         MPI_COMM_WORLD);
    expect(err, 1 == rank ? MPI_ERR_ARG : MPI_SUCCESS,
           "allgatherv in place into MPI_IN_PLACE at rank 1");
    still_works(ST_ALLGATHERV, "MPI_IN_PLACE at both ends");
    free_checked(&sbuf, &rbuf, "in place blocks");
}

/* A v-operation's counts or displacements passed as NULL where they are
 * read (blocks of n ints): MPI_ERR_ARG at that process, which still
 * takes part, nothing written into its buffer of blocks (every block
 * once landed at offset 0 of a Gatherv root's buffer, with success) */
static void missing_arrays(int n)
{
    int counts[64], displs[64];
    st_buf all = st_alloc((size_t) size * n * sizeof(int)), mine = st_alloc(n * sizeof(int));
    size_t all_bytes = (size_t) size * n * sizeof(int);
    char what[96];
    int err;

    for (int i = 0; i < size; ++i) {
        counts[i] = n;
        displs[i] = i * n;
    }
    for (int k = 0; k < 2; ++k) {
        const int *c = 0 == k ? NULL : counts, *d = 0 == k ? displs : NULL;
        const char *which = 0 == k ? "counts" : "displacements";

        st_fill(all.data, all_bytes, 60);
        st_fill(mine.data, n * sizeof(int), 61 + (uint64_t) rank);
        err = MPI_Gatherv(mine.data, n, MPI_INT, all.data, 0 == rank ? c : counts,
                          0 == rank ? d : displs, MPI_INT, 0, MPI_COMM_WORLD);
        snprintf(what, sizeof(what), "gatherv of %d ints, NULL %s at the root", n, which);
        expect(err, 0 == rank ? MPI_ERR_ARG : MPI_SUCCESS, what);
        ST_CHECK(0 != rank || st_first_wrong(all.data, all_bytes, 60) < 0,
                 "%s: the root's buffer changed", what);
        still_works(ST_GATHERV, what);

        st_fill(mine.data, n * sizeof(int), 62);
        err = MPI_Scatterv(all.data, 0 == rank ? c : counts, 0 == rank ? d : displs, MPI_INT,
                           mine.data, n, MPI_INT, 0, MPI_COMM_WORLD);
        snprintf(what, sizeof(what), "scatterv of %d ints, NULL %s at the root", n, which);
        expect(err, MPI_ERR_ARG, what);
        ST_CHECK(st_first_wrong(mine.data, n * sizeof(int), 62) < 0,
                 "%s: a receive buffer changed", what);
        still_works(ST_SCATTERV, what);

        if (NULL == c) {
            continue;               /* Open MPI's MPI_Allgatherv reads them itself */
        }
        st_fill(mine.data, n * sizeof(int), 70 + (uint64_t) rank);
        err = MPI_Allgatherv(mine.data, n, MPI_INT, all.data, 1 == rank ? c : counts,
                             1 == rank ? d : displs, MPI_INT, MPI_COMM_WORLD);
        snprintf(what, sizeof(what), "allgatherv of %d ints, NULL %s at rank 1", n, which);
        expect(err, 1 == rank ? MPI_ERR_ARG : MPI_SUCCESS, what);
        /* rank 1 still sent its block */
        for (int i = 0; 1 != rank && i < size; ++i) {
            ST_CHECK(st_first_wrong((int *) all.data + (size_t) i * n, n * sizeof(int),
                                    70 + (uint64_t) i) < 0,
                     "%s: block %d wrong at rank %d", what, i, rank);
        }
        still_works(ST_ALLGATHERV, what);
    }
    free_checked(&mine, &all, "missing arrays");
}

/* A NULL buffer with a datatype whose data starts before its address
 * (a true lower bound of -64 bytes) would start below address 0, not in
 * page 0: still MPI_ERR_BUFFER (it once passed the check by wrapping
 * around, and the copy crashed) */
static void null_below_zero(int n)
{
    st_buf buf = st_alloc(((size_t) n + 16) * sizeof(int));
    int len = n, err;
    MPI_Aint back = -64;
    MPI_Datatype before;
    char what[96];

    MPI_Type_create_hindexed(1, &len, &back, MPI_INT, &before);
    MPI_Type_commit(&before);
    err = MPI_Bcast(1 == rank ? NULL : (char *) buf.data + 64, 1, before, 0, MPI_COMM_WORLD);
    snprintf(what, sizeof(what), "bcast of %d ints, NULL buffer at rank 1, lower bound -64", n);
    expect(err, 1 == rank ? MPI_ERR_BUFFER : MPI_SUCCESS, what);
    still_works(ST_BCAST, what);

    /* a Gather root's NULL buffer of blocks: block 0 would start below 0 */
    err = MPI_Gather((char *) buf.data + 64, 1, before, 0 == rank ? NULL : buf.data, 1, before,
                     0, MPI_COMM_WORLD);
    snprintf(what, sizeof(what), "gather of %d ints, NULL buffer at the root, lower bound -64",
             n);
    expect(err, 0 == rank ? MPI_ERR_BUFFER : MPI_SUCCESS, what);
    still_works(ST_GATHER, what);
    MPI_Type_free(&before);
    ST_CHECK(st_guards_ok(&buf), "%s: guard bytes overwritten", what);
    st_free(&buf);
}

int main(int argc, char **argv)
{
    st_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size < 2 || size > 64) {
        st_fail("run on 2 to 64 processes");
        return st_finish("test_badinput");
    }
    served_so_far = st_counter_sum("served");
    fallback_so_far = st_counter_sum("fallback");
    bcast_cases();
    scatterv_cases();
    gatherv_cases();
    empty_root_blocks(N);           /* 4 KB */
    empty_root_blocks(64 * N);      /* 256 KB */
    bottom_with_addresses(100);     /* the small path */
    bottom_with_addresses(65536);   /* the skeleton */
    allgatherv_cases();
    in_place_blocks();
    missing_arrays(N);              /* the small path's blocks */
    missing_arrays(64 * N);         /* the skeleton's */
    null_below_zero(N);
    null_below_zero(64 * N);
    return st_finish("test_badinput");
}
