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
 * MPI_Bcast: down the notification tree, through the root's queue or by
 * single copy from each process's parent (see coll_shmcico_plan_bcast.c
 * and, for what every operation shares, coll_shmcico_serve.c).
 */

#include "ompi_config.h"

#include "coll_shmcico.h"

int mca_coll_shmcico_bcast_intra(void *buff, int count,
                                 struct ompi_datatype_t *datatype, int root,
                                 struct ompi_communicator_t *comm,
                                 mca_coll_base_module_t *super)
{
    mca_coll_shmcico_module_t *module = (mca_coll_shmcico_module_t *) super;
    mca_coll_shmcico_args_t args = {
        .op = MCA_COLL_SHMCICO_OP_BCAST, .root = root,
        .own_buf = buff, .own_count = (size_t) count, .own_type = datatype
    };
    int rc;

    if (mca_coll_shmcico_serve(&args, comm, module, &rc)) {
        return rc;
    }
    return module->previous.bcast(buff, count, datatype, root, comm,
                                  module->previous.bcast_module);
}
