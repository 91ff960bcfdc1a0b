/*
 * Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
 * $COPYRIGHT$
 *
 * Additional copyrights may follow
 *
 * $HEADER$
 */

/*
 * What a communicator's first served call costs: N times MPI_Comm_dup of
 * MPI_COMM_WORLD, one 4-byte MPI_Bcast on it (the segment's setup, at
 * its first call) and MPI_Comm_free, after one such round as warm-up.
 * Rank 0 prints the time per communicator (its own clock: the loop is
 * collective, so every process takes about as long).  Compare the
 * components, and coll_shmcico_keep_segments 0 against the default, in
 * the same machine state (docs/parameters.md, "Setup cost").
 *
 * Usage: mpirun ... comm-setup [N]   (default 1000)
 */

#include <stdio.h>
#include <stdlib.h>

#include <mpi.h>

static double round_of(int n)
{
    int x = 0;
    double t;

    MPI_Barrier(MPI_COMM_WORLD);
    t = MPI_Wtime();
    for (int i = 0; i < n; ++i) {
        MPI_Comm comm;
        MPI_Comm_dup(MPI_COMM_WORLD, &comm);
        MPI_Bcast(&x, 1, MPI_INT, 0, comm);
        MPI_Comm_free(&comm);
    }
    return MPI_Wtime() - t;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1000, rank;
    double t;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (n < 1) {
        n = 1000;
    }
    (void) round_of(n);
    t = round_of(n);
    if (0 == rank) {
        printf("%.1f us per communicator (dup, first Bcast, free; %d of them)\n",
               t / n * 1e6, n);
    }
    MPI_Finalize();
    return 0;
}
