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
 * Which module serves a communicator: Open MPI's info callbacks
 * (coll_shmcico_hints.c) and a multi-node communicator's node stages
 * (coll_shmcico_module.c) find it here.  The registry is open while the
 * component is.
 */

#include "ompi_config.h"

#include "coll_shmcico.h"

/* A list through the modules themselves (mca_coll_shmcico_module_t's
 * registered_comm and registered_next), so that registering a
 * communicator never allocates: a process that could not register one
 * would not see its hints, and a shmcico_disable hint seen by the other
 * processes alone would leave them falling back while it waits in the
 * segment's setup. */
static struct {
    opal_mutex_t lock;
    bool ready;
    mca_coll_shmcico_module_t *first;
} registry = { .ready = false };

static mca_coll_shmcico_module_t *registry_find(void *comm)
{
    mca_coll_shmcico_module_t *module;

    OPAL_THREAD_LOCK(&registry.lock);
    for (module = registry.first; NULL != module && module->registered_comm != comm;
         module = module->registered_next) {
    }
    OPAL_THREAD_UNLOCK(&registry.lock);
    return module;
}

bool mca_coll_shmcico_registry_add(struct ompi_communicator_t *comm,
                                   mca_coll_shmcico_module_t *module)
{
    if (!registry.ready) {
        return false;
    }
    OPAL_THREAD_LOCK(&registry.lock);
    if (NULL == module->registered_comm) {  /* not in the list yet */
        module->registered_next = registry.first;
        registry.first = module;
    }
    module->registered_comm = comm;
    OPAL_THREAD_UNLOCK(&registry.lock);
    return true;
}

mca_coll_shmcico_module_t *mca_coll_shmcico_module_of(struct ompi_communicator_t *comm)
{
    return registry.ready ? registry_find(comm) : NULL;
}

void mca_coll_shmcico_registry_forget(mca_coll_shmcico_module_t *module)
{
    if (!registry.ready) {
        return;
    }
    OPAL_THREAD_LOCK(&registry.lock);
    for (mca_coll_shmcico_module_t **link = &registry.first; NULL != *link;
         link = &(*link)->registered_next) {
        if (*link == module) {
            *link = module->registered_next;
            break;
        }
    }
    module->registered_comm = NULL;
    module->registered_next = NULL;
    OPAL_THREAD_UNLOCK(&registry.lock);
}

void mca_coll_shmcico_registry_open(void)
{
    OBJ_CONSTRUCT(&registry.lock, opal_mutex_t);
    registry.ready = true;
}

void mca_coll_shmcico_registry_close(void)
{
    if (registry.ready) {
        registry.first = NULL;
        OBJ_DESTRUCT(&registry.lock);
        registry.ready = false;
    }
}
