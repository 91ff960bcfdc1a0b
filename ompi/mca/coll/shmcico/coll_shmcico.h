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
 * coll/shmcico: collectives through a NUMA-aware shared segment per
 * communicator, each block copied in and out of shared queues or straight
 * between user buffers (single copy).  This header is the Open MPI glue:
 * the component, the module, and the entry points of the operations.  The
 * engine (coll_shmcico_engine.h) knows nothing of MPI; the protocol is
 * described in docs/protocol.md.
 */

#ifndef MCA_COLL_SHMCICO_EXPORT_H
#define MCA_COLL_SHMCICO_EXPORT_H

#include "ompi_config.h"

#include "mpi.h"
#include "ompi/communicator/communicator.h"
#include "ompi/datatype/ompi_datatype.h"
#include "ompi/mca/coll/coll.h"
#include "opal/datatype/opal_convertor.h"
#include "opal/util/output.h"

#include "coll_shmcico_blocks.h"
#include "coll_shmcico_compat.h"
#include "coll_shmcico_engine.h"
#include "coll_shmcico_nearness.h"
#include "coll_shmcico_small.h"
#include "coll_shmcico_tree.h"

BEGIN_C_DECLS

/** Operations the component serves; each has its MPI_T counters. */
typedef enum {
    MCA_COLL_SHMCICO_OP_BCAST = 0,
    MCA_COLL_SHMCICO_OP_SCATTER,
    MCA_COLL_SHMCICO_OP_SCATTERV,
    MCA_COLL_SHMCICO_OP_GATHER,
    MCA_COLL_SHMCICO_OP_GATHERV,
    MCA_COLL_SHMCICO_OP_ALLGATHER,
    MCA_COLL_SHMCICO_OP_ALLGATHERV,
    MCA_COLL_SHMCICO_OP_COUNT
} mca_coll_shmcico_op_t;

/** Verbosity levels of coll_shmcico_verbose. */
enum {
    MCA_COLL_SHMCICO_VERBOSE_WARN = 1,     /**< something did not work */
    MCA_COLL_SHMCICO_VERBOSE_COMM = 10,    /**< per-communicator decisions */
    MCA_COLL_SHMCICO_VERBOSE_CALL = 20     /**< per-call fallbacks */
};

#define MCA_COLL_SHMCICO_VERBOSE(level, ...)                                   \
    opal_output_verbose((level), mca_coll_shmcico_component.output, __VA_ARGS__)

/** printf format and arguments that name a communicator in messages */
#define MCA_COLL_SHMCICO_COMM_FMT "coll:shmcico: comm " MCA_COLL_SHMCICO_CID_FMT " (%s) of %d: "
#define MCA_COLL_SHMCICO_COMM_ARGS(comm)                                      \
    MCA_COLL_SHMCICO_CID(comm), (comm)->c_name, ompi_comm_size(comm)

/** How blocks may go straight between user buffers. */
typedef enum {
    MCA_COLL_SHMCICO_SINGLE_AUTO = 0,  /**< smsc where Open MPI has it, else CMA */
    MCA_COLL_SHMCICO_SINGLE_CMA,       /**< Linux CMA directly */
    MCA_COLL_SHMCICO_SINGLE_SMSC,      /**< Open MPI 5.0's smsc framework */
    MCA_COLL_SHMCICO_SINGLE_OFF,       /**< queues only */
    MCA_COLL_SHMCICO_SINGLE_COUNT
} mca_coll_shmcico_single_mode_t;

/** Whether the processes of a communicator count as near one another
 *  (coll_shmcico_nearness.h). */
typedef enum {
    MCA_COLL_SHMCICO_NEARNESS_AUTO = 0,    /**< measured by the setup */
    MCA_COLL_SHMCICO_NEARNESS_NEAR,
    MCA_COLL_SHMCICO_NEARNESS_FAR,
    MCA_COLL_SHMCICO_NEARNESS_COUNT
} mca_coll_shmcico_nearness_t;

/** Parameters a communicator's segment is made with.  Every process
 *  uses rank 0's: they travel with the segment's offer. */
typedef struct mca_coll_shmcico_params_t {
    int32_t slots;
    int32_t banks;
    uint64_t fragment_size;
    int32_t tree;
    int32_t tree_degree;
    int32_t single_copy;                            /**< mca_coll_shmcico_single_mode_t */
    uint64_t chunk;                                 /**< largest shared single-copy chunk */
    uint64_t max_bytes[MCA_COLL_SHMCICO_OP_COUNT];  /**< 0: no limit */
    uint64_t single_min[MCA_COLL_SHMCICO_OP_COUNT]; /**< blocks from here go single copy */
    uint64_t single_max_procs[MCA_COLL_SHMCICO_OP_COUNT];  /**< more processes: no single
                                                                copy; 0: no limit */
    uint64_t streaming_min;         /**< queued blocks from here are written with streaming
                                         stores; 0: never */
    uint64_t near_streaming_min;    /**< the same where the processes are near: the
                                         larger of the two applies there */
    uint64_t near_single_min;       /**< where a communicator of at most
                                         MCA_COLL_SHMCICO_NEAR_MAX_PROCS processes is
                                         near, the least crossover of every operation */
    uint64_t readers_single_min;    /**< on a Bcast of 3 or more processes, whose readers
                                         pull from one root at once, the least
                                         crossover of Bcast */
    int32_t nearness;               /**< mca_coll_shmcico_nearness_t */
    bool nearness_watch;            /**< each process watches nearness during the run */
    uint64_t nearness_watch_ns;     /**< the watch's threshold; 0: the setup's rule */
    uint64_t own_streaming_min[MCA_COLL_SHMCICO_OP_COUNT];  /**< own blocks from here are
                                                                 copied with streaming
                                                                 stores; 0: never */
} mca_coll_shmcico_params_t;

typedef struct mca_coll_shmcico_component_t {
    mca_coll_base_component_t super;

    int priority;
    mca_coll_shmcico_params_t params;
    bool numa;
    bool multinode;                 /**< serve communicators that span nodes */
    int max_procs;
    char *backing_dir;
    bool lazy;
    int keep_segments;              /**< freed communicators' segments a process keeps
                                         for the next of the same processes */
    int verbose;
    int output;

    size_t max_memory;              /**< segment bytes a process may map; 0: no limit */
    uint64_t probe_max[MCA_COLL_SHMCICO_OP_COUNT];  /**< largest block the cache probe
                                                         looks at; 0: none */
    bool probe;                     /**< probe blocks' residency (parameter) */
    uint64_t probe_ns;              /**< the probe's threshold (parameter); 0: calibrate */
    uint64_t probe_kernel_ratio;    /**< least kernel/memcpy time of a cold copy, in
                                         hundredths, for a calibrated probe (parameter) */
    uint64_t probe_threshold;       /**< a chain slower than this found lines cold;
                                         0: no probe */
    uint32_t kernel_ratio;          /**< this process's kernel copy of cold data against
                                         memcpy's, in hundredths, timed when the
                                         component opened; 0: not measured */
    uint64_t readers_probe_max;     /**< on 3 or more processes, the largest Bcast
                                         block probed, where the kernel copies cold data fast too; 0: none
                                         (parameter) */
    uint64_t slow_kernel_single_min[MCA_COLL_SHMCICO_OP_COUNT];  /**< parameter: where a
                                    communicator's setup finds the kernel's copy slow,
                                    the least crossover of the blocks sent (rank 0's
                                    goes to its module's slow_kernel_min); 0: none */

    /* MPI_T performance variables: counters of this process */
    unsigned long long served[MCA_COLL_SHMCICO_OP_COUNT];
    unsigned long long multinode_served[MCA_COLL_SHMCICO_OP_COUNT];  /**< of them across nodes */
    unsigned long long fallback[MCA_COLL_SHMCICO_OP_COUNT];
    unsigned long long small[MCA_COLL_SHMCICO_OP_COUNT];    /**< of them by the small path */
    unsigned long long queued[MCA_COLL_SHMCICO_OP_COUNT];   /**< calls with a queued block */
    unsigned long long single[MCA_COLL_SHMCICO_OP_COUNT];   /**< calls with a single copy */
    unsigned long long bytes[MCA_COLL_SHMCICO_OP_COUNT];    /**< through the segment */
    unsigned long long single_bytes[MCA_COLL_SHMCICO_OP_COUNT];  /**< copied by single copy */
    unsigned long long streamed_bytes[MCA_COLL_SHMCICO_OP_COUNT];  /**< of bytes, written into
                                                                        slots by streaming stores */
    unsigned long long own_streamed_bytes[MCA_COLL_SHMCICO_OP_COUNT];  /**< own blocks copied
                                                                            by streaming stores */
    unsigned long long cold[MCA_COLL_SHMCICO_OP_COUNT];  /**< blocks the probe sent queued,
                                                              in served calls */
    unsigned long long segments_created;
    unsigned long long segments_reused;   /**< kept segments taken over */
    unsigned long long segments_failed;
    unsigned long long single_copy_comms;     /**< segments with single copy */
    unsigned long long single_copy_refused;   /**< segments where it was refused */
    unsigned long long slow_kernel_comms;     /**< segments whose setup found the kernel's
                                                   copy of cold data slow */
    unsigned long long nearness_rounds;   /**< rounds of the nearness watch taken */
    unsigned long long nearness_changes;  /**< rounds that turned a process's view */
    unsigned long long numa_pages_local;
    unsigned long long numa_pages_remote;
    unsigned long long segment_bytes;   /**< bytes of segments mapped now, kept ones
                                             included */
} mca_coll_shmcico_component_t;

MCA_COLL_SHMCICO_DECLSPEC extern mca_coll_shmcico_component_t mca_coll_shmcico_component;

/** Where a module's segment stands. */
typedef enum {
    MCA_COLL_SHMCICO_SEGMENT_NONE = 0,  /**< not tried yet (lazy) */
    MCA_COLL_SHMCICO_SEGMENT_READY,
    MCA_COLL_SHMCICO_SEGMENT_FAILED     /**< every call falls back */
} mca_coll_shmcico_segment_state_t;

/** The seven operations this component serves, for what is written once
 *  per operation: X(op) for each, op as in coll_op and coll_op_module. */
#define MCA_COLL_SHMCICO_FOR_EACH_OP(X) \
    X(bcast) X(scatter) X(scatterv) X(gather) X(gatherv) X(allgather) X(allgatherv)

#define MCA_COLL_SHMCICO_PREVIOUS_FIELDS(op)                                 \
    mca_coll_base_module_##op##_fn_t op;                                     \
    mca_coll_base_module_t *op##_module;

/** The functions and modules this component falls back to. */
typedef struct mca_coll_shmcico_previous_t {
    MCA_COLL_SHMCICO_FOR_EACH_OP(MCA_COLL_SHMCICO_PREVIOUS_FIELDS)
} mca_coll_shmcico_previous_t;

/** A byte stream over count elements of a datatype (see the engine). */
typedef struct mca_coll_shmcico_dstream_t {
    mca_coll_shmcico_stream_t stream;
    opal_convertor_t convertor;
    bool uses_convertor;
    /* packed bytes of a basic element that a fragment boundary split */
    unsigned char carry[64];
    size_t carry_len;
    size_t carry_off;
} mca_coll_shmcico_dstream_t;

/** How this process copies straight into and out of the others'
 *  buffers on one communicator (coll_shmcico_copy.c). */
typedef struct mca_coll_shmcico_copy_t {
    mca_coll_shmcico_single_mode_t mode;    /**< CMA, SMSC, or OFF */
    bool kernel;                    /**< each copy is a system call (CMA, smsc's cma) */
    int32_t *pids;                  /**< CMA: every process's pid */
    void **endpoints;               /**< smsc: every process's endpoint */
    struct ompi_communicator_t *comm;
} mca_coll_shmcico_copy_t;

/** What a process knows of the nodes of a multi-node communicator
 *  (coll_shmcico_net.h). */
typedef struct mca_coll_shmcico_net_t {
    struct ompi_communicator_t *node_comm;  /**< this process's node */
    uint32_t node_comm_index;       /**< its index among the communicators */
    int nnodes;
    int my_node;
    int *node_of;                   /**< [p] node index of each rank */
    int *local_of;                  /**< [p] rank in its node communicator */
    int *node_start;                /**< [nnodes + 1] first member of each node */
    int *members;                   /**< [p] ranks by node, in node rank order */
    int *leader;                    /**< [nnodes] leader of each node without a root */
    /* What a call works in, made at setup with the maps so that no call
     * can run out of it (a communicator runs one collective at a time;
     * p bounds both the members of a node and the nodes): */
    int *scratch;                   /**< [2p] a call's counts and displacements */
    uint64_t *sizes;                /**< [p] a rooted call's bytes of each member's block */
    uint64_t *told;                 /**< [p] a Scatter(v) leader's: what each member
                                         learns of its block */
    struct ompi_request_t **reqs;   /**< [2p] a call's requests */
    char **msgs;                    /**< [p] a Scatter(v) root's: each node's message */
    struct ompi_datatype_t **types; /**< [p] an Allgather(v) leader's: each node's blocks
                                         where they lie */
} mca_coll_shmcico_net_t;

typedef struct mca_coll_shmcico_module_t {
    mca_coll_base_module_t super;

    /** Where the module's segment stands (for a multi-node communicator:
     *  its node communicator and maps). */
    mca_coll_shmcico_segment_state_t state;
    bool multinode;                 /**< its processes sit on several nodes */
    bool inner;                     /**< the node communicator of a multi-node one */
    mca_coll_shmcico_net_t net;
    mca_coll_shmcico_params_t params;
    bool disabled;                  /**< the shmcico_disable hint */
    void *registered_comm;          /**< the communicator whose hints it follows
                                         (coll_shmcico_hints.c's list); NULL: none */
    struct mca_coll_shmcico_module_t *registered_next;  /**< the next in that list */
    const char *subscribing;        /**< while Open MPI calls back at subscription: the
                                         value in effect it was given; else NULL */
    mca_coll_shmcico_engine_t engine;
    struct mca_coll_shmcico_kept_t *kept;   /**< who may take the segment over once the
                                                 communicator is freed; NULL: unmapped then */
    mca_coll_shmcico_tree_t tree;
    mca_coll_shmcico_place_t bcast_place;   /**< in tree, for its last Bcast's root */
    mca_coll_shmcico_copy_t copy;
    bool near;                      /**< its setup found (or was told) its processes
                                         near one another: the crossovers' nearness */
    mca_coll_shmcico_watch_t watch; /**< this process's view of it, watched during the
                                         run: the stores' nearness */
    uint64_t slow_kernel_min[MCA_COLL_SHMCICO_OP_COUNT];  /**< the slow-kernel floor
                                    of the blocks sent, the same on every process
                                    (0: none), set by its setup
                                    (coll_shmcico_setup_kernel.c) */
    uint64_t probe_max[MCA_COLL_SHMCICO_OP_COUNT];  /**< the largest block of op that
                                    its sender probes (coll_shmcico_residency.h; 0:
                                    none), set by its setup
                                    (coll_shmcico_setup_kernel.c) */
    /* scratch of the calls: a stream, region and block per process block
     * (entry p: the process's own buffer), a second stream over its own
     * send buffer (Allgather), and the pieces of the two datatypes a call
     * has (the own buffer's, the blocks') */
    mca_coll_shmcico_dstream_t *streams;
    mca_coll_shmcico_region_t *regions;
    mca_coll_shmcico_block_t *blocks;
    mca_coll_shmcico_span_t *spans;     /**< the small path's: p blocks, own, send */
    mca_coll_shmcico_dstream_t own_copy;
    mca_coll_shmcico_piece_t *pieces[2];
    uint64_t max_pieces;
    mca_coll_shmcico_previous_t previous;
} mca_coll_shmcico_module_t;

OBJ_CLASS_DECLARATION(mca_coll_shmcico_module_t);

/* component and module */
/** Whether the running Open MPI is the series this DSO was built for,
 *  with its objects laid out as this DSO's headers lay them out (says
 *  why not). */
bool mca_coll_shmcico_abi_matches(void);
int mca_coll_shmcico_init_query(bool enable_progress_threads,
                                bool enable_mpi_threads);
mca_coll_base_module_t *mca_coll_shmcico_comm_query(struct ompi_communicator_t *comm,
                                                    int *priority);

/** Make the communicator's segment (a collective step): whether it is
 *  ready (the module's state keeps the answer for later calls). */
bool mca_coll_shmcico_segment_setup(mca_coll_shmcico_module_t *module,
                                    struct ompi_communicator_t *comm);

/** Give up the module's segment and the process's state on it: keep the
 *  segment mapped for the next communicator of the same processes where
 *  it is ready and may be kept (coll_shmcico_keep.h), else unmap it. */
void mca_coll_shmcico_segment_release(mca_coll_shmcico_module_t *module);

/** The scratch space of the calls of a module on a segment; 0 or ENOMEM
 *  (mca_coll_shmcico_segment_release() frees what was allocated). */
int mca_coll_shmcico_module_alloc_scratch(mca_coll_shmcico_module_t *m, int size);

/**
 * Make the segment at first use when the component is lazy; true when
 * the module can serve calls.
 */
static inline bool mca_coll_shmcico_ready(mca_coll_shmcico_module_t *module,
                                          struct ompi_communicator_t *comm)
{
    if (OPAL_UNLIKELY(MCA_COLL_SHMCICO_SEGMENT_NONE == module->state)) {
        return mca_coll_shmcico_segment_setup(module, comm);
    }
    return MCA_COLL_SHMCICO_SEGMENT_READY == module->state;
}

/** This process's place in the communicator's Bcast tree for root (kept
 *  for the last root: mca_coll_shmcico_place_for()). */
static inline const mca_coll_shmcico_place_t *
mca_coll_shmcico_bcast_place(mca_coll_shmcico_module_t *module, int root)
{
    return mca_coll_shmcico_place_for(&module->tree, module->engine.rank, root,
                                      &module->bcast_place);
}

/** Add to one of the MPI_T counters, atomically where threads may count
 *  beside this one (threads: opal_using_threads(), which a caller that
 *  counts several asks once; no atomic for 0). */
static inline void mca_coll_shmcico_count_as(unsigned long long *counter, unsigned long long n,
                                             bool threads)
{
    if (!threads) {
        *counter += n;
    } else if (0 != n) {
        (void) __atomic_fetch_add(counter, n, __ATOMIC_RELAXED);
    }
}

/** Add to one of the MPI_T counters. */
static inline void mca_coll_shmcico_count(unsigned long long *counter, unsigned long long n)
{
    mca_coll_shmcico_count_as(counter, n, opal_using_threads());
}

/** Count a call handed to the previous component and say why (verbose
 *  level MCA_COLL_SHMCICO_VERBOSE_CALL); the node stages of a multi-node
 *  call (module->inner) are not counted as calls. */
void mca_coll_shmcico_fallback(const mca_coll_shmcico_module_t *module,
                               mca_coll_shmcico_op_t op,
                               struct ompi_communicator_t *comm, const char *why);

/** Mark a node communicator's module as inner, with the parameters in
 *  effect on the communicator it serves (the MCA values and that one's
 *  hints) unless its segment is made already (coll_shmcico_lazy 0), and
 *  return it (NULL when shmcico does not serve comm). */
mca_coll_shmcico_module_t *mca_coll_shmcico_set_inner(struct ompi_communicator_t *comm,
                                                      const mca_coll_shmcico_params_t *params);

/** Register the MCA parameters (coll_shmcico_params.c), and check them
 *  when the component opens. */
void mca_coll_shmcico_params_register(void);
void mca_coll_shmcico_params_check(void);

/* ------------------------------------------------------------------ */
/* Which module serves a communicator (coll_shmcico_registry.c)         */

/** Open while the component is; adding never allocates (false: the
 *  registry is closed); module_of() is NULL where shmcico does not serve
 *  comm; a module forgotten gets no more hint callbacks. */
void mca_coll_shmcico_registry_open(void);
void mca_coll_shmcico_registry_close(void);
bool mca_coll_shmcico_registry_add(struct ompi_communicator_t *comm,
                                   mca_coll_shmcico_module_t *module);
mca_coll_shmcico_module_t *mca_coll_shmcico_module_of(struct ompi_communicator_t *comm);
void mca_coll_shmcico_registry_forget(mca_coll_shmcico_module_t *module);

/* ------------------------------------------------------------------ */
/* Per-communicator hints (coll_shmcico_hints.c)                        */

/** Apply the communicator's shmcico_* info keys to the module and follow
 *  later MPI_Comm_set_info calls. */
void mca_coll_shmcico_hints_subscribe(mca_coll_shmcico_module_t *module,
                                      struct ompi_communicator_t *comm);

/** Put the values in effect into the communicator's info (after the
 *  segment is made: rank 0's, and the single copy that works). */
void mca_coll_shmcico_hints_publish(mca_coll_shmcico_module_t *module,
                                   struct ompi_communicator_t *comm);

/** The nearness watch's look at call seq of comm, where its period says
 *  so (coll_shmcico_nearness.h): counted, said at verbose level 10 where
 *  this process's view turned, and then put into the communicator's info. */
void mca_coll_shmcico_watch_look(mca_coll_shmcico_module_t *module,
                                 struct ompi_communicator_t *comm, uint64_t seq);

/** Names of the operations ("bcast", ...), of the single-copy modes and of
 *  the nearness choices. */
extern const char *const mca_coll_shmcico_op_names[MCA_COLL_SHMCICO_OP_COUNT];
extern const char *const mca_coll_shmcico_single_names[MCA_COLL_SHMCICO_SINGLE_COUNT];
extern const char *const mca_coll_shmcico_nearness_names[MCA_COLL_SHMCICO_NEARNESS_COUNT];

/* ------------------------------------------------------------------ */
/* Single copy (coll_shmcico_copy.c)                                    */

/** Whether this process can tell alone that the system refuses single
 *  copy between the job's processes (mca_coll_shmcico_refusal_certain(),
 *  from its own kernel copy, Yama's ptrace_scope and its capabilities):
 *  the default of coll_shmcico_fragment_size depends on it. */
bool mca_coll_shmcico_copy_refused_here(void);

/**
 * Choose how this process copies on the communicator (params'
 * single_copy): fills module->copy and the engine's copier; OFF (with a
 * reason in *why) when nothing is available.  Needs the segment's id
 * lines (pids) for CMA.
 */
void mca_coll_shmcico_copy_open(mca_coll_shmcico_module_t *module,
                                struct ompi_communicator_t *comm, const char **why);

/** Whether this process can read process peer's probe word through its
 *  copier (the setup's test of permissions, see docs/protocol.md). */
bool mca_coll_shmcico_copy_probe(mca_coll_shmcico_module_t *module, int peer);

/** Turn single copy off on this module (everyone agreed it is refused). */
void mca_coll_shmcico_copy_close(mca_coll_shmcico_module_t *module);

/* ------------------------------------------------------------------ */
/* Datatypes (coll_shmcico_datatype.c)                                  */

/** A stream over count elements of dtype at buf. */
void mca_coll_shmcico_dstream_init(mca_coll_shmcico_dstream_t *dstream,
                                   const void *buf, size_t count,
                                   struct ompi_datatype_t *dtype, bool sending);
void mca_coll_shmcico_dstream_fini(mca_coll_shmcico_dstream_t *dstream);

/** The region of count elements of dtype at buf, pieces of one element
 *  in pieces[max]; false when the layout is not worth a single copy
 *  (more pieces than max, or pieces too small on average).  *found: the
 *  pieces of a non-dense dtype already in pieces (their number, or -1
 *  for more than max), 0 when they are to be found (and *found says
 *  then): the blocks of one buffer of blocks share them, so they are
 *  found once per call, not once per block. */
bool mca_coll_shmcico_region_init(mca_coll_shmcico_region_t *region,
                                  mca_coll_shmcico_piece_t *pieces, uint64_t max,
                                  int64_t *found, const void *buf, size_t count,
                                  struct ompi_datatype_t *dtype);

/** Pack count elements of dtype at buf into packed (bytes returned);
 *  unpack up to bytes of packed into count elements at buf, never past
 *  them (bytes taken returned). */
size_t mca_coll_shmcico_pack(void *packed, const void *buf, size_t count,
                             struct ompi_datatype_t *dtype);
size_t mca_coll_shmcico_unpack(const void *packed, size_t bytes, void *buf, size_t count,
                               struct ompi_datatype_t *dtype);

/* ------------------------------------------------------------------ */
/* The serve skeleton (coll_shmcico_serve.c)                            */

/**
 * One call of a served operation, as every operation describes it: a
 * buffer of its own at every process (Bcast: the message; Scatter(v):
 * what it receives; Gather(v), Allgather(v): what it sends; MPI_IN_PLACE
 * where MPI allows it), and a buffer of blocks, one per process, at the
 * root (Scatter(v): sent; Gather(v): received) or everywhere
 * (Allgather(v): received).
 */
typedef struct mca_coll_shmcico_args_t {
    mca_coll_shmcico_op_t op;
    int root;                           /**< -1: Allgather(v) */
    const void *own_buf;
    size_t own_count;
    struct ompi_datatype_t *own_type;
    const void *blocks_buf;             /**< NULL for Bcast */
    mca_coll_shmcico_blocks_t layout;
    struct ompi_datatype_t *blocks_type;
} mca_coll_shmcico_args_t;

/**
 * The small-call path (coll_shmcico_serve_small.c, coll_shmcico_small.h):
 * serve the call when every block this process has is one fragment of a
 * dense datatype below the single-copy crossover and no size limit is
 * set; otherwise hand it, untouched, to the skeleton (Allgather(v): with
 * its own block written, MCA_COLL_SHMCICO_SMALL_SENT).
 */
mca_coll_shmcico_small_t mca_coll_shmcico_serve_small(const mca_coll_shmcico_args_t *args,
                                                      mca_coll_shmcico_module_t *module,
                                                      int me, int p,
                                                      mca_coll_shmcico_result_t *result);

/** Serve a call; false: hand it to the previous component (counted as a
 *  fallback), else *rc is its MPI result. */
bool mca_coll_shmcico_serve(const mca_coll_shmcico_args_t *args,
                            struct ompi_communicator_t *comm,
                            mca_coll_shmcico_module_t *module, int *rc);

/* operations */
int mca_coll_shmcico_bcast_intra(void *buff, int count,
                                 struct ompi_datatype_t *datatype, int root,
                                 struct ompi_communicator_t *comm,
                                 mca_coll_base_module_t *module);
int mca_coll_shmcico_scatter_intra(const void *sbuf, int scount,
                                   struct ompi_datatype_t *sdtype, void *rbuf,
                                   int rcount, struct ompi_datatype_t *rdtype,
                                   int root, struct ompi_communicator_t *comm,
                                   mca_coll_base_module_t *module);
int mca_coll_shmcico_scatterv_intra(const void *sbuf, const int *scounts,
                                    const int *displs,
                                    struct ompi_datatype_t *sdtype, void *rbuf,
                                    int rcount, struct ompi_datatype_t *rdtype,
                                    int root, struct ompi_communicator_t *comm,
                                    mca_coll_base_module_t *module);
int mca_coll_shmcico_gather_intra(const void *sbuf, int scount,
                                  struct ompi_datatype_t *sdtype, void *rbuf,
                                  int rcount, struct ompi_datatype_t *rdtype,
                                  int root, struct ompi_communicator_t *comm,
                                  mca_coll_base_module_t *module);
int mca_coll_shmcico_gatherv_intra(const void *sbuf, int scount,
                                   struct ompi_datatype_t *sdtype, void *rbuf,
                                   const int *rcounts, const int *displs,
                                   struct ompi_datatype_t *rdtype, int root,
                                   struct ompi_communicator_t *comm,
                                   mca_coll_base_module_t *module);
int mca_coll_shmcico_allgather_intra(const void *sbuf, int scount,
                                     struct ompi_datatype_t *sdtype, void *rbuf,
                                     int rcount, struct ompi_datatype_t *rdtype,
                                     struct ompi_communicator_t *comm,
                                     mca_coll_base_module_t *module);
int mca_coll_shmcico_allgatherv_intra(const void *sbuf, int scount,
                                      struct ompi_datatype_t *sdtype, void *rbuf,
                                      const int *rcounts, const int *displs,
                                      struct ompi_datatype_t *rdtype,
                                      struct ompi_communicator_t *comm,
                                      mca_coll_base_module_t *module);

END_C_DECLS

#endif /* MCA_COLL_SHMCICO_EXPORT_H */
