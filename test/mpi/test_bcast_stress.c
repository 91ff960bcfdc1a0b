/*
 * Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
 * $COPYRIGHT$
 *
 * Additional copyrights may follow
 *
 * $HEADER$
 */

/*
 * Thousands of back-to-back Bcasts with random roots, sizes and types on
 * several communicators used in random order, no synchronisation between
 * them, every result checked; every call must have been served by
 * coll/shmcico.
 *
 * Usage: test_bcast_stress [operations]   (default 3000)
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shmcico_test.h"

#define NCOMMS 4

/* mostly small, some several fragments, a few several queues long */
static size_t random_size(uint64_t *state, size_t f, size_t s)
{
    uint64_t r = st_random(state) % 100;

    if (r < 60) {
        return 1 + st_random(state) % 512;
    }
    if (r < 90) {
        return 1 + st_random(state) % (4 * f);
    }
    return 1 + st_random(state) % (3 * s * f + 4096);
}

int main(int argc, char **argv)
{
    int ops, rank, size;
    size_t f, s;
    uint64_t state = 20261122;
    MPI_Comm comms[NCOMMS];
    unsigned long long before, served = 0;

    st_init(&argc, &argv);
    ops = argc > 1 ? atoi(argv[1]) : 3000;
    f = (size_t) st_cvar("fragment_size");
    s = (size_t) st_cvar("slots");
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    comms[0] = MPI_COMM_WORLD;
    MPI_Comm_dup(MPI_COMM_WORLD, &comms[1]);
    MPI_Comm_split(MPI_COMM_WORLD, 0, size - rank, &comms[2]);
    MPI_Comm_dup(comms[2], &comms[3]);
    before = st_counter("bcast_served");

    for (int op = 0; op < ops; ++op) {
        MPI_Comm comm = comms[st_random(&state) % NCOMMS];
        int csize, crank, root, err, use_int = (int) (st_random(&state) % 4 == 0);
        size_t bytes = random_size(&state, f, s);
        st_buf buf;
        long wrong;

        MPI_Comm_size(comm, &csize);
        MPI_Comm_rank(comm, &crank);
        root = (int) (st_random(&state) % (uint64_t) csize);
        if (use_int) {
            bytes = (bytes + 3) / 4 * 4;
        }
        buf = st_alloc(bytes);
        if (crank == root) {
            st_fill(buf.data, bytes, (uint64_t) op);
        } else {
            memset(buf.data, 0, bytes);
        }
        err = MPI_Bcast(buf.data, (int) (use_int ? bytes / 4 : bytes),
                        use_int ? MPI_INT : MPI_BYTE, root, comm);
        ++served;
        wrong = st_first_wrong(buf.data, bytes, (uint64_t) op);
        ST_CHECK(MPI_SUCCESS == err, "op %d: error %d", op, err);
        ST_CHECK(wrong < 0, "op %d (%zu B, root %d): byte %ld wrong", op, bytes,
                 root, wrong);
        ST_CHECK(st_guards_ok(&buf), "op %d: guard bytes overwritten", op);
        st_free(&buf);
        if (st_failures() > 10) {
            break;
        }
    }
    ST_CHECK(st_counter("bcast_served") - before == served,
             "bcast_served moved by %llu for %llu calls",
             st_counter("bcast_served") - before, served);
    if (0 == rank) {
        printf("test_bcast_stress: %d operations on %d communicators\n", ops, NCOMMS);
    }
    MPI_Comm_free(&comms[1]);
    MPI_Comm_free(&comms[2]);
    MPI_Comm_free(&comms[3]);
    return st_finish("test_bcast_stress");
}
