/*
 * Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
 * $COPYRIGHT$
 *
 * Additional copyrights may follow
 *
 * $HEADER$
 */

/*
 * Which transport served a call of tc_run() (typed_call.c): the counters
 * coll_shmcico_<op>_single_copy and _queue against what the suite set
 * (TC_TRANSPORT) or, by default, against the crossover the communicator's
 * hints report.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "typed_call.h"

/* What the suite says of every call's transport (TC_TRANSPORT): "queue"
 * when single copy is off (every block of a served call through the
 * queues), "single" when every non-empty block of a layout worth a single
 * copy (the contiguous types, and the vector of 2 KiB pieces against
 * ints) goes by single copy (coll_shmcico_<op>_single_copy_min 1), with
 * MPI_IN_PLACE too; anything else: the default, where a block of a
 * contiguous type goes by single copy from the communicator's crossover
 * on (check_by_crossover()). */
static int transport_mode(void)
{
    const char *mode = getenv("TC_TRANSPORT");

    return NULL == mode ? 0 : 0 == strcmp(mode, "queue") ? 1 : 0 == strcmp(mode, "single") ? 2 : 0;
}

/* whether process me takes part in a non-empty block, and in an empty
 * one (an empty block is an empty fragment through the queues) */
static void blocks_of(const tc_call *c, int me, int p, int *nonempty, int *empty)
{
    *nonempty = *empty = 0;
    for (int j = 0; j < tc_nblocks(c, p); ++j) {
        int part = ST_BCAST == c->op || tc_is_allgather(c) ? 1
                 : j != c->root && (me == c->root || me == j);
        if (part) {
            *nonempty |= c->counts[j] > 0;
            *empty |= 0 == c->counts[j];
        }
    }
}

static uint64_t at_least_one(uint64_t bytes)
{
    return bytes > 0 ? bytes : 1;
}

/* The value for op of a per-operation hint in effect ("N" when every
 * operation has the same, else "op:N,..."); UINT64_MAX when info lacks
 * it. */
static uint64_t hint_for_op(MPI_Info info, const char *hint, st_op op)
{
    char value[MPI_MAX_INFO_VAL + 1] = "", key[40];
    const char *at;
    int flag = 0;

    MPI_Info_get(info, hint, MPI_MAX_INFO_VAL, value, &flag);
    snprintf(key, sizeof(key), "%s:", st_op_name(op));
    if (flag && NULL == strchr(value, ':')) {
        return strtoull(value, NULL, 10);
    }
    for (at = value; flag && NULL != (at = strstr(at, key)); ++at) {
        if (at == value || ',' == at[-1]) {
            return strtoull(at + strlen(key), NULL, 10);
        }
    }
    return UINT64_MAX;
}

/* The crossover of c's operation on c's communicator, in bytes, from the
 * hints in effect (shmcico_single_copy_min, 0 means 1;
 * shmcico_single_copy, which names the copier in use once the segment is
 * made, "off" without one; and shmcico_single_max_procs, beyond which a
 * communicator has no single copy of the operation); UINT64_MAX: none;
 * 0: not known (the communicator does not report them). */
static uint64_t crossover(const tc_call *c)
{
    char value[MPI_MAX_INFO_VAL + 1] = "";
    uint64_t from, max_procs;
    int flag = 0, p;
    MPI_Info info;

    MPI_Comm_get_info(c->comm, &info);
    MPI_Info_get(info, "shmcico_single_copy", MPI_MAX_INFO_VAL, value, &flag);
    if (!flag || 0 == strcmp(value, "off")) {
        MPI_Info_free(&info);
        return flag ? UINT64_MAX : 0;
    }
    from = hint_for_op(info, "shmcico_single_copy_min", c->op);
    max_procs = hint_for_op(info, "shmcico_single_max_procs", c->op);
    MPI_Info_free(&info);
    MPI_Comm_size(c->comm, &p);
    if (UINT64_MAX == from || UINT64_MAX == max_procs) {
        return 0;
    }
    return 0 != max_procs && (uint64_t) p > max_procs ? UINT64_MAX : at_least_one(from);
}

/* Default parameters, a contiguous type, a call on one node (not served
 * across nodes, whose node stages move other blocks), no cache probe: a
 * block goes by single copy from the crossover on, through the queues
 * below it and when empty. */
static void check_by_crossover(const tc_call *c, int me, int p, int served,
                               unsigned long long single, unsigned long long queue)
{
    uint64_t from = crossover(c), size = st_type_size(c->type->blocks_type);
    int want_single = 0, want_queue = 0;

    if (!served || 0 == from || 0 != st_cvar("cache_probe")) {
        return;
    }
    for (int j = 0; j < tc_nblocks(c, p); ++j) {
        int part = ST_BCAST == c->op || tc_is_allgather(c)
                   || (j != c->root && (me == c->root || me == j));
        uint64_t bytes = (uint64_t) c->counts[j] * size;
        want_single |= part && bytes > 0 && bytes >= from;
        want_queue |= part && (0 == bytes || bytes < from);
    }
    ST_CHECK(single == (unsigned) want_single && queue == (unsigned) want_queue,
             "%s %s %s root %d counts[0]=%d, crossover %llu: single copy +%llu queue +%llu, "
             "expected +%d +%d", st_op_name(c->op), c->comm_name, c->type->name, c->root,
             c->counts[0], (unsigned long long) from, single, queue, want_single, want_queue);
}

void tc_check_transport(const tc_call *c, int me, int p, int served, int across_nodes,
                        unsigned long long single, unsigned long long queue)
{
    int mode = transport_mode(), nonempty, empty;
    int worth = 0 == strcmp(c->type->name, "MPI_BYTE") || 0 == strcmp(c->type->name, "MPI_INT")
        || 0 == strcmp(c->type->name, "MPI_DOUBLE")
        || 0 == strcmp(c->type->name, "big-vector-vs-ints");

    blocks_of(c, me, p, &nonempty, &empty);
    if (1 == mode) {
        ST_CHECK(0 == single, "%s %s: single copy with single copy off", st_op_name(c->op),
                 c->comm_name);
        ST_CHECK(!served || c->short_rank >= 0 || queue == (unsigned) (nonempty | empty),
                 "%s %s %s root %d counts[0]=%d: queue +%llu, expected +%d", st_op_name(c->op),
                 c->comm_name, c->type->name, c->root, c->counts[0], queue, nonempty | empty);
        return;
    }
    if (0 == mode && c->short_rank < 0 && !tc_relaxed(c) && !across_nodes
        && 0 != strcmp(c->type->name, "big-vector-vs-ints") && worth) {
        check_by_crossover(c, me, p, served, single, queue);
        return;
    }
    if (2 != mode || !worth || c->short_rank >= 0) {
        return;
    }
    ST_CHECK(single == (unsigned) nonempty && queue == (unsigned) empty,
             "%s %s %s root %d counts[0]=%d: single copy +%llu queue +%llu, expected +%d +%d",
             st_op_name(c->op), c->comm_name, c->type->name, c->root, c->counts[0], single,
             queue, nonempty, empty);
}
