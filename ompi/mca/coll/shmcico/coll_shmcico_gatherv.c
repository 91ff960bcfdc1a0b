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
 * MPI_Gatherv and MPI_Gather: every process writes its block into its own
 * queue, or pushes it into the root's buffer by single copy (see
 * coll_shmcico_plan_rooted.c and, for what every operation shares,
 * coll_shmcico_serve.c).
 */

#include "ompi_config.h"

#include "coll_shmcico.h"

int mca_coll_shmcico_gatherv_intra(const void *sbuf, int scount,
                                   struct ompi_datatype_t *sdtype, void *rbuf,
                                   const int *rcounts, const int *displs,
                                   struct ompi_datatype_t *rdtype, int root,
                                   struct ompi_communicator_t *comm,
                                   mca_coll_base_module_t *super)
{
    mca_coll_shmcico_module_t *module = (mca_coll_shmcico_module_t *) super;
    mca_coll_shmcico_args_t call = {
        .op = MCA_COLL_SHMCICO_OP_GATHERV, .root = root,
        .own_buf = sbuf, .own_count = (size_t) scount, .own_type = sdtype,
        .blocks_buf = rbuf, .layout = { .counts = rcounts, .displs = displs, .vector = true },
        .blocks_type = rdtype
    };
    int rc;

    if (mca_coll_shmcico_serve(&call, comm, module, &rc)) {
        return rc;
    }
    return module->previous.gatherv(sbuf, scount, sdtype, rbuf, rcounts, displs,
                                    rdtype, root, comm,
                                    module->previous.gatherv_module);
}

int mca_coll_shmcico_gather_intra(const void *sbuf, int scount,
                                  struct ompi_datatype_t *sdtype, void *rbuf,
                                  int rcount, struct ompi_datatype_t *rdtype,
                                  int root, struct ompi_communicator_t *comm,
                                  mca_coll_base_module_t *super)
{
    mca_coll_shmcico_module_t *module = (mca_coll_shmcico_module_t *) super;
    mca_coll_shmcico_args_t call = {
        .op = MCA_COLL_SHMCICO_OP_GATHER, .root = root,
        .own_buf = sbuf, .own_count = (size_t) scount, .own_type = sdtype,
        .blocks_buf = rbuf, .layout = { .count = rcount }, .blocks_type = rdtype
    };
    int rc;

    if (mca_coll_shmcico_serve(&call, comm, module, &rc)) {
        return rc;
    }
    return module->previous.gather(sbuf, scount, sdtype, rbuf, rcount, rdtype,
                                   root, comm, module->previous.gather_module);
}
