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
 * Backing files of the segments (see coll_shmcico_shm.h).
 */

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "coll_shmcico_shm.h"

#define NAME_ATTEMPTS 16

static int random_suffix(char *out, size_t len)
{
    uint64_t bits;

    if (sizeof(bits) != getrandom(&bits, sizeof(bits), 0)) {
        return errno;
    }
    snprintf(out, len, "%016llx", (unsigned long long) bits);
    return 0;
}

static void fill_id(const struct stat *st, mca_coll_shmcico_file_id_t *id)
{
    id->dev = (uint64_t) st->st_dev;
    id->ino = (uint64_t) st->st_ino;
    id->size = (uint64_t) st->st_size;
}

/* "shmcico-" and 16 hex digits, as mca_coll_shmcico_shm_create() names */
static bool is_segment_name(const char *name)
{
    if (0 != strncmp(name, "shmcico-", 8) || 24 != strlen(name)) {
        return false;
    }
    for (int i = 8; i < 24; ++i) {
        if (!isxdigit((unsigned char) name[i])) {
            return false;
        }
    }
    return true;
}

/* name under dirfd is stale: ours, not written for a while (its creator
 * locks it right after creating it), and nobody's lock on it */
static bool reap_one(int dirfd, const char *name, time_t now)
{
    struct stat st;
    bool stale;
    int fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);

    if (fd < 0) {
        return false;
    }
    stale = 0 == fstat(fd, &st) && S_ISREG(st.st_mode) && st.st_uid == geteuid()
        && now - st.st_mtime >= MCA_COLL_SHMCICO_STALE_SECONDS
        && 0 == flock(fd, LOCK_EX | LOCK_NB);
    if (stale) {
        stale = 0 == unlinkat(dirfd, name, 0);
    }
    (void) close(fd);
    return stale;
}

int mca_coll_shmcico_shm_reap(const char *dir)
{
    DIR *d = opendir(dir);
    time_t now = time(NULL);
    struct dirent *e;
    int removed = 0;

    if (NULL == d) {
        return 0;
    }
    while (NULL != (e = readdir(d))) {
        removed += is_segment_name(e->d_name) && reap_one(dirfd(d), e->d_name, now);
    }
    (void) closedir(d);
    return removed;
}

int mca_coll_shmcico_shm_create(const char *dir, size_t size, char *path,
                                size_t path_len, int *fd,
                                mca_coll_shmcico_file_id_t *id)
{
    char suffix[17];
    struct stat st;
    int err = EEXIST;

    (void) mca_coll_shmcico_shm_reap(dir);
    for (int attempt = 0; attempt < NAME_ATTEMPTS && EEXIST == err; ++attempt) {
        if (0 != (err = random_suffix(suffix, sizeof(suffix)))) {
            return err;
        }
        if ((size_t) snprintf(path, path_len, "%s/shmcico-%s", dir, suffix)
            >= path_len) {
            return ENAMETOOLONG;
        }
        *fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                   S_IRUSR | S_IWUSR);
        err = *fd < 0 ? errno : 0;
    }
    if (0 != err) {
        return err;
    }
    /* locked first: from here on no reaper takes it for stale (released
     * when the creator closes it or dies); the mode is exact whatever
     * the umask */
    if (0 != flock(*fd, LOCK_EX | LOCK_NB) || 0 != fchmod(*fd, S_IRUSR | S_IWUSR)
        || 0 != ftruncate(*fd, (off_t) size)
        || 0 != fstat(*fd, &st)) {
        err = errno;
        (void) unlink(path);
        (void) close(*fd);
        *fd = -1;
        return err;
    }
    fill_id(&st, id);
    return 0;
}

int mca_coll_shmcico_shm_reserve(int fd, size_t size)
{
    return posix_fallocate(fd, 0, (off_t) size);
}

int mca_coll_shmcico_shm_open(const char *path,
                              const mca_coll_shmcico_file_id_t *id, int *fd)
{
    mca_coll_shmcico_file_id_t found;
    struct stat st;
    int err;

    *fd = open(path, O_RDWR | O_NOFOLLOW | O_CLOEXEC);
    if (*fd < 0) {
        return errno;
    }
    if (0 != fstat(*fd, &st)) {
        err = errno;
    } else {
        fill_id(&st, &found);
        err = (S_ISREG(st.st_mode) && st.st_uid == geteuid()
               && 0 == (st.st_mode & (S_IRWXG | S_IRWXO))
               && found.dev == id->dev && found.ino == id->ino
               && found.size == id->size) ? 0 : EPERM;
    }
    if (0 != err) {
        (void) close(*fd);
        *fd = -1;
    }
    return err;
}

void *mca_coll_shmcico_shm_map(int fd, size_t size)
{
    void *base = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);

    return MAP_FAILED == base ? NULL : base;
}

void mca_coll_shmcico_shm_unmap(void *base, size_t size)
{
    if (NULL != base) {
        (void) munmap(base, size);
    }
}
