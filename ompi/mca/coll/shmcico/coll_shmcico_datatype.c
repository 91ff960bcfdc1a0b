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
 * MPI buffers as the engine sees them:
 *  - byte streams: contiguous data is handed to the engine as plain bytes
 *    (memcpy), anything else is packed and unpacked by Open MPI's
 *    convertor, one fragment at a time (the queue transport);
 *  - regions: the pieces of one element of the datatype, from the
 *    convertor's raw iovecs, so that single copy moves data between user
 *    buffers directly, with iovecs of the kernel's size;
 *  - the per-process blocks of the vector operations, with 64-bit
 *    offsets and sizes.
 */

#include "ompi_config.h"

#include <sys/uio.h>

#include "ompi/datatype/ompi_datatype.h"
#include "opal/datatype/opal_convertor.h"

#include "coll_shmcico.h"

static size_t convertor_move(opal_convertor_t *convertor, void *shm, size_t len,
                             bool packing)
{
    struct iovec iov = { .iov_base = shm, .iov_len = len };
    uint32_t iov_count = 1;
    size_t moved = len;

    if (packing) {
        (void) opal_convertor_pack(convertor, &iov, &iov_count, &moved);
    } else {
        (void) opal_convertor_unpack(convertor, &iov, &iov_count, &moved);
    }
    return moved;
}

/* hand out bytes left over from a split basic element */
static size_t take_carry(mca_coll_shmcico_dstream_t *ds, unsigned char *shm,
                         size_t len)
{
    size_t n = ds->carry_len < len ? ds->carry_len : len;

    memcpy(shm, ds->carry + ds->carry_off, n);
    ds->carry_off += n;
    ds->carry_len -= n;
    return n;
}

/* The convertor packs whole basic elements only; when the next one does
 * not fit in what is left of the fragment, pack it aside and split it,
 * so every fragment is filled exactly. */
static size_t convertor_pack(mca_coll_shmcico_stream_t *stream, void *shm,
                             size_t len)
{
    mca_coll_shmcico_dstream_t *ds = (mca_coll_shmcico_dstream_t *) stream->cookie;
    unsigned char *out = (unsigned char *) shm;
    size_t moved = take_carry(ds, out, len);

    while (moved < len) {
        moved += convertor_move(&ds->convertor, out + moved, len - moved, true);
        if (moved < len) {
            ds->carry_off = 0;
            ds->carry_len = convertor_move(&ds->convertor, ds->carry,
                                           sizeof(ds->carry), true);
            if (0 == ds->carry_len) {
                break;                  /* nothing left to pack */
            }
            moved += take_carry(ds, out + moved, len - moved);
        }
    }
    return moved;
}

/* the convertor unpacks split basic elements itself */
static size_t convertor_unpack(mca_coll_shmcico_stream_t *stream, void *shm,
                               size_t len)
{
    mca_coll_shmcico_dstream_t *ds = (mca_coll_shmcico_dstream_t *) stream->cookie;

    return convertor_move(&ds->convertor, shm, len, false);
}

void mca_coll_shmcico_dstream_init(mca_coll_shmcico_dstream_t *dstream,
                                   const void *buf, size_t count,
                                   struct ompi_datatype_t *dtype, bool sending)
{
    mca_coll_shmcico_stream_t *stream = &dstream->stream;
    ptrdiff_t true_lb, true_extent;
    size_t type_size;

    ompi_datatype_type_size(dtype, &type_size);
    dstream->uses_convertor = false;
    if (ompi_datatype_is_contiguous_memory_layout(dtype, count)) {
        ompi_datatype_get_true_extent(dtype, &true_lb, &true_extent);
        mca_coll_shmcico_stream_contig(stream, mca_coll_shmcico_at(buf, true_lb),
                                       type_size * count);
        return;
    }
    OBJ_CONSTRUCT(&dstream->convertor, opal_convertor_t);
    if (sending) {
        opal_convertor_copy_and_prepare_for_send(ompi_mpi_local_convertor,
                                                 &dtype->super, count, buf, 0,
                                                 &dstream->convertor);
    } else {
        opal_convertor_copy_and_prepare_for_recv(ompi_mpi_local_convertor,
                                                 &dtype->super, count, buf, 0,
                                                 &dstream->convertor);
    }
    dstream->uses_convertor = true;
    dstream->carry_len = 0;
    dstream->carry_off = 0;
    stream->contig = NULL;
    stream->streaming = false;
    stream->own_streaming = false;
    stream->length = type_size * count;
    stream->done = 0;
    stream->pack = convertor_pack;
    stream->unpack = convertor_unpack;
    stream->cookie = dstream;
}

void mca_coll_shmcico_dstream_fini(mca_coll_shmcico_dstream_t *dstream)
{
    if (dstream->uses_convertor) {
        OBJ_DESTRUCT(&dstream->convertor);
    }
}

/* ------------------------------------------------------------------ */
/* Per-process blocks                                                   */

void *mca_coll_shmcico_block_start(const void *buf,
                                   const mca_coll_shmcico_blocks_t *layout,
                                   struct ompi_datatype_t *dtype, int i)
{
    ptrdiff_t lb, extent;

    ompi_datatype_get_extent(dtype, &lb, &extent);
    return mca_coll_shmcico_at(buf, mca_coll_shmcico_block_displ(layout, i) * extent);
}

/* ------------------------------------------------------------------ */
/* Regions                                                              */

/* Average bytes per piece below which a layout is copied through the
 * queues (or, when received by single copy, through a bounce buffer):
 * the kernel's cost per iovec would exceed the copy. */
#define MIN_PIECE 256

/* the pieces of one element of a non-contiguous datatype, merged where
 * they touch; -1 when there are more than max */
static int64_t element_pieces(struct ompi_datatype_t *dtype, mca_coll_shmcico_piece_t *pieces,
                              uint64_t max)
{
    static const char anchor[1];    /* any address: offsets only */
    opal_convertor_t convertor;
    struct iovec iov[32];
    uint64_t n = 0;
    int done = 0;

    OBJ_CONSTRUCT(&convertor, opal_convertor_t);
    opal_convertor_copy_and_prepare_for_send(ompi_mpi_local_convertor, &dtype->super, 1,
                                             anchor, 0, &convertor);
    while (!done && n <= max) {
        uint32_t count = 32;
        size_t length = SIZE_MAX;
        done = opal_convertor_raw(&convertor, iov, &count, &length);
        for (uint32_t i = 0; i < count && n <= max; ++i) {
            int64_t offset = (int64_t) ((const char *) iov[i].iov_base - anchor);
            if (n > 0 && pieces[n - 1].offset + (int64_t) pieces[n - 1].len == offset) {
                pieces[n - 1].len += iov[i].iov_len;
            } else if (n < max) {
                pieces[n] = (mca_coll_shmcico_piece_t) { offset, iov[i].iov_len };
                ++n;
            } else {
                ++n;                /* too many */
            }
        }
        if (0 == count) {
            break;
        }
    }
    OBJ_DESTRUCT(&convertor);
    return n <= max ? (int64_t) n : -1;
}

bool mca_coll_shmcico_region_init(mca_coll_shmcico_region_t *region,
                                  mca_coll_shmcico_piece_t *pieces, uint64_t max,
                                  int64_t *found, const void *buf, size_t count,
                                  struct ompi_datatype_t *dtype)
{
    ptrdiff_t lb, extent, true_lb, true_extent;
    size_t size;
    int64_t n = 1;

    ompi_datatype_type_size(dtype, &size);
    ompi_datatype_get_extent(dtype, &lb, &extent);
    ompi_datatype_get_true_extent(dtype, &true_lb, &true_extent);
    if (ompi_datatype_is_contiguous_memory_layout(dtype, 2)) {
        /* dense: the engine walks it as one span */
        pieces[0] = (mca_coll_shmcico_piece_t) { true_lb, size };
    } else {
        if (0 == *found) {
            *found = element_pieces(dtype, pieces, max);
        }
        n = *found;
        if (n <= 0 || size / (uint64_t) n < MIN_PIECE) {
            return false;
        }
    }
    *region = (mca_coll_shmcico_region_t) {
        .base = (uint64_t) (uintptr_t) buf, .count = count, .extent = extent,
        .size = size, .npieces = (uint64_t) n, .pieces = pieces
    };
    return true;
}

/* ------------------------------------------------------------------ */
/* Packing (the network level's messages)                               */

size_t mca_coll_shmcico_pack(void *packed, const void *buf, size_t count,
                             struct ompi_datatype_t *dtype)
{
    mca_coll_shmcico_dstream_t ds;
    size_t bytes;

    mca_coll_shmcico_dstream_init(&ds, buf, count, dtype, true);
    bytes = ds.stream.length;
    mca_coll_shmcico_stream_put(&ds.stream, packed, bytes);
    mca_coll_shmcico_dstream_fini(&ds);
    return bytes;
}

size_t mca_coll_shmcico_unpack(const void *packed, size_t bytes, void *buf, size_t count,
                               struct ompi_datatype_t *dtype)
{
    mca_coll_shmcico_dstream_t ds;
    size_t taken;

    mca_coll_shmcico_dstream_init(&ds, buf, count, dtype, false);
    (void) mca_coll_shmcico_stream_get(&ds.stream, packed, bytes);
    taken = ds.stream.done;
    mca_coll_shmcico_dstream_fini(&ds);
    return taken;
}
