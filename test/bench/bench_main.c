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
 * shmcico-bench: the set-up of the compared components and the driver,
 * which measures every (operation, size) point asked for
 * (bench_point.c) and reports them (see bench.h for the method;
 * bench_options.c parses the command line).
 */

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"

/* ---------------------------------------------------------------- */
/* set-up */

static bool more_ranks_than_cores(void)
{
    MPI_Comm node;
    int local;

    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    MPI_Comm_size(node, &local);
    MPI_Comm_free(&node);
    return local > sysconf(_SC_NPROCESSORS_ONLN);
}

static void describe_run(bench_run_t *run)
{
    time_t now = time(NULL);
    char *newline;
    int len;

    MPI_Get_library_version(run->library, &len);
    if (NULL != (newline = strchr(run->library, '\n'))) {
        *newline = '\0';
    }
    MPI_Get_processor_name(run->host, &len);
    strftime(run->date, sizeof(run->date), "%Y-%m-%d %H:%M:%S %Z", localtime(&now));
    bench_timer_describe(run->timer, sizeof(run->timer));
}

/* A "shmcico" communicator without shmcico's counters most likely runs
 * another component: say so before the numbers. */
static void warn_if_shmcico_missing(const bench_run_t *run)
{
    for (int c = 0; c < run->ncomponents; ++c) {
        if (run->components[c].is_shmcico && !bench_counters_found()
            && 0 == run->rank) {
            fprintf(stderr, "shmcico-bench: warning: coll/shmcico's MPI_T counters "
                    "do not exist: is the component loaded (mca_base_component_path)? "
                    "Its rows say \"served n/a\".\n");
            return;
        }
    }
}

/* false when a variant's hint did not take (the same on every rank) */
static bool open_run(bench_run_t *run)
{
    bool hints = true;

    MPI_Comm_dup(MPI_COMM_WORLD, &run->ctl);
    for (int c = 0; c < run->opt.ncomponents; ++c) {
        hints &= bench_open_component(run, c);
    }
    run->ncomponents = run->opt.ncomponents;
    bench_timer_init(run->opt.timer, run->ctl);
    bench_clock_yield_while_waiting(more_ranks_than_cores());
    bench_counters_open();
    warn_if_shmcico_missing(run);
    describe_run(run);
    return hints;
}

static void close_run(bench_run_t *run)
{
    bench_counters_close();
    for (int c = 0; c < run->ncomponents; ++c) {
        MPI_Comm_free(&run->components[c].comm);
    }
    MPI_Comm_free(&run->ctl);
    free(run->rows);
}

/* ---------------------------------------------------------------- */
/* the driver */

static void measure_all(bench_run_t *run)
{
    bench_pool_t pool = { 0 };

    for (int i = 0; i < run->opt.nops; ++i) {
        int op_id = run->opt.ops[i];

        if (!bench_op(op_id)->sized) {
            bench_measure_point(run, op_id, 0, &pool);
            continue;
        }
        for (int s = 0; s < run->opt.nsizes; ++s) {
            bench_measure_point(run, op_id, run->opt.sizes[s], &pool);
        }
    }
    bench_pool_free(&pool);
}

int main(int argc, char **argv)
{
    bench_run_t run;
    int status = 0;

    MPI_Init(&argc, &argv);
    memset(&run, 0, sizeof(run));
    MPI_Comm_rank(MPI_COMM_WORLD, &run.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &run.size);
    switch (bench_parse_options(argc, argv, &run.opt, run.size, run.rank)) {
    case 1:
        MPI_Finalize();
        return 0;
    case 2:
        MPI_Finalize();
        return 2;
    }
    if (!open_run(&run)) {
        close_run(&run);
        MPI_Finalize();
        return 2;
    }
    measure_all(&run);
    if (0 == run.rank) {
        bench_report_table(stdout, &run);
        if (NULL != run.opt.csv && !bench_report_csv(run.opt.csv, &run)) {
            status = 1;
        }
    }
    close_run(&run);
    MPI_Finalize();
    return status;
}
