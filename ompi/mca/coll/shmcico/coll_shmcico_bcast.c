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
 * MPI_Bcast: pipelined copy-in/copy-out through the root's queue (see
 * coll_shmcico_engine_bcast.c).  The root decides whether the call is
 * served (its message is within coll_shmcico_bcast_max_bytes) and
 * publishes the decision with the operation, so all processes take the
 * same path even when their counts differ.
 */

#include "ompi_config.h"

#include "coll_shmcico.h"

int mca_coll_shmcico_bcast_intra(void *buff, int count,
                                 struct ompi_datatype_t *datatype, int root,
                                 struct ompi_communicator_t *comm,
                                 mca_coll_base_module_t *super)
{
    mca_coll_shmcico_module_t *module = (mca_coll_shmcico_module_t *) super;
    mca_coll_shmcico_dstream_t data;
    bool decline = false;
    int ret;

    if (!mca_coll_shmcico_ready(module, comm)) {
        mca_coll_shmcico_fallback(MCA_COLL_SHMCICO_OP_BCAST, comm, "no segment");
        return module->previous.bcast(buff, count, datatype, root, comm,
                                      module->previous.bcast_module);
    }
    mca_coll_shmcico_dstream_init(&data, buff, (size_t) count, datatype,
                                  ompi_comm_rank(comm) == root);
    if (ompi_comm_rank(comm) == root) {
        decline = mca_coll_shmcico_over_limit(module, MCA_COLL_SHMCICO_OP_BCAST,
                                              data.stream.length);
    }
    ret = mca_coll_shmcico_engine_bcast(&module->engine, &module->tree,
                                        module->children, root, &data.stream,
                                        decline);
    mca_coll_shmcico_dstream_fini(&data);
    if (MCA_COLL_SHMCICO_DECLINED == ret) {
        mca_coll_shmcico_fallback(MCA_COLL_SHMCICO_OP_BCAST, comm,
                                  "root's message over coll_shmcico_bcast_max_bytes");
        return module->previous.bcast(buff, count, datatype, root, comm,
                                      module->previous.bcast_module);
    }
    mca_coll_shmcico_count(&mca_coll_shmcico_component.served[MCA_COLL_SHMCICO_OP_BCAST], 1);
    return MCA_COLL_SHMCICO_TRUNCATED == ret ? MPI_ERR_TRUNCATE : OMPI_SUCCESS;
}
