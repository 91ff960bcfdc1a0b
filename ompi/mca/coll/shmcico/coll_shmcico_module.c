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
 * The module: which communicators the component serves, and the modules
 * it falls back to.
 */

#include "ompi_config.h"

#include "ompi/communicator/communicator.h"
#include "ompi/group/group.h"
#include "ompi/mca/coll/base/base.h"

#include "coll_shmcico.h"
#include "coll_shmcico_keep.h"
#include "coll_shmcico_net.h"
#include "coll_shmcico_shm.h"

static int shmcico_module_enable(mca_coll_base_module_t *module,
                                 struct ompi_communicator_t *comm);
static int shmcico_module_disable(mca_coll_base_module_t *module,
                                  struct ompi_communicator_t *comm);

static void shmcico_module_construct(mca_coll_shmcico_module_t *module)
{
    module->state = MCA_COLL_SHMCICO_SEGMENT_NONE;
    module->disabled = false;
    module->multinode = false;
    module->inner = false;
    module->kept = NULL;
    module->registered_comm = NULL;
    module->registered_next = NULL;
    module->subscribing = NULL;
    memset(&module->net, 0, sizeof(module->net));
    module->streams = NULL;
    module->regions = NULL;
    module->blocks = NULL;
    module->spans = NULL;
    module->pieces[0] = module->pieces[1] = NULL;
    memset(&module->copy, 0, sizeof(module->copy));
    module->near = false;
    mca_coll_shmcico_watch_init(&module->watch, false, 0);
    memset(&module->previous, 0, sizeof(module->previous));
    memset(&module->engine, 0, sizeof(module->engine));
    memset(&module->tree, 0, sizeof(module->tree));
    module->bcast_place = (mca_coll_shmcico_place_t) { .root = -1, .parent = -1 };
}

#define RELEASE_PREVIOUS(op)                                                 \
    if (NULL != module->previous.op##_module) {                               \
        OBJ_RELEASE(module->previous.op##_module);                            \
    }

static void release_previous(mca_coll_shmcico_module_t *module)
{
    MCA_COLL_SHMCICO_FOR_EACH_OP(RELEASE_PREVIOUS)
    memset(&module->previous, 0, sizeof(module->previous));
}

/* ------------------------------------------------------------------ */
/* The process's state on its segment                                   */

/* the scratch space of the calls: a stream, region and block per process
 * and one for the process's own buffer, the pieces of two datatypes */
int mca_coll_shmcico_module_alloc_scratch(mca_coll_shmcico_module_t *m, int size)
{
    size_t n = (size_t) size + 1;

    m->max_pieces = mca_coll_shmcico_region_capacity(&m->engine.view);
    m->streams = malloc(n * sizeof(*m->streams));
    m->regions = malloc(n * sizeof(*m->regions));
    m->blocks = malloc(n * sizeof(*m->blocks));
    m->spans = malloc((n + 1) * sizeof(*m->spans));
    m->pieces[0] = malloc(2 * m->max_pieces * sizeof(mca_coll_shmcico_piece_t));
    m->pieces[1] = NULL == m->pieces[0] ? NULL : m->pieces[0] + m->max_pieces;
    return NULL == m->streams || NULL == m->regions || NULL == m->blocks
        || NULL == m->spans || NULL == m->pieces[0] ? ENOMEM : 0;
}

void mca_coll_shmcico_segment_release(mca_coll_shmcico_module_t *module)
{
    mca_coll_shmcico_view_t *view = &module->engine.view;
    mca_coll_shmcico_kept_t *kept = MCA_COLL_SHMCICO_SEGMENT_READY == module->state
                                    ? module->kept : NULL;

    if (NULL != kept) {
        /* kept mapped, and in segment_bytes, for the next communicator */
        kept->base = view->base;
        kept->layout = view->layout;
        kept->last = module->engine.last;
    } else if (MCA_COLL_SHMCICO_SEGMENT_READY == module->state) {
        mca_coll_shmcico_keep_unreserve(view->layout.segment_size);
    }
    mca_coll_shmcico_copy_close(module);
    mca_coll_shmcico_place_fini(&module->bcast_place);
    mca_coll_shmcico_tree_fini(&module->tree);
    mca_coll_shmcico_engine_fini(&module->engine);
    free(module->streams);
    free(module->regions);
    free(module->blocks);
    free(module->spans);
    free(module->pieces[0]);
    module->streams = NULL;
    module->regions = NULL;
    module->blocks = NULL;
    module->spans = NULL;
    module->pieces[0] = module->pieces[1] = NULL;
    if (NULL != kept) {
        mca_coll_shmcico_keep_put(kept);
    } else {
        mca_coll_shmcico_shm_unmap(view->base, view->layout.segment_size);
        free(module->kept);
    }
    module->kept = NULL;
    memset(&module->engine, 0, sizeof(module->engine));
    module->state = MCA_COLL_SHMCICO_SEGMENT_NONE;
}

static void shmcico_module_destruct(mca_coll_shmcico_module_t *module)
{
    mca_coll_shmcico_registry_forget(module);
    mca_coll_shmcico_net_release(&module->net);
    mca_coll_shmcico_segment_release(module);
    release_previous(module);
}

OBJ_CLASS_INSTANCE(mca_coll_shmcico_module_t, mca_coll_base_module_t,
                   shmcico_module_construct, shmcico_module_destruct);

int mca_coll_shmcico_init_query(bool enable_progress_threads,
                                bool enable_mpi_threads)
{
    (void) enable_progress_threads;
    (void) enable_mpi_threads;
    return OMPI_SUCCESS;
}

/* why the component does not serve comm, or NULL when it does */
static const char *decline_reason(struct ompi_communicator_t *comm, bool multinode)
{
    if (mca_coll_shmcico_component.priority < 0) {
        return "priority is negative";
    }
    if (OMPI_COMM_IS_INTER(comm)) {
        return "intercommunicator";
    }
    if (ompi_comm_size(comm) < 2) {
        return "fewer than 2 processes";
    }
    if (multinode && !mca_coll_shmcico_component.multinode) {
        return "processes on other nodes (coll_shmcico_multinode is false)";
    }
    if (!multinode && ompi_comm_size(comm) > mca_coll_shmcico_component.max_procs) {
        return "more processes than coll_shmcico_max_procs";
    }
    return NULL;
}

mca_coll_base_module_t *mca_coll_shmcico_comm_query(struct ompi_communicator_t *comm,
                                                    int *priority)
{
    mca_coll_shmcico_module_t *module;
    bool multinode = ompi_group_have_remote_peers(comm->c_local_group);
    const char *reason = decline_reason(comm, multinode);

    if (NULL != reason) {
        MCA_COLL_SHMCICO_VERBOSE(MCA_COLL_SHMCICO_VERBOSE_COMM,
                                 MCA_COLL_SHMCICO_COMM_FMT "declined: %s",
                                 MCA_COLL_SHMCICO_COMM_ARGS(comm), reason);
        return NULL;
    }
    module = OBJ_NEW(mca_coll_shmcico_module_t);
    if (NULL == module) {
        return NULL;
    }
    module->multinode = multinode;
    *priority = mca_coll_shmcico_component.priority;
    module->super.coll_module_enable = shmcico_module_enable;
    module->super.coll_module_disable = shmcico_module_disable;
#define SERVE(op) module->super.coll_##op = mca_coll_shmcico_##op##_intra;
    MCA_COLL_SHMCICO_FOR_EACH_OP(SERVE)
#undef SERVE
    return &module->super;
}

/* Keep the function and module that served an operation before us
 * (retained until disable or destruction). */
#define SAVE_PREVIOUS(op)                                                    \
    module->previous.op = comm->c_coll->coll_##op;                            \
    module->previous.op##_module = comm->c_coll->coll_##op##_module;          \
    if (NULL == module->previous.op || NULL == module->previous.op##_module) { \
        module->previous.op##_module = NULL;                                  \
        missing = #op;                                                        \
    } else {                                                                  \
        OBJ_RETAIN(module->previous.op##_module);                             \
    }

/* why the segment cannot be made while the communicator is enabled (for
 * the verbose line), or NULL; it is then made at the first call */
static const char *eager_refusal(const mca_coll_shmcico_module_t *module)
{
    if (module->disabled) {
        /* no call will use it (the hints came with the communicator) */
        return " (the shmcico_disable hint: every call goes to the previous component)";
    }
    if (module->multinode) {
        /* making communicators while this one is enabled is not safe */
        return " (coll_shmcico_lazy 0 does not apply to a communicator that spans nodes)";
    }
    if (opal_using_threads()) {
        /* Open MPI enables a communicator from inside the progress of its
         * creation, which the creating thread waits for in
         * ompi_sync_wait_mt.  With threads on, only one waiting thread
         * progresses at a time, so a blocking wait of the setup inside
         * that progress sleeps for good. */
        return " (coll_shmcico_lazy 0 does not apply with threads: MPI_THREAD_MULTIPLE "
               "or a progress thread)";
    }
    return NULL;
}

static int shmcico_module_enable(mca_coll_base_module_t *super,
                                 struct ompi_communicator_t *comm)
{
    mca_coll_shmcico_module_t *module = (mca_coll_shmcico_module_t *) super;
    const char *missing = NULL, *refusal;
    bool now;

    MCA_COLL_SHMCICO_FOR_EACH_OP(SAVE_PREVIOUS)
    if (NULL != missing) {
        MCA_COLL_SHMCICO_VERBOSE(MCA_COLL_SHMCICO_VERBOSE_COMM,
                                 MCA_COLL_SHMCICO_COMM_FMT "declined: no previous "
                                 "component provides %s to fall back to",
                                 MCA_COLL_SHMCICO_COMM_ARGS(comm), missing);
        release_previous(module);
        return OMPI_ERROR;
    }
    module->params = mca_coll_shmcico_component.params;
    mca_coll_shmcico_hints_subscribe(module, comm);
    refusal = mca_coll_shmcico_component.lazy ? NULL : eager_refusal(module);
    now = !mca_coll_shmcico_component.lazy && NULL == refusal;
    MCA_COLL_SHMCICO_VERBOSE(MCA_COLL_SHMCICO_VERBOSE_COMM,
                             MCA_COLL_SHMCICO_COMM_FMT "enabled (%s), %s made %s%s",
                             MCA_COLL_SHMCICO_COMM_ARGS(comm),
                             module->multinode ? "several nodes" : "one node",
                             module->multinode ? "node communicators" : "segment",
                             now ? "now" : "at first use", NULL != refusal ? refusal : "");
    if (now) {
        (void) mca_coll_shmcico_segment_setup(module, comm);    /* kept in its state */
    }
    return OMPI_SUCCESS;
}

static int shmcico_module_disable(mca_coll_base_module_t *super,
                                  struct ompi_communicator_t *comm)
{
    (void) comm;
    mca_coll_shmcico_registry_forget((mca_coll_shmcico_module_t *) super);
    release_previous((mca_coll_shmcico_module_t *) super);
    return OMPI_SUCCESS;
}

mca_coll_shmcico_module_t *mca_coll_shmcico_set_inner(struct ompi_communicator_t *comm,
                                                      const mca_coll_shmcico_params_t *params)
{
    mca_coll_shmcico_module_t *module = mca_coll_shmcico_module_of(comm);

    if (NULL != module) {
        module->inner = true;
        /* a segment made when its communicator was (coll_shmcico_lazy 0)
         * keeps the parameters its processes agreed on (rank 0's) */
        if (MCA_COLL_SHMCICO_SEGMENT_NONE == module->state) {
            module->params = *params;
        }
    }
    return module;
}
