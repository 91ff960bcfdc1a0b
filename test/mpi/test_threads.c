/*
 * Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
 * $COPYRIGHT$
 *
 * Additional copyrights may follow
 *
 * $HEADER$
 */

/*
 * MPI_THREAD_MULTIPLE: several threads of every process run collectives
 * at the same time, each on its own communicator (as MPI requires), with
 * random operations, roots and sizes; every result is checked, and
 * coll/shmcico must have served the calls.  With coll_shmcico_lazy 0 the
 * segments are still made at the first call (not while Open MPI enables a
 * communicator, where a blocking wait would hang under threads).
 *
 * "limit": a communicator set up alone gets a segment under
 * coll_shmcico_max_memory; then every thread sets up its communicator's
 * segment at the same moment (its first Bcast), under a limit that
 * admits fewer segments than threads; the segments mapped must stay
 * within it, and the communicators without one fall back and stay
 * correct (which get one is a race, at each process).
 *
 * Usage: test_threads [THREADS] [OPERATIONS per thread]
 *        test_threads limit THREADS
 */

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shmcico_test.h"

#define MAX_THREADS 8

typedef struct worker {
    MPI_Comm comm;
    int id;
    int ops;
    unsigned long long calls;
} worker;

static void *work(void *arg)
{
    worker *w = arg;
    uint64_t state = 1000 + (uint64_t) w->id;     /* the same on every process */
    int size, counts[64];

    MPI_Comm_size(w->comm, &size);
    for (int i = 0; i < w->ops && st_failures() <= 10; ++i) {
        st_op op = (st_op) (st_random(&state) % ST_NOPS);
        int root = (int) (st_random(&state) % (uint64_t) size);
        int bytes = (int) (st_random(&state) % 20000);

        for (int j = 0; j < size; ++j) {
            counts[j] = st_op_regular(op) ? bytes : (int) (st_random(&state) % 20000);
        }
        w->calls += !st_skipped_by_mpi(op, w->comm, counts);
        st_simple_call(op, w->comm, root, counts, (uint64_t) (w->id * 100000 + i));
    }
    return NULL;
}

static pthread_barrier_t together;

static void *first_call(void *arg)
{
    worker *w = arg;
    int counts[1] = { 1000 };

    pthread_barrier_wait(&together);
    st_simple_call(ST_BCAST, w->comm, 0, counts, (uint64_t) w->id);
    return NULL;
}

/* one setup alone succeeds under the limit, and gives its memory back:
 * what the threads of limit_test() find is the limit's doing */
static void alone_under_the_limit(int nthreads)
{
    unsigned long long served0 = st_counter("bcast_served");
    unsigned long long created0 = st_counter("segments_created");
    worker alone = { .id = nthreads };

    MPI_Comm_dup(MPI_COMM_WORLD, &alone.comm);
    pthread_barrier_init(&together, NULL, 1);
    (void) first_call(&alone);
    pthread_barrier_destroy(&together);
    ST_CHECK(1 == st_counter("segments_created") - created0
             && 1 == st_counter("bcast_served") - served0,
             "a communicator set up alone: %llu segments, %llu Bcasts served",
             st_counter("segments_created") - created0, st_counter("bcast_served") - served0);
    MPI_Comm_free(&alone.comm);
}

/* the first call of each worker's communicator, one thread each, at once */
static void first_calls_at_once(worker *workers, int nthreads)
{
    pthread_t threads[MAX_THREADS];

    pthread_barrier_init(&together, NULL, (unsigned) nthreads);
    for (int t = 0; t < nthreads; ++t) {
        pthread_create(&threads[t], NULL, first_call, &workers[t]);
    }
    for (int t = 0; t < nthreads; ++t) {
        pthread_join(threads[t], NULL);
    }
    pthread_barrier_destroy(&together);
}

/* THREADS communicators set up at once under the memory limit */
static int limit_test(int nthreads, int rank)
{
    worker workers[MAX_THREADS];
    unsigned long long served0, fallback0, created0, reused0;
    unsigned long long limit = st_cvar("max_memory"), mapped, created, kept;

    alone_under_the_limit(nthreads);
    /* its segment is kept (coll_shmcico_keep_segments): one of the
     * communicators below may take it over */
    created0 = st_counter("segments_created");
    reused0 = st_counter("segments_reused");
    served0 = st_counter("bcast_served");
    fallback0 = st_counter("bcast_fallback");
    for (int t = 0; t < nthreads; ++t) {
        workers[t] = (worker) { .id = t };
        MPI_Comm_dup(MPI_COMM_WORLD, &workers[t].comm);
    }
    first_calls_at_once(workers, nthreads);
    mapped = st_size_variable("segment_bytes");
    created = st_counter("segments_created") - created0
              + st_counter("segments_reused") - reused0;
    ST_CHECK(limit > 0 && mapped <= limit, "%llu segment bytes mapped, over "
             "coll_shmcico_max_memory %llu", mapped, limit);
    ST_CHECK(created < (unsigned long long) nthreads, "%llu segments for %d "
             "communicators: the limit admits fewer", created, nthreads);
    ST_CHECK(st_counter("bcast_served") - served0 == created
             && st_counter("bcast_fallback") - fallback0 == nthreads - created,
             "%llu Bcasts served and %llu handed on, expected %llu and %llu",
             st_counter("bcast_served") - served0, st_counter("bcast_fallback") - fallback0,
             created, nthreads - created);
    for (int t = 0; t < nthreads; ++t) {
        MPI_Comm_free(&workers[t].comm);
    }
    /* every segment but those kept unmapped (a segment is mapped / created) */
    kept = st_cvar("keep_segments") < created ? st_cvar("keep_segments") : created;
    ST_CHECK(created > 0 && st_size_variable("segment_bytes") == kept * (mapped / created),
             "%llu segment bytes left after free, expected %llu kept segments of %llu",
             st_size_variable("segment_bytes"), kept, created > 0 ? mapped / created : 0);
    if (0 == rank) {
        printf("test_threads limit: %d segments set up at once, %llu made, %llu bytes "
               "mapped under %llu\n", nthreads, created, mapped, limit);
    }
    return st_finish("test_threads");
}

int main(int argc, char **argv)
{
    int nthreads, ops, rank, size, level;
    worker workers[MAX_THREADS];
    pthread_t threads[MAX_THREADS];
    unsigned long long before[ST_NOPS], served = 0, calls = 0;

    st_init_threads(&argc, &argv);
    /* MPI_T's initialisation must leave MPI at MPI_THREAD_MULTIPLE: with
     * a lower level ob1 shares its cached requests among threads */
    MPI_Query_thread(&level);
    ST_CHECK(MPI_THREAD_MULTIPLE == level, "thread level %d after MPI_T_init_thread", level);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc > 2 && 0 == strcmp(argv[1], "limit")) {
        nthreads = atoi(argv[2]);
        if (nthreads < 2 || nthreads > MAX_THREADS) {
            st_fail("usage: test_threads limit [2..%d threads]", MAX_THREADS);
            return st_finish("test_threads");
        }
        return limit_test(nthreads, rank);
    }
    nthreads = argc > 1 ? atoi(argv[1]) : 4;
    ops = argc > 2 ? atoi(argv[2]) : 500;
    if (nthreads < 1 || nthreads > MAX_THREADS || size > 64) {
        st_fail("usage: test_threads [1..%d threads] [operations]", MAX_THREADS);
        return st_finish("test_threads");
    }
    for (int op = 0; op < ST_NOPS; ++op) {
        before[op] = st_op_counter((st_op) op, "served");
    }
    for (int t = 0; t < nthreads; ++t) {
        workers[t] = (worker) { .id = t, .ops = ops };
        MPI_Comm_dup(MPI_COMM_WORLD, &workers[t].comm);
    }
    for (int t = 0; t < nthreads; ++t) {
        pthread_create(&threads[t], NULL, work, &workers[t]);
    }
    for (int t = 0; t < nthreads; ++t) {
        pthread_join(threads[t], NULL);
        calls += workers[t].calls;
        MPI_Comm_free(&workers[t].comm);
    }
    for (int op = 0; op < ST_NOPS; ++op) {
        served += st_op_counter((st_op) op, "served") - before[op];
    }
    ST_CHECK(served == calls, "shmcico served %llu of %llu calls", served, calls);
    if (0 == rank) {
        printf("test_threads: %d threads x %d operations at once, %llu served\n",
               nthreads, ops, served);
    }
    return st_finish("test_threads");
}
