/*
 * Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
 * $COPYRIGHT$
 *
 * Additional copyrights may follow
 *
 * $HEADER$
 */

/* A segment in ordinary memory, for the unit tests that look at its
 * lines without threads running calls on it (threads.h makes its own,
 * of any size, with mmap). */

#ifndef SHMCICO_UNIT_SEGMENT_H
#define SHMCICO_UNIT_SEGMENT_H

#include <stdlib.h>
#include <string.h>

#include "coll_shmcico_segment.h"

/* A zeroed segment of layout l (zero, as a fresh backing file is),
 * formatted as rank 0 would with numa[] its processes' NUMA nodes;
 * free() it. */
static inline void *unit_segment(const mca_coll_shmcico_layout_t *l, const int32_t *numa)
{
    void *base = aligned_alloc(4096, l->segment_size);

    memset(base, 0, l->segment_size);
    mca_coll_shmcico_segment_format(base, l, numa);
    return base;
}

#endif
