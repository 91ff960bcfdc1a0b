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
 * Allgather(v) across nodes (see coll_shmcico_net.h): every node gathers
 * its blocks into its leader's receive buffer, at their final places;
 * every leader sends its node's blocks to every other leader, which
 * receives them at their final places too (an indexed datatype describes
 * a node's blocks where they lie); then each leader broadcasts the whole
 * buffer in its node.  Each block is written once into every leader's
 * buffer and crosses into every other node once.
 */

#include "ompi_config.h"

#include "ompi/mca/coll/base/coll_tags.h"
#include "ompi/mca/pml/pml.h"

#include "coll_shmcico_net.h"

/* the blocks of the given ranks where they lie in the receive buffer */
static int blocks_type(const mca_coll_shmcico_args_t *a, const mca_coll_shmcico_net_unit_t *unit,
                       const int *ranks, int k, int *scratch, struct ompi_datatype_t **type)
{
    int *counts = scratch, *displs = scratch + k, rc;

    mca_coll_shmcico_net_blocks(a, unit, ranks, k, counts, displs);
    rc = ompi_datatype_create_indexed(k, counts, displs, unit->type, type);
    return mca_coll_shmcico_net_commit(rc, type);
}

/* step 1: the node's blocks into its leader's buffer */
static int node_gather(const mca_coll_shmcico_net_t *net, const mca_coll_shmcico_args_t *a,
                       const mca_coll_shmcico_net_unit_t *unit, int me, int leader,
                       int *scratch)
{
    struct ompi_communicator_t *node = net->node_comm;
    int k;
    const int *members = mca_coll_shmcico_net_members(net, net->my_node, &k);
    const void *sbuf = a->own_buf;
    int scount = (int) a->own_count;
    struct ompi_datatype_t *stype = a->own_type;

    mca_coll_shmcico_net_blocks(a, unit, members, k, scratch, scratch + k);
    if (MPI_IN_PLACE == sbuf && me != leader) {
        /* its block is in its own buffer: it sends it from there */
        sbuf = mca_coll_shmcico_block_start(a->blocks_buf, &a->layout, a->blocks_type, me);
        scount = (int) mca_coll_shmcico_block_count(&a->layout, me);
        stype = a->blocks_type;
    }
    return node->c_coll->coll_gatherv(sbuf, scount, stype, (void *) a->blocks_buf, scratch,
                                      scratch + k, unit->type, net->local_of[leader], node,
                                      node->c_coll->coll_gatherv_module);
}

/* node from's blocks from its leader, where this process's counts put
 * them (types[from]), with *req; a message longer than those counts
 * describe (the sender's counts differ: an erroneous call) is taken off
 * the wire with nothing of it written, MPI_ERR_TRUNCATE and no request:
 * a receive shorter than its message may write the whole message past a
 * contiguous buffer (Open MPI 4.1's ob1 does, from its eager limit on) */
static int receive_node(const mca_coll_shmcico_net_t *net, struct ompi_communicator_t *comm,
                        const mca_coll_shmcico_args_t *a, int from, ompi_request_t **req)
{
    ompi_status_public_t status;
    size_t room;
    int rc = MCA_PML_CALL(probe(net->leader[from], MCA_COLL_BASE_TAG_ALLGATHERV, comm,
                                &status));

    *req = MPI_REQUEST_NULL;
    if (MPI_SUCCESS != rc) {
        return rc;
    }
    ompi_datatype_type_size(net->types[from], &room);
    if (status._ucount > room) {
        (void) mca_coll_shmcico_net_drain(comm, net->leader[from], MCA_COLL_BASE_TAG_ALLGATHERV,
                                          status._ucount);
        return MPI_ERR_TRUNCATE;
    }
    return MCA_PML_CALL(irecv((void *) a->blocks_buf, 1, net->types[from], net->leader[from],
                              MCA_COLL_BASE_TAG_ALLGATHERV, comm, req));
}

/* step 2: this node's blocks to every other leader, theirs from them
 * (every send posted first: each receive waits for its message's size) */
static int exchange(const mca_coll_shmcico_net_t *net, struct ompi_communicator_t *comm,
                    const mca_coll_shmcico_args_t *a, const mca_coll_shmcico_net_unit_t *unit,
                    int *scratch)
{
    int n = net->nnodes, k, nreqs = 0, rc = MPI_SUCCESS;
    struct ompi_datatype_t **types = net->types;   /* made at setup, as reqs */
    ompi_request_t **reqs = net->reqs;
    bool made;

    for (int m = 0; m < n; ++m) {
        types[m] = NULL;
    }
    for (int m = 0; m < n && MPI_SUCCESS == rc; ++m) {
        const int *members = mca_coll_shmcico_net_members(net, m, &k);
        rc = blocks_type(a, unit, members, k, scratch, &types[m]);
    }
    made = MPI_SUCCESS == rc;
    for (int i = 1; i < n && MPI_SUCCESS == rc; ++i) {
        /* staggered, so that the leaders do not all send to one first */
        int to = (net->my_node + i) % n;
        rc = MCA_PML_CALL(isend((void *) a->blocks_buf, 1, types[net->my_node],
                                net->leader[to], MCA_COLL_BASE_TAG_ALLGATHERV,
                                MCA_PML_BASE_SEND_STANDARD, comm, &reqs[nreqs]));
        nreqs += MPI_SUCCESS == rc;     /* a failed post leaves no request */
    }
    for (int i = 1; i < n && made; ++i) {
        /* every message, also after one was too long or a send failed */
        int from = (net->my_node - i + n) % n;
        rc = mca_coll_shmcico_net_first_error(rc, receive_node(net, comm, a, from,
                                                               &reqs[nreqs]));
        nreqs += MPI_REQUEST_NULL != reqs[nreqs];
    }
    rc = mca_coll_shmcico_net_first_error(rc, mca_coll_shmcico_net_wait(reqs, nreqs));
    for (int m = 0; m < n; ++m) {
        if (NULL != types[m]) {
            ompi_datatype_destroy(&types[m]);
        }
    }
    return rc;
}

/* step 3: the whole buffer from the leader to its node */
static int node_bcast(const mca_coll_shmcico_net_t *net, struct ompi_communicator_t *comm,
                      const mca_coll_shmcico_args_t *a, const mca_coll_shmcico_net_unit_t *unit,
                      int leader, int *scratch)
{
    struct ompi_communicator_t *node = net->node_comm;
    struct ompi_datatype_t *all = NULL;
    int rc;

    if (ompi_comm_size(node) < 2) {
        return MPI_SUCCESS;
    }
    rc = blocks_type(a, unit, net->members, ompi_comm_size(comm), scratch, &all);
    if (MPI_SUCCESS == rc) {
        rc = node->c_coll->coll_bcast((void *) a->blocks_buf, 1, all, net->local_of[leader],
                                      node, node->c_coll->coll_bcast_module);
    }
    if (NULL != all) {
        ompi_datatype_destroy(&all);
    }
    return rc;
}

int mca_coll_shmcico_net_allgather(const mca_coll_shmcico_args_t *a,
                                   struct ompi_communicator_t *comm,
                                   mca_coll_shmcico_module_t *module)
{
    const mca_coll_shmcico_net_t *net = &module->net;
    int me = ompi_comm_rank(comm), leader = net->leader[net->my_node];
    mca_coll_shmcico_net_unit_t unit;
    int rc = mca_coll_shmcico_net_unit(a, ompi_comm_size(comm), &unit);

    /* every step runs whatever happened before it, so that every process
     * stays in step: a process whose counts are wrong gets its error */
    rc = mca_coll_shmcico_net_first_error(rc, node_gather(net, a, &unit, me, leader,
                                                          net->scratch));
    if (me == leader) {
        rc = mca_coll_shmcico_net_first_error(rc, exchange(net, comm, a, &unit, net->scratch));
    }
    rc = mca_coll_shmcico_net_first_error(rc, node_bcast(net, comm, a, &unit, leader,
                                                         net->scratch));
    mca_coll_shmcico_net_unit_free(a, &unit);
    return rc;
}
