/*
 * Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
 * $COPYRIGHT$
 *
 * Additional copyrights may follow
 *
 * $HEADER$
 */

/*
 * Communicators that span nodes (the suite runs it on simulated nodes,
 * test/nodes.sh), every operation, every byte and guard checked
 * (typed_call.h):
 *  - MPI_COMM_WORLD, and a communicator whose ranks are in reverse order
 *    (so a node's ranks are not contiguous in it), every root: a node's
 *    leader or not, on every node;
 *  - 8 bytes, 100 KiB, and 1.5 MiB (Bcast: three pipeline chunks);
 *    MPI_BYTE, an indexed type, a vector of 2 KiB blocks against ints;
 *  - the v-variants' count patterns: zeros, one huge block, random;
 *    MPI_IN_PLACE;
 *  - a Bcast whose processes use types of different sizes (the
 *    pipeline's chunks end inside elements);
 *  - where shmcico serves: a process whose count is short gets
 *    MPI_ERR_TRUNCATE, and the next call is right (each process in turn,
 *    a Bcast also over several pipeline chunks); a Scatter root that
 *    sends nothing, a Gather root that expects nothing (see
 *    empty_root_blocks());
 *  - hints reach the node stages (shmcico_single_copy=off on a duplicate
 *    of MPI_COMM_WORLD: a Gather's node stages through the queues), and
 *    the single copy in effect is the node stages' (cma or smsc); a
 *    process alone on its node (layout 1+3) has its node stages served
 *    by coll/self, and no transport counter of it moves;
 *  - served: coll_shmcico_<op>_served and _multinode move by one on every
 *    process (the suite's layouts all have a node with two processes),
 *    and no _small counter moves (node stages are not the program's
 *    calls);
 *    fallback: on a layout of one process per node every call goes to
 *    the previous component, _fallback moves.
 *
 *  - later-hint: a hint on the communicator after its node segments are
 *    made leaves the node stages the parameters their segment agreed on
 *    (see later_hint()), also where the node segments were made with
 *    their communicators (coll_shmcico_lazy 0: the suite's
 *    multinode-2x2-eager-later-hint).
 *
 *  - no-memory: a process that cannot allocate the setup's maps, or a
 *    message of a Scatter or Gather (test/mpi/fault_malloc.c), leaves no
 *    process waiting and no message for the next call; one that cannot
 *    allocate anything still serves the calls that need no message of
 *    its own (see setup_without_memory(), tm_no_memory() and
 *    nothing_to_allocate(), test_multinode_memory.c).
 *
 *  - no-memory-bcast: a Bcast root, a leader below it or a member that
 *    cannot allocate its stages leaves nobody waiting: the root and the
 *    leader tell every process below them that no chunk follows, the
 *    leader and the member still take the chunks they were sent (see
 *    tm_no_memory_bcast(), test_multinode_memory.c).
 *
 *  - leftover: a communicator that MPI_Finalize frees after its node
 *    communicator (see leftover()).
 *
 * Usage: test_multinode served|fallback|later-hint|no-memory|no-memory-bcast|leftover
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_multinode.h"
#include "typed_call.h"

static const st_type *types;
static int expect_served;

/* one call, with the counters of the path it must take */
static void run(tc_call *c)
{
    unsigned long long multi = st_op_counter(c->op, "multinode");
    unsigned long long fallback = st_op_counter(c->op, "fallback"), small = st_counter_sum("small");
    int skipped = 0 == st_type_size(c->type->single_type)
                  || st_skipped_by_mpi(c->op, c->comm, c->counts);

    tc_run(c);
    if (!skipped) {
        ST_CHECK(st_op_counter(c->op, "multinode") - multi == (unsigned) expect_served
                 && st_op_counter(c->op, "fallback") - fallback == (unsigned) !expect_served,
                 "%s %s root %d: multinode +%llu fallback +%llu", st_op_name(c->op),
                 c->comm_name, c->root, st_op_counter(c->op, "multinode") - multi,
                 st_op_counter(c->op, "fallback") - fallback);
    }
    /* a call across nodes never takes the small path, and its node
     * stages are not calls of the program's */
    ST_CHECK(st_counter_sum("small") == small, "%s %s root %d: _small +%llu", st_op_name(c->op),
             c->comm_name, c->root, st_counter_sum("small") - small);
}

static void every_root(st_op op, MPI_Comm comm, const char *name, const st_type *type,
                       size_t bytes, int pattern, int in_place, uint64_t seed)
{
    size_t elem = st_type_size(type->single_type);
    int p, roots, n = (int) (bytes / elem > 0 ? bytes / elem : 1);
    int allgather = ST_ALLGATHER == op || ST_ALLGATHERV == op;

    MPI_Comm_size(comm, &p);
    /* an Allgather(v) has no root: where its counts do not follow the
     * root either (the same everywhere), every root would be one call */
    roots = allgather && (st_op_regular(op) || TC_UNIFORM == pattern) ? 1 : p;
    for (int root = 0; root < roots; ++root) {
        tc_call c = { .op = op, .comm = comm, .comm_name = name, .type = type, .root = root,
                      .in_place = in_place, .short_rank = -1,
                      .seed = seed + (uint64_t) root };
        tc_layout(&c, p, pattern, n, 0);
        run(&c);
    }
}

static void sizes_and_types(st_op op, MPI_Comm comm, const char *name)
{
    static const size_t sizes[] = { 8, 100 << 10, 1536 << 10 };
    static const int type_index[] = { 0, 4, 8 };

    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); ++i) {
        for (size_t t = 0; t < sizeof(type_index) / sizeof(type_index[0]); ++t) {
            every_root(op, comm, name, &types[type_index[t]], sizes[i], TC_UNIFORM, 0,
                       100 * i + 10 * t);
        }
    }
}

static void patterns_and_in_place(st_op op, MPI_Comm comm, const char *name)
{
    int is_v = !st_op_regular(op) && ST_BCAST != op;

    for (int pattern = TC_ZEROS; is_v && pattern < TC_NPATTERNS; ++pattern) {
        every_root(op, comm, name, &types[0], 5000, pattern, 0, 700 + (uint64_t) pattern);
    }
    if (ST_BCAST != op) {
        every_root(op, comm, name, &types[0], 3000, is_v ? TC_RANDOM : TC_UNIFORM, 1, 800);
    }
}

/* a short count on each process but the root in turn (leaders and
 * not), each time followed by a right call; also large: a Bcast at
 * 1.5 MiB, so that a short process sees fewer pipeline chunks than the
 * root sends, the others at 256 KiB a block, so that a short Allgather(v)
 * leader is sent messages longer than its counts say, which go by
 * rendezvous (a receive that truncates one writes it whole past a
 * contiguous buffer with Open MPI 4.1's ob1) */
static void truncation(st_op op, MPI_Comm comm, const char *name)
{
    int p, sizes = 2;

    MPI_Comm_size(comm, &p);
    for (int i = 0; i < sizes; ++i) {
        for (int victim = 1; victim < p; ++victim) {
            char short_name[64], after_name[64];
            tc_call c = { .op = op, .comm = comm, .comm_name = short_name, .type = &types[0],
                          .root = 0, .seed = 900 + (uint64_t) victim };
            snprintf(short_name, sizeof(short_name), "%s, rank %d short", name, victim);
            snprintf(after_name, sizeof(after_name), "%s, after rank %d short", name, victim);
            c.short_rank = victim;
            tc_layout(&c, p, TC_UNIFORM, 0 == i ? 4000 : ST_BCAST == op ? 1536 << 10 : 256 << 10,
                      0);
            run(&c);
            c.short_rank = -1;
            c.comm_name = after_name;
            run(&c);
        }
    }
}

/* A Scatter root that sends nothing but has room for its own block,
 * then a Gather root that expects nothing while every process sends
 * (roots on both nodes): the Scatter succeeds and changes no buffer,
 * the Gather gives the root MPI_ERR_TRUNCATE and changes nothing there,
 * every process takes part (multinode +1), and the next call is right. */
static void empty_root_blocks(MPI_Comm comm, int root)
{
    int rank, p, n = 1000, err, cls;
    unsigned long long scatters = st_op_counter(ST_SCATTER, "multinode");
    unsigned long long gathers = st_op_counter(ST_GATHER, "multinode");
    unsigned char *all, *mine;

    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &p);
    all = malloc((size_t) p * n * sizeof(int));
    mine = malloc(n * sizeof(int));
    st_fill(mine, n * sizeof(int), 41);
    err = MPI_Scatter(all, rank == root ? 0 : n, MPI_INT, mine, n, MPI_INT, root, comm);
    ST_CHECK(MPI_SUCCESS == err && st_first_wrong(mine, n * sizeof(int), 41) < 0,
             "Scatter from root %d sending nothing: rank %d's error %d or data", root, rank, err);
    st_fill(all, (size_t) p * n * sizeof(int), 42);
    err = MPI_Gather(mine, n, MPI_INT, all, rank == root ? 0 : n, MPI_INT, root, comm);
    MPI_Error_class(err, &cls);
    ST_CHECK(cls == (rank == root ? MPI_ERR_TRUNCATE : MPI_SUCCESS)
             && st_first_wrong(all, (size_t) p * n * sizeof(int), 42) < 0,
             "Gather to root %d expecting nothing: rank %d's error class %d or data", root,
             rank, cls);
    ST_CHECK(st_op_counter(ST_SCATTER, "multinode") - scatters == 1
             && st_op_counter(ST_GATHER, "multinode") - gathers == 1,
             "root %d's empty blocks: not served across nodes at rank %d", root, rank);
    free(all);
    free(mine);
    every_root(ST_SCATTER, comm, "after empty blocks", &types[0], 4000, TC_UNIFORM, 0, 950);
    every_root(ST_GATHER, comm, "after empty blocks", &types[0], 4000, TC_UNIFORM, 0, 960);
}

/* A Bcast whose processes describe the same bytes with types of other
 * sizes: the root 24-byte elements, even ranks ints, odd ranks every
 * other int of a strided vector; 1.5 MiB + 24 bytes, so that the
 * pipeline's chunks end inside elements of every type. */
static void mixed_types_bcast(MPI_Comm comm, int root)
{
    int rank, n = (1536 << 10) / 24 + 1, ints = 6 * n, count;
    MPI_Datatype six, strided, type;
    int *buf = malloc(2 * (size_t) ints * sizeof(int));
    unsigned long long multi = st_op_counter(ST_BCAST, "multinode");
    int bad = 0, err;

    MPI_Comm_rank(comm, &rank);
    MPI_Type_contiguous(6, MPI_INT, &six);
    MPI_Type_vector(ints, 1, 2, MPI_INT, &strided);
    MPI_Type_commit(&six);
    MPI_Type_commit(&strided);
    for (int i = 0; i < 2 * ints; ++i) {
        buf[i] = rank == root ? i * 7 + 1 : -1;
    }
    type = rank == root ? six : rank % 2 ? strided : MPI_INT;
    count = rank == root ? n : rank % 2 ? 1 : ints;
    err = MPI_Bcast(buf, count, type, root, comm);
    for (int i = 0; rank != root && i < 2 * ints; ++i) {
        int want = rank % 2 ? (i % 2 ? -1 : (i / 2) * 7 + 1) : i < ints ? i * 7 + 1 : -1;
        bad += buf[i] != want;
    }
    ST_CHECK(MPI_SUCCESS == err && 0 == bad, "mixed-type Bcast from root %d: error %d, %d "
             "wrong ints", root, err, bad);
    ST_CHECK(st_op_counter(ST_BCAST, "multinode") - multi == (unsigned) expect_served,
             "mixed-type Bcast from root %d not served across nodes", root);
    MPI_Type_free(&six);
    MPI_Type_free(&strided);
    free(buf);
}

/* value reduced with op over the processes of this process's node */
static int over_node(int value, MPI_Op op)
{
    MPI_Comm node;
    int result = 0;

    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    MPI_Allreduce(&value, &result, 1, MPI_INT, op, node);
    MPI_Comm_free(&node);
    return result;
}

/* hints reach the node stages: a Gather of 1 MiB blocks goes by single
 * copy in the node stages of MPI_COMM_WORLD (far above the crossovers),
 * and through the queues only on a duplicate with
 * shmcico_single_copy=off.  The node stages are Gatherv calls on the
 * node communicator: the gatherv transport counters move, but at a
 * process alone on its node, whose node stages are coll/self's. */
static void hints_across_nodes(void)
{
    int rank, size, block = 1 << 20, flag, alone = 1 == over_node(1, MPI_SUM);
    char *sbuf, *rbuf, value[MPI_MAX_INFO_VAL + 1];
    unsigned long long single, queue;
    MPI_Info info;
    MPI_Comm off;

    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    sbuf = calloc((size_t) block, 1);
    rbuf = calloc((size_t) block * (size_t) size, 1);
    MPI_Info_create(&info);
    MPI_Info_set(info, "shmcico_single_copy", "off");
    MPI_Comm_dup_with_info(MPI_COMM_WORLD, info, &off);
    MPI_Info_free(&info);
    single = st_op_counter(ST_GATHERV, "single_copy");
    memset(sbuf, 1 + rank, (size_t) block);
    ST_CHECK(MPI_SUCCESS == MPI_Gather(sbuf, block, MPI_BYTE, rbuf, block, MPI_BYTE, 0,
                                       MPI_COMM_WORLD), "Gather of 1 MiB blocks: error");
    for (size_t i = 0; 0 == rank && i < (size_t) block * (size_t) size; i += 4093) {
        ST_CHECK(rbuf[i] == (char) (1 + i / (size_t) block), "Gather of 1 MiB blocks: byte "
                 "%zu is %d", i, rbuf[i]);
    }
    ST_CHECK(alone ? st_op_counter(ST_GATHERV, "single_copy") == single
                   : st_op_counter(ST_GATHERV, "single_copy") > single,
             "Gather of 1 MiB blocks across nodes: node stages by single copy +%llu%s",
             st_op_counter(ST_GATHERV, "single_copy") - single, alone ? " alone on a node" : "");
    /* what is in effect is the node stages' transport, not a default */
    flag = st_info(MPI_COMM_WORLD, "shmcico_single_copy", value);
    ST_CHECK(alone || (flag && (0 == strcmp(value, "cma") || 0 == strcmp(value, "smsc"))),
             "shmcico_single_copy in effect across nodes: %s (cma or smsc expected)",
             flag ? value : "(none)");
    single = st_op_counter(ST_GATHERV, "single_copy");
    queue = st_op_counter(ST_GATHERV, "queue");
    MPI_Gather(sbuf, block, MPI_BYTE, rbuf, block, MPI_BYTE, 0, off);
    ST_CHECK(st_op_counter(ST_GATHERV, "single_copy") == single
             && (alone ? st_op_counter(ST_GATHERV, "queue") == queue
                       : st_op_counter(ST_GATHERV, "queue") > queue),
             "Gather across nodes with shmcico_single_copy=off: single copy +%llu, "
             "queue +%llu", st_op_counter(ST_GATHERV, "single_copy") - single,
             st_op_counter(ST_GATHERV, "queue") - queue);
    flag = st_info(off, "shmcico_single_copy", value);
    ST_CHECK(flag && 0 == strcmp(value, "off"), "shmcico_single_copy in effect: %s",
             flag ? value : "(none)");
    MPI_Comm_free(&off);
    free(sbuf);
    free(rbuf);
}

/* Whether this process shares a node with world rank 2, where the suite
 * sets coll_shmcico_gatherv_max_bytes 1 */
static int on_limited_node(void)
{
    int rank;

    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    return over_node(2 == rank, MPI_MAX);
}

/* One Gather of 64 B, right, served across nodes; its node stage (a
 * Gatherv on the node communicator) handed over on the limited node and
 * served through the queues elsewhere */
static void later_hint_gather(int rank, int size, int round, int limited)
{
    unsigned long long served = st_op_counter(ST_GATHER, "served");
    unsigned long long multi = st_op_counter(ST_GATHER, "multinode");
    unsigned long long node_stage = st_op_counter(ST_GATHERV, "queue")
        + st_op_counter(ST_GATHERV, "single_copy");
    int sent[16], *got = malloc((size_t) size * 16 * sizeof(int));

    for (int i = 0; i < 16; ++i) {
        sent[i] = 1000 * rank + i + round;
    }
    ST_CHECK(MPI_SUCCESS == MPI_Gather(sent, 16, MPI_INT, got, 16, MPI_INT, 0,
                                       MPI_COMM_WORLD), "Gather %d failed", round);
    for (int i = 0; 0 == rank && i < size * 16; ++i) {
        ST_CHECK(got[i] == 1000 * (i / 16) + i % 16 + round, "Gather %d: element %d is %d",
                 round, i, got[i]);
    }
    ST_CHECK(1 == st_op_counter(ST_GATHER, "served") - served
             && 1 == st_op_counter(ST_GATHER, "multinode") - multi,
             "Gather %d: served +%llu, across nodes +%llu", round,
             st_op_counter(ST_GATHER, "served") - served,
             st_op_counter(ST_GATHER, "multinode") - multi);
    node_stage = st_op_counter(ST_GATHERV, "queue") + st_op_counter(ST_GATHERV, "single_copy")
        - node_stage;
    ST_CHECK(limited ? 0 == node_stage : 1 == node_stage, "Gather %d: the node stage "
             "moved %llu transports on the node %s the limit", round, node_stage,
             limited ? "with" : "without");
    free(got);
}

/* MPI_Comm_get_info reports the size limits the node stages follow:
 * on the limited node its first process's, at every process of it */
static void later_hint_reported(int limited)
{
    const char *want = limited ? "bcast:0,scatter:0,scatterv:0,gather:0,gatherv:1,"
                                 "allgather:0,allgatherv:0" : "0";
    char value[MPI_MAX_INFO_VAL + 1];
    int flag = st_info(MPI_COMM_WORLD, "shmcico_max_bytes", value);

    ST_CHECK(flag && 0 == strcmp(value, want), "shmcico_max_bytes reported: %s, in effect: %s",
             flag ? value : "(none)", want);
}

/* Run with coll_shmcico_gatherv_max_bytes 1 at the first process of the
 * last node only: the node stages there follow that process's limit (the
 * segment's, agreed at setup), also after a hint on the communicator
 * that names another parameter; the Gathers of 64 B complete, right,
 * the counters show the node stage handed over there only, in both
 * rounds, and every process of that node reports the limit in effect. */
static int later_hint(void)
{
    int rank, size, limited = on_limited_node();

    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    later_hint_gather(rank, size, 0, limited);
    {
        MPI_Info info;
        MPI_Info_create(&info);
        MPI_Info_set(info, "shmcico_streaming_min", "4096");
        MPI_Comm_set_info(MPI_COMM_WORLD, info);
        MPI_Info_free(&info);
    }
    later_hint_gather(rank, size, 1, limited);
    later_hint_reported(limited);
    return st_finish("test_multinode");
}

/* A communicator left for MPI_Finalize to free, whose node communicator
 * took the lower index of one freed before it: MPI_Finalize releases
 * the node communicator first, and the module of the other must not
 * free it again (the suite runs this under valgrind:
 * valgrind-multinode-leftover). */
static int leftover(void)
{
    MPI_Comm freed, kept;
    int rank, data[64];
    unsigned long long multi = st_op_counter(ST_BCAST, "multinode");

    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_dup(MPI_COMM_WORLD, &freed);
    MPI_Comm_dup(MPI_COMM_WORLD, &kept);
    MPI_Comm_free(&freed);
    st_fill(data, sizeof(data), 0 == rank ? 5 : 6);
    ST_CHECK(MPI_SUCCESS == MPI_Bcast(data, 64, MPI_INT, 0, kept)
             && st_first_wrong(data, sizeof(data), 5) < 0, "rank %d: the Bcast failed", rank);
    ST_CHECK(st_op_counter(ST_BCAST, "multinode") - multi == 1,
             "rank %d: the Bcast was not served across nodes", rank);
    return st_finish("test_multinode");     /* kept: MPI_Finalize's */
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    MPI_Comm reversed;
    int rank, size;

    st_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    expect_served = 0 == strcmp(mode, "served");
    if (0 == strcmp(mode, "later-hint")) {
        return later_hint();
    }
    if (0 == strcmp(mode, "no-memory")) {
        return tm_no_memory();
    }
    if (0 == strcmp(mode, "no-memory-bcast")) {
        return tm_no_memory_bcast();
    }
    if (0 == strcmp(mode, "leftover")) {
        return leftover();
    }
    if (!expect_served && 0 != strcmp(mode, "fallback")) {
        st_fail("usage: test_multinode served|fallback|later-hint|no-memory|no-memory-bcast|"
                "leftover");
        return st_finish("test_multinode");
    }
    types = st_types();
    MPI_Comm_split(MPI_COMM_WORLD, 0, -rank, &reversed);
    MPI_Comm_set_errhandler(reversed, MPI_ERRORS_RETURN);
    for (int op = 0; op < ST_NOPS; ++op) {
        sizes_and_types((st_op) op, MPI_COMM_WORLD, "world");
        patterns_and_in_place((st_op) op, reversed, "reversed-keys");
        if (ST_BCAST == op) {
            for (int root = 0; root < size; ++root) {
                mixed_types_bcast(MPI_COMM_WORLD, root);
            }
        }
        if (expect_served) {
            /* an erroneous call: the fallback component's behaviour is its own */
            truncation((st_op) op, MPI_COMM_WORLD, "world");
        }
    }
    if (expect_served) {
        empty_root_blocks(MPI_COMM_WORLD, 0);
        empty_root_blocks(MPI_COMM_WORLD, size - 1);
        hints_across_nodes();
    }
    MPI_Comm_free(&reversed);
    return st_finish("test_multinode");
}
