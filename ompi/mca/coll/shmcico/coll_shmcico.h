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
 * coll/shmcico: copy-in/copy-out collectives through a NUMA-aware shared
 * segment per communicator.  This header is the Open MPI glue: the
 * component, the module, and the entry points of the operations.  The
 * engine (segment layout, bank protocol, trees, data movements) lives in
 * coll_shmcico_engine.h and knows nothing of MPI.
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

#include "coll_shmcico_compat.h"
#include "coll_shmcico_engine.h"
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

/** Parameters a communicator's segment is made with (all processes
 *  must agree on them; they are read once, at segment creation). */
typedef struct mca_coll_shmcico_params_t {
    int slots;
    int banks;
    size_t fragment_size;
    int tree;
    int tree_degree;
    size_t max_bytes[MCA_COLL_SHMCICO_OP_COUNT];   /**< 0: no limit */
} mca_coll_shmcico_params_t;

typedef struct mca_coll_shmcico_component_t {
    mca_coll_base_component_t super;

    int priority;
    mca_coll_shmcico_params_t params;
    bool numa;
    int max_procs;
    char *backing_dir;
    bool lazy;
    int verbose;
    int output;

    size_t max_memory;              /**< segment bytes a process may map; 0: no limit */

    /* MPI_T performance variables: counters of this process */
    unsigned long long served[MCA_COLL_SHMCICO_OP_COUNT];
    unsigned long long fallback[MCA_COLL_SHMCICO_OP_COUNT];
    unsigned long long bytes[MCA_COLL_SHMCICO_OP_COUNT];  /**< through the segment */
    unsigned long long segments_created;
    unsigned long long segments_failed;
    unsigned long long numa_pages_local;
    unsigned long long numa_pages_remote;
    unsigned long long segment_bytes;   /**< bytes of segments mapped now */
} mca_coll_shmcico_component_t;

MCA_COLL_SHMCICO_DECLSPEC extern mca_coll_shmcico_component_t mca_coll_shmcico_component;

/** Where a module's segment stands. */
typedef enum {
    MCA_COLL_SHMCICO_SEGMENT_NONE = 0,  /**< not tried yet (lazy) */
    MCA_COLL_SHMCICO_SEGMENT_READY,
    MCA_COLL_SHMCICO_SEGMENT_FAILED     /**< every call falls back */
} mca_coll_shmcico_segment_state_t;

/** The functions and modules this component falls back to. */
typedef struct mca_coll_shmcico_previous_t {
    mca_coll_base_module_bcast_fn_t bcast;
    mca_coll_base_module_t *bcast_module;
    mca_coll_base_module_scatter_fn_t scatter;
    mca_coll_base_module_t *scatter_module;
    mca_coll_base_module_scatterv_fn_t scatterv;
    mca_coll_base_module_t *scatterv_module;
    mca_coll_base_module_gather_fn_t gather;
    mca_coll_base_module_t *gather_module;
    mca_coll_base_module_gatherv_fn_t gatherv;
    mca_coll_base_module_t *gatherv_module;
    mca_coll_base_module_allgather_fn_t allgather;
    mca_coll_base_module_t *allgather_module;
    mca_coll_base_module_allgatherv_fn_t allgatherv;
    mca_coll_base_module_t *allgatherv_module;
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

typedef struct mca_coll_shmcico_module_t {
    mca_coll_base_module_t super;

    mca_coll_shmcico_segment_state_t state;
    mca_coll_shmcico_params_t params;
    mca_coll_shmcico_engine_t engine;
    mca_coll_shmcico_tree_t tree;
    /* scratch of the vector operations, one entry per process */
    mca_coll_shmcico_dstream_t *blocks;
    mca_coll_shmcico_stream_t **streams;
    uint64_t *counts;
    mca_coll_shmcico_previous_t previous;
} mca_coll_shmcico_module_t;

OBJ_CLASS_DECLARATION(mca_coll_shmcico_module_t);

/* component and module */
int mca_coll_shmcico_init_query(bool enable_progress_threads,
                                bool enable_mpi_threads);
mca_coll_base_module_t *mca_coll_shmcico_comm_query(struct ompi_communicator_t *comm,
                                                    int *priority);

/** Make the communicator's segment (a collective step); the module's
 *  state says how it went. */
void mca_coll_shmcico_segment_setup(mca_coll_shmcico_module_t *module,
                                    struct ompi_communicator_t *comm);

void mca_coll_shmcico_segment_release(mca_coll_shmcico_module_t *module);

/**
 * Make the segment at first use when the component is lazy; true when
 * the module can serve calls.
 */
static inline bool mca_coll_shmcico_ready(mca_coll_shmcico_module_t *module,
                                          struct ompi_communicator_t *comm)
{
    if (OPAL_UNLIKELY(MCA_COLL_SHMCICO_SEGMENT_NONE == module->state)) {
        mca_coll_shmcico_segment_setup(module, comm);
    }
    return MCA_COLL_SHMCICO_SEGMENT_READY == module->state;
}

/** Add to one of the MPI_T counters (atomically when threads are in
 *  use). */
void mca_coll_shmcico_count(unsigned long long *counter, unsigned long long n);

/** Name of an operation ("bcast", ...). */
const char *mca_coll_shmcico_op_name(mca_coll_shmcico_op_t op);

/** Count a call handed to the previous component and say why (verbose
 *  level MCA_COLL_SHMCICO_VERBOSE_CALL). */
void mca_coll_shmcico_fallback(mca_coll_shmcico_op_t op,
                               struct ompi_communicator_t *comm,
                               const char *why);

/**
 * Account for what the engine returned: true when the call was served
 * (*rc is then its MPI result: the owner's error when it found its
 * arguments bad, else this process's own error if any, else a
 * truncation or success), false when it must go to the previous
 * component (counted as a fallback).
 */
bool mca_coll_shmcico_served(mca_coll_shmcico_op_t op,
                             struct ompi_communicator_t *comm,
                             const mca_coll_shmcico_module_t *module, int engine_ret,
                             int own_error, int *rc);

/**
 * Serve a call that moves no bytes at any process without the segment:
 * count it as served, *rc = MPI_SUCCESS, true.  Only for calls where one
 * process can tell from its own arguments that no process moves a byte
 * (Open MPI itself skips some of them at some processes only: a count
 * of 0 of a datatype of size 0 where the others pass a count).
 */
bool mca_coll_shmcico_served_empty(mca_coll_shmcico_op_t op,
                                   struct ompi_communicator_t *comm, int *rc);



/** Whether bytes are over the communicator's limit for op. */
static inline bool mca_coll_shmcico_over_limit(const mca_coll_shmcico_module_t *module,
                                               mca_coll_shmcico_op_t op,
                                               size_t bytes)
{
    size_t limit = module->params.max_bytes[op];

    return 0 != limit && bytes > limit;
}

/** The owner's decision: report its own error to everyone, hand a call
 *  over the size limit back, or serve. */
static inline uint32_t mca_coll_shmcico_decide(const mca_coll_shmcico_module_t *module,
                                               mca_coll_shmcico_op_t op, int own_error,
                                               uint64_t largest)
{
    if (MPI_SUCCESS != own_error) {
        return MCA_COLL_SHMCICO_MODE_FAULT;
    }
    return mca_coll_shmcico_over_limit(module, op, largest) ? MCA_COLL_SHMCICO_MODE_DECLINE
                                                            : MCA_COLL_SHMCICO_MODE_SERVE;
}

/* datatype streams */

/** A stream over count elements of dtype at buf. */
void mca_coll_shmcico_dstream_init(mca_coll_shmcico_dstream_t *dstream,
                                   const void *buf, size_t count,
                                   struct ompi_datatype_t *dtype, bool sending);
void mca_coll_shmcico_dstream_fini(mca_coll_shmcico_dstream_t *dstream);

/** Where the per-process blocks of a vector operation lie in a buffer:
 *  counts and displacements in elements, or (counts == NULL) count
 *  elements for every process, one after the other. */
typedef struct mca_coll_shmcico_blocks_t {
    const int *counts;
    const int *displs;
    int count;
} mca_coll_shmcico_blocks_t;

/**
 * Open a stream per process block of buf into module->blocks, point
 * module->streams at them, put the bytes of each block into
 * module->counts, and return the largest.  Offsets and sizes are 64-bit.
 */
uint64_t mca_coll_shmcico_blocks_open(mca_coll_shmcico_module_t *module,
                                      const void *buf,
                                      const mca_coll_shmcico_blocks_t *layout,
                                      struct ompi_datatype_t *dtype, bool sending);
void mca_coll_shmcico_blocks_close(mca_coll_shmcico_module_t *module);

/** Empty streams for every block: a process whose own arguments are bad
 *  still takes part in the protocol, moving nothing. */
void mca_coll_shmcico_blocks_empty(mca_coll_shmcico_module_t *module);

/* arguments */

/** MPI_ERR_COUNT for a negative count, MPI_ERR_BUFFER for data that would
 *  start in page 0 (a NULL buffer with a count), else MPI_SUCCESS. */
int mca_coll_shmcico_check_buffer(const void *buf, int count,
                                  struct ompi_datatype_t *dtype);

/** The same for the per-process blocks of a vector operation. */
int mca_coll_shmcico_check_blocks(const void *buf,
                                  const mca_coll_shmcico_blocks_t *layout,
                                  struct ompi_datatype_t *dtype, int nprocs);

/** Whether count elements of dtype are no bytes at all (a count of 0 or
 *  a datatype of size 0); false for a negative count. */
bool mca_coll_shmcico_no_bytes(int count, struct ompi_datatype_t *dtype);

/** The same for all the blocks of a vector operation. */
bool mca_coll_shmcico_blocks_no_bytes(const mca_coll_shmcico_blocks_t *layout,
                                      struct ompi_datatype_t *dtype, int nprocs);

/** Start of process i's block in buf. */
void *mca_coll_shmcico_block_start(const void *buf,
                                   const mca_coll_shmcico_blocks_t *layout,
                                   struct ompi_datatype_t *dtype, int i);

/** Elements in process i's block. */
static inline size_t mca_coll_shmcico_block_count(const mca_coll_shmcico_blocks_t *layout,
                                                  int i)
{
    return (size_t) (NULL != layout->counts ? layout->counts[i] : layout->count);
}

/**
 * Scatter(v) and Gather(v) are mirror images: the root has one block per
 * process in a buffer of blocks, every process a buffer of its own (at
 * the root MPI_IN_PLACE leaves its block where it is).  One function
 * serves both.
 */
typedef struct mca_coll_shmcico_rooted_t {
    mca_coll_shmcico_op_t op;
    bool blocks_sent;                   /**< scatter: the root sends them */
    int root;
    const void *own_buf;
    size_t own_count;
    struct ompi_datatype_t *own_type;
    const void *blocks_buf;             /**< significant at the root only */
    mca_coll_shmcico_blocks_t layout;
    struct ompi_datatype_t *blocks_type;
} mca_coll_shmcico_rooted_t;

/** Serve a Scatter(v) or Gather(v); false: hand it to the previous
 *  component (see mca_coll_shmcico_served). */
bool mca_coll_shmcico_rooted_serve(const mca_coll_shmcico_rooted_t *call,
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
