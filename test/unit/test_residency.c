/*
 * Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
 * $COPYRIGHT$
 *
 * Additional copyrights may follow
 *
 * $HEADER$
 */

/*
 * The cache probe (coll_shmcico_residency.h): its loads touch bytes of
 * the block only, whatever the layout (dense, pieces with gaps, pieces
 * out of order, negative offsets, more pieces than it walks, fewer bytes
 * than loads), one in each share of the packed bytes, in an order with
 * no constant stride; an empty region is
 * not probed; threshold 0 never finds a block cold and threshold 1
 * always does; a calibration gives 0 or the flushed chain, and 0
 * only where flushed lines were not three times slower; the kernel's
 * copy of cold data is timed against memcpy's.
 */

#define _GNU_SOURCE                 /* process_vm_readv */
#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <sys/uio.h>
#include <unistd.h>
#endif

#include "coll_shmcico_residency.h"
#include "unit.h"

#define LOADS MCA_COLL_SHMCICO_RESIDENCY_LOADS

static mca_coll_shmcico_region_t region(const void *base, uint64_t count, int64_t extent,
                                        uint64_t size, uint64_t npieces,
                                        const mca_coll_shmcico_piece_t *pieces)
{
    return (mca_coll_shmcico_region_t) { .base = (uint64_t) (uintptr_t) base, .count = count,
                                         .extent = extent, .size = size,
                                         .npieces = npieces, .pieces = pieces };
}

/* the packed index of the byte at p, or -1 when p is none of region's */
static long long packed_index(const mca_coll_shmcico_region_t *r, const volatile uint8_t *p)
{
    uint64_t addr = (uint64_t) (uintptr_t) p;

    for (uint64_t e = 0; e < r->count; ++e) {
        uint64_t packed = e * r->size;
        for (uint64_t j = 0; j < r->npieces; ++j) {
            uint64_t start = r->base + e * (uint64_t) r->extent + (uint64_t) r->pieces[j].offset;
            if (addr >= start && addr < start + r->pieces[j].len) {
                return (long long) (packed + addr - start);
            }
            packed += r->pieces[j].len;
        }
    }
    return -1;
}

/* every load on a byte of the region, in order, one per share */
static void check_points(const char *what, const mca_coll_shmcico_region_t *r)
{
    const volatile uint8_t *points[LOADS];
    uint64_t bytes = mca_coll_shmcico_region_bytes(r);
    int n = mca_coll_shmcico_residency_points(r, points);
    unsigned seen = 0;

    CHECK(LOADS == n, "%s: %d loads", what, n);
    for (int k = 0; k < n; ++k) {
        long long at = packed_index(r, points[k]);
        CHECK(at >= 0, "%s: load %d outside the block", what, k);
        if (bytes >= LOADS) {
            CHECK((uint64_t) at / (bytes / LOADS)
                      == (uint64_t) mca_coll_shmcico_residency_share(k),
                  "%s: load %d at packed byte %lld of %llu", what, k, at,
                  (unsigned long long) bytes);
        }
    }
    for (int k = 0; k < LOADS; ++k) {
        seen |= 1u << mca_coll_shmcico_residency_share(k);
        CHECK(k < 2 || mca_coll_shmcico_residency_share(k) - mca_coll_shmcico_residency_share(k - 1)
                  != mca_coll_shmcico_residency_share(k - 1)
                     - mca_coll_shmcico_residency_share(k - 2),
              "%s: loads %d to %d at a constant stride", what, k - 2, k);
    }
    CHECK((1u << LOADS) - 1 == seen, "%s: shares loaded %#x", what, seen);
}

static void dense(uint8_t *buf)
{
    mca_coll_shmcico_piece_t piece = { 0, 1 };
    mca_coll_shmcico_region_t r = region(buf, 1 << 20, 1, 1, 1, &piece);
    mca_coll_shmcico_piece_t whole = { 0, 1 << 20 };
    mca_coll_shmcico_region_t one = region(buf, 1, 1 << 20, 1 << 20, 1, &whole);

    check_points("1 MiB of bytes", &r);
    check_points("one element of 1 MiB", &one);
    r.count = 5;
    check_points("5 bytes (fewer than the loads)", &r);
}

static void with_gaps(uint8_t *buf)
{
    /* an element of 3 pieces over 96 bytes, the middle one first */
    mca_coll_shmcico_piece_t pieces[3] = { { 40, 16 }, { 0, 8 }, { 72, 24 } };
    mca_coll_shmcico_region_t r = region(buf, 1000, 128, 48, 3, pieces);
    /* negative offsets: the base is the end of the buffer */
    mca_coll_shmcico_piece_t back[2] = { { -64, 32 }, { -16, 16 } };
    mca_coll_shmcico_region_t neg = region(buf + 128 * 1000, 999, -64, 48, 2, back);

    check_points("1000 elements of 3 pieces", &r);
    check_points("negative offsets and extent", &neg);
    r.count = 1;
    check_points("one element of 3 pieces", &r);
}

static void many_pieces(uint8_t *buf)
{
    /* more pieces than the probe walks: it loads the first byte of a
     * piece as far into the list as its share is into the element */
    enum { N = 100 };
    mca_coll_shmcico_piece_t pieces[N];
    mca_coll_shmcico_region_t r = region(buf, 40, 16 * N, 8 * N, N, pieces);
    const volatile uint8_t *points[LOADS];
    int n;

    for (int j = 0; j < N; ++j) {
        pieces[j] = (mca_coll_shmcico_piece_t) { 16 * j, 8 };
    }
    n = mca_coll_shmcico_residency_points(&r, points);
    CHECK(LOADS == n, "100 pieces: %d loads", n);
    for (int k = 0; k < n; ++k) {
        CHECK(packed_index(&r, points[k]) >= 0, "100 pieces: load %d outside the block", k);
    }
    /* one element of them: the loads still spread over its pieces */
    r.count = 1;
    n = mca_coll_shmcico_residency_points(&r, points);
    for (int k = 0; k < n; ++k) {
        long long at = packed_index(&r, points[k]);
        CHECK(at >= 0 && (uint64_t) at / (r.size / LOADS)
                             == (uint64_t) mca_coll_shmcico_residency_share(k),
              "one element of 100 pieces: load %d at packed byte %lld", k, at);
    }
}

static void decisions(uint8_t *buf)
{
    mca_coll_shmcico_piece_t piece = { 0, 4096 };
    mca_coll_shmcico_region_t r = region(buf, 64, 4096, 4096, 1, &piece);
    mca_coll_shmcico_region_t empty = r;
    const volatile uint8_t *points[LOADS];
    uint64_t cached, flushed, threshold;

    empty.count = 0;
    CHECK(0 == mca_coll_shmcico_residency_points(&empty, points), "an empty region probed");
    CHECK(!mca_coll_shmcico_residency_cold(&r, 0), "threshold 0 found a block cold");
    CHECK(mca_coll_shmcico_residency_cold(&r, 1), "threshold 1 found a block cached");
    CHECK(!mca_coll_shmcico_residency_cold(&empty, 1), "an empty block found cold");
    threshold = mca_coll_shmcico_residency_calibrate(&cached, &flushed);
    CHECK(0 == threshold || (flushed >= 3 * cached && threshold == flushed),
          "calibration: %llu ns cached, %llu ns flushed, threshold %llu",
          (unsigned long long) cached, (unsigned long long) flushed,
          (unsigned long long) threshold);
    CHECK(0 != threshold || 0 == flushed || flushed < 3 * cached,
          "calibration: no threshold from %llu ns cached, %llu ns flushed",
          (unsigned long long) cached, (unsigned long long) flushed);
    printf("calibration here: %llu ns cached, %llu ns flushed, threshold %llu ns\n",
           (unsigned long long) cached, (unsigned long long) flushed,
           (unsigned long long) threshold);
}

/* The kernel's ratio: measured where the machine can flush lines and
 * the kernel copies within a process (Linux on x86 and AArch64: the
 * suite's machines), and a time, not noise: the kernel's copy of 256 KiB
 * from memory takes at least a fifth and at most twenty times memcpy's. */
static void kernel_ratio(void)
{
    unsigned ratio = mca_coll_shmcico_residency_kernel_ratio();

#if defined(__linux__) && (defined(__x86_64__) || defined(__aarch64__))
    /* where the kernel copies within this process at all (a seccomp
     * filter may refuse it: then 0, and the probe stays) */
    char from[64] = "x", to[64];
    struct iovec local = { .iov_base = to, .iov_len = sizeof(to) };
    struct iovec remote = { .iov_base = from, .iov_len = sizeof(from) };
    bool works = (ssize_t) sizeof(to) == process_vm_readv(getpid(), &local, 1, &remote, 1, 0);

    CHECK(works ? ratio >= 20 && ratio <= 2000 : 0 == ratio,
          "kernel's copy of cold data: %u hundredths of memcpy's (copy within a process %s)",
          ratio, works ? "works" : "refused");
#endif
    printf("kernel's copy of cold data here: %u.%02u times memcpy's\n", ratio / 100,
           ratio % 100);
}

int main(void)
{
    size_t bytes = (size_t) 128 * 1000 + (1 << 20);
    uint8_t *buf = malloc(bytes);

    if (NULL == buf) {
        return 2;
    }
    memset(buf, 1, bytes);
    dense(buf);
    with_gaps(buf);
    many_pieces(buf);
    decisions(buf);
    kernel_ratio();
    free(buf);
    return unit_report("test_residency");
}
