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
 * MPI_Scatterv and MPI_Scatter: every process takes its block from the
 * root, through its queue or by single copy (see
 * coll_shmcico_plan_rooted.c and, for what every operation shares,
 * coll_shmcico_serve.c).
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
    mca_coll_shmcico_args_t call = {
        .op = MCA_COLL_SHMCICO_OP_SCATTERV, .root = root,
        .own_buf = rbuf, .own_count = (size_t) rcount, .own_type = rdtype,
        .blocks_buf = sbuf, .layout = { .counts = scounts, .displs = displs, .vector = true },
        .blocks_type = sdtype
    };
    int rc;

    if (mca_coll_shmcico_serve(&call, comm, module, &rc)) {
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
    mca_coll_shmcico_args_t call = {
        .op = MCA_COLL_SHMCICO_OP_SCATTER, .root = root,
        .own_buf = rbuf, .own_count = (size_t) rcount, .own_type = rdtype,
        .blocks_buf = sbuf, .layout = { .count = scount }, .blocks_type = sdtype
    };
    int rc;

    if (mca_coll_shmcico_serve(&call, comm, module, &rc)) {
        return rc;
    }
    return module->previous.scatter(sbuf, scount, sdtype, rbuf, rcount, rdtype,
                                    root, comm, module->previous.scatter_module);
}
