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
 * The single-copy transport (see coll_shmcico_single.h and
 * docs/protocol.md): regions in the segment, and chunk copies as pairs
 * of equally long spans handed to the copier.
 */

#include "coll_shmcico_single.h"

void mca_coll_shmcico_region_contig(mca_coll_shmcico_region_t *region, void *bytes,
                                    uint64_t len)
{
    region->base = (uint64_t) (uintptr_t) bytes;
    region->count = len;
    region->extent = 1;
    region->size = 1;
    region->npieces = 1;
    region->first = (mca_coll_shmcico_piece_t) { .offset = 0, .len = 1 };
    region->pieces = &region->first;
}

#define KIB ((uint64_t) 1024)
#define PAGES(b) (((b) + 4095) / 4096 * 4096)

mca_coll_shmcico_help_t mca_coll_shmcico_rooted_help(bool scatter, int nprocs)
{
    return scatter && nprocs <= 2 ? MCA_COLL_SHMCICO_HELP_LATE : MCA_COLL_SHMCICO_HELP_EARLY;
}

uint64_t mca_coll_shmcico_chunk_for(uint64_t bytes, mca_coll_shmcico_help_t help,
                                    uint64_t largest)
{
    uint64_t quarter = PAGES((bytes + 3) / 4), half = PAGES((bytes + 1) / 2), part = bytes;

    if (MCA_COLL_SHMCICO_HELP_NONE == help) {
        return bytes;               /* more chunks would only be more calls */
    }
    if (MCA_COLL_SHMCICO_HELP_LATE == help && bytes >= 256 * KIB) {
        part = quarter > 64 * KIB ? quarter : 64 * KIB;
    } else if (MCA_COLL_SHMCICO_HELP_EARLY == help && bytes >= 16 * KIB) {
        part = half < 32 * KIB ? half : 32 * KIB;
        part = quarter > part ? quarter : part;
    }
    part = part < largest ? part : largest;
    return mca_coll_shmcico_chunks(bytes, part) <= MCA_COLL_SHMCICO_MAX_CHUNKS
        ? part : PAGES((bytes - 1) / MCA_COLL_SHMCICO_MAX_CHUNKS + 1);
}

#define STORE(field, value) atomic_store_explicit(&line->field, value, memory_order_relaxed)
#define LOAD(field) atomic_load_explicit(&line->field, memory_order_relaxed)

void mca_coll_shmcico_region_post(const mca_coll_shmcico_view_t *view, int me,
                                  const mca_coll_shmcico_seq_t *op,
                                  const mca_coll_shmcico_region_t *region)
{
    mca_coll_shmcico_region_line_t *line = mca_coll_shmcico_region_line(view, me, op->bank);

    if (region->npieces > 1) {
        memcpy(mca_coll_shmcico_slot(view, me, op->first_slot), region->pieces,
               region->npieces * sizeof(mca_coll_shmcico_piece_t));
    }
    /* Sequence lock: op 0 while the fields change; the release fence
     * pairs with the acquire fence in _fetch(), so a reader that saw the
     * new fields sees op 0 (or the new op) when it checks again. */
    STORE(op, 0);
    atomic_thread_fence(memory_order_release);
    STORE(base, region->base);
    STORE(count, region->count);
    STORE(extent, region->extent);
    STORE(size, region->size);
    STORE(npieces, region->npieces);
    STORE(piece_offset, region->pieces[0].offset);
    STORE(piece_len, region->pieces[0].len);
    /* Release pairs with the acquire in _fetch(): the fields and the
     * pieces are written before. */
    atomic_store_explicit(&line->op, op->seq, memory_order_release);
}

bool mca_coll_shmcico_region_fetch(const mca_coll_shmcico_view_t *view, int proc,
                                   const mca_coll_shmcico_seq_t *op,
                                   mca_coll_shmcico_region_t *region)
{
    mca_coll_shmcico_region_line_t *line = mca_coll_shmcico_region_line(view, proc, op->bank);

    /* acquire: pairs with the release of op in _post() */
    if (atomic_load_explicit(&line->op, memory_order_acquire) != op->seq) {
        return false;
    }
    region->base = LOAD(base);
    region->count = LOAD(count);
    region->extent = LOAD(extent);
    region->size = LOAD(size);
    region->npieces = LOAD(npieces);
    region->first = (mca_coll_shmcico_piece_t) { .offset = LOAD(piece_offset),
                                                 .len = LOAD(piece_len) };
    /* pairs with the release fence in _post(): the fields read above
     * belong to op unless op changed meanwhile */
    atomic_thread_fence(memory_order_acquire);
    if (LOAD(op) != op->seq) {
        return false;
    }
    region->pieces = region->npieces > 1
        ? (const mca_coll_shmcico_piece_t *) mca_coll_shmcico_slot(view, proc, op->first_slot)
        : &region->first;
    return true;
}

#undef STORE
#undef LOAD

/* ------------------------------------------------------------------ */
/* Walking a region                                                     */

typedef struct cursor_t {
    const mca_coll_shmcico_region_t *region;
    uint64_t element;
    uint64_t piece;
    uint64_t within;                /* bytes of the piece already passed */
} cursor_t;

static void cursor_seek(cursor_t *c, const mca_coll_shmcico_region_t *region,
                        uint64_t offset)
{
    uint64_t rest = offset % region->size;

    c->region = region;
    c->element = offset / region->size;
    for (c->piece = 0; rest >= region->pieces[c->piece].len; ++c->piece) {
        rest -= region->pieces[c->piece].len;
    }
    c->within = rest;
}

/* elements without gaps between them: the rest of the region is one span */
static bool dense(const mca_coll_shmcico_region_t *r)
{
    return 1 == r->npieces && r->pieces[0].len == r->size && r->extent == (int64_t) r->size;
}

/* the span at the cursor: its address and its bytes (of its piece, or
 * of the whole rest of a dense region) */
static uint64_t cursor_span(const cursor_t *c, uint64_t *address)
{
    const mca_coll_shmcico_piece_t *piece = &c->region->pieces[c->piece];

    *address = c->region->base + (uint64_t) ((int64_t) c->element * c->region->extent
                                             + piece->offset) + c->within;
    if (dense(c->region)) {
        return (c->region->count - c->element) * c->region->size - c->within;
    }
    return piece->len - c->within;
}

static void cursor_advance(cursor_t *c, uint64_t len)
{
    if (dense(c->region)) {
        uint64_t at = c->element * c->region->size + c->within + len;
        c->element = at / c->region->size;
        c->within = at % c->region->size;
        return;
    }
    c->within += len;
    if (c->within == c->region->pieces[c->piece].len) {
        c->within = 0;
        if (++c->piece == c->region->npieces) {
            c->piece = 0;
            ++c->element;
        }
    }
}

/* Append a pair of spans, merged into the last one when both continue
 * it; returns the number of pairs. */
static size_t add_pair(struct iovec *local, struct iovec *remote, size_t n,
                       uint64_t laddr, uint64_t raddr, uint64_t len)
{
    if (n > 0 && (uint64_t) (uintptr_t) local[n - 1].iov_base + local[n - 1].iov_len == laddr
        && (uint64_t) (uintptr_t) remote[n - 1].iov_base + remote[n - 1].iov_len == raddr) {
        local[n - 1].iov_len += len;
        remote[n - 1].iov_len += len;
        return n;
    }
    local[n] = (struct iovec) { .iov_base = (void *) (uintptr_t) laddr, .iov_len = len };
    remote[n] = (struct iovec) { .iov_base = (void *) (uintptr_t) raddr, .iov_len = len };
    return n + 1;
}

int mca_coll_shmcico_single_copy(const mca_coll_shmcico_copier_t *copier, int peer,
                                 bool to_peer, const mca_coll_shmcico_region_t *local,
                                 uint64_t local_offset,
                                 const mca_coll_shmcico_region_t *remote,
                                 uint64_t remote_offset, uint64_t len)
{
    struct iovec liov[MCA_COLL_SHMCICO_CALL_PAIRS], riov[MCA_COLL_SHMCICO_CALL_PAIRS];
    cursor_t lc, rc;
    size_t n = 0;
    uint64_t in_call = 0;
    int err = 0;

    if (0 == len) {
        return 0;
    }
    cursor_seek(&lc, local, local_offset);
    cursor_seek(&rc, remote, remote_offset);
    while (len > 0 && 0 == err) {
        uint64_t laddr, raddr, llen = cursor_span(&lc, &laddr), rlen = cursor_span(&rc, &raddr);
        uint64_t take = llen < rlen ? llen : rlen;

        take = take < len ? take : len;
        take = take < MCA_COLL_SHMCICO_CALL_BYTES - in_call
            ? take : MCA_COLL_SHMCICO_CALL_BYTES - in_call;
        n = add_pair(liov, riov, n, laddr, raddr, take);
        cursor_advance(&lc, take);
        cursor_advance(&rc, take);
        len -= take;
        in_call += take;
        if (MCA_COLL_SHMCICO_CALL_PAIRS == n || 0 == len
            || MCA_COLL_SHMCICO_CALL_BYTES == in_call) {
            err = copier->copy(copier->context, peer, to_peer, liov, riov, n);
            n = 0;
            in_call = 0;
        }
    }
    return err;
}

bool mca_coll_shmcico_refusal_certain(bool self_copy, int yama_scope, bool cap_sys_ptrace)
{
    return !self_copy || yama_scope >= 3 || (2 == yama_scope && !cap_sys_ptrace);
}
