/*
 * Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
 * $COPYRIGHT$
 *
 * Additional copyrights may follow
 *
 * $HEADER$
 */

/*
 * How a single copy is cut into kernel calls (coll_shmcico_single.h):
 * every call has at most MCA_COLL_SHMCICO_CALL_PAIRS pairs of spans and
 * MCA_COLL_SHMCICO_CALL_BYTES bytes, the two spans of a pair are equally
 * long, and the calls in order cover exactly the bytes asked for, each
 * byte at its place in both layouts, whether a block is one dense span
 * of more than 2 GiB, pieces with gaps that a call cuts (600 MiB, and
 * 1.5 GiB: longer than a call), or many small pieces.  An error of the
 * copier stops the copy and is returned.  The regions' addresses are
 * never touched: the copier only records.  And how a single copy is cut
 * into the chunks that its reader and a helper share, never more than
 * its xfer line counts.  And when one process can tell alone that the
 * system refuses single copy between the job's processes.
 */

#include <errno.h>

#include "coll_shmcico_single.h"
#include "unit.h"

#define GIB ((uint64_t) 1 << 30)

/* what the recording copier saw */
typedef struct record_t {
    int calls;
    int fail_at;                    /* the call that fails, -1: none */
    uint64_t bytes;                 /* bytes of every call */
    uint64_t largest_call;
    size_t most_pairs;
    int misplaced;                  /* pairs not where the layouts put them */
    const mca_coll_shmcico_region_t *local, *remote;
    uint64_t local_offset, remote_offset;
} record_t;

/* the address of packed byte t of a region of one piece per element */
static uint64_t address_of(const mca_coll_shmcico_region_t *r, uint64_t t)
{
    return r->base + t / r->size * (uint64_t) r->extent + (uint64_t) r->pieces[0].offset
        + t % r->size;
}

/* whether a span of len bytes from packed byte t stays in one piece (or
 * the region has no gaps) */
static bool in_piece(const mca_coll_shmcico_region_t *r, uint64_t t, uint64_t len)
{
    return r->extent == (int64_t) r->size || t % r->size + len <= r->size;
}

/* whether the pair's spans start where the packed bytes so far put them
 * and stay inside one piece of each */
static bool in_place(const record_t *rec, const struct iovec *l, const struct iovec *r)
{
    uint64_t lt = rec->local_offset + rec->bytes, rt = rec->remote_offset + rec->bytes;

    return (uint64_t) (uintptr_t) l->iov_base == address_of(rec->local, lt)
        && (uint64_t) (uintptr_t) r->iov_base == address_of(rec->remote, rt)
        && in_piece(rec->local, lt, l->iov_len) && in_piece(rec->remote, rt, r->iov_len);
}

static int recording_copy(void *context, int peer, bool to_peer, const struct iovec *local,
                          const struct iovec *remote, size_t n)
{
    record_t *rec = (record_t *) context;
    uint64_t in_call = 0;

    (void) peer;
    (void) to_peer;
    for (size_t i = 0; i < n; ++i) {
        rec->misplaced += local[i].iov_len != remote[i].iov_len
                          || !in_place(rec, &local[i], &remote[i]);
        rec->bytes += local[i].iov_len;
        in_call += local[i].iov_len;
    }
    rec->largest_call = in_call > rec->largest_call ? in_call : rec->largest_call;
    rec->most_pairs = n > rec->most_pairs ? n : rec->most_pairs;
    return rec->calls++ == rec->fail_at ? EFAULT : 0;
}

static mca_coll_shmcico_region_t region(uint64_t base, uint64_t count, int64_t extent,
                                        const mca_coll_shmcico_piece_t *piece)
{
    return (mca_coll_shmcico_region_t) { .base = base, .count = count, .extent = extent,
                                         .size = piece->len, .npieces = 1, .pieces = piece };
}

/* copy len bytes between local and remote from the offsets on: the
 * copier's answer and what it saw */
static int copy(record_t *rec, const mca_coll_shmcico_region_t *local, uint64_t local_offset,
                const mca_coll_shmcico_region_t *remote, uint64_t remote_offset, uint64_t len)
{
    mca_coll_shmcico_copier_t copier = { .copy = recording_copy, .context = rec };

    rec->local = local;
    rec->remote = remote;
    rec->local_offset = local_offset;
    rec->remote_offset = remote_offset;
    return mca_coll_shmcico_single_copy(&copier, 1, false, local, local_offset, remote,
                                        remote_offset, len);
}

static void check_calls(const char *what, const record_t *rec, uint64_t len, int calls)
{
    CHECK(rec->bytes == len, "%s: %llu bytes copied of %llu", what,
          (unsigned long long) rec->bytes, (unsigned long long) len);
    CHECK(rec->calls == calls, "%s: %d calls, %d expected", what, rec->calls, calls);
    CHECK(rec->largest_call <= MCA_COLL_SHMCICO_CALL_BYTES, "%s: a call of %llu bytes", what,
          (unsigned long long) rec->largest_call);
    CHECK(rec->most_pairs <= MCA_COLL_SHMCICO_CALL_PAIRS, "%s: a call of %zu pairs", what,
          rec->most_pairs);
    CHECK(0 == rec->misplaced, "%s: %d pairs misplaced", what, rec->misplaced);
}

/* one dense span of 2^31 + 13 bytes, and 3 GiB + 13 from an offset: a
 * call per GiB and one for the rest */
static void test_dense_beyond_2gib(void)
{
    uint64_t len = 2 * GIB + 13;
    mca_coll_shmcico_piece_t whole = { 0, 4 * GIB };
    mca_coll_shmcico_region_t local = region(1ull << 40, 1, 4 * GIB, &whole);
    mca_coll_shmcico_region_t remote = region(1ull << 44, 1, 4 * GIB, &whole);
    record_t rec = { .fail_at = -1 };

    CHECK(0 == copy(&rec, &local, 0, &remote, 0, len), "dense 2 GiB + 13: an error");
    check_calls("dense 2 GiB + 13", &rec, len, 3);
    CHECK(GIB == rec.largest_call, "dense: calls of 1 GiB, largest %llu",
          (unsigned long long) rec.largest_call);
    rec = (record_t) { .fail_at = -1 };
    CHECK(0 == copy(&rec, &local, 7, &remote, 4096, 3 * GIB + 13), "dense 3 GiB: an error");
    check_calls("dense 3 GiB + 13 from offsets", &rec, 3 * GIB + 13, 4);
}

/* elements of one 600 MiB piece with gaps: a piece is cut where a call
 * is full and goes on in the next */
static void test_pieces_larger_than_a_call(void)
{
    mca_coll_shmcico_piece_t piece = { 4096, 600ull << 20 };
    mca_coll_shmcico_piece_t dense = { 0, 1 };
    mca_coll_shmcico_region_t local = region(1ull << 40, 5, (int64_t) GIB, &piece);
    mca_coll_shmcico_region_t remote = region(1ull << 44, 3000ull << 20, 1, &dense);
    record_t rec = { .fail_at = -1 };
    uint64_t len = 3000ull << 20;

    CHECK(0 == copy(&rec, &local, 0, &remote, 0, len), "600 MiB pieces: an error");
    /* ceil(3000 MiB / 1 GiB) = 3 calls, each full but the last */
    check_calls("600 MiB pieces", &rec, len, 3);

    /* two pieces of 1.5 GiB, 2 GiB apart: each cut by the calls */
    piece = (mca_coll_shmcico_piece_t) { 4096, 3 * GIB / 2 };
    local = region(1ull << 40, 2, (int64_t) (2 * GIB), &piece);
    remote = region(1ull << 44, 3 * GIB, 1, &dense);
    rec = (record_t) { .fail_at = -1 };
    CHECK(0 == copy(&rec, &local, 0, &remote, 0, 3 * GIB), "1.5 GiB pieces: an error");
    check_calls("1.5 GiB pieces", &rec, 3 * GIB, 3);
}

/* 1000 elements of 100 bytes, 256 apart, into a dense buffer: a call
 * per 128 pairs */
static void test_many_small_pieces(void)
{
    mca_coll_shmcico_piece_t piece = { 0, 100 };
    mca_coll_shmcico_piece_t dense = { 0, 1 };
    mca_coll_shmcico_region_t local = region(1ull << 40, 1000, 256, &piece);
    mca_coll_shmcico_region_t remote = region(1ull << 44, 100000, 1, &dense);
    record_t rec = { .fail_at = -1 };

    CHECK(0 == copy(&rec, &local, 0, &remote, 0, 100000), "small pieces: an error");
    check_calls("1000 pieces of 100 bytes", &rec, 100000, (1000 + 127) / 128);
    CHECK(MCA_COLL_SHMCICO_CALL_PAIRS == rec.most_pairs, "small pieces: %zu pairs per call",
          rec.most_pairs);
}

/* the copier's error ends the copy: no call after it */
static void test_error_stops(void)
{
    mca_coll_shmcico_piece_t whole = { 0, 4 * GIB };
    mca_coll_shmcico_region_t local = region(1ull << 40, 1, 4 * GIB, &whole);
    mca_coll_shmcico_region_t remote = region(1ull << 44, 1, 4 * GIB, &whole);
    record_t rec = { .fail_at = 1 };

    CHECK(EFAULT == copy(&rec, &local, 0, &remote, 0, 3 * GIB), "the copier's error returned");
    CHECK(2 == rec.calls, "no call after the failed one: %d calls", rec.calls);
}

/* the chunks a reader and its helper share (docs/design.md, "Chunks") */
static void check_chunks(mca_coll_shmcico_help_t help, uint64_t bytes, uint64_t largest,
                         uint64_t chunk, const char *why)
{
    uint64_t got = mca_coll_shmcico_chunk_for(bytes, help, largest);

    CHECK(chunk == got, "%s: %llu bytes in chunks of %llu, not %llu", why,
          (unsigned long long) bytes, (unsigned long long) chunk, (unsigned long long) got);
}

static void test_chunks(void)
{
    const uint64_t K = 1024, M = K * K, none = UINT64_MAX;
    const mca_coll_shmcico_help_t early = MCA_COLL_SHMCICO_HELP_EARLY;
    const mca_coll_shmcico_help_t late = MCA_COLL_SHMCICO_HELP_LATE;

    /* a helper from the start (Bcast) or pulling (Gather(v)) */
    check_chunks(early, 12 * K, none, 12 * K, "under 16 KiB: one chunk");
    check_chunks(early, 16 * K, none, 8 * K, "16 KiB: halves");
    check_chunks(early, 48 * K, none, 24 * K, "under 64 KiB: halves");
    check_chunks(early, 64 * K, none, 32 * K, "64 KiB: halves of 32 KiB");
    check_chunks(early, 96 * K, none, 32 * K, "96 KiB: chunks of 32 KiB");
    check_chunks(early, 1 * M, none, 256 * K, "1 MiB: quarters");
    check_chunks(early, 64 * M, 1 * M, 1 * M, "no more than single_copy_chunk");
    check_chunks(early, 1 * M + 1, none, 260 * K, "quarters rounded up to pages");
    /* a helper that comes late and pushes (Scatter(v)) */
    check_chunks(late, 128 * K, none, 128 * K, "late: one chunk under 256 KiB");
    check_chunks(late, 255 * K, none, 255 * K, "late: one chunk under 256 KiB");
    check_chunks(late, 256 * K, none, 64 * K, "late: quarters from 256 KiB");
    check_chunks(late, 4 * M, 512 * K, 512 * K, "late: no more than single_copy_chunk");
    /* never more chunks than an xfer line counts: larger ones instead */
    check_chunks(early, 65535 * 4 * K, 4 * K, 4 * K, "65535 chunks of single_copy_chunk");
    check_chunks(early, 65536 * 4 * K, 4 * K, 8 * K, "not 65536 chunks: two pages each");
    check_chunks(late, 2 * GIB + 13, 4 * K, 36 * K, "2 GiB + 13 in 58255 chunks");
    check_chunks(early, 4 * GIB, 4 * K, 68 * K, "4 GiB in 61681 chunks");
    /* a Scatter(v) root pushes late to one receiver; to several, whose
     * pulls wait on each other in the kernel, early */
    CHECK(late == mca_coll_shmcico_rooted_help(true, 2), "Scatter of 2: the root helps late");
    CHECK(early == mca_coll_shmcico_rooted_help(true, 3), "Scatter of 3: the root helps early");
    CHECK(early == mca_coll_shmcico_rooted_help(true, 16), "Scatter of 16: early");
    CHECK(early == mca_coll_shmcico_rooted_help(false, 2), "Gather: the root pulls early");
    check_chunks(mca_coll_shmcico_rooted_help(true, 16), 64 * K, none, 32 * K,
                 "Scatter of 16, 64 KiB: halves");
    /* nobody helps (Allgather(v)) */
    check_chunks(MCA_COLL_SHMCICO_HELP_NONE, 4 * M, 1 * M, 4 * M, "alone: one chunk");
    check_chunks(MCA_COLL_SHMCICO_HELP_NONE, 16 * K, none, 16 * K, "alone: one chunk");
}

/* refused for sure: the kernel refuses a process its own memory
 * (seccomp), or Yama lets no sibling attach (scope 3, or 2 without
 * CAP_SYS_PTRACE); anything else may work (at scope 1 Open MPI's CMA
 * code lets the processes attach), and the setup's probe decides */
static void test_refusal_certain(void)
{
    CHECK(!mca_coll_shmcico_refusal_certain(true, -1, false), "no Yama: may work");
    CHECK(!mca_coll_shmcico_refusal_certain(true, 0, false), "scope 0: may work");
    CHECK(mca_coll_shmcico_refusal_certain(false, -1, true), "own copy refused: refused");
    CHECK(mca_coll_shmcico_refusal_certain(false, 0, true), "own copy refused, scope 0");
    CHECK(!mca_coll_shmcico_refusal_certain(true, 1, false), "scope 1: Open MPI may allow it");
    CHECK(!mca_coll_shmcico_refusal_certain(true, 1, true), "scope 1, CAP_SYS_PTRACE");
    CHECK(mca_coll_shmcico_refusal_certain(true, 2, false), "scope 2, no capability");
    CHECK(!mca_coll_shmcico_refusal_certain(true, 2, true), "scope 2, CAP_SYS_PTRACE");
    CHECK(mca_coll_shmcico_refusal_certain(true, 3, true), "scope 3: nobody attaches");
}

int main(void)
{
    test_refusal_certain();
    test_chunks();
    test_dense_beyond_2gib();
    test_pieces_larger_than_a_call();
    test_many_small_pieces();
    test_error_stops();
    return unit_report("test_single");
}
