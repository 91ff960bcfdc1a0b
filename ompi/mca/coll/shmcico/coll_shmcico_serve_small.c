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

static bool is_single(const mca_coll_shmcico_module_t *module)
{
    return MCA_COLL_SHMCICO_SINGLE_OFF != module->copy.mode
        && MCA_COLL_SHMCICO_SINGLE_OFF != module->params.single_copy;
}

/* The largest block of op this path takes: one fragment, and one that
 * does not go by single copy (a block of b > 0 bytes does from
 * single_min on; see open_block() in coll_shmcico_serve.c). */
static uint64_t largest_small(const mca_coll_shmcico_module_t *module, mca_coll_shmcico_op_t op)
{
    uint64_t f = module->engine.view.layout.fragment_size;
    uint64_t min = module->params.single_min[op];
    uint64_t below = !is_single(module) ? UINT64_MAX : min > 0 ? min - 1 : 0;

    return f < below ? f : below;
}

/* count elements of dtype at buf as a span of at most max bytes */
static bool span_of(const void *buf, int count, struct ompi_datatype_t *dtype, uint64_t max,
                    mca_coll_shmcico_span_t *span)
{
    ptrdiff_t true_lb, true_extent;
    size_t size;

    if (count < 0 || !ompi_datatype_is_contiguous_memory_layout(dtype, count)) {
        return false;
    }
    ompi_datatype_type_size(dtype, &size);
    ompi_datatype_get_true_extent(dtype, &true_lb, &true_extent);
    span->bytes = (unsigned char *) buf + true_lb;
    span->length = (uint64_t) size * (uint64_t) count;
    return span->length <= max
        && (0 == span->length || (uintptr_t) span->bytes >= MCA_COLL_SHMCICO_FIRST_MAPPED);
}

/* every process's block of the buffer of blocks, into spans[0 .. p - 1] */
static bool spans_of_blocks(const mca_coll_shmcico_args_t *a, int p, uint64_t max,
                            mca_coll_shmcico_span_t *spans)
{
    ptrdiff_t lb, extent;

    if (!ompi_datatype_is_contiguous_memory_layout(a->blocks_type, 2)) {
        return false;               /* not dense: blocks are not plain bytes */
    }
    ompi_datatype_get_extent(a->blocks_type, &lb, &extent);
    for (int i = 0; i < p; ++i) {
        const int *displs = a->layout.displs;
        const char *start = (const char *) a->blocks_buf
            + (NULL != displs ? (ptrdiff_t) displs[i] : (ptrdiff_t) i * a->layout.count) * extent;
        if (!span_of(start, (int) mca_coll_shmcico_block_count(&a->layout, i), a->blocks_type,
                     max, &spans[i])) {
            return false;
        }
    }
    return true;
}

static mca_coll_shmcico_small_t rooted(const mca_coll_shmcico_args_t *a,
                                       mca_coll_shmcico_module_t *module, int me, int p,
                                       uint64_t max, mca_coll_shmcico_result_t *r)
{
    mca_coll_shmcico_span_t *own = &module->spans[p];
    bool scatter = MCA_COLL_SHMCICO_OP_SCATTER == a->op || MCA_COLL_SHMCICO_OP_SCATTERV == a->op;

    if (me == a->root && !spans_of_blocks(a, p, max, module->spans)) {
        return MCA_COLL_SHMCICO_SMALL_HANDED;
    }
    if (MPI_IN_PLACE == a->own_buf) {
        if (me != a->root) {
            return MCA_COLL_SHMCICO_SMALL_HANDED;   /* erroneous: the skeleton's */
        }
        own = NULL;                 /* the root's block stays where it is */
    } else if (!span_of(a->own_buf, (int) a->own_count, a->own_type, max, own)) {
        return MCA_COLL_SHMCICO_SMALL_HANDED;
    }
    return mca_coll_shmcico_small_rooted(&module->engine, a->root, scatter, own,
                                         module->spans, r);
}

static mca_coll_shmcico_small_t allgather(const mca_coll_shmcico_args_t *a,
                                          mca_coll_shmcico_module_t *module, int me, int p,
                                          uint64_t max, mca_coll_shmcico_result_t *r)
{
    mca_coll_shmcico_span_t *send = &module->spans[p + 1];
    bool in_place = MPI_IN_PLACE == a->own_buf;

    if (!spans_of_blocks(a, p, max, module->spans)) {
        return MCA_COLL_SHMCICO_SMALL_HANDED;
    }
    if (in_place) {
        *send = module->spans[me];  /* it sends from its place among the blocks */
    } else if (!span_of(a->own_buf, (int) a->own_count, a->own_type, max, send)) {
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
    uint64_t max = largest_small(module, a->op);

    if (0 != module->params.max_bytes[a->op]) {
        return MCA_COLL_SHMCICO_SMALL_HANDED;   /* a limit: the deciding process's word */
    }
    switch (a->op) {
    case MCA_COLL_SHMCICO_OP_BCAST:
        if (!span_of(a->own_buf, (int) a->own_count, a->own_type, max, &module->spans[p])) {
            return MCA_COLL_SHMCICO_SMALL_HANDED;
        }
        return mca_coll_shmcico_small_bcast(&module->engine, &module->tree, a->root,
                                            &module->spans[p], r);
    case MCA_COLL_SHMCICO_OP_ALLGATHER:
    case MCA_COLL_SHMCICO_OP_ALLGATHERV:
        return allgather(a, module, me, p, max, r);
    default:
        return rooted(a, module, me, p, max, r);
    }
}
