#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int n = argc > 1 ? atoi(argv[1]) : 100000, me, p;
    const char *op = argc > 2 ? argv[2] : "bcast";
    MPI_Comm_rank(MPI_COMM_WORLD, &me); MPI_Comm_size(MPI_COMM_WORLD, &p);
    char buf[64] = {0}, all[64 * 16];
    double t = MPI_Wtime();
    for (int i = 0; i < n; ++i) {
        if (op[0] == 'b') MPI_Bcast(buf, 8, MPI_BYTE, 0, MPI_COMM_WORLD);
        else if (op[0] == 's') MPI_Scatter(all, 8, MPI_BYTE, buf, 8, MPI_BYTE, 0, MPI_COMM_WORLD);
        else if (op[0] == 'g') MPI_Gather(buf, 8, MPI_BYTE, all, 8, MPI_BYTE, 0, MPI_COMM_WORLD);
        else MPI_Allgather(buf, 8, MPI_BYTE, all, 8, MPI_BYTE, MPI_COMM_WORLD);
    }
    t = MPI_Wtime() - t;
    printf("rank %d %s %.3f us/call\n", me, op, t / n * 1e6);
    MPI_Finalize();
    return 0;
}
