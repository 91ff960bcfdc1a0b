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
 * Arguments that would make a copy crash or misplace blocks: negative
 * counts, data that would start in the first page of memory (a NULL
 * buffer with a count; page 0 is never mapped) or below address 0 (a
 * NULL buffer and a negative true lower bound), and a v-operation's
 * counts or displacements passed as NULL.  Open MPI's parameter checks catch most of
 * this before a component is called, but they can be turned off
 * (mpi_param_check 0) and they do not look at buffers.  A NULL buffer is
 * legal with a datatype of absolute addresses, or (MPI_BOTTOM) with
 * displacements that are addresses: its data does not start in page 0,
 * so it passes.
 */

#include "ompi_config.h"

#include "coll_shmcico.h"

/* bytes of dtype at buf + displ (bytes) */
static int check_start(const void *buf, ptrdiff_t displ, struct ompi_datatype_t *dtype,
                       size_t bytes)
{
    ptrdiff_t true_lb, true_extent;

    if (0 == bytes) {
        return MPI_SUCCESS;
    }
    ompi_datatype_get_true_extent(dtype, &true_lb, &true_extent);
    return mca_coll_shmcico_in_first_page(buf, displ + true_lb) ? MPI_ERR_BUFFER
                                                                 : MPI_SUCCESS;
}

bool mca_coll_shmcico_no_bytes(int count, struct ompi_datatype_t *dtype)
{
    size_t type_size;

    ompi_datatype_type_size(dtype, &type_size);
    return count >= 0 && 0 == type_size * (size_t) count;
}

int mca_coll_shmcico_check_buffer(const void *buf, int count,
                                  struct ompi_datatype_t *dtype)
{
    size_t type_size;

    if (count < 0) {
        return MPI_ERR_COUNT;
    }
    ompi_datatype_type_size(dtype, &type_size);
    return check_start(buf, 0, dtype, type_size * (size_t) count);
}

/* MPI_ERR_ARG (a v-operation without its counts or displacements),
 * MPI_ERR_COUNT, or MPI_SUCCESS and the bytes of all blocks in *bytes */
static int blocks_bytes(const mca_coll_shmcico_blocks_t *layout,
                        struct ompi_datatype_t *dtype, int nprocs, size_t *bytes)
{
    size_t type_size;

    if (mca_coll_shmcico_blocks_missing(layout)) {
        return MPI_ERR_ARG;
    }
    ompi_datatype_type_size(dtype, &type_size);
    if (NULL == layout->counts) {   /* one count for all: no walk */
        if (layout->count < 0) {
            return MPI_ERR_COUNT;
        }
        *bytes = type_size * (size_t) layout->count * (size_t) nprocs;
        return MPI_SUCCESS;
    }
    *bytes = 0;
    for (int i = 0; i < nprocs; ++i) {
        if (layout->counts[i] < 0) {
            return MPI_ERR_COUNT;
        }
        *bytes += type_size * (size_t) layout->counts[i];
    }
    return MPI_SUCCESS;
}

/* Each non-empty block where it starts, as the small path looks at it:
 * with MPI_BOTTOM and absolute displacements the buffer itself is NULL
 * while no block is in page 0.  MPI_IN_PLACE is never a buffer of
 * blocks (a Scatter(v) root's send buffer, a Gather(v) root's or an
 * Allgather(v) receive buffer): MPI_ERR_ARG, as Open MPI's argument
 * checks give, where it would otherwise be address 1. */
int mca_coll_shmcico_check_blocks(const void *buf,
                                  const mca_coll_shmcico_blocks_t *layout,
                                  struct ompi_datatype_t *dtype, int nprocs)
{
    ptrdiff_t lb, extent;
    size_t bytes, type_size;
    int error = blocks_bytes(layout, dtype, nprocs, &bytes);

    if (MPI_SUCCESS == error && MPI_IN_PLACE == buf) {
        return MPI_ERR_ARG;
    }
    if (MPI_SUCCESS != error || 0 == bytes) {
        return error;
    }
    ompi_datatype_type_size(dtype, &type_size);
    ompi_datatype_get_extent(dtype, &lb, &extent);
    for (int i = 0; i < nprocs && MPI_SUCCESS == error; ++i) {
        size_t count = mca_coll_shmcico_block_count(layout, i);
        error = check_start(buf, mca_coll_shmcico_block_displ(layout, i) * extent, dtype,
                            type_size * count);
    }
    return error;
}

bool mca_coll_shmcico_blocks_no_bytes(const mca_coll_shmcico_blocks_t *layout,
                                      struct ompi_datatype_t *dtype, int nprocs)
{
    size_t bytes;

    return MPI_SUCCESS == blocks_bytes(layout, dtype, nprocs, &bytes) && 0 == bytes;
}
