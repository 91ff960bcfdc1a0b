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
 * shmcico-bench: the verdict on one stage of launches (no MPI, so that
 * the unit tests can state the rule).
 *
 * A launch is valid when every rank started it on time and it ended
 * inside its slot b.  On time is within --late-ns of the schedule, or
 * within --late-pct (BENCH_LATE_SHARE) of the launch's own time where
 * that is more:
 * a start late by L adds at most L to the time, so a launch of 4 ms may
 * start 40 us late, which a rule in nanoseconds alone never allowed at
 * 16 ranks on a virtual machine (every round of a 4 MiB point there had
 * a rank more than 500 ns late: docs/performance.md).
 *
 * A stage runs in rounds, one launch of every component each.  Two
 * things make launches invalid, and they mean different things:
 *  - an overrun: a launch started on time and did not fit.  The slot is
 *    too short (the next launch on that rank starts late), and dropping
 *    such launches would drop the slowest ones: more than
 *    BENCH_MAX_OVERRUN_FRACTION of a component's on-time launches doubles
 *    b and discards the stage;
 *  - a late start: some rank was still elsewhere (descheduled, or
 *    interrupted) when a launch was due.  That happens before the call,
 *    but a rank held up once may be slow in the calls around it too, so
 *    the whole round is dropped: every component loses the same moments
 *    and the comparison stays paired.  Only when more than
 *    BENCH_MAX_LATE_FRACTION of the rounds have a late start (the clock
 *    offsets went stale, the machine is busy) is the stage discarded.
 * Otherwise the stage is kept, and the valid launches of its rounds
 * without a late start count.
 *
 * Judging late starts apart from overruns matters for long calls: a
 * stage has at least 4 rounds, and with 16 ranks waiting for each launch
 * one late start among them was common on a virtual machine; a rule of
 * "at most 20 % of a component's launches invalid" then discarded every
 * stage of a point and left it with no valid launch (docs/performance.md).
 */

#ifndef SHMCICO_BENCH_JUDGE_H
#define SHMCICO_BENCH_JUDGE_H

#include <stdbool.h>

#define BENCH_MAX_OVERRUN_FRACTION 0.1     /* of a component's on-time launches */
#define BENCH_MAX_LATE_FRACTION 0.25       /* of a stage's rounds */
#define BENCH_LATE_SHARE 0.01               /* of a launch's own time (--late-pct) */

/** Whether a launch started late: late_s after its schedule on the
 *  latest rank, end_s its end after the schedule (its time; infinite
 *  after an MPI error), late_floor_s the --late-ns limit, share the
 *  --late-pct one (a fraction). */
bool bench_started_late(double late_s, double end_s, double late_floor_s, double share);

/** One component's launches in a stage (one a round). */
typedef struct {
    int on_time;                /**< started on time on every rank */
    int overruns;               /**< started on time, ended after the slot */
} bench_stage_tally_t;

typedef enum {
    BENCH_STAGE_KEPT,           /**< the valid launches of its on-time rounds count */
    BENCH_STAGE_DISRUPTED,      /**< too many late rounds: discarded, b kept */
    BENCH_STAGE_TOO_TIGHT       /**< launches overran: discarded, b doubles */
} bench_verdict_t;

/** The verdict on a stage from the tallies of its n components, and its
 *  rounds, late_rounds of which had a launch that started late. */
bench_verdict_t bench_judge_stage(const bench_stage_tally_t *tallies, int n,
                                  int rounds, int late_rounds);

#endif /* SHMCICO_BENCH_JUDGE_H */
