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

static bool bcast_serve(void *buff, int count, struct ompi_datatype_t *datatype,
                        int root, struct ompi_communicator_t *comm,
                        mca_coll_shmcico_module_t *module, int *rc)
{
    bool is_root = ompi_comm_rank(comm) == root;
    int own_error = mca_coll_shmcico_check_buffer(buff, count, datatype);
    mca_coll_shmcico_dstream_t data;
    uint32_t mode;
    int ret;

    if (root < 0 || root >= ompi_comm_size(comm)) {
        *rc = MPI_ERR_ROOT;             /* the same on every process */
        return true;
    }
    /* every process's message has the root's type signature */
    if (mca_coll_shmcico_no_bytes(count, datatype)) {
        return mca_coll_shmcico_served_empty(MCA_COLL_SHMCICO_OP_BCAST, comm, rc);
    }
    if (!mca_coll_shmcico_ready(module, comm)) {
        mca_coll_shmcico_fallback(MCA_COLL_SHMCICO_OP_BCAST, comm, "no segment");
        return false;
    }
    /* bad arguments of this process: it takes part, moving nothing */
    mca_coll_shmcico_dstream_init(&data, MPI_SUCCESS == own_error ? buff : NULL,
                                  MPI_SUCCESS == own_error ? (size_t) count : 0,
                                  datatype, is_root);
    mode = is_root ? mca_coll_shmcico_decide(module, MCA_COLL_SHMCICO_OP_BCAST, own_error,
                                             data.stream.length)
                   : MCA_COLL_SHMCICO_MODE_SERVE;
    ret = mca_coll_shmcico_engine_bcast(&module->engine, &module->tree, root, &data.stream,
                                        mode, (uint64_t) own_error);
    mca_coll_shmcico_dstream_fini(&data);
    return mca_coll_shmcico_served(MCA_COLL_SHMCICO_OP_BCAST, comm, module, ret, own_error,
                                   rc);
}

int mca_coll_shmcico_bcast_intra(void *buff, int count,
                                 struct ompi_datatype_t *datatype, int root,
                                 struct ompi_communicator_t *comm,
                                 mca_coll_base_module_t *super)
{
    mca_coll_shmcico_module_t *module = (mca_coll_shmcico_module_t *) super;
    int rc;

    if (bcast_serve(buff, count, datatype, root, comm, module, &rc)) {
        return rc;
    }
    return module->previous.bcast(buff, count, datatype, root, comm,
                                  module->previous.bcast_module);
}
