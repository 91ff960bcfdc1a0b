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
 * The network level's setup (see coll_shmcico_net.h): the node
 * communicator, every process's node and NUMA node, and each node's
 * leader.
 */

#include "ompi_config.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>

#include "ompi/group/group.h"
#include "ompi/mca/pml/pml.h"

#include "coll_shmcico_net.h"
#include "coll_shmcico_shm.h"

/* While the node communicator is made, the communicator's collectives
 * must not come back here: they go to the components that would have
 * served them (the split and the exchange use them). */
#define SWAP(op)                                                              \
    {                                                                         \
        mca_coll_base_module_##op##_fn_t fn = comm->c_coll->coll_##op;        \
        mca_coll_base_module_t *m = comm->c_coll->coll_##op##_module;         \
        comm->c_coll->coll_##op = module->previous.op;                        \
        comm->c_coll->coll_##op##_module = module->previous.op##_module;      \
        module->previous.op = fn;                                             \
        module->previous.op##_module = m;                                     \
    }

/* exchange the module's entries with the previous ones (twice: back) */
static void swap_collectives(mca_coll_shmcico_module_t *module,
                             struct ompi_communicator_t *comm)
{
    MCA_COLL_SHMCICO_FOR_EACH_OP(SWAP)
}

/* the node communicator, and (node id, NUMA node) of every process; the
 * node id is the lowest rank on the node.  alloc_err: this process's
 * allocation failed; every process learns it in the first round and
 * none goes on (a process that stopped alone would leave the others
 * waiting in the split). */
static int split_nodes(mca_coll_shmcico_net_t *net, struct ompi_communicator_t *comm,
                       int alloc_err, int32_t *pairs)
{
    mca_coll_shmcico_numa_info_t where;
    int agreed[2] = { ompi_group_count_local_peers(comm->c_local_group), 0 != alloc_err };
    int zero = 0;
    int32_t mine[2];

    if (OMPI_SUCCESS != comm->c_coll->coll_allreduce(MPI_IN_PLACE, agreed, 2, MPI_INT, MPI_MAX,
                                                     comm,
                                                     comm->c_coll->coll_allreduce_module)) {
        return EIO;
    }
    if (agreed[1]) {
        return ENOMEM;              /* some process could not allocate */
    }
    if (agreed[0] <= 1) {
        return ENOTSUP;             /* every node holds one process */
    }
    if (OMPI_SUCCESS != ompi_comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, NULL,
                                             &net->node_comm)) {
        return EIO;
    }
    net->node_comm_index = MCA_COLL_SHMCICO_COMM_INDEX(net->node_comm);
    mca_coll_shmcico_numa_query(&where);
    ompi_group_translate_ranks(net->node_comm->c_local_group, 1, &zero, comm->c_local_group,
                               &mine[0]);
    mine[1] = where.node;
    return OMPI_SUCCESS == comm->c_coll->coll_allgather(mine, 2, MPI_INT32_T, pairs, 2,
                                                        MPI_INT32_T, comm,
                                                        comm->c_coll->coll_allgather_module)
        ? 0 : EIO;
}

/* node indices in the order of their lowest rank, members in rank order */
static void make_maps(mca_coll_shmcico_net_t *net, const int32_t *pairs, int p)
{
    /* a node's key is its lowest rank; groups come in the order of their
     * lowest rank, members in rank order, as the node communicator's */
    net->nnodes = mca_coll_shmcico_group_ranks(pairs, 2, p, net->node_of, net->local_of,
                                               net->node_start, net->members);
}

/* the lowest rank on the NUMA node that holds most of the node's ranks */
static int choose_leader(const mca_coll_shmcico_net_t *net, const int32_t *pairs, int n)
{
    int count, best = -1, best_count = 0;
    const int *members = mca_coll_shmcico_net_members(net, n, &count);

    for (int i = 0; i < count; ++i) {
        int same = 0;
        for (int j = 0; j < count; ++j) {
            same += pairs[2 * members[j] + 1] == pairs[2 * members[i] + 1];
        }
        if (same > best_count) {
            best = members[i];
            best_count = same;
        }
    }
    return best;
}

static int alloc_maps(mca_coll_shmcico_net_t *net, int p)
{
    net->node_of = calloc((size_t) p, sizeof(int));
    net->local_of = calloc((size_t) p, sizeof(int));
    net->node_start = calloc((size_t) p + 1, sizeof(int));
    net->members = calloc((size_t) p, sizeof(int));
    net->leader = calloc((size_t) p, sizeof(int));
    net->scratch = calloc(2 * (size_t) p, sizeof(int));
    return NULL == net->node_of || NULL == net->local_of || NULL == net->node_start
        || NULL == net->members || NULL == net->leader || NULL == net->scratch ? ENOMEM : 0;
}

/* what a call works in besides the scratch (coll_shmcico.h) */
static int alloc_work(mca_coll_shmcico_net_t *net, int p)
{
    net->sizes = calloc((size_t) p, sizeof(uint64_t));
    net->told = calloc((size_t) p, sizeof(uint64_t));
    net->reqs = calloc(2 * (size_t) p, sizeof(ompi_request_t *));
    net->msgs = calloc((size_t) p, sizeof(char *));
    net->types = calloc((size_t) p, sizeof(struct ompi_datatype_t *));
    return NULL == net->sizes || NULL == net->told || NULL == net->reqs || NULL == net->msgs
        || NULL == net->types ? ENOMEM : 0;
}

int mca_coll_shmcico_net_setup(mca_coll_shmcico_module_t *module,
                               struct ompi_communicator_t *comm)
{
    mca_coll_shmcico_net_t *net = &module->net;
    int p = ompi_comm_size(comm), err;
    int32_t *pairs = malloc(2 * (size_t) p * sizeof(int32_t));

    err = NULL == pairs || 0 != alloc_maps(net, p) || 0 != alloc_work(net, p) ? ENOMEM : 0;
    swap_collectives(module, comm);
    err = split_nodes(net, comm, err, pairs);
    swap_collectives(module, comm);
    if (0 == err) {
        mca_coll_shmcico_module_t *inner;

        make_maps(net, pairs, p);
        /* the node stages follow this communicator's parameters and
         * hints (and later hints too: coll_shmcico_hints.c) */
        inner = mca_coll_shmcico_set_inner(net->node_comm, &module->params);
        net->my_node = net->node_of[ompi_comm_rank(comm)];
        for (int n = 0; n < net->nnodes; ++n) {
            net->leader[n] = choose_leader(net, pairs, n);
        }
        /* the node segment now, by every process of the node at once, so
         * that what this communicator reports in effect is its */
        if (NULL != inner) {
            (void) mca_coll_shmcico_ready(inner, net->node_comm);
        }
        mca_coll_shmcico_hints_publish(module, comm);
    }
    free(pairs);
    return err;
}

int mca_coll_shmcico_net_wait(ompi_request_t **reqs, int n)
{
    int rc = MPI_SUCCESS;

    for (int i = 0; i < n; ++i) {
        /* a request that ended in an error is left to its owner to free */
        int wrc = ompi_request_wait(&reqs[i], MPI_STATUS_IGNORE);
        if (MPI_SUCCESS != wrc && MPI_REQUEST_NULL != reqs[i]) {
            (void) ompi_request_free(&reqs[i]);
        }
        rc = mca_coll_shmcico_net_first_error(rc, wrc);
    }
    return rc;
}

int mca_coll_shmcico_net_commit(int made, struct ompi_datatype_t **type)
{
    int rc = OMPI_SUCCESS == made ? ompi_datatype_commit(type) : made;

    if (OMPI_SUCCESS == made && OMPI_SUCCESS != rc) {
        ompi_datatype_destroy(type);
    }
    return rc;
}

#define DRAIN_PIECE MCA_COLL_SHMCICO_NET_DRAIN_PIECE

/* (pieces of extent 0, then the rest) MPI calls a receive into
 * overlapping elements erroneous; Open MPI's convertor writes them one
 * after the other, which is all a drain needs (and ob1 does not use RDMA
 * into a buffer that is not contiguous). */
int mca_coll_shmcico_net_drain_type(size_t bytes, struct ompi_datatype_t **type)
{
    struct ompi_datatype_t *piece = NULL, *tight = NULL;
    int lens[2] = { (int) (bytes / DRAIN_PIECE), (int) (bytes % DRAIN_PIECE) };
    ptrdiff_t displs[2] = { 0, 0 };
    int rc = bytes / DRAIN_PIECE > INT_MAX ? MPI_ERR_COUNT
        : ompi_datatype_create_contiguous(DRAIN_PIECE, &ompi_mpi_byte.dt, &piece);

    if (OMPI_SUCCESS == rc) {
        rc = ompi_datatype_create_resized(piece, 0, 0, &tight);
        ompi_datatype_destroy(&piece);
    }
    if (OMPI_SUCCESS == rc) {
        struct ompi_datatype_t *types[2] = { tight, &ompi_mpi_byte.dt };
        rc = ompi_datatype_create_struct(2, lens, displs, types, type);
        ompi_datatype_destroy(&tight);
    }
    return mca_coll_shmcico_net_commit(rc, type);
}

int mca_coll_shmcico_net_drain(struct ompi_communicator_t *comm, int src, int tag, size_t bytes)
{
    char scratch[DRAIN_PIECE];
    struct ompi_datatype_t *type = NULL;
    int rc = mca_coll_shmcico_net_drain_type(bytes, &type);

    if (OMPI_SUCCESS == rc) {
        rc = MCA_PML_CALL(recv(scratch, 1, type, src, tag, comm, MPI_STATUS_IGNORE));
        ompi_datatype_destroy(&type);
    }
    return rc;
}

int mca_coll_shmcico_net_receive_any_length(struct ompi_communicator_t *comm, int src, int tag,
                                            char **msg, size_t *bytes)
{
    ompi_status_public_t status;
    int rc = MCA_PML_CALL(probe(src, tag, comm, &status));

    *msg = NULL;
    *bytes = 0;
    if (MPI_SUCCESS != rc) {
        return rc;
    }
    *bytes = status._ucount;
    *msg = malloc(*bytes + 1);
    if (NULL == *msg) {
        (void) mca_coll_shmcico_net_drain(comm, src, tag, *bytes);
        return MPI_ERR_NO_MEM;
    }
    return MCA_PML_CALL(recv(*msg, *bytes, MPI_BYTE, src, tag, comm, MPI_STATUS_IGNORE));
}

void mca_coll_shmcico_net_release(mca_coll_shmcico_net_t *net)
{
    /* at MPI_Finalize the node communicator may have gone first (a lower
     * index than this one's): then it is not freed twice */
    if (NULL != net->node_comm
        && mca_coll_shmcico_comm_exists(net->node_comm, net->node_comm_index)) {
        ompi_comm_free(&net->node_comm);
    }
    net->node_comm = NULL;
    free(net->node_of);
    free(net->local_of);
    free(net->node_start);
    free(net->members);
    free(net->leader);
    free(net->scratch);
    free(net->sizes);
    free(net->told);
    free(net->reqs);
    free(net->msgs);
    free(net->types);
    memset(net, 0, sizeof(*net));
}

int mca_coll_shmcico_net_unit(const mca_coll_shmcico_args_t *a, int p,
                              mca_coll_shmcico_net_unit_t *unit)
{
    size_t count = a->layout.count;

    unit->type = a->blocks_type;
    unit->elements = 1;
    if (NULL != a->layout.counts || 0 == count || (uint64_t) (p - 1) * count <= INT_MAX) {
        return MPI_SUCCESS;
    }
    /* count <= INT_MAX: it came as an int */
    if (OMPI_SUCCESS != ompi_datatype_create_contiguous((int) count, a->blocks_type,
                                                        &unit->type)
        || OMPI_SUCCESS != ompi_datatype_commit(&unit->type)) {
        mca_coll_shmcico_net_unit_free(a, unit);
        unit->elements = 0;
        return MPI_ERR_NO_MEM;
    }
    unit->elements = count;
    return MPI_SUCCESS;
}

void mca_coll_shmcico_net_unit_free(const mca_coll_shmcico_args_t *a,
                                    mca_coll_shmcico_net_unit_t *unit)
{
    if (NULL != unit->type && unit->type != a->blocks_type) {
        ompi_datatype_destroy(&unit->type);
    }
    unit->type = a->blocks_type;
}
