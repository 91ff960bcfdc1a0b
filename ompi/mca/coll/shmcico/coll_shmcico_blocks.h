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
 * A call's buffer of blocks (one block per process: a Scatter(v) root's
 * send buffer, a Gather(v) root's or an Allgather(v) receive buffer) and
 * the checks of a call's arguments (coll_shmcico_check.c): what the
 * component relies on where Open MPI's own checks are off
 * (mpi_param_check 0; docs/reliability.md, "Bad input").
 */

#ifndef MCA_COLL_SHMCICO_BLOCKS_H
#define MCA_COLL_SHMCICO_BLOCKS_H

#include "ompi_config.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ompi/datatype/ompi_datatype.h"

/** Where the per-process blocks of a vector operation lie in a buffer:
 *  counts and displacements in elements, or (counts == NULL) count
 *  elements for every process, one after the other. */
typedef struct mca_coll_shmcico_blocks_t {
    const int *counts;
    const int *displs;
    int count;
    bool vector;                    /**< counts and displs are the caller's
                                         arrays (a v-operation): NULL there
                                         is a bad argument, not "regular" */
} mca_coll_shmcico_blocks_t;

/** A v-operation's arrays that are missing (mpi_param_check 0): the
 *  blocks cannot be placed. */
static inline bool mca_coll_shmcico_blocks_missing(const mca_coll_shmcico_blocks_t *layout)
{
    return layout->vector && (NULL == layout->counts || NULL == layout->displs);
}

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

/** Displacement of process i's block, in elements. */
static inline ptrdiff_t mca_coll_shmcico_block_displ(const mca_coll_shmcico_blocks_t *layout,
                                                     int i)
{
    return NULL != layout->displs ? (ptrdiff_t) layout->displs[i]
                                  : (ptrdiff_t) i * layout->count;
}

/* arguments */

/** Data that would start below this address is a bad buffer (page 0). */
#define MCA_COLL_SHMCICO_FIRST_MAPPED 4096

/** buf + offset (bytes), summed as integers: buf may be NULL (MPI_BOTTOM
 *  with a datatype of absolute addresses, or bad input not judged yet),
 *  to which C allows no offset. */
static inline void *mca_coll_shmcico_at(const void *buf, ptrdiff_t offset)
{
    return (void *) ((uintptr_t) buf + (uintptr_t) offset);
}

/** Whether data at buf + offset (a datatype's true lower bound) would
 *  start in page 0, or below address 0: a NULL buffer with a negative
 *  lower bound wraps around to the top of the address space, which is
 *  no more mapped than page 0. */
static inline bool mca_coll_shmcico_in_first_page(const void *buf, ptrdiff_t offset)
{
    if (offset < 0 && (uintptr_t) buf < (uintptr_t) 0 - (uintptr_t) offset) {
        return true;                /* below address 0 */
    }
    return (uintptr_t) mca_coll_shmcico_at(buf, offset) < MCA_COLL_SHMCICO_FIRST_MAPPED;
}

/** MPI_ERR_COUNT for a negative count, MPI_ERR_BUFFER for data that would
 *  start in page 0 or below address 0 (a NULL buffer with a count), else
 *  MPI_SUCCESS. */
int mca_coll_shmcico_check_buffer(const void *buf, int count,
                                  struct ompi_datatype_t *dtype);

/** The same for the per-process blocks of a vector operation, each
 *  non-empty block where it starts (MPI_BOTTOM with displacements that
 *  are addresses passes); MPI_ERR_ARG for MPI_IN_PLACE as the buffer, or
 *  for a v-operation's counts or displacements passed as NULL. */
int mca_coll_shmcico_check_blocks(const void *buf,
                                  const mca_coll_shmcico_blocks_t *layout,
                                  struct ompi_datatype_t *dtype, int nprocs);

/** Whether count elements of dtype are no bytes at all (a count of 0 or
 *  a datatype of size 0); false for a negative count. */
bool mca_coll_shmcico_no_bytes(int count, struct ompi_datatype_t *dtype);

/** The same for all the blocks of a vector operation. */
bool mca_coll_shmcico_blocks_no_bytes(const mca_coll_shmcico_blocks_t *layout,
                                      struct ompi_datatype_t *dtype, int nprocs);

#endif /* MCA_COLL_SHMCICO_BLOCKS_H */
