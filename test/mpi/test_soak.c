/*
 * Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
 * $COPYRIGHT$
 *
 * Additional copyrights may follow
 *
 * $HEADER$
 */

/*
 * The soak: for SECONDS, a random mix of every served operation with
 * random roots, sizes (zero to several queues long), count patterns,
 * datatypes (different on both sides with the same signature),
 * MPI_IN_PLACE, short receivers that must get MPI_ERR_TRUNCATE, on
 * communicators of several shapes, one of which is freed and made again
 * every few hundred calls.  Every call is checked byte for byte and must
 * move its served counter (run with every coll_shmcico_<op>_max_bytes 0).
 * Rank 0 prints the operations executed per kind, how many of its calls
 * moved a block by single copy, the communicators made and the errors
 * found.
 *
 * Usage: test_soak SECONDS
 */

#include <stdio.h>
#include <stdlib.h>

#include "typed_call.h"

#define NCOMMS 5
#define CHURN_EVERY 300
#define CHECK_STOP_EVERY 50

static const st_type *types;
static size_t f, s;
static int rank, size;

typedef struct soak_comms {
    MPI_Comm comm[NCOMMS];
    const char *name[NCOMMS];
    int served[NCOMMS];             /* shmcico serves this kind everywhere */
    unsigned long long made;
} soak_comms;

/* whether shmcico serves comm, and every other process's communicator
 * of the same kind (on simulated nodes one half of the even/odd split
 * may hold one process per node, which another component serves by
 * MPI's rules, not shmcico's: its erroneous calls may wait for good);
 * the kinds called must be the same everywhere, since every process
 * draws the same sequence of calls */
static int served_everywhere(MPI_Comm comm)
{
    int here = st_served_here(comm), all;

    MPI_Allreduce(&here, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    return all;
}

static void set_comm(soak_comms *sc, int k, MPI_Comm comm, const char *name)
{
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    sc->comm[k] = comm;
    sc->name[k] = name;
    sc->served[k] = served_everywhere(comm);
    sc->made++;
}

static void make_comms(soak_comms *sc)
{
    MPI_Comm c;

    sc->made = 0;
    sc->comm[0] = MPI_COMM_WORLD;
    sc->name[0] = "world";
    sc->served[0] = served_everywhere(MPI_COMM_WORLD);
    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    set_comm(sc, 1, c, "churned dup");
    MPI_Comm_split(MPI_COMM_WORLD, 0, size - rank, &c);
    set_comm(sc, 2, c, "reversed keys");
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &c);
    set_comm(sc, 3, c, "split-type-shared");
    /* at least two processes in each half */
    MPI_Comm_split(MPI_COMM_WORLD, size >= 4 ? rank % 2 : 0, rank, &c);
    set_comm(sc, 4, c, size >= 4 ? "even/odd" : "split of all");
}

static void churn(soak_comms *sc)
{
    MPI_Comm c;

    MPI_Comm_free(&sc->comm[1]);
    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    set_comm(sc, 1, c, "churned dup");
}

static void free_comms(soak_comms *sc)
{
    for (int k = 1; k < NCOMMS; ++k) {
        MPI_Comm_free(&sc->comm[k]);
    }
}

/* bytes of one block: mostly small, some several fragments, some several
 * queues long */
static size_t random_bytes(uint64_t *state, int blocks)
{
    uint64_t r = st_random(state) % 100;
    size_t large = (4 * s * f + 4096) / (size_t) blocks;

    if (r < 5) {
        return 0;
    }
    if (r < 50) {
        return 1 + st_random(state) % 512;
    }
    if (r < 85) {
        return 1 + st_random(state) % (4 * f);
    }
    return 1 + st_random(state) % large;
}

static int in_place_allowed(st_op op)
{
    return ST_BCAST != op;
}

/* a random kind of communicator that shmcico serves (there is one:
 * main() checks) */
static int next_served(uint64_t *state, const soak_comms *sc)
{
    int k;

    do {
        k = (int) (st_random(state) % NCOMMS);
    } while (!sc->served[k]);
    return k;
}

/* one random call, the same on every process (the state is shared) */
static void random_call(uint64_t *state, const soak_comms *sc, uint64_t seed,
                        unsigned long long *done)
{
    int k = next_served(state, sc), p, n;
    tc_call c = { .op = (st_op) (st_random(state) % ST_NOPS), .short_rank = -1,
                  .seed = seed };
    size_t elem, bytes;

    MPI_Comm_size(sc->comm[k], &p);
    c.comm = sc->comm[k];
    c.comm_name = sc->name[k];
    c.type = &types[st_random(state) % ST_NTYPES];
    c.root = (int) (st_random(state) % (uint64_t) p);
    elem = st_type_size(c.type->single_type);
    bytes = random_bytes(state, ST_BCAST == c.op ? 1 : p);
    n = elem ? (int) (bytes / elem) : (int) (bytes % 3);
    c.in_place = in_place_allowed(c.op) && 0 == st_random(state) % 5;
    /* a short count must not drop to 0 (MPI would skip that process)
     * unless no process moves a byte; with MPI_IN_PLACE a short
     * Allgather process would also send less, which the others cannot
     * detect */
    if (0 == st_random(state) % 20 && (n >= 2 || 0 == elem) && !c.in_place) {
        c.short_rank = (c.root + 1) % p;
        if ((ST_ALLGATHER == c.op || ST_ALLGATHERV == c.op) && 0 == c.short_rank) {
            c.short_rank = 1;           /* rank 0's counts lead: keep them right */
        }
    }
    tc_layout(&c, p, (int) (st_random(state) % TC_NPATTERNS), n,
              ST_SCATTERV == c.op && 0 == st_random(state) % 4);
    if (!tc_legal(&c)) {
        c.short_rank = -1;              /* its counts of a v-pattern dropped to 0 */
    }
    tc_run(&c);
    done[c.op]++;
}

/* whether to stop: rank 0's clock says so, or some process has seen too
 * many errors; all processes agree */
static int should_stop(double start, double seconds)
{
    int stop = (0 == rank && MPI_Wtime() - start >= seconds) || st_failures() > 10;

    MPI_Allreduce(MPI_IN_PLACE, &stop, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    return stop;
}

/* this process's calls that moved counter what ("single_copy": a block
 * went by single copy; "multinode": served across nodes), every
 * operation (the counters count from their first read: at the start) */
static unsigned long long calls_of(const char *what)
{
    unsigned long long calls = 0;

    for (int op = 0; op < ST_NOPS; ++op) {
        calls += st_op_counter((st_op) op, what);
    }
    return calls;
}

static void report(const unsigned long long *done, const soak_comms *sc, double seconds)
{
    unsigned long long total = 0, single = calls_of("single_copy");
    unsigned long long multi = calls_of("multinode");
    int errors = st_failures(), all_errors = 0;

    MPI_Reduce(&errors, &all_errors, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (0 != rank) {
        return;
    }
    for (int op = 0; op < ST_NOPS; ++op) {
        total += done[op];
    }
    printf("soak: %d processes, %.0f s, %llu operations (", size, seconds, total);
    for (int op = 0; op < ST_NOPS; ++op) {
        printf("%s%s %llu", op ? ", " : "", st_op_name((st_op) op), done[op]);
    }
    printf("), at rank 0 %llu with single copy and %llu across nodes, %llu communicators "
           "made, %d errors\n", single, multi, sc->made, all_errors);
    for (int k = 0; k < NCOMMS; ++k) {
        if (!sc->served[k]) {
            printf("soak: not called: %s (another component serves it)\n", sc->name[k]);
        }
    }
}

int main(int argc, char **argv)
{
    double seconds = argc > 1 ? atof(argv[1]) : 60, start;
    unsigned long long done[ST_NOPS] = { 0 }, calls = 0;
    uint64_t state = 20261122;
    soak_comms sc;

    st_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size < 2 || size > TC_MAXP) {
        st_fail("run with 2 to %d processes", TC_MAXP);
        return st_finish("test_soak");
    }
    f = (size_t) st_cvar("fragment_size");
    s = (size_t) st_cvar("slots");
    types = st_types();
    (void) calls_of("single_copy");
    (void) calls_of("multinode");
    make_comms(&sc);
    if (!sc.served[0]) {
        st_fail("shmcico does not serve MPI_COMM_WORLD");
        free_comms(&sc);
        return st_finish("test_soak");
    }

    start = MPI_Wtime();
    while (calls % CHECK_STOP_EVERY || !should_stop(start, seconds)) {
        random_call(&state, &sc, calls, done);
        if (0 == ++calls % CHURN_EVERY) {
            churn(&sc);
        }
    }
    report(done, &sc, MPI_Wtime() - start);
    free_comms(&sc);
    return st_finish("test_soak");
}
