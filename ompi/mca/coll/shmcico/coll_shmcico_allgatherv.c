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
 * MPI_Allgatherv and MPI_Allgather: every process writes its block once
 * into its own queue and reads all the others (see
 * coll_shmcico_engine_allgatherv.c).  Rank 0 decides whether the call is
 * served (its view of the largest block is within
 * coll_shmcico_<op>_max_bytes) and its counts are the ones the protocol
 * follows, so processes that disagree on the counts cannot get out of
 * step: a process whose own count is short gets MPI_ERR_TRUNCATE.
 */

#include "ompi_config.h"

#include "coll_shmcico.h"

static bool allgather_serve(mca_coll_shmcico_op_t op, const void *sbuf, int scount,
                            struct ompi_datatype_t *sdtype, void *rbuf,
                            const mca_coll_shmcico_blocks_t *layout,
                            struct ompi_datatype_t *rdtype,
                            struct ompi_communicator_t *comm,
                            mca_coll_shmcico_module_t *module, int *rc)
{
    int me = ompi_comm_rank(comm), ret;
    bool in_place = MPI_IN_PLACE == sbuf, decline;
    mca_coll_shmcico_dstream_t send, own;

    if (!mca_coll_shmcico_ready(module, comm)) {
        mca_coll_shmcico_fallback(op, comm, "no segment");
        return false;
    }
    decline = mca_coll_shmcico_over_limit(module, op,
                                          mca_coll_shmcico_blocks_open(module, rbuf, layout,
                                                                       rdtype, false));
    if (in_place) {
        /* this process's block is already in place: send it from there */
        mca_coll_shmcico_dstream_init(&send, mca_coll_shmcico_block_start(rbuf, layout,
                                                                          rdtype, me),
                                      mca_coll_shmcico_block_count(layout, me),
                                      rdtype, true);
        module->streams[me] = NULL;
    } else {
        mca_coll_shmcico_dstream_init(&send, sbuf, (size_t) scount, sdtype, true);
        mca_coll_shmcico_dstream_init(&own, sbuf, (size_t) scount, sdtype, true);
    }
    ret = mca_coll_shmcico_engine_allgatherv(&module->engine, &send.stream,
                                             in_place ? NULL : &own.stream,
                                             module->streams, module->counts,
                                             0 == me && decline);
    mca_coll_shmcico_dstream_fini(&send);
    if (!in_place) {
        mca_coll_shmcico_dstream_fini(&own);
    }
    mca_coll_shmcico_blocks_close(module);
    return mca_coll_shmcico_served(op, comm, ret, rc);
}

int mca_coll_shmcico_allgatherv_intra(const void *sbuf, int scount,
                                      struct ompi_datatype_t *sdtype, void *rbuf,
                                      const int *rcounts, const int *displs,
                                      struct ompi_datatype_t *rdtype,
                                      struct ompi_communicator_t *comm,
                                      mca_coll_base_module_t *super)
{
    mca_coll_shmcico_module_t *module = (mca_coll_shmcico_module_t *) super;
    mca_coll_shmcico_blocks_t layout = { .counts = rcounts, .displs = displs };
    int rc;

    if (allgather_serve(MCA_COLL_SHMCICO_OP_ALLGATHERV, sbuf, scount, sdtype, rbuf,
                        &layout, rdtype, comm, module, &rc)) {
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
    mca_coll_shmcico_blocks_t layout = { .count = rcount };
    int rc;

    if (allgather_serve(MCA_COLL_SHMCICO_OP_ALLGATHER, sbuf, scount, sdtype, rbuf,
                        &layout, rdtype, comm, module, &rc)) {
        return rc;
    }
    return module->previous.allgather(sbuf, scount, sdtype, rbuf, rcount, rdtype,
                                      comm, module->previous.allgather_module);
}
