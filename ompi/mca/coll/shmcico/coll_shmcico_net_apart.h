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
 * Blocks apart (docs/protocol.md, "Blocks apart"): the node stage of a
 * Scatter(v) or Gather(v) across nodes on a node other than the root's
 * is a Scatterv or Gatherv of MPI_BYTE, whose counts and displacements
 * are ints.  A block of more than INT_MAX / k bytes (k processes on the
 * node) goes between its process and the leader in a message of its own
 * on the user's communicator, and counts 0 in the node stage; the k
 * blocks that stay add up to at most INT_MAX, and the leader stages them
 * back to back in a buffer of their own.  Both sides judge the size its
 * sender has, which the node stage of sizes told the other, so they
 * agree.
 */

#ifndef MCA_COLL_SHMCICO_NET_APART_H
#define MCA_COLL_SHMCICO_NET_APART_H

#include <limits.h>

#include "coll_shmcico_net.h"

/** Whether a block of bytes on a node of k processes goes apart. */
static inline bool mca_coll_shmcico_net_apart(uint64_t bytes, int k)
{
    return bytes > (uint64_t) INT_MAX / (uint64_t) k;
}

/** The node stage's counts and displacements (bytes) for blocks of
 *  sizes[0 .. k): the blocks apart count 0, the others lie back to back
 *  in node order.  Returns whether any block is apart; *staged is the
 *  bytes of the others. */
bool mca_coll_shmcico_net_stage_layout(const uint64_t *sizes, int k, int *counts,
                                       int *displs, size_t *staged);

/** Copy the staged blocks between the node stage's buffer and their
 *  places among all the blocks in node order (to_blocks: a Gather). */
void mca_coll_shmcico_net_restage(char *blocks, char *stage, const uint64_t *sizes,
                                  const int *counts, const int *displs, int k, bool to_blocks);

/** The node stage's buffer: the blocks themselves when none is apart,
 *  otherwise a new buffer for the staged ones (NULL when out of memory;
 *  the caller frees it). */
char *mca_coll_shmcico_net_stage_of(char *blocks, bool any, size_t staged);

/** The messages of the blocks apart of this node between the leader and
 *  their processes (receive: a Gather), into reqs; the leader's own
 *  block is packed or unpacked in place.  Returns the requests posted,
 *  and *rc the first error. */
int mca_coll_shmcico_net_post_apart(const mca_coll_shmcico_net_t *net,
                                    struct ompi_communicator_t *comm,
                                    const mca_coll_shmcico_args_t *a, char *blocks,
                                    const uint64_t *sizes, bool receive, ompi_request_t **reqs,
                                    int *rc);

/** A Gather leader without a message for its node: the blocks apart of
 *  its members taken off the wire (mca_coll_shmcico_net_drain()), so
 *  that none of them is left waiting. */
void mca_coll_shmcico_net_drain_apart(const mca_coll_shmcico_net_t *net,
                                      struct ompi_communicator_t *comm, const uint64_t *sizes);

#endif /* MCA_COLL_SHMCICO_NET_APART_H */
