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
 * Byte streams over MPI buffers: contiguous data is handed to the engine
 * as plain bytes (memcpy), anything else is packed and unpacked by Open
 * MPI's convertor, one fragment at a time.  Also the per-process blocks
 * of the vector operations, with 64-bit offsets and sizes.
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
        mca_coll_shmcico_stream_contig(stream, (char *) buf + true_lb,
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

/* displacement of process i's block, in elements */
static ptrdiff_t block_displ(const mca_coll_shmcico_blocks_t *layout, int i)
{
    return NULL != layout->displs ? (ptrdiff_t) layout->displs[i]
                                  : (ptrdiff_t) i * layout->count;
}

void *mca_coll_shmcico_block_start(const void *buf,
                                   const mca_coll_shmcico_blocks_t *layout,
                                   struct ompi_datatype_t *dtype, int i)
{
    ptrdiff_t lb, extent;

    ompi_datatype_get_extent(dtype, &lb, &extent);
    return (char *) buf + block_displ(layout, i) * extent;
}

/* Blocks of a type that is contiguous for any count need only pointer
 * arithmetic: this is the fast path of every small vector operation. */
static uint64_t contiguous_blocks_open(mca_coll_shmcico_module_t *module,
                                       const void *buf,
                                       const mca_coll_shmcico_blocks_t *layout,
                                       struct ompi_datatype_t *dtype)
{
    ptrdiff_t lb, extent, true_lb, true_extent;
    size_t type_size;
    uint64_t largest = 0;

    ompi_datatype_type_size(dtype, &type_size);
    ompi_datatype_get_extent(dtype, &lb, &extent);
    ompi_datatype_get_true_extent(dtype, &true_lb, &true_extent);
    for (int i = 0; i < module->engine.nprocs; ++i) {
        size_t bytes = type_size * mca_coll_shmcico_block_count(layout, i);

        mca_coll_shmcico_stream_contig(&module->blocks[i].stream,
                                       (char *) buf + block_displ(layout, i) * extent
                                       + true_lb, bytes);
        module->blocks[i].uses_convertor = false;
        module->streams[i] = &module->blocks[i].stream;
        module->counts[i] = bytes;
        largest = bytes > largest ? bytes : largest;
    }
    return largest;
}

uint64_t mca_coll_shmcico_blocks_open(mca_coll_shmcico_module_t *module,
                                      const void *buf,
                                      const mca_coll_shmcico_blocks_t *layout,
                                      struct ompi_datatype_t *dtype, bool sending)
{
    uint64_t largest = 0;

    /* contiguous for 2 elements: no gap and extent == size */
    if (ompi_datatype_is_contiguous_memory_layout(dtype, 2)) {
        return contiguous_blocks_open(module, buf, layout, dtype);
    }
    for (int i = 0; i < module->engine.nprocs; ++i) {
        mca_coll_shmcico_dstream_init(&module->blocks[i],
                                      mca_coll_shmcico_block_start(buf, layout, dtype, i),
                                      mca_coll_shmcico_block_count(layout, i),
                                      dtype, sending);
        module->streams[i] = &module->blocks[i].stream;
        module->counts[i] = module->blocks[i].stream.length;
        largest = module->counts[i] > largest ? module->counts[i] : largest;
    }
    return largest;
}

void mca_coll_shmcico_blocks_close(mca_coll_shmcico_module_t *module)
{
    for (int i = 0; i < module->engine.nprocs; ++i) {
        mca_coll_shmcico_dstream_fini(&module->blocks[i]);
    }
}

void mca_coll_shmcico_blocks_empty(mca_coll_shmcico_module_t *module)
{
    for (int i = 0; i < module->engine.nprocs; ++i) {
        mca_coll_shmcico_stream_contig(&module->blocks[i].stream, NULL, 0);
        module->blocks[i].uses_convertor = false;
        module->streams[i] = &module->blocks[i].stream;
        module->counts[i] = 0;
    }
}
