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

#include <stdbool.h>

#include "bench_judge.h"

bench_verdict_t bench_judge_stage(const bench_stage_tally_t *tallies, int n)
{
    bool tight = false, disrupted = false;

    for (int c = 0; c < n; ++c) {
        const bench_stage_tally_t *t = &tallies[c];

        tight |= t->overruns > BENCH_MAX_OVERRUN_FRACTION * t->on_time;
        disrupted |= t->launches - t->on_time > BENCH_MAX_LATE_FRACTION * t->launches;
    }
    return tight ? BENCH_STAGE_TOO_TIGHT : disrupted ? BENCH_STAGE_DISRUPTED
                                                     : BENCH_STAGE_KEPT;
}
