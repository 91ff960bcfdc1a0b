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
 *  - every operation from every root, with blocks of 8 bytes (the
 *    small-call path) and of 4 MiB (single copy, or the queues where the
 *    communicator has more processes than the operation's
 *    coll_shmcico_<op>_single_copy_max_procs), is right at every byte
 *    and served by shmcico through the transport its size says, at
 *    every process of both jobs: a 4 MiB block by single copy crosses
 *    between the jobs' address spaces (coll_shmcico_<op>_single_copy
 *    moves only where the merged communicator's setup found single copy
 *    working between every pair).
 * A failure at any process of either job fails the parents' verdict.
 *
 * Usage: test_spawn CHILDREN
 */

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shmcico_test.h"

#define SMALL 8
#define LARGE (4 << 20)

static const char *job = "parents";     /* this process's, in messages */

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
    served = st_op_counter(op, "served");
    moved = st_op_counter(op, path);
    (void) st_simple_call(op, comm, root, counts, seed);
    ST_CHECK(st_op_counter(op, "served") - served == 1 && st_op_counter(op, path) - moved == 1,
             "%s: %s of %d bytes from root %d: served %llu, %s %llu (expected 1 and 1)",
             job, st_op_name(op), bytes, root, st_op_counter(op, "served") - served, path,
             st_op_counter(op, path) - moved);
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
    /* the root's group other than the root is not written */
    ST_CHECK(value == (is_parent && 0 != rank ? -1 : 4242),
             "%s: intercommunicator Bcast: %d after it", job, value);
}

/* Each process's failures, summed over both jobs: a child's failure
 * becomes every process's, so the parents' verdict says it. */
static void share_failures(MPI_Comm comm)
{
    int mine = st_failures(), all = 0;

    MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_SUM, comm);
    ST_CHECK(all == mine, "%s: %d failures at other processes of the merged communicator",
             job, all - mine);
}

/* The intercommunicator to the other job: the spawned one's, or this
 * job's parent; false when the spawn failed. */
static bool other_job(char **argv, int children, MPI_Comm *inter)
{
    MPI_Comm parent;

    MPI_Comm_get_parent(&parent);
    if (MPI_COMM_NULL != parent) {
        job = "children";
        *inter = parent;
        return true;
    }
    /* st_init made MPI_COMM_WORLD's errors return */
    return MPI_SUCCESS == MPI_Comm_spawn(argv[0], &argv[1], children, MPI_INFO_NULL, 0,
                                         MPI_COMM_WORLD, inter, MPI_ERRCODES_IGNORE);
}

int main(int argc, char **argv)
{
    MPI_Comm inter, merged;
    int children = argc > 1 ? atoi(argv[1]) : 2, world, remote, size, rank;

    st_init(&argc, &argv);
    if (!other_job(argv, children, &inter)) {
        st_fail("MPI_Comm_spawn failed");
        return st_finish("test_spawn");
    }
    MPI_Comm_size(MPI_COMM_WORLD, &world);
    MPI_Comm_remote_size(inter, &remote);
    intercomm_bcast(inter, 0 == strcmp(job, "parents"));
    MPI_Intercomm_merge(inter, 0 == strcmp(job, "children"), &merged);
    MPI_Comm_size(merged, &size);
    MPI_Comm_rank(merged, &rank);
    ST_CHECK(size == world + remote && (0 != strcmp(job, "parents") || remote == children),
             "%s: the merged communicator has %d processes, %d here and %d there", job, size,
             world, remote);
    every_call(merged);
    share_failures(merged);
    if (0 == rank) {
        printf("test_spawn: %d processes of two jobs on one communicator, every operation "
               "from every root, %d and %d bytes per block\n", size, SMALL, LARGE);
    }
    MPI_Comm_free(&merged);
    MPI_Comm_disconnect(&inter);
    return st_finish(0 == strcmp(job, "parents") ? "test_spawn (parents)"
                                                 : "test_spawn (children)");
}
