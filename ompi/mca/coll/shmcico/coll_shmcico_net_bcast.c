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
 * Bcast across nodes (see coll_shmcico_net.h): the leaders pass the
 * message down a binomial tree of nodes rooted at the root's node, chunk
 * by chunk; a leader forwards a chunk to its child nodes and then
 * broadcasts it in its node while the next chunk travels, so each byte
 * crosses into every node once and the stages overlap.
 *
 * Chunks are cut in bytes of the type signature, so that processes whose
 * datatypes differ (and match) cut them alike.  The root's byte count
 * travels with the first chunk to the leaders, and from each leader to
 * its node in an 8-byte node Bcast ahead of the chunks: every process
 * takes part in as many steps as the root's message needs, also one
 * whose own count is wrong (it gets MPI_ERR_TRUNCATE, receives into a
 * scratch buffer, and a leader still forwards the right bytes).
 */

#include "ompi_config.h"

#include <stdlib.h>

#include "ompi/mca/coll/base/coll_tags.h"
#include "ompi/mca/pml/pml.h"

#include "coll_shmcico_net.h"

/* bytes of a chunk of the pipeline: large enough for the network to run
 * at speed, small enough that the node stage starts early */
#define NET_CHUNK ((size_t) 512 << 10)
/* a node of a binomial tree over at most 2^31 - 1 nodes has at most 31
 * children */
#define MAX_CHILDREN 32

typedef struct tree_t {
    int parent;                     /* leader of the parent node, -1: root's node */
    int children[MAX_CHILDREN];     /* leaders of the child nodes */
    int nchildren;
} tree_t;

/* one process's buffer as the bytes of its type signature */
typedef struct net_stream_t {
    mca_coll_shmcico_dstream_t ds;  /* packed or unpacked in order, chunk by chunk */
    size_t total;                   /* bytes of this process's buffer */
    uint64_t expected;              /* bytes of the root's message, as this process
                                       goes by them (0: no chunk follows) */
    char *stage[2];                 /* a chunk each: non-contiguous or wrong count */
    bool sending;                   /* the root's: packed into the stages */
} net_stream_t;

/* the binomial tree over nodes (coll_shmcico_tree.c's knomial tree of
 * degree 2), rooted at the root's node, its nodes by their leaders */
static void node_tree(const mca_coll_shmcico_net_t *net, int root, tree_t *t)
{
    mca_coll_shmcico_tree_t nodes;
    int first = net->node_of[root], parent;

    /* a plain shape allocates nothing and, with these arguments, cannot fail */
    (void) mca_coll_shmcico_tree_init(&nodes, MCA_COLL_SHMCICO_TREE_KNOMIAL, 2, net->nnodes,
                                      NULL);
    parent = mca_coll_shmcico_tree_parent(&nodes, net->my_node, first);
    t->parent = parent < 0 ? -1 : mca_coll_shmcico_net_leader(net, parent, root);
    t->nchildren = mca_coll_shmcico_tree_children(&nodes, net->my_node, first, t->children);
    for (int i = 0; i < t->nchildren; ++i) {
        t->children[i] = mca_coll_shmcico_net_leader(net, t->children[i], root);
    }
}

/* ------------------------------------------------------------------ */
/* The byte stream of a call                                            */

static void stream_open(net_stream_t *s, const mca_coll_shmcico_args_t *a, bool sending)
{
    mca_coll_shmcico_dstream_init(&s->ds, a->own_buf, a->own_count, a->own_type, sending);
    s->total = s->ds.stream.length;
    s->expected = s->total;
    s->stage[0] = s->stage[1] = NULL;
    s->sending = sending;
}

static void stream_close(net_stream_t *s)
{
    mca_coll_shmcico_dstream_fini(&s->ds);
    free(s->stage[0]);
    free(s->stage[1]);
}

static bool matches(const net_stream_t *s)
{
    return s->total == s->expected;
}

/* chunks go through the stages (packed or unpacked there) where the buffer
 * is not contiguous or the counts differ (wrong_count: the first chunk's
 * length says so already), and some chunk follows; 0, or ENOMEM */
static int staged(net_stream_t *s, bool wrong_count)
{
    if (0 == s->expected || (NULL != s->ds.stream.contig && matches(s) && !wrong_count)) {
        return 0;
    }
    for (int i = 0; i < 2; ++i) {
        s->stage[i] = NULL == s->stage[i] ? malloc(NET_CHUNK) : s->stage[i];
    }
    return NULL == s->stage[0] || NULL == s->stage[1] ? ENOMEM : 0;
}

static size_t nchunks(const net_stream_t *s)
{
    return (size_t) ((s->expected + NET_CHUNK - 1) / NET_CHUNK);
}

static size_t chunk_len(const net_stream_t *s, size_t c)
{
    size_t left = (size_t) s->expected - c * NET_CHUNK;
    return left < NET_CHUNK ? left : NET_CHUNK;
}

/* where chunk c lies: in the user's buffer, or in its stage */
static char *chunk_at(const net_stream_t *s, size_t c)
{
    return NULL != s->stage[c % 2] ? s->stage[c % 2]
                                   : (char *) s->ds.stream.contig + c * NET_CHUNK;
}

/* a received chunk from its stage into the user's buffer, as far as it
 * holds (a short one gets the start of the message) */
static void drain(net_stream_t *s, size_t c)
{
    if (!s->sending && NULL != s->stage[c % 2]) {
        (void) mca_coll_shmcico_stream_get(&s->ds.stream, s->stage[c % 2], chunk_len(s, c));
    }
}

/* the root: the user's chunk into its stage */
static void fill(net_stream_t *s, size_t c)
{
    if (NULL != s->stage[c % 2]) {
        mca_coll_shmcico_stream_put(&s->ds.stream, s->stage[c % 2], chunk_len(s, c));
    }
}

static int result_of(const net_stream_t *s, int rc)
{
    return MPI_SUCCESS == rc && !matches(s) ? MPI_ERR_TRUNCATE : rc;
}

/* ------------------------------------------------------------------ */
/* Messages                                                             */

/* the first chunk with the root's byte count ahead of it (the count
 * alone where no chunk follows) */
static int first_type_of(uint64_t *count, char *at, int n, struct ompi_datatype_t *chunk,
                         struct ompi_datatype_t **type)
{
    int lens[2] = { (int) sizeof(*count), n };
    ptrdiff_t displs[2] = { (ptrdiff_t) count, (ptrdiff_t) at };
    struct ompi_datatype_t *types[2] = { &ompi_mpi_byte.dt, chunk };
    int rc = ompi_datatype_create_struct(n > 0 ? 2 : 1, lens, displs, types, type);

    return mca_coll_shmcico_net_commit(rc, type);
}

static int first_type(uint64_t *count, char *at, size_t len, struct ompi_datatype_t **type)
{
    return first_type_of(count, at, (int) len, &ompi_mpi_byte.dt, type);
}

static int send_chunk(struct ompi_communicator_t *comm, int to, net_stream_t *s, size_t c,
                      ompi_request_t **req)
{
    struct ompi_datatype_t *type;
    int rc;

    if (c > 0) {
        return MCA_PML_CALL(isend(chunk_at(s, c), chunk_len(s, c), MPI_BYTE, to,
                                  MCA_COLL_BASE_TAG_BCAST, MCA_PML_BASE_SEND_STANDARD, comm,
                                  req));
    }
    rc = first_type(&s->expected, chunk_at(s, 0), chunk_len(s, 0), &type);
    if (MPI_SUCCESS == rc) {
        /* the type holds absolute addresses; isend keeps its own reference */
        rc = MCA_PML_CALL(isend(NULL, 1, type, to, MCA_COLL_BASE_TAG_BCAST,
                                MCA_PML_BASE_SEND_STANDARD, comm, req));
        ompi_datatype_destroy(&type);
    }
    return rc;
}

/* a leader below the root's node without room for its stages: the
 * root's chunks after the first taken off the wire (its parent's sends
 * end, none is left for the next call), then "no chunk follows" to its
 * node and its child nodes (their processes: MPI_ERR_TRUNCATE, this
 * leader MPI_ERR_NO_MEM) */
static int drain_rest(struct ompi_communicator_t *comm, int parent, net_stream_t *s)
{
    for (size_t c = 1; c < nchunks(s); ++c) {
        /* (where not even that can be done, the error stays MPI_ERR_NO_MEM) */
        (void) mca_coll_shmcico_net_drain(comm, parent, MCA_COLL_BASE_TAG_BCAST,
                                          chunk_len(s, c));
    }
    s->expected = 0;
    return MPI_ERR_NO_MEM;
}

/* the same where the first chunk, len bytes, is not received yet: it
 * goes into a scratch (every piece over the last), the root's count
 * where it belongs */
static int receive_without_stages(struct ompi_communicator_t *comm, int parent,
                                  net_stream_t *s, size_t len)
{
    char scratch[MCA_COLL_SHMCICO_NET_DRAIN_PIECE];
    struct ompi_datatype_t *drained, *type;
    int rc = mca_coll_shmcico_net_drain_type(len, &drained);

    if (MPI_SUCCESS == rc) {
        rc = first_type_of(&s->expected, scratch, 1, drained, &type);
        ompi_datatype_destroy(&drained);
    }
    if (MPI_SUCCESS == rc) {
        rc = MCA_PML_CALL(recv(NULL, 1, type, parent, MCA_COLL_BASE_TAG_BCAST, comm,
                               MPI_STATUS_IGNORE));
        ompi_datatype_destroy(&type);
    }
    if (MPI_SUCCESS != rc) {
        s->expected = 0;            /* nothing came: no chunk follows either */
        return rc;
    }
    return drain_rest(comm, parent, s);
}

/* a leader below the root's node: the first chunk and the root's byte
 * count, received where they fit (the size of the message tells) */
static int receive_first(struct ompi_communicator_t *comm, int parent, net_stream_t *s)
{
    ompi_status_public_t status;
    struct ompi_datatype_t *type;
    size_t len, own = s->total < NET_CHUNK ? s->total : NET_CHUNK;
    int rc = MCA_PML_CALL(probe(parent, MCA_COLL_BASE_TAG_BCAST, comm, &status));
    char *at;

    if (MPI_SUCCESS != rc || status._ucount < sizeof(uint64_t)) {
        return MPI_SUCCESS != rc ? rc : MPI_ERR_INTERN;
    }
    len = status._ucount - sizeof(uint64_t);
    /* (len 0: the count alone, no chunk follows: nothing to stage) */
    if (len > 0 && 0 != staged(s, len != own)) {   /* a wrong count: through the stages */
        return receive_without_stages(comm, parent, s, len);
    }
    at = chunk_at(s, 0);
    rc = first_type(&s->expected, at, len, &type);
    if (MPI_SUCCESS == rc) {
        rc = MCA_PML_CALL(recv(NULL, 1, type, parent, MCA_COLL_BASE_TAG_BCAST, comm,
                               MPI_STATUS_IGNORE));
        ompi_datatype_destroy(&type);
    }
    if (MPI_SUCCESS != rc) {
        s->expected = s->total;     /* nothing came: the node goes by this one's count */
        return rc;
    }
    if (0 != staged(s, false)) {    /* the count received says this one is wrong,
                                       and no room for it */
        return drain_rest(comm, parent, s);
    }
    if (at != chunk_at(s, 0)) {
        memcpy(chunk_at(s, 0), at, len);    /* a wrong count found only now */
    }
    return rc;
}

/* the root: its stages where it needs them, else no chunk follows, to its
 * node and to the child nodes (their processes: MPI_ERR_TRUNCATE, the
 * root MPI_ERR_NO_MEM) */
static int root_first(net_stream_t *s)
{
    if (0 != staged(s, false)) {
        s->expected = 0;
        return MPI_ERR_NO_MEM;
    }
    return MPI_SUCCESS;
}

/* ------------------------------------------------------------------ */
/* The stages                                                           */

/* a Bcast in the node from the leader (its rank in comm), of count
 * elements of type */
static int node_bcast_of(const mca_coll_shmcico_net_t *net, void *buf, size_t count,
                         struct ompi_datatype_t *type, int leader)
{
    struct ompi_communicator_t *node = net->node_comm;

    if (ompi_comm_size(node) < 2) {
        return MPI_SUCCESS;
    }
    return node->c_coll->coll_bcast(buf, (int) count, type, net->local_of[leader], node,
                                    node->c_coll->coll_bcast_module);
}

/* the same of count bytes */
static int node_bcast(const mca_coll_shmcico_net_t *net, void *buf, size_t count,
                      int leader)
{
    return node_bcast_of(net, buf, count, &ompi_mpi_byte.dt, leader);
}

static int wait_sends(ompi_request_t **sends, int *nsends)
{
    int rc = mca_coll_shmcico_net_wait(sends, *nsends);

    *nsends = 0;
    return rc;
}

/* chunk c reached this leader (or is the root's): on to every child node,
 * also after a send to one of them failed (the others wait for it); the
 * first error */
static int send_on(struct ompi_communicator_t *comm, net_stream_t *s, const tree_t *t, size_t c,
                   ompi_request_t **sends, int *nsends)
{
    int rc = MPI_SUCCESS;

    for (int i = 0; i < t->nchildren; ++i) {
        int src = send_chunk(comm, t->children[i], s, c, &sends[*nsends]);
        *nsends += MPI_SUCCESS == src;
        rc = mca_coll_shmcico_net_first_error(rc, src);
    }
    return rc;
}

/* a leader below the root's node: chunk c is here, chunk c + 1 is asked
 * for (into the stage that held chunk c - 1, whose sends end first: their
 * error goes to *out_rc) */
static int receive_next(struct ompi_communicator_t *comm, net_stream_t *s, const tree_t *t,
                        size_t c, ompi_request_t **recv, ompi_request_t *sends[2][MAX_CHILDREN],
                        int *nsends, int *out_rc)
{
    int rc = c > 0 ? mca_coll_shmcico_net_wait(recv, 1) : MPI_SUCCESS;

    if (c + 1 < nchunks(s) && MPI_SUCCESS == rc) {
        *out_rc = mca_coll_shmcico_net_first_error(*out_rc, wait_sends(sends[(c + 1) % 2],
                                                                       &nsends[(c + 1) % 2]));
        rc = MCA_PML_CALL(irecv(chunk_at(s, c + 1), chunk_len(s, c + 1), MPI_BYTE, t->parent,
                                MCA_COLL_BASE_TAG_BCAST, comm, recv));
    }
    return rc;
}

/* a leader: the first chunk (the root has it), then each chunk received,
 * passed on to the child nodes, broadcast in the node, drained into the
 * user's buffer.  The node's steps run whatever the network did, so that
 * the node stays in step; and a leader whose sends on failed still
 * receives every chunk and sends it to the other child nodes, so that no
 * receive outlives the call, none of its parent's chunks is left for the
 * next call and no other child waits for good. */
static int leader_bcast(const mca_coll_shmcico_net_t *net, struct ompi_communicator_t *comm,
                        net_stream_t *s, const tree_t *t)
{
    ompi_request_t *recv = MPI_REQUEST_NULL, *sends[2][MAX_CHILDREN];
    int nsends[2] = { 0, 0 }, me = ompi_comm_rank(comm), in_rc, out_rc = MPI_SUCCESS, node_rc;
    bool root = t->parent < 0;

    in_rc = root ? root_first(s) : receive_first(comm, t->parent, s);
    node_rc = node_bcast(net, &s->expected, sizeof(s->expected), me);
    if (0 == s->expected) {         /* no chunk follows: the count alone tells the
                                       child nodes, which pass it on */
        out_rc = send_on(comm, s, t, 0, sends[0], &nsends[0]);
    }
    for (size_t c = 0; MPI_ERR_NO_MEM != in_rc && c < nchunks(s); ++c) {
        if (!root && MPI_SUCCESS == in_rc) {
            in_rc = receive_next(comm, s, t, c, &recv, sends, nsends, &out_rc);
        }
        if (root) {
            out_rc = mca_coll_shmcico_net_first_error(out_rc, wait_sends(sends[c % 2],
                                                                         &nsends[c % 2]));
            fill(s, c);
        }
        if (MPI_SUCCESS == in_rc) {
            out_rc = mca_coll_shmcico_net_first_error(out_rc, send_on(comm, s, t, c,
                                                                      sends[c % 2],
                                                                      &nsends[c % 2]));
        }
        node_rc = mca_coll_shmcico_net_first_error(node_rc, node_bcast(net, chunk_at(s, c),
                                                                       chunk_len(s, c), me));
        drain(s, c);
    }
    out_rc = mca_coll_shmcico_net_first_error(out_rc, wait_sends(sends[0], &nsends[0]));
    out_rc = mca_coll_shmcico_net_first_error(out_rc, wait_sends(sends[1], &nsends[1]));
    return mca_coll_shmcico_net_first_error(mca_coll_shmcico_net_first_error(in_rc, out_rc),
                                            node_rc);
}

/* a process that is not its node's leader without room for its stages:
 * every chunk's node Bcast still, into a scratch (every piece over the
 * last), so that the node stays in step; MPI_ERR_NO_MEM */
static int member_without_stages(const mca_coll_shmcico_net_t *net, net_stream_t *s,
                                 int leader)
{
    char scratch[MCA_COLL_SHMCICO_NET_DRAIN_PIECE];
    struct ompi_datatype_t *drained;

    for (size_t c = 0; c < nchunks(s); ++c) {
        /* (a type that cannot be made leaves the node waiting, as the
         * stages would have: docs/protocol.md, "Staying in step") */
        if (MPI_SUCCESS == mca_coll_shmcico_net_drain_type(chunk_len(s, c), &drained)) {
            (void) node_bcast_of(net, scratch, 1, drained, leader);
            ompi_datatype_destroy(&drained);
        }
    }
    return MPI_ERR_NO_MEM;
}

/* a process that is not its node's leader: the count, then the chunks */
static int member_bcast(const mca_coll_shmcico_net_t *net, net_stream_t *s, int leader)
{
    int rc = node_bcast(net, &s->expected, sizeof(s->expected), leader);

    if (0 != staged(s, false)) {
        return member_without_stages(net, s, leader);
    }
    for (size_t c = 0; c < nchunks(s); ++c) {
        rc = mca_coll_shmcico_net_first_error(rc, node_bcast(net, chunk_at(s, c),
                                                             chunk_len(s, c), leader));
        drain(s, c);
    }
    return rc;
}

int mca_coll_shmcico_net_bcast(const mca_coll_shmcico_args_t *a,
                               struct ompi_communicator_t *comm,
                               mca_coll_shmcico_module_t *module)
{
    const mca_coll_shmcico_net_t *net = &module->net;
    int me = ompi_comm_rank(comm), rc;
    int leader = mca_coll_shmcico_net_leader(net, net->my_node, a->root);
    net_stream_t s;
    tree_t t;

    stream_open(&s, a, me == a->root);
    if (me == leader) {
        node_tree(net, a->root, &t);
        rc = leader_bcast(net, comm, &s, &t);
    } else {
        rc = member_bcast(net, &s, leader);
    }
    rc = result_of(&s, rc);
    stream_close(&s);
    return rc;
}
