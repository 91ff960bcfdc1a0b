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
 * Streaming (non-temporal) stores into the slots (docs/design.md,
 * "Streaming stores").
 *
 * A slot's lines were read by the other processes at the slot's last
 * use, so they sit in those processes' caches.  A writer's ordinary
 * store into such a line first takes the line back from them, one
 * ownership request per line, and between two cores that do not share
 * a last-level cache (two sockets, two chiplets, or two vCPUs that the
 * host placed so) each request is a cross-die round trip that the store
 * waits for: a 64 KiB handoff measured 40 us that way against 7 us with
 * streaming stores.  A streaming store writes a whole line without
 * asking for it; the readers then read it from memory, at full speed,
 * with the hardware's prefetch.  Where the cores share a cache the
 * ordinary stores are faster for a few KiB and no faster from 8 KiB on;
 * through whole MPI calls streaming from 4 KiB had the better worst case
 * over both, which is where coll_shmcico_streaming_min starts.
 *
 * mca_coll_shmcico_copy_streaming() ends with a store fence: the
 * streaming stores are weakly ordered, and the flag that announces the
 * fragment (a release store) must not become visible before them.
 * Without x86-64 (or under ThreadSanitizer, which cannot see them) it is
 * memcpy.
 */

#include <stdint.h>
#include <string.h>

#include "coll_shmcico_stream.h"

#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define SHMCICO_NO_STREAMING 1
#endif
#endif
#if defined(__SANITIZE_THREAD__)
#define SHMCICO_NO_STREAMING 1
#endif

#if defined(__x86_64__) && !defined(SHMCICO_NO_STREAMING)

#include <emmintrin.h>

#define LINE 64

const bool mca_coll_shmcico_streaming_stores = true;

void mca_coll_shmcico_copy_streaming(void *dst, const void *src, size_t len)
{
    unsigned char *d = (unsigned char *) dst;
    const unsigned char *s = (const unsigned char *) src;
    size_t head = (LINE - ((uintptr_t) d & (LINE - 1))) & (LINE - 1);

    if (len < head + LINE) {
        memcpy(d, s, len);          /* not one whole line to stream */
        return;
    }
    memcpy(d, s, head);             /* up to the first line boundary */
    d += head;
    s += head;
    len -= head;
    for (; len >= LINE; len -= LINE, d += LINE, s += LINE) {
        __m128i a = _mm_loadu_si128((const __m128i *) s);
        __m128i b = _mm_loadu_si128((const __m128i *) (s + 16));
        __m128i c = _mm_loadu_si128((const __m128i *) (s + 32));
        __m128i e = _mm_loadu_si128((const __m128i *) (s + 48));
        _mm_stream_si128((__m128i *) d, a);
        _mm_stream_si128((__m128i *) (d + 16), b);
        _mm_stream_si128((__m128i *) (d + 32), c);
        _mm_stream_si128((__m128i *) (d + 48), e);
    }
    memcpy(d, s, len);              /* the last partial line */
    /* release of the streamed lines: ordered before the flag's release
     * store (mca_coll_shmcico_flags_post()), which the reader acquires */
    _mm_sfence();
}

#else

const bool mca_coll_shmcico_streaming_stores = false;

void mca_coll_shmcico_copy_streaming(void *dst, const void *src, size_t len)
{
    memcpy(dst, src, len);
}

#endif
