/*
 * Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
 * $COPYRIGHT$
 *
 * Additional copyrights may follow
 *
 * $HEADER$
 */

/*
 * Reading coll/shmcico's MPI_T performance variables from a program.
 *
 * Every variable whose name starts with "coll_shmcico_" gets a handle in
 * one session; the program runs a few collectives on MPI_COMM_WORLD and
 * rank 0 prints, for each variable, its value now and how much it moved
 * during those calls (counters count from the moment their handle is
 * started, so the difference is what counts).
 *
 *   mpicc -o mpit_counters mpit_counters.c
 *   mpirun -np 4 ./mpit_counters
 *
 * Any MPI_T tool reads the same variables; this is the minimum.
 */

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PREFIX "coll_shmcico_"
#define MAX_VARS 256         /* coll/shmcico registers 70 */

typedef struct var {
    char name[128];
    MPI_T_pvar_handle handle;
    int is_counter;
    unsigned long long before;
} var;

static unsigned long long read_var(MPI_T_pvar_session session, const var *v)
{
    unsigned long long value = 0;

    MPI_T_pvar_read(session, v->handle, &value);
    return value;
}

/* handles for every coll/shmcico variable of type unsigned long long */
static int find_vars(MPI_T_pvar_session session, var *vars)
{
    int num, n = 0;

    MPI_T_pvar_get_num(&num);
    for (int i = 0; i < num && n < MAX_VARS; ++i) {
        char desc[256];
        int name_len = sizeof(vars[n].name), desc_len = sizeof(desc);
        int verbosity, var_class, bind, readonly, continuous, atomic, count;
        MPI_Datatype type;
        MPI_T_enum enumtype;

        MPI_T_pvar_get_info(i, vars[n].name, &name_len, &verbosity, &var_class, &type,
                            &enumtype, desc, &desc_len, &bind, &readonly, &continuous,
                            &atomic);
        if (0 != strncmp(vars[n].name, PREFIX, strlen(PREFIX))
            || MPI_UNSIGNED_LONG_LONG != type || MPI_T_BIND_NO_OBJECT != bind) {
            continue;
        }
        if (MPI_SUCCESS != MPI_T_pvar_handle_alloc(session, i, NULL, &vars[n].handle, &count)) {
            continue;
        }
        vars[n].is_counter = MPI_T_PVAR_CLASS_COUNTER == var_class;
        if (!continuous) {
            MPI_T_pvar_start(session, vars[n].handle);
        }
        vars[n].before = read_var(session, &vars[n]);
        ++n;
    }
    return n;
}

/* a few calls of the served operations, small enough to be served with
 * the default size limits */
static void run_collectives(int rank, int size)
{
    int data[1024], *all = malloc(sizeof(data) * (size_t) size);

    for (int i = 0; i < 1024; ++i) {
        data[i] = rank + i;
    }
    for (int round = 0; round < 10; ++round) {
        MPI_Bcast(data, 1024, MPI_INT, round % size, MPI_COMM_WORLD);
        MPI_Allgather(data, 256, MPI_INT, all, 256, MPI_INT, MPI_COMM_WORLD);
        MPI_Gather(data, 128, MPI_INT, all, 128, MPI_INT, 0, MPI_COMM_WORLD);
    }
    free(all);
}

int main(int argc, char **argv)
{
    MPI_T_pvar_session session;
    var *vars = calloc(MAX_VARS, sizeof(var));
    int level, provided, rank, size, n;

    MPI_Init(&argc, &argv);
    /* Open MPI takes MPI_T's thread level as MPI's own: ask for
     * exactly the level MPI provides */
    MPI_Query_thread(&level);
    MPI_T_init_thread(level, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_T_pvar_session_create(&session);

    n = find_vars(session, vars);
    run_collectives(rank, size);
    if (0 == rank) {
        if (0 == n) {
            printf("no " PREFIX "* variables: is coll/shmcico loaded?\n");
        }
        printf("%-36s %14s %14s\n", "variable (rank 0)", "value", "moved by 30 calls");
        for (int i = 0; i < n; ++i) {
            unsigned long long now = read_var(session, &vars[i]);
            if (vars[i].is_counter) {
                printf("%-36s %14llu %+14lld\n", vars[i].name, now,
                       (long long) (now - vars[i].before));
            } else {
                printf("%-36s %14llu %14s\n", vars[i].name, now, "(size)");
            }
        }
    }
    for (int i = 0; i < n; ++i) {
        MPI_T_pvar_handle_free(session, &vars[i].handle);
    }
    MPI_T_pvar_session_free(&session);
    MPI_T_finalize();
    MPI_Finalize();
    free(vars);
    return 0;
}
