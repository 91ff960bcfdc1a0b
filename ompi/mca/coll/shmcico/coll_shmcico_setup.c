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
 * Creation of a communicator's segment: the four steps of
 * coll_shmcico_setup.h over the PML.
 */

#include "ompi_config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ompi/mca/coll/base/coll_tags.h"
#include "ompi/mca/pml/pml.h"
#include "opal/runtime/opal_progress.h"

#include "coll_shmcico.h"
#include "coll_shmcico_choice.h"
#include "coll_shmcico_keep.h"
#include "coll_shmcico_setup.h"
#include "coll_shmcico_shm.h"

/* The setup runs inside a blocking collective call of this component,
 * and blocking collectives on a communicator never overlap, so reusing
 * the barrier tag cannot mix these messages with another operation's:
 * MPI's non-overtaking order keeps them apart. */
#define SETUP_TAG MCA_COLL_BASE_TAG_BARRIER

static void progress(void)
{
    (void) opal_progress();
}

/* ------------------------------------------------------------------ */
/* Messages                                                             */

int mca_coll_shmcico_setup_send(setup_t *s, const void *buf, size_t len, int dest)
{
    return MCA_PML_CALL(send((void *) buf, (int) len, MPI_BYTE, dest, SETUP_TAG,
                             MCA_PML_BASE_SEND_STANDARD, s->comm));
}

int mca_coll_shmcico_setup_recv(setup_t *s, void *buf, size_t len, int source)
{
    return MCA_PML_CALL(recv(buf, (int) len, MPI_BYTE, source, SETUP_TAG,
                             s->comm, MPI_STATUS_IGNORE));
}

/* ------------------------------------------------------------------ */
/* Rank 0                                                               */

static void place_blocks(setup_t *s, const int32_t *numa)
{
    mca_coll_shmcico_view_t view;

    if (!mca_coll_shmcico_component.numa || !mca_coll_shmcico_numa_can_place()) {
        return;
    }
    view.base = s->base;
    view.layout = s->layout;
    (void) mca_coll_shmcico_numa_place(s->base, s->layout.procs_offset, numa[0]);
    for (int i = 0; i < s->size; ++i) {
        (void) mca_coll_shmcico_numa_place(mca_coll_shmcico_proc_block(&view, i),
                                           s->layout.proc_stride, numa[i]);
    }
}

/* create, place, reserve and format the segment; 0 or errno */
static int create_segment(setup_t *s, const int32_t *numa)
{
    setup_offer_t *o = &s->offer;
    const char *dir = mca_coll_shmcico_component.backing_dir;
    int fd, err;

    /* no directory: its name could not be kept (params_check()) */
    err = NULL == dir ? ENOMEM
        : mca_coll_shmcico_shm_create(dir, s->layout.segment_size, o->path, sizeof(o->path),
                                      &fd, &o->id);
    if (0 != err) {
        o->path[0] = '\0';
        return err;
    }
    /* The file lives only until every rank attached (about 100 us);
     * should this process die in that window, its lock goes with it and
     * the next segment made in the directory removes the file
     * (shm_reap(); docs/reliability.md, "The backing file"). */
    s->lock_fd = fd;
    s->base = mca_coll_shmcico_shm_map(fd, s->layout.segment_size);
    if (NULL == s->base) {
        err = errno;
    } else {
        place_blocks(s, numa);
        err = mca_coll_shmcico_shm_reserve(fd, s->layout.segment_size);
    }
    if (0 == err) {
        mca_coll_shmcico_view_t view;
        mca_coll_shmcico_segment_format(s->base, &s->layout, numa);
        (void) mca_coll_shmcico_view_init(&view, s->base, &s->layout);
        mca_coll_shmcico_segment_identify(&view, 0, (int32_t) getpid());
    }
    return err;
}

static void fill_offer(setup_t *s)
{
    memset(&s->offer, 0, sizeof(s->offer));
    s->offer.params = s->module->params;
}

/* Status codes of the setup are errno values; this one, outside their
 * range, stands for the memory limit of coll_shmcico_max_memory (a real
 * EDQUOT from a backing directory with quotas is its own). */
#define OVER_MEMORY_LIMIT (-1)

/* A rank without a copy of the kept segment that rank 0 offered; like
 * OVER_MEMORY_LIMIT, outside errno's range. */
#define NOT_KEPT (-2)

/* The segment's layout from the offer's parameters */
static int plan_layout(setup_t *s)
{
    return 0 == mca_coll_shmcico_layout_init(&s->layout, (size_t) getpagesize(),
                                             (uint32_t) s->size,
                                             (uint32_t) s->offer.params.slots,
                                             (uint32_t) s->offer.params.banks,
                                             (size_t) s->offer.params.fragment_size)
        ? 0 : EINVAL;
}

/* A new segment's bytes taken from the memory budget (every rank, before
 * it makes or maps the file) */
static int reserve(setup_t *s)
{
    if (!mca_coll_shmcico_keep_reserve(s->layout.segment_size)) {
        return OVER_MEMORY_LIMIT;
    }
    s->reserved = s->layout.segment_size;
    return 0;
}

/* Rank 0: a kept segment of these processes with this layout and NUMA
 * nodes, offered instead of a new one */
static bool take_kept(setup_t *s, const int32_t *numa)
{
    mca_coll_shmcico_keep_want_t want = { .comm = s->comm, .layout = &s->layout,
                                          .numa = numa };

    if (!s->may_take || NULL == (s->kept = mca_coll_shmcico_keep_take(&want))) {
        return false;
    }
    s->base = s->kept->base;
    s->offer.kept = 1;
    s->offer.id = s->kept->id;
    s->offer.last = s->kept->last;
    (void) snprintf(s->offer.path, sizeof(s->offer.path), "%s", s->kept->path);
    return true;
}

/* Every other rank: its copy of the kept segment rank 0 offered */
static int take_offered(setup_t *s)
{
    mca_coll_shmcico_keep_want_t want = { .comm = s->comm, .layout = &s->layout,
                                          .path = s->offer.path, .id = &s->offer.id,
                                          .last = &s->offer.last };

    s->kept = mca_coll_shmcico_keep_take(&want);
    if (NULL == s->kept) {
        return NOT_KEPT;
    }
    s->base = s->kept->base;
    return 0;
}

static int offer_segment(setup_t *s)
{
    int32_t *numa = malloc(s->size * sizeof(int32_t));
    int err = NULL == numa ? ENOMEM : 0;

    for (int i = 1; i < s->size; ++i) {
        setup_hello_t hello = { .node = -1 };
        if (OMPI_SUCCESS != mca_coll_shmcico_setup_recv(s, &hello, sizeof(hello), i)) {
            err = EIO;
        }
        if (NULL != numa) {
            numa[i] = hello.node;
        }
        s->may_take = s->may_take && hello.keeps;   /* else it would have no copy */
    }
    fill_offer(s);
    if (0 == err) {
        numa[0] = s->where.node;
        err = plan_layout(s);
    }
    if (0 == err && !take_kept(s, numa)) {
        err = reserve(s);
        if (0 == err) {
            err = create_segment(s, numa);
        }
    }
    s->offer.measure = 0 == err && MCA_COLL_SHMCICO_NEARNESS_AUTO == s->offer.params.nearness
                       && !mca_coll_shmcico_setup_crowded(s)
                       && 0 != mca_coll_shmcico_memory_ns();    /* else nothing to compare */
    free(numa);
    s->offer.status = err;
    for (int i = 1; i < s->size; ++i) {
        (void) mca_coll_shmcico_setup_send(s, &s->offer, sizeof(s->offer), i);
    }
    return err;
}

static void print_placement(setup_t *s, uint64_t pages, uint64_t local,
                            int bound)
{
    if (!mca_coll_shmcico_numa_can_place()) {
        MCA_COLL_SHMCICO_VERBOSE(MCA_COLL_SHMCICO_VERBOSE_COMM,
                                 MCA_COLL_SHMCICO_COMM_FMT "NUMA placement not "
                                 "available (%s): queues are where rank 0 "
                                 "allocated them",
                                 MCA_COLL_SHMCICO_COMM_ARGS(s->comm),
                                 COLL_SHMCICO_HAVE_LIBNUMA ? "kernel without NUMA policies"
                                                           : "built without libnuma");
        return;
    }
    MCA_COLL_SHMCICO_VERBOSE(MCA_COLL_SHMCICO_VERBOSE_COMM,
                             MCA_COLL_SHMCICO_COMM_FMT "NUMA placement %s: "
                             "%llu of %llu queue pages on their owner's node "
                             "(move_pages, or a machine of one node), %d of %d "
                             "processes bound inside one NUMA node",
                             MCA_COLL_SHMCICO_COMM_ARGS(s->comm),
                             mca_coll_shmcico_component.numa ? "on" : "off",
                             (unsigned long long) local,
                             (unsigned long long) pages, bound, s->size);
}

/* collect the reports (reading every rank's probe word after its
 * report) into the verdict's status and single copy; a new segment
 * that not every rank attached fails */
static void collect_reports(setup_t *s, setup_verdict_t *verdict)
{
    uint64_t pages = s->report.pages, local = s->report.pages_local;
    int bound = s->report.bound;
    uint32_t *ratios = calloc((size_t) s->size, sizeof(*ratios));  /* NULL: rank 0's */

    for (int i = 1; i < s->size; ++i) {
        setup_report_t r = { .status = EIO };
        if (OMPI_SUCCESS != mca_coll_shmcico_setup_recv(s, &r, sizeof(r), i)) {
            r.status = EIO;
        }
        if (NULL != ratios) {
            ratios[i] = r.kernel_ratio;
        }
        if (0 == verdict->status) {
            verdict->status = r.status;
        }
        verdict->single &= 0 == r.status && r.single
                           && mca_coll_shmcico_copy_probe(s->module, i);
        pages += r.pages;
        local += r.pages_local;
        bound += r.bound;
    }
    if (NULL != ratios) {
        ratios[0] = s->report.kernel_ratio;
    }
    mca_coll_shmcico_setup_judge_kernel(ratios, s->size, verdict);
    free(ratios);
    if (0 == verdict->status && !s->offer.kept
        && atomic_load(&((mca_coll_shmcico_header_t *) s->base)->attached)
           != (uint32_t) s->size) {
        verdict->status = EPROTO;
    }
    if (0 == verdict->status && !s->offer.kept) {
        print_placement(s, pages, local, bound);
    }
}

/* Step 3b: the slowest trip of a line between rank 0 and the others
 * (MCA_COLL_SHMCICO_TRIP_UNKNOWN: not timed, or one timed out); every
 * rank gets its word whether it plays or not.  None plays where the
 * setup fails already, or once one trip makes them far. */
static uint64_t time_trips(setup_t *s, const setup_verdict_t *verdict)
{
    uint64_t slowest = s->offer.measure ? 0 : MCA_COLL_SHMCICO_TRIP_UNKNOWN;

    for (int i = 1; s->offer.measure && i < s->size; ++i) {
        bool plays = 0 == verdict->status
                     && mca_coll_shmcico_near(slowest, mca_coll_shmcico_memory_ns());
        uint64_t trip = mca_coll_shmcico_setup_time_trip(s, i, plays);
        slowest = plays && trip > slowest ? trip : slowest;
    }
    return slowest;
}

/* the reports, then the file unlinked (every rank has attached or given
 * up: it need not wait for the trips), the trips, the decision */
static setup_verdict_t judge(setup_t *s)
{
    setup_verdict_t verdict = { .status = s->report.status, .single = s->report.single };
    uint64_t slowest;

    collect_reports(s, &verdict);
    if ('\0' != s->offer.path[0] && !s->offer.kept) {
        (void) unlink(s->offer.path);
    }
    if (s->lock_fd >= 0) {
        (void) close(s->lock_fd);       /* and its lock, once unlinked */
    }
    slowest = time_trips(s, &verdict);
    if (0 == verdict.status) {
        mca_coll_shmcico_setup_decide_near(s, slowest, &verdict);
    }
    return verdict;
}

/* ------------------------------------------------------------------ */
/* Every rank                                                           */

static int attach_segment(setup_t *s)
{
    int fd, err;

    if (0 != (err = plan_layout(s))) {
        return err;
    }
    if (s->offer.kept) {
        return take_offered(s);
    }
    if (0 != (err = reserve(s))
        || 0 != (err = mca_coll_shmcico_shm_open(s->offer.path, &s->offer.id, &fd))) {
        return err;
    }
    s->base = mca_coll_shmcico_shm_map(fd, s->layout.segment_size);
    err = NULL == s->base ? errno : 0;
    (void) close(fd);
    return err;
}

/* the engine, tree, copier and scratch space of this process */
static int build_local_state(setup_t *s)
{
    mca_coll_shmcico_module_t *m = s->module;
    mca_coll_shmcico_copier_t none = { .copy = NULL };
    mca_coll_shmcico_waiter_t waiter = {
        .progress = progress,
        .spins_per_progress = 64,
        .yield = mca_coll_shmcico_setup_crowded(s)
    };

    m->params = s->offer.params;
    m->params.tree_degree = mca_coll_shmcico_tree_degree_for(m->params.tree,
                                                             m->params.tree_degree);
    if (0 != mca_coll_shmcico_engine_init(&m->engine, s->base, &s->layout,
                                          s->rank, &waiter, &none)) {
        return EPROTO;
    }
    if (s->offer.kept) {
        m->engine.last = s->offer.last;     /* its calls go on numbering */
    }
    mca_coll_shmcico_segment_identify(&m->engine.view, s->rank, (int32_t) getpid());
    mca_coll_shmcico_copy_open(m, s->comm, &s->no_single);
    if (0 != mca_coll_shmcico_module_alloc_scratch(m, s->size)
        || 0 != mca_coll_shmcico_tree_init(&m->tree, m->params.tree,
                                           m->params.tree_degree, s->size,
                                           m->engine.view.numa)
        || 0 != mca_coll_shmcico_place_init(&m->bcast_place, s->size)) {
        return ENOMEM;
    }
    if (!s->offer.kept) {
        atomic_fetch_add(&m->engine.view.header->attached, 1);
    }
    return 0;
}

static void check_placement(setup_t *s)
{
    mca_coll_shmcico_component_t *c = &mca_coll_shmcico_component;
    mca_coll_shmcico_view_t *view = &s->module->engine.view;
    size_t pages = 0, local = 0;

    s->report.bound = s->where.bound;
    if (0 != mca_coll_shmcico_numa_check(mca_coll_shmcico_proc_block(view, s->rank),
                                         s->layout.proc_stride, s->where.node,
                                         &pages, &local)) {
        return;
    }
    s->report.pages = pages;
    s->report.pages_local = local;
    mca_coll_shmcico_count(&c->numa_pages_local, local);
    mca_coll_shmcico_count(&c->numa_pages_remote, pages - local);
    if (local != pages && c->numa) {
        MCA_COLL_SHMCICO_VERBOSE(MCA_COLL_SHMCICO_VERBOSE_WARN,
                                 MCA_COLL_SHMCICO_COMM_FMT "rank %d: only %zu of "
                                 "%zu queue pages on its NUMA node %d",
                                 MCA_COLL_SHMCICO_COMM_ARGS(s->comm), s->rank,
                                 local, pages, s->where.node);
    }
}

static void attach_and_report(setup_t *s)
{
    int err = s->offer.status;

    if (0 == err && 0 != s->rank) {
        err = attach_segment(s);
    }
    if (0 == err) {
        err = build_local_state(s);
    }
    if (0 == err) {
        if (!s->offer.kept) {
            check_placement(s);
        }
        /* rank 0 wrote its id line before the offer (or when the kept
         * segment was made) */
        s->report.single = 0 == s->rank
            ? NULL != s->module->engine.copier.copy
            : mca_coll_shmcico_copy_probe(s->module, 0);
    }
    s->report.status = err;
    s->report.kernel_ratio = mca_coll_shmcico_component.kernel_ratio;
    if (0 != s->rank) {
        (void) mca_coll_shmcico_setup_send(s, &s->report, sizeof(s->report), 0);
        if (s->offer.measure) {
            mca_coll_shmcico_setup_return_trips(s);
        }
    }
}

static const char *failure_reason(int32_t verdict)
{
    return OVER_MEMORY_LIMIT == verdict ? "over coll_shmcico_max_memory"
                                        : strerror(verdict);
}

/* single copy on the communicator, as the verdict says */
static void settle_single_copy(setup_t *s, const setup_verdict_t *verdict)
{
    mca_coll_shmcico_module_t *m = s->module;
    mca_coll_shmcico_component_t *c = &mca_coll_shmcico_component;

    if (verdict->single) {
        mca_coll_shmcico_count(&c->single_copy_comms, 1);
        return;
    }
    if (MCA_COLL_SHMCICO_SINGLE_OFF != m->copy.mode) {
        s->no_single = "refused by the system (ptrace permissions: Yama ptrace_scope, "
                       "seccomp, other users, processes that are not dumpable)";
        mca_coll_shmcico_count(&c->single_copy_refused, 1);
    }
    mca_coll_shmcico_copy_close(m);
}

/* Give up this process's part of a segment that will not serve: a kept
 * segment is dropped (a rank without a copy of it means no process can
 * take it over), a new one unmapped and its reservation given back. */
static void abandon(setup_t *s)
{
    mca_coll_shmcico_module_t *m = s->module;

    if (NULL != s->kept) {
        /* before the messages of the next setup: whoever frees the
         * communicator that uses it later drops its copy */
        mca_coll_shmcico_keep_retire(s->kept);
        mca_coll_shmcico_keep_drop(s->kept);    /* unmapped, its bytes given back */
        s->kept = NULL;
        s->base = NULL;
    }
    m->engine.view.base = s->base;
    m->engine.view.layout = s->layout;
    mca_coll_shmcico_segment_release(m);
    /* the reservation of reserve(), taken if this process got that far */
    mca_coll_shmcico_keep_unreserve(s->reserved);
    s->reserved = 0;
}

static void finish(setup_t *s, const setup_verdict_t *verdict)
{
    mca_coll_shmcico_module_t *m = s->module;

    if (0 == verdict->status) {
        m->state = MCA_COLL_SHMCICO_SEGMENT_READY;
        m->near = 0 != verdict->near;
        mca_coll_shmcico_setup_watch(s, verdict);
        settle_single_copy(s, verdict);
        mca_coll_shmcico_setup_print_nearness(s, verdict);
        mca_coll_shmcico_setup_settle_kernel(s, verdict);
        /* segment_bytes holds it since reserve(), or since the freed
         * communicator that kept it reserved it */
        m->kept = NULL != s->kept ? s->kept
                  : mca_coll_shmcico_keep_new(s->comm, &s->offer.id, s->offer.path);
        mca_coll_shmcico_count(NULL != s->kept ? &mca_coll_shmcico_component.segments_reused
                               : &mca_coll_shmcico_component.segments_created, 1);
        MCA_COLL_SHMCICO_VERBOSE(MCA_COLL_SHMCICO_VERBOSE_COMM,
                                 MCA_COLL_SHMCICO_COMM_FMT "%s segment of %zu bytes "
                                 "(s=%d f=%zu w=%d, tree %s/%d), rank %d on "
                                 "NUMA node %d, single copy %s%s%s",
                                 MCA_COLL_SHMCICO_COMM_ARGS(s->comm),
                                 NULL != s->kept ? "kept" : "new",
                                 s->layout.segment_size, (int) m->params.slots,
                                 (size_t) m->params.fragment_size, (int) m->params.banks,
                                 mca_coll_shmcico_tree_name(m->params.tree),
                                 (int) m->params.tree_degree, s->rank, s->where.node,
                                 mca_coll_shmcico_single_names[m->copy.mode],
                                 NULL != s->no_single ? ": " : "",
                                 NULL != s->no_single ? s->no_single : "");
        return;
    }
    abandon(s);
    m->state = MCA_COLL_SHMCICO_SEGMENT_FAILED;
    mca_coll_shmcico_count(&mca_coll_shmcico_component.segments_failed, 1);
    /* one warning per communicator, from rank 0; the others at level 10 */
    MCA_COLL_SHMCICO_VERBOSE(0 == s->rank ? MCA_COLL_SHMCICO_VERBOSE_WARN
                                          : MCA_COLL_SHMCICO_VERBOSE_COMM,
                             MCA_COLL_SHMCICO_COMM_FMT "no shared segment (%s%s%s), "
                             "every call falls back to the previous component",
                             MCA_COLL_SHMCICO_COMM_ARGS(s->comm),
                             failure_reason(verdict->status), 0 == s->rank ? " in " : "",
                             0 == s->rank && NULL != mca_coll_shmcico_component.backing_dir
                             ? mca_coll_shmcico_component.backing_dir : "");
}

/* the four steps (coll_shmcico_setup.h); every rank's verdict */
static setup_verdict_t run_steps(setup_t *s)
{
    setup_verdict_t verdict = { .status = EIO };

    if (0 == s->rank) {
        (void) offer_segment(s);
    } else {
        setup_hello_t hello = { .node = s->where.node,
                                .keeps = mca_coll_shmcico_component.keep_segments > 0 };
        (void) mca_coll_shmcico_setup_send(s, &hello, sizeof(hello), 0);
        s->offer.status = EIO;
        (void) mca_coll_shmcico_setup_recv(s, &s->offer, sizeof(s->offer), 0);
        s->offer.path[sizeof(s->offer.path) - 1] = '\0';
    }
    attach_and_report(s);
    if (0 == s->rank) {
        verdict = judge(s);
        for (int i = 1; i < s->size; ++i) {
            (void) mca_coll_shmcico_setup_send(s, &verdict, sizeof(verdict), i);
        }
    } else {
        (void) mca_coll_shmcico_setup_recv(s, &verdict, sizeof(verdict), 0);
    }
    return verdict;
}

bool mca_coll_shmcico_segment_setup(mca_coll_shmcico_module_t *module,
                                    struct ompi_communicator_t *comm)
{
    setup_t s = { .comm = comm, .module = module, .lock_fd = -1,
                  .rank = ompi_comm_rank(comm), .size = ompi_comm_size(comm),
                  .may_take = true };
    setup_verdict_t verdict;

    mca_coll_shmcico_numa_query(&s.where);
    verdict = run_steps(&s);
    if (NOT_KEPT == verdict.status) {
        /* a rank had no copy of the kept segment: a new one, once */
        abandon(&s);
        s = (setup_t) { .comm = comm, .module = module, .lock_fd = -1, .rank = s.rank,
                        .size = s.size, .where = s.where, .may_take = false };
        verdict = run_steps(&s);
    }
    finish(&s, &verdict);
    /* rank 0's values and the single copy that works are in effect now */
    mca_coll_shmcico_hints_publish(module, comm);
    return MCA_COLL_SHMCICO_SEGMENT_READY == module->state;
}
