/*
 * Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
 * $COPYRIGHT$
 *
 * Additional copyrights may follow
 *
 * $HEADER$
 */

/*
 * Per-communicator hints: shmcico_* MPI_Info keys override the MCA
 * parameters for one communicator, and MPI_Comm_get_info reports the
 * values in effect.
 *  - MPI_Comm_dup_with_info, shmcico_disable=true: every call is handed
 *    to the previous component, the data is right, and no segment is
 *    made for it, not even with coll_shmcico_lazy 0 ("test_hints
 *    disable" runs this case alone, for the suite's eager run);
 *  - MPI_Comm_dup_with_info, shmcico_max_bytes=bcast:1000: a Bcast of
 *    2000 bytes is handed over, one of 500 bytes is served, the other
 *    operations keep no limit;
 *  - MPI_Comm_split_type, shmcico_single_copy=off: a Bcast of 1 MiB goes
 *    through the queues, while the parent communicator copies it once
 *    (where it has at most coll_shmcico_bcast_single_copy_max_procs
 *    processes, else through the queues too);
 *  - shmcico_single_max_procs: with bcast:1 a Bcast of 1 MiB goes through
 *    the queues, with 0 (no limit) and with the communicator's size by
 *    single copy; with allgather:1 an Allgather of 1 MiB blocks goes
 *    through the queues while a Bcast goes as on MPI_COMM_WORLD;
 *  - shmcico_single_copy_min=1 (every operation): an Allgather of 100
 *    bytes per process goes by single copy;
 *  - on 3 or more processes a Bcast of 32 KiB goes through the queues and
 *    one of coll_shmcico_bcast_readers_single_copy_min (64 KiB) by single
 *    copy, which MPI_Comm_get_info reports as Bcast's crossover; with the
 *    communicator's own shmcico_single_copy_min (16 KiB) a Bcast of
 *    32 KiB goes by single copy; on 2 by single copy (see
 *    readers_floor());
 *  - shmcico_streaming_min=0: a Gather of 64 KiB blocks through the queues
 *    (the counters prove shmcico served it, through them)
 *    writes none with streaming stores, while MPI_COMM_WORLD (the
 *    default, 4 KiB) writes each non-root's block so; =64K: a 32 KiB block
 *    is written with ordinary stores, a 64 KiB one with streaming ones;
 *  - shmcico_own_streaming_min: a process copies its own block with
 *    streaming stores from coll_shmcico_<op>_own_streaming_min on (an
 *    Allgather's every process, a Gather's and a Scatterv's root, from
 *    2 MiB by default; a byte less: none, with coll_shmcico_cache_probe 0
 *    as the suite runs it, since the probe streams an own block from
 *    1 MiB whose destination it finds cold), never with 0, from 64 KiB
 *    with 64K, a Gather from 1 MiB with gather:1M;
 *  - MPI_Comm_set_info before the first call: shmcico_tree=chain is in
 *    effect (the suite checks the segment's verbose line too); after the
 *    segment is made a new shmcico_tree is ignored (with a message; as
 *    MPI says of ignored hints, MPI_Comm_get_info does not return it)
 *    while a size limit still applies;
 *  - an invalid value is ignored (the suite checks the message) and the
 *    value in effect stays;
 *  - MPI_COMM_WORLD reports the defaults, and the single copy in use once
 *    its segment is made;
 *  - "test_hints own-probe cold|warm": own blocks of 1 MiB and more go
 *    with streaming stores where the cache probe finds their destination
 *    cold (see own_probe());
 *  - "test_hints knomial": a k-nomial tree asked by a hint where
 *    coll_shmcico_tree_degree is 1 (see knomial());
 *  - "test_hints nearness" (run with coll_shmcico_nearness auto, the
 *    default): the setup of a communicator found its processes near or
 *    far, which MPI_Comm_get_info reports, and a Gather of 8 KiB blocks
 *    through the queues writes them with streaming stores where they are
 *    far, with ordinary ones where they are near; told near by the
 *    shmcico_nearness hint: 8 KiB and 512 KiB blocks with ordinary stores,
 *    1 MiB ones (coll_shmcico_near_streaming_min) with streaming ones; told far: 8
 *    KiB blocks with streaming stores; a hint once the segment is made is
 *    ignored (see nearness()); told near, MPI_Comm_get_info reports the
 *    crossovers in effect (streaming stores from 1 MiB, on up to 4
 *    processes single copy from 256 KiB, Allgather(v) from 32 KiB),
 *    and a communicator's hint that changes a crossover replaces the
 *    floor (see near_floors());
 *  - "test_hints watch far|near|none" (coll_shmcico_nearness auto,
 *    coll_shmcico_nearness_watch_ns 1 or 1000000000): after 128 periods
 *    of calls every process took at least 3 rounds of its watch (a round
 *    is lost where a load came as fast as a hit: 87 % of them in one
 *    run) and sees the others far (under 1 ns) or near (under 1 s)
 *    whatever the setup found, so an 8 KiB Gather block through the
 *    queues goes with streaming stores, or not, and MPI_Comm_get_info
 *    reports the streaming threshold in effect (4096 or 1048576); a
 *    communicator told near takes no round; "none"
 *    (more processes than cores, where the setup times nothing, or
 *    coll_shmcico_nearness_watch false): no round anywhere, the stores
 *    as the setup found (see watch()).
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shmcico_test.h"

static int rank, size;

static void expect_info(MPI_Comm comm, const char *key, const char *want, const char *when)
{
    char value[MPI_MAX_INFO_VAL + 1];
    int flag = st_info(comm, key, value);

    ST_CHECK(flag && 0 == strcmp(value, want), "%s: %s is '%s' (%s), expected '%s'", when,
             key, value, flag ? "set" : "not set", want);
}

/* the copier in use once a segment is made: CMA (4.1) or smsc (5.0) */
static void expect_copier(MPI_Comm comm)
{
    char value[MPI_MAX_INFO_VAL + 1];
    int flag = st_info(comm, "shmcico_single_copy", value);

    ST_CHECK(flag && (0 == strcmp(value, "cma") || 0 == strcmp(value, "smsc")),
             "a communicator with its segment: shmcico_single_copy is '%s'", value);
}

static void expect_no_info(MPI_Comm comm, const char *key, const char *when)
{
    char value[MPI_MAX_INFO_VAL + 1];
    int flag = st_info(comm, key, value);

    ST_CHECK(!flag, "%s: %s is reported ('%s'), expected none (ignored)", when, key, value);
}

/* a duplicate of MPI_COMM_WORLD made with key=value and, where key2 is
 * not NULL, key2=value2 */
static MPI_Comm dup_with2(const char *key, const char *value, const char *key2,
                          const char *value2)
{
    MPI_Info info;
    MPI_Comm comm;

    MPI_Info_create(&info);
    MPI_Info_set(info, key, value);
    if (NULL != key2) {
        MPI_Info_set(info, key2, value2);
    }
    MPI_Comm_dup_with_info(MPI_COMM_WORLD, info, &comm);
    MPI_Info_free(&info);
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    return comm;
}

static MPI_Comm dup_with(const char *key, const char *value)
{
    return dup_with2(key, value, NULL, NULL);
}

static void set_hint(MPI_Comm comm, const char *key, const char *value)
{
    MPI_Info info;

    MPI_Info_create(&info);
    MPI_Info_set(info, key, value);
    MPI_Comm_set_info(comm, info);
    MPI_Info_free(&info);
}

/* one Bcast of bytes: by how much served, handed over, queue and single
 * copy moved */
typedef struct moved_t {
    unsigned long long served, fallback, queue, single;
} moved_t;

static moved_t bcast(MPI_Comm comm, int bytes, uint64_t seed)
{
    moved_t before = { st_counter("bcast_served"), st_counter("bcast_fallback"),
                       st_counter("bcast_queue"), st_counter("bcast_single_copy") };
    int counts[1] = { bytes };

    st_simple_call(ST_BCAST, comm, 0, counts, seed);
    return (moved_t) { st_counter("bcast_served") - before.served,
                       st_counter("bcast_fallback") - before.fallback,
                       st_counter("bcast_queue") - before.queue,
                       st_counter("bcast_single_copy") - before.single };
}

static unsigned long long segments(void)
{
    return st_counter("segments_created") + st_counter("segments_reused");
}

static void disable(void)
{
    unsigned long long before = segments();
    MPI_Comm comm = dup_with("shmcico_disable", "true");
    moved_t m = bcast(comm, 1000, 1);

    expect_info(comm, "shmcico_disable", "true", "dup_with_info");
    ST_CHECK(0 == m.served && 1 == m.fallback, "disabled: served +%llu fallback +%llu",
             m.served, m.fallback);
    ST_CHECK(segments() == before, "disabled: %llu segments set up for it",
             segments() - before);
    MPI_Comm_free(&comm);
}

static void size_limit(void)
{
    MPI_Comm comm = dup_with("shmcico_max_bytes", "bcast:1000");
    moved_t over = bcast(comm, 2000, 2), under = bcast(comm, 500, 3);

    expect_info(comm, "shmcico_max_bytes", "bcast:1000,scatter:0,scatterv:0,gather:0,"
                "gatherv:0,allgather:0,allgatherv:0", "dup_with_info");
    ST_CHECK(0 == over.served && 1 == over.fallback && 1 == under.served
             && 0 == under.fallback, "limit 1000: 2000 B served +%llu fallback +%llu, "
             "500 B served +%llu fallback +%llu", over.served, over.fallback, under.served,
             under.fallback);
    {
        /* the other operations keep no limit: a Gather of 2000-byte blocks */
        unsigned long long served = st_counter("gather_served");
        unsigned long long fallback = st_counter("gather_fallback");
        int counts[64];
        for (int j = 0; j < size; ++j) {
            counts[j] = 2000;
        }
        st_simple_call(ST_GATHER, comm, 0, counts, 4);
        ST_CHECK(1 == st_counter("gather_served") - served
                 && st_counter("gather_fallback") == fallback,
                 "limit bcast:1000: a Gather of 2000 B blocks served +%llu fallback +%llu",
                 st_counter("gather_served") - served, st_counter("gather_fallback") - fallback);
    }
    MPI_Comm_free(&comm);
}

/* whether MPI_COMM_WORLD's Bcast goes by single copy: whether it has at
 * most coll_shmcico_bcast_single_copy_max_procs processes (0: no limit) */
static unsigned long long world_single(void)
{
    return (unsigned long long) st_single_copy_procs_ok(ST_BCAST, size);
}

static void single_copy_off(void)
{
    MPI_Info info;
    MPI_Comm comm;
    moved_t world, off;

    MPI_Info_create(&info);
    MPI_Info_set(info, "shmcico_single_copy", "off");
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, info, &comm);
    MPI_Info_free(&info);
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    world = bcast(MPI_COMM_WORLD, 1 << 20, 4);
    off = bcast(comm, 1 << 20, 5);
    expect_info(comm, "shmcico_single_copy", "off", "split_type");
    ST_CHECK(world_single() == world.single && world_single() != world.queue
             && 0 == off.single && 1 == off.queue,
             "1 MiB: world single copy +%llu queue +%llu, with single copy off "
             "single copy +%llu queue +%llu", world.single, world.queue, off.single,
             off.queue);
    MPI_Comm_free(&comm);
}

/* one Allgather of 1 MiB blocks on comm: by how much single copy moved */
static unsigned long long allgather_single(MPI_Comm comm, uint64_t seed)
{
    unsigned long long before = st_counter("allgather_single_copy");
    int counts[64];

    for (int i = 0; i < size; ++i) {
        counts[i] = 1 << 20;
    }
    st_simple_call(ST_ALLGATHER, comm, 0, counts, seed);
    return st_counter("allgather_single_copy") - before;
}

static void single_max_procs(void)
{
    char all[32];
    MPI_Comm one, none, exact, gather_one;
    moved_t m1, m0, mp, mg;

    snprintf(all, sizeof(all), "bcast:%d", size);
    one = dup_with("shmcico_single_max_procs", "bcast:1");
    none = dup_with("shmcico_single_max_procs", "0");
    exact = dup_with("shmcico_single_max_procs", all);
    gather_one = dup_with("shmcico_single_max_procs", "allgather:1");
    m1 = bcast(one, 1 << 20, 9);
    m0 = bcast(none, 1 << 20, 10);
    mp = bcast(exact, 1 << 20, 11);
    mg = bcast(gather_one, 1 << 20, 12);
    expect_info(none, "shmcico_single_max_procs", "0", "dup_with_info, 0");
    ST_CHECK(0 == m1.single && 1 == m1.queue, "single_max_procs bcast:1 at np %d: single "
             "copy +%llu queue +%llu", size, m1.single, m1.queue);
    ST_CHECK(1 == m0.single && 1 == mp.single && world_single() == mg.single,
             "single_max_procs 0, bcast:%d, allgather:1: Bcast single copy +%llu +%llu +%llu",
             size, m0.single, mp.single, mg.single);
    ST_CHECK(0 == allgather_single(gather_one, 13) && 1 == allgather_single(none, 14),
             "single_max_procs allgather:1: Allgather by single copy");
    MPI_Comm_free(&one);
    MPI_Comm_free(&none);
    MPI_Comm_free(&exact);
    MPI_Comm_free(&gather_one);
}

/* the Bcast crossover that comm reports (the first of a per-operation
 * list, or the one value) */
static unsigned long long reported_bcast_min(MPI_Comm comm)
{
    char value[MPI_MAX_INFO_VAL + 1];
    const char *at;

    if (!st_info(comm, "shmcico_single_copy_min", value)) {
        return 0;
    }
    at = 0 == strncmp(value, "bcast:", 6) ? value + 6 : value;
    return strtoull(at, NULL, 10);
}

/* A Bcast of 3 or more processes, whose readers pull from the root at
 * once: no block below coll_shmcico_bcast_readers_single_copy_min goes
 * by single copy, which MPI_Comm_get_info reports, and a communicator's
 * own shmcico_single_copy_min replaces that floor; of 2 processes a
 * block of 32 KiB goes by single copy (the suite runs this far) */
static void readers_floor(void)
{
    MPI_Comm plain = dup_with("shmcico_single_max_procs", "0");
    MPI_Comm own = dup_with2("shmcico_single_max_procs", "0", "shmcico_single_copy_min",
                             "16384");
    unsigned long long floor = st_cvar("bcast_readers_single_copy_min");
    unsigned long long want = st_single_min(ST_BCAST, size, 0);
    moved_t below = bcast(plain, 32768, 15), from = bcast(plain, (int) want, 16);
    moved_t told = bcast(own, 32768, 17);

    ST_CHECK(want == (size >= 3 && floor > st_cvar("bcast_single_copy_min")
                      ? floor : st_cvar("bcast_single_copy_min")),
             "np %d: the model's Bcast crossover %llu", size, want);
    ST_CHECK(want == reported_bcast_min(plain), "np %d: Bcast crossover reported %llu, "
             "expected %llu", size, reported_bcast_min(plain), want);
    ST_CHECK(1 == below.served && (32768 >= want) == below.single
             && (32768 < want) == below.queue,
             "np %d: a Bcast of 32 KiB: single copy +%llu, queue +%llu (crossover %llu)", size,
             below.single, below.queue, want);
    ST_CHECK(1 == from.single, "np %d: a Bcast of %llu bytes: single copy +%llu", size, want,
             from.single);
    ST_CHECK(1 == told.single && 16384 == reported_bcast_min(own),
             "np %d: shmcico_single_copy_min 16384: a Bcast of 32 KiB, single copy +%llu, "
             "reported %llu", size, told.single, reported_bcast_min(own));
    MPI_Comm_free(&plain);
    MPI_Comm_free(&own);
}

/* comm, made with shmcico_single_copy_min 1, sends 100 B blocks of an
 * Allgather by single copy (where coll_shmcico_allgather_single_copy_max_procs
 * lets it: through the queues on more) and says so */
static void expect_small_single_copy(MPI_Comm comm)
{
    unsigned long long before = st_counter("allgather_single_copy");
    unsigned long long want = (unsigned long long) st_single_copy_procs_ok(ST_ALLGATHER, size);
    int counts[64];

    for (int i = 0; i < size; ++i) {
        counts[i] = 100;
    }
    st_simple_call(ST_ALLGATHER, comm, 0, counts, 6);
    expect_info(comm, "shmcico_single_copy_min", "1", "dup_with_info");
    ST_CHECK(want == st_counter("allgather_single_copy") - before,
             "an Allgather of 100 B with single_copy_min 1 at np %d: single copy +%llu, "
             "expected +%llu", size, st_counter("allgather_single_copy") - before, want);
}

static void small_single_copy(void)
{
    MPI_Comm comm = dup_with("shmcico_single_copy_min", "1");

    expect_small_single_copy(comm);
    MPI_Comm_free(&comm);
}

/* bytes this process wrote with streaming stores in one Gather of
 * bytes per block through the queues (shmcico served it, through them) */
static unsigned long long gather_streamed(MPI_Comm comm, int bytes, uint64_t seed)
{
    unsigned long long before = st_counter("gather_streamed_bytes");
    unsigned long long served = st_counter("gather_served"), queue = st_counter("gather_queue");
    int counts[64];

    for (int i = 0; i < size; ++i) {
        counts[i] = bytes;
    }
    ST_CHECK(MPI_SUCCESS == st_simple_call(ST_GATHER, comm, 0, counts, seed),
             "Gather of %d-byte blocks: data", bytes);
    ST_CHECK(1 == st_counter("gather_served") - served && 1 == st_counter("gather_queue") - queue,
             "Gather of %d-byte blocks: served +%llu, through the queues +%llu", bytes,
             st_counter("gather_served") - served, st_counter("gather_queue") - queue);
    return st_counter("gather_streamed_bytes") - before;
}

static void streaming_min(void)
{
    MPI_Info info;
    MPI_Comm off, big, queues;
    unsigned long long want = 0 == rank ? 0 : 65536;

    MPI_Info_create(&info);
    MPI_Info_set(info, "shmcico_single_copy", "off");
    MPI_Comm_dup_with_info(MPI_COMM_WORLD, info, &queues);
    MPI_Info_set(info, "shmcico_streaming_min", "0");
    MPI_Comm_dup_with_info(MPI_COMM_WORLD, info, &off);
    MPI_Info_set(info, "shmcico_streaming_min", "64K");
    MPI_Comm_dup_with_info(MPI_COMM_WORLD, info, &big);
    MPI_Info_free(&info);
    ST_CHECK(want == gather_streamed(queues, 65536, 9), "streaming_min 4096: 64 KiB block");
    ST_CHECK(0 == gather_streamed(off, 65536, 10), "streaming_min 0: 64 KiB block");
    ST_CHECK(0 == gather_streamed(big, 32768, 11), "streaming_min 64K: 32 KiB block");
    ST_CHECK(want == gather_streamed(big, 65536, 12), "streaming_min 64K: 64 KiB block");
    /* once the segments are made, the values in effect (Open MPI 4.1
     * reports a hint as given until then, 5.0 as the component took it) */
    expect_info(queues, "shmcico_streaming_min", "4096", "the default");
    expect_info(off, "shmcico_streaming_min", "0", "dup_with_info");
    expect_info(big, "shmcico_streaming_min", "65536", "dup_with_info, 64K");
    MPI_Comm_free(&queues);
    MPI_Comm_free(&off);
    MPI_Comm_free(&big);
}

/* bytes of its own block this process copied with streaming stores in
 * one call of op with blocks of bytes from root 0 */
static unsigned long long own_streamed(st_op op, MPI_Comm comm, int bytes, uint64_t seed)
{
    char name[64], served[64];
    unsigned long long before, served_before;
    int counts[64];

    snprintf(name, sizeof(name), "%s_own_streamed_bytes", st_op_name(op));
    before = st_counter(name);
    snprintf(served, sizeof(served), "%s_served", st_op_name(op));
    served_before = st_counter(served);
    for (int i = 0; i < size; ++i) {
        counts[i] = bytes;
    }
    ST_CHECK(MPI_SUCCESS == st_simple_call(op, comm, 0, counts, seed),
             "%s of %d-byte blocks: data", st_op_name(op), bytes);
    ST_CHECK(1 == st_counter(served) - served_before, "%s of %d-byte blocks: served +%llu",
             st_op_name(op), bytes, st_counter(served) - served_before);
    return st_counter(name) - before;
}

/* coll_shmcico_<op>_own_streaming_min */
static int own_from(st_op op)
{
    char name[64];

    snprintf(name, sizeof(name), "%s_own_streaming_min", st_op_name(op));
    return (int) st_cvar(name);
}

static void own_streaming_min(void)
{
    int all = own_from(ST_ALLGATHER), gather = own_from(ST_GATHER);
    int scatterv = own_from(ST_SCATTERV);
    MPI_Comm off = dup_with("shmcico_own_streaming_min", "0");
    MPI_Comm low = dup_with("shmcico_own_streaming_min", "64K");
    MPI_Comm one = dup_with("shmcico_own_streaming_min", "gather:1M");

    ST_CHECK((unsigned long long) all == own_streamed(ST_ALLGATHER, MPI_COMM_WORLD, all, 21),
             "allgather_own_streaming_min %d: Allgather", all);
    ST_CHECK((0 == rank ? (unsigned long long) gather : 0)
             == own_streamed(ST_GATHER, MPI_COMM_WORLD, gather, 22),
             "gather_own_streaming_min %d: Gather", gather);
    ST_CHECK((0 == rank ? (unsigned long long) scatterv : 0)
             == own_streamed(ST_SCATTERV, MPI_COMM_WORLD, scatterv, 23),
             "scatterv_own_streaming_min %d: Scatterv", scatterv);
    ST_CHECK(0 == own_streamed(ST_ALLGATHER, MPI_COMM_WORLD, all - 1, 24),
             "allgather_own_streaming_min %d: Allgather of a byte less", all);
    ST_CHECK(0 == own_streamed(ST_ALLGATHER, off, all, 25), "own_streaming_min 0");
    ST_CHECK(65536 == own_streamed(ST_ALLGATHERV, low, 65536, 26),
             "own_streaming_min 64K: Allgatherv of 64 KiB blocks");
    ST_CHECK((0 == rank ? 1u << 20 : 0) == own_streamed(ST_GATHER, one, 1 << 20, 27),
             "own_streaming_min gather:1M: Gather of 1 MiB blocks");
    expect_info(low, "shmcico_own_streaming_min", "65536", "dup_with_info, 64K");
    MPI_Comm_free(&one);
    MPI_Comm_free(&off);
    MPI_Comm_free(&low);
}

static void set_info(void)
{
    MPI_Comm comm;
    moved_t m;

    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    expect_info(comm, "shmcico_tree", "numa", "a new communicator");
    set_hint(comm, "shmcico_tree", "chain");
    expect_info(comm, "shmcico_tree", "chain", "set_info before the first call");
    bcast(comm, 100, 7);                /* makes the segment, with the chain */
    set_hint(comm, "shmcico_tree", "kary");
    expect_no_info(comm, "shmcico_tree", "set_info of a tree once the segment is made");
    set_hint(comm, "shmcico_max_bytes", "bcast:lots");
    expect_no_info(comm, "shmcico_max_bytes", "an invalid value");
    /* 2^34 GiB would wrap to 0 (no limit); signs and spaces are no sizes */
    set_hint(comm, "shmcico_max_bytes", "bcast:17179869184G");
    expect_no_info(comm, "shmcico_max_bytes", "a size past 64 bits");
    set_hint(comm, "shmcico_max_bytes", "bcast: -1");
    expect_no_info(comm, "shmcico_max_bytes", "a negative size");
    set_hint(comm, "shmcico_max_bytes", "+64");
    expect_no_info(comm, "shmcico_max_bytes", "a size with a sign");
    /* an empty last item makes no value (it was taken) */
    set_hint(comm, "shmcico_max_bytes", "bcast:64K,");
    expect_no_info(comm, "shmcico_max_bytes", "a value ending in a comma");
    m = bcast(comm, 100, 8);
    ST_CHECK(1 == m.served, "after an invalid size limit: served +%llu", m.served);
    set_hint(comm, "shmcico_max_bytes", "50");
    m = bcast(comm, 100, 8);
    expect_info(comm, "shmcico_max_bytes", "50", "set_info of a size limit");
    ST_CHECK(0 == m.served && 1 == m.fallback,
             "limit 50 set after the segment: served +%llu fallback +%llu", m.served,
             m.fallback);
    MPI_Comm_free(&comm);
}

/* An Allgather of 1 MiB blocks into a receive buffer never written
 * before: the probe reads bytes nobody defined (valgrind-own-probe runs
 * this under memcheck), the result is right */
static void own_probe_unwritten(unsigned long long want)
{
    size_t mib = (size_t) 1 << 20;
    unsigned char *mine = malloc(mib), *all = malloc(mib * (size_t) size);
    unsigned long long before = st_counter("allgather_own_streamed_bytes");

    memset(mine, 7 + rank, mib);
    ST_CHECK(MPI_SUCCESS == MPI_Allgather(mine, (int) mib, MPI_BYTE, all, (int) mib, MPI_BYTE,
                                          MPI_COMM_WORLD), "Allgather into a fresh buffer");
    for (size_t i = 0; i < mib * (size_t) size; i += 4099) {
        ST_CHECK(all[i] == (unsigned char) (7 + i / mib), "fresh buffer: byte %zu is %d", i,
                 all[i]);
    }
    ST_CHECK(st_counter("allgather_own_streamed_bytes") - before == want,
             "fresh buffer: own block streamed %llu bytes, expected %llu",
             st_counter("allgather_own_streamed_bytes") - before, want);
    free(mine);
    free(all);
}

/* "own-probe cold" (run with coll_shmcico_cache_probe 1 and
 * cache_probe_ns 1: every probed block is cold) or "own-probe warm"
 * (cache_probe_ns so high that none is): below
 * coll_shmcico_<op>_own_streaming_min, an own block of 1 MiB
 * (MCA_COLL_SHMCICO_OWN_PROBE_MIN) or more goes with streaming stores
 * where the probe finds its destination cold, a smaller one never, nor
 * one whose own_streaming_min is 0 (the hint) */
static int own_probe(const char *state)
{
    int cold = 0 == strcmp(state, "cold"), mib = 1 << 20;
    unsigned long long want = cold ? (unsigned long long) mib : 0;
    MPI_Comm never = dup_with("shmcico_own_streaming_min", "0");

    ST_CHECK(want == own_streamed(ST_ALLGATHER, MPI_COMM_WORLD, mib, 31),
             "%s destination: Allgather of 1 MiB blocks", state);
    ST_CHECK((0 == rank ? want : 0) == own_streamed(ST_GATHERV, MPI_COMM_WORLD, mib, 32),
             "%s destination: Gatherv of 1 MiB blocks", state);
    ST_CHECK((0 == rank ? want : 0) == own_streamed(ST_SCATTER, MPI_COMM_WORLD, mib, 33),
             "%s destination: Scatter of 1 MiB blocks", state);
    ST_CHECK(0 == own_streamed(ST_ALLGATHER, MPI_COMM_WORLD, mib - 1, 34),
             "%s destination: Allgather of blocks of 1 MiB - 1", state);
    ST_CHECK(0 == own_streamed(ST_ALLGATHER, never, mib, 35),
             "%s destination: own_streaming_min 0", state);
    MPI_Comm_free(&never);
    own_probe_unwritten(want);
    return st_finish("test_hints");
}

/* "test_hints knomial", run with coll_shmcico_tree_degree 1 (which the
 * default NUMA tree takes): a communicator whose hint asks for a
 * k-nomial tree gets degree 2, the least a k-nomial tree has, and is
 * served (its tree could not be built before: every call fell back);
 * one that asks for a k-nomial tree, then a k-ary one, keeps degree 1. */
static int knomial(void)
{
    MPI_Comm comm;
    MPI_Info info;
    moved_t m;

    expect_info(MPI_COMM_WORLD, "shmcico_tree_degree", "1", "coll_shmcico_tree_degree 1");
    MPI_Info_create(&info);
    MPI_Info_set(info, "shmcico_tree", "knomial");
    MPI_Comm_dup_with_info(MPI_COMM_WORLD, info, &comm);
    MPI_Info_free(&info);
    expect_info(comm, "shmcico_tree", "knomial", "dup_with_info, knomial");
    expect_info(comm, "shmcico_tree_degree", "2", "dup_with_info, knomial of degree 1");
    m = bcast(comm, 100, 9);
    ST_CHECK(1 == m.served && 0 == m.fallback, "Bcast on a k-nomial tree: served +%llu, "
             "fallback +%llu", m.served, m.fallback);
    MPI_Comm_free(&comm);
    /* the degree given stays: a k-nomial tree asked, then another shape,
     * leaves degree 1 (it became 2 for good before) */
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    set_hint(comm, "shmcico_tree", "knomial");
    set_hint(comm, "shmcico_tree", "kary");
    m = bcast(comm, 100, 10);
    ST_CHECK(1 == m.served, "Bcast on a k-ary tree of degree 1: served +%llu", m.served);
    expect_info(comm, "shmcico_tree_degree", "1", "kary after knomial, segment made");
    MPI_Comm_free(&comm);
    return st_finish("test_hints");
}

/* a duplicate of MPI_COMM_WORLD whose blocks go through the queues, with
 * shmcico_nearness=value (NULL: not given) */
static MPI_Comm queues_told(const char *value)
{
    return dup_with2("shmcico_single_copy", "off", NULL != value ? "shmcico_nearness" : NULL,
                     value);
}

/* Told near, a communicator reports the crossovers in effect: streaming
 * stores from coll_shmcico_near_streaming_min (1 MiB), and on up to 4
 * processes no single copy below coll_shmcico_near_single_copy_min
 * (256 KiB; Allgather(v) below a bank's slots, 32 KiB); a hint that changes a crossover replaces its floor there. */
static void near_floors(void)
{
    MPI_Comm near = dup_with("shmcico_nearness", "near");
    MPI_Comm far = dup_with("shmcico_nearness", "far");
    MPI_Comm single = dup_with2("shmcico_nearness", "near", "shmcico_single_copy_min", "1");
    MPI_Comm queues = queues_told("near");
    char plain[MPI_MAX_INFO_VAL + 1], floors[MPI_MAX_INFO_VAL + 1];
    int counts[64], at = 0, same = 1;

    for (int i = 0; i < size; ++i) {
        counts[i] = 100;
    }
    st_simple_call(ST_ALLGATHER, near, 0, counts, 45);     /* the segments made */
    st_simple_call(ST_ALLGATHER, far, 0, counts, 46);
    expect_info(near, "shmcico_streaming_min", "1048576", "told near, in effect");
    expect_info(far, "shmcico_streaming_min", "4096", "told far, in effect");
    (void) st_info(far, "shmcico_single_copy_min", plain);
    for (int op = 0; op < ST_NOPS; ++op) {     /* as the component lists them */
        at += snprintf(floors + at, sizeof(floors) - (size_t) at, "%s%s:%llu", 0 == op ? "" : ",",
                       st_op_name((st_op) op), st_single_min((st_op) op, size, 1));
        same &= st_single_min((st_op) op, size, 1) == st_single_min(ST_BCAST, size, 1);
    }
    if (same) {
        snprintf(floors, sizeof(floors), "%llu", st_single_min(ST_BCAST, size, 1));
    }
    expect_info(near, "shmcico_single_copy_min", size <= 4 ? floors : plain,
                "told near, in effect");
    if (size <= 4) {                /* where the floor applies */
        expect_small_single_copy(single);
    }
    set_hint(queues, "shmcico_streaming_min", "4096");
    ST_CHECK((0 == rank ? 0 : 8192) == gather_streamed(queues, 8192, 47),
             "told near, streaming_min 4096: an 8 KiB block streamed");
    expect_info(queues, "shmcico_streaming_min", "4096", "told near, streaming_min 4096");
    MPI_Comm_free(&near);
    MPI_Comm_free(&far);
    MPI_Comm_free(&single);
    MPI_Comm_free(&queues);
}

/* the nearness watch's period in calls (MCA_COLL_SHMCICO_WATCH_PERIOD,
 * coll_shmcico_nearness.h) */
#define WATCH_PERIOD 256

/* periods of the watch to run: in some runs most loads come as fast as
 * a hit and their rounds are lost (87 % in one), so many more than the
 * three a view needs (32,776 8-byte calls: a few tens of ms) */
#define WATCH_PERIODS 128

/* enough 8-byte Bcasts on comm for WATCH_PERIODS periods of the watch */
static void watch_periods(MPI_Comm comm)
{
    uint64_t word = 0;

    for (int i = 0; i < WATCH_PERIODS * WATCH_PERIOD + 8; ++i) {
        MPI_Bcast(&word, 8, MPI_BYTE, i % size, comm);
    }
}

static int watch(const char *expect)
{
    MPI_Comm measured = queues_told(NULL), told = queues_told("near");
    unsigned long long sent = 0 == rank ? 0 : 8192, rounds = st_counter("nearness_rounds");
    int none = 0 == strcmp(expect, "none"), far = 0 == strcmp(expect, "far");
    char found[MPI_MAX_INFO_VAL + 1] = "";

    watch_periods(measured);
    if (none) {                         /* the setup's answer holds */
        (void) st_info(measured, "shmcico_nearness", found);
        far = 0 != strcmp(found, "near");
    }
    rounds = st_counter("nearness_rounds") - rounds;
    ST_CHECK(none ? 0 == rounds : rounds >= 3 && rounds <= WATCH_PERIODS - 1,
             "watch %s: %llu rounds in %d periods", expect, rounds, WATCH_PERIODS);
    ST_CHECK((far ? sent : 0) == gather_streamed(measured, 8192, 60),
             "watch %s: 8 KiB block streamed as far processes' (%d)", expect, far);
    expect_info(measured, "shmcico_streaming_min", far ? "4096" : "1048576", "watched");
    rounds = st_counter("nearness_rounds");
    watch_periods(told);
    ST_CHECK(rounds == st_counter("nearness_rounds"), "told near: %llu rounds",
             st_counter("nearness_rounds") - rounds);
    ST_CHECK(0 == gather_streamed(told, 8192, 61), "told near: 8 KiB block streamed");
    MPI_Comm_free(&measured);
    MPI_Comm_free(&told);
    return st_finish("test_hints");
}

static int nearness(void)
{
    MPI_Comm measured = queues_told(NULL), near = queues_told("near"), far = queues_told("far");
    unsigned long long sent = 0 == rank ? 0 : 8192, streamed = gather_streamed(measured, 8192, 40);
    char found[MPI_MAX_INFO_VAL + 1];
    int flag = st_info(measured, "shmcico_nearness", found);

    ST_CHECK(flag && (0 == strcmp(found, "near") || 0 == strcmp(found, "far")),
             "measured: shmcico_nearness is '%s'", found);
    ST_CHECK(streamed == (0 == strcmp(found, "near") ? 0 : sent),
             "measured %s: 8 KiB block, %llu bytes streamed", found, streamed);
    ST_CHECK(0 == gather_streamed(near, 8192, 41), "told near: 8 KiB block streamed");
    ST_CHECK(0 == gather_streamed(near, 524288, 42), "told near: 512 KiB block streamed");
    ST_CHECK(128 * sent == gather_streamed(near, 1048576, 48),
             "told near: 1 MiB block not streamed");
    ST_CHECK(sent == gather_streamed(far, 8192, 43), "told far: 8 KiB block not streamed");
    expect_info(near, "shmcico_nearness", "near", "told near");
    expect_info(far, "shmcico_nearness", "far", "told far");
    set_hint(near, "shmcico_nearness", "far");      /* too late: ignored */
    ST_CHECK(0 == gather_streamed(near, 8192, 44), "told far once made: 8 KiB block streamed");
    MPI_Comm_free(&measured);
    MPI_Comm_free(&near);
    MPI_Comm_free(&far);
    near_floors();
    return st_finish("test_hints");
}

int main(int argc, char **argv)
{
    st_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size > 64) {
        st_fail("at most 64 processes");
        return st_finish("test_hints");
    }
    if (argc > 2 && 0 == strcmp(argv[1], "own-probe")) {
        return own_probe(argv[2]);
    }
    if (argc > 1 && 0 == strcmp(argv[1], "knomial")) {
        return knomial();
    }
    if (argc > 1 && 0 == strcmp(argv[1], "nearness")) {
        return nearness();
    }
    if (argc > 2 && 0 == strcmp(argv[1], "watch")) {
        return watch(argv[2]);
    }
    if (argc > 1 && 0 == strcmp(argv[1], "disable")) {
        disable();
        return st_finish("test_hints");
    }
    expect_info(MPI_COMM_WORLD, "shmcico_single_copy", "auto", "MPI_COMM_WORLD at start");
    disable();
    size_limit();
    single_copy_off();
    expect_copier(MPI_COMM_WORLD);
    small_single_copy();
    single_max_procs();
    readers_floor();
    streaming_min();
    own_streaming_min();
    set_info();
    return st_finish("test_hints");
}
