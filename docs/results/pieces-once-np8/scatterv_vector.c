#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv)
{
    int n = atoi(argv[1]), rank, size, piece = 4096, npieces = 64;
    MPI_Datatype vec, blk;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Type_vector(npieces, piece, 2 * piece, MPI_BYTE, &vec);
    MPI_Type_create_resized(vec, 0, (MPI_Aint) npieces * 2 * piece, &blk);
    MPI_Type_commit(&blk);
    char *send = malloc((size_t) size * npieces * 2 * piece), *recv = malloc((size_t) npieces * piece);
    int *counts = malloc(size * sizeof(int)), *displs = malloc(size * sizeof(int));
    for (int i = 0; i < size; ++i) { counts[i] = 1; displs[i] = i; }
    for (int i = 0; i < n; ++i)
        MPI_Scatterv(send, counts, displs, blk, recv, npieces * piece, MPI_BYTE, 0, MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
