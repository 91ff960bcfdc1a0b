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
 * The network level: communicators whose processes sit on more than one
 * node (docs/protocol.md, "Communicators that span nodes").
 *
 *  - At the first call the module makes a communicator of the processes
 *    of its node (MPI_COMM_TYPE_SHARED), which shmcico serves through its
 *    segment like any node-local communicator, and learns every process's
 *    node and NUMA node.  When every node holds one process there is
 *    nothing to share: the communicator falls back for good.
 *  - Each node has a leader for a call: the root on the root's node;
 *    elsewhere the lowest rank on the NUMA node that holds most of the
 *    node's processes, so that the node stage's first copies stay on one
 *    NUMA node.
 *  - Between nodes only leaders talk, through Open MPI's PML on the
 *    communicator (collective tags), one message per pair of nodes that
 *    must talk: Bcast along a binomial tree of nodes, pipelined in chunks
 *    so that a node's stage of one chunk overlaps the network stage of
 *    the next; Scatter(v) and Gather(v) one message between the root and
 *    each other node, carrying the node's blocks in node order (a
 *    Scatterv message starts with their sizes); Allgather(v) a node
 *    gather into the leader's receive buffer, one message from every
 *    leader to every other (each node's blocks described in place by an
 *    indexed datatype), then a node Bcast.
 *  - The node stages are collective calls on the node communicator,
 *    which its own shmcico module serves (they count as inner calls, not
 *    as calls of the user).
 */

#ifndef MCA_COLL_SHMCICO_NET_H
#define MCA_COLL_SHMCICO_NET_H

#include "coll_shmcico.h"
#include "ompi/request/request.h"

/** Make the node communicator and the maps (a collective step on
 *  comm, whose outcome every process shares: one that cannot allocate
 *  stops them all); 0, or an errno value (ENOTSUP: every node holds one
 *  process, ENOMEM: some process could not allocate). */
int mca_coll_shmcico_net_setup(mca_coll_shmcico_module_t *module,
                               struct ompi_communicator_t *comm);

void mca_coll_shmcico_net_release(mca_coll_shmcico_net_t *net);

/** Members of node n and their number. */
static inline const int *mca_coll_shmcico_net_members(const mca_coll_shmcico_net_t *net,
                                                      int n, int *count)
{
    *count = net->node_start[n + 1] - net->node_start[n];
    return net->members + net->node_start[n];
}

/** What the network stage counts a call's blocks in, where it gives
 *  their counts and displacements as ints (an indexed datatype, a
 *  v-collective of the node stage): the blocks' datatype; or, for a
 *  regular layout (Scatter, Gather, Allgather) whose displacements, rank
 *  x count elements, pass INT_MAX, a datatype of one whole block, so that
 *  they count blocks.  The datatype is in the process's own arguments
 *  only: the signatures stay the same. */
typedef struct mca_coll_shmcico_net_unit_t {
    struct ompi_datatype_t *type;
    size_t elements;                /**< elements of the blocks' datatype per unit;
                                         0: the unit could not be made (no memory),
                                         and the stage moves no block */
} mca_coll_shmcico_net_unit_t;

/** The unit of a call over p processes; MPI_SUCCESS, or MPI_ERR_NO_MEM
 *  (then unit->elements is 0).  Free it with _unit_free(). */
int mca_coll_shmcico_net_unit(const mca_coll_shmcico_args_t *a, int p,
                              mca_coll_shmcico_net_unit_t *unit);
void mca_coll_shmcico_net_unit_free(const mca_coll_shmcico_args_t *a,
                                    mca_coll_shmcico_net_unit_t *unit);

/** Counts and displacements (in units) of the blocks of ranks[0..k) in
 *  the call's buffer of blocks, in that order. */
static inline void mca_coll_shmcico_net_blocks(const mca_coll_shmcico_args_t *a,
                                               const mca_coll_shmcico_net_unit_t *unit,
                                               const int *ranks, int k, int *counts,
                                               int *displs)
{
    for (int i = 0; i < k; ++i) {
        if (1 == unit->elements) {
            counts[i] = (int) mca_coll_shmcico_block_count(&a->layout, ranks[i]);
            displs[i] = (int) mca_coll_shmcico_block_displ(&a->layout, ranks[i]);
        } else {
            /* a regular layout in whole blocks: block r is unit r (none
             * without a unit) */
            counts[i] = 0 != unit->elements;
            displs[i] = ranks[i];
        }
    }
}

/** The leader of node n in a call rooted at root (-1: no root). */
static inline int mca_coll_shmcico_net_leader(const mca_coll_shmcico_net_t *net, int n,
                                              int root)
{
    return root >= 0 && net->node_of[root] == n ? root : net->leader[n];
}

/** The first error of a sequence of steps: rc, or the step's when rc
 *  is MPI_SUCCESS. */
static inline int mca_coll_shmcico_net_first_error(int rc, int step_rc)
{
    return MPI_SUCCESS == rc ? step_rc : rc;
}

/** Wait for n requests and free them; the first one's error (such as
 *  MPI_ERR_TRUNCATE), or MPI_SUCCESS. */
int mca_coll_shmcico_net_wait(ompi_request_t **reqs, int n);

/** Commit *type, just made with result made (an Open MPI error code:
 *  nothing to commit); a type that cannot be committed is destroyed.
 *  MPI_SUCCESS or the error. */
int mca_coll_shmcico_net_commit(int made, struct ompi_datatype_t **type);

/** Bytes a drained message is received into, each piece over the last */
#define MCA_COLL_SHMCICO_NET_DRAIN_PIECE 4096

/** A datatype of bytes bytes that all land in the first
 *  MCA_COLL_SHMCICO_NET_DRAIN_PIECE bytes of the buffer, every piece over
 *  the last: what a message (or a node stage) is received into where no
 *  memory holds it.  MPI_SUCCESS or the error (*type not made). */
int mca_coll_shmcico_net_drain_type(size_t bytes, struct ompi_datatype_t **type);

/** Take the next message from src with tag, of bytes bytes, off the
 *  wire without memory for it (into a scratch on the stack, every piece
 *  over the last), so that its sender is not left waiting and no later
 *  call receives it; MPI_SUCCESS, or an error where not even that was
 *  possible (its datatype could not be made). */
int mca_coll_shmcico_net_drain(struct ompi_communicator_t *comm, int src, int tag, size_t bytes);

/** The next message from src with tag, of any length, into *msg (freed
 *  by the caller; *bytes its length).  Where no memory holds it, the
 *  message is drained (_drain()): MPI_ERR_NO_MEM, *msg NULL. */
int mca_coll_shmcico_net_receive_any_length(struct ompi_communicator_t *comm, int src, int tag,
                                            char **msg, size_t *bytes);

/** Serve a call on a multi-node communicator; MPI result.  The serve
 *  skeleton has checked the root and that bytes move; the buffers and
 *  counts are Open MPI's argument checks' (docs/reliability.md: with
 *  mpi_param_check 0 they are not checked across nodes). */
int mca_coll_shmcico_net_bcast(const mca_coll_shmcico_args_t *a,
                               struct ompi_communicator_t *comm,
                               mca_coll_shmcico_module_t *module);
int mca_coll_shmcico_net_scatter(const mca_coll_shmcico_args_t *a,
                                 struct ompi_communicator_t *comm,
                                 mca_coll_shmcico_module_t *module);
int mca_coll_shmcico_net_gather(const mca_coll_shmcico_args_t *a,
                                struct ompi_communicator_t *comm,
                                mca_coll_shmcico_module_t *module);
int mca_coll_shmcico_net_allgather(const mca_coll_shmcico_args_t *a,
                                   struct ompi_communicator_t *comm,
                                   mca_coll_shmcico_module_t *module);

#endif /* MCA_COLL_SHMCICO_NET_H */
