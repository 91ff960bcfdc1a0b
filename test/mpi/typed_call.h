/*
 * Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
 * $COPYRIGHT$
 *
 * Additional copyrights may follow
 *
 * $HEADER$
 */

/*
 * One call of a served operation with derived datatypes, checked byte for
 * byte against what MPI semantics say every buffer must hold: every
 * process computes every other's data from the call's seed, so no extra
 * communication is needed to check.  Shared by test_bcast, test_vector
 * and the soak.  typed_call.c makes and checks the call,
 * typed_call_transport.c checks which transport served it.
 */

#ifndef TYPED_CALL_H
#define TYPED_CALL_H

#include "shmcico_test.h"

#define TC_MAXP 64

/* Count patterns of the v-variants. */
enum { TC_UNIFORM, TC_ZEROS, TC_ONE_HUGE, TC_RANDOM, TC_NPATTERNS };

typedef struct tc_call {
    st_op op;
    MPI_Comm comm;
    const char *comm_name;
    const st_type *type;
    int root;
    int counts[TC_MAXP];        /* elements of every block (Bcast: [0]) */
    int displs[TC_MAXP];        /* elements, in the buffer with the blocks */
    int in_place;
    int short_rank;             /* a process with a short count, or -1 */
    uint64_t seed;
} tc_call;

/* Counts and displacements for p processes: n elements per block for the
 * regular operations, blocks one after the other; for the v-variants the
 * pattern's counts, blocks in reverse rank order with gaps, or all at 0
 * (overlap: legal for Scatterv's send blocks only). */
void tc_layout(tc_call *c, int p, int pattern, int n, int overlap);

/* Whether MPI allows the call: Open MPI returns at once at a process
 * whose counts say it moves nothing, so a short count that drops to 0
 * there while the others send it bytes leaves them waiting (an erroneous
 * program).  With a datatype of size 0 nothing moves anywhere: legal. */
int tc_legal(const tc_call *c);

/* Run the call on every process of c->comm and check everything: the
 * error (MPI_ERR_TRUNCATE exactly where a short count must get it), that
 * coll_shmcico_<op>_served moved by one unless MPI itself skips the call,
 * every byte of every buffer and their guards.  Failures are counted. */
void tc_run(const tc_call *c);

/* Between typed_call.c and typed_call_transport.c, for tc_run(): */
/* whether the operation is Allgather or Allgatherv */
int tc_is_allgather(const tc_call *c);
/* blocks in the buffer of blocks (Bcast: 1) */
int tc_nblocks(const tc_call *c, int p);
/* whether the call's result is guaranteed only where its counts are
 * wrong (an Allgather(v) across nodes with a short count, TC_MULTINODE) */
int tc_relaxed(const tc_call *c);
/* at process me after the call: the counters' increments single and
 * queue against the transport the suite set (TC_TRANSPORT) or, by
 * default, the communicator's crossover */
void tc_check_transport(const tc_call *c, int me, int p, int served, int across_nodes,
                        unsigned long long single, unsigned long long queue);

/* The communicators the Bcast and vector tests run on besides
 * MPI_COMM_WORLD, all with MPI_ERRORS_RETURN. */
typedef struct tc_comms {
    MPI_Comm dup;               /* of MPI_COMM_WORLD */
    MPI_Comm evenodd;           /* split by rank parity */
    MPI_Comm reversed;          /* split with reversed keys */
    MPI_Comm shared;            /* MPI_Comm_split_type(MPI_COMM_TYPE_SHARED) */
    MPI_Comm dup2, dup3;        /* a dup of MPI_COMM_WORLD and of reversed, with
                                   evenodd the three used interleaved */
    int evenodd_size;
} tc_comms;

void tc_comms_make(tc_comms *c);
void tc_comms_free(tc_comms *c);

#endif
