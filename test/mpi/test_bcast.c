/*
 * Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
 * $COPYRIGHT$
 *
 * Additional copyrights may follow
 *
 * $HEADER$
 */

/*
 * MPI_Bcast through coll/shmcico, checked byte for byte:
 *  - sizes 0, 1, 7, f-1, f, f+1, (s/w)f +- 1, sf +- 1, 1 MiB + 13, 16 MiB
 *    (f, s, w read from the component's MPI_T control variables), every
 *    root;
 *  - MPI_BYTE, MPI_INT, MPI_DOUBLE, vector, indexed, struct with holes,
 *    resized, and a receiver type different from the root's with the
 *    same signature;
 *  - MPI_COMM_WORLD, a dup, an even/odd split, a split with reversed
 *    keys, MPI_Comm_split_type(MPI_COMM_TYPE_SHARED), three communicators
 *    used interleaved;
 *  - a receiver whose buffer is shorter gets MPI_ERR_TRUNCATE, nothing is
 *    written past its buffer, and the next Bcast is right;
 * Every call must move coll_shmcico_bcast_served by one on every rank
 * (zero-count calls never reach a component and must not move it); the
 * guard bytes around every receive buffer must stay intact, and bytes
 * outside the receive type's map (holes) must stay untouched.
 *
 * Usage: test_bcast [--no-huge]   (--no-huge skips the 16 MiB case)
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shmcico_test.h"

static const st_type *types;
static size_t f, s, w;
static int huge = 1;

typedef struct bcast_case {
    MPI_Comm comm;
    const char *comm_name;
    const st_type *type;
    size_t bytes;               /* message bytes wanted (rounded down) */
    int root;
    uint64_t seed;
    int short_rank;             /* receiver with half a buffer, or -1 */
} bcast_case;

/* What a receiver's buffer must hold after the call: the root's packed
 * message unpacked over poison with the receiver's type. */
static void expected_image(const bcast_case *c, int count, unsigned char *image,
                           size_t recv_span, int recv_count)
{
    size_t root_span = st_span(c->type->blocks_type, count);
    unsigned char *root_image = malloc(root_span + 1);
    int packed_size;
    char *packed;

    st_fill(root_image, root_span, c->seed);
    packed = st_pack(root_image, count, c->type->blocks_type, &packed_size);
    st_unpack_image(packed, packed_size, image, recv_span, recv_count,
                    c->type->single_type);
    free(packed);
    free(root_image);
}

static void run_case(const bcast_case *c)
{
    int rank, size, err;
    size_t elem = st_type_size(c->type->single_type);
    int count = elem ? (int) (c->bytes / elem) : 1;
    int my_count = count;
    MPI_Datatype my_type;
    size_t span;
    st_buf buf;
    unsigned char *image;
    unsigned long long before = st_counter("bcast_served"), moved;

    MPI_Comm_rank(c->comm, &rank);
    MPI_Comm_size(c->comm, &size);
    my_type = rank == c->root ? c->type->blocks_type : c->type->single_type;
    if (rank == c->short_rank && rank != c->root) {
        my_count = count / 2;
    }
    span = st_span(my_type, my_count);
    buf = st_alloc(span);
    if (rank == c->root) {
        st_fill(buf.data, span, c->seed);
    } else {
        memset(buf.data, ST_POISON, span);
    }

    err = MPI_Bcast(buf.data, my_count, my_type, c->root, c->comm);

    moved = st_counter("bcast_served") - before;
    if (my_count < count && elem > 0) {
        int cls = MPI_SUCCESS;
        MPI_Error_class(err, &cls);
        ST_CHECK(MPI_ERR_TRUNCATE == cls, "%s %s %zu B root %d: short receiver "
                 "got error class %d, expected MPI_ERR_TRUNCATE", c->comm_name,
                 c->type->name, c->bytes, c->root, cls);
    } else {
        ST_CHECK(MPI_SUCCESS == err, "%s %s %zu B root %d: error %d",
                 c->comm_name, c->type->name, c->bytes, c->root, err);
    }
    ST_CHECK(st_guards_ok(&buf), "%s %s %zu B root %d: guard bytes overwritten",
             c->comm_name, c->type->name, c->bytes, c->root);
    /* MPI_Bcast returns before any component for count 0 or one process */
    ST_CHECK(moved == (my_count > 0 && size > 1 ? 1u : 0u),
             "%s %s %zu B root %d: bcast_served moved by %llu", c->comm_name,
             c->type->name, c->bytes, c->root, moved);
    if (rank != c->root) {
        image = malloc(span + 1);
        expected_image(c, count, image, span, my_count);
        for (size_t i = 0; i < span; ++i) {
            if (buf.data[i] != image[i]) {
                st_fail("%s %s %zu B root %d: byte %zu is %#x, expected %#x",
                        c->comm_name, c->type->name, c->bytes, c->root, i,
                        buf.data[i], image[i]);
                break;
            }
        }
        free(image);
    }
    st_free(&buf);
}

/* sizes of the list for the queue geometry in use */
static int size_list(size_t *out)
{
    int n = 0;

    out[n++] = 0;
    out[n++] = 1;
    out[n++] = 7;
    out[n++] = f - 1;
    out[n++] = f;
    out[n++] = f + 1;
    out[n++] = s / w * f - 1;
    out[n++] = s / w * f + 1;
    out[n++] = s * f - 1;
    out[n++] = s * f + 1;
    out[n++] = (1 << 20) + 13;
    if (huge) {
        out[n++] = 16 << 20;
    }
    return n;
}

static void every_root(MPI_Comm comm, const char *name, const st_type *type,
                       size_t bytes, uint64_t seed)
{
    int size;

    MPI_Comm_size(comm, &size);
    for (int root = 0; root < size; ++root) {
        bcast_case c = { comm, name, type, bytes, root, seed + (uint64_t) root, -1 };
        run_case(&c);
    }
}

/* all sizes, every root, bytes */
static void sizes_on(MPI_Comm comm, const char *name)
{
    size_t sizes[16];
    int n = size_list(sizes);

    for (int i = 0; i < n; ++i) {
        every_root(comm, name, &types[0], sizes[i], 1000 + (uint64_t) i);
    }
}

/* every type at sizes around the queue's boundaries, every root */
static void types_on(MPI_Comm comm, const char *name)
{
    size_t sizes[] = { 1, f + 1, s / w * f + 1, s * f - 1, (1 << 20) + 13 };

    for (int t = 1; t < ST_NTYPES; ++t) {
        for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); ++i) {
            size_t bytes = sizes[i] < st_type_size(types[t].single_type)
                ? st_type_size(types[t].single_type) : sizes[i];
            every_root(comm, name, &types[t], bytes, 2000 + 10 * (uint64_t) t + i);
        }
    }
}

/* short receivers: truncated, nothing written past their buffers, and
 * the protocol stays in step for the next operation */
static void truncation_on(MPI_Comm comm, const char *name)
{
    size_t sizes[] = { 100, 3 * f + 5, 3 * s * f + 5 };
    int size;

    MPI_Comm_size(comm, &size);
    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); ++i) {
        for (int t = 0; t < ST_NTYPES - 1; t += 4) {  /* bytes and indexed */
            bcast_case c = { comm, name, &types[t], sizes[i], 0, 3000 + i,
                             size - 1 };
            run_case(&c);
            c.short_rank = -1;
            c.root = size - 1;
            run_case(&c);
        }
    }
}

static void interleaved(MPI_Comm a, MPI_Comm b, MPI_Comm c)
{
    MPI_Comm comms[3] = { a, b, c };
    const char *names[3] = { "interleaved-a", "interleaved-b", "interleaved-c" };
    size_t sizes[] = { 1, f - 1, s / w * f + 1, s * f + 1, 200000 };
    uint64_t state = 42;

    for (int round = 0; round < 60; ++round) {
        int k = round % 3, size;
        bcast_case cs;
        MPI_Comm_size(comms[k], &size);
        cs = (bcast_case) { comms[k], names[k], &types[round % 2],
                            sizes[st_random(&state) % 5],
                            (int) (st_random(&state) % (uint64_t) size),
                            5000 + (uint64_t) round, -1 };
        run_case(&cs);
    }
}

int main(int argc, char **argv)
{
    MPI_Comm dup, evenodd, reversed, shared, dup2, dup3;
    int rank;

    st_init(&argc, &argv);
    huge = !(argc > 1 && 0 == strcmp(argv[1], "--no-huge"));
    f = (size_t) st_cvar("fragment_size");
    s = (size_t) st_cvar("slots");
    w = (size_t) st_cvar("banks");
    types = st_types();
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);

    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &evenodd);
    MPI_Comm_split(MPI_COMM_WORLD, 0, -rank, &reversed);
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL,
                        &shared);
    MPI_Comm_dup(MPI_COMM_WORLD, &dup2);
    MPI_Comm_dup(reversed, &dup3);
    MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(evenodd, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(reversed, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(shared, MPI_ERRORS_RETURN);

    sizes_on(MPI_COMM_WORLD, "world");
    types_on(MPI_COMM_WORLD, "world");
    truncation_on(MPI_COMM_WORLD, "world");
    types_on(dup, "dup");
    truncation_on(dup, "dup");
    /* a split with one process is not served: test only real groups */
    {
        int evenodd_size;
        MPI_Comm_size(evenodd, &evenodd_size);
        if (evenodd_size > 1) {
            sizes_on(evenodd, "even/odd");
        }
    }
    sizes_on(reversed, "reversed-keys");
    types_on(reversed, "reversed-keys");
    sizes_on(shared, "split-type-shared");
    interleaved(dup2, dup3, evenodd);

    MPI_Comm_free(&dup);
    MPI_Comm_free(&evenodd);
    MPI_Comm_free(&reversed);
    MPI_Comm_free(&shared);
    MPI_Comm_free(&dup2);
    MPI_Comm_free(&dup3);
    return st_finish("test_bcast");
}
