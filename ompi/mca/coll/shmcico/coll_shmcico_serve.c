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
 * The serve skeleton of every operation: check the arguments, open the
 * buffers as the engine sees them (streams, regions, and each block's
 * transport), let the engine move the data, account for the result.
 *
 * Each process decides alone, from what MPI requires to match (the
 * bytes of each block's type signature) and the communicator's
 * parameters, whether a block goes by single copy; the side that holds
 * the data leads and the other follows (docs/protocol.md).  Only a size
 * limit (coll_shmcico_<op>_max_bytes) is one process's decision: the
 * root's, or rank 0's for Allgather(v); Bcast and Scatter(v) receivers
 * learn it from the flag they wait for anyway, Gather(v) and
 * Allgather(v) senders wait for it when a limit is set.
 */

#include "ompi_config.h"

#include <errno.h>

#include "coll_shmcico.h"
#include "coll_shmcico_choice.h"
#include "coll_shmcico_net.h"
#include "coll_shmcico_residency.h"

static bool is_rooted(mca_coll_shmcico_op_t op)
{
    return MCA_COLL_SHMCICO_OP_ALLGATHER != op && MCA_COLL_SHMCICO_OP_ALLGATHERV != op;
}

/* whether process me has a buffer of blocks */
static bool has_blocks(const mca_coll_shmcico_args_t *a, int me)
{
    return MCA_COLL_SHMCICO_OP_BCAST != a->op && (!is_rooted(a->op) || me == a->root);
}

/* whether this process's own buffer sends */
static bool own_sends(const mca_coll_shmcico_args_t *a, int me)
{
    switch (a->op) {
    case MCA_COLL_SHMCICO_OP_BCAST: return me == a->root;
    case MCA_COLL_SHMCICO_OP_SCATTER:
    case MCA_COLL_SHMCICO_OP_SCATTERV: return false;
    default: return true;
    }
}

/* whether this process's own block goes to other processes */
static bool own_goes_out(const mca_coll_shmcico_args_t *a, int me)
{
    switch (a->op) {
    case MCA_COLL_SHMCICO_OP_BCAST: return me == a->root;
    case MCA_COLL_SHMCICO_OP_GATHER:
    case MCA_COLL_SHMCICO_OP_GATHERV: return me != a->root;
    default: return own_sends(a, me);
    }
}

/* Whether this process can tell from its own arguments that no process
 * moves a byte: every block has the same type signature (Scatter,
 * Gather, Bcast), or every process knows every count (Allgather(v)).
 * Not so for Scatterv and Gatherv, where only the root sees every count.
 * (Open MPI skips some of these calls at some processes only.)  A
 * Scatter or Gather root whose blocks are empty but whose own block is
 * not has arguments that disagree with themselves: it takes part, so
 * that processes whose blocks are not empty are not left waiting (they
 * get what there is, or the root MPI_ERR_TRUNCATE). */
static bool moves_nothing(const mca_coll_shmcico_args_t *a, int me, int p)
{
    switch (a->op) {
    case MCA_COLL_SHMCICO_OP_BCAST:
        return mca_coll_shmcico_no_bytes((int) a->own_count, a->own_type);
    case MCA_COLL_SHMCICO_OP_SCATTER:
    case MCA_COLL_SHMCICO_OP_GATHER:
        if (me != a->root) {
            return mca_coll_shmcico_no_bytes((int) a->own_count, a->own_type);
        }
        return mca_coll_shmcico_no_bytes(a->layout.count, a->blocks_type)
            && (MPI_IN_PLACE == a->own_buf
                || mca_coll_shmcico_no_bytes((int) a->own_count, a->own_type));
    case MCA_COLL_SHMCICO_OP_ALLGATHER:
    case MCA_COLL_SHMCICO_OP_ALLGATHERV:
        return mca_coll_shmcico_blocks_no_bytes(&a->layout, a->blocks_type, p);
    default:
        return false;
    }
}

/* ------------------------------------------------------------------ */
/* Opening the buffers                                                  */

/* Who helps a block's reader (coll_shmcico_single.h): a Bcast root at
 * once, a Gather root by pulling, a Scatter root by pushing after its
 * own block; nobody an Allgather(v) reader. */
static mca_coll_shmcico_help_t helper_of(mca_coll_shmcico_op_t op, int nprocs)
{
    switch (op) {
    case MCA_COLL_SHMCICO_OP_SCATTER:
    case MCA_COLL_SHMCICO_OP_SCATTERV: return mca_coll_shmcico_rooted_help(true, nprocs);
    case MCA_COLL_SHMCICO_OP_GATHER:
    case MCA_COLL_SHMCICO_OP_GATHERV: return mca_coll_shmcico_rooted_help(false, nprocs);
    case MCA_COLL_SHMCICO_OP_ALLGATHER:
    case MCA_COLL_SHMCICO_OP_ALLGATHERV: return MCA_COLL_SHMCICO_HELP_NONE;
    default: return MCA_COLL_SHMCICO_HELP_EARLY;        /* Bcast */
    }
}

/* Whether a block of this size goes by single copy: its operation's
 * crossover, and for a block this process sends to another (goes_out)
 * the communicator's slow-kernel floor (coll_shmcico_setup_kernel.c) */
static bool single_block(const mca_coll_shmcico_module_t *module, mca_coll_shmcico_op_t op,
                         uint64_t bytes, bool goes_out)
{
    return mca_coll_shmcico_single_by_size(module, op, bytes)
        && !(goes_out && bytes < module->slow_kernel_min[op]);
}

/* A block this process sends to another by single copy goes through the
 * queues when the cache probe finds it cold (coll_shmcico_residency.h);
 * returns whether it did */
static bool probe_block(const mca_coll_shmcico_module_t *module, mca_coll_shmcico_op_t op,
                        mca_coll_shmcico_block_t *block)
{
    const mca_coll_shmcico_component_t *c = &mca_coll_shmcico_component;
    bool cold = block->single && block->stream->length <= module->probe_max[op]
        && mca_coll_shmcico_residency_cold(block->region, c->probe_threshold);

    if (cold) {
        *block = (mca_coll_shmcico_block_t) { .stream = block->stream };
    }
    return cold;
}

/* One block: its stream, and its region when it may go by single copy
 * (pieces, *found: as mca_coll_shmcico_region_init() takes them); a
 * block that goes out to another process is probed: returns whether it
 * was found cold. */
static bool open_block(mca_coll_shmcico_module_t *module, mca_coll_shmcico_op_t op, int i,
                       const void *buf, size_t count, struct ompi_datatype_t *dtype,
                       bool sending, bool goes_out, mca_coll_shmcico_piece_t *pieces,
                       int64_t *found)
{
    mca_coll_shmcico_block_t *block = &module->blocks[i];
    uint64_t bytes;

    mca_coll_shmcico_dstream_init(&module->streams[i], buf, count, dtype, sending);
    bytes = module->streams[i].stream.length;
    module->streams[i].stream.streaming = sending && NULL != module->streams[i].stream.contig
        && mca_coll_shmcico_streaming_by_size(module, bytes);
    module->streams[i].stream.own_streaming = !sending
        && NULL != module->streams[i].stream.contig
        && mca_coll_shmcico_own_streaming_by_size(module, op, bytes);
    *block = (mca_coll_shmcico_block_t) { .stream = &module->streams[i].stream };
    if (single_block(module, op, bytes, goes_out)
        && mca_coll_shmcico_region_init(&module->regions[i], pieces, module->max_pieces,
                                        found, buf, count, dtype)) {
        block->region = &module->regions[i];
        block->single = true;
        /* only a single copy has chunks */
        block->chunk = mca_coll_shmcico_chunk_for(bytes, helper_of(op, module->engine.nprocs),
                                                  module->params.chunk);
    }
    return goes_out && probe_block(module, op, block);
}

/* every block of buf, or empty ones when the arguments are bad; the
 * blocks a Scatter(v) root sends are probed, and *cold counts those
 * found cold */
static int open_blocks(const mca_coll_shmcico_args_t *a, mca_coll_shmcico_module_t *module,
                       int p, bool sending, uint64_t *largest, int *cold)
{
    int error = mca_coll_shmcico_check_blocks(a->blocks_buf, &a->layout, a->blocks_type, p);
    int64_t found = 0;                  /* the datatype's pieces, once */

    *largest = 0;
    for (int i = 0; i < p; ++i) {
        bool ok = MPI_SUCCESS == error;
        *cold += open_block(module, a->op, i,
                            ok ? mca_coll_shmcico_block_start(a->blocks_buf, &a->layout,
                                                              a->blocks_type, i) : NULL,
                            ok ? mca_coll_shmcico_block_count(&a->layout, i) : 0,
                            a->blocks_type, sending, sending && i != a->root,
                            module->pieces[1], &found);
        *largest = module->streams[i].stream.length > *largest
            ? module->streams[i].stream.length : *largest;
    }
    return error;
}

/* MPI_IN_PLACE where MPI gives it no meaning (a Bcast, a Scatter(v) or
 * Gather(v) process other than the root): Open MPI's argument checks
 * catch it unless mpi_param_check is 0 */
static bool in_place_wrong(const mca_coll_shmcico_args_t *a, int me)
{
    return MPI_IN_PLACE == a->own_buf && is_rooted(a->op)
        && (MCA_COLL_SHMCICO_OP_BCAST == a->op || me != a->root);
}

/* this process's own buffer, as block p (empty when its arguments are
 * bad), probed when it goes to other processes (*cold counts it when
 * cold); MPI_IN_PLACE leaves none, but an Allgather(v) sends its block
 * from the buffer of blocks then, which blocks_error judged */
static int open_own(const mca_coll_shmcico_args_t *a, mca_coll_shmcico_module_t *module,
                    int me, int p, int blocks_error, bool *none, int *cold)
{
    const void *buf = a->own_buf;
    size_t count = a->own_count;
    struct ompi_datatype_t *type = a->own_type;
    bool wrong = in_place_wrong(a, me);
    int error;

    *none = MPI_IN_PLACE == buf && !wrong;
    if (*none && is_rooted(a->op)) {
        return MPI_SUCCESS;
    }
    if (*none) {
        buf = mca_coll_shmcico_block_start(a->blocks_buf, &a->layout, a->blocks_type, me);
        count = mca_coll_shmcico_block_count(&a->layout, me);
        type = a->blocks_type;
    }
    /* in place, an Allgather(v) block is only as good as the buffer of
     * blocks it sits in (MPI_IN_PLACE there would be address 1) */
    error = wrong ? MPI_ERR_ARG
            : *none && MPI_SUCCESS != blocks_error ? blocks_error
            : mca_coll_shmcico_check_buffer(buf, (int) count, type);
    if (MPI_SUCCESS != error) {
        buf = NULL;
        count = 0;
    }
    *cold += open_block(module, a->op, p, buf, count, type, own_sends(a, me),
                        own_goes_out(a, me), module->pieces[0], &(int64_t) { 0 });
    if (!*none && !is_rooted(a->op)) {
        mca_coll_shmcico_dstream_init(&module->own_copy, buf, count, type, true);
    }
    return error;
}

/* Where this process copies its own block to (none in place, or for a
 * process that is not a root of Scatter(v) or Gather(v)) */
static mca_coll_shmcico_stream_t *own_destination(const mca_coll_shmcico_args_t *a,
                                                  mca_coll_shmcico_module_t *module, int me,
                                                  int p, bool in_place)
{
    bool scatter = MCA_COLL_SHMCICO_OP_SCATTER == a->op
                   || MCA_COLL_SHMCICO_OP_SCATTERV == a->op;

    if (in_place || MCA_COLL_SHMCICO_OP_BCAST == a->op || (is_rooted(a->op) && me != a->root)) {
        return NULL;
    }
    return &module->streams[scatter ? p : me].stream;
}

/* An own block from MCA_COLL_SHMCICO_OWN_PROBE_MIN on, below the size
 * that streams it anyway, goes with streaming stores where the cache
 * probe finds its destination cold (docs/design.md, "Streaming stores";
 * coll_shmcico_<op>_own_streamed_bytes counts its bytes); an
 * own_streaming_min of 0 still means never. */
static void probe_own_destination(const mca_coll_shmcico_args_t *a,
                                  mca_coll_shmcico_module_t *module, int me, int p,
                                  bool in_place)
{
    mca_coll_shmcico_stream_t *dst = own_destination(a, module, me, p, in_place);
    mca_coll_shmcico_region_t region;

    if (NULL == dst || dst->length < MCA_COLL_SHMCICO_OWN_PROBE_MIN || dst->own_streaming
        || NULL == dst->contig || !mca_coll_shmcico_streaming_stores
        || 0 == module->params.own_streaming_min[a->op]) {
        return;
    }
    mca_coll_shmcico_region_contig(&region, (void *) dst->contig, dst->length);
    dst->own_streaming = mca_coll_shmcico_residency_cold(
        &region, mca_coll_shmcico_component.probe_threshold);
}

static void close_all(const mca_coll_shmcico_args_t *a, mca_coll_shmcico_module_t *module,
                      int me, int p, bool in_place)
{
    if (has_blocks(a, me)) {
        for (int i = 0; i < p; ++i) {
            mca_coll_shmcico_dstream_fini(&module->streams[i]);
        }
    }
    if (!in_place || !is_rooted(a->op)) {
        mca_coll_shmcico_dstream_fini(&module->streams[p]);
    }
    if (!in_place && !is_rooted(a->op)) {
        mca_coll_shmcico_dstream_fini(&module->own_copy);
    }
}

/* ------------------------------------------------------------------ */
/* Results                                                              */

/* A call that moves nothing: done, without a setup, where the
 * communicator has not fallen back for good (then it goes on as every
 * other call of it does: off the path of the calls that move bytes) */
static bool served_empty(const mca_coll_shmcico_module_t *module, mca_coll_shmcico_op_t op,
                         struct ompi_communicator_t *comm, int *rc)
{
    if (MCA_COLL_SHMCICO_SEGMENT_FAILED == module->state) {
        mca_coll_shmcico_fallback(module, op, comm,
                                  module->multinode ? "not served across nodes" : "no segment");
        return false;
    }
    if (!module->inner) {
        mca_coll_shmcico_count(&mca_coll_shmcico_component.served[op], 1);
        mca_coll_shmcico_count(&mca_coll_shmcico_component.multinode_served[op],
                               module->multinode);
    }
    MCA_COLL_SHMCICO_VERBOSE(MCA_COLL_SHMCICO_VERBOSE_CALL,
                             MCA_COLL_SHMCICO_COMM_FMT "%s of no bytes: done",
                             MCA_COLL_SHMCICO_COMM_ARGS(comm), mca_coll_shmcico_op_names[op]);
    *rc = MPI_SUCCESS;
    return true;
}

/* the MPI result: this process's own bad arguments first, then the
 * root's, a failed single copy, a truncation */
static int result_code(const mca_coll_shmcico_result_t *r, int own_error)
{
    if (MPI_SUCCESS != own_error) {
        return own_error;
    }
    switch (r->status) {
    case MCA_COLL_SHMCICO_FAULTED: return r->mpi_error;
    case MCA_COLL_SHMCICO_COPY_FAILED: return MPI_ERR_OTHER;
    case MCA_COLL_SHMCICO_TRUNCATED: return MPI_ERR_TRUNCATE;
    default: return MPI_SUCCESS;
    }
}

/* What a served call moved, into the MPI_T counters, with one look at
 * the threads level: this is on the path of every call of a few bytes
 * (call: a call of the user's, not a node stage; small: served by the
 * small path). */
static void count_served(mca_coll_shmcico_component_t *c, mca_coll_shmcico_op_t op,
                         const mca_coll_shmcico_result_t *r, bool call, bool small)
{
    bool threads = opal_using_threads();

    mca_coll_shmcico_count_as(&c->served[op], call, threads);
    mca_coll_shmcico_count_as(&c->small[op], call && small, threads);
    mca_coll_shmcico_count_as(&c->queued[op], r->used_queue, threads);
    mca_coll_shmcico_count_as(&c->single[op], r->used_single, threads);
    mca_coll_shmcico_count_as(&c->bytes[op], r->queued, threads);
    mca_coll_shmcico_count_as(&c->single_bytes[op], r->copied, threads);
    mca_coll_shmcico_count_as(&c->streamed_bytes[op], r->streamed, threads);
    mca_coll_shmcico_count_as(&c->own_streamed_bytes[op], r->own_streamed, threads);
}

/* small: the call was the small path's (inlined: the path of every call
 * of a few bytes ends here) */
static inline __opal_attribute_always_inline__ bool
account(const mca_coll_shmcico_module_t *module, mca_coll_shmcico_op_t op,
        struct ompi_communicator_t *comm, const mca_coll_shmcico_result_t *r, int own_error,
        bool small, int *rc)
{
    mca_coll_shmcico_component_t *c = &mca_coll_shmcico_component;

    if (MCA_COLL_SHMCICO_DECLINED == r->status) {
        char why[96];
        snprintf(why, sizeof(why), "over coll_shmcico_%s_max_bytes at the deciding process",
                 mca_coll_shmcico_op_names[op]);
        mca_coll_shmcico_fallback(module, op, comm, why);
        return false;
    }
    count_served(c, op, r, !module->inner, small);
    *rc = result_code(r, own_error);
    if (MCA_COLL_SHMCICO_COPY_FAILED == r->status) {
        MCA_COLL_SHMCICO_VERBOSE(MCA_COLL_SHMCICO_VERBOSE_WARN,
                                 MCA_COLL_SHMCICO_COMM_FMT "%s: a single copy failed (%s)",
                                 MCA_COLL_SHMCICO_COMM_ARGS(comm),
                                 mca_coll_shmcico_op_names[op], strerror(r->copy_errno));
    } else if (MPI_SUCCESS != *rc && MPI_ERR_TRUNCATE != *rc) {
        MCA_COLL_SHMCICO_VERBOSE(MCA_COLL_SHMCICO_VERBOSE_CALL,
                                 MCA_COLL_SHMCICO_COMM_FMT "%s with bad arguments: "
                                 "MPI error class %d, every process kept in step",
                                 MCA_COLL_SHMCICO_COMM_ARGS(comm),
                                 mca_coll_shmcico_op_names[op], *rc);
    }
    return true;
}

/* ------------------------------------------------------------------ */
/* Across nodes (coll_shmcico_net.h)                                    */

static bool net_ready(mca_coll_shmcico_module_t *module, struct ompi_communicator_t *comm)
{
    int err;

    if (MCA_COLL_SHMCICO_SEGMENT_NONE == module->state) {
        err = mca_coll_shmcico_net_setup(module, comm);
        module->state = 0 == err ? MCA_COLL_SHMCICO_SEGMENT_READY
                                 : MCA_COLL_SHMCICO_SEGMENT_FAILED;
        if (0 != err) {
            MCA_COLL_SHMCICO_VERBOSE(MCA_COLL_SHMCICO_VERBOSE_COMM,
                                     MCA_COLL_SHMCICO_COMM_FMT "not served across nodes: %s",
                                     MCA_COLL_SHMCICO_COMM_ARGS(comm),
                                     ENOTSUP == err ? "every node holds one process"
                                                    : strerror(err));
        } else {
            MCA_COLL_SHMCICO_VERBOSE(MCA_COLL_SHMCICO_VERBOSE_COMM,
                                     MCA_COLL_SHMCICO_COMM_FMT "split into %d nodes: this "
                                     "process on node %d of %d processes, led by rank %d",
                                     MCA_COLL_SHMCICO_COMM_ARGS(comm), module->net.nnodes,
                                     module->net.my_node, ompi_comm_size(module->net.node_comm),
                                     module->net.leader[module->net.my_node]);
        }
    }
    return MCA_COLL_SHMCICO_SEGMENT_READY == module->state;
}

static bool serve_across_nodes(const mca_coll_shmcico_args_t *a,
                               struct ompi_communicator_t *comm,
                               mca_coll_shmcico_module_t *module, int *rc)
{
    if (!net_ready(module, comm)) {
        mca_coll_shmcico_fallback(module, a->op, comm, "not served across nodes");
        return false;
    }
    switch (a->op) {
    case MCA_COLL_SHMCICO_OP_BCAST:
        *rc = mca_coll_shmcico_net_bcast(a, comm, module);
        break;
    case MCA_COLL_SHMCICO_OP_SCATTER:
    case MCA_COLL_SHMCICO_OP_SCATTERV:
        *rc = mca_coll_shmcico_net_scatter(a, comm, module);
        break;
    case MCA_COLL_SHMCICO_OP_GATHER:
    case MCA_COLL_SHMCICO_OP_GATHERV:
        *rc = mca_coll_shmcico_net_gather(a, comm, module);
        break;
    default:
        *rc = mca_coll_shmcico_net_allgather(a, comm, module);
        break;
    }
    mca_coll_shmcico_count(&mca_coll_shmcico_component.served[a->op], 1);
    mca_coll_shmcico_count(&mca_coll_shmcico_component.multinode_served[a->op], 1);
    return true;
}

/* The error this process's data carries to the others (FAULT): a root's
 * bad buffer of blocks, else a sender's bad own buffer.  An Allgather(v)
 * process's data is its send block alone (open_own() judged it, in place
 * with the buffer of blocks): with bad receive arguments it still sends
 * it, so the others get every block and it alone its error. */
static int send_error(const mca_coll_shmcico_args_t *a, int me, int blocks_error,
                      int own_error)
{
    if (!is_rooted(a->op)) {
        return own_error;
    }
    return MPI_SUCCESS != blocks_error ? blocks_error
           : own_sends(a, me) ? own_error : MPI_SUCCESS;
}

/* ------------------------------------------------------------------ */
/* The skeleton                                                         */

/* The small-call path first (coll_shmcico_serve_small.c).  SERVED: the
 * call is accounted; SENT: *written is what it wrote of this process's
 * Allgather(v) block before it handed the call over; HANDED: it wrote
 * nothing (*written empty). */
static mca_coll_shmcico_small_t served_small(const mca_coll_shmcico_args_t *a,
                                             struct ompi_communicator_t *comm,
                                             mca_coll_shmcico_module_t *module, int me, int p,
                                             int *rc, mca_coll_shmcico_result_t *written)
{
    mca_coll_shmcico_small_t path = mca_coll_shmcico_serve_small(a, module, me, p, written);

    if (OPAL_LIKELY(MCA_COLL_SHMCICO_SMALL_SERVED == path)) {
        (void) account(module, a->op, comm, written, MPI_SUCCESS, true, rc);
    } else if (MCA_COLL_SHMCICO_SMALL_HANDED == path) {
        *written = (mca_coll_shmcico_result_t) { .status = MCA_COLL_SHMCICO_DONE };
    }
    return path;
}

/* sent: the small path wrote this process's Allgather(v) block already */
static mca_coll_shmcico_result_t move(const mca_coll_shmcico_args_t *a,
                                      mca_coll_shmcico_module_t *module, int p,
                                      bool in_place, bool sent,
                                      const mca_coll_shmcico_verdict_t *v)
{
    mca_coll_shmcico_engine_t *e = &module->engine;
    const mca_coll_shmcico_block_t *own = in_place && is_rooted(a->op) ? NULL
                                                                       : &module->blocks[p];
    bool follow = 0 != module->params.max_bytes[a->op];

    switch (a->op) {
    case MCA_COLL_SHMCICO_OP_BCAST:
        return mca_coll_shmcico_engine_bcast(e, mca_coll_shmcico_bcast_place(module, a->root),
                                             own, v);
    case MCA_COLL_SHMCICO_OP_SCATTER:
    case MCA_COLL_SHMCICO_OP_SCATTERV:
        return mca_coll_shmcico_engine_rooted(e, a->root, true, own, module->blocks, v, false);
    case MCA_COLL_SHMCICO_OP_GATHER:
    case MCA_COLL_SHMCICO_OP_GATHERV:
        return mca_coll_shmcico_engine_rooted(e, a->root, false, own, module->blocks, v,
                                              follow);
    default:
        return mca_coll_shmcico_engine_allgather(e, sent ? NULL : own, in_place ? NULL
                                                 : &module->own_copy.stream,
                                                 module->blocks, v, follow);
    }
}

/* Every call the small path did not serve (path: what it did; small:
 * what it wrote, with SENT): open the buffers, let the engine move the
 * data, account.  Apart from the entry so that a small call does not
 * pay for this frame. */
static __opal_attribute_noinline__ bool
serve_flows(const mca_coll_shmcico_args_t *a, struct ompi_communicator_t *comm,
            mca_coll_shmcico_module_t *module, int me, int p, mca_coll_shmcico_small_t path,
            const mca_coll_shmcico_result_t *small, int *rc)
{
    int blocks_error = MPI_SUCCESS, own_error, cold = 0;
    bool decider = is_rooted(a->op) ? me == a->root : 0 == me, in_place, served;
    uint64_t largest = 0;
    mca_coll_shmcico_verdict_t verdict;
    mca_coll_shmcico_result_t result;

    if (has_blocks(a, me)) {
        blocks_error = open_blocks(a, module, p, !own_sends(a, me) && is_rooted(a->op),
                                   &largest, &cold);
    }
    own_error = open_own(a, module, me, p, blocks_error, &in_place, &cold);
    probe_own_destination(a, module, me, p, in_place);
    if (MCA_COLL_SHMCICO_OP_BCAST == a->op) {
        largest = module->streams[p].stream.length;
    }
    verdict = (mca_coll_shmcico_verdict_t) {
        .decline = decider && 0 != module->params.max_bytes[a->op]
                   && largest > module->params.max_bytes[a->op],
        .error = send_error(a, me, blocks_error, own_error)
    };
    result = move(a, module, p, in_place, MCA_COLL_SHMCICO_SMALL_SENT == path, &verdict);
    result.queued += small->queued;     /* what the small path wrote */
    result.streamed += small->streamed;
    result.used_queue |= small->used_queue;
    close_all(a, module, me, p, in_place);
    served = account(module, a->op, comm, &result,
                     MPI_SUCCESS != blocks_error ? blocks_error : own_error, false, rc);
    /* a refusal sends none of the blocks probed */
    mca_coll_shmcico_count(&mca_coll_shmcico_component.cold[a->op],
                           served && !module->inner && MPI_SUCCESS == verdict.error
                           ? cold : 0);
    return served;
}

bool mca_coll_shmcico_serve(const mca_coll_shmcico_args_t *a,
                            struct ompi_communicator_t *comm,
                            mca_coll_shmcico_module_t *module, int *rc)
{
    int me = ompi_comm_rank(comm), p = ompi_comm_size(comm);
    mca_coll_shmcico_result_t small;
    mca_coll_shmcico_small_t path;

    if (is_rooted(a->op) && (a->root < 0 || a->root >= p)) {
        *rc = MPI_ERR_ROOT;             /* the same on every process */
        return true;
    }
    if (module->disabled) {
        mca_coll_shmcico_fallback(module, a->op, comm, "the shmcico_disable hint");
        return false;
    }
    if (moves_nothing(a, me, p)) {
        return served_empty(module, a->op, comm, rc);
    }
    if (module->multinode) {
        return serve_across_nodes(a, comm, module, rc);
    }
    if (!mca_coll_shmcico_ready(module, comm)) {
        mca_coll_shmcico_fallback(module, a->op, comm, "no segment");
        return false;
    }
    if (OPAL_UNLIKELY(mca_coll_shmcico_watch_due(module->engine.last.seq + 1))) {
        mca_coll_shmcico_watch_look(module, comm, module->engine.last.seq + 1);
    }
    path = served_small(a, comm, module, me, p, rc, &small);
    if (OPAL_LIKELY(MCA_COLL_SHMCICO_SMALL_SERVED == path)) {
        return true;
    }
    return serve_flows(a, comm, module, me, p, path, &small, rc);
}
