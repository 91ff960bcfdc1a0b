/* -*- Mode: C; c-basic-offset:4 ; indent-tabs-mode:nil -*- */
/*
 * Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
 * $COPYRIGHT$
 *
 * Additional copyrights may follow
 *
 * $HEADER$
 */

/*
 * Step 3b of a segment's setup (coll_shmcico_setup.h): whether the
 * communicator's processes are near one another, timed on the segment's
 * ping-pong line (coll_shmcico_nearness.h), told, or as a kept segment's
 * setup found it; and each process's watch of it during the run, which
 * its calls look at once every half period.
 */

#include "ompi_config.h"

#include <inttypes.h>
#include <stdio.h>

#include "opal/runtime/opal_progress.h"

#include "coll_shmcico.h"
#include "coll_shmcico_choice.h"
#include "coll_shmcico_setup.h"

/* more processes on the node than this one has cores, or Open MPI told
 * to yield: waits give the core away, and a line's trip is not timed */
bool mca_coll_shmcico_setup_crowded(const setup_t *s)
{
    return opal_progress_yield_when_idle
        || (int) ompi_process_info.num_local_peers + 1 > s->where.cpus;
}

/* Step 3b at rank 0, with rank i (which plays where its report said
 * it attached): the trip of a line between the two (ns), or
 * MCA_COLL_SHMCICO_TRIP_UNKNOWN */
uint64_t mca_coll_shmcico_setup_time_trip(setup_t *s, int i, bool plays)
{
    mca_coll_shmcico_header_t *header = s->base;
    int32_t play = plays;

    /* no ball of an earlier setup (a kept segment) that timed out is left
     * for rank i to take: the message below orders this store before its
     * first wait */
    atomic_store_explicit(&header->pingpong.ball, 0, memory_order_relaxed);
    (void) mca_coll_shmcico_setup_send(s, &play, sizeof(play), i);
    return plays ? mca_coll_shmcico_pingpong_serve(&header->pingpong, i)
                 : MCA_COLL_SHMCICO_TRIP_UNKNOWN;
}

/* Step 3b at rank i: its part, where rank 0 says it plays */
void mca_coll_shmcico_setup_return_trips(setup_t *s)
{
    int32_t play = 0;

    (void) mca_coll_shmcico_setup_recv(s, &play, sizeof(play), 0);
    if (play) {
        (void) mca_coll_shmcico_pingpong_return(
            &((mca_coll_shmcico_header_t *) s->base)->pingpong, s->rank);
    }
}

/* Rank 0: whether the processes are near one another, as the parameter
 * says or as the slowest trip says */
void mca_coll_shmcico_setup_decide_near(setup_t *s, uint64_t slowest,
                                        setup_verdict_t *verdict)
{
    verdict->trip_ns = slowest;
    verdict->memory_ns = s->offer.measure ? mca_coll_shmcico_memory_ns() : 0;
    switch (s->offer.params.nearness) {
    case MCA_COLL_SHMCICO_NEARNESS_NEAR:
        verdict->near = 1;
        break;
    case MCA_COLL_SHMCICO_NEARNESS_FAR:
        verdict->near = 0;
        break;
    default:
        verdict->near = mca_coll_shmcico_near(slowest, verdict->memory_ns);
    }
}

/* Every process: its watch of the nearness the stores follow
 * (coll_shmcico_nearness.h), from the verdict: watched (where
 * coll_shmcico_nearness_watch says so) where the setup timed a trip as
 * the parameter asked (auto) on a communicator small enough for the near
 * floors, against coll_shmcico_nearness_watch_ns or two thirds of the
 * verdict's load from memory */
void mca_coll_shmcico_setup_watch(setup_t *s, const setup_verdict_t *verdict)
{
    mca_coll_shmcico_module_t *m = s->module;
    uint64_t threshold = 0;

    if (m->params.nearness_watch && MCA_COLL_SHMCICO_NEARNESS_AUTO == m->params.nearness
        && 0 != verdict->memory_ns
        && MCA_COLL_SHMCICO_TRIP_UNKNOWN != verdict->trip_ns
        && m->engine.nprocs <= MCA_COLL_SHMCICO_NEAR_MAX_PROCS) {
        threshold = 0 != m->params.nearness_watch_ns ? m->params.nearness_watch_ns
                                                     : 2 * verdict->memory_ns / 3;
    }
    mca_coll_shmcico_watch_init(&m->watch, m->near, threshold);
}

/* where the verdict's nearness came from, for the verbose line */
void mca_coll_shmcico_setup_print_nearness(setup_t *s, const setup_verdict_t *verdict)
{
    char why[96];

    if (MCA_COLL_SHMCICO_NEARNESS_AUTO != s->module->params.nearness) {
        (void) snprintf(why, sizeof(why), "as set");
    } else if (0 == verdict->memory_ns) {
        (void) snprintf(why, sizeof(why), "not measured");
    } else if (MCA_COLL_SHMCICO_TRIP_UNKNOWN == verdict->trip_ns) {
        (void) snprintf(why, sizeof(why), "a trip timed out");
    } else {
        (void) snprintf(why, sizeof(why), "a line's trip %" PRIu64 " ns, a load from memory "
                        "%" PRIu64 " ns", verdict->trip_ns, verdict->memory_ns);
    }
    MCA_COLL_SHMCICO_VERBOSE(MCA_COLL_SHMCICO_VERBOSE_COMM,
                             MCA_COLL_SHMCICO_COMM_FMT "processes %s (%s): streaming stores "
                             "from %" PRIu64 " bytes", MCA_COLL_SHMCICO_COMM_ARGS(s->comm),
                             verdict->near ? "near" : "far", why,
                             mca_coll_shmcico_streaming_from(s->module));
}

/* The nearness watch's look at this call, where the period says so
 * (coll_shmcico_nearness.h): counted, and where it turned said and put
 * into the communicator's info (the streaming threshold in effect) */
void mca_coll_shmcico_watch_look(mca_coll_shmcico_module_t *module,
                                 struct ompi_communicator_t *comm, uint64_t seq)
{
    mca_coll_shmcico_watch_t *w = &module->watch;
    mca_coll_shmcico_watched_t what = mca_coll_shmcico_watch_call(w, &module->engine.view,
                                                                  module->engine.rank, seq);

    if (MCA_COLL_SHMCICO_WATCH_NOTHING == what) {
        return;
    }
    mca_coll_shmcico_count(&mca_coll_shmcico_component.nearness_rounds, 1);
    if (MCA_COLL_SHMCICO_WATCH_CHANGED == what) {
        mca_coll_shmcico_count(&mca_coll_shmcico_component.nearness_changes, 1);
        MCA_COLL_SHMCICO_VERBOSE(MCA_COLL_SHMCICO_VERBOSE_COMM,
                                 MCA_COLL_SHMCICO_COMM_FMT "processes now %s to this one "
                                 "(the slowest load of their lines %" PRIu64 " ns, near up "
                                 "to %" PRIu64 "): streaming stores from %" PRIu64 " bytes",
                                 MCA_COLL_SHMCICO_COMM_ARGS(comm), w->near ? "near" : "far",
                                 w->rounds[(w->taken - 1) % MCA_COLL_SHMCICO_WATCH_ROUNDS],
                                 w->threshold_ns, mca_coll_shmcico_streaming_from(module));
        mca_coll_shmcico_hints_publish(module, comm);
    }
}
