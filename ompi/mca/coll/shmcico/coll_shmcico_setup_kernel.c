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
 * Steps 3 and 4 of a segment's setup (coll_shmcico_setup.h): the
 * kernel's copy of cold data, judged once for the communicator.  Each
 * process timed it against memcpy's when the component opened
 * (coll_shmcico_residency.h); its report carries that ratio, and rank 0
 * takes the median of those measured against its
 * coll_shmcico_cache_probe_kernel_ratio; where the kernel's copy is
 * slow, its coll_shmcico_<op>_slow_kernel_single_copy_min become the
 * communicator's floors, as its crossovers are the communicator's
 * (coll_shmcico_setup.h, step 2).  One process's measure strays
 * (1.66 among 1.84 to 4.57 on the test machine's EPYC host): judged
 * alone, it took no slow-kernel floor and did not probe the blocks it
 * sent while the others did, and that run's cold Allgather at 64 KiB
 * took 0.93 of coll/tuned's time against 0.10 to 0.13 in the others
 * (docs/design.md, "Where the kernel's copy is slow").
 */

#include "ompi_config.h"

#include <stdlib.h>

#include "coll_shmcico.h"
#include "coll_shmcico_choice.h"
#include "coll_shmcico_setup.h"

static int by_value(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *) a, y = *(const uint32_t *) b;

    return (x > y) - (x < y);
}

/* Rank 0: the median of the measured ratios (0: not measured; of an
 * even count the mean of the middle two); ratios is reordered */
static uint32_t median_measured(uint32_t *ratios, int n, int32_t *measures)
{
    int k = 0;

    for (int i = 0; i < n; ++i) {
        if (0 != ratios[i]) {
            ratios[k++] = ratios[i];
        }
    }
    *measures = k;
    if (0 == k) {
        return 0;
    }
    qsort(ratios, (size_t) k, sizeof(*ratios), by_value);
    return k % 2 ? ratios[k / 2]
                 : (uint32_t) (((uint64_t) ratios[k / 2 - 1] + ratios[k / 2]) / 2);
}

void mca_coll_shmcico_setup_judge_kernel(uint32_t *ratios, int n, setup_verdict_t *verdict)
{
    const mca_coll_shmcico_component_t *c = &mca_coll_shmcico_component;
    uint32_t ratio = NULL == ratios ? c->kernel_ratio
                     : median_measured(ratios, n, &verdict->kernel_measures);

    if (NULL == ratios) {
        verdict->kernel_measures = 0 != ratio;
    }
    verdict->kernel_ratio = ratio;
    verdict->kernel_slow = 0 != c->probe_kernel_ratio && 0 != ratio
                           && ratio >= c->probe_kernel_ratio;
    for (int op = 0; op < MCA_COLL_SHMCICO_OP_COUNT; ++op) {
        verdict->slow_kernel_min[op] = verdict->kernel_slow ? c->slow_kernel_single_min[op] : 0;
    }
}

/* The probe of the blocks sent stays on where the kernel's copy is
 * slow, or was not measured, or the probe's threshold was set rather
 * than calibrated (docs/design.md, "Cold blocks") */
static bool probes_sent(const setup_verdict_t *verdict)
{
    const mca_coll_shmcico_component_t *c = &mca_coll_shmcico_component;
    bool judged = c->probe && 0 == c->probe_ns && 0 != c->probe_threshold;

    return c->probe && (!judged || 0 == verdict->kernel_ratio || verdict->kernel_slow);
}

/* The module's limits of op, read by every call: the slow-kernel floor
 * where each single copy is a kernel call and the communicator has at
 * most MCA_COLL_SHMCICO_SLOW_KERNEL_MAX_PROCS processes (there the
 * queues' two copies beat a kernel call up to about 128 KiB:
 * docs/design.md, "Where the kernel's copy is slow"; the sender applies
 * it, and its first flag tells its receivers); the largest block probed,
 * coll_shmcico_<op>_cache_probe_max where the blocks sent are probed,
 * and on 3 or more processes a Bcast block up to
 * coll_shmcico_bcast_readers_cache_probe_max whatever the kernel's copy
 * takes, since its readers pin its cold pages at once (docs/design.md,
 * "Readers of one root"). */
static void set_limits(mca_coll_shmcico_module_t *m, const setup_verdict_t *verdict,
                       bool probe_sent)
{
    const mca_coll_shmcico_component_t *c = &mca_coll_shmcico_component;
    bool floors = m->copy.kernel
                  && m->engine.nprocs <= MCA_COLL_SHMCICO_SLOW_KERNEL_MAX_PROCS;
    bool readers = m->engine.nprocs >= 3;

    for (int op = 0; op < MCA_COLL_SHMCICO_OP_COUNT; ++op) {
        uint64_t max = probe_sent ? c->probe_max[op] : 0;
        if (readers && MCA_COLL_SHMCICO_OP_BCAST == op && c->readers_probe_max > max) {
            max = c->readers_probe_max;
        }
        m->slow_kernel_min[op] = floors ? verdict->slow_kernel_min[op] : 0;
        m->probe_max[op] = max;
    }
}

/* Every rank: the verdict on the module, and its verbose line */
void mca_coll_shmcico_setup_settle_kernel(setup_t *s, const setup_verdict_t *verdict)
{
    const mca_coll_shmcico_component_t *c = &mca_coll_shmcico_component;
    bool probe_sent = probes_sent(verdict);

    set_limits(s->module, verdict, probe_sent);
    if (verdict->kernel_slow) {
        mca_coll_shmcico_count(&mca_coll_shmcico_component.slow_kernel_comms, 1);
    }
    MCA_COLL_SHMCICO_VERBOSE(MCA_COLL_SHMCICO_VERBOSE_COMM,
                             MCA_COLL_SHMCICO_COMM_FMT "the kernel's copy of cold data "
                             "%u.%02u times memcpy's (the median of %d processes' "
                             "measures; 0: none): %s; %s",
                             MCA_COLL_SHMCICO_COMM_ARGS(s->comm),
                             verdict->kernel_ratio / 100, verdict->kernel_ratio % 100,
                             (int) verdict->kernel_measures,
                             probe_sent ? "blocks sent probed"
                             : !c->probe ? "no probe (coll_shmcico_cache_probe off)"
                             : "single copy is faster from memory, no probe "
                               "of blocks sent but a Bcast's of 3 or more processes, "
                               "own blocks' destinations probed",
                             verdict->kernel_slow ? "the kernel's copy is slow: the blocks sent "
                                                    "go by single copy from "
                                                    "coll_shmcico_<op>_slow_kernel_single_copy_min"
                                                  : "no slow-kernel floor");
}
