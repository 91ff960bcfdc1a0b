/*
 * Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
 * $COPYRIGHT$
 *
 * Additional copyrights may follow
 *
 * $HEADER$
 */

/*
 * The MPI side of the fault tests (test/faults.sh drives them):
 *   segment-file DIR [NAME...]
 *            while the job runs, every segment this process maps is a
 *            regular file of mode 0600, owned by the user and already
 *            unlinked, and DIR holds exactly the NAMEs planted there
 *            before the job (nothing of shmcico's); every operation was
 *            served (prints the mapped files);
 *   loop     runs every operation, every root, over and over, until the
 *            process is killed (prints "ready" with its pid first); fails
 *            when nobody killed it within a minute;
 *   abort    rank 1 calls MPI_Abort while every other rank waits inside
 *            a Bcast from root 1;
 *   setup    one served Bcast on a new communicator.
 *
 * Usage: test_faults segment-file DIR [NAME...] | loop | abort | setup
 */

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "shmcico_test.h"

static int rank, size;

static void run_every_operation(MPI_Comm comm, uint64_t seed)
{
    int counts[64];

    for (int i = 0; i < size; ++i) {
        counts[i] = 20000 + 1000 * i;
    }
    for (int op = 0; op < ST_NOPS; ++op) {
        int root = (int) (seed % (uint64_t) size);
        if (st_op_regular((st_op) op)) {
            for (int i = 0; i < size; ++i) {
                counts[i] = 20000;
            }
        }
        st_simple_call((st_op) op, comm, root, counts, seed + (uint64_t) op);
    }
}

static int served_calls(void)
{
    return (int) st_counter_sum("served");
}

/* check one mapping of a backing file through /proc/self/map_files */
static void check_mapping(const char *range)
{
    char link[128];
    struct stat st;

    snprintf(link, sizeof(link), "/proc/self/map_files/%s", range);
    if (0 != stat(link, &st)) {
        /* only a process without CAP_SYS_ADMIN may be refused: the suite
         * runs as root, and there it must check */
        ST_CHECK(0 != geteuid() && (EPERM == errno || EACCES == errno), "stat %s: %s", link,
                 strerror(errno));
        printf("rank %d: mode of %s not checked (%s)\n", rank, range,
               strerror(errno));
        return;
    }
    ST_CHECK(S_ISREG(st.st_mode), "%s: not a regular file", range);
    ST_CHECK(0600 == (st.st_mode & 07777), "%s: mode %o", range,
             (unsigned) (st.st_mode & 07777));
    ST_CHECK(st.st_uid == geteuid(), "%s: owned by uid %u", range,
             (unsigned) st.st_uid);
    ST_CHECK(0 == st.st_nlink, "%s: still linked (%lu links)", range,
             (unsigned long) st.st_nlink);
}

/* every mapping of a file in dir checked; returns how many files */
static int check_mappings(const char *dir)
{
    FILE *maps = fopen("/proc/self/maps", "r");
    char line[1024], range[64];
    unsigned long files[64];
    int n = 0;

    ST_CHECK(NULL != maps, "cannot read /proc/self/maps");
    while (NULL != maps && NULL != fgets(line, sizeof(line), maps)) {
        char *path = strchr(line, '/');
        if (NULL == path || 0 != strncmp(path, dir, strlen(dir))
            || '/' != path[strlen(dir)]) {
            continue;
        }
        ST_CHECK(NULL != strstr(path, "(deleted)"), "mapped file not unlinked: %s",
                 path);
        path[strcspn(path, "\n")] = '\0';
        printf("rank %d maps %s\n", rank, path);
        sscanf(line, "%63s", range);
        check_mapping(range);
        (void) st_maps_file_new(line, files, &n, 64);   /* files, not lines */
    }
    if (NULL != maps) {
        fclose(maps);
    }
    return n;
}

static int planted(const char *name, int nplanted, char **names)
{
    for (int i = 0; i < nplanted; ++i) {
        if (0 == strcmp(name, names[i])) {
            return 1;
        }
    }
    return 0;
}

/* dir holds the planted names and nothing else */
static void check_directory(const char *dir, int nplanted, char **names)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int found = 0;

    ST_CHECK(NULL != d, "cannot list %s", dir);
    while (NULL != d && NULL != (e = readdir(d))) {
        if ('.' == e->d_name[0]) {
            continue;
        }
        ST_CHECK(planted(e->d_name, nplanted, names), "%s/%s left while running",
                 dir, e->d_name);
        found += planted(e->d_name, nplanted, names);
    }
    if (NULL != d) {
        closedir(d);
    }
    ST_CHECK(found == nplanted, "%d of %d planted names still in %s", found,
             nplanted, dir);
}

static void test_segment_file(const char *dir, int nplanted, char **names)
{
    MPI_Comm dup;
    int before = served_calls(), mappings;

    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    run_every_operation(dup, 1);
    ST_CHECK(served_calls() - before == ST_NOPS, "%d of %d calls served",
             served_calls() - before, ST_NOPS);
    mappings = check_mappings(dir);
    ST_CHECK(1 == mappings, "%d mappings of files in %s, expected 1", mappings,
             dir);
    check_directory(dir, nplanted, names);
    MPI_Barrier(dup);
    MPI_Comm_free(&dup);
}

static void test_loop(void)
{
    double start = MPI_Wtime();
    int served = served_calls(), multinode = (int) st_counter_sum("multinode");

    run_every_operation(MPI_COMM_WORLD, 1);
    /* on simulated nodes, faults.sh checks that the multi-node path served */
    printf("rank %d pid %ld ready, %d served, %d across nodes\n", rank, (long) getpid(),
           served_calls() - served, (int) st_counter_sum("multinode") - multinode);
    fflush(stdout);
    for (uint64_t seed = 2; MPI_Wtime() - start < 60; ++seed) {
        run_every_operation(MPI_COMM_WORLD, seed);
    }
    st_fail("still running after 60 s: nobody killed the job");
}

/* Back-to-back Bcasts of 64 MiB by single copy: most of the time the
 * receivers copy out of the root's memory, where a kill catches them
 * (faults.sh kills the root). */
static void test_copy_loop(void)
{
    size_t bytes = (size_t) 64 << 20;
    char *data = malloc(bytes);
    unsigned long long before = st_counter("bcast_single_copy");
    double start = MPI_Wtime();

    memset(data, rank, bytes);
    MPI_Bcast(data, (int) bytes, MPI_BYTE, 0, MPI_COMM_WORLD);
    ST_CHECK(st_counter("bcast_single_copy") - before == 1,
             "the Bcast of 64 MiB went through the queues");
    /* faults.sh kills only once every rank says so */
    printf("rank %d pid %ld ready, %s\n", rank, (long) getpid(),
           st_counter("bcast_single_copy") - before == 1 ? "by single copy"
                                                          : "through the queues");
    fflush(stdout);
    while (MPI_Wtime() - start < 60) {
        MPI_Bcast(data, (int) bytes, MPI_BYTE, 0, MPI_COMM_WORLD);
    }
    st_fail("still running after 60 s: nobody killed the job");
    free(data);
}

static void test_abort(void)
{
    char data[100000];

    int served = served_calls();

    run_every_operation(MPI_COMM_WORLD, 1);
    ST_CHECK(served_calls() - served == ST_NOPS, "%d of %d calls served",
             served_calls() - served, ST_NOPS);
    if (1 == rank) {
        /* faults.sh checks that shmcico served the calls before the abort */
        printf("rank 1 pid %ld aborts after %d served calls\n", (long) getpid(),
               served_calls() - served);
        fflush(stdout);
        sleep(1);
        MPI_Abort(MPI_COMM_WORLD, 3);
    }
    MPI_Bcast(data, (int) sizeof(data), MPI_BYTE, 1, MPI_COMM_WORLD);
    st_fail("the Bcast from an aborted root returned");
}

static void test_setup(void)
{
    MPI_Comm dup;
    int before = served_calls();

    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    run_every_operation(dup, 3);
    ST_CHECK(served_calls() - before == ST_NOPS, "%d of %d calls served",
             served_calls() - before, ST_NOPS);
    MPI_Comm_free(&dup);
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";

    st_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size < 2 || size > 64) {
        st_fail("run with 2 to 64 processes");
    } else if (0 == strcmp(mode, "segment-file") && argc > 2) {
        test_segment_file(argv[2], argc - 3, argv + 3);
    } else if (0 == strcmp(mode, "loop")) {
        test_loop();
    } else if (0 == strcmp(mode, "copy-loop")) {
        test_copy_loop();
    } else if (0 == strcmp(mode, "abort")) {
        test_abort();
    } else if (0 == strcmp(mode, "setup")) {
        test_setup();
    } else {
        st_fail("usage: test_faults segment-file DIR [NAME...] | loop | copy-loop | abort "
                "| setup");
    }
    return st_finish("test_faults");
}
