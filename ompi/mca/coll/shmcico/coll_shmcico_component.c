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
 * The component: MCA parameters, MPI_T counters, and the check that the
 * running Open MPI is the series this DSO was built for.
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
#include "coll_shmcico_shm.h"

/* The Open MPI series whose internal ABI this DSO uses.  Components see
 * Open MPI's internal structures, which change between series. */
#ifndef MCA_COLL_SHMCICO_BUILT_MAJOR
#define MCA_COLL_SHMCICO_BUILT_MAJOR OMPI_MAJOR_VERSION
#endif
#ifndef MCA_COLL_SHMCICO_BUILT_MINOR
#define MCA_COLL_SHMCICO_BUILT_MINOR OMPI_MINOR_VERSION
#endif

#define DEFAULT_PRIORITY      40
#define DEFAULT_SLOTS         8
#define DEFAULT_BANKS         2
#define DEFAULT_FRAGMENT      8192
#define DEFAULT_TREE_DEGREE   4
#define DEFAULT_MAX_PROCS     256
#define MAX_FRAGMENT          ((size_t) 1 << 30)
#define DEFAULT_MAX_MEMORY    ((size_t) 512 << 20)
#define DEFAULT_CHUNK         ((size_t) 1 << 20)
#define MIN_CHUNK             ((size_t) 4096)

static int shmcico_register(void);
static int shmcico_open(void);
static int shmcico_close(void);

const char *const mca_coll_shmcico_op_names[MCA_COLL_SHMCICO_OP_COUNT] = {
    "bcast", "scatter", "scatterv", "gather", "gatherv", "allgather", "allgatherv"
};

const char *const mca_coll_shmcico_single_names[MCA_COLL_SHMCICO_SINGLE_COUNT] = {
    "auto", "cma", "smsc", "off"
};

#define op_names mca_coll_shmcico_op_names

/* Blocks from these sizes on go by single copy: the crossovers of
 * shmcico-bench sweeps with warm and cold caches (docs/tuning.md says
 * which sweep chose each). */
static const size_t default_single_min[MCA_COLL_SHMCICO_OP_COUNT] = {
    65536, 65536, 65536, 65536, 65536, 65536, 65536
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

static const mca_base_var_enum_value_t single_values[] = {
    {MCA_COLL_SHMCICO_SINGLE_AUTO, "auto"},
    {MCA_COLL_SHMCICO_SINGLE_CMA, "cma"},
    {MCA_COLL_SHMCICO_SINGLE_SMSC, "smsc"},
    {MCA_COLL_SHMCICO_SINGLE_OFF, "off"},
    {0, NULL}
};

static const mca_base_var_enum_value_t tree_values[] = {
    {MCA_COLL_SHMCICO_TREE_KARY, "kary"},
    {MCA_COLL_SHMCICO_TREE_KNOMIAL, "knomial"},
    {MCA_COLL_SHMCICO_TREE_FLAT, "flat"},
    {MCA_COLL_SHMCICO_TREE_CHAIN, "chain"},
    {MCA_COLL_SHMCICO_TREE_NUMA, "numa"},
    {0, NULL}
};

static void register_int(const char *name, const char *help, int level,
                         int *storage)
{
    (void) mca_base_component_var_register(&mca_coll_shmcico_component.super.collm_version,
                                           name, help, MCA_BASE_VAR_TYPE_INT,
                                           NULL, 0, 0, level,
                                           MCA_BASE_VAR_SCOPE_READONLY, storage);
}

static void register_size(const char *name, const char *help, int level,
                          uint64_t *storage)
{
    (void) mca_base_component_var_register(&mca_coll_shmcico_component.super.collm_version,
                                           name, help, MCA_BASE_VAR_TYPE_UINT64_T,
                                           NULL, 0, 0, level,
                                           MCA_BASE_VAR_SCOPE_READONLY, storage);
}

static void register_size_t(const char *name, const char *help, int level,
                            size_t *storage)
{
    (void) mca_base_component_var_register(&mca_coll_shmcico_component.super.collm_version,
                                           name, help, MCA_BASE_VAR_TYPE_SIZE_T,
                                           NULL, 0, 0, level,
                                           MCA_BASE_VAR_SCOPE_READONLY, storage);
}

static void register_bool(const char *name, const char *help, int level,
                          bool *storage)
{
    (void) mca_base_component_var_register(&mca_coll_shmcico_component.super.collm_version,
                                           name, help, MCA_BASE_VAR_TYPE_BOOL,
                                           NULL, 0, 0, level,
                                           MCA_BASE_VAR_SCOPE_READONLY, storage);
}

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

static void register_enum(const char *name, const char *help,
                          const mca_base_var_enum_value_t *values, int32_t *storage)
{
    mca_base_var_enum_t *choices = NULL;
    char enum_name[64];

    snprintf(enum_name, sizeof(enum_name), "coll_shmcico_%s_values", name);
    (void) mca_base_var_enum_create(enum_name, values, &choices);
    (void) mca_base_component_var_register(&mca_coll_shmcico_component.super.collm_version,
                                           name, help, MCA_BASE_VAR_TYPE_INT, choices, 0, 0,
                                           OPAL_INFO_LVL_5, MCA_BASE_VAR_SCOPE_READONLY,
                                           storage);
    OBJ_RELEASE(choices);
}

static void register_enums(void)
{
    mca_coll_shmcico_params_t *p = &mca_coll_shmcico_component.params;

    p->tree = MCA_COLL_SHMCICO_TREE_NUMA;
    register_enum("tree", "Notification tree of Bcast (and the tree its single copies "
                  "follow): kary, knomial, flat, chain, or numa (NUMA leaders first, then "
                  "a k-ary tree inside each NUMA node; the same as kary on one NUMA node)",
                  tree_values, &p->tree);
    p->single_copy = MCA_COLL_SHMCICO_SINGLE_AUTO;
    register_enum("single_copy", "How large blocks go straight between user buffers: "
                  "auto (Open MPI 5.0's smsc framework where it selected a component, "
                  "else Linux CMA), cma, smsc, or off (copy-in/copy-out queues only); "
                  "where the system refuses it every block goes through the queues",
                  single_values, &p->single_copy);
}

static void register_op_params(void)
{
    mca_coll_shmcico_component_t *c = &mca_coll_shmcico_component;
    char name[64], help[384];

    for (int op = 0; op < MCA_COLL_SHMCICO_OP_COUNT; ++op) {
        snprintf(name, sizeof(name), "%s_max_bytes", op_names[op]);
        snprintf(help, sizeof(help),
                 "Largest %s served, in bytes of the message (bcast) or of the "
                 "largest process block (the others), as the deciding process "
                 "(root, or rank 0) sees it; larger calls go to the previous "
                 "component.  0: no limit (a limit makes %s processes wait for "
                 "that decision)", op_names[op],
                 op >= MCA_COLL_SHMCICO_OP_GATHER ? "the sending" : "no");
        c->params.max_bytes[op] = 0;
        register_size(name, help, OPAL_INFO_LVL_5, &c->params.max_bytes[op]);

        snprintf(name, sizeof(name), "%s_single_copy_min", op_names[op]);
        snprintf(help, sizeof(help),
                 "Smallest block of a %s (bytes) that goes straight between user "
                 "buffers (single copy) rather than through the shared queues",
                 op_names[op]);
        c->params.single_min[op] = default_single_min[op];
        register_size(name, help, OPAL_INFO_LVL_5, &c->params.single_min[op]);

        snprintf(name, sizeof(name), "%s_served", op_names[op]);
        snprintf(help, sizeof(help),
                 "Number of %s calls this process served through shared memory",
                 op_names[op]);
        register_counter(name, help, &c->served[op]);

        snprintf(name, sizeof(name), "%s_fallback", op_names[op]);
        snprintf(help, sizeof(help),
                 "Number of %s calls this process handed to the previous "
                 "component (size limit, no segment)", op_names[op]);
        register_counter(name, help, &c->fallback[op]);

        snprintf(name, sizeof(name), "%s_queue", op_names[op]);
        snprintf(help, sizeof(help),
                 "Number of served %s calls in which a block this process sent or "
                 "received went through the shared queues", op_names[op]);
        register_counter(name, help, &c->queued[op]);

        snprintf(name, sizeof(name), "%s_single_copy", op_names[op]);
        snprintf(help, sizeof(help),
                 "Number of served %s calls in which a block this process sent or "
                 "received went by single copy", op_names[op]);
        register_counter(name, help, &c->single[op]);

        snprintf(name, sizeof(name), "%s_bytes", op_names[op]);
        snprintf(help, sizeof(help),
                 "Bytes of user data this process copied into or out of the "
                 "shared queues in served %s calls", op_names[op]);
        register_counter(name, help, &c->bytes[op]);

        snprintf(name, sizeof(name), "%s_single_copy_bytes", op_names[op]);
        snprintf(help, sizeof(help),
                 "Bytes this process copied by single copy (its own blocks and "
                 "help with others') in served %s calls", op_names[op]);
        register_counter(name, help, &c->single_bytes[op]);
    }
}

static void register_counters(void)
{
    mca_coll_shmcico_component_t *c = &mca_coll_shmcico_component;

    register_counter("segments_created",
                     "Number of communicator segments this process attached to",
                     &c->segments_created);
    register_counter("segments_failed",
                     "Number of communicators whose segment could not be made "
                     "(they fall back for good)", &c->segments_failed);
    register_counter("single_copy_comms",
                     "Number of communicator segments on which single copy works",
                     &c->single_copy_comms);
    register_counter("single_copy_refused",
                     "Number of communicator segments on which the system refused "
                     "single copy (every block goes through the queues)",
                     &c->single_copy_refused);
    register_counter("numa_pages_local",
                     "Pages of this process's queues found on its own NUMA node "
                     "(move_pages check at segment creation)", &c->numa_pages_local);
    register_counter("numa_pages_remote",
                     "Pages of this process's queues found on another NUMA node",
                     &c->numa_pages_remote);
    (void) mca_base_component_pvar_register(&c->super.collm_version, "segment_bytes",
                                            "Bytes of communicator segments this "
                                            "process has mapped now",
                                            OPAL_INFO_LVL_4, MCA_BASE_PVAR_CLASS_SIZE,
                                            MCA_BASE_VAR_TYPE_UNSIGNED_LONG_LONG, NULL,
                                            MCA_BASE_VAR_BIND_NO_OBJECT,
                                            MCA_BASE_PVAR_FLAG_READONLY
                                            | MCA_BASE_PVAR_FLAG_CONTINUOUS,
                                            NULL, NULL, NULL, &c->segment_bytes);
}

static bool runtime_series_matches(void);

/* Registration is the first call into a loaded component (ompi_info
 * makes it too): a component built for another series refuses here. */
static int shmcico_register(void)
{
    mca_coll_shmcico_component_t *c = &mca_coll_shmcico_component;

    if (!runtime_series_matches()) {
        return OMPI_ERR_NOT_SUPPORTED;
    }
    c->priority = DEFAULT_PRIORITY;
    register_int("priority",
                 "Priority of the shmcico coll component (above coll/tuned's 30 "
                 "it serves node-local communicators; negative disables it)",
                 OPAL_INFO_LVL_6, &c->priority);
    c->params.slots = DEFAULT_SLOTS;
    register_int("slots",
                 "Slots in each process's queue (s); rounded up to a multiple of "
                 "banks", OPAL_INFO_LVL_5, &c->params.slots);
    c->params.banks = DEFAULT_BANKS;
    register_int("banks",
                 "Banks the slots are split into (1 <= w <= 8): while the "
                 "readers drain one bank the writer fills the next", OPAL_INFO_LVL_5,
                 &c->params.banks);
    c->params.chunk = DEFAULT_CHUNK;
    register_size("single_copy_chunk",
                  "Largest chunk (bytes) of a single copy: a block is copied in "
                  "chunks of a quarter of it, at least 64 KiB and at most this, which "
                  "the root and a receiver can share", OPAL_INFO_LVL_5, &c->params.chunk);
    c->params.fragment_size = DEFAULT_FRAGMENT;
    register_size("fragment_size",
                  "Bytes per slot (f); rounded up to a multiple of 64 (a cache "
                  "line), at least 64; the papers' model suggests sqrt(s*f) "
                  "rounded up to a page", OPAL_INFO_LVL_5,
                  &c->params.fragment_size);
    register_enums();
    c->params.tree_degree = DEFAULT_TREE_DEGREE;
    register_int("tree_degree",
                 "Degree k of the kary, knomial and numa trees (kary and numa: "
                 ">= 1, knomial: >= 2)", OPAL_INFO_LVL_5, &c->params.tree_degree);
    c->numa = true;
    register_bool("numa",
                  "Place each process's queue on its own NUMA node (mbind, "
                  "checked with move_pages)", OPAL_INFO_LVL_5, &c->numa);
    c->max_procs = DEFAULT_MAX_PROCS;
    register_int("max_procs",
                 "Largest communicator served; larger ones are declined",
                 OPAL_INFO_LVL_5, &c->max_procs);
    c->backing_dir = "/dev/shm";
    (void) mca_base_component_var_register(&c->super.collm_version, "backing_dir",
                                           "Directory of the segments' backing files "
                                           "(a tmpfs; each file is unlinked as soon as "
                                           "every process has attached)",
                                           MCA_BASE_VAR_TYPE_STRING, NULL, 0, 0,
                                           OPAL_INFO_LVL_5,
                                           MCA_BASE_VAR_SCOPE_READONLY,
                                           &c->backing_dir);
    c->max_memory = DEFAULT_MAX_MEMORY;
    register_size_t("max_memory",
                  "Bytes of communicator segments a process may have mapped at "
                  "once; a communicator whose segment would go over it falls "
                  "back (0 = no limit)", OPAL_INFO_LVL_5, &c->max_memory);
    c->lazy = true;
    register_bool("lazy",
                  "Make a communicator's segment at its first served call "
                  "instead of at communicator creation",
                  OPAL_INFO_LVL_5, &c->lazy);
    c->verbose = 0;
    register_int("verbose",
                 "Verbosity: 1 warnings, 10 per-communicator decisions, "
                 "segment and NUMA placement, 20 per-call fallbacks",
                 OPAL_INFO_LVL_5, &c->verbose);
    register_op_params();
    register_counters();
    return OMPI_SUCCESS;
}

/* ------------------------------------------------------------------ */
/* Checks of the parameters: correct what can be corrected, say so     */

static void warn(const char *what, long long given, long long used)
{
    opal_output(0, "coll:shmcico: invalid coll_shmcico_%s %lld, using %lld",
                what, given, used);
}

static void check_int(const char *what, int *value, int low, int fallback)
{
    if (*value < low) {
        warn(what, *value, fallback);
        *value = fallback;
    }
}

static void check_params(void)
{
    mca_coll_shmcico_component_t *c = &mca_coll_shmcico_component;
    mca_coll_shmcico_params_t *p = &c->params;
    size_t rounded;

    check_int("banks", &p->banks, 1, DEFAULT_BANKS);
    if (p->banks > MCA_COLL_SHMCICO_MAX_BANKS) {
        warn("banks", p->banks, MCA_COLL_SHMCICO_MAX_BANKS);
        p->banks = MCA_COLL_SHMCICO_MAX_BANKS;
    }
    check_int("slots", &p->slots, 1, DEFAULT_SLOTS);
    if (0 != p->slots % p->banks) {
        int up = (p->slots / p->banks + 1) * p->banks;
        warn("slots (not a multiple of banks)", p->slots, up);
        p->slots = up;
    }
    rounded = (p->fragment_size + MCA_COLL_SHMCICO_CACHELINE - 1)
        / MCA_COLL_SHMCICO_CACHELINE * MCA_COLL_SHMCICO_CACHELINE;
    if (rounded < MCA_COLL_SHMCICO_CACHELINE || rounded > MAX_FRAGMENT) {
        rounded = DEFAULT_FRAGMENT;
    }
    if (rounded != p->fragment_size) {
        warn("fragment_size", (long long) p->fragment_size, (long long) rounded);
        p->fragment_size = rounded;
    }
    if (p->chunk < MIN_CHUNK) {
        warn("single_copy_chunk", (long long) p->chunk, (long long) DEFAULT_CHUNK);
        p->chunk = DEFAULT_CHUNK;
    }
    if (p->tree < 0 || p->tree >= MCA_COLL_SHMCICO_TREE_COUNT) {
        warn("tree", p->tree, MCA_COLL_SHMCICO_TREE_NUMA);
        p->tree = MCA_COLL_SHMCICO_TREE_NUMA;
    }
    check_int("tree_degree", &p->tree_degree,
              MCA_COLL_SHMCICO_TREE_KNOMIAL == p->tree ? 2 : 1,
              DEFAULT_TREE_DEGREE);
    check_int("max_procs", &c->max_procs, 2, DEFAULT_MAX_PROCS);
    if (NULL == c->backing_dir || '/' != c->backing_dir[0]) {
        opal_output(0, "coll:shmcico: coll_shmcico_backing_dir must be an "
                    "absolute path, using /dev/shm");
        c->backing_dir = "/dev/shm";
    }
}

/* ------------------------------------------------------------------ */
/* The running Open MPI must be the series this DSO was built for      */

static bool runtime_series_matches(void)
{
    char version[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = 0, major = -1, minor = -1;

    if (MPI_SUCCESS != MPI_Get_library_version(version, &len)
        || 2 != sscanf(version, "Open MPI v%d.%d", &major, &minor)
        || major != MCA_COLL_SHMCICO_BUILT_MAJOR
        || minor != MCA_COLL_SHMCICO_BUILT_MINOR) {
        opal_output(0, "coll:shmcico: this component was built for Open MPI "
                    "%d.%d but runs in \"%.40s\"; it disables itself (rebuild "
                    "it against the Open MPI in use)",
                    MCA_COLL_SHMCICO_BUILT_MAJOR, MCA_COLL_SHMCICO_BUILT_MINOR,
                    version);
        return false;
    }
    return true;
}

static int shmcico_open(void)
{
    mca_coll_shmcico_component_t *c = &mca_coll_shmcico_component;

    c->output = opal_output_open(NULL);
    opal_output_set_verbosity(c->output, c->verbose);
    check_params();
    return OMPI_SUCCESS;
}

static int shmcico_close(void)
{
    mca_coll_shmcico_numa_release();
    if (mca_coll_shmcico_component.output >= 0) {
        opal_output_close(mca_coll_shmcico_component.output);
        mca_coll_shmcico_component.output = -1;
    }
    return OMPI_SUCCESS;
}

void mca_coll_shmcico_fallback(mca_coll_shmcico_op_t op,
                               struct ompi_communicator_t *comm,
                               const char *why)
{
    mca_coll_shmcico_count(&mca_coll_shmcico_component.fallback[op], 1);
    MCA_COLL_SHMCICO_VERBOSE(MCA_COLL_SHMCICO_VERBOSE_CALL,
                             MCA_COLL_SHMCICO_COMM_FMT "%s handed to the "
                             "previous component: %s",
                             MCA_COLL_SHMCICO_COMM_ARGS(comm), op_names[op], why);
}

void mca_coll_shmcico_count(unsigned long long *counter, unsigned long long n)
{
    if (opal_using_threads()) {
        (void) __atomic_fetch_add(counter, n, __ATOMIC_RELAXED);
    } else {
        *counter += n;
    }
}
