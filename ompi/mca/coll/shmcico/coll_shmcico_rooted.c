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
 * What Scatter(v) and Gather(v) share in the glue: the root opens a
 * stream per process block (buffer, counts, displacements and type are
 * read at the root only), every process a stream over its own buffer,
 * and the root decides whether the call is served (its largest block is
 * within coll_shmcico_<op>_max_bytes).
 */

#include "ompi_config.h"

#include "coll_shmcico.h"

/* The root's blocks: streams over them, and its decision. */
static uint32_t open_root_blocks(const mca_coll_shmcico_rooted_t *call,
                                 mca_coll_shmcico_module_t *module, int *blocks_error)
{
    *blocks_error = mca_coll_shmcico_check_blocks(call->blocks_buf, &call->layout,
                                                  call->blocks_type, module->engine.nprocs);
    if (MPI_SUCCESS != *blocks_error) {
        mca_coll_shmcico_blocks_empty(module);
        return MCA_COLL_SHMCICO_MODE_FAULT;
    }
    return mca_coll_shmcico_decide(module, call->op, MPI_SUCCESS,
                                   mca_coll_shmcico_blocks_open(module, call->blocks_buf,
                                                                &call->layout,
                                                                call->blocks_type,
                                                                call->blocks_sent));
}

/* Scatter and Gather: every block has the same type signature, so a
 * process whose block is empty knows that no process moves a byte.  Not
 * so for the v-variants, where only the root sees every count. */
static bool moves_nothing(const mca_coll_shmcico_rooted_t *call, bool is_root)
{
    if (MCA_COLL_SHMCICO_OP_SCATTER != call->op && MCA_COLL_SHMCICO_OP_GATHER != call->op) {
        return false;
    }
    return is_root ? mca_coll_shmcico_no_bytes(call->layout.count, call->blocks_type)
                   : mca_coll_shmcico_no_bytes((int) call->own_count, call->own_type);
}

bool mca_coll_shmcico_rooted_serve(const mca_coll_shmcico_rooted_t *call,
                                   struct ompi_communicator_t *comm,
                                   mca_coll_shmcico_module_t *module, int *rc)
{
    bool is_root = ompi_comm_rank(comm) == call->root;
    bool in_place = is_root && MPI_IN_PLACE == call->own_buf;
    uint32_t mode = MCA_COLL_SHMCICO_MODE_SERVE;
    int own_error = MPI_SUCCESS, blocks_error = MPI_SUCCESS, ret;
    mca_coll_shmcico_dstream_t own;

    if (call->root < 0 || call->root >= ompi_comm_size(comm)) {
        *rc = MPI_ERR_ROOT;             /* the same on every process */
        return true;
    }
    if (moves_nothing(call, is_root)) {
        return mca_coll_shmcico_served_empty(call->op, comm, rc);
    }
    if (!mca_coll_shmcico_ready(module, comm)) {
        mca_coll_shmcico_fallback(call->op, comm, "no segment");
        return false;
    }
    if (is_root) {
        mode = open_root_blocks(call, module, &blocks_error);
    }
    if (!in_place) {
        /* bad arguments of this process: it takes part, moving nothing */
        own_error = mca_coll_shmcico_check_buffer(call->own_buf, (int) call->own_count,
                                                  call->own_type);
        mca_coll_shmcico_dstream_init(&own, MPI_SUCCESS == own_error ? call->own_buf : NULL,
                                      MPI_SUCCESS == own_error ? call->own_count : 0,
                                      call->own_type, !call->blocks_sent);
    }
    ret = mca_coll_shmcico_engine_rooted(&module->engine, call->root, call->blocks_sent,
                                         in_place ? NULL : &own.stream, module->streams,
                                         module->counts, mode, (uint64_t) blocks_error);
    if (!in_place) {
        mca_coll_shmcico_dstream_fini(&own);
    }
    if (is_root) {
        mca_coll_shmcico_blocks_close(module);
    }
    return mca_coll_shmcico_served(call->op, comm, module, ret, own_error, rc);
}
