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
 * Statistics of the valid launch times, and the reports: the table on
 * stdout, the CSV file, and the progress lines on stderr.
 */

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "bench_judge.h"

#define US 1e6

/* ---------------------------------------------------------------- */
/* statistics */

/* Two-sided 95% quantiles of Student's t for 1..30 degrees of freedom;
 * above that the normal 1.96. */
static double t_quantile_95(size_t df)
{
    static const double t[] = {
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
        2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
        2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042
    };

    return df <= sizeof(t) / sizeof(t[0]) ? t[df - 1] : 1.96;
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *) a, y = *(const double *) b;

    return (x > y) - (x < y);
}

double bench_median(double *values, size_t n)
{
    qsort(values, n, sizeof(double), compare_doubles);
    return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

/* The standard error of the mean of the kept times: the Winsorized
 * deviation (each trimmed time counted as the nearest kept one) over
 * the kept count (Tukey and McLaughlin); with nothing trimmed, the
 * usual s / sqrt(n).  The deviation of the kept times alone would
 * understate it (by about 18 % with 10 % trimmed from normal data). */
static double trimmed_se(const double *sorted, size_t n, size_t drop, size_t kept)
{
    double lo = sorted[drop], hi = sorted[n - 1 - drop], mean, squares = 0;

    /* the kept times' sum, and each trimmed end counted as lo or hi */
    mean = (double) drop * (lo + hi);
    for (size_t i = drop; i < n - drop; ++i) {
        mean += sorted[i];
    }
    mean /= (double) n;
    for (size_t i = 0; i < n; ++i) {
        double x = i < drop ? lo : i >= n - drop ? hi : sorted[i];
        squares += (x - mean) * (x - mean);
    }
    return kept > 1 ? sqrt(squares / (double) (n - 1) * (double) n) / (double) kept : NAN;
}

void bench_summarize(double *times, size_t n, double trim_pct,
                     bench_summary_t *s)
{
    size_t drop = (size_t) (n * trim_pct / 200.0);
    const double *kept = times + drop;
    double sum = 0;

    qsort(times, n, sizeof(double), compare_doubles);
    s->n = n - 2 * drop;
    if (0 == s->n) {
        s->mean = s->se = s->ci_lo = s->ci_hi = s->min = s->max = NAN;
        return;
    }
    for (size_t i = 0; i < s->n; ++i) {
        sum += kept[i];
    }
    s->mean = sum / s->n;
    s->se = trimmed_se(times, n, drop, s->n);
    s->ci_lo = s->mean - (s->n > 1 ? t_quantile_95(s->n - 1) * s->se : NAN);
    s->ci_hi = 2 * s->mean - s->ci_lo;
    s->min = kept[0];
    s->max = kept[s->n - 1];
}

/* ---------------------------------------------------------------- */
/* reports */

static const char *root_text(const bench_options_t *opt, char *buf, size_t len)
{
    if (BENCH_ROOT_SHIFT == opt->root) {
        return "shift";
    }
    snprintf(buf, len, "%d", opt->root);
    return buf;
}

/* Whether a row gets a note on the calls coll/shmcico served. */
static bool has_served_note(const bench_run_t *run, const bench_row_t *row)
{
    return run->components[row->component].is_shmcico
        && NULL != bench_op(row->op)->counter;
}

/* What the counters say about the calls of a shmcico row: served by
 * shmcico, handed to the previous component (fallback), or never seen
 * by shmcico at all. */
static const char *served_text(const bench_row_t *row, char *buf, size_t len)
{
    if (!row->counted) {
        snprintf(buf, len, "served n/a");
    } else if (row->served == row->calls) {
        snprintf(buf, len, "served %llu/%llu", row->served, row->calls);
    } else if (0 == row->served) {
        snprintf(buf, len, "%s (served 0/%llu)",
                 row->fallback > 0 ? "fallback" : "not shmcico", row->calls);
    } else {
        snprintf(buf, len, "served %llu/%llu only", row->served, row->calls);
    }
    return buf;
}

/* ", late starts A/B, overruns A/B": each component's launches that
 * started late and that overran their slot, over the stages after the
 * warm-up (discarded ones included; since the last clock sync) */
static void print_late_and_overruns(FILE *out, const bench_row_t *rows, int n)
{
    fprintf(out, ", late starts");
    for (int c = 0; c < n; ++c) {
        fprintf(out, "%s%lu", 0 == c ? " " : "/", rows[c].late);
    }
    fprintf(out, ", overruns");
    for (int c = 0; c < n; ++c) {
        fprintf(out, "%s%lu", 0 == c ? " " : "/", rows[c].overran);
    }
}

static void print_time(FILE *out, double seconds)
{
    if (isnan(seconds)) {
        fprintf(out, "n/a");
    } else {
        fprintf(out, "%.2f us", seconds * US);
    }
}

void bench_report_progress(const bench_run_t *run, const bench_row_t *rows,
                           int nrows)
{
    const bench_op_t *op = bench_op(rows[0].op);
    char note[64];

    if (op->sized) {
        fprintf(stderr, "[%s %zu B]", op->name, rows[0].size);
    } else {
        fprintf(stderr, "[%s]", op->name);
    }
    for (int i = 0; i < nrows; ++i) {
        fprintf(stderr, " %s ", run->components[rows[i].component].name);
        if (rows[i].check_failed) {
            fprintf(stderr, "CHECK FAILED");
        } else {
            print_time(stderr, rows[i].summary.mean);
        }
    }
    for (int i = 0; i < nrows; ++i) {
        if (has_served_note(run, &rows[i])) {
            fprintf(stderr, " | %s", served_text(&rows[i], note, sizeof(note)));
        }
    }
    if (0 == rows[0].stages) {
        fprintf(stderr, " (not timed)\n");
    } else {
        fprintf(stderr, " (b %.1f us, %d stages, %d disrupted", rows[0].b * US,
                rows[0].stages, rows[0].disrupted);
        print_late_and_overruns(stderr, rows, nrows);
        fprintf(stderr, ")\n");
    }
}

static void print_header(FILE *out, const bench_run_t *run)
{
    const bench_options_t *opt = &run->opt;
    char buf[32];

    fprintf(out, "# shmcico-bench: collective times with synchronised starts "
            "(the MPIPerf method)\n");
    fprintf(out, "# library:    %s\n", run->library);
    fprintf(out, "# np:         %d on %s\n", run->size, run->host);
    fprintf(out, "# timer:      %s\n", run->timer);
    fprintf(out, "# sync:       %s, %d ping-pongs per link; error %.3f us "
            "(half the smallest round trip, max over ranks; up to %.3f us "
            "over the re-syncs of every point)\n",
            BENCH_SYNC_RING == opt->sync ? "ring" : "linear", opt->sync_rounds,
            run->first_sync_error * US, run->max_sync_error * US);
    if (BENCH_CACHE_COLD == opt->cache) {
        fprintf(out, "# cache:      cold (a fresh buffer region per launch, pool >= 4 "
                "launches and %zu MiB)\n", opt->cold_pool >> 20);
    } else {
        fprintf(out, "# cache:      warm (the same buffers every launch)\n");
    }
    fprintf(out, "# root:       %s%s\n", root_text(opt, buf, sizeof(buf)),
            BENCH_ROOT_SHIFT == opt->root ? " (launch i uses root i % np)" : "");
    fprintf(out, "# v-counts:   %s", BENCH_COUNTS_IRREGULAR == opt->counts
            ? "irregular, in [0, 2m]" : "uniform, m each");
    if (BENCH_COUNTS_IRREGULAR == opt->counts) {
        fprintf(out, " (seed %llu)", (unsigned long long) opt->counts_seed);
    }
    fprintf(out, "\n# valid:      every rank starts within %.0f ns of the "
            "schedule (or %g %% of the launch's time, where more) and ends inside "
            "its slot b\n", opt->late_s * 1e9, 100 * opt->late_share);
    fprintf(out, "# statistics: mean of the valid times (%g%% trimmed) +- half "
            "the 95%% CI; a point stops at rel. std. error %g with >= %d valid, "
            "at %d launches, or after %g s of stages\n", opt->trim_pct, opt->rel_error,
            opt->min_launches, opt->max_launches, opt->max_seconds);
    fprintf(out, "# components: %s (measured)", run->components[0].name);
    for (int c = 1; c < run->ncomponents; ++c) {
        fprintf(out, "%s%s", 1 == c ? ", baselines: " : ", ",
                run->components[c].name);
    }
    if (run->ncomponents > 1) {
        fprintf(out, " (their communicators exclude %s, unless they are variants of it)",
                run->components[0].base);
    }
    fprintf(out, "\n# date:       %s\n", run->date);
}

static void print_block_title(FILE *out, const bench_run_t *run,
                              const bench_op_t *op)
{
    double expected = bench_op_expected(op, run->size, run->opt.wait_s);

    fprintf(out, "\n## %s: %s", op->name, op->what);
    if (expected >= 0) {
        fprintf(out, "; expected %.3f us", expected * US);
    }
    fprintf(out, "\n");
    for (int c = 0; c < run->ncomponents; ++c) {
        if (!bench_component_provides(run->components[c].base, op)) {
            fprintf(out, "#  %s*: %s has no %s; Open MPI runs the next coll "
                    "component on its communicator\n", run->components[c].name,
                    run->components[c].base, op->name);
        }
    }
}

static void print_column_names(FILE *out, const bench_run_t *run,
                               const bench_op_t *op)
{
    char name[64];

    fprintf(out, "%10s", "size");
    for (int c = 0; c < run->ncomponents; ++c) {
        snprintf(name, sizeof(name), "%s%s [us]", run->components[c].name,
                 bench_component_provides(run->components[c].base, op) ? "" : "*");
        fprintf(out, " %22s", name);
    }
    for (int c = 1; c < run->ncomponents; ++c) {
        snprintf(name, sizeof(name), "%s/%s", run->components[0].name,
                 run->components[c].name);
        fprintf(out, " %14s", name);
    }
    fprintf(out, "  valid\n");
}

static void print_cell(FILE *out, const bench_row_t *row)
{
    if (row->check_failed) {
        fprintf(out, " %22s", "CHECK FAILED");
    } else if (0 == row->summary.n) {
        fprintf(out, " %22s", "no valid launch");
    } else {
        fprintf(out, " %11.2f +- %-8.2f", row->summary.mean * US,
                (row->summary.ci_hi - row->summary.mean) * US);
    }
}

/* Where a component kept no launch, why: the stages after the warm-up,
 * and each component's launches that started late or overran. */
static void print_why_invalid(FILE *out, const bench_row_t *rows, int n)
{
    bool none = false;

    for (int c = 0; c < n; ++c) {
        none |= !rows[c].check_failed && 0 == rows[c].summary.n;
    }
    if (!none || rows[0].stages < 2) {
        return;
    }
    fprintf(out, "  (last try: %d stages after the warm-up", rows[0].stages - 1);
    print_late_and_overruns(out, rows, n);
    fprintf(out, ")");
}

/* One line: the rows of one point, one per component. */
static void print_point(FILE *out, const bench_run_t *run, const bench_row_t *rows)
{
    char note[64];

    if (bench_op(rows[0].op)->sized) {
        fprintf(out, "%10zu", rows[0].size);
    } else {
        fprintf(out, "%10s", "-");
    }
    for (int c = 0; c < run->ncomponents; ++c) {
        print_cell(out, &rows[c]);
    }
    for (int c = 1; c < run->ncomponents; ++c) {
        double ratio = rows[0].summary.mean / rows[c].summary.mean;

        if (isnan(ratio)) {
            fprintf(out, " %14s", "-");
        } else {
            fprintf(out, " %14.3f", ratio);
        }
    }
    fprintf(out, " ");
    for (int c = 0; c < run->ncomponents; ++c) {
        fprintf(out, "%s%lu", 0 == c ? " " : "/", rows[c].valid);
    }
    for (int c = 0; c < run->ncomponents; ++c) {
        if (has_served_note(run, &rows[c])) {
            fprintf(out, "  %s: %s", run->components[c].name,
                    served_text(&rows[c], note, sizeof(note)));
        }
        if (rows[c].errors > 0) {
            fprintf(out, "  %s: %u MPI errors", run->components[c].name,
                    rows[c].errors);
        }
    }
    print_why_invalid(out, rows, run->ncomponents);
    fprintf(out, "\n");
}

void bench_report_table(FILE *out, const bench_run_t *run)
{
    int per_point = run->ncomponents;

    print_header(out, run);
    for (int i = 0; i < run->nrows; i += per_point) {
        const bench_op_t *op = bench_op(run->rows[i].op);

        if (0 == i || run->rows[i - per_point].op != run->rows[i].op) {
            print_block_title(out, run, op);
            print_column_names(out, run, op);
        }
        print_point(out, run, &run->rows[i]);
    }
}

bool bench_report_csv(const char *path, const bench_run_t *run)
{
    FILE *out = fopen(path, "w");
    char root[32], served[32];

    if (NULL == out) {
        fprintf(stderr, "shmcico-bench: cannot write %s: %s\n", path, strerror(errno));
        return false;
    }
    fprintf(out, "op,size_bytes,component,mean_us,stderr_us,ci95_lo_us,ci95_hi_us,"
            "min_us,max_us,launches,valid,b_us,cache,root,np,served,calls,"
            "stages,late,overran\n");
    for (int i = 0; i < run->nrows; ++i) {
        const bench_row_t *row = &run->rows[i];
        const bench_summary_t *s = &row->summary;

        snprintf(served, sizeof(served), "%llu", row->served);
        fprintf(out, "%s,%zu,%s,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%lu,%lu,%.3f,"
                "%s,%s,%d,%s,%llu,%d,%lu,%lu\n", bench_op(row->op)->name, row->size,
                run->components[row->component].name,
                s->mean * US, s->se * US, s->ci_lo * US, s->ci_hi * US,
                s->min * US, s->max * US, row->launches, row->valid, row->b * US,
                BENCH_CACHE_COLD == run->opt.cache ? "cold" : "warm",
                root_text(&run->opt, root, sizeof(root)), run->size,
                row->counted ? served : "n/a", row->calls, row->stages, row->late,
                row->overran);
    }
    if (0 != fclose(out)) {
        fprintf(stderr, "shmcico-bench: cannot write %s: %s\n", path, strerror(errno));
        return false;
    }
    return true;
}
