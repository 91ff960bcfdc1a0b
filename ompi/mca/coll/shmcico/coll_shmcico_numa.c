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
 * NUMA: where a process runs comes from its binding (hwloc); where pages
 * go is asked with mbind() and checked with move_pages() (libnuma).
 * Without libnuma the build still works: pages then land where the
 * creating process allocates them, and nothing is checked.
 */

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#include <hwloc.h>
#if COLL_SHMCICO_HAVE_LIBNUMA
#include <numa.h>
#include <numaif.h>
#endif

#include "coll_shmcico_shm.h"

/* Loaded at the first query, kept until the component closes; the lock
 * serialises queries from threads that set up communicators at once. */
static hwloc_topology_t topology;
static bool topology_tried, topology_loaded;
static pthread_mutex_t topology_lock = PTHREAD_MUTEX_INITIALIZER;

/* Processing units and NUMA nodes are all we need: keep nothing else,
 * which makes loading cheap on large machines. */
static bool topology_load(void)
{
    if (0 != hwloc_topology_init(&topology)) {
        return false;
    }
    (void) hwloc_topology_set_all_types_filter(topology, HWLOC_TYPE_FILTER_KEEP_NONE);
    if (0 != hwloc_topology_load(topology)) {
        hwloc_topology_destroy(topology);
        return false;
    }
    return true;
}

/* whether the topology is there; loads it on the first call */
static bool topology_ready(void)
{
    bool ready;

    pthread_mutex_lock(&topology_lock);
    if (!topology_tried) {
        topology_tried = true;
        topology_loaded = topology_load();
    }
    ready = topology_loaded;
    pthread_mutex_unlock(&topology_lock);
    return ready;
}

void mca_coll_shmcico_numa_release(void)
{
    pthread_mutex_lock(&topology_lock);
    if (topology_loaded) {
        hwloc_topology_destroy(topology);
    }
    topology_tried = topology_loaded = false;
    pthread_mutex_unlock(&topology_lock);
}

/* NUMA nodes of the machine, 0 unknown */
static int numa_nodes(void)
{
    return topology_ready() ? hwloc_get_nbobjs_by_type(topology, HWLOC_OBJ_NUMANODE) : 0;
}

/* node of the set of cpus, -1 when they span several nodes or none */
static int node_of_cpuset(hwloc_const_cpuset_t cpuset)
{
    hwloc_nodeset_t nodeset = hwloc_bitmap_alloc();
    int node = -1;

    if (NULL == nodeset) {
        return -1;
    }
    hwloc_cpuset_to_nodeset(topology, cpuset, nodeset);
    if (1 == hwloc_bitmap_weight(nodeset)) {
        node = hwloc_bitmap_first(nodeset);
    }
    hwloc_bitmap_free(nodeset);
    return node;
}

void mca_coll_shmcico_numa_query(mca_coll_shmcico_numa_info_t *info)
{
    hwloc_cpuset_t cpuset;

    info->node = -1;
    info->bound = false;
    if (!topology_ready() || NULL == (cpuset = hwloc_bitmap_alloc())) {
        info->cpus = (int) sysconf(_SC_NPROCESSORS_ONLN);   /* reads a file of /sys */
        return;
    }
    info->cpus = hwloc_bitmap_weight(hwloc_topology_get_allowed_cpuset(topology));
    /* the calling thread's binding: with a process-wide query hwloc asks
     * every thread of the process (half of a segment's setup time here),
     * and where a runtime binds threads apart (OpenMP) the calling
     * thread's is the one whose core uses the queue */
    if (0 == hwloc_get_cpubind(topology, cpuset, HWLOC_CPUBIND_THREAD)) {
        info->node = node_of_cpuset(cpuset);
        info->bound = info->node >= 0;
    }
    /* unbound, or bound across nodes: the node it runs on now */
    if (info->node < 0
        && 0 == hwloc_get_last_cpu_location(topology, cpuset, HWLOC_CPUBIND_THREAD)) {
        info->node = node_of_cpuset(cpuset);
    }
    hwloc_bitmap_free(cpuset);
}

#if COLL_SHMCICO_HAVE_LIBNUMA

bool mca_coll_shmcico_numa_can_place(void)
{
    return numa_available() >= 0;
}

int mca_coll_shmcico_numa_place(void *addr, size_t len, int node)
{
    struct bitmask *mask;
    int err = 0;

    if (!mca_coll_shmcico_numa_can_place() || node < 0
        || node > numa_max_possible_node()) {
        return ENOSYS;
    }
    if (NULL == (mask = numa_allocate_nodemask())) {
        return ENOMEM;
    }
    numa_bitmask_setbit(mask, (unsigned int) node);
    /* on a shared mapping the policy is stored with the file, so it
     * holds for whichever process allocates the pages */
    if (0 != mbind(addr, len, MPOL_PREFERRED, mask->maskp, mask->size + 1, 0)) {
        err = errno;
    }
    numa_free_nodemask(mask);
    return err;
}

int mca_coll_shmcico_numa_check(void *addr, size_t len, int node,
                                size_t *pages, size_t *on_node)
{
    size_t page = (size_t) sysconf(_SC_PAGESIZE), count = (len + page - 1) / page;
    void **where;
    int *status;
    int err = 0;

    *pages = count;
    /* one node: every page is on it; asking would first fault each page
     * in, half of a segment's setup time on such a machine */
    *on_node = 0 == node && 1 == numa_nodes() ? count : 0;
    if (0 != *on_node) {
        return 0;
    }
    where = malloc(count * sizeof(void *));
    status = malloc(count * sizeof(int));
    if (NULL == where || NULL == status) {
        err = ENOMEM;
    } else {
        /* move_pages() only sees pages mapped in this process: read one
         * byte of each (they are reserved, so this allocates nothing) */
        for (size_t i = 0; i < count; ++i) {
            where[i] = (char *) addr + i * page;
            (void) *(volatile char *) where[i];
        }
        if (0 != move_pages(0, count, where, NULL, status, 0)) {
            err = errno;
        }
        for (size_t i = 0; 0 == err && i < count; ++i) {
            *on_node += (status[i] == node);
        }
    }
    free(where);
    free(status);
    return err;
}

#else /* !COLL_SHMCICO_HAVE_LIBNUMA */

bool mca_coll_shmcico_numa_can_place(void)
{
    return false;
}

int mca_coll_shmcico_numa_place(void *addr, size_t len, int node)
{
    (void) addr; (void) len; (void) node;
    return ENOSYS;
}

int mca_coll_shmcico_numa_check(void *addr, size_t len, int node,
                                size_t *pages, size_t *on_node)
{
    (void) addr; (void) node;
    *pages = len / (size_t) sysconf(_SC_PAGESIZE);
    *on_node = 0;
    return ENOSYS;
}

#endif /* COLL_SHMCICO_HAVE_LIBNUMA */
