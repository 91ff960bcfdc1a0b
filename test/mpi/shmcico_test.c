/*
 * Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
 * $COPYRIGHT$
 *
 * Additional copyrights may follow
 *
 * $HEADER$
 */

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shmcico_test.h"

#define GUARD 256
#define GUARD_BYTE 0xc5
#define MAX_REPORTED 10

static int failures;
static MPI_T_pvar_session session;

void st_init(int *argc, char ***argv)
{
    int provided;

    MPI_Init(argc, argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (MPI_SUCCESS != MPI_T_init_thread(MPI_THREAD_SINGLE, &provided)
        || MPI_SUCCESS != MPI_T_pvar_session_create(&session)) {
        fprintf(stderr, "MPI_T unavailable\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
}

void st_fail(const char *fmt, ...)
{
    int rank;
    va_list ap;

    if (++failures > MAX_REPORTED) {
        return;
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    fprintf(stderr, "[rank %d] FAIL: ", rank);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

int st_failures(void)
{
    return failures;
}

/* MPI_T counters count from the moment their handle starts, so each
 * counter keeps one handle for the whole test. */
#define MAX_COUNTERS 32

static struct {
    char name[64];
    MPI_T_pvar_handle handle;
} counters[MAX_COUNTERS];
static int ncounters;

static MPI_T_pvar_handle counter_handle(const char *name)
{
    char full[128];
    int index, count;

    for (int i = 0; i < ncounters; ++i) {
        if (0 == strcmp(counters[i].name, name)) {
            return counters[i].handle;
        }
    }
    snprintf(full, sizeof(full), "coll_shmcico_%s", name);
    if (ncounters == MAX_COUNTERS
        || MPI_SUCCESS != MPI_T_pvar_get_index(full, MPI_T_PVAR_CLASS_COUNTER, &index)) {
        fprintf(stderr, "MPI_T counter %s not found: is coll/shmcico loaded?\n", full);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    snprintf(counters[ncounters].name, sizeof(counters[ncounters].name), "%s", name);
    MPI_T_pvar_handle_alloc(session, index, NULL, &counters[ncounters].handle, &count);
    return counters[ncounters++].handle;
}

int st_finish(const char *name)
{
    int rank, total = 0;

    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (0 == rank) {
        printf("%s: %s (%d failures)\n", name, total ? "FAILED" : "OK", total);
        fflush(stdout);
    }
    for (int i = 0; i < ncounters; ++i) {
        MPI_T_pvar_handle_free(session, &counters[i].handle);
    }
    MPI_T_pvar_session_free(&session);
    MPI_T_finalize();
    MPI_Finalize();
    return total ? 1 : 0;
}

unsigned long long st_counter(const char *name)
{
    unsigned long long value = 0;

    MPI_T_pvar_read(session, counter_handle(name), &value);
    return value;
}

unsigned long long st_cvar(const char *name)
{
    char full[128];
    int index, count;
    MPI_T_cvar_handle handle;
    MPI_Datatype type;
    union { int i; unsigned long ul; unsigned long long ull; } value;

    snprintf(full, sizeof(full), "coll_shmcico_%s", name);
    memset(&value, 0, sizeof(value));
    if (MPI_SUCCESS != MPI_T_cvar_get_index(full, &index)
        || MPI_SUCCESS != MPI_T_cvar_get_info(index, NULL, NULL, NULL, &type, NULL,
                                              NULL, NULL, NULL, NULL)) {
        fprintf(stderr, "MPI_T control variable %s not found\n", full);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    MPI_T_cvar_handle_alloc(index, NULL, &handle, &count);
    MPI_T_cvar_read(handle, &value);
    MPI_T_cvar_handle_free(&handle);
    if (MPI_INT == type) {
        return (unsigned long long) value.i;
    }
    return MPI_UNSIGNED_LONG == type ? value.ul : value.ull;
}

st_buf st_alloc(size_t bytes)
{
    st_buf buf;

    buf.mem = malloc(bytes + 2 * GUARD);
    if (NULL == buf.mem) {
        fprintf(stderr, "out of memory (%zu bytes)\n", bytes);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    buf.data = buf.mem + GUARD;
    buf.bytes = bytes;
    memset(buf.mem, GUARD_BYTE, GUARD);
    memset(buf.data + bytes, GUARD_BYTE, GUARD);
    return buf;
}

void st_free(st_buf *buf)
{
    free(buf->mem);
    buf->mem = buf->data = NULL;
}

int st_guards_ok(const st_buf *buf)
{
    for (size_t i = 0; i < GUARD; ++i) {
        if (buf->mem[i] != GUARD_BYTE || buf->data[buf->bytes + i] != GUARD_BYTE) {
            return 0;
        }
    }
    return 1;
}

unsigned char st_pattern(uint64_t seed, size_t i)
{
    uint64_t x = seed * 0x9e3779b97f4a7c15ull + i * 0xbf58476d1ce4e5b9ull;

    return (unsigned char) ((x >> 29) ^ (x >> 47) ^ i);
}

void st_fill(void *data, size_t bytes, uint64_t seed)
{
    for (size_t i = 0; i < bytes; ++i) {
        ((unsigned char *) data)[i] = st_pattern(seed, i);
    }
}

long st_first_wrong(const void *data, size_t bytes, uint64_t seed)
{
    for (size_t i = 0; i < bytes; ++i) {
        if (((const unsigned char *) data)[i] != st_pattern(seed, i)) {
            return (long) i;
        }
    }
    return -1;
}

uint64_t st_random(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
