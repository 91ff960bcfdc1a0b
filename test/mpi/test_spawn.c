/*
 * Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
 * $COPYRIGHT$
 *
 * Additional copyrights may follow
 *
 * $HEADER$
 */

/*
 * Processes of two jobs on one communicator: the job started by mpirun
 * spawns CHILDREN more processes of this program (MPI_Comm_spawn), both
 * sides merge the intercommunicator (MPI_Intercomm_merge, parents
 * first), and on the merged communicator:
 *  - a Bcast on the intercommunicator is right;
 *  - the merged communicator gets a segment, and single copy works
 *    between the two jobs' processes (coll_shmcico_single_copy_comms);
 *  - every operation from every root, with blocks of 8 bytes (the
 *    small-call path) and of 4 MiB (single copy, or the queues where the
 *    communicator has more processes than the operation's
 *    coll_shmcico_<op>_single_copy_max_procs), is right at every byte
 *    and served by shmcico through the transport its size says, at
 *    every process of both jobs.
 * A failure at any process of either job fails the parents' verdict.
 *
 * Usage: test_spawn CHILDREN
 */

#include <stdio.h>
#include <stdlib.h>

#include "shmcico_test.h"

#define SMALL 8
#define LARGE (4 << 20)

/* coll_shmcico_<op>_<what> */
static unsigned long long op_counter(st_op op, const char *what)
{
    char name[64];

    snprintf(name, sizeof(name), "%s_%s", st_op_name(op), what);
    return st_counter(name);
}

/* One call of op from root, blocks of bytes at every process, and the
 * counters it must move here. */
static void call_checked(MPI_Comm comm, st_op op, int root, int bytes, uint64_t seed)
{
    int size, *counts;
    const char *path;
    unsigned long long served, moved;

    MPI_Comm_size(comm, &size);
    counts = malloc(sizeof(int) * (size_t) size);
    for (int i = 0; i < size; ++i) {
        counts[i] = bytes;
    }
    path = SMALL == bytes ? "small"
           : st_single_copy_procs_ok(op, size) ? "single_copy" : "queue";
    served = op_counter(op, "served");
    moved = op_counter(op, path);
    (void) st_simple_call(op, comm, root, counts, seed);
    ST_CHECK(op_counter(op, "served") - served == 1 && op_counter(op, path) - moved == 1,
             "%s of %d bytes from root %d: served %llu, %s %llu (expected 1 and 1)",
             st_op_name(op), bytes, root, op_counter(op, "served") - served, path,
             op_counter(op, path) - moved);
    free(counts);
}

static void every_call(MPI_Comm comm)
{
    const int sizes[] = { SMALL, LARGE };
    int size;
    uint64_t seed = 1;

    MPI_Comm_size(comm, &size);
    for (int op = 0; op < ST_NOPS; ++op) {
        int roots = ST_ALLGATHER == op || ST_ALLGATHERV == op ? 1 : size;

        for (int root = 0; root < roots; ++root) {
            for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); ++s) {
                call_checked(comm, (st_op) op, root, sizes[s], seed++);
            }
        }
    }
}

/* A Bcast on the intercommunicator from the parents' rank 0 is right
 * (shmcico declines intercommunicators, but Open MPI's coll/inter runs
 * the receiving group's part on its local communicator, which shmcico
 * may serve). */
static void intercomm_bcast(MPI_Comm inter, int is_parent)
{
    int rank, root, value;

    MPI_Comm_rank(inter, &rank);
    root = !is_parent ? 0 : 0 == rank ? MPI_ROOT : MPI_PROC_NULL;
    value = is_parent && 0 == rank ? 4242 : -1;
    MPI_Bcast(&value, 1, MPI_INT, root, inter);
    ST_CHECK(value == (is_parent && 0 != rank ? -1 : 4242),
             "intercommunicator Bcast: %d received", value);
}

/* Each process's failures, summed over both jobs: a child's failure
 * becomes every process's, so the parents' verdict says it. */
static void share_failures(MPI_Comm comm)
{
    int mine = st_failures(), all = 0;

    MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_SUM, comm);
    ST_CHECK(all == mine, "%d failures at other processes of the merged communicator",
             all - mine);
}

int main(int argc, char **argv)
{
    MPI_Comm parent, inter, merged;
    int children = argc > 1 ? atoi(argv[1]) : 2, world, size, rank;
    unsigned long long comms0;

    st_init(&argc, &argv);
    comms0 = st_counter("single_copy_comms");
    MPI_Comm_size(MPI_COMM_WORLD, &world);
    MPI_Comm_get_parent(&parent);
    if (MPI_COMM_NULL == parent) {
        ST_CHECK(MPI_SUCCESS == MPI_Comm_spawn(argv[0], &argv[1], children, MPI_INFO_NULL, 0,
                                               MPI_COMM_WORLD, &inter, MPI_ERRCODES_IGNORE),
                 "MPI_Comm_spawn failed");
    } else {
        inter = parent;
    }
    intercomm_bcast(inter, MPI_COMM_NULL == parent);
    MPI_Intercomm_merge(inter, MPI_COMM_NULL != parent, &merged);
    MPI_Comm_size(merged, &size);
    MPI_Comm_rank(merged, &rank);
    ST_CHECK(MPI_COMM_NULL == parent ? size == world + children : size > world,
             "the merged communicator has %d processes", size);
    ST_CHECK(st_served_here(merged), "shmcico does not serve the merged communicator");
    every_call(merged);
    ST_CHECK(st_counter("single_copy_comms") - comms0 >= 1,
             "single copy does not work between the two jobs (single_copy_comms moved by %llu)",
             st_counter("single_copy_comms") - comms0);
    share_failures(merged);
    if (0 == rank) {
        printf("test_spawn: %d processes of two jobs on one communicator, every operation "
               "from every root, %d and %d bytes per block\n", size, SMALL, LARGE);
    }
    MPI_Comm_free(&merged);
    MPI_Comm_disconnect(&inter);
    return st_finish(MPI_COMM_NULL == parent ? "test_spawn (parents)" : "test_spawn (children)");
}
