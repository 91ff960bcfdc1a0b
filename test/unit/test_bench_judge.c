/*
 * Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
 * $COPYRIGHT$
 *
 * Additional copyrights may follow
 *
 * $HEADER$
 */

/*
 * The benchmark's verdict on a stage (test/bench/bench_judge.h): launches
 * that overran their slot lengthen it; late starts discard a stage only
 * when many of its rounds have one; one late round among four, the
 * shortest stage, leaves the other three rounds valid.
 */

#include <math.h>

#include "bench_judge.h"
#include "unit.h"

/* a stage of two components, the second clean, of launches rounds */
static bench_verdict_t judge(int launches, int on_time, int overruns, int late_rounds)
{
    bench_stage_tally_t t[2] = { { on_time, overruns }, { launches, 0 } };

    return bench_judge_stage(t, 2, launches, late_rounds);
}

int main(void)
{
    /* clean stages are kept */
    CHECK(BENCH_STAGE_KEPT == judge(4, 4, 0, 0), "four on time");
    CHECK(BENCH_STAGE_KEPT == judge(100, 100, 0, 0), "a hundred on time");
    /* one late round of four: the other three count (the rule of at
     * most 20 % of a component's launches invalid discarded this stage,
     * and at 16 ranks every stage of a point of long calls) */
    CHECK(BENCH_STAGE_KEPT == judge(4, 3, 0, 1), "one round of four late");
    CHECK(BENCH_STAGE_KEPT == judge(100, 75, 0, 25), "a quarter of the rounds late");
    /* many late rounds: the schedule or the machine is off */
    CHECK(BENCH_STAGE_DISRUPTED == judge(4, 2, 0, 2), "two rounds of four late");
    CHECK(BENCH_STAGE_DISRUPTED == judge(100, 74, 0, 26), "more than a quarter late");
    CHECK(BENCH_STAGE_DISRUPTED == judge(4, 0, 0, 4), "none on time");
    /* late starts of the other component count the same */
    {
        bench_stage_tally_t t[2] = { { 4, 0 }, { 2, 0 } };

        CHECK(BENCH_STAGE_DISRUPTED == bench_judge_stage(t, 2, 4, 2), "second one late");
    }
    /* an overrun among few launches: the slot is too short */
    CHECK(BENCH_STAGE_TOO_TIGHT == judge(4, 4, 1, 0), "one of four overran");
    CHECK(BENCH_STAGE_TOO_TIGHT == judge(4, 1, 1, 3), "overran, then late");
    /* among many, up to a tenth of the on-time launches may overrun
     * (they are dropped); more lengthen the slot */
    CHECK(BENCH_STAGE_KEPT == judge(100, 100, 10, 0), "a tenth overran");
    CHECK(BENCH_STAGE_TOO_TIGHT == judge(100, 100, 11, 0), "more than a tenth overran");
    /* a too short slot wins over late starts: doubling b cures both */
    CHECK(BENCH_STAGE_TOO_TIGHT == judge(4, 2, 2, 2), "overruns and late starts");
    /* every component is judged on its own overruns */
    {
        bench_stage_tally_t t[3] = { { 4, 0 }, { 4, 0 }, { 4, 1 } };

        CHECK(BENCH_STAGE_TOO_TIGHT == bench_judge_stage(t, 3, 4, 0), "third one overran");
    }
    /* on time: within --late-ns, or within --late-pct (1 %) of the
     * launch's own time */
    CHECK(!bench_started_late(400e-9, 2e-6, 500e-9, 0.01), "400 ns late on 2 us: on time");
    CHECK(bench_started_late(600e-9, 2e-6, 500e-9, 0.01), "600 ns late on 2 us: late");
    CHECK(!bench_started_late(30e-6, 4e-3, 500e-9, 0.01), "30 us late on 4 ms: on time");
    CHECK(bench_started_late(50e-6, 4e-3, 500e-9, 0.01), "50 us late on 4 ms: late");
    CHECK(bench_started_late(30e-6, 4e-3, 500e-9, 0), "--late-pct 0: --late-ns alone");
    CHECK(bench_started_late(1e-3, INFINITY, 500e-9, 0.01), "an MPI error: --late-ns alone");
    return unit_report("test_bench_judge");
}
