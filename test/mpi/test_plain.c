/*
 * Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
 * $COPYRIGHT$
 *
 * Additional copyrights may follow
 *
 * $HEADER$
 */

/*
 * A plain MPI program: Bcasts of a few sizes from every root, checked,
 * then a statement about coll/shmcico, given as the argument:
 *   absent  the component is not loaded (its MPI_T counters do not exist)
 *   unused  it is loaded but served no call
 *   used    it served every call
 * Works without the test helpers' counters, which abort when the
 * component is absent.
 */

#include <stdio.h>
#include <string.h>

#include <mpi.h>

static int counter_index(const char *name, int *index)
{
    return MPI_SUCCESS == MPI_T_pvar_get_index(name, MPI_T_PVAR_CLASS_COUNTER, index);
}

int main(int argc, char **argv)
{
    const char *expect = argc > 1 ? argv[1] : "used";
    int rank, size, level, provided, index, count, failures = 0, total = 0, calls = 0;
    unsigned long long served = 0;
    MPI_T_pvar_session session;
    MPI_T_pvar_handle handle;
    int have_counter;
    static unsigned char buf[10000];    /* within the default size limits */

    MPI_Init(&argc, &argv);
    MPI_Query_thread(&level);           /* MPI_T's level becomes MPI's */
    MPI_T_init_thread(level, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    have_counter = counter_index("coll_shmcico_bcast_served", &index);
    if (have_counter) {
        MPI_T_pvar_session_create(&session);
        MPI_T_pvar_handle_alloc(session, index, NULL, &handle, &count);
    }
    for (int root = 0; root < size; ++root) {
        for (int bytes = 1; bytes <= (int) sizeof(buf); bytes *= 10) {
            for (int i = 0; i < bytes; ++i) {
                buf[i] = rank == root ? (unsigned char) (i * 7 + root) : 0;
            }
            MPI_Bcast(buf, bytes, MPI_BYTE, root, MPI_COMM_WORLD);
            ++calls;
            for (int i = 0; i < bytes; ++i) {
                if (buf[i] != (unsigned char) (i * 7 + root)) {
                    ++failures;
                    break;
                }
            }
        }
    }
    if (have_counter) {
        MPI_T_pvar_read(session, handle, &served);
        MPI_T_pvar_handle_free(session, &handle);
        MPI_T_pvar_session_free(&session);
    }
    if (0 == strcmp(expect, "absent")) {
        failures += have_counter;
    } else if (0 == strcmp(expect, "unused")) {
        failures += !have_counter || 0 != served;
    } else {
        failures += !have_counter || served != (unsigned long long) calls;
    }
    MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (0 == rank) {
        printf("test_plain (%s, shmcico %s, served %llu of %d): %s\n", expect,
               have_counter ? "loaded" : "not loaded", served, calls,
               total ? "FAILED" : "OK");
    }
    MPI_T_finalize();
    MPI_Finalize();
    return total ? 1 : 0;
}
