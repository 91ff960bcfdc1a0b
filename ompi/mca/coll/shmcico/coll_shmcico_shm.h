/* -*- Mode: C; c-basic-offset:4 ; indent-tabs-mode:nil -*- */
/*
 * Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
 * $COPYRIGHT$
 *
 * Additional copyrights may follow
 *
 * $HEADER$
 */

/**
 * @file
 *
 * The backing file of a segment and the placement of its pages on NUMA
 * nodes.  No Open MPI here: the glue (coll_shmcico_setup.c) runs the
 * creation protocol between the processes and calls these steps.
 *
 * Creation, at rank 0:  create -> size -> map -> place -> reserve -> format
 * Attach, elsewhere:    open (checks identity) -> map -> check placement
 * Then rank 0 unlinks the file as soon as every process has attached, so
 * nothing stays in the backing directory whatever happens later.
 */

#ifndef MCA_COLL_SHMCICO_SHM_H
#define MCA_COLL_SHMCICO_SHM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MCA_COLL_SHMCICO_PATH_MAX 256

/** What identifies a backing file beyond its name. */
typedef struct mca_coll_shmcico_file_id_t {
    uint64_t dev;
    uint64_t ino;
    uint64_t size;
} mca_coll_shmcico_file_id_t;

/**
 * Create a new backing file under dir with an unpredictable name, mode
 * 0600, O_EXCL and O_NOFOLLOW: an existing file or symlink of that name
 * is never opened, another name is tried.  The file is sized to size
 * bytes (no pages allocated yet) and locked (flock) through *fd until it
 * is closed: the creator keeps *fd open until it unlinks the file.
 * First, files of this user under dir whose creator died before it could
 * unlink them are removed (mca_coll_shmcico_shm_reap()).  Returns 0 or
 * an errno value.
 */
int mca_coll_shmcico_shm_create(const char *dir, size_t size, char *path,
                                size_t path_len, int *fd,
                                mca_coll_shmcico_file_id_t *id);

/**
 * Allocate every page of the file (posix_fallocate) so that touching
 * the mapping can never raise SIGBUS; pages follow the placement set on
 * the mapping beforehand.  Returns 0 or an errno value (ENOSPC when the
 * backing file system is too small).
 */
int mca_coll_shmcico_shm_reserve(int fd, size_t size);

/** Seconds after which a backing file that nobody holds locked is
 *  stale: longer than the step from its creation to its lock. */
#define MCA_COLL_SHMCICO_STALE_SECONDS 10

/**
 * Remove the backing files under dir that a creator left when it died
 * between creating and unlinking them (the runtime's cleanup at job end
 * can lose that race): regular files of this user named as this
 * component names them, older than MCA_COLL_SHMCICO_STALE_SECONDS, that
 * no process holds locked.  Symlinks and others' files are never
 * touched.  Returns how many it removed.
 */
int mca_coll_shmcico_shm_reap(const char *dir);

/**
 * Open a backing file made by another process of the same user and check
 * that it is the very file that process created: a regular file, owned
 * by us, mode 0600, same device, inode and size.  Returns 0 or an errno
 * value.
 */
int mca_coll_shmcico_shm_open(const char *path,
                              const mca_coll_shmcico_file_id_t *id, int *fd);

/** Map size bytes of fd shared, read-write; NULL on failure (errno). */
void *mca_coll_shmcico_shm_map(int fd, size_t size);

void mca_coll_shmcico_shm_unmap(void *base, size_t size);

/* ------------------------------------------------------------------ */
/* NUMA                                                                 */

/** What this build and machine can do about placement. */
typedef struct mca_coll_shmcico_numa_info_t {
    int node;           /**< NUMA node of this process, -1 unknown */
    bool bound;         /**< the process's binding lies within that node */
    int cpus;           /**< processing units this machine offers us */
} mca_coll_shmcico_numa_info_t;

/** Where this process runs, from its binding (hwloc). */
void mca_coll_shmcico_numa_query(mca_coll_shmcico_numa_info_t *info);

/** Free what the queries keep (the machine's topology). */
void mca_coll_shmcico_numa_release(void);

/** Whether pages can be placed and checked (libnuma built in and the
 *  kernel supports NUMA policies). */
bool mca_coll_shmcico_numa_can_place(void);

/**
 * Ask that the pages of [addr, addr+len) come from node (preferred, so
 * a full node falls back to another instead of failing).  addr must be
 * page-aligned.  Returns 0 or an errno value (ENOSYS without libnuma).
 */
int mca_coll_shmcico_numa_place(void *addr, size_t len, int node);

/**
 * Count the pages of [addr, addr+len) and those of them that live on
 * node (move_pages).  Returns 0 or an errno value.
 */
int mca_coll_shmcico_numa_check(void *addr, size_t len, int node,
                                size_t *pages, size_t *on_node);

#endif /* MCA_COLL_SHMCICO_SHM_H */
