/*
 * Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
 * $COPYRIGHT$
 *
 * Additional copyrights may follow
 *
 * $HEADER$
 */

/*
 * What the two files of test_hints share: test_hints.c has the checks
 * of the hints and main(), test_hints_modes.c the cases the suite runs
 * on their own ("test_hints own-probe", "knomial", "nearness", "watch").
 */

#ifndef HINT_CHECKS_H
#define HINT_CHECKS_H

#include <stdint.h>

#include "shmcico_test.h"

/* one Bcast of bytes: by how much served, handed over, queue and single
 * copy moved */
typedef struct th_moved {
    unsigned long long served, fallback, queue, single;
} th_moved;

/* one Bcast of bytes from root 0 on comm */
th_moved th_bcast(MPI_Comm comm, int bytes, uint64_t seed);

/* comm reports key with the value want (when: what the check is about) */
void th_expect_info(MPI_Comm comm, const char *key, const char *want, const char *when);

/* a duplicate of MPI_COMM_WORLD made with key=value and, where key2 is
 * not NULL, key2=value2; th_dup_with: key=value alone */
MPI_Comm th_dup_with2(const char *key, const char *value, const char *key2, const char *value2);
MPI_Comm th_dup_with(const char *key, const char *value);

/* MPI_Comm_set_info of key=value on comm */
void th_set_hint(MPI_Comm comm, const char *key, const char *value);

/* comm, made with shmcico_single_copy_min 1, sends 100 B blocks of an
 * Allgather by single copy where it may, and says so */
void th_expect_small_single_copy(MPI_Comm comm);

/* bytes this process wrote with streaming stores in one Gather of bytes
 * per block through the queues (checks that shmcico served it so) */
unsigned long long th_gather_streamed(MPI_Comm comm, int bytes, uint64_t seed);

/* bytes of its own block this process copied with streaming stores in
 * one call of op with blocks of bytes from root 0 */
unsigned long long th_own_streamed(st_op op, MPI_Comm comm, int bytes, uint64_t seed);

/* runs the case that argv[1] names (test_hints_modes.c), if it names
 * one: 1 where it did, 0 where the ordinary run is to follow */
int th_mode(int argc, char **argv);

#endif
