/*
 * Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
 * $COPYRIGHT$
 *
 * Additional copyrights may follow
 *
 * $HEADER$
 */

/*
 * Segment layout: every block page-aligned, every line a process writes
 * one cache line of its own, no two blocks overlapping, sizes as
 * documented; bad parameters and overflowing sizes refused; a formatted
 * segment is accepted by a view with the same layout and refused by any
 * other; a process's id line says where its mapping is.
 */

#include <stdlib.h>
#include <string.h>

#include "coll_shmcico_segment.h"
#include "unit.h"
#include "unit_segment.h"

static int aligned(size_t value, size_t align)
{
    return 0 == value % align;
}

static void check_geometry(const mca_coll_shmcico_layout_t *l)
{
    size_t page = l->page_size;
    size_t topology_end = l->topology_offset + sizeof(int32_t) * l->nprocs;
    size_t banks_end = l->banks_offset + l->banks * sizeof(mca_coll_shmcico_bank_t);
    size_t entries_end = l->entries_offset
        + (size_t) l->banks * l->nprocs * sizeof(mca_coll_shmcico_entry_t);
    /* id and watch (a pair of lines each), done, received, xfer and
     * region per bank, then the flags */
    size_t lines_used = (4 + 4 * (size_t) l->banks + l->slots) * MCA_COLL_SHMCICO_CACHELINE;
    size_t queue_used = l->slots * l->fragment_size;

    CHECK(l->topology_offset >= sizeof(mca_coll_shmcico_header_t),
          "topology overlaps the header");
    CHECK(topology_end <= l->banks_offset, "topology overlaps the banks");
    CHECK(aligned(l->banks_offset, page), "banks not page-aligned");
    CHECK(banks_end <= l->entries_offset, "banks overlap the entries");
    CHECK(aligned(l->entries_offset, MCA_COLL_SHMCICO_CACHELINE),
          "entries not cache-line aligned");
    CHECK(entries_end <= l->procs_offset, "entries overlap the process blocks");
    CHECK(aligned(l->procs_offset, page), "process blocks not page-aligned");
    CHECK(aligned(l->lines_bytes, page) && lines_used <= l->lines_bytes,
          "lines area %zu for %zu bytes", l->lines_bytes, lines_used);
    CHECK(lines_used + page > l->lines_bytes, "lines area larger than a page rounding");
    CHECK(aligned(l->proc_stride, page), "process stride not page-aligned");
    CHECK(l->lines_bytes + queue_used <= l->proc_stride,
          "queue overflows the process block");
    CHECK(l->lines_bytes + queue_used + page > l->proc_stride,
          "process block larger than needed");
    CHECK(l->segment_size == l->procs_offset + l->nprocs * l->proc_stride,
          "segment size %zu", l->segment_size);
}

static void check_sizes(void)
{
    static const size_t pages[] = { 4096, 65536 };
    static const uint32_t procs[] = { 1, 2, 3, 7, 64, 255, 1024 };
    static const uint32_t slot_counts[] = { 1, 2, 4, 8, 16, 64 };
    static const size_t fragments[] = { 64, 128, 4096, 8192, 12288, 65536 };

    CHECK(64 == sizeof(mca_coll_shmcico_flag_t), "a flag is %zu bytes",
          sizeof(mca_coll_shmcico_flag_t));
    CHECK(64 == sizeof(mca_coll_shmcico_bank_t), "a bank is %zu bytes",
          sizeof(mca_coll_shmcico_bank_t));
    CHECK(64 == sizeof(mca_coll_shmcico_done_t), "done[] is %zu bytes",
          sizeof(mca_coll_shmcico_done_t));
    CHECK(64 == sizeof(mca_coll_shmcico_id_t) && 64 == sizeof(mca_coll_shmcico_received_t)
          && 64 == sizeof(mca_coll_shmcico_xfer_t)
          && 64 == sizeof(mca_coll_shmcico_region_line_t),
          "id, received, xfer and region lines are one cache line each");
    CHECK(32 == sizeof(mca_coll_shmcico_payload_t), "a flag's payload is %zu bytes",
          sizeof(mca_coll_shmcico_payload_t));
    for (size_t a = 0; a < sizeof(pages) / sizeof(pages[0]); ++a)
    for (size_t b = 0; b < sizeof(procs) / sizeof(procs[0]); ++b)
    for (size_t c = 0; c < sizeof(slot_counts) / sizeof(slot_counts[0]); ++c)
    for (uint32_t banks = 1; banks <= slot_counts[c] && banks <= 8; banks *= 2)
    for (size_t d = 0; d < sizeof(fragments) / sizeof(fragments[0]); ++d) {
        mca_coll_shmcico_layout_t l;
        int rc = mca_coll_shmcico_layout_init(&l, pages[a], procs[b],
                                              slot_counts[c], banks, fragments[d]);
        CHECK(0 == rc, "layout p=%u s=%u w=%u f=%zu refused", procs[b],
              slot_counts[c], banks, fragments[d]);
        if (0 == rc) {
            check_geometry(&l);
        }
    }
}

static void check_refused(void)
{
    mca_coll_shmcico_layout_t l;

    CHECK(0 != mca_coll_shmcico_layout_init(&l, 4096, 4, 6, 4, 8192),
          "slots not a multiple of banks accepted");
    CHECK(0 != mca_coll_shmcico_layout_init(&l, 4096, 4, 8, 0, 8192),
          "zero banks accepted");
    CHECK(0 != mca_coll_shmcico_layout_init(&l, 4096, 4, 16, 16, 8192),
          "more banks than done[] holds accepted");
    CHECK(0 != mca_coll_shmcico_layout_init(&l, 4096, 4, 8, 2, 100),
          "fragment not a multiple of the cache line accepted");
    CHECK(0 != mca_coll_shmcico_layout_init(&l, 4096, 4, 8, 2, 32),
          "fragment below a cache line accepted");
    CHECK(0 != mca_coll_shmcico_layout_init(&l, 4096, 0, 8, 2, 8192),
          "zero processes accepted");
    CHECK(0 != mca_coll_shmcico_layout_init(&l, 3000, 4, 8, 2, 8192),
          "page size not a power of two accepted");
    CHECK(0 != mca_coll_shmcico_layout_init(&l, 4096, 1u << 31, 1u << 20, 1,
                                            (size_t) 1 << 40),
          "overflowing segment size accepted");
}

static void check_format_and_view(void)
{
    mca_coll_shmcico_layout_t l, other;
    mca_coll_shmcico_view_t view;
    int32_t numa[6] = { 0, 1, 0, 1, 2, 2 };
    void *base;

    CHECK(0 == mca_coll_shmcico_layout_init(&l, 4096, 6, 8, 2, 8192), "layout");
    base = unit_segment(&l, numa);
    CHECK(0 == mca_coll_shmcico_view_init(&view, base, &l), "view refused");
    CHECK(view.numa[3] == 1 && view.numa[5] == 2, "numa not copied");
    CHECK((unsigned char *) mca_coll_shmcico_id(&view, 2)
          == (unsigned char *) base + l.procs_offset + 2 * l.proc_stride, "id address");
    CHECK((unsigned char *) mca_coll_shmcico_watch_line(&view, 2)
          == (unsigned char *) base + l.procs_offset + 2 * l.proc_stride + 2 * 64
          && 0 == ((uintptr_t) mca_coll_shmcico_watch_line(&view, 2) - (uintptr_t) base) % 128,
          "watch address: the first line of a 128-byte pair after the id's");
    CHECK((unsigned char *) mca_coll_shmcico_done(&view, 2, 1)
          == (unsigned char *) base + l.procs_offset + 2 * l.proc_stride + 4 * 64 + 64,
          "done address: a line per bank after the watch pair");
    CHECK((unsigned char *) mca_coll_shmcico_received(&view, 2, 1)
          == (unsigned char *) mca_coll_shmcico_done(&view, 2, 0) + 2 * 64 + 64,
          "received address");
    CHECK((unsigned char *) mca_coll_shmcico_xfer(&view, 2, 0)
          == (unsigned char *) mca_coll_shmcico_done(&view, 2, 0) + 4 * 64, "xfer address");
    CHECK((unsigned char *) mca_coll_shmcico_region_line(&view, 2, 1)
          == (unsigned char *) mca_coll_shmcico_done(&view, 2, 0) + 7 * 64,
          "region address");
    CHECK((unsigned char *) mca_coll_shmcico_flag(&view, 2, 3)
          == (unsigned char *) base + l.procs_offset + 2 * l.proc_stride + 12 * 64 + 3 * 64,
          "flag address");
    CHECK((unsigned char *) (mca_coll_shmcico_flag(&view, 5, 7) + 1)
          <= mca_coll_shmcico_slot(&view, 5, 0), "flags overlap the slots");
    CHECK(mca_coll_shmcico_slot(&view, 5, 7)
          == (unsigned char *) base + l.procs_offset + 5 * l.proc_stride
             + l.lines_bytes + 7 * 8192, "slot address");
    CHECK(mca_coll_shmcico_slot(&view, 5, 7) + 8192
          <= (unsigned char *) base + l.segment_size, "last slot outside");
    CHECK((unsigned char *) mca_coll_shmcico_entries(&view, 1)
          == (unsigned char *) base + l.entries_offset + 6 * sizeof(mca_coll_shmcico_entry_t),
          "entries address");
    CHECK(4 == mca_coll_shmcico_bank_slots(&view), "slots in a bank");
    mca_coll_shmcico_segment_identify(&view, 4, 4242);
    CHECK(mca_coll_shmcico_id(&view, 4)->pid == 4242
          && mca_coll_shmcico_id(&view, 4)->base == (uint64_t) (uintptr_t) base
          && mca_coll_shmcico_id(&view, 4)->probe == MCA_COLL_SHMCICO_PROBE(4),
          "id line: pid, mapping address, probe");

    CHECK(0 == mca_coll_shmcico_layout_init(&other, 4096, 6, 8, 2, 4096), "layout");
    CHECK(0 != mca_coll_shmcico_view_init(&view, base, &other),
          "view with another fragment size accepted");
    CHECK(0 == mca_coll_shmcico_layout_init(&other, 4096, 6, 8, 4, 8192), "layout");
    CHECK(0 != mca_coll_shmcico_view_init(&view, base, &other),
          "view with other banks accepted");
    ((mca_coll_shmcico_header_t *) base)->magic ^= 1;
    CHECK(0 != mca_coll_shmcico_view_init(&view, base, &l),
          "segment with a bad magic accepted");
    free(base);
}

int main(void)
{
    check_sizes();
    check_refused();
    check_format_and_view();
    return unit_report("test_layout");
}
