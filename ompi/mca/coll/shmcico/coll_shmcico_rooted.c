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

bool mca_coll_shmcico_rooted_serve(const mca_coll_shmcico_rooted_t *call,
                                   struct ompi_communicator_t *comm,
                                   mca_coll_shmcico_module_t *module, int *rc)
{
    bool is_root = ompi_comm_rank(comm) == call->root;
    bool in_place = is_root && MPI_IN_PLACE == call->own_buf;
    bool decline = false;
    mca_coll_shmcico_dstream_t own;
    int ret;

    if (!mca_coll_shmcico_ready(module, comm)) {
        mca_coll_shmcico_fallback(call->op, comm, "no segment");
        return false;
    }
    if (is_root) {
        uint64_t largest = mca_coll_shmcico_blocks_open(module, call->blocks_buf,
                                                        &call->layout, call->blocks_type,
                                                        call->blocks_sent);
        decline = mca_coll_shmcico_over_limit(module, call->op, largest);
    }
    if (!in_place) {
        mca_coll_shmcico_dstream_init(&own, call->own_buf, call->own_count,
                                      call->own_type, !call->blocks_sent);
    }
    ret = call->move(&module->engine, call->root, in_place ? NULL : &own.stream,
                     module->streams, module->counts, decline);
    if (!in_place) {
        mca_coll_shmcico_dstream_fini(&own);
    }
    if (is_root) {
        mca_coll_shmcico_blocks_close(module);
    }
    return mca_coll_shmcico_served(call->op, comm, ret, rc);
}
