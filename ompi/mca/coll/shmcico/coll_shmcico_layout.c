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
 * Layout of the shared segment (see the diagram in
 * coll_shmcico_segment.h): where every block goes, how a fresh segment is
 * formatted, and how a process checks the segment it attached to.
 */

#include <string.h>

#include "coll_shmcico_segment.h"

static bool round_up(size_t value, size_t align, size_t *out)
{
    size_t sum;

    if (__builtin_add_overflow(value, align - 1, &sum)) {
        return false;
    }
    *out = sum / align * align;
    return true;
}

/* *out = a * b + c, false on overflow */
static bool mul_add(size_t a, size_t b, size_t c, size_t *out)
{
    size_t product;

    return !__builtin_mul_overflow(a, b, &product)
        && !__builtin_add_overflow(product, c, out);
}

static bool params_valid(size_t page_size, uint32_t nprocs, uint32_t slots,
                         uint32_t banks, size_t fragment_size)
{
    return page_size >= MCA_COLL_SHMCICO_CACHELINE
        && 0 == (page_size & (page_size - 1))
        && nprocs >= 1 && banks >= 1 && banks <= MCA_COLL_SHMCICO_MAX_BANKS
        && slots >= banks
        && 0 == slots % banks
        && fragment_size >= MCA_COLL_SHMCICO_CACHELINE
        && 0 == fragment_size % MCA_COLL_SHMCICO_CACHELINE;
}

/* a process's lines: id, then done, received, xfer and region of every
 * bank, then one flag per slot */
static size_t lines_of(uint32_t slots, uint32_t banks)
{
    return (MCA_COLL_SHMCICO_ID_LINES + 4 * (size_t) banks + slots) * MCA_COLL_SHMCICO_CACHELINE;
}

int mca_coll_shmcico_layout_init(mca_coll_shmcico_layout_t *layout,
                                 size_t page_size, uint32_t nprocs,
                                 uint32_t slots, uint32_t banks,
                                 size_t fragment_size)
{
    size_t end, queue_bytes;

    if (!params_valid(page_size, nprocs, slots, banks, fragment_size)) {
        return -1;
    }
    memset(layout, 0, sizeof(*layout));
    layout->page_size = page_size;
    layout->nprocs = nprocs;
    layout->slots = slots;
    layout->banks = banks;
    layout->bank_slots = slots / banks;
    layout->fragment_size = fragment_size;

    /* header and topology share rank 0's first pages */
    layout->topology_offset = (sizeof(mca_coll_shmcico_header_t)
                               + MCA_COLL_SHMCICO_CACHELINE - 1)
        / MCA_COLL_SHMCICO_CACHELINE * MCA_COLL_SHMCICO_CACHELINE;
    if (!mul_add(sizeof(int32_t), nprocs, layout->topology_offset, &end)
        || !round_up(end, page_size, &layout->banks_offset)) {
        return -1;
    }

    /* bank lines, then the entries[p] of every bank */
    layout->entries_offset = layout->banks_offset
        + banks * sizeof(mca_coll_shmcico_bank_t);
    if (!mul_add((size_t) banks * nprocs, sizeof(mca_coll_shmcico_entry_t),
                 layout->entries_offset, &end)
        || !round_up(end, page_size, &layout->procs_offset)) {
        return -1;
    }

    /* one block per process: its lines, then its slots, each
     * page-aligned */
    if (!round_up(lines_of(slots, banks), page_size, &layout->lines_bytes)
        || !mul_add(slots, fragment_size, 0, &queue_bytes)
        || !round_up(queue_bytes, page_size, &queue_bytes)
        || __builtin_add_overflow(layout->lines_bytes, queue_bytes,
                                  &layout->proc_stride)
        || !mul_add(nprocs, layout->proc_stride, layout->procs_offset,
                    &layout->segment_size)) {
        return -1;
    }
    return 0;
}

void mca_coll_shmcico_segment_format(void *base,
                                     const mca_coll_shmcico_layout_t *layout,
                                     const int32_t *numa)
{
    unsigned char *bytes = (unsigned char *) base;
    mca_coll_shmcico_header_t *header = (mca_coll_shmcico_header_t *) base;
    int32_t *topology = (int32_t *) (bytes + layout->topology_offset);

    memcpy(topology, numa, layout->nprocs * sizeof(int32_t));

    /* Every line is zero in a fresh segment: op 0 is never a real one
     * (calls count from 1), so a bank whose previous op is 0 is free and
     * no flag, xfer or region line belongs to a call. */
    header->version = MCA_COLL_SHMCICO_LAYOUT_VERSION;
    header->nprocs = layout->nprocs;
    header->slots = layout->slots;
    header->banks = layout->banks;
    header->fragment_size = layout->fragment_size;
    header->segment_size = layout->segment_size;
    atomic_init(&header->attached, 0);
    atomic_init(&header->retired, 0);
    atomic_init(&header->pingpong.ball, 0);
    /* magic last: a header with the magic is complete (the segment is
     * handed to other processes only after this, over the PML) */
    header->magic = MCA_COLL_SHMCICO_MAGIC;
}

int mca_coll_shmcico_view_init(mca_coll_shmcico_view_t *view, void *base,
                               const mca_coll_shmcico_layout_t *layout)
{
    const mca_coll_shmcico_header_t *header = base;
    unsigned char *bytes = (unsigned char *) base;

    if (header->magic != MCA_COLL_SHMCICO_MAGIC
        || header->version != MCA_COLL_SHMCICO_LAYOUT_VERSION
        || header->nprocs != layout->nprocs
        || header->slots != layout->slots
        || header->banks != layout->banks
        || header->fragment_size != layout->fragment_size
        || header->segment_size != layout->segment_size) {
        return -1;
    }
    view->base = bytes;
    view->layout = *layout;
    view->header = (mca_coll_shmcico_header_t *) base;
    view->numa = (int32_t *) (bytes + layout->topology_offset);
    view->banks = (mca_coll_shmcico_bank_t *) (bytes + layout->banks_offset);
    return 0;
}

void mca_coll_shmcico_segment_identify(const mca_coll_shmcico_view_t *view, int rank,
                                       int32_t pid)
{
    mca_coll_shmcico_id_t *id = mca_coll_shmcico_id(view, rank);

    /* read by the others only after the setup's next message */
    id->base = (uint64_t) (uintptr_t) view->base;
    id->probe = MCA_COLL_SHMCICO_PROBE(rank);
    id->pid = pid;
}
