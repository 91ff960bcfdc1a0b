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
 *    its segment is made.
 * The cases the suite runs on their own ("test_hints own-probe",
 * "knomial", "nearness", "watch") are in test_hints_modes.c.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shmcico_test.h"
#include "hint_checks.h"

static int rank, size;

void th_expect_info(MPI_Comm comm, const char *key, const char *want, const char *when)
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
MPI_Comm th_dup_with2(const char *key, const char *value, const char *key2,
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

MPI_Comm th_dup_with(const char *key, const char *value)
{
    return th_dup_with2(key, value, NULL, NULL);
}

void th_set_hint(MPI_Comm comm, const char *key, const char *value)
{
    MPI_Info info;

    MPI_Info_create(&info);
    MPI_Info_set(info, key, value);
    MPI_Comm_set_info(comm, info);
    MPI_Info_free(&info);
}

th_moved th_bcast(MPI_Comm comm, int bytes, uint64_t seed)
{
    th_moved before = { st_counter("bcast_served"), st_counter("bcast_fallback"),
                       st_counter("bcast_queue"), st_counter("bcast_single_copy") };
    int counts[1] = { bytes };

    st_simple_call(ST_BCAST, comm, 0, counts, seed);
    return (th_moved) { st_counter("bcast_served") - before.served,
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
    MPI_Comm comm = th_dup_with("shmcico_disable", "true");
    th_moved m = th_bcast(comm, 1000, 1);

    th_expect_info(comm, "shmcico_disable", "true", "dup_with_info");
    ST_CHECK(0 == m.served && 1 == m.fallback, "disabled: served +%llu fallback +%llu",
             m.served, m.fallback);
    ST_CHECK(segments() == before, "disabled: %llu segments set up for it",
             segments() - before);
    MPI_Comm_free(&comm);
}

static void size_limit(void)
{
    MPI_Comm comm = th_dup_with("shmcico_max_bytes", "bcast:1000");
    th_moved over = th_bcast(comm, 2000, 2), under = th_bcast(comm, 500, 3);

    th_expect_info(comm, "shmcico_max_bytes", "bcast:1000,scatter:0,scatterv:0,gather:0,"
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
    th_moved world, off;

    MPI_Info_create(&info);
    MPI_Info_set(info, "shmcico_single_copy", "off");
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, info, &comm);
    MPI_Info_free(&info);
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    world = th_bcast(MPI_COMM_WORLD, 1 << 20, 4);
    off = th_bcast(comm, 1 << 20, 5);
    th_expect_info(comm, "shmcico_single_copy", "off", "split_type");
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
    th_moved m1, m0, mp, mg;

    snprintf(all, sizeof(all), "bcast:%d", size);
    one = th_dup_with("shmcico_single_max_procs", "bcast:1");
    none = th_dup_with("shmcico_single_max_procs", "0");
    exact = th_dup_with("shmcico_single_max_procs", all);
    gather_one = th_dup_with("shmcico_single_max_procs", "allgather:1");
    m1 = th_bcast(one, 1 << 20, 9);
    m0 = th_bcast(none, 1 << 20, 10);
    mp = th_bcast(exact, 1 << 20, 11);
    mg = th_bcast(gather_one, 1 << 20, 12);
    th_expect_info(none, "shmcico_single_max_procs", "0", "dup_with_info, 0");
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
    MPI_Comm plain = th_dup_with("shmcico_single_max_procs", "0");
    MPI_Comm own = th_dup_with2("shmcico_single_max_procs", "0", "shmcico_single_copy_min",
                             "16384");
    unsigned long long floor = st_cvar("bcast_readers_single_copy_min");
    unsigned long long want = st_single_min(ST_BCAST, size, 0);
    th_moved below = th_bcast(plain, 32768, 15), from = th_bcast(plain, (int) want, 16);
    th_moved told = th_bcast(own, 32768, 17);

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
void th_expect_small_single_copy(MPI_Comm comm)
{
    unsigned long long before = st_counter("allgather_single_copy");
    unsigned long long want = (unsigned long long) st_single_copy_procs_ok(ST_ALLGATHER, size);
    int counts[64];

    for (int i = 0; i < size; ++i) {
        counts[i] = 100;
    }
    st_simple_call(ST_ALLGATHER, comm, 0, counts, 6);
    th_expect_info(comm, "shmcico_single_copy_min", "1", "dup_with_info");
    ST_CHECK(want == st_counter("allgather_single_copy") - before,
             "an Allgather of 100 B with single_copy_min 1 at np %d: single copy +%llu, "
             "expected +%llu", size, st_counter("allgather_single_copy") - before, want);
}

static void small_single_copy(void)
{
    MPI_Comm comm = th_dup_with("shmcico_single_copy_min", "1");

    th_expect_small_single_copy(comm);
    MPI_Comm_free(&comm);
}

/* bytes this process wrote with streaming stores in one Gather of
 * bytes per block through the queues (shmcico served it, through them) */
unsigned long long th_gather_streamed(MPI_Comm comm, int bytes, uint64_t seed)
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
    ST_CHECK(want == th_gather_streamed(queues, 65536, 9), "streaming_min 4096: 64 KiB block");
    ST_CHECK(0 == th_gather_streamed(off, 65536, 10), "streaming_min 0: 64 KiB block");
    ST_CHECK(0 == th_gather_streamed(big, 32768, 11), "streaming_min 64K: 32 KiB block");
    ST_CHECK(want == th_gather_streamed(big, 65536, 12), "streaming_min 64K: 64 KiB block");
    /* once the segments are made, the values in effect (Open MPI 4.1
     * reports a hint as given until then, 5.0 as the component took it) */
    th_expect_info(queues, "shmcico_streaming_min", "4096", "the default");
    th_expect_info(off, "shmcico_streaming_min", "0", "dup_with_info");
    th_expect_info(big, "shmcico_streaming_min", "65536", "dup_with_info, 64K");
    MPI_Comm_free(&queues);
    MPI_Comm_free(&off);
    MPI_Comm_free(&big);
}

/* bytes of its own block this process copied with streaming stores in
 * one call of op with blocks of bytes from root 0 */
unsigned long long th_own_streamed(st_op op, MPI_Comm comm, int bytes, uint64_t seed)
{
    unsigned long long before = st_op_counter(op, "own_streamed_bytes");
    unsigned long long served = st_op_counter(op, "served");
    int counts[64];

    for (int i = 0; i < size; ++i) {
        counts[i] = bytes;
    }
    ST_CHECK(MPI_SUCCESS == st_simple_call(op, comm, 0, counts, seed),
             "%s of %d-byte blocks: data", st_op_name(op), bytes);
    ST_CHECK(1 == st_op_counter(op, "served") - served, "%s of %d-byte blocks: served +%llu",
             st_op_name(op), bytes, st_op_counter(op, "served") - served);
    return st_op_counter(op, "own_streamed_bytes") - before;
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
    MPI_Comm off = th_dup_with("shmcico_own_streaming_min", "0");
    MPI_Comm low = th_dup_with("shmcico_own_streaming_min", "64K");
    MPI_Comm one = th_dup_with("shmcico_own_streaming_min", "gather:1M");

    ST_CHECK((unsigned long long) all == th_own_streamed(ST_ALLGATHER, MPI_COMM_WORLD, all, 21),
             "allgather_own_streaming_min %d: Allgather", all);
    ST_CHECK((0 == rank ? (unsigned long long) gather : 0)
             == th_own_streamed(ST_GATHER, MPI_COMM_WORLD, gather, 22),
             "gather_own_streaming_min %d: Gather", gather);
    ST_CHECK((0 == rank ? (unsigned long long) scatterv : 0)
             == th_own_streamed(ST_SCATTERV, MPI_COMM_WORLD, scatterv, 23),
             "scatterv_own_streaming_min %d: Scatterv", scatterv);
    ST_CHECK(0 == th_own_streamed(ST_ALLGATHER, MPI_COMM_WORLD, all - 1, 24),
             "allgather_own_streaming_min %d: Allgather of a byte less", all);
    ST_CHECK(0 == th_own_streamed(ST_ALLGATHER, off, all, 25), "own_streaming_min 0");
    ST_CHECK(65536 == th_own_streamed(ST_ALLGATHERV, low, 65536, 26),
             "own_streaming_min 64K: Allgatherv of 64 KiB blocks");
    ST_CHECK((0 == rank ? 1u << 20 : 0) == th_own_streamed(ST_GATHER, one, 1 << 20, 27),
             "own_streaming_min gather:1M: Gather of 1 MiB blocks");
    th_expect_info(low, "shmcico_own_streaming_min", "65536", "dup_with_info, 64K");
    MPI_Comm_free(&one);
    MPI_Comm_free(&off);
    MPI_Comm_free(&low);
}

static void set_info(void)
{
    MPI_Comm comm;
    th_moved m;

    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    th_expect_info(comm, "shmcico_tree", "numa", "a new communicator");
    th_set_hint(comm, "shmcico_tree", "chain");
    th_expect_info(comm, "shmcico_tree", "chain", "set_info before the first call");
    th_bcast(comm, 100, 7);                /* makes the segment, with the chain */
    th_set_hint(comm, "shmcico_tree", "kary");
    expect_no_info(comm, "shmcico_tree", "set_info of a tree once the segment is made");
    th_set_hint(comm, "shmcico_max_bytes", "bcast:lots");
    expect_no_info(comm, "shmcico_max_bytes", "an invalid value");
    /* 2^34 GiB would wrap to 0 (no limit); signs and spaces are no sizes */
    th_set_hint(comm, "shmcico_max_bytes", "bcast:17179869184G");
    expect_no_info(comm, "shmcico_max_bytes", "a size past 64 bits");
    th_set_hint(comm, "shmcico_max_bytes", "bcast: -1");
    expect_no_info(comm, "shmcico_max_bytes", "a negative size");
    th_set_hint(comm, "shmcico_max_bytes", "+64");
    expect_no_info(comm, "shmcico_max_bytes", "a size with a sign");
    /* an empty last item makes no value (it was taken) */
    th_set_hint(comm, "shmcico_max_bytes", "bcast:64K,");
    expect_no_info(comm, "shmcico_max_bytes", "a value ending in a comma");
    m = th_bcast(comm, 100, 8);
    ST_CHECK(1 == m.served, "after an invalid size limit: served +%llu", m.served);
    th_set_hint(comm, "shmcico_max_bytes", "50");
    m = th_bcast(comm, 100, 8);
    th_expect_info(comm, "shmcico_max_bytes", "50", "set_info of a size limit");
    ST_CHECK(0 == m.served && 1 == m.fallback,
             "limit 50 set after the segment: served +%llu fallback +%llu", m.served,
             m.fallback);
    MPI_Comm_free(&comm);
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
    if (th_mode(argc, argv)) {
        return st_finish("test_hints");
    }
    if (argc > 1 && 0 == strcmp(argv[1], "disable")) {
        disable();
        return st_finish("test_hints");
    }
    th_expect_info(MPI_COMM_WORLD, "shmcico_single_copy", "auto", "MPI_COMM_WORLD at start");
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
