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
 * The store of kept segments (coll_shmcico_keep.h): a list, newest
 * first, of at most coll_shmcico_keep_segments entries per process,
 * under one lock.  A kept segment stays in coll_shmcico_segment_bytes
 * (it is still mapped) until it is taken over or dropped.
 */

#include "ompi_config.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "coll_shmcico.h"
#include "coll_shmcico_keep.h"

static pthread_mutex_t store_lock = PTHREAD_MUTEX_INITIALIZER;
static mca_coll_shmcico_kept_t *store;     /* newest first */

static opal_process_name_t name_of(struct ompi_communicator_t *comm, int rank)
{
    return ompi_group_get_proc_name(comm->c_local_group, rank);
}

mca_coll_shmcico_kept_t *mca_coll_shmcico_keep_new(struct ompi_communicator_t *comm,
                                                   const mca_coll_shmcico_file_id_t *id,
                                                   const char *path)
{
    int p = ompi_comm_size(comm);
    mca_coll_shmcico_kept_t *kept;

    if (mca_coll_shmcico_component.keep_segments <= 0) {
        return NULL;
    }
    kept = calloc(1, sizeof(*kept) + (size_t) p * sizeof(kept->names[0]));
    if (NULL == kept) {
        return NULL;                /* the segment will not be kept */
    }
    kept->id = *id;
    (void) snprintf(kept->path, sizeof(kept->path), "%s", path);
    kept->nprocs = p;
    for (int i = 0; i < p; ++i) {
        kept->names[i] = name_of(comm, i);
    }
    return kept;
}

void mca_coll_shmcico_keep_drop(mca_coll_shmcico_kept_t *kept)
{
    /* a kept segment's base is set (mca_coll_shmcico_segment_release()) */
    mca_coll_shmcico_shm_unmap(kept->base, kept->layout.segment_size);
    mca_coll_shmcico_keep_unreserve(kept->layout.segment_size);
    free(kept);
}

/* the oldest entry, unlinked; the lock is held */
static mca_coll_shmcico_kept_t *unlink_oldest(void)
{
    mca_coll_shmcico_kept_t **link = &store, *oldest;

    if (NULL == store) {
        return NULL;
    }
    while (NULL != (*link)->next) {
        link = &(*link)->next;
    }
    oldest = *link;
    *link = NULL;
    return oldest;
}

static int stored(void)
{
    int n = 0;

    for (mca_coll_shmcico_kept_t *k = store; NULL != k; k = k->next) {
        ++n;
    }
    return n;
}

static bool retired(const mca_coll_shmcico_kept_t *kept)
{
    /* acquire: pairs with the release in mca_coll_shmcico_keep_retire() */
    return 0 != atomic_load_explicit(&((mca_coll_shmcico_header_t *) kept->base)->retired,
                                     memory_order_acquire);
}

void mca_coll_shmcico_keep_retire(mca_coll_shmcico_kept_t *kept)
{
    /* release: pairs with the acquire in retired(); the setup messages
     * that follow order it before the others' frees */
    atomic_store_explicit(&((mca_coll_shmcico_header_t *) kept->base)->retired, 1,
                          memory_order_release);
}

void mca_coll_shmcico_keep_put(mca_coll_shmcico_kept_t *kept)
{
    mca_coll_shmcico_kept_t *dropped = NULL;

    if (retired(kept)) {
        mca_coll_shmcico_keep_drop(kept);   /* nobody else keeps it */
        return;
    }
    pthread_mutex_lock(&store_lock);
    if (stored() >= mca_coll_shmcico_component.keep_segments) {
        dropped = unlink_oldest();
    }
    kept->next = store;
    store = kept;
    pthread_mutex_unlock(&store_lock);
    if (NULL != dropped) {
        mca_coll_shmcico_keep_drop(dropped);
    }
}

static bool same_layout(const mca_coll_shmcico_layout_t *a, const mca_coll_shmcico_layout_t *b)
{
    /* the rest of a layout follows from these (mca_coll_shmcico_layout_init()) */
    return a->page_size == b->page_size && a->nprocs == b->nprocs && a->slots == b->slots
        && a->banks == b->banks && a->fragment_size == b->fragment_size
        && a->segment_size == b->segment_size;
}

static bool same_processes(const mca_coll_shmcico_kept_t *k, struct ompi_communicator_t *comm)
{
    if (k->nprocs != ompi_comm_size(comm)) {
        return false;
    }
    for (int i = 0; i < k->nprocs; ++i) {
        opal_process_name_t name = name_of(comm, i);
        if (k->names[i].jobid != name.jobid || k->names[i].vpid != name.vpid) {
            return false;
        }
    }
    return true;
}

/* NUMA nodes as the segment's topology records them */
static bool same_numa(const mca_coll_shmcico_kept_t *k, const int32_t *numa)
{
    mca_coll_shmcico_view_t view;

    if (0 != mca_coll_shmcico_view_init(&view, k->base, &k->layout)) {
        return false;
    }
    for (int i = 0; i < k->nprocs; ++i) {
        if (view.numa[i] != numa[i]) {
            return false;
        }
    }
    return true;
}

static bool fits(const mca_coll_shmcico_kept_t *k, const mca_coll_shmcico_keep_want_t *want)
{
    return same_layout(&k->layout, want->layout)
        && (NULL == want->path || 0 == strcmp(k->path, want->path))
        && (NULL == want->id || 0 == memcmp(&k->id, want->id, sizeof(k->id)))
        && (NULL == want->last || k->last.seq == want->last->seq)
        && same_processes(k, want->comm)
        && (NULL == want->numa || same_numa(k, want->numa));
}

mca_coll_shmcico_kept_t *mca_coll_shmcico_keep_take(const mca_coll_shmcico_keep_want_t *want)
{
    mca_coll_shmcico_kept_t **link = &store, *taken = NULL, *dead = NULL;

    pthread_mutex_lock(&store_lock);
    while (NULL != *link && NULL == taken) {
        mca_coll_shmcico_kept_t *k = *link;
        if (retired(k)) {               /* retired since it was kept */
            *link = k->next;
            k->next = dead;
            dead = k;
        } else if (fits(k, want)) {
            *link = k->next;
            k->next = NULL;
            taken = k;
        } else {
            link = &k->next;
        }
    }
    pthread_mutex_unlock(&store_lock);
    while (NULL != dead) {
        mca_coll_shmcico_kept_t *next = dead->next;
        mca_coll_shmcico_keep_drop(dead);
        dead = next;
    }
    return taken;
}

bool mca_coll_shmcico_keep_drop_oldest(void)
{
    mca_coll_shmcico_kept_t *oldest;

    pthread_mutex_lock(&store_lock);
    oldest = unlink_oldest();
    pthread_mutex_unlock(&store_lock);
    if (NULL == oldest) {
        return false;
    }
    mca_coll_shmcico_keep_drop(oldest);
    return true;
}

/* Taken before the file is made or mapped, in one compare-and-swap, so
 * communicators set up at once by several threads cannot pass the limit
 * together */
static bool take_bytes(unsigned long long bytes)
{
    unsigned long long *used = &mca_coll_shmcico_component.segment_bytes;
    unsigned long long limit = mca_coll_shmcico_component.max_memory;
    unsigned long long now = __atomic_load_n(used, __ATOMIC_RELAXED);

    do {
        if (0 != limit && (now > limit || bytes > limit - now)) {
            return false;
        }
    } while (!__atomic_compare_exchange_n(used, &now, now + bytes, true,
                                          __ATOMIC_RELAXED, __ATOMIC_RELAXED));
    return true;
}

bool mca_coll_shmcico_keep_reserve(size_t bytes)
{
    unsigned long long limit = mca_coll_shmcico_component.max_memory;

    if (0 != limit && bytes > limit) {
        return false;               /* no room to make: keep what is kept */
    }
    while (!take_bytes(bytes)) {
        if (!mca_coll_shmcico_keep_drop_oldest()) {
            return false;
        }
    }
    return true;
}

void mca_coll_shmcico_keep_unreserve(size_t bytes)
{
    mca_coll_shmcico_count(&mca_coll_shmcico_component.segment_bytes,
                           -(unsigned long long) bytes);
}

void mca_coll_shmcico_keep_clear(void)
{
    while (mca_coll_shmcico_keep_drop_oldest()) {
    }
}
