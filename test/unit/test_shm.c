/*
 * Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
 * $COPYRIGHT$
 *
 * Additional copyrights may follow
 *
 * $HEADER$
 */

/*
 * Backing files and NUMA placement:
 *  - a new file is mode 0600 even under a permissive umask, named
 *    shmcico-<16 hex digits>;
 *  - a file or symlink already present under the chosen name is never
 *    opened or followed: another name is tried (the test makes the names
 *    predictable by supplying getrandom() itself);
 *  - attaching checks identity: a symlink, another file, a file of
 *    another size or a group-readable file are refused;
 *  - reserve + map + place: every page of the block lands on the node
 *    that was asked for (move_pages), where libnuma is available;
 *  - a file whose creator died before unlinking it (old, nobody's lock)
 *    is removed by the next creation in the directory; a file its
 *    creator still holds, a new one, a symlink, and other names are not.
 */

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "coll_shmcico_shm.h"
#include "unit.h"

/* Names come from getrandom(); this one replaces the C library's so the
 * test knows which names the component will pick. */
static uint64_t next_random = 0x1111111111111111ull;

ssize_t getrandom(void *buf, size_t len, unsigned int flags)
{
    (void) flags;
    memcpy(buf, &next_random, len < sizeof(next_random) ? len : sizeof(next_random));
    next_random += 0x1111111111111111ull;
    return (ssize_t) len;
}

static char dir[] = "/dev/shm/shmcico-unit-XXXXXX";

static void path_of(char *out, size_t len, uint64_t suffix)
{
    snprintf(out, len, "%s/shmcico-%016llx", dir, (unsigned long long) suffix);
}

static void check_create_mode_and_name(void)
{
    char path[MCA_COLL_SHMCICO_PATH_MAX], expect[MCA_COLL_SHMCICO_PATH_MAX];
    mca_coll_shmcico_file_id_t id;
    struct stat st;
    int fd;
    mode_t old = umask(0);

    next_random = 0x1111111111111111ull;
    path_of(expect, sizeof(expect), next_random);
    CHECK(0 == mca_coll_shmcico_shm_create(dir, 12345, path, sizeof(path), &fd, &id),
          "create failed");
    umask(old);
    CHECK(0 == strcmp(path, expect), "name %s, expected %s", path, expect);
    CHECK(0 == fstat(fd, &st), "fstat");
    CHECK(0600 == (st.st_mode & 07777), "mode %o", st.st_mode & 07777);
    CHECK(12345 == st.st_size && id.size == 12345, "size %lld",
          (long long) st.st_size);
    CHECK(fcntl(fd, F_GETFD) & FD_CLOEXEC, "descriptor not close-on-exec");
    close(fd);
    unlink(path);
}

static void check_existing_names_skipped(void)
{
    char victim[MCA_COLL_SHMCICO_PATH_MAX], taken1[MCA_COLL_SHMCICO_PATH_MAX];
    char taken2[MCA_COLL_SHMCICO_PATH_MAX], path[MCA_COLL_SHMCICO_PATH_MAX];
    char expect[MCA_COLL_SHMCICO_PATH_MAX];
    mca_coll_shmcico_file_id_t id;
    struct stat st;
    int fd;

    /* the first name is a symlink to a victim file, the second a file */
    snprintf(victim, sizeof(victim), "%s/victim", dir);
    fd = open(victim, O_CREAT | O_WRONLY, 0644);
    CHECK(fd >= 0 && 3 == write(fd, "abc", 3), "victim");
    close(fd);
    next_random = 0x5555555555555555ull;
    path_of(taken1, sizeof(taken1), next_random);
    path_of(taken2, sizeof(taken2), next_random + 0x1111111111111111ull);
    path_of(expect, sizeof(expect), next_random + 2 * 0x1111111111111111ull);
    CHECK(0 == symlink(victim, taken1), "symlink");
    fd = open(taken2, O_CREAT | O_WRONLY, 0600);
    close(fd);

    CHECK(0 == mca_coll_shmcico_shm_create(dir, 4096, path, sizeof(path), &fd, &id),
          "create next to existing names failed");
    CHECK(0 == strcmp(path, expect), "picked %s, expected %s", path, expect);
    CHECK(0 == stat(victim, &st) && 3 == st.st_size && 0644 == (st.st_mode & 07777),
          "the symlink's target was touched");
    CHECK(0 == lstat(taken1, &st) && S_ISLNK(st.st_mode), "symlink replaced");
    CHECK(0 == stat(taken2, &st) && 0 == st.st_size, "existing file touched");
    close(fd);

    /* attaching through a symlink is refused */
    CHECK(ELOOP == mca_coll_shmcico_shm_open(taken1, &id, &fd),
          "open followed a symlink");
    unlink(path);
    unlink(taken1);
    unlink(taken2);
    unlink(victim);
}

static void check_attach_identity(void)
{
    char path[MCA_COLL_SHMCICO_PATH_MAX], other[MCA_COLL_SHMCICO_PATH_MAX];
    mca_coll_shmcico_file_id_t id, bad;
    int fd, fd2;

    CHECK(0 == mca_coll_shmcico_shm_create(dir, 8192, path, sizeof(path), &fd, &id),
          "create");
    CHECK(0 == mca_coll_shmcico_shm_open(path, &id, &fd2), "attach refused");
    close(fd2);
    bad = id;
    bad.size = 4096;
    CHECK(EPERM == mca_coll_shmcico_shm_open(path, &bad, &fd2), "wrong size accepted");
    bad = id;
    bad.ino += 1;
    CHECK(EPERM == mca_coll_shmcico_shm_open(path, &bad, &fd2), "other inode accepted");
    CHECK(0 == fchmod(fd, 0640), "chmod");
    CHECK(EPERM == mca_coll_shmcico_shm_open(path, &id, &fd2),
          "group-readable file accepted");
    snprintf(other, sizeof(other), "%s/missing", dir);
    CHECK(ENOENT == mca_coll_shmcico_shm_open(other, &id, &fd2), "missing file");
    close(fd);
    unlink(path);
}

static void check_reserve_place_and_check(void)
{
    char path[MCA_COLL_SHMCICO_PATH_MAX];
    mca_coll_shmcico_file_id_t id;
    mca_coll_shmcico_numa_info_t where;
    size_t len = 64 * 4096, pages = 0, on_node = 0;
    unsigned char *base;
    int fd;

    mca_coll_shmcico_numa_query(&where);
    CHECK(where.cpus >= 1, "no cpus");
    CHECK(where.node >= 0, "NUMA node of this process unknown");
    CHECK(0 == mca_coll_shmcico_shm_create(dir, len, path, sizeof(path), &fd, &id),
          "create");
    base = mca_coll_shmcico_shm_map(fd, len);
    CHECK(NULL != base, "map");
    if (mca_coll_shmcico_numa_can_place()) {
        CHECK(0 == mca_coll_shmcico_numa_place(base, len, where.node), "mbind");
    }
    CHECK(0 == mca_coll_shmcico_shm_reserve(fd, len), "reserve");
    if (mca_coll_shmcico_numa_can_place()) {
        CHECK(0 == mca_coll_shmcico_numa_check(base, len, where.node, &pages, &on_node),
              "move_pages");
        CHECK(64 == pages && 64 == on_node, "%zu of %zu pages on node %d",
              on_node, pages, where.node);
    } else {
        printf("test_shm: built without libnuma, placement not checked\n");
    }
    base[len - 1] = 1;              /* reserved: no SIGBUS */
    unlink(path);
    CHECK(1 == base[len - 1], "mapping lost after unlink");
    mca_coll_shmcico_shm_unmap(base, len);
    close(fd);
}

/* a file of the component's name, mode 0600, its times seconds ago */
static void plant(const char *path, time_t seconds)
{
    struct timespec when[2] = { { .tv_sec = time(NULL) - seconds },
                                { .tv_sec = time(NULL) - seconds } };
    int fd = open(path, O_CREAT | O_EXCL | O_WRONLY, 0600);

    CHECK(fd >= 0 && 0 == futimens(fd, when), "plant %s", path);
    close(fd);
}

static void check_stale_files_reaped(void)
{
    char stale[MCA_COLL_SHMCICO_PATH_MAX], fresh[MCA_COLL_SHMCICO_PATH_MAX];
    char held[MCA_COLL_SHMCICO_PATH_MAX], link[MCA_COLL_SHMCICO_PATH_MAX];
    char other[MCA_COLL_SHMCICO_PATH_MAX], path[MCA_COLL_SHMCICO_PATH_MAX];
    time_t old = MCA_COLL_SHMCICO_STALE_SECONDS + 5;
    mca_coll_shmcico_file_id_t id;
    struct stat st;
    int fd, holder;

    path_of(stale, sizeof(stale), 0xa1);
    path_of(fresh, sizeof(fresh), 0xa2);
    path_of(link, sizeof(link), 0xa3);
    snprintf(other, sizeof(other), "%s/shmcico-old", dir);
    plant(stale, old);
    plant(fresh, 0);
    plant(other, old);
    CHECK(0 == symlink(stale, link), "symlink");
    /* a creator that still holds its file, older than the threshold */
    next_random = 0x7777777777777777ull;
    CHECK(0 == mca_coll_shmcico_shm_create(dir, 4096, held, sizeof(held), &holder, &id),
          "create the held file");
    CHECK(0 == futimens(holder, (struct timespec[2]) { { .tv_sec = time(NULL) - old },
                                                       { .tv_sec = time(NULL) - old } }),
          "age the held file");

    next_random = 0x9999999999999999ull;
    CHECK(0 == mca_coll_shmcico_shm_create(dir, 4096, path, sizeof(path), &fd, &id),
          "create next to a stale file");
    CHECK(0 != stat(stale, &st) && ENOENT == errno, "the stale file was kept");
    CHECK(0 == stat(fresh, &st), "a new file was removed");
    CHECK(0 == stat(held, &st), "a file its creator holds was removed");
    CHECK(0 == lstat(link, &st) && S_ISLNK(st.st_mode), "a symlink was removed");
    CHECK(0 == stat(other, &st), "a file of another name was removed");
    close(holder);
    CHECK(1 == mca_coll_shmcico_shm_reap(dir), "the held file, released and old, "
          "is removed at the next reap (and only it)");
    CHECK(0 != stat(held, &st), "the released file was kept");
    close(fd);
    unlink(path);
    unlink(fresh);
    unlink(link);
    unlink(other);
}

int main(void)
{
    CHECK(NULL != mkdtemp(dir), "mkdtemp %s", dir);
    check_create_mode_and_name();
    check_existing_names_skipped();
    check_attach_identity();
    check_reserve_place_and_check();
    check_stale_files_reaped();
    CHECK(0 == rmdir(dir), "files left in %s", dir);
    return unit_report("test_shm");
}
