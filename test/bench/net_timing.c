/*
 * Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
 * $COPYRIGHT$
 *
 * Additional copyrights may follow
 *
 * $HEADER$
 */

/*
 * Times of collectives where shmcico-bench's synchronised starts cannot
 * work (simulated nodes: clock offsets over TCP on loopback come out
 * within milliseconds only): for each operation and size, a barrier,
 * then N back-to-back calls, timed on every process; the time per call
 * is the largest over the processes, median of 5 such rounds.  Back-to-
 * back calls overlap a little (a process may start call i + 1 while
 * another finishes call i), so these are throughput times, comparable
 * between components in the same run only.  CSV on rank 0:
 *
 *   label,procs,op,size,us_per_call
 *
 * Usage: mpirun ... net-timing LABEL [SIZE]...   (default 8 65536 1048576 4194304)
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>

#include "net_ops.h"

#define ROUNDS 5

static int rank, size;

static int compare(const void *a, const void *b)
{
    double x = *(const double *) a, y = *(const double *) b;
    return x < y ? -1 : x > y;
}

/* the median over the rounds of the slowest process's time per call */
static double time_op(int op, int m, int calls)
{
    int *counts = malloc((size_t) size * sizeof(int)), *displs = malloc((size_t) size * sizeof(int));
    char *sbuf = calloc((size_t) m * (size_t) size + 1, 1);
    char *rbuf = calloc((size_t) m * (size_t) size + 1, 1);
    double rounds[ROUNDS];

    for (int r = 0; r < size; ++r) {
        counts[r] = m;
        displs[r] = r * m;
    }
    call(op, sbuf, rbuf, m, counts, displs);            /* warm-up */
    for (int k = 0; k < ROUNDS; ++k) {
        double start, mine;
        MPI_Barrier(MPI_COMM_WORLD);
        start = MPI_Wtime();
        for (int i = 0; i < calls; ++i) {
            call(op, sbuf, rbuf, m, counts, displs);
        }
        mine = (MPI_Wtime() - start) / calls;
        MPI_Allreduce(&mine, &rounds[k], 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    }
    qsort(rounds, ROUNDS, sizeof(double), compare);
    free(counts);
    free(displs);
    free(sbuf);
    free(rbuf);
    return rounds[ROUNDS / 2];
}

int main(int argc, char **argv)
{
    int sizes[16] = { 8, 65536, 1048576, 4194304 };
    const char *label = argc > 1 ? argv[1] : "?";
    int nsizes = start(&argc, &argv, &rank, &size, sizes, 4, 16);
    if (0 == rank) {
        printf("label,procs,op,size,us_per_call\n");
    }
    for (int op = 0; op < NOPS; ++op) {
        for (int i = 0; i < nsizes; ++i) {
            int calls = sizes[i] >= (1 << 20) ? 10 : 100;
            double t = time_op(op, sizes[i], calls);
            if (0 == rank) {
                printf("%s,%d,%s,%d,%.2f\n", label, size, op_names[op], sizes[i], t * 1e6);
                fflush(stdout);
            }
        }
    }
    MPI_Finalize();
    return 0;
}
