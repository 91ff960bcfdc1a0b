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
 * shmcico-bench: collective timing with synchronised starts (the MPIPerf
 * method).
 *
 * Every rank estimates the offset of its clock to rank 0's, so that one
 * global schedule can be converted into each rank's own clock.  Launch j
 * of a stage starts at global time t0 + j*b on every rank at once (each
 * rank busy-waits until then); a launch counts only when every rank
 * started on time and finished inside its slot, and its time is the
 * largest end time over the ranks, relative to the scheduled start.
 * Several coll components are measured side by side, one communicator
 * each (selected with the ompi_comm_coll_preference info key), their
 * launches interleaved slot by slot so that drift hits all alike.
 *
 * bench_clock.c  timers, clock offsets, waiting for a scheduled time
 * bench_ops.c    the operations (table-driven), buffers, data checks,
 *                coll/shmcico's MPI_T counters
 * bench_stats.c  statistics of a sample, the table and the CSV file
 * bench_point.c  one (operation, size) point in adaptive stages
 * bench_main.c   the set-up of the components, the driver
 */

#ifndef SHMCICO_BENCH_H
#define SHMCICO_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <mpi.h>

#if defined(__x86_64__)
#include <x86intrin.h>
#define BENCH_HAVE_TSC 1
#else
#define BENCH_HAVE_TSC 0
#endif

#define BENCH_MAX_COMPONENTS 8
#define BENCH_MAX_SIZES 64
#define BENCH_ROOT_SHIFT (-1)

/* ---------------------------------------------------------------- */
/* options */

typedef enum {
    BENCH_OP_BCAST,
    BENCH_OP_SCATTER,
    BENCH_OP_SCATTERV,
    BENCH_OP_GATHER,
    BENCH_OP_GATHERV,
    BENCH_OP_ALLGATHER,
    BENCH_OP_ALLGATHERV,
    BENCH_OP_NULL,
    BENCH_OP_WAITUP,
    BENCH_OP_COUNT
} bench_op_id_t;

typedef enum { BENCH_TIMER_WTIME, BENCH_TIMER_TSC } bench_timer_t;
typedef enum { BENCH_SYNC_LINEAR, BENCH_SYNC_RING } bench_sync_method_t;
typedef enum { BENCH_CACHE_COLD, BENCH_CACHE_WARM } bench_cache_t;
typedef enum { BENCH_COUNTS_UNIFORM, BENCH_COUNTS_IRREGULAR } bench_counts_t;

typedef struct {
    int ops[BENCH_OP_COUNT];            /**< in the order asked for */
    int nops;
    const char *components[BENCH_MAX_COMPONENTS]; /**< [0] measured, then baselines */
    int ncomponents;
    size_t sizes[BENCH_MAX_SIZES];      /**< bytes, ascending */
    int nsizes;
    bench_timer_t timer;
    bench_sync_method_t sync;
    int sync_rounds;                    /**< ping-pongs per pair of ranks */
    double late_s;                      /**< lateness tolerance, at least */
    double late_share;                  /**< ... or this share of a launch's time */
    double trim_pct;
    double rel_error;
    int min_launches;
    int max_launches;
    double max_seconds;
    bench_cache_t cache;
    size_t cold_pool;                   /**< bytes cycled through when cold */
    int root;                           /**< or BENCH_ROOT_SHIFT */
    bench_counts_t counts;
    uint64_t counts_seed;
    double wait_s;                      /**< D of the waitup pattern */
    const char *csv;
    bool quiet;
} bench_options_t;

/** bench_options.c: the command line into opt, for size ranks (rank 0
 *  prints the help or what is wrong).  0: run; 1: the help was asked
 *  for; 2: bad options. */
int bench_parse_options(int argc, char **argv, bench_options_t *opt, int size, int rank);

/* ---------------------------------------------------------------- */
/* bench_clock.c: timers and clock offsets */

/* Seconds per tick of the TSC, 0 while MPI_Wtime is the timer. */
extern double bench_tsc_scale;
extern uint64_t bench_tsc_base;

/** The current time in seconds, in this rank's own clock. */
static inline double bench_now(void)
{
#if BENCH_HAVE_TSC
    if (bench_tsc_scale > 0) {
        _mm_lfence();
        return (double) (__rdtsc() - bench_tsc_base) * bench_tsc_scale;
    }
#endif
    return MPI_Wtime();
}

/** Collective over comm: chooses the timer (tsc: calibrated on rank 0,
 *  the same scale on every rank). */
void bench_timer_init(bench_timer_t timer, MPI_Comm comm);
/** "MPI_Wtime (tick ...)" or "tsc (... GHz ...)". */
void bench_timer_describe(char *buf, size_t len);

/** Give the core away while far from a deadline (more ranks than cores). */
void bench_clock_yield_while_waiting(bool yield);
/** Busy-wait until bench_now() >= t. */
void bench_wait_until(double t);

typedef struct {
    double offset;          /**< own clock = rank 0's clock + offset */
    double error;           /**< bound of the offset errors, max over ranks */
} bench_offset_t;

/** Collective over comm: estimates this rank's offset to rank 0. */
bench_offset_t bench_clock_sync(bench_sync_method_t method, int rounds,
                                MPI_Comm comm);

/* ---------------------------------------------------------------- */
/* bench_ops.c: operations, buffers, checks, counters */

/** How the blocks of one call are laid out (bytes, MPI_BYTE). */
typedef struct {
    int nblocks;
    int *counts;
    int *displs;                /**< packed in rank order */
    size_t total;
    size_t max_count;
} bench_layout_t;

typedef struct {
    MPI_Comm comm;
    int rank, root;
    void *send, *recv;
    const bench_layout_t *layout;
    double wait_s;
} bench_call_t;

/** Which ranks send or receive data in an operation. */
typedef enum {
    BENCH_WHO_NONE,
    BENCH_WHO_ROOT,
    BENCH_WHO_NONROOT,
    BENCH_WHO_ALL
} bench_who_t;

/** Which part of the layout a buffer holds. */
typedef enum { BENCH_SPAN_OWN, BENCH_SPAN_ALL } bench_span_t;

typedef struct {
    const char *name;
    const char *what;           /**< one line for the table */
    const char *counter;        /**< coll_shmcico_<counter>_served, or NULL */
    bench_who_t send_who, recv_who;
    bench_span_t send_span, recv_span;
    bool one_block;             /**< m bytes of the root's, received in place */
    bool vector;                /**< counts per process from --counts */
    bool sized;                 /**< false: a self-check pattern, no data */
    int (*call)(const bench_call_t *call);
} bench_op_t;

const bench_op_t *bench_op(int id);
/** The op id of name, or -1. */
int bench_op_find(const char *name);
/** The expected time of a self-check pattern, or a negative number. */
double bench_op_expected(const bench_op_t *op, int nprocs, double wait_s);
/** False when coll component name is known not to implement op. */
bool bench_component_provides(const char *name, const bench_op_t *op);

/** Sets the layout of op at m bytes (the options were checked to keep
 *  every displacement within an int). */
void bench_layout_make(bench_layout_t *layout, const bench_op_t *op,
                       size_t m, int size, const bench_options_t *opt);
void bench_layout_free(bench_layout_t *layout);

/** A region of buffers per launch, cycled through for a cold cache. */
typedef struct {
    char *base;
    size_t allocated;
    size_t send_bytes;          /**< the send part of each region */
    size_t region;
    size_t nregions;
    size_t next;
} bench_pool_t;

void bench_pool_prepare(bench_pool_t *pool, const bench_op_t *op,
                        const bench_layout_t *layout, bench_cache_t cache,
                        size_t cold_pool);
/** Points call->send and call->recv to the next region. */
void bench_pool_next(bench_pool_t *pool, const bench_op_t *op,
                     bench_call_t *call);
void bench_pool_free(bench_pool_t *pool);


/** Calls made on one communicator, and how many coll/shmcico served. */
typedef struct {
    unsigned long long calls, served, fallback;
    unsigned long long served_before, fallback_before;
    bool counted;               /**< shmcico's counters exist for the op */
    unsigned errors;            /**< calls that returned an MPI error */
} bench_tally_t;

void bench_counters_open(void);
void bench_counters_close(void);
/** Whether coll/shmcico registered any of its served counters. */
bool bench_counters_found(void);
/** Resets the tally; it counts served calls when with_counters. */
void bench_tally_reset(bench_tally_t *tally, const bench_op_t *op,
                       bool with_counters);
void bench_tally_begin(bench_tally_t *tally, const bench_op_t *op);
void bench_tally_end(bench_tally_t *tally, const bench_op_t *op, int rc);
/** A call outside the timed region, counted in the tally. */
int bench_tallied_call(const bench_op_t *op, const bench_call_t *call,
                       bench_tally_t *tally);
/** A tallied call with a data pattern; true when this rank's data are
 *  right. */
bool bench_check_call(const bench_op_t *op, const bench_call_t *call,
                      bench_tally_t *tally);

/* ---------------------------------------------------------------- */
/* bench_stats.c: statistics and reports */

typedef struct {
    size_t n;                   /**< after trimming */
    double mean, se, ci_lo, ci_hi, min, max;
} bench_summary_t;

/** Sorts values in place; their median. */
double bench_median(double *values, size_t n);
/** Sorts times in place and summarises them after trimming trim_pct%. */
void bench_summarize(double *times, size_t n, double trim_pct,
                     bench_summary_t *summary);

#define BENCH_NAME_MAX 64       /**< bytes of a component's name, its NUL included */
#define BENCH_HINT_MAX 256      /**< bytes of one KEY=VALUE of a variant, its NUL included */

typedef struct {
    const char *name;           /**< as given: NAME[@KEY=VALUE]... */
    char base[BENCH_NAME_MAX];  /**< NAME: the coll component */
    MPI_Comm comm;
    bool is_shmcico;
} bench_component_t;

/** One (operation, size, component), as rank 0 knows it. */
typedef struct {
    int op;
    size_t size;
    int component;
    bench_summary_t summary;
    unsigned long launches, valid;
    double b;
    int stages;                 /**< warm-up and discarded ones included */
    int disrupted;              /**< discarded without doubling b */
    unsigned long late;         /**< launches started late, after the warm-up */
    unsigned long overran;      /**< launches on time that ended past b */
    unsigned long long calls, served, fallback;
    bool counted;
    bool check_failed;
    unsigned errors;
} bench_row_t;

typedef struct {
    bench_options_t opt;
    int rank, size;
    MPI_Comm ctl;               /**< control traffic, never timed */
    bench_component_t components[BENCH_MAX_COMPONENTS];
    int ncomponents;
    char library[MPI_MAX_LIBRARY_VERSION_STRING];
    char host[MPI_MAX_PROCESSOR_NAME];
    char date[64];
    char timer[128];
    int syncs;                  /**< one per point */
    double first_sync_error;
    double max_sync_error;
    bench_row_t *rows;
    int nrows;
} bench_run_t;

/** bench_components.c: component c's communicator, with its hints;
 *  false (rank 0 says why) when a hint of a variant did not take. */
bool bench_open_component(bench_run_t *run, int c);

/** bench_point.c: collective over the run's communicators: measures
 *  operation op_id at size bytes (0 for a pattern without data) on every
 *  component, its buffers from pool; rank 0 adds a row per component to
 *  run->rows (and, unless quiet, a progress line). */
void bench_measure_point(bench_run_t *run, int op_id, size_t size, bench_pool_t *pool);

/** One line on stderr for the rows of a point. */
void bench_report_progress(const bench_run_t *run, const bench_row_t *rows,
                           int nrows);
void bench_report_table(FILE *out, const bench_run_t *run);
/** False (with a message) when the file cannot be written. */
bool bench_report_csv(const char *path, const bench_run_t *run);

#endif /* SHMCICO_BENCH_H */
