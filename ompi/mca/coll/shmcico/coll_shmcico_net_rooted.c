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
 * others' blocks: only it gets MPI_ERR_TRUNCATE.  A block too large for
 * a node stage's int counts goes between its process and the leader
 * apart (docs/protocol.md, "Blocks apart").
 */

#include "ompi_config.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "ompi/mca/coll/base/coll_tags.h"
#include "ompi/mca/pml/pml.h"

#include "coll_shmcico_net.h"
#include "coll_shmcico_net_apart.h"

static size_t type_size(struct ompi_datatype_t *dtype)
{
    size_t size;

    ompi_datatype_type_size(dtype, &size);
    return size;
}

/* counts and displacements (units) of node n's blocks in the root's
 * buffer of blocks, in node order */
static void node_layout(const mca_coll_shmcico_net_t *net, int n,
                        const mca_coll_shmcico_args_t *a,
                        const mca_coll_shmcico_net_unit_t *unit, int *counts, int *displs)
{
    int k;
    const int *members = mca_coll_shmcico_net_members(net, n, &k);

    mca_coll_shmcico_net_blocks(a, unit, members, k, counts, displs);
}

/* What a call keeps per member of this process's node: the node stage's
 * counts and displacements, the blocks' sizes (bytes, as their senders
 * have them), the requests of the blocks apart; in what the setup made
 * (coll_shmcico.h), so that no call runs out of it. */
typedef struct per_member_t {
    int *counts;
    int *displs;
    uint64_t *sizes;
    uint64_t *told;                 /**< Scatter: what each member learns of its block */
    ompi_request_t **reqs;
} per_member_t;

static per_member_t per_member(const mca_coll_shmcico_net_t *net)
{
    int k = ompi_comm_size(net->node_comm);
    per_member_t m = { net->scratch, net->scratch + k, net->sizes, net->told, net->reqs };

    return m;
}

/* A size no block has: what a Scatter member learns in the node stage
 * of sizes where its leader holds nothing for it, and what a Gather
 * leader tells the root of a block that never came (out of memory), so
 * that they return an error instead of success with buffers untouched
 * or garbage. */
#define NO_BLOCK UINT64_MAX

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

/* the node stage of a Scatter(v); own: whether this process's block
 * comes through it (not apart) */
static int node_scatterv(const mca_coll_shmcico_net_t *net, const void *sbuf, const int *counts,
                         const int *displs, struct ompi_datatype_t *stype,
                         const mca_coll_shmcico_args_t *a, bool own, int leader)
{
    struct ompi_communicator_t *node = net->node_comm;

    return node->c_coll->coll_scatterv(sbuf, counts, displs, stype, (void *) a->own_buf,
                                       own ? (int) a->own_count : 0, a->own_type,
                                       net->local_of[leader], node,
                                       node->c_coll->coll_scatterv_module);
}

/* the node stage of a Gather(v); own: whether this process's block goes
 * through it (not apart) */
static int node_gatherv(const mca_coll_shmcico_net_t *net, const mca_coll_shmcico_args_t *a,
                        bool own, void *rbuf, const int *counts, const int *displs,
                        struct ompi_datatype_t *rtype, int leader)
{
    struct ompi_communicator_t *node = net->node_comm;

    return node->c_coll->coll_gatherv(a->own_buf, own ? (int) a->own_count : 0, a->own_type,
                                      rbuf, counts, displs, rtype, net->local_of[leader], node,
                                      node->c_coll->coll_gatherv_module);
}

/* the node stage of sizes on another node than the root's: each member
 * learns the bytes of its block as the root packed it */
static int node_scatter_sizes(const mca_coll_shmcico_net_t *net, const uint64_t *sizes,
                              uint64_t *mine, int leader)
{
    struct ompi_communicator_t *node = net->node_comm;

    return node->c_coll->coll_scatter(sizes, 1, MPI_UINT64_T, mine, 1, MPI_UINT64_T,
                                      net->local_of[leader], node,
                                      node->c_coll->coll_scatter_module);
}

/* the root's own node, from (scatter) or into its buffer of blocks */
static int root_node(const mca_coll_shmcico_net_t *net, struct ompi_communicator_t *comm,
                     const mca_coll_shmcico_args_t *a, int *counts, int *displs, bool scatter)
{
    mca_coll_shmcico_net_unit_t unit;
    int rc = mca_coll_shmcico_net_unit(a, ompi_comm_size(comm), &unit);

    node_layout(net, net->my_node, a, &unit, counts, displs);
    rc = mca_coll_shmcico_net_first_error(rc, scatter
        ? node_scatterv(net, a->blocks_buf, counts, displs, unit.type, a, true, a->root)
        : node_gatherv(net, a, true, (void *) a->blocks_buf, counts, displs, unit.type,
                       a->root));
    mca_coll_shmcico_net_unit_free(a, &unit);
    return rc;
}

/* the root: one message to every other node, its own node from its buffer */
static int scatter_root(const mca_coll_shmcico_net_t *net, struct ompi_communicator_t *comm,
                        const mca_coll_shmcico_args_t *a, int *counts, int *displs)
{
    ompi_request_t **sends = net->reqs;
    char **msgs = net->msgs;
    int rc = MPI_SUCCESS, nsends = 0;

    for (int n = 0; n < net->nnodes; ++n) {
        size_t bytes = 0;
        int send_rc;
        msgs[n] = NULL;
        if (n == net->my_node) {
            continue;
        }
        msgs[n] = pack_node(net, n, a, &bytes);
        /* without memory for it, an empty message: the node learns that
         * nothing comes for it, and no leader is left waiting */
        rc = mca_coll_shmcico_net_first_error(rc, NULL == msgs[n] ? MPI_ERR_NO_MEM
                                                                  : MPI_SUCCESS);
        send_rc = MCA_PML_CALL(isend(msgs[n], NULL == msgs[n] ? 0 : bytes, MPI_BYTE,
                                     net->leader[n], MCA_COLL_BASE_TAG_SCATTERV,
                                     MCA_PML_BASE_SEND_STANDARD, comm, &sends[nsends]));
        nsends += MPI_SUCCESS == send_rc;
        rc = mca_coll_shmcico_net_first_error(rc, send_rc);
    }
    rc = mca_coll_shmcico_net_first_error(rc, root_node(net, comm, a, counts, displs, true));
    rc = mca_coll_shmcico_net_first_error(rc, mca_coll_shmcico_net_wait(sends, nsends));
    for (int n = 0; n < net->nnodes; ++n) {
        free(msgs[n]);
    }
    return rc;
}

/* the sizes of the blocks of the root's message for this node, from its
 * header (zeros where it did not arrive or does not hold them) */
static void message_sizes(const char *msg, size_t bytes, int k, uint64_t *sizes)
{
    size_t header = (size_t) k * sizeof(uint64_t);
    bool holds = NULL != msg && bytes >= header;
    uint64_t left = holds ? bytes - header : 0;

    for (int i = 0; holds && i < k; ++i) {
        sizes[i] = ((const uint64_t *) msg)[i];
        holds = sizes[i] <= left;
        left -= holds ? sizes[i] : 0;
    }
    if (!holds) {
        memset(sizes, 0, (size_t) k * sizeof(uint64_t));
    }
}

/* The sizes a Scatter leader's members learn: each block's, or NO_BLOCK
 * where the leader has none for the member: no message (lost), or no
 * stage for a block that goes through it (staged_lost). */
static const uint64_t *told_sizes(per_member_t *m, int k, bool lost, bool staged_lost)
{
    for (int i = 0; i < k; ++i) {
        bool apart = mca_coll_shmcico_net_apart(m->sizes[i], k);
        m->told[i] = lost || (staged_lost && !apart && 0 != m->sizes[i]) ? NO_BLOCK
                                                                         : m->sizes[i];
    }
    return m->told;
}

/* another node's leader: the root's message, its stage, then the node:
 * the sizes, the staged blocks, the blocks apart */
static int scatter_leader(const mca_coll_shmcico_net_t *net, struct ompi_communicator_t *comm,
                          const mca_coll_shmcico_args_t *a, per_member_t *m)
{
    int k = ompi_comm_size(net->node_comm), me = ompi_comm_rank(comm), rc, nreqs = 0;
    size_t bytes, staged;
    char *msg, *blocks, *stage;
    uint64_t mine = NO_BLOCK;  /* so where the node Scatter fails */
    bool any, lost, staged_lost;

    rc = mca_coll_shmcico_net_receive_any_length(comm, a->root, MCA_COLL_BASE_TAG_SCATTERV,
                                                 &msg, &bytes);
    /* shorter than its header: the root had no memory for this node's */
    lost = MPI_SUCCESS != rc || bytes < (size_t) k * sizeof(uint64_t);
    rc = mca_coll_shmcico_net_first_error(rc, lost ? MPI_ERR_NO_MEM : MPI_SUCCESS);
    message_sizes(lost ? NULL : msg, bytes, k, m->sizes);
    any = mca_coll_shmcico_net_stage_layout(m->sizes, k, m->counts, m->displs, &staged);
    blocks = NULL == msg ? NULL : msg + (size_t) k * sizeof(uint64_t);
    stage = mca_coll_shmcico_net_stage_of(blocks, any, staged);
    staged_lost = NULL == stage && staged > 0;
    if (staged_lost) {
        memset(m->counts, 0, (size_t) k * sizeof(int));     /* out of memory */
        rc = mca_coll_shmcico_net_first_error(rc, MPI_ERR_NO_MEM);
    } else if (any) {
        mca_coll_shmcico_net_restage(blocks, stage, m->sizes, m->counts, m->displs, k, false);
    }
    /* the node takes part whatever happened, so that it stays in step */
    rc = mca_coll_shmcico_net_first_error(
        rc, node_scatter_sizes(net, told_sizes(m, k, lost, staged_lost), &mine, me));
    if (any && NULL != blocks) {
        /* the members apart wait for their message whatever else failed */
        nreqs = mca_coll_shmcico_net_post_apart(net, comm, a, blocks, m->sizes, false, m->reqs,
                                                &rc);
    }
    rc = mca_coll_shmcico_net_first_error(
        rc, node_scatterv(net, stage, m->counts, m->displs, MPI_BYTE, a,
                          NO_BLOCK != mine && !mca_coll_shmcico_net_apart(mine, k), me));
    rc = mca_coll_shmcico_net_first_error(rc, mca_coll_shmcico_net_wait(m->reqs, nreqs));
    free(stage != blocks ? stage : NULL);
    free(msg);
    return rc;
}

/* a member of another node than the root's: its size, then its block
 * through the node stage or apart */
static int scatter_member(const mca_coll_shmcico_net_t *net, struct ompi_communicator_t *comm,
                          const mca_coll_shmcico_args_t *a, int leader)
{
    uint64_t mine = 0;
    int rc = node_scatter_sizes(net, NULL, &mine, leader);
    bool lost = NO_BLOCK == mine;   /* its leader has nothing for it */
    bool out = !lost && mca_coll_shmcico_net_apart(mine, ompi_comm_size(net->node_comm));

    rc = mca_coll_shmcico_net_first_error(rc, lost ? MPI_ERR_NO_MEM : MPI_SUCCESS);
    rc = mca_coll_shmcico_net_first_error(rc, node_scatterv(net, NULL, NULL, NULL, MPI_BYTE,
                                                            a, !lost && !out, leader));
    if (out && mine > a->own_count * type_size(a->own_type)) {
        /* a short receiver (an erroneous call): its block off the wire,
         * nothing written (a receive shorter than its message may write
         * it whole past the buffer: coll_shmcico_net_allgather.c) */
        (void) mca_coll_shmcico_net_drain(comm, leader, MCA_COLL_BASE_TAG_SCATTERV, mine);
        rc = mca_coll_shmcico_net_first_error(rc, MPI_ERR_TRUNCATE);
    } else if (out) {
        int recv_rc = MCA_PML_CALL(recv((void *) a->own_buf, a->own_count, a->own_type,
                                        leader, MCA_COLL_BASE_TAG_SCATTERV, comm,
                                        MPI_STATUS_IGNORE));
        rc = mca_coll_shmcico_net_first_error(rc, recv_rc);
    }
    return rc;
}

/* ------------------------------------------------------------------ */
/* Gather                                                               */

/* the node stage of sizes: the bytes of each member's block, as its
 * sender has them, at the leader (sizes: NULL at the others) */
static int node_sizes(const mca_coll_shmcico_net_t *net, uint64_t mine, int leader,
                      uint64_t *sizes)
{
    struct ompi_communicator_t *node = net->node_comm;

    return node->c_coll->coll_gather(&mine, 1, MPI_UINT64_T, sizes, 1, MPI_UINT64_T,
                                     net->local_of[leader], node,
                                     node->c_coll->coll_gather_module);
}

/* a member of another node than the root's: its size, then its block
 * through the node stage or apart */
static int gather_member(const mca_coll_shmcico_net_t *net, struct ompi_communicator_t *comm,
                         const mca_coll_shmcico_args_t *a, int leader)
{
    uint64_t mine = a->own_count * type_size(a->own_type);
    bool out = mca_coll_shmcico_net_apart(mine, ompi_comm_size(net->node_comm));
    int rc = node_sizes(net, mine, leader, NULL);

    rc = mca_coll_shmcico_net_first_error(rc, node_gatherv(net, a, !out, NULL, NULL, NULL,
                                                           MPI_BYTE, leader));
    if (out) {
        int send_rc = MCA_PML_CALL(send(a->own_buf, a->own_count, a->own_type, leader,
                                        MCA_COLL_BASE_TAG_GATHERV, MCA_PML_BASE_SEND_STANDARD,
                                        comm));
        rc = mca_coll_shmcico_net_first_error(rc, send_rc);
    }
    return rc;
}

/* A Gather leader's message to the root: the sizes, then the blocks.  A
 * block that never came (lost: no stage, or no message at all) gets a
 * size no message holds, so that the root reports an error instead of
 * taking garbage; without a message, the sizes alone, so that the root
 * still hears from this node. */
static int send_to_root(struct ompi_communicator_t *comm, const mca_coll_shmcico_args_t *a,
                        uint64_t *sizes, int k, char *msg, size_t total, bool lost)
{
    size_t header = (size_t) k * sizeof(uint64_t);

    for (int i = 0; lost && i < k; ++i) {
        if (0 != sizes[i] && (NULL == msg || !mca_coll_shmcico_net_apart(sizes[i], k))) {
            sizes[i] = NO_BLOCK;
        }
    }
    if (NULL != msg) {
        memcpy(msg, sizes, header);
    }
    return MCA_PML_CALL(send(NULL != msg ? msg : (char *) sizes,
                             NULL != msg ? header + total : header, MPI_BYTE, a->root,
                             MCA_COLL_BASE_TAG_GATHERV, MCA_PML_BASE_SEND_STANDARD, comm));
}

/* another node's leader: the node's blocks (the staged ones through the
 * node stage, the others apart) into one message, then that message to
 * the root: the sizes, then the blocks in node order */
static int gather_leader(const mca_coll_shmcico_net_t *net, struct ompi_communicator_t *comm,
                         const mca_coll_shmcico_args_t *a, per_member_t *m)
{
    int k = ompi_comm_size(net->node_comm), me = ompi_comm_rank(comm), nreqs = 0;
    int rc = node_sizes(net, a->own_count * type_size(a->own_type), me, m->sizes);
    size_t header = (size_t) k * sizeof(uint64_t), total = 0, staged;
    char *msg, *stage;
    bool any, own, lost;

    for (int i = 0; i < k; ++i) {
        m->sizes[i] = MPI_SUCCESS == rc ? m->sizes[i] : 0;
        total += m->sizes[i];
    }
    any = mca_coll_shmcico_net_stage_layout(m->sizes, k, m->counts, m->displs, &staged);
    msg = malloc(header + total + 1);
    stage = mca_coll_shmcico_net_stage_of(NULL == msg ? NULL : msg + header, any, staged);
    if (NULL == stage) {
        memset(m->counts, 0, (size_t) k * sizeof(int));     /* out of memory */
        rc = mca_coll_shmcico_net_first_error(rc, MPI_ERR_NO_MEM);
    }
    if (any && NULL != msg) {
        /* the members apart send whatever else failed */
        nreqs = mca_coll_shmcico_net_post_apart(net, comm, a, msg + header, m->sizes, true,
                                                m->reqs, &rc);
    }
    /* the node takes part whatever happened, so that it stays in step */
    own = !mca_coll_shmcico_net_apart(m->sizes[net->local_of[me]], k);
    rc = mca_coll_shmcico_net_first_error(
        rc, node_gatherv(net, a, own, stage, m->counts, m->displs, MPI_BYTE, me));
    rc = mca_coll_shmcico_net_first_error(rc, mca_coll_shmcico_net_wait(m->reqs, nreqs));
    if (any && NULL == msg) {
        /* they send after the node stage: no room, but not left waiting */
        mca_coll_shmcico_net_drain_apart(net, comm, m->sizes);
    }
    lost = NULL == stage;
    if (!lost && any) {
        mca_coll_shmcico_net_restage(msg + header, stage, m->sizes, m->counts, m->displs, k, true);
        free(stage);
    }
    rc = mca_coll_shmcico_net_first_error(rc, send_to_root(comm, a, m->sizes, k, msg, total,
                                                           lost));
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
    char *msg;
    size_t bytes;
    int rc = mca_coll_shmcico_net_receive_any_length(comm, net->leader[n],
                                                     MCA_COLL_BASE_TAG_GATHERV, &msg, &bytes);

    if (MPI_SUCCESS == rc && !unpack_node(net, n, a, msg, bytes)) {
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
    int rc = root_node(net, comm, a, counts, displs, false);

    for (int i = 1; i < net->nnodes; ++i) {
        int node_rc = receive_node(net, comm, a, (net->my_node + i) % net->nnodes);
        rc = mca_coll_shmcico_net_first_error(rc, node_rc);
    }
    return rc;
}

/* A process's part in a call with a root across nodes. */
typedef enum {
    ROLE_ROOT,
    ROLE_ROOT_NODE,                 /* another process of the root's node */
    ROLE_LEADER,                    /* the leader of another node */
    ROLE_MEMBER                     /* another process of another node */
} role_t;

static role_t role_of(const mca_coll_shmcico_net_t *net, struct ompi_communicator_t *comm,
                      int root, int *leader)
{
    int me = ompi_comm_rank(comm);

    *leader = mca_coll_shmcico_net_leader(net, net->my_node, root);
    return me == root ? ROLE_ROOT
        : net->node_of[root] == net->my_node ? ROLE_ROOT_NODE
        : me == *leader ? ROLE_LEADER : ROLE_MEMBER;
}

int mca_coll_shmcico_net_gather(const mca_coll_shmcico_args_t *a,
                                struct ompi_communicator_t *comm,
                                mca_coll_shmcico_module_t *module)
{
    const mca_coll_shmcico_net_t *net = &module->net;
    per_member_t m = per_member(net);
    int leader, rc = MPI_ERR_INTERN;

    switch (role_of(net, comm, a->root, &leader)) {
    case ROLE_ROOT: rc = gather_root(net, comm, a, m.counts, m.displs); break;
    case ROLE_ROOT_NODE:
        rc = node_gatherv(net, a, true, NULL, NULL, NULL, MPI_BYTE, leader);
        break;
    case ROLE_LEADER: rc = gather_leader(net, comm, a, &m); break;
    case ROLE_MEMBER: rc = gather_member(net, comm, a, leader); break;
    }
    return rc;
}

int mca_coll_shmcico_net_scatter(const mca_coll_shmcico_args_t *a,
                                 struct ompi_communicator_t *comm,
                                 mca_coll_shmcico_module_t *module)
{
    const mca_coll_shmcico_net_t *net = &module->net;
    per_member_t m = per_member(net);
    int leader, rc = MPI_ERR_INTERN;

    switch (role_of(net, comm, a->root, &leader)) {
    case ROLE_ROOT: rc = scatter_root(net, comm, a, m.counts, m.displs); break;
    case ROLE_ROOT_NODE:
        rc = node_scatterv(net, NULL, NULL, NULL, MPI_BYTE, a, true, leader);
        break;
    case ROLE_LEADER: rc = scatter_leader(net, comm, a, &m); break;
    case ROLE_MEMBER: rc = scatter_member(net, comm, a, leader); break;
    }
    return rc;
}
