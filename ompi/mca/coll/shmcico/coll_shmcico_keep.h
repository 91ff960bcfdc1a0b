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
 * Kept segments: when a communicator is freed, each process keeps its
 * mapping of the segment (up to coll_shmcico_keep_segments of them), and
 * the next communicator of the same processes in the same order takes it
 * over in its setup instead of making a file, placing, reserving and
 * formatting a new one (docs/protocol.md, "Kept segments").
 *
 * The new communicator's calls go on numbering where the freed one's
 * stopped: to the segment, they are the freed communicator's next calls,
 * so the rules that let one communicator's calls follow each other (a
 * bank is reused only once every process is done with its previous call)
 * cover the handover too, and nothing in the segment is reset.  A
 * process takes a kept segment only when rank 0 offers it and its own
 * copy names the same file, the same layout, the same processes in the
 * same order and the same last call; rank 0's verdict makes every
 * process take it, or none: the ones that took it retire it (a word in
 * the segment's header) and drop it, and a process that frees its
 * communicator later drops its copy instead of keeping it.
 *
 * Every function here is safe to call from several threads.
 */

#ifndef MCA_COLL_SHMCICO_KEEP_H
#define MCA_COLL_SHMCICO_KEEP_H

#include "ompi/communicator/communicator.h"

#include "coll_shmcico_segment.h"
#include "coll_shmcico_shm.h"
#include "coll_shmcico_sync.h"

/** A segment and who may take it over. */
typedef struct mca_coll_shmcico_kept_t {
    struct mca_coll_shmcico_kept_t *next;
    void *base;                             /**< this process's mapping */
    mca_coll_shmcico_layout_t layout;
    mca_coll_shmcico_seq_t last;            /**< the last call made on it */
    mca_coll_shmcico_file_id_t id;          /**< the file it was made from */
    char path[MCA_COLL_SHMCICO_PATH_MAX];   /**< and its (random) name */
    int nprocs;
    opal_process_name_t names[];            /**< its processes, in rank order */
} mca_coll_shmcico_kept_t;

/** The identity of a new segment of comm, made from the file at path;
 *  NULL when nothing is kept (coll_shmcico_keep_segments 0) or no
 *  memory. */
mca_coll_shmcico_kept_t *mca_coll_shmcico_keep_new(struct ompi_communicator_t *comm,
                                                   const mca_coll_shmcico_file_id_t *id,
                                                   const char *path);

/** Keep a freed communicator's segment (base, layout and last call
 *  filled in), dropping the oldest kept one when there are
 *  coll_shmcico_keep_segments already; a retired one is dropped. */
void mca_coll_shmcico_keep_put(mca_coll_shmcico_kept_t *kept);

/** What a taker asks of a kept segment: the processes of comm in its
 *  order and this layout, and where given (not NULL) the file, the last
 *  call and the NUMA node of every process. */
typedef struct mca_coll_shmcico_keep_want_t {
    struct ompi_communicator_t *comm;
    const mca_coll_shmcico_layout_t *layout;
    const char *path;
    const mca_coll_shmcico_file_id_t *id;
    const mca_coll_shmcico_seq_t *last;
    const int32_t *numa;
} mca_coll_shmcico_keep_want_t;

/** Take the newest kept segment that fits want out of the store; NULL:
 *  none. */
mca_coll_shmcico_kept_t *mca_coll_shmcico_keep_take(const mca_coll_shmcico_keep_want_t *want);

/** Mark a taken segment so that no process keeps it any more (a rank
 *  had no copy of it, or its setup failed): visible to every process
 *  that maps it. */
void mca_coll_shmcico_keep_retire(mca_coll_shmcico_kept_t *kept);

/** Unmap a kept segment and give its bytes back to
 *  coll_shmcico_max_memory's budget. */
void mca_coll_shmcico_keep_drop(mca_coll_shmcico_kept_t *kept);

/** Drop the oldest kept segment; false when none is kept. */
bool mca_coll_shmcico_keep_drop_oldest(void);

/** Take a new segment's bytes in coll_shmcico_segment_bytes, within
 *  coll_shmcico_max_memory, dropping kept segments for room, oldest
 *  first; false: over the limit.  Given back when the setup fails, and
 *  when the segment is unmapped (here, or at its communicator's free
 *  when it is not kept). */
bool mca_coll_shmcico_keep_reserve(size_t bytes);

/** Give a segment's bytes, taken by mca_coll_shmcico_keep_reserve(),
 *  back to the budget (the segment is unmapped, or its setup failed). */
void mca_coll_shmcico_keep_unreserve(size_t bytes);

/** Drop every kept segment (component close). */
void mca_coll_shmcico_keep_clear(void);

#endif /* MCA_COLL_SHMCICO_KEEP_H */
