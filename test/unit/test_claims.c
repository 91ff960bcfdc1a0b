/*
 * Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
 * $COPYRIGHT$
 *
 * Additional copyrights may follow
 *
 * $HEADER$
 */

/*
 * How the two sides of a single copy share its chunks through the xfer
 * line of the process that owns the copy (coll_shmcico_sync.h): pulls
 * take chunks from the front and pushes from the back.  Alone, a side
 * takes every chunk from its end, in order; the two sides together take
 * every chunk exactly once, the puller a prefix and the pusher the rest;
 * no claim succeeds on a line that another call opened, or that was
 * opened without claims, or once every chunk is taken; a copy of as many
 * chunks as the line counts is claimed to its last chunk.  Then two
 * threads claim from the two ends at once, call after call, and each
 * call's chunks are again a prefix and a suffix that cover them all.
 */

#include <sched.h>

#include "threads.h"
#include "unit.h"

#define FRONT MCA_COLL_SHMCICO_FRONT
#define BACK MCA_COLL_SHMCICO_BACK

static mca_coll_shmcico_seq_t op_of(const mca_coll_shmcico_view_t *view, uint64_t seq)
{
    mca_coll_shmcico_seq_t op = { .seq = seq };

    op.bank = (uint32_t) (seq % view->layout.banks);
    op.first_slot = op.bank * mca_coll_shmcico_bank_slots(view);
    return op;
}

/* the chunk a claim from end takes, UINT64_MAX: none */
static uint64_t claim(const mca_coll_shmcico_view_t *view, const mca_coll_shmcico_seq_t *op,
                      uint64_t nchunks, mca_coll_shmcico_end_t end)
{
    uint64_t chunk;

    return mca_coll_shmcico_xfer_claim(view, 1, op, nchunks, end, &chunk) ? chunk : UINT64_MAX;
}

/* ------------------------------------------------------------------ */
/* One claim after the other                                            */

static void check_alone(const mca_coll_shmcico_view_t *view)
{
    mca_coll_shmcico_seq_t op = op_of(view, 1);
    int in_order = 1;

    mca_coll_shmcico_xfer_open(view, 1, &op, true);
    for (uint64_t k = 0; k < 5; ++k) {
        in_order &= k == claim(view, &op, 5, FRONT);
    }
    CHECK(in_order, "a puller alone takes chunks 0 to 4 in order");
    CHECK(UINT64_MAX == claim(view, &op, 5, BACK), "no chunk left for the pusher");

    op = op_of(view, 2);
    mca_coll_shmcico_xfer_open(view, 1, &op, true);
    for (uint64_t k = 0; k < 5; ++k) {
        in_order &= 4 - k == claim(view, &op, 5, BACK);
    }
    CHECK(in_order, "a pusher alone takes chunks 4 to 0 in order");
    CHECK(UINT64_MAX == claim(view, &op, 5, FRONT), "no chunk left for the puller");
}

static void check_both_ends(const mca_coll_shmcico_view_t *view)
{
    mca_coll_shmcico_seq_t op = op_of(view, 3);
    uint64_t got[7];

    mca_coll_shmcico_xfer_open(view, 1, &op, true);
    got[0] = claim(view, &op, 6, BACK);
    got[1] = claim(view, &op, 6, FRONT);
    got[2] = claim(view, &op, 6, FRONT);
    got[3] = claim(view, &op, 6, BACK);
    got[4] = claim(view, &op, 6, FRONT);
    got[5] = claim(view, &op, 6, FRONT);
    got[6] = claim(view, &op, 6, BACK);
    CHECK(5 == got[0] && 4 == got[3], "the pusher takes 5, then 4");
    CHECK(0 == got[1] && 1 == got[2] && 2 == got[4] && 3 == got[5],
          "the puller takes 0 to 3 around the pusher's claims");
    CHECK(UINT64_MAX == got[6], "six chunks taken, no seventh");
}

static void check_refused(const mca_coll_shmcico_view_t *view)
{
    mca_coll_shmcico_seq_t op = op_of(view, 4), next = op_of(view, 4 + view->layout.banks);

    mca_coll_shmcico_xfer_open(view, 1, &op, true);
    CHECK(UINT64_MAX == claim(view, &next, 4, FRONT)
          && UINT64_MAX == claim(view, &next, 4, BACK),
          "a claim of a later call, every chunk of the line's call free");
    CHECK(0 == claim(view, &op, 4, FRONT), "a claim of the call the line is open for");
    mca_coll_shmcico_xfer_open(view, 1, &next, true);
    CHECK(UINT64_MAX == claim(view, &op, 4, BACK), "a late claim of the call before");
    mca_coll_shmcico_xfer_open(view, 1, &op, false);
    CHECK(UINT64_MAX == claim(view, &op, 4, FRONT)
          && UINT64_MAX == claim(view, &op, 4, BACK), "a line opened without claims");
    mca_coll_shmcico_xfer_open(view, 1, &op, true);
    CHECK(UINT64_MAX == claim(view, &op, 0, FRONT), "a copy of no chunks");
}

/* as many chunks as the line counts, all from one end: that end's count
 * reaches its largest value without spilling into the other or into the
 * stamp */
static void check_most_chunks(const mca_coll_shmcico_view_t *view, mca_coll_shmcico_end_t end)
{
    const uint64_t n = MCA_COLL_SHMCICO_MAX_CHUNKS;
    mca_coll_shmcico_seq_t op = op_of(view, 6 + end);
    int in_order = 1;

    mca_coll_shmcico_xfer_open(view, 1, &op, true);
    for (uint64_t k = 0; k < n; ++k) {
        in_order &= claim(view, &op, n, end) == (FRONT == end ? k : n - 1 - k);
    }
    CHECK(in_order, "%llu chunks claimed from the %s, each once", (unsigned long long) n,
          FRONT == end ? "front" : "back");
    CHECK(UINT64_MAX == claim(view, &op, n, FRONT) && UINT64_MAX == claim(view, &op, n, BACK),
          "none after the last");
}

/* thread 1 alone, on its own xfer line */
static int sequential_body(threads_world *w, mca_coll_shmcico_engine_t *e, void *arg)
{
    (void) w;
    (void) arg;
    if (1 == e->rank) {
        check_alone(&e->view);
        check_both_ends(&e->view);
        check_refused(&e->view);
        check_most_chunks(&e->view, FRONT);
        check_most_chunks(&e->view, BACK);
    }
    return 0;
}

static void check_sequential(void)
{
    CHECK(0 == threads_run(2, 8, 2, 8192, THREADS_NO_COPIER, sequential_body, NULL),
          "a world of two threads");
}

/* ------------------------------------------------------------------ */
/* Two threads at once                                                  */

#define CALLS 400
#define MOST 64

/* thread 1 owns the line and pulls; thread 0 pushes */
typedef struct race_t {
    _Atomic uint64_t opened;        /* the call thread 1 opened the line for */
    uint64_t taken[2][MOST];        /* the chunks each thread took in the call */
    uint64_t ntaken[2];
    int splits;                     /* calls in which both threads took chunks */
} race_t;

static uint64_t nchunks_of(uint64_t call)
{
    return 1 + call % MOST;
}

/* take chunks from end until none is left; the line's owner then waits
 * for the other's */
static void take_all(const mca_coll_shmcico_view_t *view, const mca_coll_shmcico_seq_t *op,
                     uint64_t n, int me, race_t *race)
{
    uint64_t chunk;

    race->ntaken[me] = 0;
    while (mca_coll_shmcico_xfer_claim(view, 1, op, n, 1 == me ? FRONT : BACK, &chunk)) {
        if (race->ntaken[me] < MOST) {     /* more than n: check_call() says so */
            race->taken[me][race->ntaken[me]] = chunk;
        }
        ++race->ntaken[me];
        mca_coll_shmcico_xfer_complete(view, 1, op, 0);
        sched_yield();              /* the other thread's turn, even on one CPU */
    }
    while (1 == me && mca_coll_shmcico_xfer_completed(view, 1, op) < n) {
        mca_coll_shmcico_cpu_relax();
    }
}

/* thread 1, every chunk completed: a prefix 0, 1, ... and a suffix
 * n - 1, n - 2, ... that meet */
static int check_call(const race_t *race, uint64_t n, uint64_t call)
{
    const uint64_t front = race->ntaken[1], back = race->ntaken[0];
    int ok = front + back == n;

    for (uint64_t k = 0; ok && k < front; ++k) {
        ok = race->taken[1][k] == k;
    }
    for (uint64_t k = 0; ok && k < back; ++k) {
        ok = race->taken[0][k] == n - 1 - k;
    }
    if (!ok) {
        fprintf(stderr, "call %llu: %llu chunks, %llu from the front, %llu from the back\n",
                (unsigned long long) call, (unsigned long long) n,
                (unsigned long long) front, (unsigned long long) back);
    }
    return !ok;
}

static int race_body(threads_world *w, mca_coll_shmcico_engine_t *e, void *arg)
{
    race_t *race = arg;
    int failures = 0;

    (void) w;
    for (uint64_t call = 1; call <= CALLS; ++call) {
        mca_coll_shmcico_seq_t op = op_of(&e->view, call);
        if (1 == e->rank) {
            mca_coll_shmcico_xfer_open(&e->view, 1, &op, true);
            /* release: pairs with thread 0's acquire below */
            atomic_store_explicit(&race->opened, call, memory_order_release);
        } else {
            while (atomic_load_explicit(&race->opened, memory_order_acquire) != call) {
                mca_coll_shmcico_cpu_relax();
            }
        }
        take_all(&e->view, &op, nchunks_of(call), e->rank, race);
        if (1 == e->rank) {
            /* thread 0 through with the call (acquire in _acks(), its
             * records before its acknowledgement) */
            while (mca_coll_shmcico_xfer_acks(&e->view, 1, &op) < 1) {
                mca_coll_shmcico_cpu_relax();
            }
            failures += check_call(race, nchunks_of(call), call);
            race->splits += race->ntaken[0] > 0 && race->ntaken[1] > 0;
        } else {
            mca_coll_shmcico_xfer_ack(&e->view, 1, &op);
        }
    }
    return failures;
}

static void check_threads(void)
{
    race_t race = { .opened = 0 };
    int failures = threads_run(2, 8, 2, 8192, THREADS_NO_COPIER, race_body, &race);

    CHECK(0 == failures, "%d calls whose chunks were not a prefix and a suffix", failures);
    CHECK(race.splits > 0, "in no call did both threads take chunks");
}

int main(void)
{
    check_sequential();
    check_threads();
    return unit_report("test_claims");
}
