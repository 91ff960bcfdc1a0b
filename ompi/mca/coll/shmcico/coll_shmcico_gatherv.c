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
 * queue and the root copies the blocks out (see
 * coll_shmcico_engine_rooted.c and, for what the glue shares with
 * Scatter(v), coll_shmcico_rooted.c).
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
    mca_coll_shmcico_rooted_t call = {
        .op = MCA_COLL_SHMCICO_OP_GATHERV, .blocks_sent = false, .root = root,
        .own_buf = sbuf, .own_count = (size_t) scount, .own_type = sdtype,
        .blocks_buf = rbuf, .layout = { .counts = rcounts, .displs = displs },
        .blocks_type = rdtype
    };
    int rc;

    if (mca_coll_shmcico_rooted_serve(&call, comm, module, &rc)) {
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
    mca_coll_shmcico_rooted_t call = {
        .op = MCA_COLL_SHMCICO_OP_GATHER, .blocks_sent = false, .root = root,
        .own_buf = sbuf, .own_count = (size_t) scount, .own_type = sdtype,
        .blocks_buf = rbuf, .layout = { .count = rcount }, .blocks_type = rdtype
    };
    int rc;

    if (mca_coll_shmcico_rooted_serve(&call, comm, module, &rc)) {
        return rc;
    }
    return module->previous.gather(sbuf, scount, sdtype, rbuf, rcount, rdtype,
                                   root, comm, module->previous.gather_module);
}
