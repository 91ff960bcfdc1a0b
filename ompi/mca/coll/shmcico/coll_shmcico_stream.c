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
 * MPI's convertor, one fragment at a time.
 */

#include "ompi_config.h"

#include <sys/uio.h>

#include "ompi/datatype/ompi_datatype.h"
#include "opal/datatype/opal_convertor.h"

#include "coll_shmcico.h"

static size_t convertor_pack(mca_coll_shmcico_stream_t *stream, void *shm,
                             size_t len)
{
    struct iovec iov = { .iov_base = shm, .iov_len = len };
    uint32_t iov_count = 1;
    size_t moved = len;

    (void) opal_convertor_pack((opal_convertor_t *) stream->cookie, &iov,
                               &iov_count, &moved);
    return moved;
}

static size_t convertor_unpack(mca_coll_shmcico_stream_t *stream, void *shm,
                               size_t len)
{
    struct iovec iov = { .iov_base = shm, .iov_len = len };
    uint32_t iov_count = 1;
    size_t moved = len;

    (void) opal_convertor_unpack((opal_convertor_t *) stream->cookie, &iov,
                                 &iov_count, &moved);
    return moved;
}

void mca_coll_shmcico_dstream_init(mca_coll_shmcico_dstream_t *dstream,
                                   const void *buf, size_t count,
                                   struct ompi_datatype_t *dtype, bool sending)
{
    mca_coll_shmcico_stream_t *stream = &dstream->stream;
    ptrdiff_t true_lb, true_extent;
    size_t type_size;

    ompi_datatype_type_size(dtype, &type_size);
    if (ompi_datatype_is_contiguous_memory_layout(dtype, count)) {
        ompi_datatype_get_true_extent(dtype, &true_lb, &true_extent);
        mca_coll_shmcico_stream_contig(stream, (char *) buf + true_lb,
                                       type_size * count);
        dstream->uses_convertor = false;
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
    stream->contig = NULL;
    stream->length = type_size * count;
    stream->done = 0;
    stream->pack = convertor_pack;
    stream->unpack = convertor_unpack;
    stream->cookie = &dstream->convertor;
}

void mca_coll_shmcico_dstream_fini(mca_coll_shmcico_dstream_t *dstream)
{
    if (dstream->uses_convertor) {
        OBJ_DESTRUCT(&dstream->convertor);
    }
}
