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
 * The cache probe (coll_shmcico_residency.h): sample points of a region, a
 * timed chain of dependent loads, and the calibration of the threshold.
 */

#if defined(__linux__) && !defined(_GNU_SOURCE)
#define _GNU_SOURCE                 /* process_vm_readv */
#endif
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#if defined(__linux__)
#include <sys/uio.h>
#include <unistd.h>
#endif

#include "coll_shmcico_residency.h"

/* pieces walked to find a sample's piece; beyond, a sample takes the
 * first byte of a piece chosen by proportion */
#define MAX_WALK 64
/* chains timed for each median of the calibration */
#define CALIBRATION_ROUNDS 31
#define PAGE 4096
/* the block and the copies of each kind timed for the kernel's ratio */
#define KERNEL_BYTES (256 * 1024)
#define KERNEL_ROUNDS 9

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#define HAVE_FLUSH 1
static void flush_line(const volatile uint8_t *p)
{
    __asm__ volatile("clflush (%0)" : : "r"(p) : "memory");
}
static void flush_fence(void)
{
    __asm__ volatile("mfence" : : : "memory");
}
#elif defined(__GNUC__) && defined(__aarch64__)
#define HAVE_FLUSH 1
static void flush_line(const volatile uint8_t *p)
{
    __asm__ volatile("dc civac, %0" : : "r"(p) : "memory");
}
static void flush_fence(void)
{
    __asm__ volatile("dsb ish" : : : "memory");
}
#else
#define HAVE_FLUSH 0
#endif

static uint64_t now_ns(void)
{
    struct timespec t;

    (void) clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t) t.tv_sec * 1000000000u + (uint64_t) t.tv_nsec;
}

/* the address of packed byte t of region */
static const volatile uint8_t *byte_at(const mca_coll_shmcico_region_t *r, uint64_t t)
{
    uint64_t element = t / r->size, within = t % r->size;
    const mca_coll_shmcico_piece_t *piece = &r->pieces[0];

    if (r->npieces > MAX_WALK) {
        /* too many to walk: the first byte of the piece as far into the
         * list as the byte is into the element (a piece of 0 bytes is
         * none of the block's: take the element's first piece then) */
        piece = &r->pieces[within * r->npieces / r->size];
        piece = piece->len > 0 ? piece : &r->pieces[0];
        within = 0;
    } else {
        for (uint64_t j = 0; j + 1 < r->npieces && within >= piece->len; ++j, ++piece) {
            within -= piece->len;
        }
    }
    return (const volatile uint8_t *) (uintptr_t)
        (r->base + element * (uint64_t) r->extent + (uint64_t) piece->offset + within);
}

int mca_coll_shmcico_residency_points(const mca_coll_shmcico_region_t *region,
                                      const volatile uint8_t **points)
{
    uint64_t bytes = mca_coll_shmcico_region_bytes(region);
    uint64_t share = bytes / MCA_COLL_SHMCICO_RESIDENCY_LOADS;

    if (0 == bytes || 0 == region->npieces) {
        return 0;
    }
    for (int k = 0; k < MCA_COLL_SHMCICO_RESIDENCY_LOADS; ++k) {
        /* the middle of its share (every byte of a region shorter than the loads) */
        uint64_t j = (uint64_t) mca_coll_shmcico_residency_share(k);
        uint64_t t = share > 0 ? j * share + share / 2 : j % bytes;
        points[k] = byte_at(region, t);
    }
    return MCA_COLL_SHMCICO_RESIDENCY_LOADS;
}

/* 0, read where the compiler cannot see it */
static volatile uintptr_t zero_word;

uint64_t mca_coll_shmcico_residency_time(const volatile uint8_t *const *points, int n)
{
    uintptr_t dep = 0, zero = zero_word;
    uint64_t start = now_ns();

    for (int k = 0; k < n; ++k) {
        uintptr_t v = *(points[k] + dep);
        /* dep is 0 again, but the compiler cannot know it: the next load
         * waits for this one.  An AND with a defined 0 is defined to
         * valgrind whatever v holds (a receive buffer not yet written). */
        dep = v & zero;
    }
    return now_ns() - start + dep;
}

#if HAVE_FLUSH
static int by_value(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *) a, y = *(const uint64_t *) b;

    return x < y ? -1 : x > y;
}

static uint64_t median(uint64_t *v, int n)
{
    qsort(v, (size_t) n, sizeof(v[0]), by_value);
    return v[n / 2];
}

/* median chain time over lines, flushed to memory first or not */
static uint64_t chain_median(const volatile uint8_t **lines, bool flush)
{
    uint64_t t[CALIBRATION_ROUNDS];

    for (int r = 0; r < CALIBRATION_ROUNDS; ++r) {
        for (int k = 0; flush && k < MCA_COLL_SHMCICO_RESIDENCY_LOADS; ++k) {
            flush_line(lines[k]);
        }
        if (flush) {
            flush_fence();
        }
        t[r] = mca_coll_shmcico_residency_time(lines, MCA_COLL_SHMCICO_RESIDENCY_LOADS);
    }
    return median(t, CALIBRATION_ROUNDS);
}
#endif

uint64_t mca_coll_shmcico_residency_calibrate(uint64_t *cached, uint64_t *flushed)
{
    uint64_t warm = 0, cold = 0, threshold = 0;
#if HAVE_FLUSH
    /* one line on each of as many pages as a probe loads, three pages
     * apart, in the probe's order and at varied offsets: no stride for a
     * prefetcher to follow */
    uint8_t *buf = malloc(PAGE * (3 * MCA_COLL_SHMCICO_RESIDENCY_LOADS + 1));
    const volatile uint8_t *lines[MCA_COLL_SHMCICO_RESIDENCY_LOADS];

    if (NULL != buf) {
        for (int k = 0; k < MCA_COLL_SHMCICO_RESIDENCY_LOADS; ++k) {
            int page = 3 * mca_coll_shmcico_residency_share(k) + 1;
            lines[k] = buf + page * PAGE + 64 * (13 * k % (PAGE / 64));
            *(volatile uint8_t *) lines[k] = (uint8_t) k;
        }
        (void) chain_median(lines, false);          /* pages and code in */
        warm = chain_median(lines, false);
        cold = chain_median(lines, true);
        free(buf);
        threshold = cold >= 3 * warm ? cold : 0;
    }
#endif
    if (NULL != cached) {
        *cached = warm;
    }
    if (NULL != flushed) {
        *flushed = cold;
    }
    return threshold;
}

#if HAVE_FLUSH && defined(__linux__)
static void flush_range(const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i += 64) {
        flush_line(p + i);
    }
    flush_fence();
}

/* ns of one copy of n bytes from src to dst, both flushed first (kernel:
 * by process_vm_readv on this process); 0 when the kernel refused */
static uint64_t cold_copy_ns(uint8_t *dst, const uint8_t *src, size_t n, bool kernel)
{
    struct iovec local = { .iov_base = dst, .iov_len = n };
    struct iovec remote = { .iov_base = (void *) src, .iov_len = n };
    uint64_t start;

    flush_range(src, n);
    flush_range(dst, n);
    start = now_ns();
    if (!kernel) {
        memcpy(dst, src, n);
    } else if ((ssize_t) n != process_vm_readv(getpid(), &local, 1, &remote, 1, 0)) {
        return 0;
    }
    return now_ns() - start;
}

unsigned mca_coll_shmcico_residency_kernel_ratio(void)
{
    uint64_t kernel[KERNEL_ROUNDS], user[KERNEL_ROUNDS], ratio;
    uint8_t *src = malloc(2 * KERNEL_BYTES), *dst;
    bool refused = NULL == src;

    if (!refused) {
        dst = src + KERNEL_BYTES;
        memset(src, 1, 2 * KERNEL_BYTES);                       /* pages in */
        refused = 0 == cold_copy_ns(dst, src, KERNEL_BYTES, true);  /* the kernel's first */
        (void) cold_copy_ns(dst, src, KERNEL_BYTES, false);
    }
    for (int r = 0; !refused && r < KERNEL_ROUNDS; ++r) {
        kernel[r] = cold_copy_ns(dst, src, KERNEL_BYTES, true);
        user[r] = cold_copy_ns(dst, src, KERNEL_BYTES, false);
        refused = 0 == kernel[r];
    }
    free(src);
    if (refused) {
        return 0;
    }
    ratio = 100 * median(kernel, KERNEL_ROUNDS) / (median(user, KERNEL_ROUNDS) + 1);
    return ratio < UINT_MAX ? (unsigned) ratio : UINT_MAX;
}
#else
unsigned mca_coll_shmcico_residency_kernel_ratio(void)
{
    return 0;
}
#endif
