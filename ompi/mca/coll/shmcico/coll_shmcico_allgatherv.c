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
 * MPI_Allgatherv and MPI_Allgather: every process sends its block once,
 * through its queue or by single copy, and takes every other block (see
 * coll_shmcico_plan_allgather.c and, for what every operation shares,
 * coll_shmcico_serve.c).  Every process follows each block's sender, so
 * processes that disagree on the counts stay in step: one whose count
 * for a block is short gets MPI_ERR_TRUNCATE.
 */

#include "ompi_config.h"

#include "coll_shmcico.h"

int mca_coll_shmcico_allgatherv_intra(const void *sbuf, int scount,
                                      struct ompi_datatype_t *sdtype, void *rbuf,
                                      const int *rcounts, const int *displs,
                                      struct ompi_datatype_t *rdtype,
                                      struct ompi_communicator_t *comm,
                                      mca_coll_base_module_t *super)
{
    mca_coll_shmcico_module_t *module = (mca_coll_shmcico_module_t *) super;
    mca_coll_shmcico_args_t call = {
        .op = MCA_COLL_SHMCICO_OP_ALLGATHERV, .root = -1,
        .own_buf = sbuf, .own_count = (size_t) scount, .own_type = sdtype,
        .blocks_buf = rbuf, .layout = { .counts = rcounts, .displs = displs, .vector = true },
        .blocks_type = rdtype
    };
    int rc;

    if (mca_coll_shmcico_serve(&call, comm, module, &rc)) {
        return rc;
    }
    return module->previous.allgatherv(sbuf, scount, sdtype, rbuf, rcounts, displs,
                                       rdtype, comm,
                                       module->previous.allgatherv_module);
}

int mca_coll_shmcico_allgather_intra(const void *sbuf, int scount,
                                     struct ompi_datatype_t *sdtype, void *rbuf,
                                     int rcount, struct ompi_datatype_t *rdtype,
                                     struct ompi_communicator_t *comm,
                                     mca_coll_base_module_t *super)
{
    mca_coll_shmcico_module_t *module = (mca_coll_shmcico_module_t *) super;
    mca_coll_shmcico_args_t call = {
        .op = MCA_COLL_SHMCICO_OP_ALLGATHER, .root = -1,
        .own_buf = sbuf, .own_count = (size_t) scount, .own_type = sdtype,
        .blocks_buf = rbuf, .layout = { .count = rcount }, .blocks_type = rdtype
    };
    int rc;

    if (mca_coll_shmcico_serve(&call, comm, module, &rc)) {
        return rc;
    }
    return module->previous.allgather(sbuf, scount, sdtype, rbuf, rcount, rdtype,
                                      comm, module->previous.allgather_module);
}
