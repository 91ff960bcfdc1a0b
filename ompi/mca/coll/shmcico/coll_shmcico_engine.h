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
 * The synchronisation engine of coll/shmcico: the layout of the
 * per-communicator shared segment, the bank protocol that recycles
 * slots, the slot flags, and the byte streams the data movements copy
 * through.  Nothing here depends on Open MPI, so the engine can be
 * unit-tested with plain threads (see test/unit).
 *
 * Segment of one communicator: p processes, s slots per queue, w banks,
 * f bytes per slot.  Every block starts on a page boundary, because the
 * page is the unit of NUMA placement.
 *
 *   offset 0 +--------------------------------------------------+
 *            | header: magic, layout version, p, s, w, f,       |  rank 0's
 *            |         segment size, attach counter             |  NUMA node
 *            +--------------------------------------------------+
 *            | topology: numa[p]     NUMA node of each rank     |
 *            |           leaders[p]  leader rank of its node    |
 *            +--------------------------------------------------+
 *            | bank control, w cache lines: op, total, mode     |
 *            |   (written by the owner of the bank's use)       |
 *            | vector metadata, w entries: counts[p] (bytes)    |
 *            +--------------------------------------------------+
 *            | process 0: done[w], the last use of each bank    |  process 0's
 *            |              it is done with (its own line)      |  NUMA node
 *            |            ctrl[s], one cache line per slot:     |
 *            |              seq, size, total, own, 32 bytes of  |
 *            |              inline data                         |
 *            |            q[s], s slots of f bytes              |
 *            +--------------------------------------------------+
 *            | process 1: done[w], ctrl[s], q[s]                |  process 1's
 *            +--------------------------------------------------+
 *            | ...                                              |
 *            +--------------------------------------------------+
 *
 * Bank b is the group of slots [b*s/w, (b+1)*s/w) of every queue.
 * Every process counts the bank uses of the communicator in a local
 * counter "op"; the n-th use of the communicator (n = 1, 2, ...) takes
 * bank n % w.  Because every process goes through the same sequence of
 * operations, all agree on op without talking.
 *
 *  - The owner of an operation (the root, or rank 0 when there is no
 *    root) waits until every other process is done with the bank's
 *    previous use, n - w (their done[b] >= n - w), fills in the metadata
 *    and publishes bank.op = n, for the first use of the operation.
 *  - A process that needs the owner's metadata (a writer into its own
 *    queue) waits until bank.op == n.  A writer whose whole block fits
 *    in one fragment writes it first, as soon as every process is done
 *    with use n - w, and waits for the publication afterwards (to learn
 *    the owner's decision), so a small Gather or Allgather costs one
 *    cache-line transfer, not two.  A reader learns all it needs from
 *    the flags of its fragments, which the writer posts only after the
 *    publication.  In the later uses of a long operation whoever writes
 *    checks the done[] lines itself, so the uses pipeline without a
 *    round trip through the owner.
 *  - Every process, the owner too, stores done[b] = n when it no longer
 *    touches the use's slots or flags.
 *  - A slot flag holds (seq, size, ...): the writer stores the rest, then
 *    seq = n with release; the reader waits for seq == n with acquire.
 *    The 64-bit sequence never repeats, so flags need no reset and a
 *    stale flag can never be mistaken for a fresh one.  A fragment of up
 *    to 32 bytes travels inside its flag's cache line.
 *
 * The "done" stores replace the papers' nreaders counter, which every
 * reader decrements with an atomic read-modify-write on one shared
 * line: such an instruction waits for the line and for all earlier
 * stores of the process, while a store to a line of one's own does not
 * wait at all.  The owner checks the p - 1 lines with loads that run in
 * parallel (and were prefetched at the end of the previous operation).
 */

#ifndef MCA_COLL_SHMCICO_ENGINE_H
#define MCA_COLL_SHMCICO_ENGINE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define MCA_COLL_SHMCICO_CACHELINE      64
#define MCA_COLL_SHMCICO_MAGIC          UINT64_C(0x4f43494343484d53) /* "SMHCCICO" */
#define MCA_COLL_SHMCICO_LAYOUT_VERSION 2
#define MCA_COLL_SHMCICO_MAX_BANKS      8   /**< done[] fits one cache line */
#define MCA_COLL_SHMCICO_INLINE         32  /**< bytes carried inside a flag */

/** Return codes of the engine (all >= 0; the glue maps them to MPI). */
enum {
    MCA_COLL_SHMCICO_DONE = 0,      /**< all data moved */
    MCA_COLL_SHMCICO_TRUNCATED,     /**< this process's buffer was too short */
    MCA_COLL_SHMCICO_DECLINED,      /**< the owner handed the call back */
    MCA_COLL_SHMCICO_FAULTED        /**< the owner found its arguments bad */
};

/** Bits of a flag's size: the writer had more bytes than the owner
 *  published for its queue (the reader reports a truncation); the owner
 *  hands the call back, or found its arguments bad (no data follows: the
 *  flag's total then carries the owner's error code). */
#define MCA_COLL_SHMCICO_FLAG_OVERFLOW (UINT64_C(1) << 63)
#define MCA_COLL_SHMCICO_FLAG_DECLINE  (UINT64_C(1) << 62)
#define MCA_COLL_SHMCICO_FLAG_FAULT    (UINT64_C(1) << 61)
#define MCA_COLL_SHMCICO_FLAG_BITS     (MCA_COLL_SHMCICO_FLAG_OVERFLOW \
                                        | MCA_COLL_SHMCICO_FLAG_DECLINE \
                                        | MCA_COLL_SHMCICO_FLAG_FAULT)

/** What the owner of an operation decided. */
enum {
    MCA_COLL_SHMCICO_MODE_SERVE = 1,
    MCA_COLL_SHMCICO_MODE_DECLINE = 2,  /**< every process falls back */
    MCA_COLL_SHMCICO_MODE_FAULT = 3     /**< every process returns the owner's error */
};

/** The flag bit that announces mode (0 for MCA_COLL_SHMCICO_MODE_SERVE). */
static inline uint64_t mca_coll_shmcico_mode_flag(uint32_t mode)
{
    return MCA_COLL_SHMCICO_MODE_DECLINE == mode ? MCA_COLL_SHMCICO_FLAG_DECLINE
        : MCA_COLL_SHMCICO_MODE_FAULT == mode ? MCA_COLL_SHMCICO_FLAG_FAULT : 0;
}

/** The mode a flag's size announces. */
static inline uint32_t mca_coll_shmcico_flag_mode(uint64_t size)
{
    return (size & MCA_COLL_SHMCICO_FLAG_DECLINE) ? MCA_COLL_SHMCICO_MODE_DECLINE
        : (size & MCA_COLL_SHMCICO_FLAG_FAULT) ? MCA_COLL_SHMCICO_MODE_FAULT
        : MCA_COLL_SHMCICO_MODE_SERVE;
}

/** The engine's result for a call the owner did not serve. */
static inline int mca_coll_shmcico_mode_result(uint32_t mode)
{
    return MCA_COLL_SHMCICO_MODE_DECLINE == mode ? MCA_COLL_SHMCICO_DECLINED
                                                 : MCA_COLL_SHMCICO_FAULTED;
}

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
} mca_coll_shmcico_header_t;

/** Control of one bank, written by the owner of each use. */
typedef struct mca_coll_shmcico_bank_t {
    _Alignas(MCA_COLL_SHMCICO_CACHELINE) _Atomic uint64_t op;
    _Atomic uint64_t total;         /**< bytes of the operation (owner's view) */
    _Atomic uint32_t mode;          /**< MCA_COLL_SHMCICO_MODE_* */
} mca_coll_shmcico_bank_t;

/** The last use of each bank a process is done with (its own line). */
typedef struct mca_coll_shmcico_done_t {
    _Alignas(MCA_COLL_SHMCICO_CACHELINE) _Atomic uint64_t use[MCA_COLL_SHMCICO_MAX_BANKS];
} mca_coll_shmcico_done_t;

/**
 * Flag of one slot: the slot holds "size" bytes of bank use "seq"
 * (fragments of up to MCA_COLL_SHMCICO_INLINE bytes are in data[]
 * instead).  total and own carry what a reader needs to know of the
 * whole operation: Bcast's total, a Scatter queue's bytes (own) and the
 * largest queue (total).
 */
typedef struct mca_coll_shmcico_flag_t {
    _Alignas(MCA_COLL_SHMCICO_CACHELINE) _Atomic uint64_t seq;
    _Atomic uint64_t size;
    _Atomic uint64_t total;
    _Atomic uint64_t own;
    unsigned char data[MCA_COLL_SHMCICO_INLINE];
} mca_coll_shmcico_flag_t;

/** Offsets and sizes of every block of a segment. */
typedef struct mca_coll_shmcico_layout_t {
    size_t page_size;
    uint32_t nprocs;
    uint32_t slots;                 /**< s, a multiple of banks */
    uint32_t banks;                 /**< w */
    size_t fragment_size;           /**< f, a multiple of the cache line */
    size_t topology_offset;
    size_t banks_offset;
    size_t counts_offset;           /**< counts[p] of bank 0; bank b at + b*p */
    size_t procs_offset;            /**< block of process 0 */
    size_t ctrl_bytes;              /**< done[] and ctrl[s], rounded up to a page */
    size_t proc_stride;             /**< bytes between two process blocks */
    size_t segment_size;
} mca_coll_shmcico_layout_t;

/** A process's pointers into a mapped segment. */
typedef struct mca_coll_shmcico_view_t {
    unsigned char *base;
    mca_coll_shmcico_layout_t layout;
    mca_coll_shmcico_header_t *header;
    int32_t *numa;
    int32_t *leaders;
    mca_coll_shmcico_bank_t *banks;
} mca_coll_shmcico_view_t;

/**
 * How a process waits: spin, and every spins_per_progress rounds call
 * progress() (Open MPI's opal_progress) so that other communication
 * keeps moving; when yield is set (more processes than cores) give the
 * core away on every round.
 */
typedef struct mca_coll_shmcico_waiter_t {
    void (*progress)(void);
    bool yield;
    unsigned spins_per_progress;
} mca_coll_shmcico_waiter_t;

struct mca_coll_shmcico_queue_t;

/** State of one process on one communicator. */
typedef struct mca_coll_shmcico_engine_t {
    mca_coll_shmcico_view_t view;
    int rank;
    int nprocs;
    uint64_t op;                    /**< bank uses so far, same everywhere */
    mca_coll_shmcico_waiter_t waiter;
    int *children;                  /**< scratch: tree children, p entries */
    struct mca_coll_shmcico_queue_t *queues;  /**< scratch: p queues */
    uint64_t fault;                 /**< the owner's error code after _FAULTED */
    uint64_t moved;                 /**< bytes of the last operation this process
                                         copied into or out of the segment */
} mca_coll_shmcico_engine_t;

/** One use of a bank by one process. */
typedef struct mca_coll_shmcico_use_t {
    uint64_t seq;                   /**< value of op for this use */
    mca_coll_shmcico_bank_t *bank;
    uint32_t bank_index;
    uint32_t first_slot;            /**< first slot index of the bank */
    uint64_t total;                 /**< owner's total (members: after join) */
    uint32_t mode;
} mca_coll_shmcico_use_t;

/**
 * A byte stream over a user buffer.  Contiguous data is copied with
 * memcpy; anything else goes through pack/unpack callbacks (the glue
 * wraps Open MPI's convertor), which must move exactly the bytes asked
 * for.  "length" is what this process can give (sender) or take
 * (receiver); a receiver never takes more.
 */
typedef struct mca_coll_shmcico_stream_t mca_coll_shmcico_stream_t;
typedef size_t (*mca_coll_shmcico_stream_fn_t)(mca_coll_shmcico_stream_t *stream,
                                               void *shm, size_t len);

struct mca_coll_shmcico_stream_t {
    unsigned char *contig;          /**< non-NULL: contiguous bytes */
    size_t length;
    size_t done;
    mca_coll_shmcico_stream_fn_t pack;     /**< user buffer -> shm */
    mca_coll_shmcico_stream_fn_t unpack;   /**< shm -> user buffer */
    void *cookie;
};

/* ------------------------------------------------------------------ */
/* Layout                                                               */

/**
 * Compute the layout for the given parameters.  Returns 0, or -1 when
 * the parameters are inconsistent (slots not a multiple of banks,
 * fragment not a multiple of the cache line, sizes that overflow).
 */
int mca_coll_shmcico_layout_init(mca_coll_shmcico_layout_t *layout,
                                 size_t page_size, uint32_t nprocs,
                                 uint32_t slots, uint32_t banks,
                                 size_t fragment_size);

/** Write header, topology and banks of a fresh (zeroed) segment. */
void mca_coll_shmcico_segment_format(void *base,
                                     const mca_coll_shmcico_layout_t *layout,
                                     const int32_t *numa);

/**
 * Set up a view of a mapped segment and check that its header matches
 * the expected layout.  Returns 0, or -1 on any mismatch.
 */
int mca_coll_shmcico_view_init(mca_coll_shmcico_view_t *view, void *base,
                               const mca_coll_shmcico_layout_t *layout);

/**
 * Set up a process's engine on a mapped segment: check the segment
 * (mca_coll_shmcico_view_init) and allocate the scratch space.  Returns
 * 0, or -1 (mismatch, no memory; nothing is left allocated).
 */
int mca_coll_shmcico_engine_init(mca_coll_shmcico_engine_t *engine, void *base,
                                 const mca_coll_shmcico_layout_t *layout,
                                 int rank, const mca_coll_shmcico_waiter_t *waiter);

/** Free the scratch space (the segment itself is the caller's). */
void mca_coll_shmcico_engine_fini(mca_coll_shmcico_engine_t *engine);

/** Start and length of the block that belongs to process proc. */
static inline unsigned char *
mca_coll_shmcico_proc_block(const mca_coll_shmcico_view_t *view, int proc)
{
    return view->base + view->layout.procs_offset
        + (size_t) proc * view->layout.proc_stride;
}

static inline mca_coll_shmcico_done_t *
mca_coll_shmcico_done(const mca_coll_shmcico_view_t *view, int proc)
{
    return (mca_coll_shmcico_done_t *) mca_coll_shmcico_proc_block(view, proc);
}

static inline mca_coll_shmcico_flag_t *
mca_coll_shmcico_flag(const mca_coll_shmcico_view_t *view, int proc,
                      uint32_t slot)
{
    return (mca_coll_shmcico_flag_t *) (mca_coll_shmcico_done(view, proc) + 1) + slot;
}

static inline unsigned char *
mca_coll_shmcico_slot(const mca_coll_shmcico_view_t *view, int proc,
                      uint32_t slot)
{
    return mca_coll_shmcico_proc_block(view, proc) + view->layout.ctrl_bytes
        + (size_t) slot * view->layout.fragment_size;
}

static inline _Atomic uint64_t *
mca_coll_shmcico_counts(const mca_coll_shmcico_view_t *view, uint32_t bank)
{
    return (_Atomic uint64_t *) (view->base + view->layout.counts_offset)
        + (size_t) bank * view->layout.nprocs;
}

/* ------------------------------------------------------------------ */
/* Waiting                                                              */

static inline void mca_coll_shmcico_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield" ::: "memory");
#endif
}

/** One round of a waiting loop (see mca_coll_shmcico_waiter_t). */
void mca_coll_shmcico_wait_round(const mca_coll_shmcico_waiter_t *waiter,
                                 unsigned *spins);

/** Wait until *word == value; acquire, so what the writer did before
 *  its release store is visible afterwards. */
static inline void
mca_coll_shmcico_wait_equal(const mca_coll_shmcico_waiter_t *waiter,
                            _Atomic uint64_t *word, uint64_t value)
{
    unsigned spins = 0;
    while (atomic_load_explicit(word, memory_order_acquire) != value) {
        mca_coll_shmcico_wait_round(waiter, &spins);
    }
}

/* ------------------------------------------------------------------ */
/* Slot flags                                                           */

/**
 * Mark a slot as holding size bytes (and flag bits) of bank use seq,
 * with what the reader needs to know of the whole operation.  The
 * release store of seq pairs with the acquire load in
 * mca_coll_shmcico_flag_wait() and mca_coll_shmcico_flag_ready(): it
 * orders the fragment (in the slot or in the flag's data) and the other
 * fields before seq, so a reader that sees seq sees them all.
 */
static inline void mca_coll_shmcico_flag_post(mca_coll_shmcico_flag_t *flag,
                                              uint64_t seq, uint64_t size,
                                              uint64_t total, uint64_t own)
{
    atomic_store_explicit(&flag->size, size, memory_order_relaxed);
    atomic_store_explicit(&flag->total, total, memory_order_relaxed);
    atomic_store_explicit(&flag->own, own, memory_order_relaxed);
    atomic_store_explicit(&flag->seq, seq, memory_order_release);
}

/** Whether the flag holds bank use seq (acquire: see _post). */
static inline bool mca_coll_shmcico_flag_ready(mca_coll_shmcico_flag_t *flag,
                                               uint64_t seq)
{
    return atomic_load_explicit(&flag->seq, memory_order_acquire) == seq;
}

/** Wait for a flag of bank use seq and return its size (see _post). */
static inline uint64_t
mca_coll_shmcico_flag_wait(const mca_coll_shmcico_waiter_t *waiter,
                           mca_coll_shmcico_flag_t *flag, uint64_t seq)
{
    mca_coll_shmcico_wait_equal(waiter, &flag->seq, seq);
    return atomic_load_explicit(&flag->size, memory_order_relaxed);
}

/** Where a fragment of size bytes lies: in its flag, or in the slot. */
static inline unsigned char *
mca_coll_shmcico_fragment(const mca_coll_shmcico_view_t *view, int proc,
                          uint32_t slot, uint64_t size)
{
    return size <= MCA_COLL_SHMCICO_INLINE
        ? mca_coll_shmcico_flag(view, proc, slot)->data
        : mca_coll_shmcico_slot(view, proc, slot);
}

/* ------------------------------------------------------------------ */
/* Banks                                                                */

/** Slots in one bank. */
static inline uint32_t
mca_coll_shmcico_bank_slots(const mca_coll_shmcico_engine_t *engine)
{
    return engine->view.layout.slots / engine->view.layout.banks;
}

/**
 * Take the next bank use as its owner: wait until every other process is
 * done with the bank's previous use.  Metadata that members need (vector
 * counts) must be written between this call and
 * mca_coll_shmcico_bank_publish().
 */
void mca_coll_shmcico_bank_acquire(mca_coll_shmcico_engine_t *engine,
                                   mca_coll_shmcico_use_t *use);

/** Publish a use taken with mca_coll_shmcico_bank_acquire(). */
void mca_coll_shmcico_bank_publish(mca_coll_shmcico_use_t *use, uint64_t total,
                                   uint32_t mode);

/** Take the next bank use without waiting: the flags of its fragments
 *  will say it was published. */
void mca_coll_shmcico_bank_next(mca_coll_shmcico_engine_t *engine,
                                mca_coll_shmcico_use_t *use);

/** Wait for the publication of a use already taken (with
 *  mca_coll_shmcico_bank_acquire()) and read total and mode. */
void mca_coll_shmcico_bank_await(mca_coll_shmcico_engine_t *engine,
                                 mca_coll_shmcico_use_t *use);

/** Take the next bank use as a member: wait for its publication and read
 *  total and mode. */
void mca_coll_shmcico_bank_join(mca_coll_shmcico_engine_t *engine,
                                mca_coll_shmcico_use_t *use);

/** This process no longer touches the slots or flags of the use. */
void mca_coll_shmcico_bank_done(mca_coll_shmcico_engine_t *engine,
                                const mca_coll_shmcico_use_t *use);

/** End of an operation: fetch into the cache what the owner of the
 *  next bank use will check, while nobody is waiting for it. */
void mca_coll_shmcico_bank_prefetch(const mca_coll_shmcico_engine_t *engine);

/* ------------------------------------------------------------------ */
/* Streams                                                              */

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
        memcpy(shm, stream->contig + stream->done, len);
    } else {
        (void) stream->pack(stream, shm, len);
    }
    stream->done += len;
}

/**
 * Copy up to len bytes from shared memory into the user buffer, never
 * past its end.  Returns false when bytes had to be dropped.
 */
static inline bool mca_coll_shmcico_stream_get(mca_coll_shmcico_stream_t *stream,
                                               const void *shm, size_t len)
{
    size_t room = stream->length - stream->done;
    size_t take = len < room ? len : room;

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
 * block, which never goes through shared memory) and return how many
 * were taken from src; *complete is cleared when dst had no room left.
 */
size_t mca_coll_shmcico_stream_copy(mca_coll_shmcico_stream_t *dst,
                                    mca_coll_shmcico_stream_t *src, size_t max,
                                    bool *complete);

/** A stream over contiguous bytes. */
static inline void mca_coll_shmcico_stream_contig(mca_coll_shmcico_stream_t *stream,
                                                  void *bytes, size_t length)
{
    stream->contig = (unsigned char *) bytes;
    stream->length = length;
    stream->done = 0;
    stream->pack = NULL;
    stream->unpack = NULL;
    stream->cookie = NULL;
}

/* ------------------------------------------------------------------ */
/* Queues of the vector operations                                      */

/**
 * One queue of a vector operation: the slots and flags of process proc
 * carry "bytes" (the count the owner published for proc) between stream
 * and shared memory, f bytes per fragment, s/w fragments per bank use.
 * Fragment k of a queue travels in bank use k / (s/w).
 */
typedef struct mca_coll_shmcico_queue_t {
    int proc;
    uint64_t bytes;
    uint64_t next;                  /**< next fragment to move (a writer's is 1
                                         after an early fragment) */
    mca_coll_shmcico_stream_t *stream;
    bool complete;                  /**< reader: nothing had to be dropped */
} mca_coll_shmcico_queue_t;

/**
 * What one process does in a vector operation.  The owner (root, or
 * rank 0 without a root) publishes counts[p], the bytes of every
 * process's queue, with the first bank use; every process then moves
 * the fragments of its write queues and read queues, bank use by bank
 * use, until the largest queue is through.  A process that writes joins
 * every use (it must not write before the publication); one that only
 * reads learns its queue's bytes and the owner's decision from the
 * first flag.  A process's own block, which never goes through a queue,
 * is copied from self_src to self_dst when both are set.
 */
typedef struct mca_coll_shmcico_plan_t {
    bool owner;
    uint32_t mode;                  /**< owner: MCA_COLL_SHMCICO_MODE_* */
    uint64_t fault;                 /**< owner: error code with _MODE_FAULT */
    const uint64_t *counts;         /**< owner: bytes of every queue */
    mca_coll_shmcico_queue_t *writes;
    int nwrites;
    mca_coll_shmcico_queue_t *reads;
    int nreads;
    mca_coll_shmcico_stream_t *self_src;
    mca_coll_shmcico_stream_t *self_dst;
} mca_coll_shmcico_plan_t;

/** Run a plan; returns MCA_COLL_SHMCICO_DONE, _TRUNCATED, _DECLINED or
 *  _FAULTED (engine->fault holds the owner's error code). */
int mca_coll_shmcico_engine_run(mca_coll_shmcico_engine_t *engine,
                                const mca_coll_shmcico_plan_t *plan);

/* ------------------------------------------------------------------ */
/* Data movements                                                       */

struct mca_coll_shmcico_tree_t;

/**
 * Broadcast through the root's queue (pipelined CICO).  At the root,
 * stream holds the message and mode is the root's decision (serve, hand
 * the call back, or report the error code fault to everyone); elsewhere
 * stream is the receive buffer and mode and fault are ignored.
 *
 * Returns MCA_COLL_SHMCICO_DONE, _TRUNCATED (this receiver's buffer was
 * shorter than the root's message: what fits was written, the protocol
 * stayed in step), _DECLINED (every process must fall back) or _FAULTED
 * (engine->fault holds the root's error code).
 */
int mca_coll_shmcico_engine_bcast(mca_coll_shmcico_engine_t *engine,
                                  const struct mca_coll_shmcico_tree_t *tree,
                                  int root, mca_coll_shmcico_stream_t *stream,
                                  uint32_t mode, uint64_t fault);

/**
 * Scatterv (root_writes) and Gatherv (!root_writes), mirror images of
 * each other.  Scatterv: the root writes each process's block into that
 * process's queue, fragment by fragment, round robin over the
 * processes.  Gatherv: every process writes its block into its own
 * queue; the root reads every queue, whichever fragment is ready first.
 *   root:   blocks[i] is the block of process i and counts[i] its bytes
 *           (sent, or expected); own (NULL with MPI_IN_PLACE) is the
 *           root's own block, copied from or into blocks[root]; mode and
 *           fault are its decision.
 *   others: own is the receive or send buffer; the rest is ignored.
 */
int mca_coll_shmcico_engine_rooted(mca_coll_shmcico_engine_t *engine, int root,
                                   bool root_writes, mca_coll_shmcico_stream_t *own,
                                   mca_coll_shmcico_stream_t *const *blocks,
                                   const uint64_t *counts, uint32_t mode, uint64_t fault);

/**
 * Allgatherv: every process writes its block once into its own queue and
 * reads every other queue.  Rank 0 owns the banks: its counts[] and its
 * decision (mode, fault) are the ones every process follows.  send is this process's
 * block for its queue; own, a second stream over the same block, is
 * copied into blocks[rank] (both NULL with MPI_IN_PLACE: the block is
 * already there, and send reads it from the receive buffer); blocks[i]
 * receives the block of process i.
 */
int mca_coll_shmcico_engine_allgatherv(mca_coll_shmcico_engine_t *engine,
                                       mca_coll_shmcico_stream_t *send,
                                       mca_coll_shmcico_stream_t *own,
                                       mca_coll_shmcico_stream_t *const *blocks,
                                       const uint64_t *counts, uint32_t mode,
                                     uint64_t fault);

#endif /* MCA_COLL_SHMCICO_ENGINE_H */
