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
 * The MCA parameters of coll/shmcico: registration with their help
 * texts, defaults, and the checks that correct what can be corrected (a
 * message says so).  docs/parameters.md lists them; docs/tuning.md says
 * which measurement chose each default.
 */

#include "ompi_config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opal/mca/base/mca_base_var.h"
#include "ompi/constants.h"

#include "coll_shmcico.h"

#define DEFAULT_PRIORITY      40
#define DEFAULT_SLOTS         8
#define DEFAULT_BANKS         2
#define MAX_SLOTS             65536     /* 8 KiB fragments: 512 MiB per process */
#define DEFAULT_FRAGMENT      8192
#define REFUSED_FRAGMENT      32768     /* where single copy is refused for sure */
#define DEFAULT_TREE_DEGREE   4
#define DEFAULT_MAX_PROCS     256
#define MAX_FRAGMENT          ((size_t) 1 << 30)
#define DEFAULT_MAX_MEMORY    ((size_t) 512 << 20)
#define DEFAULT_CHUNK         ((size_t) 1 << 20)
#define MIN_CHUNK             ((size_t) 4096)
#define DEFAULT_STREAMING_MIN ((size_t) 4096)
/* where processes share a cache, ordinary stores and the queues (docs/tuning.md,
 * "Near and far, measured at setup") */
#define DEFAULT_NEAR_STREAMING_MIN ((size_t) 1 << 20)
#define DEFAULT_NEAR_SINGLE_MIN ((size_t) 262144)
#define DEFAULT_READERS_SINGLE_MIN ((size_t) 65536)
#define DEFAULT_READERS_PROBE_MAX ((size_t) 524288)

/* Per operation: blocks from single_min on go by single copy, and up to
 * probe_max their sender first probes whether they left the caches (a
 * cold block goes through the queues).  Both come from shmcico-bench
 * runs at np 2 against coll/tuned: single_min from the sweeps of single
 * copy against queues only (docs/results/transport-np2-chunks) and,
 * since the probe keeps cold blocks off single copy, from alternating
 * runs with warm blocks at 64 and 128 KiB
 * (docs/results/crossover-np2-probe), and Bcast's from the runs with
 * streaming stores in the queues (docs/results/streaming-np2); probe_max
 * from the sweeps of docs/results/cold-probe-np2 and its limits/
 * directory, and Allgather(v)'s (none) from the runs with streaming
 * stores (the probe runs of docs/results/streaming-np2).
 * docs/tuning.md, "Single copy or queues" and "Cold blocks", says how
 * each was chosen; the crossovers were lowered (Bcast, Scatter(v),
 * Allgather(v) 16 KiB, Gather(v) 32 KiB) by the runs of
 * docs/results/crossovers-np2-later, where the queues took up to 2.0
 * times coll/tuned from 16 KiB to 128 KiB and single copy at most 1.09,
 * and Gather(v)'s to 16 KiB once a block of 16 KiB or more is copied in
 * two chunks, its root pulling one (docs/results/chunks-np2-shared); then
 * Bcast's to 10 KiB, Scatter(v)'s to 8 KiB and Allgather(v)'s to 12 KiB
 * by docs/results/crossover-np2-below-16k, where the queues took up to
 * 1.18 times coll/tuned from 10 to 14 KiB warm and single copy at most
 * 0.99 from those sizes on (Gather(v)'s single copy lost there, 1.02 to
 * 1.23 warm: it stays at 16 KiB). */
static const struct {
    size_t single_min;
    size_t slow_kernel_min;     /* where the kernel's copy is slow: the np 2 sweeps of
                                   docs/results/slow-kernel-np2 in two states of one
                                   host (warm below these the queues took 0.24 to 0.84
                                   of coll/tuned's time, single copy 0.61 to 1.24) */
    size_t probe_max;           /* Allgather(v): 2 MiB since the probe of blocks sent
                                   runs only where the kernel's copy is slow
                                   (docs/results/allgather-probe-np2: cold 64 KiB to
                                   1 MiB 0.96 to 1.02 of coll/tuned -> 0.11 to 0.44,
                                   warm alike); not 4 MiB, whose warm blocks it sent
                                   through the queues in part (1.10 to 1.30 against
                                   1.02 to 1.05: docs/results/allgather-probe-4m-np2) */
    size_t own_streaming_min;   /* the better worst case of two hosts: on one (L2 2 MiB
                                   per core, docs/results/own-streaming-np2) streaming
                                   stores won warm and cold from 2 MiB, on the other
                                   (L2 1 MiB, L3 32 MiB, docs/results/own-streaming-8m-np2)
                                   they lost warm at 2 and 4 MiB (Allgatherv 1.11 and
                                   1.06 of coll/tuned against 0.98 and 0.96) and won
                                   from 8 MiB; cold destinations below it go so by the
                                   cache probe */
    size_t single_max_procs;    /* docs/results/device-np16: a Bcast of 8 and 16
                                   processes took 1.4 to 3.1 times as long by single
                                   copy as through the queues, at 4 processes 0.69 to
                                   0.90 warm and 1.15 to 1.46 cold;
                                   docs/results/device-np16-b: an Allgather(v) of 16
                                   processes took 1.14 to 1.61 times as long by single
                                   copy at 16 KiB and 0.78 to 1.25 from 64 KiB to
                                   4 MiB, at 8 processes 0.74 to 1.46, at 4 processes
                                   0.58 to 0.94 warm; 0: no limit */
} op_defaults[MCA_COLL_SHMCICO_OP_COUNT] = {
    /* bcast: no own block */
    { (size_t) 10 << 10, (size_t) 128 << 10, (size_t) 8 << 20, (size_t) 8 << 20, 4 },
    { (size_t) 8 << 10, (size_t) 96 << 10, (size_t) 2 << 20, (size_t) 8 << 20, 0 },   /* scatter */
    { (size_t) 8 << 10, (size_t) 96 << 10, (size_t) 2 << 20, (size_t) 8 << 20, 0 },   /* scatterv */
    { (size_t) 16 << 10, (size_t) 192 << 10, (size_t) 256 << 10, (size_t) 8 << 20, 0 }, /* gather */
    { (size_t) 16 << 10, (size_t) 192 << 10, (size_t) 256 << 10, (size_t) 8 << 20, 0 }, /* gatherv */
    { (size_t) 12 << 10, (size_t) 64 << 10, (size_t) 2 << 20, (size_t) 8 << 20, 8 }, /* allgather */
    { (size_t) 12 << 10, (size_t) 64 << 10, (size_t) 2 << 20, (size_t) 8 << 20, 8 }  /* allgatherv */
};

#define op_names mca_coll_shmcico_op_names

static const mca_base_var_enum_value_t single_values[] = {
    {MCA_COLL_SHMCICO_SINGLE_AUTO, "auto"},
    {MCA_COLL_SHMCICO_SINGLE_CMA, "cma"},
    {MCA_COLL_SHMCICO_SINGLE_SMSC, "smsc"},
    {MCA_COLL_SHMCICO_SINGLE_OFF, "off"},
    {0, NULL}
};

static const mca_base_var_enum_value_t nearness_values[] = {
    {MCA_COLL_SHMCICO_NEARNESS_AUTO, "auto"},
    {MCA_COLL_SHMCICO_NEARNESS_NEAR, "near"},
    {MCA_COLL_SHMCICO_NEARNESS_FAR, "far"},
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
    p->nearness = MCA_COLL_SHMCICO_NEARNESS_AUTO;
    register_enum("nearness", "Whether a communicator's processes are near one another "
                  "(a cache line passes between them faster than memory answers a "
                  "load): auto (measured when its segment is made), near, or far; "
                  "where they are near, coll_shmcico_near_streaming_min and "
                  "coll_shmcico_near_single_copy_min apply",
                  nearness_values, &p->nearness);
}

/* a process's own block of an operation that has one */
static void register_own_streaming(int op)
{
    mca_coll_shmcico_component_t *c = &mca_coll_shmcico_component;
    char name[64], help[384];

    snprintf(name, sizeof(name), "%s_own_streaming_min", op_names[op]);
    snprintf(help, sizeof(help),
             "Smallest own block of a %s (bytes) that a process copies into its own "
             "receive buffer with streaming (non-temporal) stores, which do not first "
             "read each line of the destination%s; 0: never (x86-64 only, contiguous "
             "buffers)", op_names[op],
             op >= MCA_COLL_SHMCICO_OP_ALLGATHER ? "" : " (the root's own block)");
    register_size(name, help, OPAL_INFO_LVL_5, &c->params.own_streaming_min[op]);
}

/* coll_shmcico_<op>_SUFFIX at *storage, whose default is value; help is
 * a format whose arguments follow (the operation's name, mostly) */
static void register_op_size(int op, const char *suffix, uint64_t *storage, uint64_t value,
                             const char *help, ...)
{
    char name[64], text[384];
    va_list args;

    snprintf(name, sizeof(name), "%s_%s", op_names[op], suffix);
    va_start(args, help);
    vsnprintf(text, sizeof(text), help, args);
    va_end(args);
    *storage = value;
    register_size(name, text, OPAL_INFO_LVL_5, storage);
}

static void register_op_params(void)
{
    mca_coll_shmcico_component_t *c = &mca_coll_shmcico_component;

    for (int op = 0; op < MCA_COLL_SHMCICO_OP_COUNT; ++op) {
        const char *name = op_names[op];

        register_op_size(op, "max_bytes", &c->params.max_bytes[op], 0,
                         "Largest %s served, in bytes of the message (bcast) or of the "
                         "largest process block (the others), as the deciding process "
                         "(root, or rank 0) sees it; larger calls go to the previous "
                         "component.  0: no limit (a limit makes %s processes wait for "
                         "that decision)", name,
                         op >= MCA_COLL_SHMCICO_OP_GATHER ? "the sending" : "no");
        register_op_size(op, "single_copy_min", &c->params.single_min[op],
                         op_defaults[op].single_min,
                         "Smallest block of a %s (bytes) that goes straight between user "
                         "buffers (single copy) rather than through the shared queues",
                         name);
        register_op_size(op, "single_copy_max_procs", &c->params.single_max_procs[op],
                         op_defaults[op].single_max_procs,
                         "Most processes of a communicator (of a node's, across nodes) "
                         "whose %s blocks may go by single copy; on a larger one every "
                         "block goes through the queues.  0: no limit", name);
        register_op_size(op, "slow_kernel_single_copy_min", &c->slow_kernel_single_min[op],
                         op_defaults[op].slow_kernel_min,
                         "Where this process found the kernel's copy slow at startup "
                         "(coll_shmcico_cache_probe_kernel_ratio), single copy is a "
                         "kernel call (CMA, smsc's cma) and the communicator has at most "
                         "4 processes: the smallest %s block it sends by single copy, if "
                         "larger than coll_shmcico_%s_single_copy_min (its receivers "
                         "follow); 0: none", name, name);
        register_op_size(op, "cache_probe_max", &c->probe_max[op], op_defaults[op].probe_max,
                         "Largest block of a %s (bytes) whose sender, where its size says "
                         "single copy, first probes whether it sits in the caches "
                         "(coll_shmcico_cache_probe).  0: no probe", name);
        c->params.own_streaming_min[op] = op_defaults[op].own_streaming_min;
        if (MCA_COLL_SHMCICO_OP_BCAST != op) {
            register_own_streaming(op);
        }
    }
}

/* the segment's parameters for processes near one another
 * (coll_shmcico_nearness) */
static void register_near_params(void)
{
    mca_coll_shmcico_params_t *p = &mca_coll_shmcico_component.params;

    p->near_single_min = DEFAULT_NEAR_SINGLE_MIN;
    register_size("near_single_copy_min",
                  "Where a communicator of at most 4 processes is near one another "
                  "(coll_shmcico_nearness), the smallest block that goes by single copy "
                  "is the larger of this and the operation's "
                  "coll_shmcico_<op>_single_copy_min (for Allgather(v) of this and a "
                  "bank's slots, the smaller): the queues, written with ordinary "
                  "stores, carry a block of up to a few hundred KiB from one cache to "
                  "the other faster than a kernel copy does; 0: the operations' own",
                  OPAL_INFO_LVL_5, &p->near_single_min);
    p->nearness_watch = true;
    register_bool("nearness_watch",
                  "With coll_shmcico_nearness auto, on communicators of at most 4 "
                  "processes whose setup timed it: every 256 calls each process times "
                  "a load of a line each other process has just written, and writes "
                  "its slots with the stores of near processes while the median of "
                  "the last three loads is at most coll_shmcico_nearness_watch_ns (the "
                  "crossovers keep the setup's answer); false: the setup's answer for "
                  "the communicator's life",
                  OPAL_INFO_LVL_5, &p->nearness_watch);
    p->nearness_watch_ns = 0;
    register_size("nearness_watch_ns",
                  "The nearness watch's threshold (ns): processes whose lines this "
                  "process loads in at most this are near to it; 0: two thirds of a "
                  "load from memory, as the setup's rule",
                  OPAL_INFO_LVL_6, &p->nearness_watch_ns);
    p->near_streaming_min = DEFAULT_NEAR_STREAMING_MIN;
    register_size("near_streaming_min",
                  "Where a communicator's processes are near one another "
                  "(coll_shmcico_nearness), the smallest block written with streaming "
                  "stores is the larger of this and coll_shmcico_streaming_min: "
                  "ordinary stores keep the queues' slots in the shared cache, where "
                  "the readers take them faster than from memory",
                  OPAL_INFO_LVL_5, &p->near_streaming_min);
}

/* the parameters of a communicator's segment, which travel with it */
static void register_segment_params(void)
{
    mca_coll_shmcico_params_t *p = &mca_coll_shmcico_component.params;

    p->slots = DEFAULT_SLOTS;
    register_int("slots",
                 "Slots in each process's queue (s); rounded up to a multiple of "
                 "banks", OPAL_INFO_LVL_5, &p->slots);
    p->banks = DEFAULT_BANKS;
    register_int("banks",
                 "Banks the slots are split into (1 <= w <= 8): while the "
                 "readers drain one bank the writer fills the next", OPAL_INFO_LVL_5,
                 &p->banks);
    p->chunk = DEFAULT_CHUNK;
    register_size("single_copy_chunk",
                  "Largest chunk (bytes) of a single copy that two processes share: "
                  "Bcast and Gather(v) blocks from 16 KiB are copied in halves, from "
                  "64 KiB in quarters of at least 32 KiB, Scatter(v) blocks from "
                  "256 KiB in quarters of at least 64 KiB, an Allgather(v) block in "
                  "one chunk; no shared chunk is larger than this, but where a block "
                  "would then have more than 65535 chunks", OPAL_INFO_LVL_5, &p->chunk);
    p->streaming_min = DEFAULT_STREAMING_MIN;
    register_size("streaming_min",
                  "Smallest block (bytes) that its sender writes into the shared queues "
                  "with streaming (non-temporal) stores, which do not first take each "
                  "line back from the readers' caches; smaller blocks, and every block "
                  "with 0, are written with ordinary stores (x86-64 only)",
                  OPAL_INFO_LVL_5, &p->streaming_min);
    p->readers_single_min = DEFAULT_READERS_SINGLE_MIN;
    register_size("bcast_readers_single_copy_min",
                  "On a communicator of 3 or more processes, where a Bcast block's "
                  "readers pull it from the root at once, the smallest Bcast block that "
                  "goes by single copy is the larger of this and "
                  "coll_shmcico_bcast_single_copy_min: their kernel copies pin the same "
                  "pages and wait on each other, and the queues, written once and read "
                  "by all, carry smaller blocks faster; 0: Bcast's own",
                  OPAL_INFO_LVL_5, &p->readers_single_min);
    /* where the queues carry every block, larger fragments move large
     * ones in fewer steps (docs/tuning.md, "Queue geometry") */
    p->fragment_size = mca_coll_shmcico_copy_refused_here() ? REFUSED_FRAGMENT
                                                            : DEFAULT_FRAGMENT;
    register_size("fragment_size",
                  "Bytes per slot (f); rounded up to a multiple of 64 (a cache "
                  "line), at least 64.  Default 8192, or 32768 where this process "
                  "finds that the system refuses single copy between processes "
                  "(seccomp refuses its copy of its own memory, or Yama's "
                  "ptrace_scope is 3, or 2 without CAP_SYS_PTRACE)",
                  OPAL_INFO_LVL_5, &p->fragment_size);
    register_enums();
    p->tree_degree = DEFAULT_TREE_DEGREE;
    register_int("tree_degree",
                 "Degree k of the kary, knomial and numa trees (kary and numa: "
                 ">= 1, knomial: >= 2)", OPAL_INFO_LVL_5, &p->tree_degree);
    register_near_params();
}

/* the parameters of the component itself */
static void register_component_params(void)
{
    mca_coll_shmcico_component_t *c = &mca_coll_shmcico_component;

    c->priority = DEFAULT_PRIORITY;
    register_int("priority",
                 "Priority of the shmcico coll component (above coll/tuned's 30 "
                 "it serves node-local communicators; negative disables it)",
                 OPAL_INFO_LVL_6, &c->priority);
    c->numa = true;
    register_bool("numa",
                  "Place each process's queue on its own NUMA node (mbind, checked "
                  "with move_pages where the machine has several)", OPAL_INFO_LVL_5, &c->numa);
    c->multinode = true;
    register_bool("multinode",
                  "Serve communicators whose processes sit on several nodes: shared "
                  "memory inside each node, one inter-node step between the nodes' "
                  "leaders (through Open MPI's PML); false: leave them to the "
                  "previous component", OPAL_INFO_LVL_5, &c->multinode);
    c->max_procs = DEFAULT_MAX_PROCS;
    register_int("max_procs",
                 "Largest communicator served on one node; larger ones are declined "
                 "(on several nodes: the largest node communicator)",
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
    c->keep_segments = 4;
    register_int("keep_segments",
                 "Segments of freed communicators a process keeps mapped, for the next "
                 "communicator of the same processes in the same order to take over "
                 "instead of making its own (the oldest goes first; they count in "
                 "coll_shmcico_max_memory; 0 = unmap every segment when its "
                 "communicator is freed)", OPAL_INFO_LVL_5, &c->keep_segments);
    c->verbose = 0;
    register_int("verbose",
                 "Verbosity: 1 warnings, 10 per-communicator decisions, "
                 "segment and NUMA placement, 20 per-call fallbacks",
                 OPAL_INFO_LVL_5, &c->verbose);
}

/* the cache probe (docs/design.md, "Cold blocks") */
static void register_probe_params(void)
{
    mca_coll_shmcico_component_t *c = &mca_coll_shmcico_component;

    c->probe = true;
    register_bool("cache_probe",
                  "Probe whether a block that goes by single copy for its size sits "
                  "in the caches (up to coll_shmcico_<op>_cache_probe_max): a block "
                  "found cold goes through the queues, where they are faster from memory",
                  OPAL_INFO_LVL_5, &c->probe);
    c->probe_ns = 0;
    register_size("cache_probe_ns",
                  "Time (ns) of the cache probe's chain of dependent loads above "
                  "which a block counts as cold; 0: calibrated by each process at "
                  "startup (the chain on flushed lines; no probe where "
                  "flushed lines are not three times slower than cached ones, or "
                  "where the kernel's copy of cold data is fast: "
                  "coll_shmcico_cache_probe_kernel_ratio)",
                  OPAL_INFO_LVL_6, &c->probe_ns);
    c->probe_kernel_ratio = 175;
    register_size("cache_probe_kernel_ratio",
                  "With the calibrated probe (cache_probe_ns 0): the least time of "
                  "the kernel's copy between processes of a 256 KiB block from memory, "
                  "in hundredths of memcpy's, measured at startup, for which the "
                  "probe runs and coll_shmcico_<op>_slow_kernel_single_copy_min "
                  "applies; "
                  "below it cold blocks go by single copy, faster than the queues "
                  "there.  0: probe whatever the kernel's copy takes, and no "
                  "slow-kernel floor",
                  OPAL_INFO_LVL_6, &c->probe_kernel_ratio);
    c->readers_probe_max = DEFAULT_READERS_PROBE_MAX;
    register_size("bcast_readers_cache_probe_max",
                  "On a communicator of 3 or more processes, the largest Bcast block "
                  "that its root probes, the larger of this and "
                  "coll_shmcico_bcast_cache_probe_max, also where the kernel's copy of "
                  "cold data is fast (coll_shmcico_cache_probe_kernel_ratio): the "
                  "block's readers then pin its cold pages at once and wait on each "
                  "other, and the queues, which read it from memory once, carry it "
                  "faster; 0: none",
                  OPAL_INFO_LVL_6, &c->readers_probe_max);
}

void mca_coll_shmcico_params_register(void)
{
    register_component_params();
    register_probe_params();
    register_segment_params();
    register_op_params();
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

void mca_coll_shmcico_params_check(void)
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
    if (p->slots > MAX_SLOTS) {
        warn("slots", p->slots, MAX_SLOTS);     /* and no overflow below */
        p->slots = MAX_SLOTS;
    }
    if (0 != p->slots % p->banks) {
        int up = (p->slots / p->banks + 1) * p->banks;
        if (up > MAX_SLOTS) {
            up -= p->banks;             /* banks <= 8: still at least banks */
        }
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
    if (p->tree_degree > MCA_COLL_SHMCICO_MAX_TREE_DEGREE) {
        /* what a hint accepts too (coll_shmcico_hints.c) */
        warn("tree_degree", p->tree_degree, DEFAULT_TREE_DEGREE);
        p->tree_degree = DEFAULT_TREE_DEGREE;
    }
    check_int("max_procs", &c->max_procs, 2, DEFAULT_MAX_PROCS);
    if (NULL == c->backing_dir || '/' != c->backing_dir[0]) {
        /* the variable's storage is OPAL's to free when the component
         * is closed: a string of the heap, not a constant */
        char *dir = strdup("/dev/shm");
        opal_output(0, "coll:shmcico: coll_shmcico_backing_dir must be an "
                    "absolute path, using /dev/shm");
        free(c->backing_dir);
        c->backing_dir = dir;   /* NULL without memory: no segment (setup says so) */
    }
}

