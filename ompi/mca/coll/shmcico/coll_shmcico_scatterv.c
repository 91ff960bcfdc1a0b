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
 * MPI_Scatterv and MPI_Scatter: the root writes each block into its
 * receiver's queue (see coll_shmcico_engine_rooted.c and, for what the
 * glue shares with Gather(v), coll_shmcico_rooted.c).
 */

#include "ompi_config.h"

#include "coll_shmcico.h"

int mca_coll_shmcico_scatterv_intra(const void *sbuf, const int *scounts,
                                    const int *displs,
                                    struct ompi_datatype_t *sdtype, void *rbuf,
                                    int rcount, struct ompi_datatype_t *rdtype,
                                    int root, struct ompi_communicator_t *comm,
                                    mca_coll_base_module_t *super)
{
    mca_coll_shmcico_module_t *module = (mca_coll_shmcico_module_t *) super;
    mca_coll_shmcico_rooted_t call = {
        .op = MCA_COLL_SHMCICO_OP_SCATTERV, .blocks_sent = true, .root = root,
        .own_buf = rbuf, .own_count = (size_t) rcount, .own_type = rdtype,
        .blocks_buf = sbuf, .layout = { .counts = scounts, .displs = displs },
        .blocks_type = sdtype
    };
    int rc;

    if (mca_coll_shmcico_rooted_serve(&call, comm, module, &rc)) {
        return rc;
    }
    return module->previous.scatterv(sbuf, scounts, displs, sdtype, rbuf, rcount,
                                     rdtype, root, comm,
                                     module->previous.scatterv_module);
}

int mca_coll_shmcico_scatter_intra(const void *sbuf, int scount,
                                   struct ompi_datatype_t *sdtype, void *rbuf,
                                   int rcount, struct ompi_datatype_t *rdtype,
                                   int root, struct ompi_communicator_t *comm,
                                   mca_coll_base_module_t *super)
{
    mca_coll_shmcico_module_t *module = (mca_coll_shmcico_module_t *) super;
    mca_coll_shmcico_rooted_t call = {
        .op = MCA_COLL_SHMCICO_OP_SCATTER, .blocks_sent = true, .root = root,
        .own_buf = rbuf, .own_count = (size_t) rcount, .own_type = rdtype,
        .blocks_buf = sbuf, .layout = { .count = scount }, .blocks_type = sdtype
    };
    int rc;

    if (mca_coll_shmcico_rooted_serve(&call, comm, module, &rc)) {
        return rc;
    }
    return module->previous.scatter(sbuf, scount, sdtype, rbuf, rcount, rdtype,
                                    root, comm, module->previous.scatter_module);
}
