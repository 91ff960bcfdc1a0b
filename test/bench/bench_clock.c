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
 * Timers and clock offsets.
 *
 * MPI_Wtime has a different origin in every process, so a rank's clock
 * is compared with rank 0's by ping-pong: the peer answers a ping with
 * its current time, and in the round with the smallest round trip the
 * answer was taken at about the middle of the trip, within half the trip
 * either way.  That half is the error bound of the estimate.
 */

#include <sched.h>
#include <time.h>

#include "bench.h"

#define CALIBRATION_SECONDS 0.05
#define YIELD_MARGIN_SECONDS 50e-6
#define SYNC_TAG 4242

double bench_tsc_scale = 0;
uint64_t bench_tsc_base = 0;

static bool yield_while_waiting;

static double monotonic_seconds(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double) ts.tv_sec + 1e-9 * (double) ts.tv_nsec;
}

#if BENCH_HAVE_TSC
/* Ticks per second of the TSC against CLOCK_MONOTONIC. */
static double calibrate_tsc(void)
{
    double start = monotonic_seconds(), end;
    uint64_t ticks = __rdtsc();

    while ((end = monotonic_seconds()) < start + CALIBRATION_SECONDS) {
        _mm_pause();
    }
    return (double) (__rdtsc() - ticks) / (end - start);
}
#endif

/* The TSC runs at the same rate on every core of a node: rank 0's scale
 * and origin serve all ranks, so their clocks cannot drift apart. */
void bench_timer_init(bench_timer_t timer, MPI_Comm comm)
{
#if BENCH_HAVE_TSC
    double setup[2] = { 0, 0 };
    int rank;

    if (BENCH_TIMER_TSC != timer) {
        return;
    }
    MPI_Comm_rank(comm, &rank);
    if (0 == rank) {
        setup[0] = 1.0 / calibrate_tsc();
        setup[1] = (double) __rdtsc();
    }
    MPI_Bcast(setup, 2, MPI_DOUBLE, 0, comm);
    bench_tsc_scale = setup[0];
    bench_tsc_base = (uint64_t) setup[1];
#else
    (void) timer;
    (void) comm;
#endif
}

void bench_timer_describe(char *buf, size_t len)
{
    if (bench_tsc_scale > 0) {
        snprintf(buf, len, "tsc (rdtsc, %.4f GHz calibrated on rank 0 against "
                 "CLOCK_MONOTONIC over %.0f ms)", 1e-9 / bench_tsc_scale,
                 1e3 * CALIBRATION_SECONDS);
    } else {
        snprintf(buf, len, "MPI_Wtime (tick %.3g s)", MPI_Wtick());
    }
}

void bench_clock_yield_while_waiting(bool yield)
{
    yield_while_waiting = yield;
}

void bench_wait_until(double t)
{
    double now;

    while ((now = bench_now()) < t) {
        if (yield_while_waiting && t - now > YIELD_MARGIN_SECONDS) {
            sched_yield();
        }
    }
}

/* ---------------------------------------------------------------- */
/* offsets */

typedef struct {
    double offset;              /**< peer's clock - own clock */
    double half_rtt;
} bench_link_t;

/* The pinging side of rounds ping-pongs: the peer's offset in the round
 * with the smallest round trip. */
static bench_link_t measure_link(int peer, int rounds, MPI_Comm comm)
{
    bench_link_t link = { 0, -1 };
    double ping = 0, answer;

    for (int k = 0; k < rounds; ++k) {
        double sent = bench_now(), rtt;

        MPI_Send(&ping, 1, MPI_DOUBLE, peer, SYNC_TAG, comm);
        MPI_Recv(&answer, 1, MPI_DOUBLE, peer, SYNC_TAG, comm, MPI_STATUS_IGNORE);
        rtt = bench_now() - sent;
        if (link.half_rtt < 0 || rtt / 2 < link.half_rtt) {
            link.half_rtt = rtt / 2;
            link.offset = answer - (sent + rtt / 2);
        }
    }
    return link;
}

/* The answering side: each ping gets the current time back. */
static void answer_link(int peer, int rounds, MPI_Comm comm)
{
    double ping, now;

    for (int k = 0; k < rounds; ++k) {
        MPI_Recv(&ping, 1, MPI_DOUBLE, peer, SYNC_TAG, comm, MPI_STATUS_IGNORE);
        now = bench_now();
        MPI_Send(&now, 1, MPI_DOUBLE, peer, SYNC_TAG, comm);
    }
}

/* Rank 0 measures every rank in turn and tells it its offset. */
static bench_offset_t sync_linear(int rounds, MPI_Comm comm)
{
    double theirs[2];
    int rank, size;

    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    if (0 != rank) {
        answer_link(0, rounds, comm);
        MPI_Recv(theirs, 2, MPI_DOUBLE, 0, SYNC_TAG, comm, MPI_STATUS_IGNORE);
        return (bench_offset_t) { .offset = theirs[0], .error = theirs[1] };
    }
    for (int peer = 1; peer < size; ++peer) {
        bench_link_t link = measure_link(peer, rounds, comm);

        theirs[0] = link.offset;
        theirs[1] = link.half_rtt;
        MPI_Send(theirs, 2, MPI_DOUBLE, peer, SYNC_TAG, comm);
    }
    return (bench_offset_t) { .offset = 0, .error = 0 };
}

/* Rank i measures rank i-1; the offsets (and their errors) add up along
 * the chain.  Odd ranks measure first, then even ones, so that every
 * rank takes part in one link at a time. */
static bench_offset_t sync_ring(int rounds, MPI_Comm comm)
{
    double step[2] = { 0, 0 }, sum[2];
    bench_offset_t own;
    int rank, size;

    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    for (int parity = 1; parity >= 0; --parity) {
        if (rank > 0 && rank % 2 == parity) {
            bench_link_t link = measure_link(rank - 1, rounds, comm);

            step[0] = -link.offset;
            step[1] = link.half_rtt;
        } else if (rank + 1 < size && (rank + 1) % 2 == parity) {
            answer_link(rank + 1, rounds, comm);
        }
    }
    MPI_Scan(step, sum, 2, MPI_DOUBLE, MPI_SUM, comm);
    own.offset = sum[0];
    own.error = sum[1];
    return own;
}

bench_offset_t bench_clock_sync(bench_sync_method_t method, int rounds,
                                MPI_Comm comm)
{
    bench_offset_t own = BENCH_SYNC_RING == method ? sync_ring(rounds, comm)
                                                   : sync_linear(rounds, comm);

    MPI_Allreduce(MPI_IN_PLACE, &own.error, 1, MPI_DOUBLE, MPI_MAX, comm);
    return own;
}
