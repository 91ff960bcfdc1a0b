/*
 * Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
 * $COPYRIGHT$
 *
 * Additional copyrights may follow
 *
 * $HEADER$
 */

/*
 * What crosses node boundaries: for each operation and size, one
 * warm-up call, then one call during which every message this process
 * hands to Open MPI's point-to-point layer (the PML: what coll/tuned,
 * coll/han and shmcico's network level send through) is counted per
 * destination.  Only what goes to a process of another node counts; the
 * sums over the processes are printed as CSV:
 *
 *   label,nodes,procs,op,size,messages,bytes,node_pairs,min_bytes
 *
 * node_pairs: unordered pairs of nodes that exchanged at least one
 * message; min_bytes: what must cross at least (every byte into every
 * node that needs it, once).  Sizes as in shmcico-bench: Bcast moves m
 * bytes, the others m bytes per process; the v-variants uniform counts;
 * root 0.
 *
 * The counting is what pml_monitoring does (a wrapper around the
 * selected PML's send entry points), done here because Debian 12's Open
 * MPI 4.1.4 pml_monitoring crashes at the first point-to-point message
 * (docs/performance.md).
 *
 * Usage: mpirun ... net-traffic LABEL [SIZE]...   (default 8 65536 4194304)
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>

#include "net_ops.h"

#include "ompi_config.h"
#include "ompi/communicator/communicator.h"
#include "ompi/datatype/ompi_datatype.h"
#include "ompi/mca/pml/pml.h"


static int rank, size, nnodes, *node_of;
static unsigned long long *sent_count, *sent_bytes;     /* per world rank */
static mca_pml_base_module_isend_fn_t real_isend;
static mca_pml_base_module_send_fn_t real_send;

static void count_send(size_t count, struct ompi_datatype_t *type, int dst,
                       struct ompi_communicator_t *comm)
{
    size_t size;
    ompi_proc_t *proc = ompi_comm_peer_lookup(comm, dst);
    int world = (int) proc->super.proc_name.vpid;

    ompi_datatype_type_size(type, &size);
    sent_count[world] += 1;
    sent_bytes[world] += count * size;
}

static int counting_isend(const void *buf, size_t count, struct ompi_datatype_t *type, int dst,
                          int tag, mca_pml_base_send_mode_t mode,
                          struct ompi_communicator_t *comm, struct ompi_request_t **req)
{
    count_send(count, type, dst, comm);
    return real_isend(buf, count, type, dst, tag, mode, comm, req);
}

static int counting_send(const void *buf, size_t count, struct ompi_datatype_t *type, int dst,
                         int tag, mca_pml_base_send_mode_t mode,
                         struct ompi_communicator_t *comm)
{
    count_send(count, type, dst, comm);
    return real_send(buf, count, type, dst, tag, mode, comm);
}

/* wrap the selected PML's send entry points */
static void start_counting(void)
{
    sent_count = calloc((size_t) size, sizeof(*sent_count));
    sent_bytes = calloc((size_t) size, sizeof(*sent_bytes));
    real_isend = mca_pml.pml_isend;
    real_send = mca_pml.pml_send;
    mca_pml.pml_isend = counting_isend;
    mca_pml.pml_send = counting_send;
}

/* the node of every process: the lowest world rank of its node */
static void map_nodes(void)
{
    MPI_Comm node;
    int lowest;

    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    lowest = rank;
    MPI_Allreduce(MPI_IN_PLACE, &lowest, 1, MPI_INT, MPI_MIN, node);
    MPI_Comm_free(&node);
    node_of = malloc((size_t) size * sizeof(int));
    MPI_Allgather(&lowest, 1, MPI_INT, node_of, 1, MPI_INT, MPI_COMM_WORLD);
    nnodes = 0;
    for (int r = 0; r < size; ++r) {
        nnodes += node_of[r] == r;
    }
}

/* bytes that must cross node boundaries at least */
static unsigned long long min_bytes(int op, unsigned long long m)
{
    int off_root = 0;

    for (int r = 0; r < size; ++r) {
        off_root += node_of[r] != node_of[0];
    }
    switch (op) {
    case BCAST: return (unsigned long long) (nnodes - 1) * m;
    case ALLGATHER: case ALLGATHERV: return (unsigned long long) size * (nnodes - 1) * m;
    default: return (unsigned long long) off_root * m;
    }
}

static void measure(const char *label, int op, int m)
{
    unsigned long long *c0 = calloc((size_t) size, 8), *c1 = calloc((size_t) size, 8);
    unsigned long long *b0 = calloc((size_t) size, 8), *b1 = calloc((size_t) size, 8);
    unsigned long long mine[2] = { 0, 0 }, sum[2];
    int *counts = malloc((size_t) size * sizeof(int)), *displs = malloc((size_t) size * sizeof(int));
    int *pairs = calloc((size_t) size * (size_t) size, sizeof(int)), npairs = 0;
    char *sbuf = calloc((size_t) m * (size_t) size + 1, 1);
    char *rbuf = calloc((size_t) m * (size_t) size + 1, 1);

    for (int r = 0; r < size; ++r) {
        counts[r] = m;
        displs[r] = r * m;
    }
    call(op, sbuf, rbuf, m, counts, displs);            /* warm-up: setup traffic */
    MPI_Barrier(MPI_COMM_WORLD);
    memcpy(c0, sent_count, (size_t) size * 8);
    memcpy(b0, sent_bytes, (size_t) size * 8);
    call(op, sbuf, rbuf, m, counts, displs);
    memcpy(c1, sent_count, (size_t) size * 8);
    memcpy(b1, sent_bytes, (size_t) size * 8);
    MPI_Barrier(MPI_COMM_WORLD);
    for (int r = 0; r < size; ++r) {
        if (node_of[r] != node_of[rank] && c1[r] > c0[r]) {
            mine[0] += c1[r] - c0[r];
            mine[1] += b1[r] - b0[r];
            pairs[node_of[rank] * size + node_of[r]] = 1;
        }
    }
    MPI_Reduce(mine, sum, 2, MPI_UNSIGNED_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, pairs, size * size, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
    for (int a = 0; a < size; ++a) {
        for (int b = a + 1; b < size; ++b) {
            npairs += pairs[a * size + b] || pairs[b * size + a];
        }
    }
    if (0 == rank) {
        printf("%s,%d,%d,%s,%d,%llu,%llu,%d,%llu\n", label, nnodes, size, op_names[op], m, sum[0],
               sum[1], npairs, min_bytes(op, (unsigned long long) m));
    }
    free(c0); free(c1); free(b0); free(b1); free(counts); free(displs); free(pairs);
    free(sbuf); free(rbuf);
}

int main(int argc, char **argv)
{
    int sizes[16] = { 8, 65536, 4194304 };
    const char *label = argc > 1 ? argv[1] : "?";
    int nsizes = start(&argc, &argv, &rank, &size, sizes, 3, 16);
    map_nodes();
    start_counting();
    if (0 == rank) {
        printf("label,nodes,procs,op,size,messages,bytes,node_pairs,min_bytes\n");
    }
    for (int op = 0; op < NOPS; ++op) {
        for (int i = 0; i < nsizes; ++i) {
            measure(label, op, sizes[i]);
        }
    }
    MPI_Finalize();
    return 0;
}
