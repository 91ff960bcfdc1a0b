/* -*- Mode: C; c-basic-offset:4 ; indent-tabs-mode:nil -*- */
/*
 * Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
 * $COPYRIGHT$
 *
 * Additional copyrights may follow
 *
 * $HEADER$
 */

/**
 * @file
 *
 * Whether a communicator's processes are near one another: whether a
 * cache line written by one reaches another faster than a load from
 * memory does (docs/design.md, "Streaming stores").
 *
 * It decides how a sender writes a block of a few KiB into its slots.
 * Ordinary stores first take each line back from the readers' caches,
 * and the readers then take it from the writer's; streaming stores write
 * the lines to memory, from which the readers load them.  Where a line
 * passes between the cores faster than memory answers (cores that share
 * a last-level cache) the ordinary stores are the faster; where it is
 * slower (two sockets, two chiplets, or two vCPUs that the host placed
 * so) the streaming ones are, by two to three times.
 *
 * Each setup of a communicator measures it, of a kept segment too
 * (coll_shmcico_setup.h, between the report and the verdict), in a star:
 *
 *   rank 0                           rank i (its turn: a message over the PML)
 *   ball = b + 1 ------------------> sees b + 1, ball = b + 2
 *   sees b + 2, ball = b + 3 ------> sees b + 3, ball = b + 4
 *   ...                              ...   (MCA_COLL_SHMCICO_PINGPONG_ROUNDS)
 *
 * (b = i * 2 * MCA_COLL_SHMCICO_PINGPONG_ROUNDS: the balls of one process
 * are none of another's)
 *
 * on the segment's ping-pong line: each store is a line's trip, and rank
 * 0 keeps the fastest batch's mean trip.  Every wait is bounded
 * (MCA_COLL_SHMCICO_PINGPONG_PATIENCE_NS): a process descheduled for that
 * long makes the trip count as far, never a hang.  Memory's latency is
 * rank 0's own: the cache probe's calibration chain on flushed lines
 * (coll_shmcico_residency.h), per load.
 */

#ifndef MCA_COLL_SHMCICO_NEARNESS_H
#define MCA_COLL_SHMCICO_NEARNESS_H

#include <stdbool.h>
#include <stdint.h>

#include "coll_shmcico_segment.h"

/** Round trips per process; the mean of each batch of
 *  MCA_COLL_SHMCICO_PINGPONG_BATCH is timed, the first batch warms up,
 *  the fastest of the three others counts (an interrupt in one batch
 *  does not make a near pair far). */
#define MCA_COLL_SHMCICO_PINGPONG_ROUNDS 32
#define MCA_COLL_SHMCICO_PINGPONG_BATCH 8

/** The longest either side waits for the other's stores: for the
 *  whole exchange with one process. */
#define MCA_COLL_SHMCICO_PINGPONG_PATIENCE_NS UINT64_C(1000000000)

/** A trip that timed out, or was not measured. */
#define MCA_COLL_SHMCICO_TRIP_UNKNOWN UINT64_MAX

/**
 * Rank 0's side with process proc, which plays return() at the same
 * time on the same line: the mean one-way trip of a line in the fastest
 * batch, in ns, or MCA_COLL_SHMCICO_TRIP_UNKNOWN when proc stopped
 * answering.
 */
uint64_t mca_coll_shmcico_pingpong_serve(mca_coll_shmcico_pingpong_t *line, int proc);

/** The other process's side: returns every ball rank 0 serves (false:
 *  it stopped waiting). */
bool mca_coll_shmcico_pingpong_return(mca_coll_shmcico_pingpong_t *line, int proc);

/** Memory's latency per load in ns, from the cache probe's calibration
 *  chain on flushed lines (0 where the machine cannot flush a line, or
 *  the calibration could not run). */
uint64_t mca_coll_shmcico_memory_ns(void);

/** Near: the slowest trip (ns) is at most two thirds of memory_ns, both
 *  known. */
static inline bool mca_coll_shmcico_near(uint64_t slowest_trip_ns, uint64_t memory_ns)
{
    return 0 != memory_ns && MCA_COLL_SHMCICO_TRIP_UNKNOWN != slowest_trip_ns
        && 3 * slowest_trip_ns <= 2 * memory_ns;
}

/* ------------------------------------------------------------------ */
/* Watched: each process's own view, kept current during the run        */

/**
 * The setup's answer holds for the communicator's crossovers, which
 * every process must find alike.  How a sender writes its slots is its
 * own choice (readers cannot tell), and for that each process keeps its
 * own view, watched while the communicator runs, so that a machine that
 * moves processes between dies (a VM whose vCPUs the host moves) does
 * not leave ordinary stores where the lines now cross slowly:
 *
 *   call n, n % PERIOD == 0             every process marks its watch
 *                                       line with n (a relaxed store)
 *   call n, n % PERIOD == PERIOD / 2    every process loads each other
 *                                       process's watch line, timed; a
 *                                       round counts where every line
 *                                       holds this period's mark, none
 *                                       came faster than a cache hit
 *                                       (MCA_COLL_SHMCICO_WATCH_HIT_NS)
 *
 * A process is at most a bank's worth of calls ahead of any other (the
 * claim of a bank waits for everyone's done with its previous call), so
 * half a period later every other process has marked, and no process
 * has loaded the line since: the load takes the line from the core that
 * wrote it, one trip (10 to 61 ns near, 111 to 151 ns far on the test
 * VM, the clock's own cost taken off, against memory's 132 to 147).  The
 * view is near when the median of the last MCA_COLL_SHMCICO_WATCH_ROUNDS
 * rounds' slowest loads is at most the threshold (two thirds of memory's
 * latency, as at setup).  Nothing waits: a process that marked late only
 * costs a round.
 */
#define MCA_COLL_SHMCICO_WATCH_PERIOD 256
#define MCA_COLL_SHMCICO_WATCH_ROUNDS 3
#define MCA_COLL_SHMCICO_WATCH_HIT_NS 8

typedef struct mca_coll_shmcico_watch_t {
    uint64_t threshold_ns;          /**< near: a round's slowest load at most
                                         this; 0: not watched */
    uint64_t last_seq;              /**< the call it last marked or loaded at */
    uint64_t rounds[MCA_COLL_SHMCICO_WATCH_ROUNDS];    /**< the last rounds' slowest
                                                            loads (ns) */
    uint64_t taken;                 /**< rounds so far */
    bool near;                      /**< this process's view (the setup's until
                                         MCA_COLL_SHMCICO_WATCH_ROUNDS rounds) */
} mca_coll_shmcico_watch_t;

/** What one call's look did. */
typedef enum {
    MCA_COLL_SHMCICO_WATCH_NOTHING = 0, /**< no round (not its call, or none counted) */
    MCA_COLL_SHMCICO_WATCH_ROUND,       /**< a round, the view as it was */
    MCA_COLL_SHMCICO_WATCH_CHANGED      /**< a round that turned the view */
} mca_coll_shmcico_watched_t;

/** Start from the setup's answer; threshold_ns 0: never look again. */
void mca_coll_shmcico_watch_init(mca_coll_shmcico_watch_t *watch, bool near,
                                 uint64_t threshold_ns);

/** Whether call seq is one of the watch's (a mark or a round). */
static inline bool mca_coll_shmcico_watch_due(uint64_t seq)
{
    return 0 == (seq & (MCA_COLL_SHMCICO_WATCH_PERIOD / 2 - 1));
}

/** Process me at the start of call seq of the segment of view: marks,
 *  or takes a round, as the period says (see above). */
mca_coll_shmcico_watched_t mca_coll_shmcico_watch_call(mca_coll_shmcico_watch_t *watch,
                                                       const mca_coll_shmcico_view_t *view,
                                                       int me, uint64_t seq);

/** Near: the median of rounds[0 .. n - 1] (n odd) is at most threshold_ns. */
bool mca_coll_shmcico_watch_judge(const uint64_t *rounds, int n, uint64_t threshold_ns);

#endif /* MCA_COLL_SHMCICO_NEARNESS_H */
