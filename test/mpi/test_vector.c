/*
 * Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
 * $COPYRIGHT$
 *
 * Additional copyrights may follow
 *
 * $HEADER$
 */

/*
 * MPI_Scatter(v), MPI_Gather(v) and MPI_Allgather(v) through coll/shmcico,
 * checked byte for byte against what MPI semantics say every buffer must
 * hold (every process computes every other's data from a seed):
 *  - block sizes 0, 1, f-1, f, f+1, bank +- 1, queue +- 1 and 2 MiB + 5
 *    (f, s, w from the component's MPI_T control variables), every root
 *    (an Allgather(v) with the same count everywhere once: it has none);
 *  - count patterns (v-variants): zeros anywhere (the root's own too), one
 *    huge block and the rest tiny, random; displacements in reverse rank
 *    order with gaps, and overlapping send blocks for Scatterv;
 *  - the datatypes of the Bcast tests, different on both sides with the
 *    same signature; MPI_IN_PLACE; the communicators of the Bcast tests;
 *  - a receiver whose count is short gets MPI_ERR_TRUNCATE and nothing
 *    is written outside its buffer; the next operation is right;
 *  - a zero-size type where one process passes a count of 0 (Open MPI
 *    skips the call there only): no hang, the others served.
 * Every call must move coll_shmcico_<op>_served by one on every rank
 * (calls MPI itself skips, such as Scatter with count 0, must not move
 * it); guard bytes and bytes outside the blocks must stay untouched.
 *
 * Usage: test_vector scatter|scatterv|gather|gatherv|allgather|allgatherv
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "typed_call.h"

static st_op op;
static const st_type *types;
static size_t f, s, w;

static int is_v(void)
{
    return ST_SCATTERV == op || ST_GATHERV == op || ST_ALLGATHERV == op;
}

static int is_allgather(void)
{
    return ST_ALLGATHER == op || ST_ALLGATHERV == op;
}

/* ---- Cases ----------------------------------------------------------- */

static void every_root(MPI_Comm comm, const char *name, const st_type *type,
                       size_t bytes, int pattern, int in_place, int overlap,
                       uint64_t seed)
{
    size_t elem = st_type_size(type->single_type);
    int p, roots, n = elem ? (int) (bytes / elem) : 1;

    MPI_Comm_size(comm, &p);
    /* an Allgather(v) has no root: where its counts do not follow the
     * root either (the same everywhere), every root would be one call */
    roots = is_allgather() && (!is_v() || TC_UNIFORM == pattern) ? 1 : p;
    for (int root = 0; root < roots; ++root) {
        tc_call c = { .op = op, .comm = comm, .comm_name = name, .type = type, .root = root,
                    .in_place = in_place, .short_rank = -1,
                    .seed = seed + (uint64_t) root };
        tc_layout(&c, p, pattern, n, overlap);
        tc_run(&c);
    }
}

static void sizes_on(MPI_Comm comm, const char *name)
{
    size_t sizes[] = { 0, 1, f - 1, f, f + 1, s / w * f - 1, s / w * f + 1,
                       s * f - 1, s * f + 1, (2 << 20) + 5 };

    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); ++i) {
        every_root(comm, name, &types[0], sizes[i], TC_UNIFORM, 0, 0, 100 + i);
    }
}

static void patterns_on(MPI_Comm comm, const char *name)
{
    size_t sizes[] = { 7, f + 1, s * f + 1 };

    for (int pattern = TC_ZEROS; is_v() && pattern < TC_NPATTERNS; ++pattern) {
        for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); ++i) {
            every_root(comm, name, &types[0], sizes[i], pattern, 0, 0,
                       200 + 10 * (uint64_t) pattern + i);
        }
    }
    if (ST_SCATTERV == op) {
        every_root(comm, name, &types[1], 4 * f + 8, TC_RANDOM, 0, 1, 250);
    }
}

static void types_on(MPI_Comm comm, const char *name)
{
    size_t sizes[] = { 1, s / w * f + 1, s * f - 1 };

    for (int t = 1; t < ST_ZERO_SIZE_TYPE; ++t) {
        for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); ++i) {
            every_root(comm, name, &types[t], sizes[i], is_v() ? TC_RANDOM : TC_UNIFORM, 0, 0,
                       300 + 10 * (uint64_t) t + i);
        }
    }
}

static void in_place_on(MPI_Comm comm, const char *name)
{
    size_t sizes[] = { 1, f + 1, s * f + 1 };

    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); ++i) {
        every_root(comm, name, &types[0], sizes[i], is_v() ? TC_ONE_HUGE : TC_UNIFORM, 1, 0,
                   400 + i);
        every_root(comm, name, &types[3], sizes[i], TC_UNIFORM, 1, 0, 410 + i);
    }
}

/* a short count: truncation where MPI puts it, nothing written outside,
 * the next operation right */
static void truncation_on(MPI_Comm comm, const char *name)
{
    size_t sizes[] = { 100, 3 * f + 5, 3 * s * f + 5 };
    int p;

    MPI_Comm_size(comm, &p);
    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); ++i) {
        for (int t = 0; t < ST_ZERO_SIZE_TYPE; t += 4) {
            for (int root = 0; root < p; root += p - 1 > 0 ? p - 1 : 1) {
                tc_call c = { .op = op, .comm = comm, .comm_name = name, .type = &types[t],
                            .root = root, .short_rank = (root + 1) % p,
                            .seed = 500 + i };
                size_t elem = st_type_size(types[t].single_type);
                /* at least two elements: with none MPI skips the root, and
                 * a short Allgather process's half would be none */
                tc_layout(&c, p, TC_UNIFORM, sizes[i] < 2 * elem ? 2 : (int) (sizes[i] / elem),
                          0);
                if (is_allgather() && 0 == c.short_rank) {
                    c.short_rank = 1;   /* rank 0's counts lead: keep them right */
                }
                tc_run(&c);
                c.short_rank = -1;
                tc_run(&c);
            }
        }
    }
}

/* a zero-size type with one process passing a count of 0: Open MPI
 * returns at that process before any component, so every other process
 * must see from its own arguments that no byte moves, and not wait or
 * fall out of step with that process */
static void empty_messages_on(MPI_Comm comm, const char *name)
{
    int p;

    MPI_Comm_size(comm, &p);
    for (int root = 0; root < p; ++root) {
        tc_call c = { .op = op, .comm = comm, .comm_name = name,
                      .type = &types[ST_ZERO_SIZE_TYPE], .root = root,
                      .short_rank = (root + 1) % p, .seed = 700 + (uint64_t) root };
        tc_layout(&c, p, TC_UNIFORM, 1, 0);
        tc_run(&c);
        c.type = &types[0];             /* and the next call is in step */
        c.short_rank = -1;
        tc_layout(&c, p, TC_UNIFORM, (int) f + 1, 0);
        tc_run(&c);
    }
}

static void interleaved(MPI_Comm a, MPI_Comm b, MPI_Comm c3)
{
    MPI_Comm comms[3] = { a, b, c3 };
    const char *names[3] = { "interleaved-a", "interleaved-b", "interleaved-c" };
    size_t sizes[] = { 1, f - 1, s / w * f + 1, s * f + 1, 100000 };
    uint64_t state = 42;

    for (int round = 0; round < 45; ++round) {
        int k = round % 3, p;
        tc_call c;
        MPI_Comm_size(comms[k], &p);
        c = (tc_call) { .op = op, .comm = comms[k], .comm_name = names[k], .type = &types[round % 2],
                      .root = (int) (st_random(&state) % (uint64_t) p),
                      .short_rank = -1, .seed = 600 + (uint64_t) round };
        tc_layout(&c, p, (int) (st_random(&state) % TC_NPATTERNS),
               (int) (sizes[st_random(&state) % 5] / st_type_size(c.type->single_type)), 0);
        tc_run(&c);
    }
}

static int parse_op(const char *name)
{
    for (int i = ST_SCATTER; i < ST_NOPS; ++i) {
        if (0 == strcmp(name, st_op_name((st_op) i))) {
            op = (st_op) i;
            return 1;
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    tc_comms comms;
    int size;

    st_init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc < 2 || !parse_op(argv[1]) || size > TC_MAXP) {
        st_fail("usage: test_vector scatter|scatterv|gather|gatherv|allgather|"
                "allgatherv (at most %d processes)", TC_MAXP);
        return st_finish("test_vector");
    }
    f = (size_t) st_cvar("fragment_size");
    s = (size_t) st_cvar("slots");
    w = (size_t) st_cvar("banks");
    types = st_types();
    tc_comms_make(&comms);

    sizes_on(MPI_COMM_WORLD, "world");
    patterns_on(MPI_COMM_WORLD, "world");
    types_on(MPI_COMM_WORLD, "world");
    in_place_on(MPI_COMM_WORLD, "world");
    truncation_on(MPI_COMM_WORLD, "world");
    empty_messages_on(MPI_COMM_WORLD, "world");
    patterns_on(comms.dup, "dup");
    if (comms.evenodd_size > 1) {
        sizes_on(comms.evenodd, "even/odd");
    }
    types_on(comms.reversed, "reversed-keys");
    in_place_on(comms.reversed, "reversed-keys");
    patterns_on(comms.shared, "split-type-shared");
    interleaved(comms.dup2, comms.dup3, comms.evenodd);

    tc_comms_free(&comms);
    return st_finish("test_vector");
}
