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
 * Byte streams over user buffers: what the queue transport copies into
 * and out of the slots, and what a single copy unpacks from its bounce
 * buffer when a receive layout is not worth copying to directly.
 * Contiguous data is copied with memcpy, or into the slots with
 * streaming stores when the stream says so (coll_shmcico_streaming.c);
 * anything else goes through
 * pack/unpack callbacks (the glue wraps Open MPI's convertor), which must
 * move exactly the bytes asked for.  "length" is what this process can
 * give (sender) or take (receiver); a receiver never takes more.
 */

#ifndef MCA_COLL_SHMCICO_STREAM_H
#define MCA_COLL_SHMCICO_STREAM_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

typedef struct mca_coll_shmcico_stream_t mca_coll_shmcico_stream_t;
typedef size_t (*mca_coll_shmcico_stream_fn_t)(mca_coll_shmcico_stream_t *stream,
                                               void *shm, size_t len);

struct mca_coll_shmcico_stream_t {
    unsigned char *contig;          /**< non-NULL: contiguous bytes */
    bool streaming;                 /**< a sender's contig goes into the slots with
                                         streaming stores */
    bool own_streaming;             /**< a receiver's contig takes this process's own
                                         block with streaming stores, if it is its
                                         destination */
    size_t length;
    size_t done;
    mca_coll_shmcico_stream_fn_t pack;     /**< user buffer -> shm */
    mca_coll_shmcico_stream_fn_t unpack;   /**< shm -> user buffer */
    void *cookie;
};

/**
 * Copy len bytes to dst with streaming (non-temporal) stores where the
 * machine has them, memcpy elsewhere; the bytes are ordered before any
 * later store (coll_shmcico_streaming.c says why and when).
 */
void mca_coll_shmcico_copy_streaming(void *dst, const void *src, size_t len);

/** Whether this build's mca_coll_shmcico_copy_streaming() uses
 *  streaming stores (x86-64, no ThreadSanitizer) or is memcpy. */
extern const bool mca_coll_shmcico_streaming_stores;

/** A sender's contiguous bytes into a slot: with streaming stores when
 *  its block asks for them, else memcpy.  Every writer of a slot's bytes
 *  goes through here (the queue transport, the small-call path). */
static inline void mca_coll_shmcico_copy_to_slot(void *slot, const void *bytes, size_t len,
                                                 bool streaming)
{
    if (streaming) {
        mca_coll_shmcico_copy_streaming(slot, bytes, len);
    } else {
        memcpy(slot, bytes, len);
    }
}

/**
 * Copy len bytes from the user buffer into shared memory.  Every stream
 * gives exactly what is asked (the glue's packer splits a basic element
 * between two fragments when it must), so fragment sizes follow from the
 * message sizes alone.
 */
static inline void mca_coll_shmcico_stream_put(mca_coll_shmcico_stream_t *stream,
                                               void *shm, size_t len)
{
    if (0 == len) {
        return;                     /* empty streams may have no buffer */
    }
    if (NULL != stream->contig) {
        mca_coll_shmcico_copy_to_slot(shm, stream->contig + stream->done, len,
                                      stream->streaming);
    } else {
        (void) stream->pack(stream, shm, len);
    }
    stream->done += len;
}

/** How many of len bytes a receiver can still take: never past its end. */
static inline size_t mca_coll_shmcico_stream_room(const mca_coll_shmcico_stream_t *stream,
                                                  size_t len)
{
    size_t room = stream->length - stream->done;

    return len < room ? len : room;
}

/**
 * Copy up to len bytes from shared memory into the user buffer, never
 * past its end.  Returns false when bytes had to be dropped.
 */
static inline bool mca_coll_shmcico_stream_get(mca_coll_shmcico_stream_t *stream,
                                               const void *shm, size_t len)
{
    size_t take = mca_coll_shmcico_stream_room(stream, len);

    if (take > 0) {
        if (NULL != stream->contig) {
            memcpy(stream->contig + stream->done, shm, take);
        } else {
            (void) stream->unpack(stream, (void *) shm, take);
        }
        stream->done += take;
    }
    return take == len;
}

/**
 * Copy up to max bytes of what is left of src into dst (a process's own
 * block, which never leaves the process) and return how many were taken
 * from src; *complete is cleared when dst had no room left.  With
 * streaming, where both are contiguous, dst is written with streaming
 * stores (coll_shmcico_streaming.c).
 */
size_t mca_coll_shmcico_stream_copy(mca_coll_shmcico_stream_t *dst,
                                    mca_coll_shmcico_stream_t *src, size_t max,
                                    bool streaming, bool *complete);

/** A stream over contiguous bytes. */
static inline void mca_coll_shmcico_stream_contig(mca_coll_shmcico_stream_t *stream,
                                                  void *bytes, size_t length)
{
    stream->contig = (unsigned char *) bytes;
    stream->streaming = false;
    stream->own_streaming = false;
    stream->length = length;
    stream->done = 0;
    stream->pack = NULL;
    stream->unpack = NULL;
    stream->cookie = NULL;
}

#endif /* MCA_COLL_SHMCICO_STREAM_H */
