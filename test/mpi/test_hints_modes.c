/*
 * Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
 * $COPYRIGHT$
 *
 * Additional copyrights may follow
 *
 * $HEADER$
 */

/*
 * The cases of test_hints that the suite runs on their own, each with
 * the MCA parameters it needs (test/run-suite.sh):
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
#include "hint_checks.h"

static int rank, size;

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
static void own_probe(const char *state)
{
    int cold = 0 == strcmp(state, "cold"), mib = 1 << 20;
    unsigned long long want = cold ? (unsigned long long) mib : 0;
    MPI_Comm never = th_dup_with("shmcico_own_streaming_min", "0");

    ST_CHECK(want == th_own_streamed(ST_ALLGATHER, MPI_COMM_WORLD, mib, 31),
             "%s destination: Allgather of 1 MiB blocks", state);
    ST_CHECK((0 == rank ? want : 0) == th_own_streamed(ST_GATHERV, MPI_COMM_WORLD, mib, 32),
             "%s destination: Gatherv of 1 MiB blocks", state);
    ST_CHECK((0 == rank ? want : 0) == th_own_streamed(ST_SCATTER, MPI_COMM_WORLD, mib, 33),
             "%s destination: Scatter of 1 MiB blocks", state);
    ST_CHECK(0 == th_own_streamed(ST_ALLGATHER, MPI_COMM_WORLD, mib - 1, 34),
             "%s destination: Allgather of blocks of 1 MiB - 1", state);
    ST_CHECK(0 == th_own_streamed(ST_ALLGATHER, never, mib, 35),
             "%s destination: own_streaming_min 0", state);
    MPI_Comm_free(&never);
    own_probe_unwritten(want);
}

/* "test_hints knomial", run with coll_shmcico_tree_degree 1 (which the
 * default NUMA tree takes): a communicator whose hint asks for a
 * k-nomial tree gets degree 2, the least a k-nomial tree has, and is
 * served (its tree could not be built before: every call fell back);
 * one that asks for a k-nomial tree, then a k-ary one, keeps degree 1. */
static void knomial(void)
{
    MPI_Comm comm;
    MPI_Info info;
    th_moved m;

    th_expect_info(MPI_COMM_WORLD, "shmcico_tree_degree", "1", "coll_shmcico_tree_degree 1");
    MPI_Info_create(&info);
    MPI_Info_set(info, "shmcico_tree", "knomial");
    MPI_Comm_dup_with_info(MPI_COMM_WORLD, info, &comm);
    MPI_Info_free(&info);
    th_expect_info(comm, "shmcico_tree", "knomial", "dup_with_info, knomial");
    th_expect_info(comm, "shmcico_tree_degree", "2", "dup_with_info, knomial of degree 1");
    m = th_bcast(comm, 100, 9);
    ST_CHECK(1 == m.served && 0 == m.fallback, "Bcast on a k-nomial tree: served +%llu, "
             "fallback +%llu", m.served, m.fallback);
    MPI_Comm_free(&comm);
    /* the degree given stays: a k-nomial tree asked, then another shape,
     * leaves degree 1 (it became 2 for good before) */
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    th_set_hint(comm, "shmcico_tree", "knomial");
    th_set_hint(comm, "shmcico_tree", "kary");
    m = th_bcast(comm, 100, 10);
    ST_CHECK(1 == m.served, "Bcast on a k-ary tree of degree 1: served +%llu", m.served);
    th_expect_info(comm, "shmcico_tree_degree", "1", "kary after knomial, segment made");
    MPI_Comm_free(&comm);
}

/* a duplicate of MPI_COMM_WORLD whose blocks go through the queues, with
 * shmcico_nearness=value (NULL: not given) */
static MPI_Comm queues_told(const char *value)
{
    return th_dup_with2("shmcico_single_copy", "off", NULL != value ? "shmcico_nearness" : NULL,
                     value);
}

/* Told near, a communicator reports the crossovers in effect: streaming
 * stores from coll_shmcico_near_streaming_min (1 MiB), and on up to 4
 * processes no single copy below coll_shmcico_near_single_copy_min
 * (256 KiB; Allgather(v) below a bank's slots, 32 KiB); a hint that
 * changes a crossover replaces its floor there. */
static void near_floors(void)
{
    MPI_Comm near = th_dup_with("shmcico_nearness", "near");
    MPI_Comm far = th_dup_with("shmcico_nearness", "far");
    MPI_Comm single = th_dup_with2("shmcico_nearness", "near", "shmcico_single_copy_min", "1");
    MPI_Comm queues = queues_told("near");
    char plain[MPI_MAX_INFO_VAL + 1], floors[MPI_MAX_INFO_VAL + 1];
    int counts[64], at = 0, same = 1;

    for (int i = 0; i < size; ++i) {
        counts[i] = 100;
    }
    st_simple_call(ST_ALLGATHER, near, 0, counts, 45);     /* the segments made */
    st_simple_call(ST_ALLGATHER, far, 0, counts, 46);
    th_expect_info(near, "shmcico_streaming_min", "1048576", "told near, in effect");
    th_expect_info(far, "shmcico_streaming_min", "4096", "told far, in effect");
    (void) st_info(far, "shmcico_single_copy_min", plain);
    for (int op = 0; op < ST_NOPS; ++op) {     /* as the component lists them */
        at += snprintf(floors + at, sizeof(floors) - (size_t) at, "%s%s:%llu", 0 == op ? "" : ",",
                       st_op_name((st_op) op), st_single_min((st_op) op, size, 1));
        same &= st_single_min((st_op) op, size, 1) == st_single_min(ST_BCAST, size, 1);
    }
    if (same) {
        snprintf(floors, sizeof(floors), "%llu", st_single_min(ST_BCAST, size, 1));
    }
    th_expect_info(near, "shmcico_single_copy_min", size <= 4 ? floors : plain,
                "told near, in effect");
    if (size <= 4) {                /* where the floor applies */
        th_expect_small_single_copy(single);
    }
    th_set_hint(queues, "shmcico_streaming_min", "4096");
    ST_CHECK((0 == rank ? 0 : 8192) == th_gather_streamed(queues, 8192, 47),
             "told near, streaming_min 4096: an 8 KiB block streamed");
    th_expect_info(queues, "shmcico_streaming_min", "4096", "told near, streaming_min 4096");
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

static void watch(const char *expect)
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
    ST_CHECK((far ? sent : 0) == th_gather_streamed(measured, 8192, 60),
             "watch %s: 8 KiB block streamed as far processes' (%d)", expect, far);
    th_expect_info(measured, "shmcico_streaming_min", far ? "4096" : "1048576", "watched");
    rounds = st_counter("nearness_rounds");
    watch_periods(told);
    ST_CHECK(rounds == st_counter("nearness_rounds"), "told near: %llu rounds",
             st_counter("nearness_rounds") - rounds);
    ST_CHECK(0 == th_gather_streamed(told, 8192, 61), "told near: 8 KiB block streamed");
    MPI_Comm_free(&measured);
    MPI_Comm_free(&told);
}

static void nearness(void)
{
    MPI_Comm measured = queues_told(NULL), near = queues_told("near"), far = queues_told("far");
    unsigned long long sent = 0 == rank ? 0 : 8192;
    unsigned long long streamed = th_gather_streamed(measured, 8192, 40);
    char found[MPI_MAX_INFO_VAL + 1];
    int flag = st_info(measured, "shmcico_nearness", found);

    ST_CHECK(flag && (0 == strcmp(found, "near") || 0 == strcmp(found, "far")),
             "measured: shmcico_nearness is '%s'", found);
    ST_CHECK(streamed == (0 == strcmp(found, "near") ? 0 : sent),
             "measured %s: 8 KiB block, %llu bytes streamed", found, streamed);
    ST_CHECK(0 == th_gather_streamed(near, 8192, 41), "told near: 8 KiB block streamed");
    ST_CHECK(0 == th_gather_streamed(near, 524288, 42), "told near: 512 KiB block streamed");
    ST_CHECK(128 * sent == th_gather_streamed(near, 1048576, 48),
             "told near: 1 MiB block not streamed");
    ST_CHECK(sent == th_gather_streamed(far, 8192, 43), "told far: 8 KiB block not streamed");
    th_expect_info(near, "shmcico_nearness", "near", "told near");
    th_expect_info(far, "shmcico_nearness", "far", "told far");
    th_set_hint(near, "shmcico_nearness", "far");      /* too late: ignored */
    ST_CHECK(0 == th_gather_streamed(near, 8192, 44), "told far once made: 8 KiB block streamed");
    MPI_Comm_free(&measured);
    MPI_Comm_free(&near);
    MPI_Comm_free(&far);
    near_floors();
}

int th_mode(int argc, char **argv)
{
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc > 2 && 0 == strcmp(argv[1], "own-probe")) {
        own_probe(argv[2]);
    } else if (argc > 1 && 0 == strcmp(argv[1], "knomial")) {
        knomial();
    } else if (argc > 1 && 0 == strcmp(argv[1], "nearness")) {
        nearness();
    } else if (argc > 2 && 0 == strcmp(argv[1], "watch")) {
        watch(argv[2]);
    } else {
        return 0;
    }
    return 1;
}
