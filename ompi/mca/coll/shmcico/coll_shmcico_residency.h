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
 * The cache probe: whether a block about to be sent sits in the caches.
 *
 * Which transport is faster for a block of 128 KiB to a few MiB depends
 * less on its size than on where its bytes are: from the caches, single
 * copy wins (both cores copy, one copy per byte); from memory, the
 * queues win by three to four times (docs/design.md, "Cold blocks").
 * The process that sends a block chooses its transport alone, and the
 * other side follows the kind of its first flag (docs/protocol.md), so
 * the sender may look at its own bytes before it chooses:
 *
 *  - it loads a few bytes spread over the block, each load's address
 *    depending on the byte the one before it read, so that the misses do
 *    not overlap, in an order without a constant stride, so that no
 *    stride prefetcher runs ahead of them, and times them;
 *  - a time above the threshold says "cold": the block goes through the
 *    queues even where its size says single copy.
 *
 * The threshold is calibrated once per process: the same chain of loads
 * on lines in the cache and on the same lines flushed to memory (whose
 * pages stay in the TLB); the threshold is the flushed chain's median.  A
 * probe slower than that took as long as if every line came from memory
 * (docs/design.md, "Cold blocks").  Where there is no flush instruction,
 * or flushed lines are not three times slower than cached ones, the
 * calibration gives 0 and nothing is probed.  The probe reads only bytes
 * that belong to the block.
 */

#ifndef MCA_COLL_SHMCICO_RESIDENCY_H
#define MCA_COLL_SHMCICO_RESIDENCY_H

#include <stdbool.h>
#include <stdint.h>

#include "coll_shmcico_single.h"

/** Loads of one probe. */
#define MCA_COLL_SHMCICO_RESIDENCY_LOADS 8

/** The share of the block that load k reads: no two strides in a row
 *  alike. */
static inline int mca_coll_shmcico_residency_share(int k)
{
    static const int order[MCA_COLL_SHMCICO_RESIDENCY_LOADS] = { 0, 5, 2, 6, 3, 7, 1, 4 };

    return order[k];
}

/**
 * Addresses of MCA_COLL_SHMCICO_RESIDENCY_LOADS bytes of region (an address
 * range of this process), one in each equal share of its packed bytes.
 * Returns how many (0 for an empty region).
 */
int mca_coll_shmcico_residency_points(const mca_coll_shmcico_region_t *region,
                                      const volatile uint8_t **points);

/** Nanoseconds that n dependent loads from points[] took. */
uint64_t mca_coll_shmcico_residency_time(const volatile uint8_t *const *points, int n);

/**
 * The threshold (ns) for this process: a chain's time on flushed lines; 0 where the machine cannot tell
 * (no flush instruction, or flushed loads not three times slower).
 * cached and flushed return the medians measured (may be NULL).
 */
uint64_t mca_coll_shmcico_residency_calibrate(uint64_t *cached, uint64_t *flushed);

/**
 * How long the kernel's copy between address spaces (process_vm_readv,
 * on this process) takes to move a block of 256 KiB from memory, both
 * buffers flushed, in hundredths of memcpy's time for the same (the
 * medians of a few copies, after one copy of each kind).  0 where it
 * cannot tell: no flush instruction, not Linux, the copy refused.
 *
 * It says whether the probe pays (docs/design.md, "Cold blocks"): a cold
 * block through the queues costs each of two cores one copy from memory
 * at once, by single copy each core moves half of it by the kernel's
 * copy; below about 2 (200) single copy is the faster of the two.
 */
unsigned mca_coll_shmcico_residency_kernel_ratio(void);

/** Whether region looks cold: its probe took longer than threshold
 *  (never with threshold 0). */
static inline bool mca_coll_shmcico_residency_cold(const mca_coll_shmcico_region_t *region,
                                               uint64_t threshold)
{
    const volatile uint8_t *points[MCA_COLL_SHMCICO_RESIDENCY_LOADS];
    int n;

    if (0 == threshold || 0 == (n = mca_coll_shmcico_residency_points(region, points))) {
        return false;
    }
    return mca_coll_shmcico_residency_time(points, n) > threshold;
}

#endif /* MCA_COLL_SHMCICO_RESIDENCY_H */
