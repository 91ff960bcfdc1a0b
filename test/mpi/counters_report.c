/* -*- Mode: C; c-basic-offset:4 ; indent-tabs-mode:nil -*- */
/*
 * Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
 * $COPYRIGHT$
 *
 * Additional copyrights may follow
 *
 * $HEADER$
 */

/*
 * Preloaded (LD_PRELOAD) into the processes of an MPI program that knows
 * nothing of coll/shmcico, such as a test of another project's suite
 * (test/mpich-coll.sh): it says, through the component's MPI_T counters,
 * which calls coll/shmcico served and by which transport.
 *
 * After MPI_Init it opens a handle on every coll_shmcico_<op>_<what>
 * counter of the kinds below (a counter's handle counts from its
 * opening); in MPI_Finalize rank 0 of MPI_COMM_WORLD prints the sums over
 * every operation and process, one line:
 *
 *   shmcico counters: served N queue N single_copy N small N fallback N multinode N
 *
 * Without coll/shmcico loaded every sum is 0.
 */

#include <mpi.h>
#include <stdio.h>
#include <string.h>

enum { SERVED, QUEUE, SINGLE_COPY, SMALL, FALLBACK, MULTINODE, NKINDS };

static const char *const kind_names[NKINDS] = {
    "served", "queue", "single_copy", "small", "fallback", "multinode"
};

#define MAX_HANDLES 64

static MPI_T_pvar_session session;
static MPI_T_pvar_handle handles[MAX_HANDLES];
static int handle_kinds[MAX_HANDLES];
static int nhandles;
static int opened;

/* The kind of counter NAME is (coll_shmcico_<op>_<kind>), or -1. */
static int kind_of(const char *name)
{
    static const char *const ops[] = {
        "bcast", "scatter", "scatterv", "gather", "gatherv", "allgather", "allgatherv"
    };
    char full[128];

    for (size_t op = 0; op < sizeof(ops) / sizeof(ops[0]); ++op) {
        for (int kind = 0; kind < NKINDS; ++kind) {
            snprintf(full, sizeof(full), "coll_shmcico_%s_%s", ops[op], kind_names[kind]);
            if (0 == strcmp(full, name)) {
                return kind;
            }
        }
    }
    return -1;
}

static void open_counters(void)
{
    int provided, num;

    if (MPI_SUCCESS != MPI_T_init_thread(MPI_THREAD_SINGLE, &provided)) {
        return;
    }
    opened = MPI_SUCCESS == MPI_T_pvar_session_create(&session);
    if (!opened || MPI_SUCCESS != MPI_T_pvar_get_num(&num)) {
        return;
    }
    for (int i = 0; i < num && nhandles < MAX_HANDLES; ++i) {
        char name[256], desc[256];
        int name_len = sizeof(name), desc_len = sizeof(desc), verbosity, var_class, bind;
        int readonly, continuous, atomic, count, kind;
        MPI_Datatype type;
        MPI_T_enum enumtype;

        if (MPI_SUCCESS != MPI_T_pvar_get_info(i, name, &name_len, &verbosity, &var_class,
                                               &type, &enumtype, desc, &desc_len, &bind,
                                               &readonly, &continuous, &atomic)
            || MPI_T_PVAR_CLASS_COUNTER != var_class || MPI_UNSIGNED_LONG_LONG != type
            || (kind = kind_of(name)) < 0) {
            continue;
        }
        if (MPI_SUCCESS == MPI_T_pvar_handle_alloc(session, i, NULL, &handles[nhandles],
                                                   &count)) {
            handle_kinds[nhandles++] = kind;
        }
    }
}

int MPI_Init(int *argc, char ***argv)
{
    int rc = PMPI_Init(argc, argv);

    if (MPI_SUCCESS == rc) {
        open_counters();
    }
    return rc;
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    int rc = PMPI_Init_thread(argc, argv, required, provided);

    if (MPI_SUCCESS == rc) {
        open_counters();
    }
    return rc;
}

int MPI_Finalize(void)
{
    unsigned long long mine[NKINDS] = {0}, all[NKINDS] = {0};
    int rank;

    for (int i = 0; i < nhandles; ++i) {
        unsigned long long value = 0;
        MPI_T_pvar_read(session, handles[i], &value);
        mine[handle_kinds[i]] += value;
    }
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    PMPI_Reduce(mine, all, NKINDS, MPI_UNSIGNED_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (0 == rank) {
        printf("shmcico counters:");
        for (int kind = 0; kind < NKINDS; ++kind) {
            printf(" %s %llu", kind_names[kind], all[kind]);
        }
        printf("\n");
        fflush(stdout);
    }
    if (opened) {
        for (int i = 0; i < nhandles; ++i) {
            MPI_T_pvar_handle_free(session, &handles[i]);
        }
        MPI_T_pvar_session_free(&session);
        MPI_T_finalize();
    }
    return PMPI_Finalize();
}
