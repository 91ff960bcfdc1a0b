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
 * The shared segment of one communicator: p processes, s slots per
 * queue, w banks, f bytes per slot.  Every block starts on a page
 * boundary (the page is the unit of NUMA placement) and every line that
 * one process writes has a cache line of its own.  The protocol that
 * uses these lines is described in docs/protocol.md.
 *
 *   offset 0 +--------------------------------------------------+
 *            | header: magic, layout version, p, s, w, f,       |  rank 0's
 *            |         segment size, attach counter, retired    |  NUMA node
 *            |   the setup's ping-pong line: a ball counter     |
 *            | topology: numa[p]  NUMA node of each rank        |
 *            +--------------------------------------------------+
 *            | bank lines, w cache lines: op, decision, error   |
 *            |   (a Gather(v) root's, for its writers)          |
 *            | entries, w x p: (displacement, count) of every   |
 *            |   block of that root's receive buffer            |
 *            +--------------------------------------------------+
 *            | process 0:  id        pid, mapping address, probe |  process 0's
 *            |             watch     the call of its last mark   |  NUMA node
 *            |                       (a 128-byte pair of its own)|
 *            |             done[w]   the last op of each bank it |
 *            |                       is done with, a line each   |
 *            |             received[w]  how far it got in its    |
 *            |                       current op (rings, chunks)  |
 *            |             xfer[w]   chunk claims of a single    |
 *            |                       copy it takes part in       |
 *            |             region[w] its user buffer in this op  |
 *            |             flag[s]   one line per slot: seq,     |
 *            |                       lap, size, total, payload   |
 *            |             q[s]      s slots of f bytes          |
 *            +--------------------------------------------------+
 *            | process 1:  id, watch, done, received, xfer,     |  process 1's
 *            |             region, flag[s], q[s]                |  NUMA node
 *            +--------------------------------------------------+
 *            | ...                                              |
 *            +--------------------------------------------------+
 *
 * Bank b is the group of slots [b*s/w, (b+1)*s/w) of every queue, with
 * the bank line, entries, received, xfer and region lines of index b.
 * The n-th collective call on the communicator (n = 1, 2, ...) uses bank
 * n % w.
 */

#ifndef MCA_COLL_SHMCICO_SEGMENT_H
#define MCA_COLL_SHMCICO_SEGMENT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MCA_COLL_SHMCICO_CACHELINE      64
#define MCA_COLL_SHMCICO_MAGIC          UINT64_C(0x4f43494343484d53) /* "SMHCCICO" */
#define MCA_COLL_SHMCICO_LAYOUT_VERSION 8
#define MCA_COLL_SHMCICO_MAX_BANKS      8
#define MCA_COLL_SHMCICO_INLINE         32  /**< bytes carried inside a flag */

/** The line on which the setup times a line's trip between rank 0 and
 *  each other process in turn (coll_shmcico_nearness.h). */
typedef struct mca_coll_shmcico_pingpong_t {
    _Alignas(MCA_COLL_SHMCICO_CACHELINE) _Atomic uint64_t ball;  /**< odd: rank 0 served
                                                                      it; even: returned */
} mca_coll_shmcico_pingpong_t;

/** Fixed header at offset 0 of the segment. */
typedef struct mca_coll_shmcico_header_t {
    uint64_t magic;
    uint32_t version;
    uint32_t nprocs;
    uint32_t slots;
    uint32_t banks;
    uint64_t fragment_size;
    uint64_t segment_size;
    _Atomic uint32_t attached;      /**< processes that mapped and checked it */
    _Atomic uint32_t retired;       /**< no later communicator takes it over
                                         (coll_shmcico_keep.h) */
    mca_coll_shmcico_pingpong_t pingpong;
} mca_coll_shmcico_header_t;

/** The deciding process's line of one bank (a Gather(v) root; rank 0
 *  of an Allgather(v) with a size limit): it tells the writers where
 *  their blocks go, or that the call is handed back or failed at the
 *  root (mca_coll_shmcico_decision_post() and _wait() in sync.h). */
typedef struct mca_coll_shmcico_bank_t {
    _Alignas(MCA_COLL_SHMCICO_CACHELINE) _Atomic uint64_t op;
    _Atomic uint32_t decision;      /**< MCA_COLL_SHMCICO_DECISION_* */
    _Atomic int32_t error;          /**< the root's MPI error with _FAULT */
} mca_coll_shmcico_bank_t;

/** What a root decided for every process (Gather(v) with a size limit,
 *  or a root whose arguments are bad). */
enum {
    MCA_COLL_SHMCICO_DECISION_SERVE = 0,
    MCA_COLL_SHMCICO_DECISION_DECLINE,  /**< every process falls back */
    MCA_COLL_SHMCICO_DECISION_FAULT     /**< the root's arguments are bad */
};

/** Where a root's receive buffer holds process i's block: displacement
 *  in bytes from the root's region base and count in elements; displ
 *  MCA_COLL_SHMCICO_NO_ENTRY when the root takes no single copy help. */
typedef struct mca_coll_shmcico_entry_t {
    _Atomic uint64_t displ;
    _Atomic uint64_t count;
} mca_coll_shmcico_entry_t;

#define MCA_COLL_SHMCICO_NO_ENTRY UINT64_MAX

/** Who a process is, for single copy: written once, when it attaches. */
typedef struct mca_coll_shmcico_id_t {
    _Alignas(MCA_COLL_SHMCICO_CACHELINE) uint64_t base;  /**< its mapping */
    uint64_t probe;                 /**< MCA_COLL_SHMCICO_PROBE(rank) */
    int32_t pid;
} mca_coll_shmcico_id_t;

#define MCA_COLL_SHMCICO_PROBE(rank) (MCA_COLL_SHMCICO_MAGIC ^ (uint64_t) (rank))

/** The line a process marks once every MCA_COLL_SHMCICO_WATCH_PERIOD
 *  calls and the others load, timed, half a period later: how long a
 *  line that another core wrote takes to arrive (coll_shmcico_nearness.h).
 *  It has a 128-byte pair of lines to itself (the line before it is
 *  unused), so that no prefetch of a neighbouring line the others read
 *  brings it early. */
typedef struct mca_coll_shmcico_watch_line_t {
    _Alignas(MCA_COLL_SHMCICO_CACHELINE) _Atomic uint64_t mark;
} mca_coll_shmcico_watch_line_t;

/** Lines of a process's block before its done lines: id, an unused
 *  line, the watch line and the unused line after it. */
#define MCA_COLL_SHMCICO_ID_LINES 4

/** The last op of one bank a process is done with.  A line per bank:
 *  the process rewrites bank b's line only when it finishes a call on
 *  bank b, so the others' copy of it stays valid for the w - 1 calls in
 *  between, and the wait for it before the next call on b (the critical
 *  path of every call) finds it in the cache, prefetched. */
typedef struct mca_coll_shmcico_done_t {
    _Alignas(MCA_COLL_SHMCICO_CACHELINE) _Atomic uint64_t op;
} mca_coll_shmcico_done_t;

/** How far a process got with what it receives in op "op": fragments of
 *  every ring it reads, or chunks of a single copy in its buffer. */
typedef struct mca_coll_shmcico_received_t {
    _Alignas(MCA_COLL_SHMCICO_CACHELINE) _Atomic uint64_t op;
    _Atomic uint64_t count;
    _Atomic int32_t error;          /**< errno of a failed single copy of chunks it
                                         counts (their bytes are wrong), 0: none */
} mca_coll_shmcico_received_t;

/** A process's single copies in op "op": the chunks of the one that
 *  moves data into or out of its buffer, which its partner may help with
 *  (both take chunks with compare-and-swap on claim, a pull from the
 *  front and a push from the back, and count them in completed), and the
 *  readers finished with its buffer. */
typedef struct mca_coll_shmcico_xfer_t {
    _Alignas(MCA_COLL_SHMCICO_CACHELINE) _Atomic uint64_t op;
    _Atomic uint64_t claim;         /**< stamp << 32 | chunks taken from the back
                                         << 16 | from the front; stamp 0: no claims */
    _Atomic uint64_t completed;     /**< chunks copied */
    _Atomic uint64_t acks;          /**< readers finished with this buffer */
    _Atomic int32_t error;          /**< errno of a completed chunk whose copy failed
                                         (its bytes are wrong), 0: none */
} mca_coll_shmcico_xfer_t;

/** A process's user buffer in op "op": count elements of size bytes,
 *  extent apart from base; each element is npieces pieces, the first one
 *  here, all of them (when more than one) in the process's first slot of
 *  the bank as mca_coll_shmcico_piece_t.  A sequence lock: op is 0 while
 *  the fields change (a helper may still look at an earlier call's). */
typedef struct mca_coll_shmcico_region_line_t {
    _Alignas(MCA_COLL_SHMCICO_CACHELINE) _Atomic uint64_t op;
    _Atomic uint64_t base;
    _Atomic uint64_t count;
    _Atomic int64_t extent;
    _Atomic uint64_t size;
    _Atomic uint64_t npieces;
    _Atomic int64_t piece_offset;
    _Atomic uint64_t piece_len;
} mca_coll_shmcico_region_line_t;

/**
 * Flag of one slot: the slot holds fragment "lap * s/w + slot index" of
 * op "seq", "size" bytes (fragments of up to MCA_COLL_SHMCICO_INLINE
 * bytes are in payload.data instead).  size also carries the kind bits
 * below; total is the bytes of the whole block as its writer sees it.
 */
typedef union mca_coll_shmcico_payload_t {
    unsigned char data[MCA_COLL_SHMCICO_INLINE];   /**< a small fragment */
    struct {
        int32_t source;             /**< whose region holds the data */
        uint32_t all;               /**< the source holds all of it now */
        uint64_t chunk;             /**< bytes per chunk */
        uint64_t displ;             /**< block's bytes from the region base */
        uint64_t count;             /**< block's elements */
    } single;
    int32_t error;                  /**< with MCA_COLL_SHMCICO_KIND_FAULT */
} mca_coll_shmcico_payload_t;

typedef struct mca_coll_shmcico_flag_t {
    _Alignas(MCA_COLL_SHMCICO_CACHELINE) _Atomic uint64_t seq;
    _Atomic uint64_t lap;
    _Atomic uint64_t size;
    _Atomic uint64_t total;
    mca_coll_shmcico_payload_t payload;
} mca_coll_shmcico_flag_t;

/** Kind bits of a flag's size (none: a fragment in the slot). */
#define MCA_COLL_SHMCICO_KIND_SINGLE  (UINT64_C(1) << 63)  /**< payload.single */
#define MCA_COLL_SHMCICO_KIND_FAULT   (UINT64_C(1) << 62)  /**< payload.error */
#define MCA_COLL_SHMCICO_KIND_DECLINE (UINT64_C(1) << 61)  /**< fall back */
#define MCA_COLL_SHMCICO_KIND_BITS    (MCA_COLL_SHMCICO_KIND_SINGLE \
                                       | MCA_COLL_SHMCICO_KIND_FAULT \
                                       | MCA_COLL_SHMCICO_KIND_DECLINE)

/** Offsets and sizes of every block of a segment. */
typedef struct mca_coll_shmcico_layout_t {
    size_t page_size;
    uint32_t nprocs;
    uint32_t slots;                 /**< s, a multiple of banks */
    uint32_t banks;                 /**< w */
    uint32_t bank_slots;            /**< s / w, a queue's ring within one op */
    size_t fragment_size;           /**< f, a multiple of the cache line */
    size_t topology_offset;
    size_t banks_offset;
    size_t entries_offset;          /**< entries[p] of bank 0; bank b at + b*p */
    size_t procs_offset;            /**< block of process 0 */
    size_t lines_bytes;             /**< a process's lines, rounded up to a page */
    size_t proc_stride;             /**< bytes between two process blocks */
    size_t segment_size;
} mca_coll_shmcico_layout_t;

/** A process's pointers into a mapped segment. */
typedef struct mca_coll_shmcico_view_t {
    unsigned char *base;
    mca_coll_shmcico_layout_t layout;
    mca_coll_shmcico_header_t *header;
    int32_t *numa;
    mca_coll_shmcico_bank_t *banks;
} mca_coll_shmcico_view_t;

/**
 * Compute the layout for the given parameters.  Returns 0, or -1 when
 * the parameters are inconsistent (slots not a multiple of banks,
 * fragment not a multiple of the cache line, sizes that overflow).
 */
int mca_coll_shmcico_layout_init(mca_coll_shmcico_layout_t *layout,
                                 size_t page_size, uint32_t nprocs,
                                 uint32_t slots, uint32_t banks,
                                 size_t fragment_size);

/** Write header and topology of a fresh (zeroed) segment. */
void mca_coll_shmcico_segment_format(void *base,
                                     const mca_coll_shmcico_layout_t *layout,
                                     const int32_t *numa);

/** Write process rank's id line: its pid, the address of its mapping
 *  (base), and the probe value a single copy test reads. */
void mca_coll_shmcico_segment_identify(const mca_coll_shmcico_view_t *view, int rank,
                                       int32_t pid);

/**
 * Set up a view of a mapped segment and check that its header matches
 * the expected layout.  Returns 0, or -1 on any mismatch.
 */
int mca_coll_shmcico_view_init(mca_coll_shmcico_view_t *view, void *base,
                               const mca_coll_shmcico_layout_t *layout);

/* ------------------------------------------------------------------ */
/* Where things are                                                     */

static inline unsigned char *
mca_coll_shmcico_proc_block(const mca_coll_shmcico_view_t *view, int proc)
{
    return view->base + view->layout.procs_offset
        + (size_t) proc * view->layout.proc_stride;
}

static inline mca_coll_shmcico_id_t *
mca_coll_shmcico_id(const mca_coll_shmcico_view_t *view, int proc)
{
    return (mca_coll_shmcico_id_t *) mca_coll_shmcico_proc_block(view, proc);
}

static inline mca_coll_shmcico_watch_line_t *
mca_coll_shmcico_watch_line(const mca_coll_shmcico_view_t *view, int proc)
{
    return (mca_coll_shmcico_watch_line_t *) (mca_coll_shmcico_proc_block(view, proc)
                                              + 2 * MCA_COLL_SHMCICO_CACHELINE);
}

static inline mca_coll_shmcico_done_t *
mca_coll_shmcico_done(const mca_coll_shmcico_view_t *view, int proc, uint32_t bank)
{
    return (mca_coll_shmcico_done_t *) (mca_coll_shmcico_proc_block(view, proc)
                                        + MCA_COLL_SHMCICO_ID_LINES
                                          * MCA_COLL_SHMCICO_CACHELINE) + bank;
}

static inline mca_coll_shmcico_received_t *
mca_coll_shmcico_received(const mca_coll_shmcico_view_t *view, int proc, uint32_t bank)
{
    return (mca_coll_shmcico_received_t *) (mca_coll_shmcico_done(view, proc, 0)
                                            + view->layout.banks) + bank;
}

static inline mca_coll_shmcico_xfer_t *
mca_coll_shmcico_xfer(const mca_coll_shmcico_view_t *view, int proc, uint32_t bank)
{
    return (mca_coll_shmcico_xfer_t *) (mca_coll_shmcico_received(view, proc, 0)
                                        + view->layout.banks) + bank;
}

static inline mca_coll_shmcico_region_line_t *
mca_coll_shmcico_region_line(const mca_coll_shmcico_view_t *view, int proc, uint32_t bank)
{
    return (mca_coll_shmcico_region_line_t *) (mca_coll_shmcico_xfer(view, proc, 0)
                                               + view->layout.banks) + bank;
}

static inline mca_coll_shmcico_flag_t *
mca_coll_shmcico_flag(const mca_coll_shmcico_view_t *view, int proc, uint32_t slot)
{
    return (mca_coll_shmcico_flag_t *) (mca_coll_shmcico_region_line(view, proc, 0)
                                        + view->layout.banks) + slot;
}

static inline unsigned char *
mca_coll_shmcico_slot(const mca_coll_shmcico_view_t *view, int proc, uint32_t slot)
{
    return mca_coll_shmcico_proc_block(view, proc) + view->layout.lines_bytes
        + (size_t) slot * view->layout.fragment_size;
}

static inline mca_coll_shmcico_entry_t *
mca_coll_shmcico_entries(const mca_coll_shmcico_view_t *view, uint32_t bank)
{
    return (mca_coll_shmcico_entry_t *) (view->base + view->layout.entries_offset)
        + (size_t) bank * view->layout.nprocs;
}

/** Slots in one bank: a queue's ring within one op. */
static inline uint32_t mca_coll_shmcico_bank_slots(const mca_coll_shmcico_view_t *view)
{
    return view->layout.bank_slots;
}

#endif /* MCA_COLL_SHMCICO_SEGMENT_H */
