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
 * shmcico-bench: the measurement of one (operation, size) point in
 * stages (bench.h: bench_measure_point(); see bench.h for the method).
 *
 * A point: check the data of one call per component, estimate the slot
 * length b from a few back-to-back calls, then run stages of launches at
 * scheduled times, the components' launches interleaved slot by slot,
 * in an order that changes from round to round.
 * After each stage rank 0 gets the largest lateness and end time of
 * every launch (outside the timed region), keeps the valid launches, and
 * decides: more launches, a longer slot, or stop.
 */

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "bench_judge.h"

#define MIN_SLOT_SECONDS 20e-6
#define ESTIMATE_WARMUP_CALLS 2
#define ESTIMATE_CALLS 5
#define STAGE_SECONDS 0.002         /* stage length aimed at */
#define STAGE_MIN_LAUNCHES 4        /* per component */
#define STAGE_MAX_LAUNCHES 100
#define LEAD_SECONDS 500e-6         /* from the plan's broadcast to its start */
#define MAX_STAGES_OVER_BUDGET 16   /* stages a point without a valid launch may take, */
#define OVER_BUDGET_SECONDS 2.0     /* and seconds past --max-seconds */

typedef struct {
    double b;                   /**< slot length */
    double t0;                  /**< start of the next stage, rank 0's clock */
    double launches;            /**< per component in the next stage; 0: stop */
} bench_plan_t;

typedef struct {
    bench_run_t *run;
    const bench_op_t *op;
    int op_id;
    size_t size;
    bench_layout_t layout;
    bench_call_t call;
    bench_offset_t clock;
    int active[BENCH_MAX_COMPONENTS];   /**< components whose check passed */
    int nactive;
    bool check_failed[BENCH_MAX_COMPONENTS];
    bench_tally_t tallies[BENCH_MAX_COMPONENTS];
    unsigned long next_launch;          /**< per component, for the root */
    double b;                           /**< the slot length at the end */
    /* rank 0 */
    double started;
    int stage;
    int disrupted;                      /**< stages discarded, b kept */
    double *times[BENCH_MAX_COMPONENTS];
    unsigned long launches[BENCH_MAX_COMPONENTS];
    unsigned long valid[BENCH_MAX_COMPONENTS];
    unsigned long late[BENCH_MAX_COMPONENTS];     /**< late starts, warm-up not counted */
    unsigned long overran[BENCH_MAX_COMPONENTS];  /**< on time, past the slot */
    double slots[2 * STAGE_MAX_LAUNCHES * BENCH_MAX_COMPONENTS];
} bench_point_t;

static int launch_root(const bench_point_t *point, unsigned long launch)
{
    int root = point->run->opt.root;

    return BENCH_ROOT_SHIFT == root ? (int) (launch % point->run->size) : root;
}

static void use_component(bench_point_t *point, int c, unsigned long launch,
                          bench_pool_t *pool)
{
    point->call.comm = point->run->components[c].comm;
    point->call.root = launch_root(point, launch);
    bench_pool_next(pool, point->op, &point->call);
}

/* One call per component (one per root with --root shift) with a data
 * pattern; a component whose data come out wrong on any rank is not
 * timed. */
static void check_components(bench_point_t *point, bench_pool_t *pool)
{
    bench_run_t *run = point->run;
    int checks = BENCH_ROOT_SHIFT == run->opt.root ? run->size : 1;

    point->nactive = 0;
    for (int c = 0; c < run->ncomponents; ++c) {
        int ok = 1;

        for (int i = 0; i < checks; ++i) {
            use_component(point, c, i, pool);
            ok &= bench_check_call(point->op, &point->call, &point->tallies[c]);
        }
        MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_LAND, run->ctl);
        point->check_failed[c] = !ok;
        if (ok) {
            point->active[point->nactive++] = c;
        } else if (0 == run->rank) {
            fprintf(stderr, "shmcico-bench: *** CHECK FAILED: %s of %zu bytes on %s "
                    "delivered wrong data or an MPI error; not timed ***\n",
                    point->op->name, point->size, run->components[c].name);
        }
    }
}

/* The median time of back-to-back calls on this rank, after a warm-up
 * (the median, so that one descheduled call does not count). */
static double median_call_time(bench_point_t *point, int c, bench_pool_t *pool)
{
    double times[ESTIMATE_CALLS], start;

    for (int i = -ESTIMATE_WARMUP_CALLS; i < ESTIMATE_CALLS; ++i) {
        if (0 == i) {
            MPI_Barrier(point->run->ctl);
        }
        use_component(point, c, 0, pool);
        start = bench_now();
        bench_tallied_call(point->op, &point->call, &point->tallies[c]);
        if (i >= 0) {
            times[i] = bench_now() - start;
        }
    }
    return bench_median(times, ESTIMATE_CALLS);
}

/* b from back-to-back calls: they overlap, so this is a lower bound;
 * stages whose launches overrun their slots double it. */
static double estimate_slot(bench_point_t *point, bench_pool_t *pool)
{
    bench_run_t *run = point->run;
    double longest = 0;

    for (int a = 0; a < point->nactive; ++a) {
        longest = fmax(longest, median_call_time(point, point->active[a], pool));
    }
    MPI_Allreduce(MPI_IN_PLACE, &longest, 1, MPI_DOUBLE, MPI_MAX, run->ctl);
    return fmax(4 * longest + 4 * point->clock.error, MIN_SLOT_SECONDS);
}

/* The component of slot j of a stage whose first round is first_round
 * (rounds counted over the point's stages): every round of nactive slots
 * runs each active component once, forward and backward in turn, the
 * start moving one further every second round.  So every component runs
 * first as often as any other, and follows each of its neighbours in
 * the order as often (in a fixed order the first of two identical
 * communicators measured 2 to 5 % slower than the second). */
static int slot_component(const bench_point_t *point, unsigned long first_round, int j)
{
    int n = point->nactive, k = j % n;
    unsigned long round = first_round + (unsigned long) (j / n);
    int shift = (int) (round / 2 % (unsigned long) n);
    int at = 0 == round % 2 ? k : n - 1 - k;

    return point->active[(at + shift) % n];
}

/* Launch j starts at t0 + j*b (own clock), in slot j.  slots[j] gets the
 * lateness, slots[n + j] the end relative to the scheduled start
 * (infinite after an MPI error). */
static void run_stage(bench_point_t *point, const bench_plan_t *plan,
                     bench_pool_t *pool)
{
    const bench_op_t *op = point->op;
    int launches = (int) plan->launches, n = launches * point->nactive;
    double start = plan->t0 + point->clock.offset;

    for (int j = 0; j < n; ++j) {
        int c = slot_component(point, point->next_launch, j);
        double scheduled = start + j * plan->b, began, ended;
        int rc;

        use_component(point, c, point->next_launch + j / point->nactive, pool);
        bench_tally_begin(&point->tallies[c], op);
        bench_wait_until(scheduled);
        began = bench_now();
        rc = op->call(&point->call);
        ended = bench_now();
        bench_tally_end(&point->tallies[c], op, rc);
        point->slots[j] = began - scheduled;
        point->slots[n + j] = MPI_SUCCESS == rc ? ended - scheduled : INFINITY;
    }
    point->next_launch += launches;
    MPI_Reduce(0 == point->run->rank ? MPI_IN_PLACE : point->slots, point->slots,
               2 * n, MPI_DOUBLE, MPI_MAX, 0, point->run->ctl);
}

/* the point's round of a stage's first slot: run_stage() counted this
 * stage's rounds already */
static unsigned long stage_first_round(const bench_point_t *point, const bench_plan_t *plan)
{
    return point->next_launch - (unsigned long) plan->launches;
}

/* Rank 0: whether some launch of round r of a stage started late. */
static bool round_late(const bench_point_t *point, int r, int n)
{
    const double *late = point->slots, *end = point->slots + n;

    for (int j = r * point->nactive; j < (r + 1) * point->nactive; ++j) {
        if (bench_started_late(late[j], end[j], point->run->opt.late_s,
                               point->run->opt.late_share)) {
            return true;
        }
    }
    return false;
}

/* Rank 0: the verdict on a stage (the rule: bench_judge.h).  The late
 * starts and overruns of the stages after the warm-up are added up per
 * component, so that a point without a valid launch says why. */
static bench_verdict_t judge_stage(bench_point_t *point, const bench_plan_t *plan)
{
    int rounds = (int) plan->launches, n = rounds * point->nactive, late_rounds = 0;
    const double *late = point->slots, *end = point->slots + n;
    unsigned long first_round = stage_first_round(point, plan);
    bench_stage_tally_t t[BENCH_MAX_COMPONENTS] = { { 0 } };

    for (int j = 0; j < n; ++j) {
        int c = slot_component(point, first_round, j);
        bool started = !bench_started_late(late[j], end[j], point->run->opt.late_s,
                                           point->run->opt.late_share);
        bool fits = end[j] <= plan->b;

        t[c].on_time += started;
        t[c].overruns += started && !fits;
    }
    for (int r = 0; r < rounds; ++r) {
        late_rounds += round_late(point, r, n);
    }
    for (int a = 0; point->stage > 0 && a < point->nactive; ++a) {
        int c = point->active[a];

        point->late[c] += (unsigned long) (rounds - t[c].on_time);
        point->overran[c] += (unsigned long) t[c].overruns;
    }
    return bench_judge_stage(t, BENCH_MAX_COMPONENTS, rounds, late_rounds);
}

/* Rank 0: a launch's time is the largest end over the ranks; the
 * launches of a round with a late start are dropped together. */
static void keep_valid_launches(bench_point_t *point, const bench_plan_t *plan)
{
    int n = (int) plan->launches * point->nactive;
    const double *end = point->slots + n;
    unsigned long first_round = stage_first_round(point, plan);

    for (int r = 0; r < (int) plan->launches; ++r) {
        if (round_late(point, r, n)) {
            continue;
        }
        for (int j = r * point->nactive; j < (r + 1) * point->nactive; ++j) {
            int c = slot_component(point, first_round, j);

            if (end[j] <= plan->b) {
                point->times[c][point->valid[c]++] = end[j];
            }
        }
    }
    for (int a = 0; a < point->nactive; ++a) {
        point->launches[point->active[a]] += (unsigned long) plan->launches;
    }
}

static bool converged(bench_point_t *point)
{
    const bench_options_t *opt = &point->run->opt;
    bench_summary_t s;

    for (int a = 0; a < point->nactive; ++a) {
        int c = point->active[a];

        if (point->valid[c] < (unsigned long) opt->min_launches) {
            return false;
        }
        bench_summarize(point->times[c], point->valid[c], opt->trim_pct, &s);
        if (!(s.se <= opt->rel_error * s.mean)) {
            return false;
        }
    }
    return true;
}

/* Rank 0: a stage of about STAGE_SECONDS, starting soon. */
static void schedule_stage(const bench_point_t *point, bench_plan_t *plan)
{
    unsigned long done = point->launches[point->active[0]];
    double launches = floor(STAGE_SECONDS / (point->nactive * plan->b));

    launches = fmin(fmax(launches, STAGE_MIN_LAUNCHES), STAGE_MAX_LAUNCHES);
    plan->launches = fmin(launches, point->run->opt.max_launches - done);
    plan->t0 = bench_now() + LEAD_SECONDS + plan->b;
}

/* Whether --max-seconds may end the point: once every component has a
 * valid launch, or after MAX_STAGES_OVER_BUDGET stages or
 * OVER_BUDGET_SECONDS past the budget.  A point of long calls, whose
 * warm-up stage alone outlasts a short budget, is measured too. */
static bool measured(const bench_point_t *point)
{
    double over = bench_now() - point->started - point->run->opt.max_seconds;

    for (int a = 0; a < point->nactive; ++a) {
        if (0 == point->valid[point->active[a]]) {
            return point->stage >= MAX_STAGES_OVER_BUDGET || over >= OVER_BUDGET_SECONDS;
        }
    }
    return true;
}

/* Rank 0: the next stage, or launches = 0 to stop. */
static void plan_next_stage(bench_point_t *point, bench_plan_t *plan)
{
    const bench_options_t *opt = &point->run->opt;
    bench_verdict_t verdict = judge_stage(point, plan);

    if (BENCH_STAGE_TOO_TIGHT == verdict) {
        plan->b *= 2;
    } else if (BENCH_STAGE_DISRUPTED == verdict) {
        ++point->disrupted;
    } else if (point->stage > 0) {
        keep_valid_launches(point, plan);
    }
    ++point->stage;
    if ((bench_now() - point->started >= opt->max_seconds && measured(point))
        || point->launches[point->active[0]] >= (unsigned long) opt->max_launches
        || converged(point)) {
        plan->launches = 0;
    } else {
        schedule_stage(point, plan);
    }
}

/* The plan travels as three doubles. */
static void run_stages(bench_point_t *point, bench_pool_t *pool)
{
    bench_plan_t plan = { .b = estimate_slot(point, pool) };

    /* --max-seconds counts the stages only: a cold pool's first touch
     * of 64 MiB or more must not use up a short budget */
    point->started = bench_now();
    if (0 == point->run->rank) {
        schedule_stage(point, &plan);
    }
    MPI_Bcast(&plan, 3, MPI_DOUBLE, 0, point->run->ctl);
    while (plan.launches > 0) {
        run_stage(point, &plan, pool);
        if (0 == point->run->rank) {
            plan_next_stage(point, &plan);
        }
        MPI_Bcast(&plan, 3, MPI_DOUBLE, 0, point->run->ctl);
    }
    point->b = plan.b;
}

/* Rank 0 gets, per component, the calls, the fewest served on any rank,
 * the most fallbacks and the MPI errors. */
static void reduce_tallies(bench_point_t *point)
{
    bench_run_t *run = point->run;

    for (int c = 0; c < run->ncomponents; ++c) {
        bench_tally_t *t = &point->tallies[c];
        unsigned long long fewest[2] = { t->served, t->calls }, most[2];

        most[0] = t->fallback;
        most[1] = t->errors;
        MPI_Reduce(0 == run->rank ? MPI_IN_PLACE : fewest, fewest, 2,
                   MPI_UNSIGNED_LONG_LONG, MPI_MIN, 0, run->ctl);
        MPI_Reduce(0 == run->rank ? MPI_IN_PLACE : most, most, 2,
                   MPI_UNSIGNED_LONG_LONG, MPI_MAX, 0, run->ctl);
        t->served = fewest[0];
        t->fallback = most[0];
        t->errors = (unsigned) most[1];
    }
}

static void add_rows(bench_point_t *point)
{
    bench_run_t *run = point->run;
    bench_row_t *rows;

    run->rows = realloc(run->rows, (run->nrows + run->ncomponents) * sizeof(bench_row_t));
    rows = run->rows + run->nrows;
    for (int c = 0; c < run->ncomponents; ++c) {
        bench_row_t *row = &rows[c];

        memset(row, 0, sizeof(*row));
        row->op = point->op_id;
        row->size = point->size;
        row->component = c;
        bench_summarize(point->times[c], point->valid[c], run->opt.trim_pct,
                        &row->summary);
        row->launches = point->launches[c];
        row->valid = point->valid[c];
        row->b = point->b;
        row->stages = point->stage;
        row->disrupted = point->disrupted;
        row->late = point->late[c];
        row->overran = point->overran[c];
        row->calls = point->tallies[c].calls;
        row->served = point->tallies[c].served;
        row->fallback = point->tallies[c].fallback;
        row->counted = point->tallies[c].counted;
        row->errors = point->tallies[c].errors;
        row->check_failed = point->check_failed[c];
    }
    run->nrows += run->ncomponents;
    if (!run->opt.quiet) {
        bench_report_progress(run, rows, run->ncomponents);
    }
}

static void sync_clocks(bench_point_t *point)
{
    bench_run_t *run = point->run;

    point->clock = bench_clock_sync(run->opt.sync, run->opt.sync_rounds, run->ctl);
    if (0 == run->syncs++) {
        run->first_sync_error = point->clock.error;
    }
    run->max_sync_error = fmax(run->max_sync_error, point->clock.error);
}

/* Whether some component of the point kept no launch: every stage was
 * disrupted (its launches started late), as when the clock offsets went
 * stale during the point.  Rank 0 knows; every rank gets the answer. */
static bool nothing_valid(const bench_point_t *point)
{
    int none = 0;

    if (0 == point->run->rank) {
        for (int a = 0; a < point->nactive; ++a) {
            none |= 0 == point->valid[point->active[a]];
        }
    }
    MPI_Bcast(&none, 1, MPI_INT, 0, point->run->ctl);
    return 0 != none;
}

/* The point's stages, and once more from a new clock sync, its launches
 * so far dropped, when a component kept none. */
static void measure_stages(bench_point_t *point, bench_pool_t *pool)
{
    run_stages(point, pool);
    if (nothing_valid(point)) {
        memset(point->launches, 0, sizeof(point->launches));
        memset(point->valid, 0, sizeof(point->valid));
        memset(point->late, 0, sizeof(point->late));
        memset(point->overran, 0, sizeof(point->overran));
        point->stage = 0;
        point->disrupted = 0;
        sync_clocks(point);
        run_stages(point, pool);
    }
}

void bench_measure_point(bench_run_t *run, int op_id, size_t size, bench_pool_t *pool)
{
    bench_point_t *point = calloc(1, sizeof(*point));
    bool rank0 = 0 == run->rank;

    point->run = run;
    point->op_id = op_id;
    point->op = bench_op(op_id);
    point->size = size;
    point->b = NAN;
    bench_layout_make(&point->layout, point->op, size, run->size, &run->opt);
    point->call = (bench_call_t) { .rank = run->rank, .layout = &point->layout,
                                   .wait_s = run->opt.wait_s };
    for (int c = 0; c < run->ncomponents; ++c) {
        bench_tally_reset(&point->tallies[c], point->op, run->components[c].is_shmcico);
        point->times[c] = rank0 ? malloc(run->opt.max_launches * sizeof(double)) : NULL;
    }
    bench_pool_prepare(pool, point->op, &point->layout, run->opt.cache, run->opt.cold_pool);
    sync_clocks(point);
    check_components(point, pool);
    if (point->nactive > 0) {
        measure_stages(point, pool);
    }
    reduce_tallies(point);
    if (rank0) {
        add_rows(point);
    }
    for (int c = 0; c < run->ncomponents; ++c) {
        free(point->times[c]);
    }
    bench_layout_free(&point->layout);
    free(point);
}
