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
 * The small-call path: the queue protocol (coll_shmcico_queue.h) written
 * out for a call whose blocks, as this process sees them, are each one
 * fragment of contiguous bytes.  It puts the same bytes into the same
 * slots and flags as the serve skeleton (coll_shmcico_flow.h), without
 * streams, regions or flows, so each process may serve a call either way
 * and the others cannot tell (docs/protocol.md, "Small calls").
 *
 *  - What a process writes follows from its own arguments alone: it
 *    claims the op and writes its blocks exactly as the skeleton would.
 *  - A process reads only flags that announce a block of one fragment
 *    through a queue.  Any other flag (more fragments, a single copy, a
 *    refusal or the root's verdict) hands the call to the skeleton.  The
 *    hand-over happens before the process wrote anything of the call,
 *    except an Allgather(v) process's own block (see below); the op
 *    number is taken only when the call is served here, so the skeleton
 *    serves the same op.  What was read already is read again: nobody
 *    reuses the slots before this process is done with the op.
 */

#ifndef MCA_COLL_SHMCICO_SMALL_H
#define MCA_COLL_SHMCICO_SMALL_H

#include "coll_shmcico_engine.h"

/** Contiguous bytes of one block: what a sender has, or a receiver's
 *  room. */
typedef struct mca_coll_shmcico_span_t {
    unsigned char *bytes;
    uint64_t length;
    bool streaming;                 /**< when this process sends it: into a slot with
                                         streaming stores */
} mca_coll_shmcico_span_t;

/** Whether the small path may serve what a process reads or writes:
 *  served, or handed to the skeleton. */
typedef enum {
    MCA_COLL_SHMCICO_SMALL_SERVED = 0,  /**< the result says how it went */
    MCA_COLL_SHMCICO_SMALL_HANDED,      /**< nothing of the call written */
    MCA_COLL_SHMCICO_SMALL_SENT         /**< Allgather(v): its own block is written,
                                             the skeleton serves the rest */
} mca_coll_shmcico_small_t;

/** Bcast from place->root, this process at place in the tree: data is
 *  the message at the root, the receive buffer elsewhere. */
mca_coll_shmcico_small_t
mca_coll_shmcico_small_bcast(mca_coll_shmcico_engine_t *engine,
                             const struct mca_coll_shmcico_place_t *place,
                             const mca_coll_shmcico_span_t *data,
                             mca_coll_shmcico_result_t *result);

/** Scatter(v) (scatter) and Gather(v) (!scatter), as the skeleton's
 *  mca_coll_shmcico_engine_rooted(): blocks[i] at the root, own the
 *  root's own buffer (NULL with MPI_IN_PLACE) or another process's. */
mca_coll_shmcico_small_t
mca_coll_shmcico_small_rooted(mca_coll_shmcico_engine_t *engine, int root, bool scatter,
                              const mca_coll_shmcico_span_t *own,
                              const mca_coll_shmcico_span_t *blocks,
                              mca_coll_shmcico_result_t *result);

/** Allgather(v): send goes to every other process and, unless own is
 *  NULL (MPI_IN_PLACE), into own; blocks[i] receives process i's block.
 *  MCA_COLL_SHMCICO_SMALL_SENT: serve the call with
 *  mca_coll_shmcico_engine_allgather() and no send block; the result
 *  then counts the block written. */
mca_coll_shmcico_small_t
mca_coll_shmcico_small_allgather(mca_coll_shmcico_engine_t *engine,
                                 const mca_coll_shmcico_span_t *send,
                                 const mca_coll_shmcico_span_t *own,
                                 const mca_coll_shmcico_span_t *blocks,
                                 mca_coll_shmcico_result_t *result);

#endif /* MCA_COLL_SHMCICO_SMALL_H */
