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
 * The small-call path's side of the serve skeleton: a call's buffers as
 * spans of contiguous bytes, when every block this process has is one
 * fragment of a dense datatype, below the operation's single-copy
 * crossover, with no size limit set.  Anything else (a datatype with
 * gaps, bad arguments, a larger block) is the skeleton's
 * (coll_shmcico_serve.c), which opens streams and regions and reports
 * errors.  Each process chooses alone: both paths write the same slots
 * and flags (coll_shmcico_small.h).
 */

#include "ompi_config.h"

#include "coll_shmcico.h"
#include "coll_shmcico_choice.h"

/* The sizes that decide about a block, read once per call: the loop
 * over the blocks stores spans, which the compiler cannot tell from the
 * module's parameters. */
typedef struct limits_t {
    uint64_t small_max;             /* one fragment, and below single copy */
    uint64_t streaming_from;
} limits_t;

static limits_t limits_of(const mca_coll_shmcico_module_t *module, mca_coll_shmcico_op_t op)
{
    uint64_t fragment = module->engine.view.layout.fragment_size;
    uint64_t single_from = mca_coll_shmcico_single_from(module, op);
    uint64_t floor = module->slow_kernel_min[op];

    /* blocks below the slow-kernel floor go through a queue */
    single_from = floor > single_from ? floor : single_from;

    return (limits_t) {
        .small_max = single_from - 1 < fragment ? single_from - 1 : fragment,
        .streaming_from = mca_coll_shmcico_streaming_from(module)
    };
}

/* A span of bytes at buf + offset (the true lower bound added) when the
 * small path takes it: one fragment that does not go by single copy
 * (mca_coll_shmcico_single_from() and the slow-kernel floor, as the
 * skeleton decides), and not in page 0, which the skeleton reports as a
 * bad buffer. */
static bool small_span(const limits_t *limits, const void *buf, ptrdiff_t offset,
                       uint64_t bytes, mca_coll_shmcico_span_t *span)
{
    span->bytes = mca_coll_shmcico_at(buf, offset);
    span->length = bytes;
    span->streaming = bytes >= limits->streaming_from;
    return bytes <= limits->small_max
        && (0 == bytes || !mca_coll_shmcico_in_first_page(buf, offset));
}

/* count elements of dtype at buf (contiguous) as a small span (inlined:
 * the one datatype query of every small Bcast and Gather sender) */
static inline __opal_attribute_always_inline__ bool
span_of(const limits_t *limits, const void *buf, int count, struct ompi_datatype_t *dtype,
        mca_coll_shmcico_span_t *span)
{
    ptrdiff_t true_lb, true_extent;
    size_t size;

    if (count < 0 || !ompi_datatype_is_contiguous_memory_layout(dtype, count)) {
        return false;
    }
    ompi_datatype_type_size(dtype, &size);
    ompi_datatype_get_true_extent(dtype, &true_lb, &true_extent);
    return small_span(limits, buf, true_lb, (uint64_t) size * (uint64_t) count, span);
}

/* every process's block of the buffer of blocks (a dense datatype: the
 * datatype is asked once), into spans[0 .. p - 1] */
static bool spans_of_blocks(const mca_coll_shmcico_args_t *a, const limits_t *limits, int p,
                            mca_coll_shmcico_span_t *spans)
{
    ptrdiff_t lb, extent, true_lb, true_extent;
    size_t size;

    if (!ompi_datatype_is_contiguous_memory_layout(a->blocks_type, 2)
        || MPI_IN_PLACE == a->blocks_buf || mca_coll_shmcico_blocks_missing(&a->layout)) {
        return false;               /* not dense, or erroneous: the skeleton's */
    }
    ompi_datatype_type_size(a->blocks_type, &size);
    ompi_datatype_get_extent(a->blocks_type, &lb, &extent);
    ompi_datatype_get_true_extent(a->blocks_type, &true_lb, &true_extent);
    for (int i = 0; i < p; ++i) {
        int count = (int) mca_coll_shmcico_block_count(&a->layout, i);
        ptrdiff_t at = mca_coll_shmcico_block_displ(&a->layout, i) * extent + true_lb;
        if (count < 0
            || !small_span(limits, a->blocks_buf, at, (uint64_t) size * (uint64_t) count,
                           &spans[i])) {
            return false;
        }
    }
    return true;
}

static mca_coll_shmcico_small_t rooted(const mca_coll_shmcico_args_t *a, const limits_t *limits,
                                       mca_coll_shmcico_module_t *module, int me, int p,
                                       mca_coll_shmcico_result_t *r)
{
    mca_coll_shmcico_span_t *own = &module->spans[p];
    bool scatter = MCA_COLL_SHMCICO_OP_SCATTER == a->op || MCA_COLL_SHMCICO_OP_SCATTERV == a->op;

    if (me == a->root && !spans_of_blocks(a, limits, p, module->spans)) {
        return MCA_COLL_SHMCICO_SMALL_HANDED;
    }
    if (MPI_IN_PLACE == a->own_buf) {
        if (me != a->root) {
            return MCA_COLL_SHMCICO_SMALL_HANDED;   /* erroneous: the skeleton's */
        }
        own = NULL;                 /* the root's block stays where it is */
    } else if (!span_of(limits, a->own_buf, (int) a->own_count, a->own_type, own)) {
        return MCA_COLL_SHMCICO_SMALL_HANDED;
    }
    return mca_coll_shmcico_small_rooted(&module->engine, a->root, scatter, own,
                                         module->spans, r);
}

static mca_coll_shmcico_small_t allgather(const mca_coll_shmcico_args_t *a,
                                          const limits_t *limits,
                                          mca_coll_shmcico_module_t *module, int me, int p,
                                          mca_coll_shmcico_result_t *r)
{
    mca_coll_shmcico_span_t *send = &module->spans[p + 1];
    bool in_place = MPI_IN_PLACE == a->own_buf;

    if (!spans_of_blocks(a, limits, p, module->spans)) {
        return MCA_COLL_SHMCICO_SMALL_HANDED;
    }
    if (in_place) {
        *send = module->spans[me];  /* it sends from its place among the blocks */
    } else if (!span_of(limits, a->own_buf, (int) a->own_count, a->own_type, send)) {
        return MCA_COLL_SHMCICO_SMALL_HANDED;
    }
    return mca_coll_shmcico_small_allgather(&module->engine, send,
                                            in_place ? NULL : &module->spans[me],
                                            module->spans, r);
}

mca_coll_shmcico_small_t mca_coll_shmcico_serve_small(const mca_coll_shmcico_args_t *a,
                                                      mca_coll_shmcico_module_t *module,
                                                      int me, int p,
                                                      mca_coll_shmcico_result_t *r)
{
    limits_t limits;

    if (0 != module->params.max_bytes[a->op]) {
        return MCA_COLL_SHMCICO_SMALL_HANDED;   /* a limit: the deciding process's word */
    }
    limits = limits_of(module, a->op);
    switch (a->op) {
    case MCA_COLL_SHMCICO_OP_BCAST:
        /* MPI_IN_PLACE has no meaning in a Bcast: the skeleton's error */
        if (MPI_IN_PLACE == a->own_buf
            || !span_of(&limits, a->own_buf, (int) a->own_count, a->own_type,
                        &module->spans[p])) {
            return MCA_COLL_SHMCICO_SMALL_HANDED;
        }
        return mca_coll_shmcico_small_bcast(&module->engine,
                                            mca_coll_shmcico_bcast_place(module, a->root),
                                            &module->spans[p], r);
    case MCA_COLL_SHMCICO_OP_ALLGATHER:
    case MCA_COLL_SHMCICO_OP_ALLGATHERV:
        return allgather(a, &limits, module, me, p, r);
    default:
        return rooted(a, &limits, module, me, p, r);
    }
}
