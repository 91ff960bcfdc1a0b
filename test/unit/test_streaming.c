/*
 * Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
 * $COPYRIGHT$
 *
 * Additional copyrights may follow
 *
 * $HEADER$
 */

/*
 * mca_coll_shmcico_copy_streaming(), the copy of a queued block into a
 * slot with streaming stores: for every alignment of destination and
 * source within a cache line and every length from 0 to a few lines
 * (and some of many lines), it writes exactly the source's bytes and
 * nothing before or after them.
 */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "coll_shmcico_stream.h"
#include "unit.h"

#define LINE 64
#define MAX_LEN (70 * LINE + 5)
#define GUARD 128
#define GUARD_BYTE 0x5a

static unsigned char src_mem[MAX_LEN + 2 * LINE] __attribute__((aligned(LINE)));
static unsigned char dst_mem[MAX_LEN + 2 * LINE + 2 * GUARD] __attribute__((aligned(LINE)));

/* one copy of len bytes, dst at dst_off and src at src_off into a line */
static void one_copy(size_t dst_off, size_t src_off, size_t len)
{
    unsigned char *dst = dst_mem + GUARD + dst_off;
    const unsigned char *src = src_mem + src_off;
    size_t end = GUARD + dst_off + len;
    bool ok = true;

    memset(dst_mem, GUARD_BYTE, sizeof(dst_mem));
    mca_coll_shmcico_copy_streaming(dst, src, len);
    ok &= 0 == memcmp(dst, src, len);
    for (size_t i = 0; i < GUARD + dst_off; ++i) {
        ok &= GUARD_BYTE == dst_mem[i];
    }
    for (size_t i = end; i < sizeof(dst_mem); ++i) {
        ok &= GUARD_BYTE == dst_mem[i];
    }
    CHECK(ok, "dst at +%zu, src at +%zu, %zu bytes", dst_off, src_off, len);
}

int main(void)
{
    static const size_t long_lengths[] = { 8 * LINE, 8 * LINE + 1, 64 * LINE - 3,
                                           MAX_LEN };

    for (size_t i = 0; i < sizeof(src_mem); ++i) {
        src_mem[i] = (unsigned char) (i * 7 + 3);
    }
    for (size_t d = 0; d < LINE; d += 1) {
        for (size_t s = 0; s < LINE; ++s) {
            for (size_t len = 0; len <= 4 * LINE + 1; ++len) {
                one_copy(d, s, len);
            }
            for (size_t k = 0; k < sizeof(long_lengths) / sizeof(long_lengths[0]); ++k) {
                one_copy(d, s, long_lengths[k]);
            }
        }
    }
    return unit_report("test_streaming");
}
