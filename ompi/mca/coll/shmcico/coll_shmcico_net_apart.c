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
 * Blocks apart of Scatter(v) and Gather(v) across nodes: see
 * coll_shmcico_net_apart.h and docs/protocol.md, "Blocks apart".
 */

#include "ompi_config.h"

#include <stdlib.h>
#include <string.h>

#include "ompi/mca/coll/base/coll_tags.h"
#include "ompi/mca/pml/pml.h"

#include "coll_shmcico_net_apart.h"

bool mca_coll_shmcico_net_stage_layout(const uint64_t *sizes, int k, int *counts,
                                       int *displs, size_t *staged)
{
    bool any = false;

    *staged = 0;
    for (int i = 0; i < k; ++i) {
        bool out = mca_coll_shmcico_net_apart(sizes[i], k);
        counts[i] = out ? 0 : (int) sizes[i];
        displs[i] = (int) *staged;
        *staged += (size_t) counts[i];
        any |= out;
    }
    return any;
}

void mca_coll_shmcico_net_restage(char *blocks, char *stage, const uint64_t *sizes,
                                  const int *counts, const int *displs, int k, bool to_blocks)
{
    size_t at = 0;

    for (int i = 0; i < k; at += sizes[i++]) {
        if (to_blocks) {
            memcpy(blocks + at, stage + displs[i], (size_t) counts[i]);
        } else {
            memcpy(stage + displs[i], blocks + at, (size_t) counts[i]);
        }
    }
}

char *mca_coll_shmcico_net_stage_of(char *blocks, bool any, size_t staged)
{
    return NULL == blocks || !any ? blocks : malloc(staged + 1);
}

int mca_coll_shmcico_net_post_apart(const mca_coll_shmcico_net_t *net,
                                    struct ompi_communicator_t *comm,
                                    const mca_coll_shmcico_args_t *a, char *blocks,
                                    const uint64_t *sizes, bool receive, ompi_request_t **reqs,
                                    int *rc)
{
    int k, n = 0, me = ompi_comm_rank(comm);
    const int *members = mca_coll_shmcico_net_members(net, net->my_node, &k);
    size_t at = 0, size;

    ompi_datatype_type_size(a->own_type, &size);
    for (int i = 0; i < k; at += sizes[i++]) {
        int step_rc = MPI_SUCCESS;
        if (!mca_coll_shmcico_net_apart(sizes[i], k)) {
            continue;
        } else if (members[i] == me && receive) {
            (void) mca_coll_shmcico_pack(blocks + at, a->own_buf, a->own_count, a->own_type);
        } else if (members[i] == me) {
            uint64_t room = a->own_count * size;
            step_rc = sizes[i] > room ? MPI_ERR_TRUNCATE : MPI_SUCCESS;
            (void) mca_coll_shmcico_unpack(blocks + at, sizes[i] < room ? sizes[i] : room,
                                           (void *) a->own_buf, a->own_count, a->own_type);
        } else if (receive) {
            step_rc = MCA_PML_CALL(irecv(blocks + at, sizes[i], MPI_BYTE, members[i],
                                         MCA_COLL_BASE_TAG_GATHERV, comm, &reqs[n]));
            n += MPI_SUCCESS == step_rc;
        } else {
            step_rc = MCA_PML_CALL(isend(blocks + at, sizes[i], MPI_BYTE, members[i],
                                         MCA_COLL_BASE_TAG_SCATTERV,
                                         MCA_PML_BASE_SEND_STANDARD, comm, &reqs[n]));
            n += MPI_SUCCESS == step_rc;
        }
        *rc = mca_coll_shmcico_net_first_error(*rc, step_rc);
    }
    return n;
}

void mca_coll_shmcico_net_drain_apart(const mca_coll_shmcico_net_t *net,
                                      struct ompi_communicator_t *comm, const uint64_t *sizes)
{
    int k, me = ompi_comm_rank(comm);
    const int *members = mca_coll_shmcico_net_members(net, net->my_node, &k);

    for (int i = 0; i < k; ++i) {
        if (members[i] != me && mca_coll_shmcico_net_apart(sizes[i], k)) {
            (void) mca_coll_shmcico_net_drain(comm, members[i], MCA_COLL_BASE_TAG_GATHERV,
                                              sizes[i]);
        }
    }
}
