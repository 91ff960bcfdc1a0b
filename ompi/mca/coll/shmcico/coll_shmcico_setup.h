/* -*- Mode: C; c-basic-offset:4 ; indent-tabs-mode:nil -*- */
/*
 * Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
 * $COPYRIGHT$
 *
 * Additional copyrights may follow
 *
 * $HEADER$
 */

/**
 * @file
 *
 * Creation of a communicator's segment: a collective step over the PML.
 *
 *   1. hello    every rank -> 0   its NUMA node; whether it keeps segments
 *   2. offer    0 -> every rank   status, file name and identity, the
 *                                 communicator's parameters (rank 0's);
 *                                 or a kept segment and its last call
 *   3. report   every rank -> 0   status of its attach and NUMA check;
 *                                 whether it can copy from rank 0's memory;
 *                                 its measure of the kernel's copy of cold
 *                                 data (taken when the component opened)
 *   3b. trips   0 <-> each rank   where rank 0 measures nearness, after
 *                                 every report and the unlink: a message
 *                                 says whether it plays, then the
 *                                 ping-pong of coll_shmcico_nearness.h
 *   4. verdict  0 -> every rank   0 only if everyone succeeded; whether
 *                                 single copy works everywhere; whether
 *                                 the processes are near one another;
 *                                 whether the kernel's copy of cold data
 *                                 is slow (the median of the measures)
 *
 * Rank 0 creates the backing file, places every process's block on that
 * process's NUMA node, reserves all pages (so touching them can never
 * raise SIGBUS), formats the segment and writes its id line before the
 * offer; it unlinks the file once it has every report (before the
 * trips), whatever happened, so no file survives the setup.  Every rank
 * goes through all four steps even after a failure, so a failure
 * anywhere makes the whole communicator fall back without a hang.
 *
 * Single copy is tested in a star: every rank reads rank 0's probe word
 * through its copier before it reports, and rank 0 reads every rank's
 * after its report.  Whatever the system refuses (Yama's ptrace_scope,
 * seccomp, other users, processes that are not dumpable) shows up in
 * one of those reads, and the verdict turns single copy off for the
 * whole communicator.
 *
 * Rank 0 offers a segment kept from a freed communicator of the same
 * processes instead of a new file where it has one and every rank keeps
 * segments (coll_shmcico_keep.h); a rank that has no copy of it reports
 * NOT_KEPT, every rank that has one retires and drops it, and the four
 * steps run again with a new file.
 */

#ifndef MCA_COLL_SHMCICO_SETUP_H
#define MCA_COLL_SHMCICO_SETUP_H

#include <stdint.h>

#include "coll_shmcico.h"
#include "coll_shmcico_keep.h"
#include "coll_shmcico_nearness.h"
#include "coll_shmcico_shm.h"

/* every rank's hello */
typedef struct setup_hello_t {
    int32_t node;                       /* its NUMA node */
    int32_t keeps;                      /* coll_shmcico_keep_segments > 0 here */
} setup_hello_t;

/* rank 0's answer to the hellos */
typedef struct setup_offer_t {
    int32_t status;                     /* 0 or errno at rank 0 */
    int32_t kept;                       /* a kept segment: id, path and last */
    mca_coll_shmcico_params_t params;   /* the communicator's, rank 0's */
    mca_coll_shmcico_file_id_t id;
    mca_coll_shmcico_seq_t last;        /* the kept segment's last call */
    int32_t measure;                    /* step 3b follows every report */
    char path[MCA_COLL_SHMCICO_PATH_MAX];
} setup_offer_t;

/* every rank's account of its attach */
typedef struct setup_report_t {
    int32_t status;                     /* 0 or errno */
    int32_t bound;                      /* bound inside one NUMA node */
    int32_t single;                     /* it read rank 0's probe word */
    uint64_t pages;                     /* pages of its block checked */
    uint64_t pages_local;               /* of them on its NUMA node */
    uint32_t kernel_ratio;              /* its kernel's copy of cold data against
                                           memcpy's, in hundredths; 0: not measured */
} setup_report_t;

/* rank 0's verdict */
typedef struct setup_verdict_t {
    int32_t status;                     /* 0 when everyone succeeded */
    int32_t single;                     /* single copy works everywhere */
    int32_t near;                       /* the processes are near one another */
    uint64_t trip_ns;                   /* the slowest trip measured (step 3b), or
                                           MCA_COLL_SHMCICO_TRIP_UNKNOWN */
    uint64_t memory_ns;                 /* rank 0's load from memory; 0: none */
    uint32_t kernel_ratio;              /* the median of the reports' kernel_ratio
                                           (those measured); 0: none measured */
    int32_t kernel_measures;            /* how many were measured */
    int32_t kernel_slow;                /* kernel_ratio from rank 0's
                                           coll_shmcico_cache_probe_kernel_ratio on */
    uint64_t slow_kernel_min[MCA_COLL_SHMCICO_OP_COUNT];   /* where kernel_slow, rank
                                           0's coll_shmcico_<op>_slow_kernel_single_copy_min;
                                           else 0 */
} setup_verdict_t;

/* what one process holds while setting up */
typedef struct setup_t {
    struct ompi_communicator_t *comm;
    mca_coll_shmcico_module_t *module;
    int rank;
    int size;
    mca_coll_shmcico_numa_info_t where;
    mca_coll_shmcico_layout_t layout;
    void *base;
    int lock_fd;                        /* rank 0: the backing file, open (and so
                                           locked) until unlinked; -1: none */
    setup_offer_t offer;
    setup_report_t report;
    const char *no_single;              /* why this rank has no copier */
    size_t reserved;                    /* bytes taken in segment_bytes by
                                           reserve(); 0: none */
    bool may_take;                      /* rank 0: it may offer a kept segment */
    mca_coll_shmcico_kept_t *kept;      /* the kept segment it took; NULL: none */
} setup_t;

/** A message of the setup to or from one rank (over the PML). */
int mca_coll_shmcico_setup_send(setup_t *s, const void *buf, size_t len, int dest);
int mca_coll_shmcico_setup_recv(setup_t *s, void *buf, size_t len, int source);

/* Step 3b (coll_shmcico_setup_nearness.c) */

/** More processes on the node than this one has cores, or Open MPI told
 *  to yield: waits give the core away, and no trip is timed. */
bool mca_coll_shmcico_setup_crowded(const setup_t *s);

/** Rank 0, after rank i's report: the trip of a line between the two
 *  (ns) where plays (i attached, and no trip before made the processes
 *  far), else MCA_COLL_SHMCICO_TRIP_UNKNOWN; i learns which first. */
uint64_t mca_coll_shmcico_setup_time_trip(setup_t *s, int i, bool plays);

/** Rank i, after its report: its part, where rank 0 says it plays. */
void mca_coll_shmcico_setup_return_trips(setup_t *s);

/** Every process: its watch of the nearness its stores follow, from the
 *  verdict (coll_shmcico_nearness.h) */
void mca_coll_shmcico_setup_watch(setup_t *s, const setup_verdict_t *verdict);

/** Rank 0: the verdict's nearness from the slowest trip timed, or as
 *  the parameter tells it. */
void mca_coll_shmcico_setup_decide_near(setup_t *s, uint64_t slowest,
                                        setup_verdict_t *verdict);

/** The verbose line of the verdict's nearness. */
void mca_coll_shmcico_setup_print_nearness(setup_t *s, const setup_verdict_t *verdict);

/* Steps 3 and 4: the kernel's copy of cold data (coll_shmcico_setup_kernel.c) */

/** Rank 0: the verdict's kernel_* from every rank's measure (ratios,
 *  n of them, reordered; NULL: rank 0's alone). */
void mca_coll_shmcico_setup_judge_kernel(uint32_t *ratios, int n, setup_verdict_t *verdict);

/** Every rank: the module's slow_kernel_min and probe_max from the
 *  verdict, and their verbose line. */
void mca_coll_shmcico_setup_settle_kernel(setup_t *s, const setup_verdict_t *verdict);

#endif /* MCA_COLL_SHMCICO_SETUP_H */
