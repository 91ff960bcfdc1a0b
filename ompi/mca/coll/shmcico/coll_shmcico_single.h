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
 * The single-copy transport: a block goes straight from the source's
 * user buffer into the destination's, copied by the kernel (Linux CMA,
 * or Open MPI 5.0's smsc: cma, xpmem or knem) in chunks that both sides
 * can take (docs/protocol.md, "Single copy").
 *
 *  - The source announces the block with a flag of kind SINGLE: whose
 *    region holds it, the chunk size, and which elements of the region
 *    are the block.  Its region (base address in its own address space,
 *    element count, extent, size and the pieces of one element) is in
 *    its region line; more than one piece per element go into its first
 *    slot of the bank, which single copy leaves free.
 *  - The destination copies chunk after chunk.  When the other side is
 *    free to help (a root after its own block), the chunks are shared
 *    through an xfer line: each side takes a chunk with compare-and-swap,
 *    a pull from the front and a push from the back, and counts it as
 *    completed; the line's owner waits for every chunk.
 *  - When it is through, the destination acknowledges on the xfer line
 *    of the process whose flag it followed; that process returns (and
 *    its caller may reuse the buffer) only when every reader has.
 *  - A destination whose layout is not worth copying to piece by piece
 *    takes the chunks in order into a bounce buffer and unpacks them.
 */

#ifndef MCA_COLL_SHMCICO_SINGLE_H
#define MCA_COLL_SHMCICO_SINGLE_H

#include <sys/uio.h>

#include "coll_shmcico_stream.h"
#include "coll_shmcico_sync.h"

/** One contiguous piece of an element: offset from the element's start. */
typedef struct mca_coll_shmcico_piece_t {
    int64_t offset;
    uint64_t len;
} mca_coll_shmcico_piece_t;

/**
 * A buffer as single copy sees it: count elements of size bytes, extent
 * apart from base (an address of the process that owns the buffer); each
 * element is npieces pieces, in the order their bytes are packed.
 */
typedef struct mca_coll_shmcico_region_t {
    uint64_t base;
    uint64_t count;
    int64_t extent;
    uint64_t size;
    uint64_t npieces;
    const mca_coll_shmcico_piece_t *pieces;
    mca_coll_shmcico_piece_t first;         /**< storage of a fetched one-piece region */
} mca_coll_shmcico_region_t;

static inline uint64_t mca_coll_shmcico_region_bytes(const mca_coll_shmcico_region_t *r)
{
    return r->count * r->size;
}

/**
 * The kernel copy: move n pairs of equally long spans between this
 * process (local) and process peer of the communicator (remote), into
 * the peer when to_peer.  Returns 0, or an errno value.
 */
typedef int (*mca_coll_shmcico_copy_fn_t)(void *context, int peer, bool to_peer,
                                          const struct iovec *local,
                                          const struct iovec *remote, size_t n);

typedef struct mca_coll_shmcico_copier_t {
    mca_coll_shmcico_copy_fn_t copy;        /**< NULL: no single copy */
    void *context;
} mca_coll_shmcico_copier_t;

/** Pieces per element a process can publish in its slots of a bank. */
static inline uint64_t mca_coll_shmcico_region_capacity(const mca_coll_shmcico_view_t *view)
{
    return mca_coll_shmcico_bank_slots(view) * view->layout.fragment_size
        / sizeof(mca_coll_shmcico_piece_t);
}

/** Publish this process's region for op (its pieces must fit, see
 *  _capacity).  Release: see mca_coll_shmcico_region_fetch(). */
void mca_coll_shmcico_region_post(const mca_coll_shmcico_view_t *view, int me,
                                  const mca_coll_shmcico_seq_t *op,
                                  const mca_coll_shmcico_region_t *region);

/**
 * Read process proc's region of op; false when proc has not posted one
 * for op.  Its pieces stay in the segment: valid while proc waits for
 * this process.
 */
bool mca_coll_shmcico_region_fetch(const mca_coll_shmcico_view_t *view, int proc,
                                   const mca_coll_shmcico_seq_t *op,
                                   mca_coll_shmcico_region_t *region);

/** Restrict a region to count elements from displ bytes on. */
static inline void mca_coll_shmcico_region_block(mca_coll_shmcico_region_t *region,
                                                 uint64_t displ, uint64_t count)
{
    region->base += displ;
    region->count = count;
}

/** Pairs of spans handed to the copier at once (CMA takes up to IOV_MAX,
 *  1024). */
#define MCA_COLL_SHMCICO_CALL_PAIRS 128
/** Bytes handed to the copier at once: Linux moves at most 2 GiB - 4 KiB
 *  per call and cuts the rest off, which the copier takes for a fault. */
#define MCA_COLL_SHMCICO_CALL_BYTES ((uint64_t) 1 << 30)

/**
 * Copy len bytes between the local region (this process's buffer), from
 * its packed byte local_offset on, and the remote one (peer's), from
 * remote_offset on; into the peer when to_peer.  The copier is called
 * with at most MCA_COLL_SHMCICO_CALL_PAIRS pairs and
 * MCA_COLL_SHMCICO_CALL_BYTES bytes at a time.  Returns 0 or an errno
 * value.
 */
int mca_coll_shmcico_single_copy(const mca_coll_shmcico_copier_t *copier, int peer,
                                 bool to_peer, const mca_coll_shmcico_region_t *local,
                                 uint64_t local_offset,
                                 const mca_coll_shmcico_region_t *remote,
                                 uint64_t remote_offset, uint64_t len);

/** A region of one contiguous span (a bounce buffer, a test's buffer). */
void mca_coll_shmcico_region_contig(mca_coll_shmcico_region_t *region, void *bytes,
                                    uint64_t len);

/** Who helps the reader of a single copy, which decides its chunks. */
typedef enum {
    MCA_COLL_SHMCICO_HELP_NONE,     /**< Allgather(v): the reader alone */
    MCA_COLL_SHMCICO_HELP_EARLY,    /**< Bcast: a root free at once; Gather(v): a
                                         root that pulls, after its own block;
                                         Scatter(v) of more than two processes:
                                         receivers whose pulls out of the root
                                         wait on each other in the kernel */
    MCA_COLL_SHMCICO_HELP_LATE      /**< Scatter(v) of two processes: a root that
                                         pushes, after its own block */
} mca_coll_shmcico_help_t;

/**
 * Who helps the receivers of a Scatter(v) (scatter) or the senders of a
 * Gather(v) on nprocs processes: EARLY but for a Scatter(v) of two
 * processes, LATE.  Receivers that pull out of one root at once wait on
 * each other in the kernel (docs/design.md, "Many readers of one
 * buffer"), so from two of them on the root, after its own block, still
 * finds chunks to push.
 */
mca_coll_shmcico_help_t mca_coll_shmcico_rooted_help(bool scatter, int nprocs);

/**
 * Whether the system refuses single copy between the processes of a job
 * for sure, from what one process can see of it alone: its own kernel
 * copy of its own memory refused (seccomp: self_copy false), or Yama's
 * ptrace_scope (yama_scope, -1 without Yama) at 3, or at 2 without
 * CAP_SYS_PTRACE.  Not scope 1: Open MPI's own CMA code (4.1's btl/vader,
 * 5.0's smsc/cma) lets any process of the user attach where it is used.
 * Where it does, every block goes through the queues, and their
 * fragments' default is larger (docs/tuning.md, "Queue geometry").
 */
bool mca_coll_shmcico_refusal_certain(bool self_copy, int yama_scope, bool cap_sys_ptrace);

/**
 * The chunk size of a single copy of bytes that the reader and a helper
 * share (docs/design.md, "Chunks"), where someone helps never more than
 * largest unless the block would then have too many chunks (below):
 *  - EARLY: quarters of at least 32 KiB, halves of a block under 64 KiB,
 *    one chunk under 16 KiB;
 *  - LATE: one chunk under 256 KiB (a late push of a second chunk ends
 *    after the reader would have pulled both), quarters of at least
 *    64 KiB above;
 *  - NONE: one chunk, whatever its size.
 * Every chunk is a kernel call of a few us before it copies a byte.  A
 * shared block has at most MCA_COLL_SHMCICO_MAX_CHUNKS chunks, the most
 * its xfer line counts: larger than largest where it would have more.
 */
uint64_t mca_coll_shmcico_chunk_for(uint64_t bytes, mca_coll_shmcico_help_t help,
                                    uint64_t largest);

/** Chunks of a single copy of bytes in chunks of chunk bytes (none for
 *  no bytes). */
static inline uint64_t mca_coll_shmcico_chunks(uint64_t bytes, uint64_t chunk)
{
    return 0 == bytes ? 0 : (bytes - 1) / chunk + 1;
}

#endif /* MCA_COLL_SHMCICO_SINGLE_H */
