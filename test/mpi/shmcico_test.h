/*
 * Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
 * $COPYRIGHT$
 *
 * Additional copyrights may follow
 *
 * $HEADER$
 */

/*
 * Helpers of the MPI tests: checks that count failures on every rank,
 * buffers with guard bytes on both sides, data patterns, and shmcico's
 * MPI_T counters, which prove which component served a call.
 */

#ifndef SHMCICO_TEST_H
#define SHMCICO_TEST_H

#include <stddef.h>
#include <stdint.h>

#include <mpi.h>

/* MPI_Init, MPI_T, MPI_ERRORS_RETURN on MPI_COMM_WORLD. */
void st_init(int *argc, char ***argv);

/* Reduce the failures of all ranks, print the verdict on rank 0,
 * finalize; returns the process's exit code. */
int st_finish(const char *name);

void st_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
#define ST_CHECK(cond, ...)                                                  \
    do {                                                                      \
        if (!(cond)) {                                                        \
            st_fail(__VA_ARGS__);                                             \
        }                                                                     \
    } while (0)

/* This rank's failures so far. */
int st_failures(void);

/* ---- MPI_T counters ---------------------------------------------- */

/* Value of the counter coll_shmcico_<name>, counted from its first read
 * in this test (MPI_T counters start at 0 with their handle); aborts the
 * test when the variable does not exist (the component is not loaded). */
unsigned long long st_counter(const char *name);

/* Value of the control variable coll_shmcico_<name> (an integer). */
unsigned long long st_cvar(const char *name);

/* ---- Buffers with guards ------------------------------------------ */

typedef struct st_buf {
    unsigned char *mem;     /* guard | data | guard */
    unsigned char *data;
    size_t bytes;
} st_buf;

st_buf st_alloc(size_t bytes);
void st_free(st_buf *buf);
/* Both guards untouched. */
int st_guards_ok(const st_buf *buf);

/* A byte pattern that depends on seed and position. */
unsigned char st_pattern(uint64_t seed, size_t i);
void st_fill(void *data, size_t bytes, uint64_t seed);
/* Index of the first byte that differs from the pattern, or -1. */
long st_first_wrong(const void *data, size_t bytes, uint64_t seed);

/* Deterministic random numbers: the same sequence on every rank. */
uint64_t st_random(uint64_t *state);

#endif
