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
 * The component: its MPI_T counters, opening and closing (its MCA
 * parameters are in coll_shmcico_params.c, the check that the running
 * Open MPI is one it may touch in coll_shmcico_abi.c).
 */

#include "ompi_config.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "opal/mca/base/mca_base_pvar.h"
#include "opal/mca/base/mca_base_var.h"
#include "ompi/constants.h"
#include "ompi/mca/coll/coll.h"

#include "coll_shmcico.h"
#include "coll_shmcico_keep.h"
#include "coll_shmcico_residency.h"
#include "coll_shmcico_shm.h"

static int shmcico_register(void);
static int shmcico_open(void);
static int shmcico_close(void);

const char *const mca_coll_shmcico_op_names[MCA_COLL_SHMCICO_OP_COUNT] = {
    "bcast", "scatter", "scatterv", "gather", "gatherv", "allgather", "allgatherv"
};

const char *const mca_coll_shmcico_single_names[MCA_COLL_SHMCICO_SINGLE_COUNT] = {
    "auto", "cma", "smsc", "off"
};

const char *const mca_coll_shmcico_nearness_names[MCA_COLL_SHMCICO_NEARNESS_COUNT] = {
    "auto", "near", "far"
};


mca_coll_shmcico_component_t mca_coll_shmcico_component = {
    .super = {
        .collm_version = {
            MCA_COLL_SHMCICO_BASE_VERSION,
            .mca_component_name = "shmcico",
            MCA_BASE_MAKE_VERSION(component, OMPI_MAJOR_VERSION,
                                  OMPI_MINOR_VERSION, OMPI_RELEASE_VERSION),
            .mca_open_component = shmcico_open,
            .mca_close_component = shmcico_close,
            .mca_register_component_params = shmcico_register,
        },
        .collm_data = {
            MCA_BASE_METADATA_PARAM_NONE
        },
        .collm_init_query = mca_coll_shmcico_init_query,
        .collm_comm_query = mca_coll_shmcico_comm_query,
    },
    .output = -1,
};

static void register_counter(const char *name, const char *help,
                             unsigned long long *counter)
{
    (void) mca_base_component_pvar_register(&mca_coll_shmcico_component.super.collm_version,
                                            name, help, OPAL_INFO_LVL_4,
                                            MCA_BASE_PVAR_CLASS_COUNTER,
                                            MCA_BASE_VAR_TYPE_UNSIGNED_LONG_LONG,
                                            NULL, MCA_BASE_VAR_BIND_NO_OBJECT,
                                            MCA_BASE_PVAR_FLAG_READONLY
                                            | MCA_BASE_PVAR_FLAG_CONTINUOUS,
                                            NULL, NULL, NULL, counter);
}

/* calls served and handed over, transports and bytes, per operation:
 * each counter's name suffix, help (the operation's name goes in %s),
 * and array in the component */
static void register_op_counters(void)
{
    mca_coll_shmcico_component_t *c = &mca_coll_shmcico_component;
    const struct {
        const char *suffix;
        const char *help;
        unsigned long long *counters;
    } kinds[] = {
        { "served", "Number of %s calls this process served through shared memory",
          c->served },
        { "multinode", "Number of %s calls this process served on communicators that span "
          "nodes (through their node communicators and the PML)", c->multinode_served },
        { "fallback", "Number of %s calls this process handed to the previous component "
          "(size limit, no segment)", c->fallback },
        { "small", "Number of served %s calls this process served by the small-call path "
          "(every block of its own one queue fragment, no streams or flows)", c->small },
        { "queue", "Number of served %s calls in which a block this process sent or "
          "received went through the shared queues", c->queued },
        { "single_copy", "Number of served %s calls in which a block this process sent or "
          "received went by single copy", c->single },
        { "bytes", "Bytes of user data this process copied into or out of the shared "
          "queues in served %s calls", c->bytes },
        { "single_copy_bytes", "Bytes this process copied by single copy (its own blocks "
          "and help with others') in served %s calls", c->single_bytes },
        { "streamed_bytes", "Of the bytes, those of blocks this process wrote into the "
          "shared queues with streaming (non-temporal) stores in served %s calls "
          "(coll_shmcico_streaming_min; x86-64 only; a block counts whole, though a last "
          "fragment of at most 32 bytes travels in its flag)", c->streamed_bytes },
        { "own_streamed_bytes", "Bytes of its own block that this process copied into its "
          "own receive buffer with streaming (non-temporal) stores in served %s calls "
          "(coll_shmcico_<op>_own_streaming_min, or a destination the cache probe found "
          "cold)", c->own_streamed_bytes },
        { "cold", "Number of blocks this process sent in served %s calls that their size "
          "sent by single copy but the cache probe found out of the caches: they went "
          "through the queues", c->cold },
    };
    char name[64], help[384];

    for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); ++k) {
        for (int op = 0; op < MCA_COLL_SHMCICO_OP_COUNT; ++op) {
            snprintf(name, sizeof(name), "%s_%s", mca_coll_shmcico_op_names[op],
                     kinds[k].suffix);
            snprintf(help, sizeof(help), kinds[k].help, mca_coll_shmcico_op_names[op]);
            register_counter(name, help, &kinds[k].counters[op]);
        }
    }
}

static void register_counters(void)
{
    mca_coll_shmcico_component_t *c = &mca_coll_shmcico_component;

    register_counter("segments_created",
                     "Number of communicator segments this process attached to",
                     &c->segments_created);
    register_counter("segments_reused",
                     "Number of communicators that took over the segment kept from a "
                     "freed communicator of the same processes (coll_shmcico_keep_segments)",
                     &c->segments_reused);
    register_counter("segments_failed",
                     "Number of communicators whose segment could not be made "
                     "(they fall back for good)", &c->segments_failed);
    register_counter("nearness_rounds",
                     "Number of rounds this process's nearness watch took: loads of the "
                     "lines the others marked, timed (coll_shmcico_nearness_watch_ns)",
                     &c->nearness_rounds);
    register_counter("nearness_changes",
                     "Number of those rounds that turned this process's view of a "
                     "communicator from near to far or back (verbose level 10 says which)",
                     &c->nearness_changes);
    register_counter("single_copy_comms",
                     "Number of communicator segments on which single copy works",
                     &c->single_copy_comms);
    register_counter("single_copy_refused",
                     "Number of communicator segments on which the system refused "
                     "single copy (every block goes through the queues)",
                     &c->single_copy_refused);
    register_counter("slow_kernel_comms",
                     "Number of communicator segments whose setup found the kernel's copy "
                     "of cold data slow (the median of their processes' measures): the "
                     "blocks sent there take coll_shmcico_<op>_slow_kernel_single_copy_min",
                     &c->slow_kernel_comms);
    register_counter("numa_pages_local",
                     "Pages of this process's queues found on its own NUMA node "
                     "(move_pages check at segment creation; on a machine of one NUMA "
                     "node every page, without asking)", &c->numa_pages_local);
    register_counter("numa_pages_remote",
                     "Pages of this process's queues found on another NUMA node",
                     &c->numa_pages_remote);
    (void) mca_base_component_pvar_register(&c->super.collm_version, "segment_bytes",
                                            "Bytes of communicator segments this "
                                            "process has mapped now (those kept for "
                                            "reuse included)",
                                            OPAL_INFO_LVL_4, MCA_BASE_PVAR_CLASS_SIZE,
                                            MCA_BASE_VAR_TYPE_UNSIGNED_LONG_LONG, NULL,
                                            MCA_BASE_VAR_BIND_NO_OBJECT,
                                            MCA_BASE_PVAR_FLAG_READONLY
                                            | MCA_BASE_PVAR_FLAG_CONTINUOUS,
                                            NULL, NULL, NULL, &c->segment_bytes);
}

/* Registration is the first call into a loaded component (ompi_info
 * makes it too): a component built for another Open MPI refuses here. */
static int shmcico_register(void)
{
    if (!mca_coll_shmcico_abi_matches()) {
        return OMPI_ERR_NOT_SUPPORTED;
    }
    mca_coll_shmcico_params_register();
    register_op_counters();
    register_counters();
    return OMPI_SUCCESS;
}

/* whether any operation has a slow-kernel floor */
static bool slow_kernel_floors(const mca_coll_shmcico_component_t *c)
{
    for (int op = 0; op < MCA_COLL_SHMCICO_OP_COUNT; ++op) {
        if (0 != c->slow_kernel_single_min[op]) {
            return true;
        }
    }
    return false;
}

/* The cache probe's threshold of this process: none, the parameter, or
 * a calibration, which finds no threshold where flushed lines are not
 * much slower than cached ones (docs/design.md, "Cold blocks"); and this
 * process's measure of the kernel's copy of cold data, which each
 * communicator's setup judges with its other processes' measures
 * (coll_shmcico_setup_kernel.c): where it is fast the blocks sent are
 * not probed, where it is slow they take the slow-kernel floor
 * (docs/design.md, "Where the kernel's copy is slow"). */
static void calibrate_probe(mca_coll_shmcico_component_t *c)
{
    uint64_t cached = 0, flushed = 0;
    bool calibrated = c->probe && 0 == c->probe_ns;

    c->probe_threshold = !c->probe ? 0 : calibrated
        ? mca_coll_shmcico_residency_calibrate(&cached, &flushed) : c->probe_ns;
    c->kernel_ratio = 0;
    if (0 != c->probe_kernel_ratio
        && ((calibrated && 0 != c->probe_threshold) || slow_kernel_floors(c))) {
        c->kernel_ratio = mca_coll_shmcico_residency_kernel_ratio();
    }
    MCA_COLL_SHMCICO_VERBOSE(MCA_COLL_SHMCICO_VERBOSE_COMM,
                             "coll:shmcico: cache probe: %" PRIu64 " ns cached, %" PRIu64
                             " ns flushed, the kernel's copy of cold data %u.%02u times "
                             "memcpy's (0: not measured): %s; each communicator judges the "
                             "kernel's copy by the median of its processes' measures",
                             cached, flushed, c->kernel_ratio / 100, c->kernel_ratio % 100,
                             !c->probe ? "no probe (coll_shmcico_cache_probe off)"
                             : !calibrated ? "the threshold as set"
                             : 0 == c->probe_threshold ? "too close, no probe"
                             : "the flushed chain is the threshold");
}

static int shmcico_open(void)
{
    mca_coll_shmcico_component_t *c = &mca_coll_shmcico_component;

    c->output = opal_output_open(NULL);
    opal_output_set_verbosity(c->output, c->verbose);
    mca_coll_shmcico_params_check();
    calibrate_probe(c);
    mca_coll_shmcico_registry_open();
    return OMPI_SUCCESS;
}

static int shmcico_close(void)
{
    mca_coll_shmcico_registry_close();
    mca_coll_shmcico_keep_clear();
    mca_coll_shmcico_numa_release();
    if (mca_coll_shmcico_component.output >= 0) {
        opal_output_close(mca_coll_shmcico_component.output);
        mca_coll_shmcico_component.output = -1;
    }
    return OMPI_SUCCESS;
}

void mca_coll_shmcico_fallback(const mca_coll_shmcico_module_t *module,
                               mca_coll_shmcico_op_t op,
                               struct ompi_communicator_t *comm, const char *why)
{
    if (!module->inner) {
        mca_coll_shmcico_count(&mca_coll_shmcico_component.fallback[op], 1);
    }
    MCA_COLL_SHMCICO_VERBOSE(MCA_COLL_SHMCICO_VERBOSE_CALL,
                             MCA_COLL_SHMCICO_COMM_FMT "%s handed to the "
                             "previous component: %s",
                             MCA_COLL_SHMCICO_COMM_ARGS(comm), mca_coll_shmcico_op_names[op], why);
}

