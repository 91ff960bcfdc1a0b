/*
 * Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
 * $COPYRIGHT$
 *
 * Additional copyrights may follow
 *
 * $HEADER$
 */

/*
 * Which transport serves each block, proved with the MPI_T counters
 * coll_shmcico_<op>_queue and coll_shmcico_<op>_single_copy (each moves
 * by one for a served call in which a block this process sends or
 * receives went that way), and which calls the small-call path served
 * (coll_shmcico_<op>_small: every block this process has is one queue
 * fragment below the crossover):
 *  - every operation, blocks below, at and above its crossover
 *    (coll_shmcico_<op>_single_copy_min) and of 4 MiB, every root; on a
 *    communicator of more than coll_shmcico_<op>_single_copy_max_procs
 *    processes (by default Bcast 4, Allgather(v) 8) every block through
 *    the queues;
 *  - v-variants with one block above the crossover and the others below:
 *    both transports in one call, each process counting the blocks it
 *    takes part in;
 *  - derived datatypes: a vector of 8-byte pieces (not worth a single
 *    copy: through the queues, and not by the small path even when it
 *    is one fragment), a vector of 4 KiB pieces (single copy);
 *  - a Scatter whose receivers take a vector of 64 pieces and call
 *    late, after the root has sent;
 *  - Gather(v) senders of 8 bytes and 12 KiB return before the root
 *    calls: the root waits for a message each sends after its call;
 *  - a sender writes a queued block of at least
 *    coll_shmcico_streaming_min bytes (and more than a flag carries) with
 *    streaming stores, counted in coll_shmcico_<op>_streamed_bytes, or of
 *    at least coll_shmcico_near_streaming_min where the processes are
 *    near one another (told by coll_shmcico_nearness, or found by the
 *    setup) and that is the larger; a layout the convertor packs, with
 *    ordinary stores; where they are near and the communicator has at
 *    most 4 processes, the crossovers are at least
 *    coll_shmcico_near_single_copy_min;
 *  - the setup's verdict on the kernel's copy of cold data (the median
 *    of the processes' measures, coll_shmcico_slow_kernel_comms) is the
 *    same on every process; where the floors are set it is "slow" when
 *    rank 0's coll_shmcico_cache_probe_kernel_ratio is 1 (any measure is
 *    at least that, whatever the others' parameters) and not when it is
 *    0; where it is slow and the communicator has at most 4 processes, a
 *    block goes by single copy only from rank 0's
 *    coll_shmcico_<op>_slow_kernel_single_copy_min, whatever the
 *    others' are: its sender's choice, which its receivers follow;
 *  - an Allgather process whose receive buffer is bad still sends its
 *    block, which the others receive, and counts it cold where the
 *    probe finds it so;
 *  - every byte checked, every call served.
 * Modes:
 *   single    single copy works (coll_shmcico_single_copy_comms moved)
 *   off       run with coll_shmcico_single_copy off: queues only, nothing
 *             refused
 *   cold      run with coll_shmcico_cache_probe_ns 1: the cache probe
 *             finds every block cold, so a block up to its operation's
 *             coll_shmcico_<op>_cache_probe_max (for a Bcast of 3 or
 *             more processes at least
 *             coll_shmcico_bcast_readers_cache_probe_max) goes through the queues
 *             whatever its size, a larger one by single copy; its sender
 *             counts it in coll_shmcico_<op>_cold, its receivers follow;
 *             a call that a size limit (the shmcico_max_bytes hint) hands
 *             over counts no block
 *   refused   the processes make themselves non-dumpable before
 *             MPI_Init and run without CAP_SYS_PTRACE (the suite drops it
 *             from the bounding set): the kernel refuses CMA between
 *             them, the segment's setup finds out
 *             (coll_shmcico_single_copy_refused moved), every block goes
 *             through the queues and the data is right.
 *
 * Usage: test_transport single|cold|off|refused
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "shmcico_test.h"

static int rank, size;
static int single_works;
static int all_cold;            /* every probed block found cold */
static unsigned long long slow_floor[ST_NOPS];  /* the world's slow-kernel floors */
static int comms = 1;           /* communicators with a segment: the world's, dups */

/* the transports a process must count for its part of a call */
typedef struct expect_t {
    int single;
    int queue;
    int small;
    int cold;                   /* blocks this process sends that the probe turned */
    unsigned long long streamed;    /* bytes it writes with streaming stores */
} expect_t;

static size_t fragment;
static size_t streaming_min;    /* coll_shmcico_streaming_min, or near_streaming_min */
static int near;                /* the processes are near one another (told, or found
                                   by MPI_COMM_WORLD's setup) */
enum { INLINE = 32 };           /* bytes a flag carries */

typedef struct limits_t {
    size_t min;                 /* coll_shmcico_<op>_single_copy_min */
    size_t probe_max;           /* coll_shmcico_<op>_cache_probe_max */
    int single;                 /* single copy works, and the communicator has at most
                                   coll_shmcico_<op>_single_copy_max_procs processes */
} limits_t;

/* a block of bytes, sent by this process or not: its sender decides */
static void note(expect_t *e, size_t bytes, limits_t l, int sends)
{
    int by_size = bytes > 0 && bytes >= l.min && l.single;

    if (by_size && all_cold && bytes <= l.probe_max) {
        e->queue = 1;
        e->cold += sends;
    } else if (by_size) {
        e->single = 1;
        return;
    } else {
        e->queue = 1;
    }
    if (sends && 0 != streaming_min && bytes >= streaming_min && bytes > INLINE) {
        e->streamed += bytes;
    }
}

/* the small path serves a process whose every block is one fragment
 * that does not go by single copy */
static int small_for(size_t largest, limits_t l)
{
    return largest <= fragment && (!l.single || largest < l.min);
}

/* whether this process sends block j of op to another process */
static int sends(st_op op, int root, int j)
{
    switch (op) {
    case ST_SCATTER:
    case ST_SCATTERV: return rank == root && j != root;
    case ST_GATHER:
    case ST_GATHERV: return j == rank && rank != root;
    default: return j == rank;
    }
}

/* process me's part of op with these block sizes */
static expect_t expected(st_op op, int root, const int *counts, limits_t l)
{
    expect_t e = { 0, 0, 0, 0, 0 };
    int all = ST_ALLGATHER == op || ST_ALLGATHERV == op || (ST_BCAST != op && rank == root);
    size_t largest = (size_t) counts[ST_BCAST == op ? 0 : rank];

    if (ST_BCAST == op) {
        note(&e, (size_t) counts[0], l, rank == root);
        e.small = small_for(largest, l);
        return e;
    }
    for (int j = 0; j < size; ++j) {
        int takes_part = ST_ALLGATHER == op || ST_ALLGATHERV == op
            ? 1 : j != root && (rank == root || rank == j);
        if (takes_part) {
            note(&e, (size_t) counts[j], l, sends(op, root, j));
        }
        if (all && (size_t) counts[j] > largest) {
            largest = (size_t) counts[j];
        }
    }
    e.small = small_for(largest, l);
    return e;
}

static limits_t limits_of(st_op op)
{
    limits_t l;

    l.min = (size_t) st_single_min(op, size, near);
    if (single_works) {
        /* the communicator's floor, which each sender applies */
        size_t floor = (size_t) slow_floor[op];
        l.min = floor > l.min ? floor : l.min;
    }
    l.probe_max = (size_t) st_probe_max(op, size);
    l.single = single_works && st_single_copy_procs_ok(op, size);
    return l;
}

static void call_and_check(st_op op, int root, const int *counts, limits_t l, uint64_t seed)
{
    unsigned long long s0 = st_op_counter(op, "single_copy"), q0 = st_op_counter(op, "queue");
    unsigned long long v0 = st_op_counter(op, "served"), m0 = st_op_counter(op, "small");
    unsigned long long c0 = st_op_counter(op, "cold"), t0 = st_op_counter(op, "streamed_bytes");
    expect_t e = expected(op, root, counts, l);

    st_simple_call(op, MPI_COMM_WORLD, root, counts, seed);
    ST_CHECK(st_op_counter(op, "served") - v0 == 1, "%s counts[0]=%d: not served",
             st_op_name(op), counts[0]);
    ST_CHECK(st_op_counter(op, "single_copy") - s0 == (unsigned) e.single
             && st_op_counter(op, "queue") - q0 == (unsigned) e.queue,
             "%s root %d counts[0]=%d counts[1]=%d: single copy +%llu queue +%llu, "
             "expected +%d +%d", st_op_name(op), root, counts[0], counts[1 % size],
             st_op_counter(op, "single_copy") - s0, st_op_counter(op, "queue") - q0,
             e.single, e.queue);
    ST_CHECK(st_op_counter(op, "small") - m0 == (unsigned) e.small,
             "%s root %d counts[0]=%d counts[1]=%d: small path +%llu, expected +%d",
             st_op_name(op), root, counts[0], counts[1 % size], st_op_counter(op, "small") - m0,
             e.small);
    ST_CHECK(st_op_counter(op, "cold") - c0 == (unsigned) e.cold,
             "%s root %d counts[0]=%d counts[1]=%d: blocks found cold +%llu, expected +%d",
             st_op_name(op), root, counts[0], counts[1 % size], st_op_counter(op, "cold") - c0,
             e.cold);
    ST_CHECK(st_op_counter(op, "streamed_bytes") - t0 == e.streamed,
             "%s root %d counts[0]=%d counts[1]=%d: streamed +%llu bytes, expected +%llu",
             st_op_name(op), root, counts[0], counts[1 % size],
             st_op_counter(op, "streamed_bytes") - t0, e.streamed);
}

/* every operation below, at and above its crossover and the largest
 * block it probes (an operation that probes none: twice the crossover),
 * every root (Allgather(v), which has none, once) */
static void sizes(void)
{
    for (int op = 0; op < ST_NOPS; ++op) {
        limits_t l = limits_of((st_op) op);
        size_t min = l.min, probed = l.probe_max > 0 ? l.probe_max : 2 * min;
        size_t list[] = { 8, 32, 33, fragment, fragment + 1, min - 1, min, min + 1,
                          4 * min + 3, 4 << 20, probed, probed + 1 };
        int roots = ST_ALLGATHER == op || ST_ALLGATHERV == op ? 1 : size;
        for (size_t i = 0; i < sizeof(list) / sizeof(list[0]); ++i) {
            for (int root = 0; root < roots; ++root) {
                int counts[64];
                for (int j = 0; j < size; ++j) {
                    counts[j] = (int) list[i];
                }
                call_and_check((st_op) op, root, counts, l, 10 * i + (uint64_t) root);
            }
        }
    }
}

/* one block above the crossover, the others below (zeros too) */
static void mixed(void)
{
    static const st_op ops[] = { ST_SCATTERV, ST_GATHERV, ST_ALLGATHERV };

    for (size_t k = 0; k < sizeof(ops) / sizeof(ops[0]); ++k) {
        limits_t l = limits_of(ops[k]);
        size_t min = l.min;

        for (int root = 0; root < size; ++root) {
            int counts[64];
            for (int j = 0; j < size; ++j) {
                counts[j] = j == (root + 1) % size ? (int) (2 * min + 5) : (j % 2) * 100;
            }
            call_and_check(ops[k], root, counts, l, 900 + (uint64_t) root);
        }
    }
}

/* A Bcast over the size limit of its communicator's hint goes to the
 * previous component: no process counts it served, nor a block of it
 * cold, though the root probed its block before the limit's verdict. */
static void declined_counts_no_cold(void)
{
    limits_t l = limits_of(ST_BCAST);
    size_t bytes = l.probe_max > l.min ? l.probe_max : l.min;  /* single copy by size */
    unsigned long long v0 = st_op_counter(ST_BCAST, "served"), c0 = st_op_counter(ST_BCAST, "cold");
    int counts[64];
    MPI_Info info;
    MPI_Comm comm;

    MPI_Info_create(&info);
    MPI_Info_set(info, "shmcico_max_bytes", "bcast:1000");
    MPI_Comm_dup_with_info(MPI_COMM_WORLD, info, &comm);
    MPI_Info_free(&info);
    ++comms;
    for (int j = 0; j < size; ++j) {
        counts[j] = (int) bytes;
    }
    (void) st_simple_call(ST_BCAST, comm, 0, counts, 77);
    ST_CHECK(st_op_counter(ST_BCAST, "served") == v0, "bcast over the hint's limit: served +%llu",
             st_op_counter(ST_BCAST, "served") - v0);
    ST_CHECK(st_op_counter(ST_BCAST, "cold") == c0,
             "bcast over the hint's limit: found cold +%llu", st_op_counter(ST_BCAST, "cold") - c0);
    MPI_Comm_free(&comm);
}

/* An Allgather whose last process passes a receive buffer in page 0:
 * it gets MPI_ERR_BUFFER, but its send buffer is good, so its block
 * goes to the others (it once announced a fault and they skipped it)
 * and counts cold where the probe found it so. */
static void bad_receiver_still_sends(void)
{
    limits_t l = limits_of(ST_ALLGATHER);
    size_t bytes = l.probe_max > l.min ? l.probe_max : l.min;  /* single copy by size */
    unsigned long long c0 = st_op_counter(ST_ALLGATHER, "cold");
    unsigned long long v0 = st_op_counter(ST_ALLGATHER, "served");
    char *mine = malloc(bytes), *all = malloc(bytes * (size_t) size);
    int err, bad = rank == size - 1, cold = all_cold && bytes <= l.probe_max;

    memset(mine, rank + 1, bytes);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    err = MPI_Allgather(mine, (int) bytes, MPI_BYTE, bad ? (void *) 64 : all, (int) bytes,
                        MPI_BYTE, MPI_COMM_WORLD);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    ST_CHECK(bad ? MPI_SUCCESS != err : MPI_SUCCESS == err,
             "allgather with a receive buffer in page 0 at rank %d: error %d here", size - 1,
             err);
    ST_CHECK(1 == st_op_counter(ST_ALLGATHER, "served") - v0, "allgather with a bad buffer: "
             "served +%llu", st_op_counter(ST_ALLGATHER, "served") - v0);
    ST_CHECK(st_op_counter(ST_ALLGATHER, "cold") - c0 == (unsigned) cold,
             "allgather with a bad buffer at rank %d: blocks found cold +%llu, expected +%d",
             size - 1, st_op_counter(ST_ALLGATHER, "cold") - c0, cold);
    for (size_t i = 0; !bad && i < bytes; ++i) {
        if (all[(size_t) (size - 1) * bytes + i] != (char) size) {
            st_fail("allgather with a bad buffer at rank %d: its block wrong at byte %zu here",
                    size - 1, i);
            break;
        }
    }
    free(mine);
    free(all);
}

/* A Bcast of a vector of pieces of piece bytes: worth a single copy
 * only when the pieces are large. */
static void vector_bcast(int pieces, int piece_doubles, int want_single)
{
    MPI_Datatype vec;
    size_t span = (size_t) pieces * 2 * piece_doubles * sizeof(double);
    st_buf buf = st_alloc(span);
    unsigned long long s0 = st_op_counter(ST_BCAST, "single_copy");
    unsigned long long q0 = st_op_counter(ST_BCAST, "queue");
    unsigned long long m0 = st_op_counter(ST_BCAST, "small");
    unsigned long long c0 = st_op_counter(ST_BCAST, "cold");
    unsigned long long t0 = st_op_counter(ST_BCAST, "streamed_bytes");
    size_t bytes = (size_t) pieces * piece_doubles * sizeof(double);
    int by_size = want_single && limits_of(ST_BCAST).single;
    int cold = by_size && all_cold && bytes <= limits_of(ST_BCAST).probe_max;
    int single = by_size && !cold;
    double *d = (double *) buf.data;
    int err;

    MPI_Type_vector(pieces, piece_doubles, 2 * piece_doubles, MPI_DOUBLE, &vec);
    MPI_Type_commit(&vec);
    for (size_t i = 0; i < span / sizeof(double); ++i) {
        d[i] = 0 == rank ? (double) i : -1.0;
    }
    err = MPI_Bcast(buf.data, 1, vec, 0, MPI_COMM_WORLD);
    ST_CHECK(MPI_SUCCESS == err, "vector bcast: error %d", err);
    for (size_t i = 0; i < span / sizeof(double); ++i) {
        int in_type = (i / (size_t) piece_doubles) % 2 == 0;
        double want = in_type || 0 == rank ? (double) i : -1.0;
        if (d[i] != want) {
            st_fail("vector bcast of %d-double pieces: element %zu is %g", piece_doubles, i,
                    d[i]);
            break;
        }
    }
    ST_CHECK(st_guards_ok(&buf), "vector bcast: guards overwritten");
    ST_CHECK(st_op_counter(ST_BCAST, "single_copy") - s0 == (unsigned) single
             && st_op_counter(ST_BCAST, "queue") - q0 == (unsigned) !single,
             "vector bcast of %d-double pieces: single copy +%llu queue +%llu", piece_doubles,
             st_op_counter(ST_BCAST, "single_copy") - s0, st_op_counter(ST_BCAST, "queue") - q0);
    ST_CHECK(st_op_counter(ST_BCAST, "small") == m0, "vector bcast of %d pieces: small path",
             pieces);
    ST_CHECK(st_op_counter(ST_BCAST, "cold") - c0 == (unsigned) (cold && 0 == rank),
             "vector bcast of %d-double pieces: found cold +%llu", piece_doubles,
             st_op_counter(ST_BCAST, "cold") - c0);
    ST_CHECK(st_op_counter(ST_BCAST, "streamed_bytes") == t0,
             "vector bcast of %d-double pieces: packed, yet streamed +%llu bytes",
             piece_doubles, st_op_counter(ST_BCAST, "streamed_bytes") - t0);
    MPI_Type_free(&vec);
    st_free(&buf);
}

/* A Scatter whose receivers take their block as a vector of 64 pieces
 * and call late: the root has sent (through the queues when the block
 * is found cold) before a receiver posts its pieces, which must not land
 * on the root's first fragment. */
static void vector_scatter_late(void)
{
    enum { PIECES = 64, PIECE = 512 };
    size_t n = (size_t) PIECES * PIECE, span = 2 * n * sizeof(double);
    st_buf send = st_alloc(0 == rank ? n * sizeof(double) * (size_t) size : 8);
    st_buf recv = st_alloc(span);
    double *d = (double *) recv.data, *out = (double *) send.data;
    unsigned long long q0 = st_op_counter(ST_SCATTER, "queue");
    unsigned long long s0 = st_op_counter(ST_SCATTER, "single_copy");
    limits_t l = limits_of(ST_SCATTER);
    int cold = all_cold && n * sizeof(double) <= l.probe_max, single = l.single && !cold;
    MPI_Datatype vec;
    int err;

    MPI_Type_vector(PIECES, PIECE, 2 * PIECE, MPI_DOUBLE, &vec);
    MPI_Type_commit(&vec);
    for (size_t i = 0; 0 == rank && i < n * (size_t) size; ++i) {
        out[i] = (double) i;
    }
    for (size_t i = 0; i < span / sizeof(double); ++i) {
        d[i] = -1.0;
    }
    if (0 != rank) {
        usleep(20000);      /* the root sends first */
    }
    err = MPI_Scatter(send.data, (int) n, MPI_DOUBLE, recv.data, 1, vec, 0, MPI_COMM_WORLD);
    ST_CHECK(MPI_SUCCESS == err, "late vector scatter: error %d", err);
    for (size_t i = 0; i < span / sizeof(double); ++i) {
        size_t piece = i / PIECE, packed = piece / 2 * PIECE + i % PIECE;
        double want = 0 == piece % 2 ? (double) ((size_t) rank * n + packed) : -1.0;
        if (d[i] != want) {
            st_fail("late vector scatter: element %zu is %g, not %g", i, d[i], want);
            break;
        }
    }
    ST_CHECK(st_guards_ok(&recv), "late vector scatter: guards overwritten");
    if (0 != rank) {
        ST_CHECK(st_op_counter(ST_SCATTER, "single_copy") - s0 == (unsigned) single
                 && st_op_counter(ST_SCATTER, "queue") - q0 == (unsigned) !single,
                 "late vector scatter: single copy +%llu queue +%llu",
                 st_op_counter(ST_SCATTER, "single_copy") - s0,
                 st_op_counter(ST_SCATTER, "queue") - q0);
    }
    MPI_Type_free(&vec);
    st_free(&send);
    st_free(&recv);
}

/* A Gather(v) sender whose block goes through the queues returns without
 * waiting for the root: every other process sends the root a message
 * after its Gather(v), and the root receives them all before it calls
 * its own.  A sender that waited for the root would hang the job (the
 * suite's time limit fails it). */
static void gather_before_root(st_op op, int bytes)
{
    st_buf send, recv;
    int *counts, *displs, err, token = 0;
    unsigned long long v0 = st_op_counter(op, "served"), q0 = st_op_counter(op, "queue");

    if (limits_of(op).single && (size_t) bytes >= limits_of(op).min) {
        /* a sender by single copy waits for the root: this would hang */
        st_fail("%s before the root needs coll_shmcico_%s_single_copy_min above %d",
                st_op_name(op), st_op_name(op), bytes);
        return;
    }
    send = st_alloc((size_t) bytes);
    recv = st_alloc(0 == rank ? (size_t) bytes * size : 8);
    counts = malloc((size_t) size * sizeof(int));
    displs = malloc((size_t) size * sizeof(int));
    for (int i = 0; i < size; ++i) {
        counts[i] = bytes;
        displs[i] = i * bytes;
    }
    memset(send.data, rank + 1, (size_t) bytes);
    for (int i = 1; 0 == rank && i < size; ++i) {
        MPI_Recv(&token, 1, MPI_INT, MPI_ANY_SOURCE, 77, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    err = ST_GATHER == op
        ? MPI_Gather(send.data, bytes, MPI_BYTE, recv.data, bytes, MPI_BYTE, 0, MPI_COMM_WORLD)
        : MPI_Gatherv(send.data, bytes, MPI_BYTE, recv.data, counts, displs, MPI_BYTE, 0,
                      MPI_COMM_WORLD);
    if (0 != rank) {
        MPI_Send(&token, 1, MPI_INT, 0, 77, MPI_COMM_WORLD);
    }
    ST_CHECK(MPI_SUCCESS == err, "%s of %d bytes before the root: error %d", st_op_name(op),
             bytes, err);
    for (int i = 0; 0 == rank && i < size * bytes; ++i) {
        if (((unsigned char *) recv.data)[i] != (unsigned char) (i / bytes + 1)) {
            st_fail("%s of %d bytes before the root: byte %d wrong", st_op_name(op), bytes, i);
            break;
        }
    }
    ST_CHECK(st_op_counter(op, "served") - v0 == 1 && st_op_counter(op, "queue") - q0 == 1,
             "%s of %d bytes before the root: served +%llu queue +%llu", st_op_name(op), bytes,
             st_op_counter(op, "served") - v0, st_op_counter(op, "queue") - q0);
    free(counts);
    free(displs);
    st_free(&send);
    st_free(&recv);
}

/* whether MPI_COMM_WORLD's processes are near one another: told
 * (coll_shmcico_nearness), or what its setup found (a Bcast of a byte
 * makes its segment first) */
static int found_near(void)
{
    char value[MPI_MAX_INFO_VAL + 1];
    int counts[1] = { 1 };

    if (0 != st_cvar("nearness")) {
        return 1 == st_cvar("nearness");
    }
    st_simple_call(ST_BCAST, MPI_COMM_WORLD, 0, counts, 7);
    return st_info(MPI_COMM_WORLD, "shmcico_nearness", value) && 0 == strcmp(value, "near");
}

/* The world's slow-kernel floors: where its setup found the kernel's
 * copy of cold data slow (coll_shmcico_slow_kernel_comms moved), rank
 * 0's coll_shmcico_<op>_slow_kernel_single_copy_min on at most 4
 * processes, whatever the others' parameters; the verdict alike
 * everywhere, and as rank 0's coll_shmcico_cache_probe_kernel_ratio
 * fixes it where floors are set (1: any measure is at least that; 0:
 * never slow). */
static void find_slow_kernel_floors(void)
{
    int counts[1] = { 1 }, slow, slow_min, slow_max;
    unsigned long long mine[ST_NOPS + 1] = { 0 }, rank0[ST_NOPS + 1], floors = 0;

    for (int op = 0; 0 == rank && op < ST_NOPS; ++op) {
        mine[op] = st_op_cvar((st_op) op, "slow_kernel_single_copy_min");
    }
    mine[ST_NOPS] = 0 == rank ? st_cvar("cache_probe_kernel_ratio") : 0;
    MPI_Allreduce(mine, rank0, ST_NOPS + 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
    st_simple_call(ST_BCAST, MPI_COMM_WORLD, 0, counts, 7);    /* the world's segment */
    slow = st_counter("slow_kernel_comms") > 0;
    MPI_Allreduce(&slow, &slow_min, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(&slow, &slow_max, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    for (int op = 0; op < ST_NOPS; ++op) {
        floors |= rank0[op];
        slow_floor[op] = slow && size <= 4 ? rank0[op] : 0;
    }
    ST_CHECK(slow_min == slow_max, "the processes' verdicts on the kernel's copy differ");
    ST_CHECK(0 == floors || !single_works || rank0[ST_NOPS] > 1
             || (1 == rank0[ST_NOPS]) == slow,
             "rank 0's coll_shmcico_cache_probe_kernel_ratio %llu, floors set: the "
             "kernel's copy %sjudged slow", rank0[ST_NOPS], slow ? "" : "not ");
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";

    if (0 == strcmp(mode, "refused")) {
        /* before MPI_Init: no process of the job may read another's memory */
        prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
    }
    st_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    all_cold = 0 == strcmp(mode, "cold");
    single_works = 0 == strcmp(mode, "single") || all_cold;
    fragment = (size_t) st_cvar("fragment_size");
    /* counters count from their first read: before the first segment */
    (void) st_counter("single_copy_comms");
    (void) st_counter("single_copy_refused");
    (void) st_counter("slow_kernel_comms");
    if (size > 64 || (!single_works && 0 != strcmp(mode, "off")
                      && 0 != strcmp(mode, "refused"))) {
        st_fail("usage: test_transport single|cold|off|refused (at most 64 processes)");
        return st_finish("test_transport");
    }
    /* the probe times loads: only its two fixed answers are deterministic
     * (the slow-kernel floors apply as the world's setup judged the
     * kernel's copy: find_slow_kernel_floors()) */
    if (all_cold ? 1 != st_cvar("cache_probe_ns") : 0 != st_cvar("cache_probe")) {
        st_fail("test_transport %s needs coll_shmcico_%s", mode,
                all_cold ? "cache_probe_ns 1" : "cache_probe 0");
        return st_finish("test_transport");
    }
    near = found_near();
    find_slow_kernel_floors();
    streaming_min = (size_t) st_cvar("streaming_min");
    if (near && 0 != streaming_min && st_cvar("near_streaming_min") > streaming_min) {
        streaming_min = (size_t) st_cvar("near_streaming_min");
    }
    sizes();
    mixed();
    vector_bcast(40000, 1, 0);
    vector_bcast(3, 1, 0);          /* one fragment, but not plain bytes */
    vector_bcast(64, 512, 1);
    vector_scatter_late();
    gather_before_root(ST_GATHER, 8);           /* the small path */
    gather_before_root(ST_GATHERV, 8);
    /* the flows, streaming stores: 12 KiB, below the Gather(v) crossovers (16 KiB
     * by default, 64 KiB in the suite) */
    gather_before_root(ST_GATHER, 12288);
    gather_before_root(ST_GATHERV, 12288);
    declined_counts_no_cold();
    bad_receiver_still_sends();
    ST_CHECK(st_counter("single_copy_comms") == (unsigned) (single_works * comms),
             "single_copy_comms moved by %llu", st_counter("single_copy_comms"));
    ST_CHECK(st_counter("single_copy_refused")
             == (unsigned) ((0 == strcmp(mode, "refused")) * comms),
             "single_copy_refused moved by %llu", st_counter("single_copy_refused"));
    return st_finish("test_transport");
}
