/*
 * Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
 * $COPYRIGHT$
 *
 * Additional copyrights may follow
 *
 * $HEADER$
 */

/*
 * Helpers of the MPI tests (shmcico_test.h), their second part: one
 * call of any operation on plain bytes with its data checked, and what
 * MPI itself decides about a call before any component sees it.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shmcico_test.h"

/* ---- Simple calls of every operation ------------------------------- */

static const char *const st_op_names[ST_NOPS] = {
    "bcast", "scatter", "scatterv", "gather", "gatherv", "allgather", "allgatherv"
};

const char *st_op_name(st_op op)
{
    return st_op_names[op];
}

unsigned long long st_op_counter(st_op op, const char *what)
{
    char name[64];

    snprintf(name, sizeof(name), "%s_%s", st_op_name(op), what);
    return st_counter(name);
}

unsigned long long st_op_cvar(st_op op, const char *what)
{
    char name[64];

    snprintf(name, sizeof(name), "%s_%s", st_op_name(op), what);
    return st_cvar(name);
}

int st_op_regular(st_op op)
{
    return ST_SCATTER == op || ST_GATHER == op || ST_ALLGATHER == op;
}

int st_skipped_by_mpi(st_op op, MPI_Comm comm, const int *counts)
{
    int rank, size, all_zero = 1;

    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    for (int i = 0; i < size; ++i) {
        all_zero &= 0 == counts[i];
    }
    if (size < 2) {
        return 1;
    }
    if (ST_BCAST == op) {
        return 0 == counts[0];
    }
    return st_op_regular(op) ? 0 == counts[rank] : ST_ALLGATHERV == op && all_zero;
}

typedef struct simple_layout {
    int size, rank;
    int displs[1024];
    size_t total;
} simple_layout;

static void simple_layout_make(simple_layout *l, MPI_Comm comm, const int *counts)
{
    MPI_Comm_rank(comm, &l->rank);
    MPI_Comm_size(comm, &l->size);
    l->total = 0;
    for (int i = 0; i < l->size; ++i) {
        l->displs[i] = (int) l->total;
        l->total += (size_t) counts[i];
    }
}

/* every block of a buffer holding all of them, each from its source */
static void simple_fill_all(unsigned char *buf, const simple_layout *l,
                            const int *counts, uint64_t seed)
{
    for (int i = 0; i < l->size; ++i) {
        st_fill(buf + l->displs[i], (size_t) counts[i], seed + (uint64_t) i);
    }
}

static void simple_check(const char *what, st_op op, const void *got, const void *want,
                         size_t bytes, const st_buf *buf)
{
    long at = st_first_diff(got, want, bytes);

    ST_CHECK(at < 0, "%s: %s byte %ld wrong", st_op_name(op), what, at);
    ST_CHECK(st_guards_ok(buf), "%s: %s guard bytes overwritten", st_op_name(op), what);
}

static int simple_rooted(st_op op, MPI_Comm comm, int root, const int *counts,
                         const simple_layout *l, uint64_t seed)
{
    int me = l->rank, err, is_root = me == root, mine = counts[me];
    st_buf all = st_alloc(is_root ? l->total : 0), one = st_alloc((size_t) mine);
    unsigned char *want = malloc(l->total + 1);

    simple_fill_all(want, l, counts, seed);
    memset(one.data, 0, (size_t) mine);
    if (ST_SCATTER == op || ST_SCATTERV == op) {
        if (is_root) {
            memcpy(all.data, want, l->total);
        }
        err = ST_SCATTER == op
            ? MPI_Scatter(all.data, mine, MPI_BYTE, one.data, mine, MPI_BYTE, root, comm)
            : MPI_Scatterv(all.data, counts, l->displs, MPI_BYTE, one.data, mine, MPI_BYTE,
                           root, comm);
        simple_check("received block", op, one.data, want + l->displs[me], (size_t) mine,
                     &one);
    } else {
        memcpy(one.data, want + l->displs[me], (size_t) mine);
        if (is_root) {
            memset(all.data, 0, l->total);
        }
        err = ST_GATHER == op
            ? MPI_Gather(one.data, mine, MPI_BYTE, all.data, mine, MPI_BYTE, root, comm)
            : MPI_Gatherv(one.data, mine, MPI_BYTE, all.data, counts, l->displs, MPI_BYTE,
                          root, comm);
        if (is_root) {
            simple_check("gathered blocks", op, all.data, want, l->total, &all);
        }
    }
    free(want);
    st_free(&all);
    st_free(&one);
    return err;
}

static int simple_allgather(st_op op, MPI_Comm comm, const int *counts,
                            const simple_layout *l, uint64_t seed)
{
    int me = l->rank, err;
    st_buf all = st_alloc(l->total), one = st_alloc((size_t) counts[me]);
    unsigned char *want = malloc(l->total + 1);

    simple_fill_all(want, l, counts, seed);
    memcpy(one.data, want + l->displs[me], (size_t) counts[me]);
    memset(all.data, 0, l->total);
    err = ST_ALLGATHER == op
        ? MPI_Allgather(one.data, counts[me], MPI_BYTE, all.data, counts[me], MPI_BYTE, comm)
        : MPI_Allgatherv(one.data, counts[me], MPI_BYTE, all.data, counts, l->displs,
                         MPI_BYTE, comm);
    simple_check("gathered blocks", op, all.data, want, l->total, &all);
    free(want);
    st_free(&all);
    st_free(&one);
    return err;
}

static int simple_bcast(MPI_Comm comm, int root, int count, int me, uint64_t seed)
{
    st_buf buf = st_alloc((size_t) count);
    unsigned char *want = malloc((size_t) count + 1);
    int err;

    st_fill(want, (size_t) count, seed);
    if (me == root) {
        memcpy(buf.data, want, (size_t) count);
    } else {
        memset(buf.data, 0, (size_t) count);
    }
    err = MPI_Bcast(buf.data, count, MPI_BYTE, root, comm);
    simple_check("message", ST_BCAST, buf.data, want, (size_t) count, &buf);
    free(want);
    st_free(&buf);
    return err;
}

int st_simple_call(st_op op, MPI_Comm comm, int root, const int *counts, uint64_t seed)
{
    simple_layout l;
    int err;

    if (ST_BCAST == op) {               /* counts[0] only */
        MPI_Comm_rank(comm, &l.rank);
        err = simple_bcast(comm, root, counts[0], l.rank, seed);
    } else {
        simple_layout_make(&l, comm, counts);
        err = ST_ALLGATHER == op || ST_ALLGATHERV == op
            ? simple_allgather(op, comm, counts, &l, seed)
            : simple_rooted(op, comm, root, counts, &l, seed);
    }
    ST_CHECK(MPI_SUCCESS == err, "%s: error %d", st_op_name(op), err);
    return err;
}
