/*
 * Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
 * $COPYRIGHT$
 *
 * Additional copyrights may follow
 *
 * $HEADER$
 */

/*
 * Many communicators: 4096 duplicates exist at once and collectives run
 * on hundreds of them, under a limit on the segment memory of a process
 * (run with coll_shmcico_max_memory set to LIMIT segments' worth):
 *  - exactly LIMIT communicators get a segment and serve their Bcast, the
 *    others fall back for good (the MPI_T counters say which), and every
 *    result is right;
 *  - the MPI_T size variable coll_shmcico_segment_bytes says LIMIT
 *    segments, which fit coll_shmcico_max_memory with no room for one
 *    more, and /proc/self/maps shows as many mappings;
 *  - freeing the communicators unmaps every segment but the
 *    coll_shmcico_keep_segments kept for later communicators (the
 *    variable and the mappings drop to those), and new ones get segments
 *    again: the kept ones taken over (coll_shmcico_segments_reused), the
 *    others made within the limit.
 *
 * Usage: test_many_comms LIMIT
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shmcico_test.h"

#define NCOMMS 4096
#define USED 300

static void bcast_on(MPI_Comm comm, uint64_t seed)
{
    int counts[1] = { 1000 };

    st_simple_call(ST_BCAST, comm, 0, counts, seed);
}

/* LIMIT of USED communicators of NCOMMS get a segment and serve, the
 * others fall back; returns the bytes of one segment */
static unsigned long long under_the_limit(MPI_Comm *comms, int limit)
{
    unsigned long long created0 = st_counter("segments_created");
    unsigned long long failed0 = st_counter("segments_failed"), served0, fallback0, segment;

    for (int i = 0; i < NCOMMS; ++i) {
        ST_CHECK(MPI_SUCCESS == MPI_Comm_dup(MPI_COMM_WORLD, &comms[i]), "dup %d failed", i);
    }
    served0 = st_counter("bcast_served");
    fallback0 = st_counter("bcast_fallback");
    for (int i = 0; i < USED; ++i) {
        bcast_on(comms[i * (NCOMMS / USED)], (uint64_t) i);
    }
    ST_CHECK(st_counter("bcast_served") - served0 == (unsigned long long) limit
             && st_counter("bcast_fallback") - fallback0 == (unsigned long long) (USED - limit),
             "%llu Bcasts served and %llu handed on, expected %d and %d",
             st_counter("bcast_served") - served0, st_counter("bcast_fallback") - fallback0,
             limit, USED - limit);
    ST_CHECK(st_counter("segments_created") - created0 == (unsigned long long) limit,
             "%llu segments made, expected %d", st_counter("segments_created") - created0,
             limit);
    ST_CHECK(st_counter("segments_failed") - failed0 == (unsigned long long) (USED - limit),
             "%llu communicators fell back, expected %d",
             st_counter("segments_failed") - failed0, USED - limit);
    segment = st_size_variable("segment_bytes") / (unsigned long long) limit;
    /* the limit admits LIMIT segments and not one more */
    ST_CHECK(segment * (unsigned long long) limit <= st_cvar("max_memory")
             && segment * (unsigned long long) (limit + 1) > st_cvar("max_memory"),
             "%d segments of %llu bytes under coll_shmcico_max_memory %llu", limit, segment,
             st_cvar("max_memory"));
    ST_CHECK(st_segment_mappings(USED) == limit, "%d segments mapped, expected %d",
             st_segment_mappings(USED), limit);
    return segment;
}

/* every communicator freed: the segments unmapped but those kept; returns
 * how many are kept */
static int after_free(MPI_Comm *comms, int limit, unsigned long long segment)
{
    int kept = (int) st_cvar("keep_segments") < limit ? (int) st_cvar("keep_segments") : limit;

    for (int i = 0; i < NCOMMS; ++i) {
        MPI_Comm_free(&comms[i]);
    }
    ST_CHECK(st_size_variable("segment_bytes") == (unsigned long long) kept * segment,
             "%llu segment bytes left after free, expected %d kept segments of %llu",
             st_size_variable("segment_bytes"), kept, segment);
    ST_CHECK(kept == st_segment_mappings(USED), "%d segments still mapped after free, "
             "expected %d kept", st_segment_mappings(USED), kept);
    return kept;
}

/* the memory came back: new communicators get segments again, the kept
 * ones taken over */
static void again(MPI_Comm *comms, int limit, int kept)
{
    unsigned long long created0 = st_counter("segments_created");
    unsigned long long reused0 = st_counter("segments_reused");

    for (int i = 0; i < limit; ++i) {
        MPI_Comm_dup(MPI_COMM_WORLD, &comms[i]);
        bcast_on(comms[i], 1000 + (uint64_t) i);
    }
    ST_CHECK(st_counter("segments_created") - created0 == (unsigned long long) (limit - kept)
             && st_counter("segments_reused") - reused0 == (unsigned long long) kept,
             "after free: %llu segments made and %llu taken over, expected %d and %d",
             st_counter("segments_created") - created0,
             st_counter("segments_reused") - reused0, limit - kept, kept);
    for (int i = 0; i < limit; ++i) {
        MPI_Comm_free(&comms[i]);
    }
}

int main(int argc, char **argv)
{
    static MPI_Comm comms[NCOMMS];
    unsigned long long segment;
    int limit, rank;

    st_init(&argc, &argv);
    limit = argc > 1 ? atoi(argv[1]) : 0;
    if (limit < 1) {
        st_fail("usage: test_many_comms LIMIT (segments, 1 or more)");
        return st_finish("test_many_comms");
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    segment = under_the_limit(comms, limit);
    if (0 == rank) {
        printf("test_many_comms: %d communicators, collectives on %d, %d segments of "
               "%llu bytes, the others fell back\n", NCOMMS, USED, limit, segment);
    }
    again(comms, limit, after_free(comms, limit, segment));
    return st_finish("test_many_comms");
}
