/* -*- Mode: C; c-basic-offset:4 ; indent-tabs-mode:nil -*- */
/*
 * Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
 * $COPYRIGHT$
 *
 * Additional copyrights may follow
 *
 * $HEADER$
 */

/* The verdict on a stage: the rule is in bench_judge.h. */

#include <math.h>
#include <stdbool.h>

#include "bench_judge.h"

bool bench_started_late(double late_s, double end_s, double late_floor_s, double share)
{
    double limit = isfinite(end_s) ? fmax(late_floor_s, share * end_s) : late_floor_s;

    return late_s > limit;
}

bench_verdict_t bench_judge_stage(const bench_stage_tally_t *tallies, int n,
                                  int rounds, int late_rounds)
{
    bool tight = false;

    for (int c = 0; c < n; ++c) {
        tight |= tallies[c].overruns > BENCH_MAX_OVERRUN_FRACTION * tallies[c].on_time;
    }
    if (tight) {
        return BENCH_STAGE_TOO_TIGHT;
    }
    return late_rounds > BENCH_MAX_LATE_FRACTION * rounds ? BENCH_STAGE_DISRUPTED
                                                          : BENCH_STAGE_KEPT;
}
