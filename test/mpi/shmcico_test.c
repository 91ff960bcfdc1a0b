/*
 * Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
 * $COPYRIGHT$
 *
 * Additional copyrights may follow
 *
 * $HEADER$
 */

#define _GNU_SOURCE            /* RTLD_DEFAULT */
#include <stdarg.h>
#include <stdatomic.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shmcico_test.h"

#define GUARD 256
#define GUARD_BYTE 0xc5
#define MAX_REPORTED 10

static _Atomic int failures;   /* threads of test_threads fail too */
static MPI_T_pvar_session session;

static void init_tools(void)
{
    int level, provided;

    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    /* Open MPI takes MPI_T's thread level as MPI's own: a lower one
     * would make threads share ob1's cached requests */
    MPI_Query_thread(&level);
    if (MPI_SUCCESS != MPI_T_init_thread(level, &provided)
        || MPI_SUCCESS != MPI_T_pvar_session_create(&session)) {
        fprintf(stderr, "MPI_T unavailable\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
}

void st_init(int *argc, char ***argv)
{
    MPI_Init(argc, argv);
    init_tools();
}

void st_init_threads(int *argc, char ***argv)
{
    int provided;

    MPI_Init_thread(argc, argv, MPI_THREAD_MULTIPLE, &provided);
    if (MPI_THREAD_MULTIPLE != provided) {
        fprintf(stderr, "MPI_THREAD_MULTIPLE not provided (%d)\n", provided);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    init_tools();
}

void st_fail(const char *fmt, ...)
{
    int rank;
    va_list ap;

    if (atomic_fetch_add(&failures, 1) >= MAX_REPORTED) {
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
    return atomic_load(&failures);
}

/* MPI_T counters count from the moment their handle starts, so each
 * counter keeps one handle for the whole test. */
#define MAX_COUNTERS 128

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
    if (ncounters == MAX_COUNTERS) {
        fprintf(stderr, "st_counter: more than %d counters, raise MAX_COUNTERS\n",
                MAX_COUNTERS);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    if (MPI_SUCCESS != MPI_T_pvar_get_index(full, MPI_T_PVAR_CLASS_COUNTER, &index)) {
        fprintf(stderr, "MPI_T counter %s not found: is coll/shmcico loaded?\n", full);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    snprintf(counters[ncounters].name, sizeof(counters[ncounters].name), "%s", name);
    MPI_T_pvar_handle_alloc(session, index, NULL, &counters[ncounters].handle, &count);
    return counters[ncounters++].handle;
}

int st_finish(const char *name)
{
    int rank, total = 0, mine = atomic_load(&failures);

    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Allreduce(&mine, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
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

static int served_keyval = MPI_KEYVAL_INVALID;

int st_served_here(MPI_Comm comm)
{
    MPI_Comm node;
    int size, local, most, flag;
    void *cached;

    if (MPI_KEYVAL_INVALID == served_keyval) {
        MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &served_keyval,
                               NULL);
    }
    MPI_Comm_get_attr(comm, served_keyval, &cached, &flag);
    if (flag) {
        return (int) (intptr_t) cached;
    }
    MPI_Comm_size(comm, &size);
    MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    MPI_Comm_size(node, &local);
    MPI_Comm_free(&node);
    MPI_Allreduce(&local, &most, 1, MPI_INT, MPI_MAX, comm);
    flag = size >= 2 && most >= 2;
    MPI_Comm_set_attr(comm, served_keyval, (void *) (intptr_t) flag);
    return flag;
}

unsigned long long st_size_variable(const char *name)
{
    char full[128];
    int index, count;
    MPI_T_pvar_handle handle;
    unsigned long long value = 0;

    snprintf(full, sizeof(full), "coll_shmcico_%s", name);
    if (MPI_SUCCESS != MPI_T_pvar_get_index(full, MPI_T_PVAR_CLASS_SIZE, &index)) {
        fprintf(stderr, "MPI_T size variable %s not found\n", full);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    MPI_T_pvar_handle_alloc(session, index, NULL, &handle, &count);
    MPI_T_pvar_read(session, handle, &value);
    MPI_T_pvar_handle_free(session, &handle);
    return value;
}

unsigned long long st_counter(const char *name)
{
    unsigned long long value = 0;

    MPI_T_pvar_read(session, counter_handle(name), &value);
    return value;
}

int st_info(MPI_Comm comm, const char *key, char *value)
{
    MPI_Info info;
    int flag = 0;

    value[0] = '\0';
    MPI_Comm_get_info(comm, &info);
    MPI_Info_get(info, key, MPI_MAX_INFO_VAL, value, &flag);
    MPI_Info_free(&info);
    if (!flag) {
        value[0] = '\0';
    }
    return flag;
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

int st_single_copy_procs_ok(st_op op, int procs)
{
    unsigned long long max_procs = st_op_cvar(op, "single_copy_max_procs");

    return 0 == max_procs || (unsigned long long) procs <= max_procs;
}

static unsigned long long at_least(unsigned long long a, unsigned long long b)
{
    return a > b ? a : b;
}

unsigned long long st_single_min(st_op op, int procs, int near)
{
    unsigned long long min = st_op_cvar(op, "single_copy_min");
    unsigned long long floor = st_cvar("near_single_copy_min");
    unsigned long long ring = st_cvar("slots") / st_cvar("banks") * st_cvar("fragment_size");

    if (ST_BCAST == op && procs >= 3) {
        min = at_least(min, st_cvar("bcast_readers_single_copy_min"));
    }
    if (!near || procs > 4) {
        return min;
    }
    if (ST_ALLGATHER == op || ST_ALLGATHERV == op) {
        floor = floor < ring ? floor : ring;    /* at most a bank's slots */
    } else if (0 != floor && floor <= ring) {
        floor = ring + 1;
    }
    return at_least(floor, min);
}

unsigned long long st_probe_max(st_op op, int procs)
{
    char name[64];
    unsigned long long max;

    snprintf(name, sizeof(name), "%s_cache_probe_max", st_op_name(op));
    max = st_cvar(name);
    if (ST_BCAST == op && procs >= 3) {
        max = at_least(max, st_cvar("bcast_readers_cache_probe_max"));
    }
    return max;
}

unsigned long long st_counter_sum(const char *what)
{
    unsigned long long n = 0;

    for (int op = 0; op < ST_NOPS; ++op) {
        char name[64];
        snprintf(name, sizeof(name), "%s_%s", st_op_name((st_op) op), what);
        n += st_counter(name);
    }
    return n;
}

int st_fault_malloc_from(size_t bytes)
{
    void (*set)(size_t) = (void (*)(size_t)) dlsym(RTLD_DEFAULT, "shmcico_fault_malloc_from");

    if (NULL != set) {
        set(bytes);
    }
    return NULL != set;
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

/* The pattern's word w (bytes 8w to 8w + 7, least significant first): a
 * mix of seed and w, so that a block shifted, or one of another seed,
 * differs at almost every byte (the odd constant keeps seed 0's first
 * word from being the mix's fixed point, eight zero bytes: a buffer of
 * zeros would match it).  A word at a time, the pattern costs a
 * fraction of a byte-by-byte one: the tests fill and check hundreds of
 * MiB per process at every size of every root. */
static inline uint64_t pattern_word(uint64_t seed, uint64_t w)
{
    uint64_t z = seed * 0x9e3779b97f4a7c15ull + w * 0xbf58476d1ce4e5b9ull
                 + 0x2545f4914f6cdd1dull;

    z ^= z >> 31;
    z *= 0x94d049bb133111ebull;
    return z ^ (z >> 29);
}

unsigned char st_pattern(uint64_t seed, size_t i)
{
    return (unsigned char) (pattern_word(seed, i / 8) >> (8 * (i % 8)));
}

/* the pattern's bytes 8w to 8w + 7 in memory order */
static inline void pattern_bytes(uint64_t seed, uint64_t w, unsigned char out[8])
{
    uint64_t x = pattern_word(seed, w);

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    memcpy(out, &x, 8);
#else
    for (int k = 0; k < 8; ++k) {
        out[k] = (unsigned char) (x >> (8 * k));
    }
#endif
}

int st_maps_file_new(const char *line, unsigned long *files, int *n, int max)
{
    unsigned long inode = 0;

    /* address perms offset device inode path */
    if (1 != sscanf(line, "%*s %*s %*s %*s %lu", &inode)) {
        return 0;
    }
    for (int i = 0; i < *n; ++i) {
        if (files[i] == inode) {
            return 0;
        }
    }
    if (*n < max) {
        files[(*n)++] = inode;
    }
    return 1;
}

int st_segment_mappings(int max)
{
    FILE *maps = fopen("/proc/self/maps", "r");
    char line[512];
    unsigned long *files = calloc((size_t) max + 1, sizeof(*files));
    int n = 0;

    /* files, not lines: mbind() can split a segment's mapping */
    while (NULL != maps && NULL != files && NULL != fgets(line, sizeof(line), maps)) {
        if (NULL != strstr(line, "/shmcico-")) {
            (void) st_maps_file_new(line, files, &n, max + 1);
        }
    }
    if (NULL != maps) {
        fclose(maps);
    }
    free(files);
    return n;
}

void st_fill(void *data, size_t bytes, uint64_t seed)
{
    unsigned char *d = data;
    size_t i = 0;

    for (; i + 8 <= bytes; i += 8) {
        pattern_bytes(seed, i / 8, d + i);
    }
    for (; i < bytes; ++i) {
        d[i] = st_pattern(seed, i);
    }
}

long st_first_wrong(const void *data, size_t bytes, uint64_t seed)
{
    const unsigned char *d = data;
    unsigned char want[8];
    size_t i = 0;

    /* word by word to the first word that differs, then byte by byte */
    for (; i + 8 <= bytes; i += 8) {
        pattern_bytes(seed, i / 8, want);
        if (0 != memcmp(d + i, want, 8)) {
            break;
        }
    }
    for (; i < bytes; ++i) {
        if (d[i] != st_pattern(seed, i)) {
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

/* ---- Datatypes ------------------------------------------------------ */

static MPI_Datatype committed(MPI_Datatype type)
{
    MPI_Type_commit(&type);
    return type;
}

const st_type *st_types(void)
{
    static st_type types[ST_NTYPES];
    int lens[3] = { 2, 1, 3 }, displs[3] = { 0, 5, 9 };
    int slens[3] = { 1, 1, 1 };
    MPI_Aint sdispls[3] = { 0, 8, 20 };
    MPI_Datatype stypes[3] = { MPI_CHAR, MPI_DOUBLE, MPI_INT };
    MPI_Datatype vector, indexed, strct, resized, six_ints, zero, big_vector, big_ints;

    if (NULL != types[0].name) {
        return types;
    }
    MPI_Type_vector(4, 3, 5, MPI_INT, &vector);
    MPI_Type_indexed(3, lens, displs, MPI_INT, &indexed);
    MPI_Type_create_struct(3, slens, sdispls, stypes, &strct);
    MPI_Type_create_resized(MPI_INT, 0, 12, &resized);
    MPI_Type_contiguous(6, MPI_INT, &six_ints);
    MPI_Type_contiguous(0, MPI_INT, &zero);
    MPI_Type_vector(3, 512, 600, MPI_INT, &big_vector);
    MPI_Type_contiguous(1536, MPI_INT, &big_ints);
    types[0] = (st_type) { "MPI_BYTE", MPI_BYTE, MPI_BYTE };
    types[1] = (st_type) { "MPI_INT", MPI_INT, MPI_INT };
    types[2] = (st_type) { "MPI_DOUBLE", MPI_DOUBLE, MPI_DOUBLE };
    types[3] = (st_type) { "vector", committed(vector), vector };
    types[4] = (st_type) { "indexed", committed(indexed), indexed };
    types[5] = (st_type) { "struct-with-holes", committed(strct), strct };
    types[6] = (st_type) { "resized", committed(resized), resized };
    types[7] = (st_type) { "ints-vs-indexed", committed(six_ints), indexed };
    types[8] = (st_type) { "big-vector-vs-ints", committed(big_vector), committed(big_ints) };
    types[9] = (st_type) { "zero-size-type", committed(zero), zero };
    return types;
}

size_t st_type_size(MPI_Datatype type)
{
    int size;

    MPI_Type_size(type, &size);
    return (size_t) size;
}

size_t st_span(MPI_Datatype type, int count)
{
    MPI_Aint lb, extent, true_lb, true_extent;

    if (count <= 0) {
        return 0;
    }
    MPI_Type_get_extent(type, &lb, &extent);
    MPI_Type_get_true_extent(type, &true_lb, &true_extent);
    return (size_t) (true_lb + true_extent + (MPI_Aint) (count - 1) * extent);
}

char *st_pack(const void *buf, int count, MPI_Datatype type, int *size)
{
    int position = 0;
    char *packed;

    MPI_Pack_size(count, type, MPI_COMM_SELF, size);
    packed = malloc((size_t) *size + 1);
    MPI_Pack(buf, count, type, packed, *size, &position, MPI_COMM_SELF);
    *size = position;
    return packed;
}

void st_unpack_into(const char *packed, int packed_size, void *dest, int count,
                    MPI_Datatype type)
{
    size_t elem = st_type_size(type);
    int position = 0;

    if (elem > 0 && (size_t) count * elem > (size_t) packed_size) {
        count = (int) ((size_t) packed_size / elem);
    }
    MPI_Unpack(packed, packed_size, &position, dest, count, type, MPI_COMM_SELF);
}

void st_unpack_image(const char *packed, int packed_size, void *image, size_t span,
                     int count, MPI_Datatype type)
{
    memset(image, ST_POISON, span);
    st_unpack_into(packed, packed_size, image, count, type);
}

long st_first_diff(const void *a, const void *b, size_t bytes)
{
    const unsigned char *x = a, *y = b;

    if (0 == memcmp(a, b, bytes)) {
        return -1;
    }
    for (size_t i = 0; i < bytes; ++i) {
        if (x[i] != y[i]) {
            return (long) i;
        }
    }
    return -1;
}
