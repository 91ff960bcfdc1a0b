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

/* The same with MPI_Init_thread(MPI_THREAD_MULTIPLE); aborts when the
 * library does not provide it. */
void st_init_threads(int *argc, char ***argv);

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

/* The sum of coll_shmcico_<op>_<what> over the operations. */
unsigned long long st_counter_sum(const char *what);

/* Current value of the MPI_T size variable coll_shmcico_<name>. */
unsigned long long st_size_variable(const char *name);

/* Value of the control variable coll_shmcico_<name> (an integer). */
unsigned long long st_cvar(const char *name);

/* The value of key in what MPI_Comm_get_info reports for comm, into
 * value (MPI_MAX_INFO_VAL + 1 bytes; "" where not set); whether set. */
int st_info(MPI_Comm comm, const char *key, char *value);

/* Whether shmcico serves comm: it has two processes or more, and, when
 * it spans nodes, some node holds two of them (a communicator of one
 * process per node stays with the previous component).  Collective over
 * comm the first time, then cached on it. */
int st_served_here(MPI_Comm comm);

/* Make malloc() of the component fail from bytes on (0: never), through
 * test/mpi/fault_malloc.c; 0 where that library is not preloaded. */
int st_fault_malloc_from(size_t bytes);

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
/** Add the file of one line of /proc/self/maps to files[0 .. *n - 1]
 *  (its inode; at most max): a segment mapped once can show as several
 *  lines where mbind() gave its parts different NUMA policies.  Returns
 *  whether it was new. */
int st_maps_file_new(const char *line, unsigned long *files, int *n, int max);
/* Segments this process has mapped (files, at most max, of
 *  /proc/self/maps named like the component's backing files). */
int st_segment_mappings(int max);
void st_fill(void *data, size_t bytes, uint64_t seed);
/* Index of the first byte that differs from the pattern, or -1. */
long st_first_wrong(const void *data, size_t bytes, uint64_t seed);

/* Deterministic random numbers: the same sequence on every rank. */
uint64_t st_random(uint64_t *state);

/* ---- Datatypes ------------------------------------------------------ */

/* A pair of datatypes with the same type signature: one for the side
 * with one buffer per process (Bcast's root, Scatter's root, Gather's
 * root and Allgather's receive buffer), one for the other side. */
typedef struct st_type {
    const char *name;
    MPI_Datatype blocks_type;
    MPI_Datatype single_type;
} st_type;

#define ST_NTYPES 10
#define ST_ZERO_SIZE_TYPE 9     /* index of the zero-size type */
#define ST_POISON 0x5a

/* MPI_BYTE, MPI_INT, MPI_DOUBLE, vector, indexed, struct with holes,
 * resized, six ints against an indexed type of six ints, a vector of
 * three 2 KiB blocks against 1536 ints (pieces large enough for single
 * copy), and a type of size 0; returns the table. */
const st_type *st_types(void);

size_t st_type_size(MPI_Datatype type);

/* Bytes from a buffer's start to the end of count elements. */
size_t st_span(MPI_Datatype type, int count);

/* Pack count elements of type at buf into a new buffer (*size bytes). */
char *st_pack(const void *buf, int count, MPI_Datatype type, int *size);

/* Unpack up to count elements of type from packed into dest (bytes
 * outside the type map are left alone). */
void st_unpack_into(const char *packed, int packed_size, void *dest, int count,
                    MPI_Datatype type);

/* The same into image, first filled with ST_POISON over span bytes: what
 * a receive buffer must hold after receiving that message. */
void st_unpack_image(const char *packed, int packed_size, void *image, size_t span,
                     int count, MPI_Datatype type);

/* Index of the first byte where a and b differ, or -1. */
long st_first_diff(const void *a, const void *b, size_t bytes);

/* ---- Simple calls of every operation ------------------------------- */

typedef enum {
    ST_BCAST, ST_SCATTER, ST_SCATTERV, ST_GATHER, ST_GATHERV, ST_ALLGATHER,
    ST_ALLGATHERV, ST_NOPS
} st_op;

const char *st_op_name(st_op op);

/* st_counter() of coll_shmcico_<op>_<what> (what: served, queue, ...) */
unsigned long long st_op_counter(st_op op, const char *what);

/* st_cvar() of coll_shmcico_<op>_<what> (what: single_copy_min, ...) */
unsigned long long st_op_cvar(st_op op, const char *what);

/* Whether coll_shmcico_<op>_single_copy_max_procs lets op's blocks go by
 * single copy on a communicator of procs processes (0: no limit). */
int st_single_copy_procs_ok(st_op op, int procs);

/* op's single-copy crossover on a communicator of procs processes, as
 * the parameters make it: coll_shmcico_<op>_single_copy_min, for a Bcast
 * of 3 or more processes at least coll_shmcico_bcast_readers_single_copy_min,
 * and where the processes are near (near) and at most 4, at least
 * coll_shmcico_near_single_copy_min and, for the operations with one
 * writer and one reader per block (all but Allgather(v)), past the bytes
 * of a bank's slots (coll_shmcico_slots / coll_shmcico_banks fragments),
 * for Allgather(v) no more than those bytes. */
unsigned long long st_single_min(st_op op, int procs, int near);

/* The largest block of op that its sender probes on a communicator of
 * procs processes, where the probe of blocks sent is on (as with
 * coll_shmcico_cache_probe_ns set): coll_shmcico_<op>_cache_probe_max,
 * and for a Bcast of 3 or more processes at least
 * coll_shmcico_bcast_readers_cache_probe_max. */
unsigned long long st_probe_max(st_op op, int procs);

/* Whether op takes one count for every process. */
int st_op_regular(st_op op);

/* One call of op on comm with MPI_BYTE, every byte and guard checked
 * (failures are counted): process i's block has counts[i] bytes, packed
 * in rank order (Bcast: counts[0] bytes from root).  Regular operations
 * need equal counts.  Returns the MPI result. */
int st_simple_call(st_op op, MPI_Comm comm, int root, const int *counts, uint64_t seed);

/* Whether MPI itself returns before reaching a component for this call
 * at this process (zero counts, one process). */
int st_skipped_by_mpi(st_op op, MPI_Comm comm, const int *counts);

#endif
