/*
 * Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
 * $COPYRIGHT$
 *
 * Additional copyrights may follow
 *
 * $HEADER$
 */

/*
 * Kept segments (coll_shmcico_keep_segments, default 4): a freed
 * communicator's segment stays mapped, and the next communicator of the
 * same processes in the same order takes it over at its setup, its calls
 * numbered on from the freed one's.  The MPI_T counters
 * coll_shmcico_segments_created and _segments_reused say which setup
 * made a file and which took one over; every byte of every call is
 * checked (MPI_COMM_WORLD, whose segment is made first, left aside).
 *  - handover: 40 communicators, one after the other (each a duplicate,
 *    used and freed), every operation at 8 bytes, 20 KiB (queues) and
 *    256 KiB (single copy), the last call before each free a different
 *    operation: one segment made, 39 taken over, one kept and mapped
 *    after the last free;
 *  - the same processes in another order (a split with reversed keys)
 *    make their own segment, and the next such communicator takes that
 *    one over; a communicator with another tree (the shmcico_tree hint)
 *    takes a kept segment over, and its tree is in effect
 *    (MPI_Comm_get_info): a segment's parameters are its communicator's;
 *  - a rank without a copy: rank 0 frees its communicator while the
 *    others keep theirs; the next communicator's setup finds the copy
 *    missing at the others, every rank drops its copy and a new segment
 *    serves; the next one takes the new one over, and the others, when
 *    they free the first one, drop their copy (two kept, not three);
 *  - on communicators that span nodes (simulated nodes), the same of
 *    their node communicators;
 *  - at most coll_shmcico_keep_segments kept: 6 communicators at once,
 *    freed: 4 kept (coll_shmcico_segment_bytes and /proc/self/maps agree),
 *    6 more take 4 over and make 2.
 * Modes:
 *   keep   the default
 *   off    run with coll_shmcico_keep_segments 0: every setup makes a
 *          segment, and nothing is mapped after the frees
 *   no-memory  under fault_malloc.so: rank 1's component cannot allocate
 *          while it takes over a kept segment, so the setup fails; every
 *          rank drops the segment (coll_shmcico_segment_bytes and the
 *          mappings say so), the communicator falls back with right
 *          results, and the next one makes a new segment
 *   over-limit  np 3, with coll_shmcico_max_memory room for a segment of
 *          two processes but not for one of three: MPI_COMM_WORLD and a
 *          duplicate of it fall back, and the segment that ranks 0 and 1
 *          kept of a communicator of their own is not dropped for that
 *          (no room would be made): their next such communicator takes
 *          it over
 *   mixed  rank 0 keeps segments, the others run with
 *          coll_shmcico_keep_segments 0: rank 0 never offers one
 *          (it would be missing at the others, and rank 0 would drop
 *          it), so after 10 communicators in turn it keeps 4
 *
 * Usage: test_keep keep|off|mixed|no-memory|over-limit
 */

#include <stdio.h>
#include <string.h>

#include "shmcico_test.h"

#define HANDOVERS 40
#define AT_ONCE 6

static int keeping;                     /* the mode */
static int kept_max;                    /* coll_shmcico_keep_segments */
static int world_maps;                  /* MPI_COMM_WORLD's segment: mapped throughout */
static unsigned long long world_bytes;

typedef struct counts_t {
    unsigned long long created, reused, failed;
} counts_t;

static counts_t now(void)
{
    return (counts_t) { st_counter("segments_created"), st_counter("segments_reused"),
                        st_counter("segments_failed") };
}

/* the setups since before: created made, reused taken over, none failed */
static void expect(const char *what, counts_t before, unsigned long long created,
                   unsigned long long reused)
{
    counts_t after = now();

    if (!keeping) {                     /* every setup makes its own */
        created += reused;
        reused = 0;
    }
    ST_CHECK(after.created - before.created == created
             && after.reused - before.reused == reused && after.failed == before.failed,
             "%s: %llu segments made, %llu taken over, %llu failed; expected %llu and %llu",
             what, after.created - before.created, after.reused - before.reused,
             after.failed - before.failed, created, reused);
}

/* every operation once, blocks of bytes each, op last the last call */
static void use(MPI_Comm comm, int bytes, st_op last, uint64_t seed)
{
    int size, counts[64];
    unsigned long long served = st_counter_sum("served");

    MPI_Comm_size(comm, &size);
    for (int i = 0; i < size && i < 64; ++i) {
        counts[i] = bytes;
    }
    for (int k = 1; k <= ST_NOPS; ++k) {
        st_op op = (st_op) ((last + k) % ST_NOPS);
        st_simple_call(op, comm, (int) (seed % (uint64_t) size), counts, seed + (uint64_t) k);
    }
    ST_CHECK(st_counter_sum("served") - served == ST_NOPS, "%llu of %d calls served",
             st_counter_sum("served") - served, ST_NOPS);
}

static MPI_Comm made(MPI_Comm comm, int bytes, st_op last, uint64_t seed)
{
    MPI_Comm dup;

    MPI_Comm_dup(comm, &dup);
    use(dup, bytes, last, seed);
    return dup;
}

static void handover(void)
{
    static const int sizes[] = { 8, 20 * 1024, 256 * 1024 };
    counts_t before = now();

    for (int i = 0; i < HANDOVERS; ++i) {
        MPI_Comm comm = made(MPI_COMM_WORLD, sizes[i % 3], (st_op) (i % ST_NOPS),
                             (uint64_t) i);
        MPI_Comm_free(&comm);
    }
    expect("handover", before, 1, HANDOVERS - 1);
    ST_CHECK(st_segment_mappings(8) - world_maps == keeping,
             "%d segments mapped after the frees, expected %d",
             st_segment_mappings(8) - world_maps, keeping);
}

static int tree_in_effect(MPI_Comm comm, const char *tree)
{
    char value[MPI_MAX_INFO_VAL + 1];

    return st_info(comm, "shmcico_tree", value) && 0 == strcmp(value, tree);
}

static void other_order_and_tree(int rank, int size)
{
    MPI_Comm reversed, again, tree;
    MPI_Info info;
    counts_t before = now();

    MPI_Comm_split(MPI_COMM_WORLD, 0, size - rank, &reversed);
    use(reversed, 20 * 1024, ST_BCAST, 1);
    MPI_Comm_free(&reversed);
    expect("the same processes in another order", before, 1, 0);
    before = now();
    MPI_Comm_split(MPI_COMM_WORLD, 0, size - rank, &again);
    use(again, 256 * 1024, ST_GATHER, 2);
    MPI_Comm_free(&again);
    expect("that order again", before, 0, 1);

    before = now();
    MPI_Info_create(&info);
    MPI_Info_set(info, "shmcico_tree", "chain");
    MPI_Comm_dup_with_info(MPI_COMM_WORLD, info, &tree);
    MPI_Info_free(&info);
    use(tree, 20 * 1024, ST_ALLGATHER, 3);
    ST_CHECK(tree_in_effect(tree, "chain"), "the shmcico_tree hint not in effect on a "
             "communicator that took a kept segment over");
    MPI_Comm_free(&tree);
    expect("another tree", before, 0, 1);
}

/* whether this process shares a node with rank 0 of MPI_COMM_WORLD */
static int on_node_of_0(void)
{
    MPI_Comm node;
    int first, rank;

    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    MPI_Allreduce(&rank, &first, 1, MPI_INT, MPI_MIN, node);
    MPI_Comm_free(&node);
    return 0 == first;
}

static void rank_without_copy(int rank)
{
    MPI_Comm held = made(MPI_COMM_WORLD, 8, ST_SCATTER, 4), next, last;
    counts_t before;

    if (0 == rank) {
        MPI_Comm_free(&held);           /* rank 0 keeps it, the others hold it */
    }
    before = now();
    next = made(MPI_COMM_WORLD, 256 * 1024, ST_ALLGATHERV, 5);
    expect("a rank without a copy", before, 1, 0);
    if (0 != rank) {
        MPI_Comm_free(&held);
    }
    MPI_Comm_free(&next);
    before = now();
    last = made(MPI_COMM_WORLD, 20 * 1024, ST_GATHERV, 6);
    MPI_Comm_free(&last);
    expect("after it", before, 0, 1);
    /* this one and the reversed order's: the first one is dropped
     * everywhere; on another node (simulated nodes) every process held
     * it, so it is kept there too */
    ST_CHECK(st_segment_mappings(8) - world_maps == (2 + !on_node_of_0()) * keeping,
             "%d segments mapped after a rank without a copy, expected %d",
             st_segment_mappings(8) - world_maps, (2 + !on_node_of_0()) * keeping);
}

static void mixed(int rank)
{
    counts_t before = now();
    int kept = 0 == rank ? kept_max : 0;

    for (int i = 0; i < 10; ++i) {
        MPI_Comm comm = made(MPI_COMM_WORLD, 20 * 1024, (st_op) (i % ST_NOPS), (uint64_t) i);
        MPI_Comm_free(&comm);
    }
    keeping = 0;                        /* for expect(): none taken over */
    expect("rank 0 alone keeps segments", before, 10, 0);
    ST_CHECK(st_segment_mappings(8) - world_maps == kept,
             "%d segments mapped after the frees, expected %d",
             st_segment_mappings(8) - world_maps, kept);
}

static void at_most_kept(void)
{
    MPI_Comm comms[AT_ONCE];
    unsigned long long segment;
    int kept = keeping ? (kept_max < AT_ONCE ? kept_max : AT_ONCE) : 0;
    counts_t before;

    /* drop what earlier steps kept: as many new ones at once as can be kept */
    for (int round = 0; round < 2; ++round) {
        before = now();
        for (int i = 0; i < AT_ONCE; ++i) {
            comms[i] = made(MPI_COMM_WORLD, 8, (st_op) i, (uint64_t) (10 + i));
        }
        segment = (st_size_variable("segment_bytes") - world_bytes) / AT_ONCE;
        for (int i = 0; i < AT_ONCE; ++i) {
            MPI_Comm_free(&comms[i]);
        }
        if (1 == round) {
            expect("6 at once after 4 kept", before, (unsigned long long) (AT_ONCE - kept),
                   (unsigned long long) kept);
        }
    }
    ST_CHECK(st_size_variable("segment_bytes") - world_bytes
             == (unsigned long long) kept * segment,
             "%llu segment bytes after the frees, expected %d segments of %llu",
             st_size_variable("segment_bytes") - world_bytes, kept, segment);
    ST_CHECK(st_segment_mappings(AT_ONCE + 2) - world_maps == kept,
             "%d segments mapped after the frees, expected %d",
             st_segment_mappings(AT_ONCE + 2) - world_maps, kept);
}

static void no_memory(int rank)
{
    MPI_Comm comm = made(MPI_COMM_WORLD, 8, ST_BCAST, 20);
    int counts[1] = { 4096 };
    unsigned long long fallback;
    counts_t before;

    MPI_Comm_free(&comm);               /* kept */
    before = now();
    fallback = st_counter_sum("fallback");
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    if (1 == rank) {
        (void) st_fault_malloc_from(1);
    }
    st_simple_call(ST_BCAST, comm, 0, counts, 21);
    (void) st_fault_malloc_from(0);
    ST_CHECK(now().failed - before.failed == 1 && now().reused == before.reused
             && now().created == before.created,
             "a setup that failed on a kept segment: %llu failed, %llu taken over, %llu made",
             now().failed - before.failed, now().reused - before.reused,
             now().created - before.created);
    ST_CHECK(st_counter_sum("fallback") - fallback == 1, "%llu calls handed on, expected 1",
             st_counter_sum("fallback") - fallback);
    ST_CHECK(st_size_variable("segment_bytes") == world_bytes
             && st_segment_mappings(8) == world_maps,
             "the kept segment still there after the failed setup: %llu bytes, %d mappings",
             st_size_variable("segment_bytes") - world_bytes, st_segment_mappings(8) - world_maps);
    MPI_Comm_free(&comm);
    before = now();
    comm = made(MPI_COMM_WORLD, 256 * 1024, ST_GATHER, 22);
    MPI_Comm_free(&comm);
    expect("after the failed setup", before, 1, 0);
}

/* ranks 0 and 1 alone, used once (the others: MPI_COMM_NULL) */
static MPI_Comm pair_used(int rank, uint64_t seed)
{
    MPI_Comm pair;

    MPI_Comm_split(MPI_COMM_WORLD, rank < 2 ? 0 : MPI_UNDEFINED, rank, &pair);
    if (MPI_COMM_NULL != pair) {
        use(pair, 8, ST_BCAST, seed);
    }
    return pair;
}

static void over_limit(int rank)
{
    unsigned long long kept;
    int counts[1] = { 8 };
    counts_t before;
    MPI_Comm pair, dup;

    st_simple_call(ST_BCAST, MPI_COMM_WORLD, 0, counts, 29);  /* over the limit */
    before = now();
    pair = pair_used(rank, 30);
    if (MPI_COMM_NULL != pair) {
        expect("a communicator of two", before, 1, 0);
        MPI_Comm_free(&pair);
    }
    kept = st_size_variable("segment_bytes");
    ST_CHECK(rank >= 2 || kept > 0, "nothing kept of the communicator of two");
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    st_simple_call(ST_BCAST, dup, 0, counts, 31);     /* over the limit: falls back */
    MPI_Comm_free(&dup);
    ST_CHECK(st_size_variable("segment_bytes") == kept,
             "%llu segment bytes after a setup over the limit, %llu before",
             st_size_variable("segment_bytes"), kept);
    before = now();
    pair = pair_used(rank, 32);
    if (MPI_COMM_NULL != pair) {
        expect("the next communicator of two", before, 0, 1);
        MPI_Comm_free(&pair);
    }
}

int main(int argc, char **argv)
{
    int rank, size;

    const char *mode = argc > 1 ? argv[1] : "(none)";

    st_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    keeping = 0 == strcmp(mode, "keep") || 0 == strcmp(mode, "no-memory")
              || 0 == strcmp(mode, "over-limit") || (0 == strcmp(mode, "mixed") && 0 == rank);
    kept_max = (int) st_cvar("keep_segments");
    ST_CHECK(keeping == (kept_max > 0), "coll_shmcico_keep_segments %d in mode %s",
             kept_max, mode);
    if (0 == strcmp(mode, "over-limit")) {
        over_limit(rank);
        return st_finish("test_keep");
    }
    /* MPI_Comm_split's Allgather on MPI_COMM_WORLD is served too: its
     * segment is made first, and stays */
    use(MPI_COMM_WORLD, 8, ST_BCAST, 0);
    world_maps = st_segment_mappings(8);
    world_bytes = st_size_variable("segment_bytes");
    if (0 == strcmp(mode, "mixed")) {
        mixed(rank);
        return st_finish("test_keep");
    }
    if (0 == strcmp(mode, "no-memory")) {
        if (!st_fault_malloc_from(0)) {
            st_fail("no-memory needs test/mpi/.libs/fault_malloc.so in LD_PRELOAD");
        } else {
            no_memory(rank);
        }
        return st_finish("test_keep");
    }
    handover();
    other_order_and_tree(rank, size);
    rank_without_copy(rank);
    at_most_kept();
    if (0 == rank) {
        printf("test_keep %s: %d communicators in turn, other orders, a missing copy, "
               "%d at once (keep_segments %d)\n", keeping ? "keep" : "off", HANDOVERS,
               AT_ONCE, kept_max);
    }
    return st_finish("test_keep");
}
