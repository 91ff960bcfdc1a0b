/*
 * Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
 * $COPYRIGHT$
 *
 * Additional copyrights may follow
 *
 * $HEADER$
 */

/*
 * The seven operations as net-traffic and net-timing call them: root 0,
 * MPI_BYTE, m bytes (Bcast in all, the others per process), the
 * v-variants with the counts and displacements given.
 */

#ifndef NET_OPS_H
#define NET_OPS_H

#include <mpi.h>
#include <stdlib.h>

enum { BCAST, SCATTER, SCATTERV, GATHER, GATHERV, ALLGATHER, ALLGATHERV, NOPS };
static const char *op_names[NOPS] = { "bcast", "scatter", "scatterv", "gather", "gatherv",
                                      "allgather", "allgatherv" };

static inline void call(int op, char *sbuf, char *rbuf, int m, int *counts, int *displs)
{
    switch (op) {
    case BCAST: MPI_Bcast(rbuf, m, MPI_BYTE, 0, MPI_COMM_WORLD); break;
    case SCATTER: MPI_Scatter(sbuf, m, MPI_BYTE, rbuf, m, MPI_BYTE, 0, MPI_COMM_WORLD); break;
    case SCATTERV:
        MPI_Scatterv(sbuf, counts, displs, MPI_BYTE, rbuf, m, MPI_BYTE, 0, MPI_COMM_WORLD);
        break;
    case GATHER: MPI_Gather(sbuf, m, MPI_BYTE, rbuf, m, MPI_BYTE, 0, MPI_COMM_WORLD); break;
    case GATHERV:
        MPI_Gatherv(sbuf, m, MPI_BYTE, rbuf, counts, displs, MPI_BYTE, 0, MPI_COMM_WORLD);
        break;
    case ALLGATHER: MPI_Allgather(sbuf, m, MPI_BYTE, rbuf, m, MPI_BYTE, MPI_COMM_WORLD); break;
    default:
        MPI_Allgatherv(sbuf, m, MPI_BYTE, rbuf, counts, displs, MPI_BYTE, MPI_COMM_WORLD);
        break;
    }
}

/* MPI_Init, then the sizes from the command line (LABEL SIZE...) or the
 * defaults in sizes[]; returns how many there are */
static inline int start(int *argc, char ***argv, int *rank, int *size, int *sizes,
                        int ndefaults, int max)
{
    int n = *argc > 2 ? *argc - 2 : ndefaults;

    MPI_Init(argc, argv);
    MPI_Comm_rank(MPI_COMM_WORLD, rank);
    MPI_Comm_size(MPI_COMM_WORLD, size);
    for (int i = 0; i < n && i < max && *argc > 2; ++i) {
        sizes[i] = atoi((*argv)[i + 2]);
    }
    return n < max ? n : max;
}

#endif /* NET_OPS_H */
