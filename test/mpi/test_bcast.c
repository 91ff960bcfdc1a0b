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
 *    used interleaved (at np 2 the even/odd split has one process, which
 *    the component declines: the other two are served there);
 *  - a receiver whose buffer is shorter gets MPI_ERR_TRUNCATE, nothing is
 *    written past its buffer, and the next Bcast is right;
 *  - a zero-size type where one receiver passes a count of 0 (Open MPI
 *    skips the call there only): no hang, the others served.
 * Every call must move coll_shmcico_bcast_served by one on every rank
 * (zero-count calls never reach a component and must not move it); the
 * guard bytes around every receive buffer must stay intact, and bytes
 * outside the receive type's map (holes) must stay untouched.
 *
 * Usage: test_bcast [--no-huge] [--big-fragments N]
 *   --no-huge           skips the 16 MiB case
 *   --big-fragments N   the large case (1 MiB + 13 bytes) becomes N
 *                       fragments + 13 bytes, where the fragments are
 *                       small (a queue of one 64-byte slot)
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "typed_call.h"

static const st_type *types;
static size_t f, s, w;
static int huge = 1;
static size_t big = (1 << 20) + 13;     /* the large case's bytes */

/* One Bcast of about bytes (whole elements of the receivers' type; a
 * zero-size type sends one element) from root; short_rank (not the root)
 * passes half the count, or -1. */
static void run_case(MPI_Comm comm, const char *comm_name, const st_type *type,
                     size_t bytes, int root, uint64_t seed, int short_rank)
{
    size_t elem = st_type_size(type->single_type);
    tc_call c = { .op = ST_BCAST, .comm = comm, .comm_name = comm_name, .type = type,
                  .root = root, .short_rank = short_rank, .seed = seed };

    c.counts[0] = elem ? (int) (bytes / elem) : 1;
    tc_run(&c);
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
    out[n++] = big;
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
        run_case(comm, name, type, bytes, root, seed + (uint64_t) root, -1);
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
    size_t sizes[] = { 1, f + 1, s / w * f + 1, s * f - 1, big };

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
            run_case(comm, name, &types[t], sizes[i], 0, 3000 + i, size - 1);
            run_case(comm, name, &types[t], sizes[i], size - 1, 3000 + i, -1);
        }
    }
}

/* a zero-size type with one receiver passing a count of 0: Open MPI
 * returns at that process before any component, so every other process
 * must see from its own arguments that no byte moves, and not wait or
 * fall out of step with that process */
static void empty_messages_on(MPI_Comm comm, const char *name)
{
    int size;

    MPI_Comm_size(comm, &size);
    for (int root = 0; root < size; ++root) {
        run_case(comm, name, &types[ST_ZERO_SIZE_TYPE], 0, root, 4000 + (uint64_t) root,
                 (root + 1) % size);
        run_case(comm, name, &types[0], f + 1, root, 4100 + (uint64_t) root, -1);
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
        size_t bytes = sizes[st_random(&state) % 5];
        MPI_Comm_size(comms[k], &size);
        run_case(comms[k], names[k], &types[round % 2], bytes,
                 (int) (st_random(&state) % (uint64_t) size), 5000 + (uint64_t) round, -1);
    }
}

int main(int argc, char **argv)
{
    tc_comms comms;

    st_init(&argc, &argv);
    f = (size_t) st_cvar("fragment_size");
    for (int i = 1; i < argc; ++i) {
        if (0 == strcmp(argv[i], "--no-huge")) {
            huge = 0;
        } else if (0 == strcmp(argv[i], "--big-fragments") && i + 1 < argc) {
            big = (size_t) strtoul(argv[++i], NULL, 10) * f + 13;
        }
    }
    s = (size_t) st_cvar("slots");
    w = (size_t) st_cvar("banks");
    types = st_types();
    tc_comms_make(&comms);

    sizes_on(MPI_COMM_WORLD, "world");
    types_on(MPI_COMM_WORLD, "world");
    truncation_on(MPI_COMM_WORLD, "world");
    types_on(comms.dup, "dup");
    truncation_on(comms.dup, "dup");
    empty_messages_on(comms.dup, "dup");
    /* a split with one process is not served: test only real groups */
    if (comms.evenodd_size > 1) {
        sizes_on(comms.evenodd, "even/odd");
    }
    sizes_on(comms.reversed, "reversed-keys");
    types_on(comms.reversed, "reversed-keys");
    sizes_on(comms.shared, "split-type-shared");
    interleaved(comms.dup2, comms.dup3, comms.evenodd);

    tc_comms_free(&comms);
    return st_finish("test_bcast");
}
