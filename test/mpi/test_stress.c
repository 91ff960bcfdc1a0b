/*
 * Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
 * $COPYRIGHT$
 *
 * Additional copyrights may follow
 *
 * $HEADER$
 */

/*
 * Thousands of back-to-back collectives with random operations, roots,
 * sizes and count vectors (zeros included) on several communicators used
 * in random order, no synchronisation between them, every result checked;
 * every call that reaches a component must have been served by
 * coll/shmcico (its <op>_served counters move by exactly the number of
 * such calls).
 *
 * Usage: test_stress OPERATIONS all|bcast|scatter|...   (default 3000 all)
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shmcico_test.h"

#define NCOMMS 4
#define MAXP 64

static size_t f, s;

/* mostly small, some several fragments, a few several queues long */
static int random_size(uint64_t *state, int blocks)
{
    uint64_t r = st_random(state) % 100, large = (3 * s * f + 4096) / (uint64_t) blocks;

    if (r < 10) {
        return 0;
    }
    if (r < 65) {
        return (int) (1 + st_random(state) % 512);
    }
    if (r < 92) {
        return (int) (1 + st_random(state) % (4 * f));
    }
    return (int) (1 + st_random(state) % large);
}

static void random_counts(uint64_t *state, st_op op, int p, int *counts)
{
    int blocks = ST_BCAST == op ? 1 : p;

    counts[0] = random_size(state, blocks);
    for (int i = 1; i < p; ++i) {
        counts[i] = st_op_regular(op) ? counts[0] : random_size(state, blocks);
    }
}

static int parse_ops(const char *which, st_op *ops)
{
    int n = 0;

    for (int op = 0; op < ST_NOPS; ++op) {
        if (0 == strcmp(which, "all") || 0 == strcmp(which, st_op_name((st_op) op))) {
            ops[n++] = (st_op) op;
        }
    }
    return n;
}

int main(int argc, char **argv)
{
    int ops = argc > 1 ? atoi(argv[1]) : 3000, rank, size, nkinds;
    const char *which = argc > 2 ? argv[2] : "all";
    uint64_t state = 20261122;
    MPI_Comm comms[NCOMMS];
    unsigned long long before[ST_NOPS], expected[ST_NOPS] = { 0 };
    st_op kinds[ST_NOPS];

    st_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    nkinds = parse_ops(which, kinds);
    if (0 == nkinds || size > MAXP) {
        st_fail("usage: test_stress OPERATIONS all|bcast|scatter|... (at most %d "
                "processes)", MAXP);
        return st_finish("test_stress");
    }
    f = (size_t) st_cvar("fragment_size");
    s = (size_t) st_cvar("slots");
    comms[0] = MPI_COMM_WORLD;
    MPI_Comm_dup(MPI_COMM_WORLD, &comms[1]);
    MPI_Comm_split(MPI_COMM_WORLD, 0, size - rank, &comms[2]);
    MPI_Comm_dup(comms[2], &comms[3]);
    for (int op = 0; op < ST_NOPS; ++op) {
        before[op] = st_op_counter((st_op) op, "served");
    }

    for (int i = 0; i < ops && st_failures() <= 10; ++i) {
        st_op op = kinds[st_random(&state) % (uint64_t) nkinds];
        MPI_Comm comm = comms[st_random(&state) % NCOMMS];
        int counts[MAXP], csize, root;

        MPI_Comm_size(comm, &csize);
        root = (int) (st_random(&state) % (uint64_t) csize);
        random_counts(&state, op, csize, counts);
        expected[op] += !st_skipped_by_mpi(op, comm, counts);
        st_simple_call(op, comm, root, counts, (uint64_t) i);
    }
    for (int op = 0; op < ST_NOPS; ++op) {
        unsigned long long moved = st_op_counter((st_op) op, "served") - before[op];
        ST_CHECK(moved == expected[op], "%s_served moved by %llu for %llu calls",
                 st_op_name((st_op) op), moved, expected[op]);
    }
    if (0 == rank) {
        printf("test_stress: %d operations (%s) on %d communicators\n", ops, which, NCOMMS);
    }
    MPI_Comm_free(&comms[1]);
    MPI_Comm_free(&comms[2]);
    MPI_Comm_free(&comms[3]);
    return st_finish("test_stress");
}
