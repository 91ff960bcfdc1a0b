/*
 * Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
 * $COPYRIGHT$
 *
 * Additional copyrights may follow
 *
 * $HEADER$
 */

/*
 * test_multinode's cases of a process that runs out of memory in a call
 * across nodes (no-memory, no-memory-bcast; test_multinode.c says what
 * each mode checks), under fault_malloc.so (test/mpi/fault_malloc.c):
 * where a process cannot allocate what a call needs, every process that
 * needed it gets an error, nobody waits for good, and the next call is
 * right.
 */

#include <stdlib.h>
#include <string.h>

#include "shmcico_test.h"
#include "test_multinode.h"

/* Where and from which size the component's malloc() and calloc() fail
 * (test/mpi/fault_malloc.c) in a call of blocks of block bytes */
typedef struct fault_t {
    int at;                         /* the process (-1: nowhere) */
    size_t from;
    int block;
} fault_t;

/* 64 KiB blocks, allocations of 100000 bytes or more failing: a message
 * or a stage cannot be had */
static fault_t big(int at)
{
    return (fault_t) { at, 100000, 65536 };
}

/* 64-byte blocks, every allocation failing */
static fault_t tiny(int at)
{
    return (fault_t) { at, 1, 64 };
}

/* One Scatter, Gather (root 0) or Allgather on 2x2 nodes under fault f;
 * returns its error class, the data checked where the call succeeded. */
static int call_with_fault(st_op op, fault_t f, int round)
{
    const int block = f.block;
    int rank, size, err, cls;
    unsigned char *all, *mine = malloc(block);

    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    all = malloc((size_t) size * block);
    st_fill(all, (size_t) size * block, 100 + (uint64_t) round);
    st_fill(mine, block, 200 + 10 * (uint64_t) round + (uint64_t) rank);
    if (ST_SCATTER == op) {
        memset(mine, 0, block);
    } else if (0 == rank || ST_ALLGATHER == op) {
        memset(all, 0, (size_t) size * block);
    }
    (void) st_fault_malloc_from(rank == f.at ? f.from : 0);
    err = ST_SCATTER == op
        ? MPI_Scatter(all, block, MPI_BYTE, mine, block, MPI_BYTE, 0, MPI_COMM_WORLD)
        : ST_GATHER == op
        ? MPI_Gather(mine, block, MPI_BYTE, all, block, MPI_BYTE, 0, MPI_COMM_WORLD)
        : MPI_Allgather(mine, block, MPI_BYTE, all, block, MPI_BYTE, MPI_COMM_WORLD);
    (void) st_fault_malloc_from(0);
    MPI_Error_class(err, &cls);
    if (MPI_SUCCESS == cls && ST_SCATTER == op) {
        /* every process filled its buffer of blocks as the root did */
        ST_CHECK(0 == memcmp(mine, all + (size_t) rank * block, block),
                 "round %d: rank %d's Scatter block is wrong", round, rank);
    }
    for (int i = 0; MPI_SUCCESS == cls && ST_SCATTER != op && (0 == rank || ST_ALLGATHER == op)
                    && i < size; ++i) {
        ST_CHECK(st_first_wrong(all + (size_t) i * block, block, 200 + 10 * (uint64_t) round
                                + (uint64_t) i) < 0, "round %d: rank %d's %s block %d is wrong",
                 round, rank, st_op_name(op), i);
    }
    free(all);
    free(mine);
    return cls;
}

/* Where the component cannot allocate even a few bytes at a member of
 * node 2 (rank 3) or of the root's node (rank 1), or at a leader in an
 * Allgather: a call across nodes allocates nothing there (what it works
 * in was made with the communicator's maps; before, such a process
 * returned MPI_ERR_NO_MEM and left the others waiting for good), and
 * every process gets its data. */
static void nothing_to_allocate(int rank)
{
    const st_op ops[3] = { ST_SCATTER, ST_GATHER, ST_ALLGATHER };
    int round = 20;

    for (int o = 0; o < 3; ++o) {
        for (int at = 0; at < 4; ++at) {
            if (ST_ALLGATHER != ops[o] && 0 == at % 2) {
                continue;           /* a Scatter or Gather leader needs a message */
            }
            ST_CHECK(MPI_SUCCESS == call_with_fault(ops[o], tiny(at), round++),
                     "%s, nothing to allocate at rank %d: rank %d failed", st_op_name(ops[o]),
                     at, rank);
        }
    }
}

/* A new communicator's first call across nodes, where one process
 * (rank 3) cannot allocate the setup's maps: every process learns it in
 * the setup's first round and the communicator goes to the previous
 * component everywhere (a process that gave up alone left the others
 * waiting in the split), with the right data, this call and the next. */
static void setup_without_memory(void)
{
    int rank, data[256];
    MPI_Comm dup;
    unsigned long long fallback = st_op_counter(ST_BCAST, "fallback");
    unsigned long long multi = st_op_counter(ST_BCAST, "multinode");

    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN);
    for (int round = 0; round < 2; ++round) {
        st_fill(data, sizeof(data), 0 == rank ? 70 + (uint64_t) round : 0);
        if (3 == rank && 0 == round) {
            (void) st_fault_malloc_from(1);
        }
        ST_CHECK(MPI_SUCCESS == MPI_Bcast(data, 256, MPI_INT, 0, dup),
                 "round %d: a Bcast with a failed setup at rank 3 failed", round);
        (void) st_fault_malloc_from(0);
        ST_CHECK(st_first_wrong(data, sizeof(data), 70 + (uint64_t) round) < 0,
                 "round %d: rank %d's Bcast data is wrong", round, rank);
    }
    /* at least 2: with Open MPI 5.0 the previous component, coll/han,
     * calls Bcast on communicators of its own, which are handed on too */
    ST_CHECK(st_op_counter(ST_BCAST, "fallback") - fallback >= 2
             && st_op_counter(ST_BCAST, "multinode") == multi,
             "a failed setup at rank 3: rank %d handed %llu calls on (2 expected), "
             "multinode +%llu", rank, st_op_counter(ST_BCAST, "fallback") - fallback,
             st_op_counter(ST_BCAST, "multinode") - multi);
    MPI_Comm_free(&dup);
}

/* Errors returned on MPI_COMM_WORLD, and whether fault_malloc.so is
 * loaded (else the mode fails); this process's rank in *rank. */
static int ready(const char *mode, int *rank)
{
    MPI_Comm_rank(MPI_COMM_WORLD, rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (!st_fault_malloc_from(0)) {
        st_fail("%s needs test/mpi/.libs/fault_malloc.so in LD_PRELOAD", mode);
        return 0;
    }
    return 1;
}

/* On 2x2 nodes (node 2: ranks 2 and 3, led by 2), under fault_malloc.so:
 * where a process cannot allocate a message, every process that would
 * have needed it gets an error, nobody waits for good, and the next call
 * is right (no message of the failed call is left for it). */
int tm_no_memory(void)
{
    int rank;

    if (!ready("no-memory", &rank)) {
        return st_finish("test_multinode");
    }
    setup_without_memory();
    /* the node communicator and its segment first, with memory */
    ST_CHECK(MPI_SUCCESS == call_with_fault(ST_SCATTER, big(-1), 9), "the first Scatter");
    /* node 2's leader has no room for the root's message: node 2 fails */
    ST_CHECK(call_with_fault(ST_SCATTER, big(2), 0) == (rank < 2 ? MPI_SUCCESS
                                                                       : MPI_ERR_NO_MEM),
             "Scatter, no memory at node 2's leader: rank %d's error", rank);
    ST_CHECK(MPI_SUCCESS == call_with_fault(ST_SCATTER, big(-1), 1), "the Scatter after");
    /* node 2's leader has no room for the node's message: the root fails */
    ST_CHECK(call_with_fault(ST_GATHER, big(2), 2) == (0 == rank ? MPI_ERR_TRUNCATE
                                                       : 2 == rank ? MPI_ERR_NO_MEM
                                                       : MPI_SUCCESS),
             "Gather, no memory at node 2's leader: rank %d's error", rank);
    ST_CHECK(MPI_SUCCESS == call_with_fault(ST_GATHER, big(-1), 3), "the Gather after");
    /* the root has no room for node 2's message */
    ST_CHECK(call_with_fault(ST_GATHER, big(0), 4) == (0 == rank ? MPI_ERR_NO_MEM : MPI_SUCCESS),
             "Gather, no memory at the root: rank %d's error", rank);
    ST_CHECK(MPI_SUCCESS == call_with_fault(ST_GATHER, big(-1), 5), "the Gather after that");
    /* the root has no room for node 2's message: node 2 fails, the
     * root's node gets its blocks */
    ST_CHECK(call_with_fault(ST_SCATTER, big(0), 6) == (1 == rank ? MPI_SUCCESS
                                                                         : MPI_ERR_NO_MEM),
             "Scatter, no memory at the root: rank %d's error", rank);
    ST_CHECK(MPI_SUCCESS == call_with_fault(ST_SCATTER, big(-1), 7), "the Scatter after that");
    nothing_to_allocate(rank);
    return st_finish("test_multinode");
}

/* One Bcast of N ints (3 chunks across nodes) from root 0 on
 * MPI_COMM_WORLD, a vector of stride 2 at the root and at fault_at
 * (packed or unpacked through their stages), contiguous elsewhere, with
 * malloc() of the component failing from 100000 bytes at fault_at (-1:
 * nowhere); returns its error class.  Every process but the root checks
 * its buffer: the root's elements where its call succeeded, else
 * untouched; and the counters, that the call went across nodes. */
static int bcast_with_fault(int fault_at, int round)
{
    enum { N = 300000 };
    int rank, err, cls, *data = malloc(2 * N * sizeof(int));
    unsigned long long multi = st_op_counter(ST_BCAST, "multinode");
    MPI_Datatype strided;

    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Type_vector(N, 1, 2, MPI_INT, &strided);
    MPI_Type_commit(&strided);
    for (int i = 0; i < 2 * N; ++i) {
        data[i] = 0 == rank ? 1000000 * round + i : -1;
    }
    (void) st_fault_malloc_from(rank == fault_at ? 100000 : 0);
    err = 0 == rank || rank == fault_at ? MPI_Bcast(data, 1, strided, 0, MPI_COMM_WORLD)
                                        : MPI_Bcast(data, N, MPI_INT, 0, MPI_COMM_WORLD);
    (void) st_fault_malloc_from(0);
    MPI_Error_class(err, &cls);
    for (int i = 0; 0 != rank && i < 2 * N; ++i) {
        int at = rank == fault_at ? i / 2 : i, held = rank == fault_at ? 0 == i % 2 : i < N;
        int want = MPI_SUCCESS == cls && held ? 1000000 * round + 2 * at : -1;
        if (data[i] != want) {
            st_fail("round %d: rank %d's element %d is %d, not %d", round, rank, i, data[i],
                    want);
            break;
        }
    }
    ST_CHECK(st_op_counter(ST_BCAST, "multinode") - multi == 1,
             "round %d: rank %d's Bcast was not served across nodes", round, rank);
    MPI_Type_free(&strided);
    free(data);
    return cls;
}

/* On 4x2 nodes (ranks 2i and 2i + 1 on node i + 1, led by 2i; the tree
 * of nodes from the root's: 1 -> 2 and 3, 3 -> 4), under
 * fault_malloc.so: a process without room for its stages returns
 * MPI_ERR_NO_MEM and leaves nobody waiting, and the next Bcast is right.
 * Where that process is
 *  - the root (rank 0): every other process returns MPI_ERR_TRUNCATE
 *    with its buffer untouched, on its node, the nodes below it and the
 *    node below those;
 *  - node 3's leader (rank 4), below the root's node: it still takes the
 *    root's chunks off the wire; its node and node 4 below it return
 *    MPI_ERR_TRUNCATE untouched, nodes 1 and 2 get the data;
 *  - a member of node 3 (rank 5): it still takes part in its node's
 *    stages; every other process gets the data. */
int tm_no_memory_bcast(void)
{
    int rank, round = 0;

    if (!ready("no-memory-bcast", &rank)) {
        return st_finish("test_multinode");
    }
    ST_CHECK(MPI_SUCCESS == bcast_with_fault(-1, round++), "rank %d: the first Bcast failed",
             rank);
    ST_CHECK(bcast_with_fault(0, round++) == (0 == rank ? MPI_ERR_NO_MEM : MPI_ERR_TRUNCATE),
             "Bcast, no memory at the root: rank %d's error", rank);
    ST_CHECK(MPI_SUCCESS == bcast_with_fault(-1, round++), "rank %d: the Bcast after failed",
             rank);
    ST_CHECK(bcast_with_fault(4, round++) == (4 == rank ? MPI_ERR_NO_MEM
                                              : rank > 4 ? MPI_ERR_TRUNCATE : MPI_SUCCESS),
             "Bcast, no memory at node 3's leader: rank %d's error", rank);
    ST_CHECK(MPI_SUCCESS == bcast_with_fault(-1, round++), "rank %d: the Bcast after failed",
             rank);
    ST_CHECK(bcast_with_fault(5, round++) == (5 == rank ? MPI_ERR_NO_MEM : MPI_SUCCESS),
             "Bcast, no memory at a member of node 3: rank %d's error", rank);
    ST_CHECK(MPI_SUCCESS == bcast_with_fault(-1, round++), "rank %d: the Bcast after failed",
             rank);
    return st_finish("test_multinode");
}
