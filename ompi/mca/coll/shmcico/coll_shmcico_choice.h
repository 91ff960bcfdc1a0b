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
 * How a block travels, as its size and its communicator decide: by
 * single copy or through the queues (the crossovers,
 * coll_shmcico_<op>_single_copy_min), and, through the queues, with
 * streaming or ordinary stores (coll_shmcico_streaming_min, and
 * coll_shmcico_near_streaming_min where the processes are near one
 * another: coll_shmcico_nearness.h).  Each sender decides alone from
 * these (docs/protocol.md, "Who decides the transport"); the slow-kernel
 * floor of the sending process and the cache probe may still turn a
 * block that its size sends by single copy into the queues.
 */

#ifndef MCA_COLL_SHMCICO_CHOICE_H
#define MCA_COLL_SHMCICO_CHOICE_H

#include "coll_shmcico.h"

/** The most processes of a near communicator for which the near floors
 *  of the crossovers apply (measured at 2). */
#define MCA_COLL_SHMCICO_NEAR_MAX_PROCS 4

/** The near floor of op's crossover on a near communicator of up to
 *  MCA_COLL_SHMCICO_NEAR_MAX_PROCS processes (else 0):
 *  coll_shmcico_near_single_copy_min (0: none), and for an operation with
 *  one writer and one reader per block more than a bank's slots hold: a
 *  block that fits there is written at once, while its reader copies it
 *  out, which beat a kernel call at np 2.  Allgather(v), whose processes
 *  each copy their block in and the others' out, keeps at most a bank's
 *  slots in the queues: beyond, its gain near was small and its loss
 *  where the machine turned far after the setup large (docs/design.md,
 *  "Near and far, measured"). */
static inline uint64_t mca_coll_shmcico_near_floor(const mca_coll_shmcico_module_t *module,
                                                   mca_coll_shmcico_op_t op)
{
    const mca_coll_shmcico_layout_t *layout = &module->engine.view.layout;
    uint64_t floor = module->params.near_single_min;
    uint64_t ring = (uint64_t) layout->bank_slots * layout->fragment_size;

    if (!module->near || module->engine.nprocs > MCA_COLL_SHMCICO_NEAR_MAX_PROCS
        || 0 == floor) {
        return 0;
    }
    if (MCA_COLL_SHMCICO_OP_ALLGATHER == op || MCA_COLL_SHMCICO_OP_ALLGATHERV == op) {
        return floor < ring ? floor : ring;
    }
    return floor > ring ? floor : ring + 1;
}

/** The readers' floor of op's crossover: coll_shmcico_bcast_readers_single_copy_min
 *  for a Bcast of 3 or more processes, whose readers pull a block from
 *  the root at once (docs/design.md, "Readers of one root"); else 0. */
static inline uint64_t mca_coll_shmcico_readers_floor(const mca_coll_shmcico_module_t *module,
                                                      mca_coll_shmcico_op_t op)
{
    return MCA_COLL_SHMCICO_OP_BCAST == op && module->engine.nprocs >= 3
        ? module->params.readers_single_min : 0;
}

/** op's coll_shmcico_<op>_single_copy_min as in effect: the largest of
 *  it, its readers' floor and its near floor (what MPI_Comm_get_info
 *  reports). */
static inline uint64_t
mca_coll_shmcico_single_min_in_effect(const mca_coll_shmcico_module_t *module,
                                      mca_coll_shmcico_op_t op)
{
    uint64_t min = module->params.single_min[op];
    uint64_t readers = mca_coll_shmcico_readers_floor(module, op);
    uint64_t near = mca_coll_shmcico_near_floor(module, op);

    min = readers > min ? readers : min;
    return near > min ? near : min;
}

/** coll_shmcico_streaming_min as in effect: raised to
 *  coll_shmcico_near_streaming_min where this process sees the others
 *  near (its watch: the setup's answer, kept current where watched; 0:
 *  off; what MPI_Comm_get_info reports). */
static inline uint64_t
mca_coll_shmcico_streaming_min_in_effect(const mca_coll_shmcico_module_t *module)
{
    uint64_t from = module->params.streaming_min;

    return 0 != from && module->watch.near && module->params.near_streaming_min > from
        ? module->params.near_streaming_min : from;
}

/** The smallest block of op that goes by single copy as far as its size,
 *  the communicator's size, its nearness (the setup's verdict) and the
 *  module's parameters say (its layout aside); UINT64_MAX: none.  Every
 *  process finds the same. */
static inline uint64_t mca_coll_shmcico_single_from(const mca_coll_shmcico_module_t *module,
                                                    mca_coll_shmcico_op_t op)
{
    uint64_t max_procs = module->params.single_max_procs[op], min;

    if (MCA_COLL_SHMCICO_SINGLE_OFF == module->copy.mode
        || MCA_COLL_SHMCICO_SINGLE_OFF == module->params.single_copy
        || (0 != max_procs && (uint64_t) module->engine.nprocs > max_procs)) {
        return UINT64_MAX;
    }
    min = mca_coll_shmcico_single_min_in_effect(module, op);
    return min > 0 ? min : 1;
}

static inline bool mca_coll_shmcico_single_by_size(const mca_coll_shmcico_module_t *module,
                                                   mca_coll_shmcico_op_t op, uint64_t bytes)
{
    uint64_t from = mca_coll_shmcico_single_from(module, op);

    return UINT64_MAX != from && bytes >= from;
}

/** The smallest block that goes through the queues written into the
 *  slots with streaming stores (coll_shmcico_streaming.c): one that does
 *  not fit in a flag, from coll_shmcico_streaming_min on (or
 *  coll_shmcico_near_streaming_min, the larger, where the processes are
 *  near), where the machine has them; UINT64_MAX: none. */
static inline uint64_t mca_coll_shmcico_streaming_from(const mca_coll_shmcico_module_t *module)
{
    uint64_t from = mca_coll_shmcico_streaming_min_in_effect(module);

    if (!mca_coll_shmcico_streaming_stores || 0 == from) {
        return UINT64_MAX;
    }
    return from > MCA_COLL_SHMCICO_INLINE ? from : MCA_COLL_SHMCICO_INLINE + 1;
}

static inline bool mca_coll_shmcico_streaming_by_size(const mca_coll_shmcico_module_t *module,
                                                      uint64_t bytes)
{
    uint64_t from = mca_coll_shmcico_streaming_from(module);

    return UINT64_MAX != from && bytes >= from;
}

/** The most processes of a communicator on which a sender's slow-kernel
 *  floor applies (measured at 2, as the near floors). */
#define MCA_COLL_SHMCICO_SLOW_KERNEL_MAX_PROCS 4

/** Whether a process copies its own block of bytes into its receive
 *  buffer with streaming stores (coll_shmcico_streaming.c): from
 *  coll_shmcico_<op>_own_streaming_min on, where the machine has them. */
static inline bool mca_coll_shmcico_own_streaming_by_size(const mca_coll_shmcico_module_t *module,
                                                          mca_coll_shmcico_op_t op,
                                                          uint64_t bytes)
{
    uint64_t from = module->params.own_streaming_min[op];

    return mca_coll_shmcico_streaming_stores && 0 != from && bytes >= from;
}

/** The smallest own block whose destination the cache probe looks at,
 *  below coll_shmcico_<op>_own_streaming_min: one found cold is copied
 *  with streaming stores (docs/design.md, "Streaming stores"). */
#define MCA_COLL_SHMCICO_OWN_PROBE_MIN ((uint64_t) 1024 * 1024)

#endif /* MCA_COLL_SHMCICO_CHOICE_H */
