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

/* This process's blocks: streams over them (empty ones if its arguments
 * are bad) and the error it found. */
static int open_blocks(mca_coll_shmcico_module_t *module, void *rbuf,
                       const mca_coll_shmcico_blocks_t *layout,
                       struct ompi_datatype_t *rdtype, uint64_t *largest)
{
    int error = mca_coll_shmcico_check_blocks(rbuf, layout, rdtype, module->engine.nprocs);

    *largest = 0;
    if (MPI_SUCCESS != error) {
        mca_coll_shmcico_blocks_empty(module);
    } else {
        *largest = mca_coll_shmcico_blocks_open(module, rbuf, layout, rdtype, false);
    }
    return error;
}

static bool allgather_serve(mca_coll_shmcico_op_t op, const void *sbuf, int scount,
                            struct ompi_datatype_t *sdtype, void *rbuf,
                            const mca_coll_shmcico_blocks_t *layout,
                            struct ompi_datatype_t *rdtype,
                            struct ompi_communicator_t *comm,
                            mca_coll_shmcico_module_t *module, int *rc)
{
    int me = ompi_comm_rank(comm), blocks_error, send_error = MPI_SUCCESS, ret;
    bool in_place = MPI_IN_PLACE == sbuf;
    mca_coll_shmcico_dstream_t send, own;
    uint32_t mode = MCA_COLL_SHMCICO_MODE_SERVE;
    uint64_t largest;

    /* every process's blocks have the same type signature */
    if (mca_coll_shmcico_blocks_no_bytes(layout, rdtype, ompi_comm_size(comm))) {
        return mca_coll_shmcico_served_empty(op, comm, rc);
    }
    if (!mca_coll_shmcico_ready(module, comm)) {
        mca_coll_shmcico_fallback(op, comm, "no segment");
        return false;
    }
    blocks_error = open_blocks(module, rbuf, layout, rdtype, &largest);
    if (0 == me) {
        mode = mca_coll_shmcico_decide(module, op, blocks_error, largest);
    }
    if (in_place) {
        /* this process's block is already in place: send it from there */
        bool ok = MPI_SUCCESS == blocks_error;
        mca_coll_shmcico_dstream_init(&send, ok ? mca_coll_shmcico_block_start(rbuf, layout,
                                                                               rdtype, me)
                                                : NULL,
                                      ok ? mca_coll_shmcico_block_count(layout, me) : 0,
                                      rdtype, true);
        module->streams[me] = NULL;
    } else {
        send_error = mca_coll_shmcico_check_buffer(sbuf, scount, sdtype);
        mca_coll_shmcico_dstream_init(&send, MPI_SUCCESS == send_error ? sbuf : NULL,
                                      MPI_SUCCESS == send_error ? (size_t) scount : 0,
                                      sdtype, true);
        mca_coll_shmcico_dstream_init(&own, MPI_SUCCESS == send_error ? sbuf : NULL,
                                      MPI_SUCCESS == send_error ? (size_t) scount : 0,
                                      sdtype, true);
    }
    ret = mca_coll_shmcico_engine_allgatherv(&module->engine, &send.stream,
                                             in_place ? NULL : &own.stream,
                                             module->streams, module->counts, mode,
                                             (uint64_t) blocks_error);
    mca_coll_shmcico_dstream_fini(&send);
    if (!in_place) {
        mca_coll_shmcico_dstream_fini(&own);
    }
    mca_coll_shmcico_blocks_close(module);
    return mca_coll_shmcico_served(op, comm, module, ret,
                                   MPI_SUCCESS != blocks_error ? blocks_error : send_error,
                                   rc);
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
