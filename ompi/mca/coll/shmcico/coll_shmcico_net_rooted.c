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
 * Scatter(v) and Gather(v) across nodes (see coll_shmcico_net.h): one
 * message between the root and each other node's leader, carrying that
 * node's blocks packed in node order, whatever the ranks' order in the
 * communicator.  The root's own node is served straight from (or into)
 * the root's buffer.  Every message starts with the sizes of its blocks
 * as their senders have them (the root's for a Scatter(v); for a
 * Gather(v) the leader gathers them in its node first, through shared
 * memory), so that a process whose counts are wrong cannot misplace the
 * others' blocks: only it gets MPI_ERR_TRUNCATE.
 */

#include "ompi_config.h"

#include <stdlib.h>

#include "ompi/mca/coll/base/coll_tags.h"
#include "ompi/mca/pml/pml.h"

#include "coll_shmcico_net.h"

static size_t type_size(struct ompi_datatype_t *dtype)
{
    size_t size;

    ompi_datatype_type_size(dtype, &size);
    return size;
}

/* counts and displacements (elements) of node n's blocks in the root's
 * buffer of blocks, in node order */
static void node_layout(const mca_coll_shmcico_net_t *net, int n,
                        const mca_coll_shmcico_args_t *a, int *counts, int *displs)
{
    int k;
    const int *members = mca_coll_shmcico_net_members(net, n, &k);

    mca_coll_shmcico_net_blocks(a, members, k, counts, displs);
}

/* ------------------------------------------------------------------ */
/* Scatter                                                              */

/* node n's message: the sizes of its blocks, then the blocks */
static char *pack_node(const mca_coll_shmcico_net_t *net, int n,
                       const mca_coll_shmcico_args_t *a, size_t *bytes)
{
    int k;
    const int *members = mca_coll_shmcico_net_members(net, n, &k);
    size_t size = type_size(a->blocks_type), header = (size_t) k * sizeof(uint64_t);
    char *msg;

    *bytes = header;
    for (int i = 0; i < k; ++i) {
        *bytes += size * mca_coll_shmcico_block_count(&a->layout, members[i]);
    }
    msg = malloc(*bytes + 1);
    for (size_t at = header, i = 0; NULL != msg && i < (size_t) k; ++i) {
        const void *block = mca_coll_shmcico_block_start(a->blocks_buf, &a->layout,
                                                         a->blocks_type, members[i]);
        size_t got = mca_coll_shmcico_pack(msg + at, block,
                                           mca_coll_shmcico_block_count(&a->layout, members[i]),
                                           a->blocks_type);
        ((uint64_t *) msg)[i] = got;
        at += got;
    }
    return msg;
}

static int node_scatterv(const mca_coll_shmcico_net_t *net, const void *sbuf, const int *counts,
                         const int *displs, struct ompi_datatype_t *stype,
                         const mca_coll_shmcico_args_t *a, int leader)
{
    struct ompi_communicator_t *node = net->node_comm;

    return node->c_coll->coll_scatterv(sbuf, counts, displs, stype, (void *) a->own_buf,
                                       (int) a->own_count, a->own_type, net->local_of[leader],
                                       node, node->c_coll->coll_scatterv_module);
}

/* the root: one message to every other node, its own node from its buffer */
static int scatter_root(const mca_coll_shmcico_net_t *net, struct ompi_communicator_t *comm,
                        const mca_coll_shmcico_args_t *a, int *counts, int *displs)
{
    ompi_request_t **sends = calloc((size_t) net->nnodes, sizeof(ompi_request_t *));
    char **msgs = calloc((size_t) net->nnodes, sizeof(char *));
    int rc = NULL == sends || NULL == msgs ? MPI_ERR_NO_MEM : MPI_SUCCESS, nsends = 0;

    for (int n = 0; n < net->nnodes && MPI_SUCCESS == rc; ++n) {
        size_t bytes;
        if (n == net->my_node) {
            continue;
        }
        msgs[n] = pack_node(net, n, a, &bytes);
        rc = NULL == msgs[n] ? MPI_ERR_NO_MEM
            : MCA_PML_CALL(isend(msgs[n], bytes, MPI_BYTE, net->leader[n],
                                 MCA_COLL_BASE_TAG_SCATTERV, MCA_PML_BASE_SEND_STANDARD, comm,
                                 &sends[nsends++]));
    }
    node_layout(net, net->my_node, a, counts, displs);
    {
        int node_rc = node_scatterv(net, a->blocks_buf, counts, displs, a->blocks_type, a,
                                    a->root);
        rc = mca_coll_shmcico_net_first_error(rc, node_rc);
    }
    if (NULL != sends) {
        int wrc = mca_coll_shmcico_net_wait(sends, nsends);
        rc = mca_coll_shmcico_net_first_error(rc, wrc);
    }
    for (int n = 0; NULL != msgs && n < net->nnodes; ++n) {
        free(msgs[n]);
    }
    free(msgs);
    free(sends);
    return rc;
}

/* another node's leader: the root's message, then the node */
static int scatter_leader(const mca_coll_shmcico_net_t *net, struct ompi_communicator_t *comm,
                          const mca_coll_shmcico_args_t *a, int *counts, int *displs)
{
    int k, rc;
    size_t bytes, header;
    ompi_status_public_t status;
    char *msg;

    (void) mca_coll_shmcico_net_members(net, net->my_node, &k);
    rc = MCA_PML_CALL(probe(a->root, MCA_COLL_BASE_TAG_SCATTERV, comm, &status));
    if (MPI_SUCCESS != rc) {
        return rc;
    }
    bytes = status._ucount;
    msg = malloc(bytes + 1);
    rc = NULL == msg ? MPI_ERR_NO_MEM
        : MCA_PML_CALL(recv(msg, bytes, MPI_BYTE, a->root, MCA_COLL_BASE_TAG_SCATTERV, comm,
                            MPI_STATUS_IGNORE));
    header = (size_t) k * sizeof(uint64_t);
    for (int i = 0, at = 0; i < k; ++i) {
        counts[i] = MPI_SUCCESS == rc && bytes >= header ? (int) ((uint64_t *) msg)[i] : 0;
        displs[i] = at;
        at += counts[i];
    }
    /* the node takes part whatever happened, so that it stays in step */
    {
        int node_rc = node_scatterv(net, NULL == msg ? NULL : msg + header, counts, displs,
                                    MPI_BYTE, a, ompi_comm_rank(comm));
        rc = mca_coll_shmcico_net_first_error(rc, node_rc);
    }
    free(msg);
    return rc;
}

/* ------------------------------------------------------------------ */
/* Gather                                                               */

static int node_gatherv(const mca_coll_shmcico_net_t *net, const mca_coll_shmcico_args_t *a,
                        void *rbuf, const int *counts, const int *displs,
                        struct ompi_datatype_t *rtype, int leader)
{
    struct ompi_communicator_t *node = net->node_comm;

    return node->c_coll->coll_gatherv(a->own_buf, (int) a->own_count, a->own_type, rbuf,
                                      counts, displs, rtype, net->local_of[leader], node,
                                      node->c_coll->coll_gatherv_module);
}

/* the sizes of the node's blocks, as their senders have them, at the
 * leader */
static int node_sizes(const mca_coll_shmcico_net_t *net, const mca_coll_shmcico_args_t *a,
                      int leader, int *counts)
{
    struct ompi_communicator_t *node = net->node_comm;
    int mine = (int) (a->own_count * type_size(a->own_type));

    return node->c_coll->coll_gather(&mine, 1, MPI_INT, counts, 1, MPI_INT,
                                     net->local_of[leader], node,
                                     node->c_coll->coll_gather_module);
}

/* another node's leader, and its members: the node's blocks, then (the
 * leader) one message to the root */
static int gather_node(const mca_coll_shmcico_net_t *net, struct ompi_communicator_t *comm,
                       const mca_coll_shmcico_args_t *a, int leader, int *counts,
                       int *displs)
{
    int k, rc = node_sizes(net, a, leader, counts), total = 0;
    char *msg = NULL;

    if (ompi_comm_rank(comm) != leader) {
        int node_rc = node_gatherv(net, a, NULL, NULL, NULL, MPI_BYTE, leader);
        return mca_coll_shmcico_net_first_error(rc, node_rc);
    }
    (void) mca_coll_shmcico_net_members(net, net->my_node, &k);
    for (int i = 0; i < k; ++i) {
        displs[i] = total;
        total += MPI_SUCCESS == rc ? counts[i] : 0;
    }
    msg = malloc((size_t) k * sizeof(uint64_t) + (size_t) total + 1);
    for (int i = 0; NULL != msg && i < k; ++i) {
        ((uint64_t *) msg)[i] = MPI_SUCCESS == rc ? (uint64_t) counts[i] : 0;
    }
    {
        /* the node takes part whatever happened, so that it stays in step */
        int node_rc = node_gatherv(net, a, NULL == msg ? NULL : msg + k * sizeof(uint64_t),
                                   counts, displs, MPI_BYTE, leader);
        rc = MPI_SUCCESS != rc ? rc : NULL == msg ? MPI_ERR_NO_MEM : node_rc;
    }
    if (NULL != msg) {
        int send_rc = MCA_PML_CALL(send(msg, k * sizeof(uint64_t) + (size_t) total, MPI_BYTE,
                                        a->root, MCA_COLL_BASE_TAG_GATHERV,
                                        MCA_PML_BASE_SEND_STANDARD, comm));
        rc = mca_coll_shmcico_net_first_error(rc, send_rc);
    }
    free(msg);
    return rc;
}

/* node n's message into its members' blocks, each as large as its
 * sender had it; false when one did not fit */
static bool unpack_node(const mca_coll_shmcico_net_t *net, int n,
                        const mca_coll_shmcico_args_t *a, const char *msg, size_t bytes)
{
    int k;
    const int *members = mca_coll_shmcico_net_members(net, n, &k);
    size_t at = (size_t) k * sizeof(uint64_t), elem = type_size(a->blocks_type);
    bool fits = bytes >= at;

    for (int i = 0; bytes >= at && i < k; ++i) {
        size_t sent = ((const uint64_t *) msg)[i];
        size_t room = elem * mca_coll_shmcico_block_count(&a->layout, members[i]);
        if (sent > bytes - at) {
            return false;           /* a message that does not hold its sizes */
        }
        mca_coll_shmcico_unpack(msg + at, sent < room ? sent : room,
                                mca_coll_shmcico_block_start(a->blocks_buf, &a->layout,
                                                             a->blocks_type, members[i]),
                                mca_coll_shmcico_block_count(&a->layout, members[i]),
                                a->blocks_type);
        fits &= sent <= room;
        at += sent;
    }
    return fits;
}

/* the message of one other node: its size is known once it arrives */
static int receive_node(const mca_coll_shmcico_net_t *net, struct ompi_communicator_t *comm,
                        const mca_coll_shmcico_args_t *a, int n)
{
    ompi_status_public_t status;
    char *msg;
    int rc = MCA_PML_CALL(probe(net->leader[n], MCA_COLL_BASE_TAG_GATHERV, comm, &status));

    if (MPI_SUCCESS != rc) {
        return rc;
    }
    msg = malloc(status._ucount + 1);
    rc = NULL == msg ? MPI_ERR_NO_MEM
        : MCA_PML_CALL(recv(msg, status._ucount, MPI_BYTE, net->leader[n],
                            MCA_COLL_BASE_TAG_GATHERV, comm, MPI_STATUS_IGNORE));
    if (MPI_SUCCESS == rc && !unpack_node(net, n, a, msg, status._ucount)) {
        rc = MPI_ERR_TRUNCATE;
    }
    free(msg);
    return rc;
}

/* the root: its own node straight into its buffer, then one message from
 * every other node */
static int gather_root(const mca_coll_shmcico_net_t *net, struct ompi_communicator_t *comm,
                       const mca_coll_shmcico_args_t *a, int *counts, int *displs)
{
    int rc;

    node_layout(net, net->my_node, a, counts, displs);
    rc = node_gatherv(net, a, (void *) a->blocks_buf, counts, displs, a->blocks_type,
                      a->root);
    for (int i = 1; i < net->nnodes; ++i) {
        int node_rc = receive_node(net, comm, a, (net->my_node + i) % net->nnodes);
        rc = mca_coll_shmcico_net_first_error(rc, node_rc);
    }
    return rc;
}

int mca_coll_shmcico_net_gather(const mca_coll_shmcico_args_t *a,
                                struct ompi_communicator_t *comm,
                                mca_coll_shmcico_module_t *module)
{
    const mca_coll_shmcico_net_t *net = &module->net;
    int leader = mca_coll_shmcico_net_leader(net, net->my_node, a->root);
    int k = ompi_comm_size(net->node_comm), rc;
    int *counts = malloc(2 * (size_t) k * sizeof(int));

    if (NULL == counts) {
        return MPI_ERR_NO_MEM;
    }
    if (ompi_comm_rank(comm) == a->root) {
        rc = gather_root(net, comm, a, counts, counts + k);
    } else if (net->node_of[a->root] == net->my_node) {
        rc = node_gatherv(net, a, NULL, NULL, NULL, MPI_BYTE, leader);
    } else {
        rc = gather_node(net, comm, a, leader, counts, counts + k);
    }
    free(counts);
    return rc;
}

int mca_coll_shmcico_net_scatter(const mca_coll_shmcico_args_t *a,
                                 struct ompi_communicator_t *comm,
                                 mca_coll_shmcico_module_t *module)
{
    const mca_coll_shmcico_net_t *net = &module->net;
    int me = ompi_comm_rank(comm), leader = mca_coll_shmcico_net_leader(net, net->my_node,
                                                                        a->root);
    int *counts = malloc(2 * (size_t) ompi_comm_size(net->node_comm) * sizeof(int)), rc;

    if (NULL == counts) {
        return MPI_ERR_NO_MEM;
    }
    if (me == a->root) {
        rc = scatter_root(net, comm, a, counts, counts + ompi_comm_size(net->node_comm));
    } else if (me == leader) {
        rc = scatter_leader(net, comm, a, counts, counts + ompi_comm_size(net->node_comm));
    } else {
        rc = node_scatterv(net, NULL, NULL, NULL, MPI_BYTE, a, leader);
    }
    free(counts);
    return rc;
}
