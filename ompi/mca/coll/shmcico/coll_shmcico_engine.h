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
 * The engine of coll/shmcico: the four collective operations over a
 * communicator's shared segment, each block moved by the queue transport
 * (copy-in/copy-out, coll_shmcico_queue.h) or the single-copy transport
 * (coll_shmcico_single.h), synchronised by the primitives of
 * coll_shmcico_sync.h.  Nothing here depends on Open MPI, so the engine
 * is unit-tested with plain threads (test/unit).  The protocol is
 * described in one place: docs/protocol.md.
 *
 * Every process decides alone how its blocks travel: from the bytes of
 * the block (which MPI requires to match between sender and receiver)
 * and the communicator's parameters.  The side that holds the data
 * announces its choice in the block's first flag and the other side
 * follows it, so processes whose arguments disagree stay in step, and a
 * correct program never waits for a decision.
 */

#ifndef MCA_COLL_SHMCICO_ENGINE_H
#define MCA_COLL_SHMCICO_ENGINE_H

#include "coll_shmcico_queue.h"
#include "coll_shmcico_segment.h"
#include "coll_shmcico_single.h"
#include "coll_shmcico_stream.h"
#include "coll_shmcico_sync.h"

struct mca_coll_shmcico_place_t;
struct mca_coll_shmcico_flow_t;

/** State of one process on one communicator. */
typedef struct mca_coll_shmcico_engine_t {
    mca_coll_shmcico_view_t view;
    int rank;
    int nprocs;
    mca_coll_shmcico_seq_t last;    /**< the last call (seq 0: none), the same everywhere */
    mca_coll_shmcico_waiter_t waiter;
    mca_coll_shmcico_copier_t copier;   /**< copy NULL: no single copy */
    int *scratch;                   /**< p ints: a call's list of processes */
    struct mca_coll_shmcico_flow_t *flows;  /**< p flows of one call */
    unsigned char *bounce;          /**< chunk buffer of layouts copied by unpacking */
    size_t bounce_size;
} mca_coll_shmcico_engine_t;

/** What a process brings for one block of a call. */
typedef struct mca_coll_shmcico_block_t {
    mca_coll_shmcico_stream_t *stream;  /**< its bytes (sender), its room (receiver) */
    const mca_coll_shmcico_region_t *region;  /**< its buffer for single copy;
                                                   NULL: layout not worth it */
    bool single;                    /**< by single copy, as this process sees it */
    uint64_t chunk;                 /**< bytes per chunk of a single copy it sends */
} mca_coll_shmcico_block_t;

/** How a call went at this process. */
typedef enum {
    MCA_COLL_SHMCICO_DONE = 0,      /**< all data moved */
    MCA_COLL_SHMCICO_TRUNCATED,     /**< bytes did not fit this process's buffer */
    MCA_COLL_SHMCICO_DECLINED,      /**< the root handed the call back: fall back */
    MCA_COLL_SHMCICO_FAULTED,       /**< the root's arguments were bad (mpi_error) */
    MCA_COLL_SHMCICO_COPY_FAILED    /**< a single copy failed (copy_errno) */
} mca_coll_shmcico_status_t;

typedef struct mca_coll_shmcico_result_t {
    mca_coll_shmcico_status_t status;
    int32_t mpi_error;              /**< FAULTED: the root's MPI error */
    int32_t copy_errno;             /**< COPY_FAILED: the failed copy's errno */
    uint64_t queued;                /**< bytes this process copied into or out of slots */
    uint64_t streamed;              /**< of them, bytes it wrote with streaming stores */
    uint64_t copied;                /**< bytes it copied by single copy */
    uint64_t own_streamed;          /**< bytes of its own block it copied with streaming
                                         stores */
    bool used_queue;                /**< some block it took part in used each */
    bool used_single;
} mca_coll_shmcico_result_t;

/** What a root (or rank 0 for Allgather) says about the whole call. */
typedef struct mca_coll_shmcico_verdict_t {
    bool decline;                   /**< hand the call back (size limits) */
    int32_t error;                  /**< its arguments are bad: 0, or its MPI error */
} mca_coll_shmcico_verdict_t;

/**
 * Set up a process's engine on a mapped segment: check the segment and
 * allocate the scratch space.  Returns 0, or -1 (mismatch, no memory;
 * nothing is left allocated).
 */
int mca_coll_shmcico_engine_init(mca_coll_shmcico_engine_t *engine, void *base,
                                 const mca_coll_shmcico_layout_t *layout, int rank,
                                 const mca_coll_shmcico_waiter_t *waiter,
                                 const mca_coll_shmcico_copier_t *copier);

/** Free the scratch space (the segment itself is the caller's). */
void mca_coll_shmcico_engine_fini(mca_coll_shmcico_engine_t *engine);

/**
 * Bcast from place->root, this process at place in the notification
 * tree.  At the root, data is the message and verdict its decision;
 * elsewhere data is the receive buffer.  Data moves down the tree:
 * through the root's queue, or by single copy, each process copying
 * from its parent's buffer.
 */
mca_coll_shmcico_result_t
mca_coll_shmcico_engine_bcast(mca_coll_shmcico_engine_t *engine,
                              const struct mca_coll_shmcico_place_t *place,
                              const mca_coll_shmcico_block_t *data,
                              const mca_coll_shmcico_verdict_t *verdict);

/**
 * Scatter(v) (scatter) and Gather(v) (!scatter), mirror images.  At the
 * root, blocks[i] is process i's block and verdict its decision; own is
 * the root's own buffer (NULL with MPI_IN_PLACE: its block stays in
 * blocks[root]).  Elsewhere own is the receive or send buffer.
 * follow_root: a Gather sender waits for the root's verdict before it
 * writes (a size limit is set).
 */
mca_coll_shmcico_result_t
mca_coll_shmcico_engine_rooted(mca_coll_shmcico_engine_t *engine, int root, bool scatter,
                               const mca_coll_shmcico_block_t *own,
                               const mca_coll_shmcico_block_t *blocks,
                               const mca_coll_shmcico_verdict_t *verdict, bool follow_root);

/**
 * Allgather(v): every process sends its block (send) to every other and
 * copies it into its own place (own: a second stream over the same
 * bytes into blocks[rank]).  With MPI_IN_PLACE own is NULL: the block
 * is already in its place, and send, then blocks[rank], reads it from
 * there.  blocks[i] receives process i's block; send NULL: the
 * small-call path wrote it already (coll_shmcico_small.h).  verdict:
 * this process's own arguments (error), and at rank 0 its decision;
 * follow_root: wait for rank 0's decision.
 */
mca_coll_shmcico_result_t
mca_coll_shmcico_engine_allgather(mca_coll_shmcico_engine_t *engine,
                                  const mca_coll_shmcico_block_t *send,
                                  mca_coll_shmcico_stream_t *own,
                                  const mca_coll_shmcico_block_t *blocks,
                                  const mca_coll_shmcico_verdict_t *verdict,
                                  bool follow_root);

#endif /* MCA_COLL_SHMCICO_ENGINE_H */
