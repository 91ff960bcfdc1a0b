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
 * Per-communicator hints: MPI_Info keys given to MPI_Comm_dup_with_info,
 * MPI_Comm_split_type or MPI_Comm_set_info override the MCA parameters
 * for that communicator (docs/user-guide.md, "Tuning one communicator").
 *
 *   shmcico_disable           true | false
 *   shmcico_tree              kary | knomial | flat | chain | numa
 *   shmcico_tree_degree       1 to 1024 (a k-nomial tree: 1 gives 2)
 *   shmcico_single_copy       auto | cma | smsc | off
 *   shmcico_max_bytes         bytes for every operation, or a list
 *                             "op:bytes,op:bytes" (0: no limit)
 *   shmcico_single_copy_min   the same, for the single-copy crossovers
 *   shmcico_single_max_procs  the same: most processes of a communicator
 *                             whose blocks may go by single copy (0: no
 *                             limit; coll_shmcico_<op>_single_copy_max_procs)
 *   shmcico_streaming_min     bytes: queued blocks from here are written
 *                             with streaming stores (0: never)
 *   shmcico_own_streaming_min the same as shmcico_max_bytes: own blocks
 *                             from here are copied with streaming stores
 *                             (0: never)
 *   shmcico_nearness          auto | near | far (reported, once the
 *                             segment is made, as near or far)
 *
 * (Open MPI 4.1 takes keys of at most 27 characters from a component, so
 * the operations are named in the values, not the keys.)
 *
 * The module subscribes to each key when it is enabled (Open MPI calls
 * back at once with the value the communicator already has, or the
 * default, and again at every MPI_Comm_set_info).  MPI_Comm_get_info
 * reports the values in effect: an accepted hint as given, the default
 * of a key nobody set, and, once the segment is made, what its setup
 * decided (rank 0's values, which travel with the segment, the single
 * copy that works, and the crossovers raised to the near floors, which a
 * crossover given on the communicator replaces).  An invalid hint, or
 * one that can no longer apply (the tree of a segment that is made),
 * gets a message at verbose level 1 and is ignored: as MPI says of
 * ignored hints, MPI_Comm_get_info does not return it.  All processes
 * must give the same values, as MPI requires of such hints.
 */

#include "ompi_config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opal/util/info.h"
#include "opal/util/info_subscriber.h"

#include "coll_shmcico.h"
#include "coll_shmcico_choice.h"

/* ------------------------------------------------------------------ */
/* Values                                                               */

/* digits, then K, M or G (KiB, MiB, GiB) or nothing; no sign, no
 * space, nothing that does not fit in 64 bits */
static bool parse_bytes(const char *text, uint64_t *bytes)
{
    char *end;
    unsigned long long value;
    int shift = 0;

    if (*text < '0' || *text > '9') {
        return false;               /* strtoull would take a sign or spaces */
    }
    errno = 0;
    value = strtoull(text, &end, 10);
    if (0 != errno) {
        return false;
    }
    switch (*end) {
    case 'K': case 'k': shift = 10; ++end; break;
    case 'M': case 'm': shift = 20; ++end; break;
    case 'G': case 'g': shift = 30; ++end; break;
    default: break;
    }
    if ('\0' != *end || value > (UINT64_MAX >> shift)) {
        return false;
    }
    *bytes = (uint64_t) value << shift;
    return true;
}

static bool parse_bool(const char *text, bool *value)
{
    if (0 == strcasecmp(text, "true") || 0 == strcmp(text, "1") || 0 == strcasecmp(text, "yes")) {
        *value = true;
        return true;
    }
    if (0 == strcasecmp(text, "false") || 0 == strcmp(text, "0")
        || 0 == strcasecmp(text, "no")) {
        *value = false;
        return true;
    }
    return false;
}

static bool parse_name(const char *text, const char *const *names, int count, int32_t *value)
{
    for (int i = 0; i < count; ++i) {
        if (NULL != names[i] && 0 == strcasecmp(text, names[i])) {
            *value = i;
            return true;
        }
    }
    return false;
}

/* the text of a value in effect (thread-local: Open MPI copies it) */
static __thread char text[MPI_MAX_INFO_VAL];

/* The texts are written by hand, not with snprintf(): every segment's
 * setup publishes nine values, and snprintf() took two thirds of a
 * taken-over segment's setup (docs/parameters.md, "Setup cost"). */

/* s appended at out + at (out: the text, whose address is looked up
 * once per value), truncated to its size; the new end */
static size_t put_text(char *out, size_t at, const char *s)
{
    while ('\0' != *s && at + 1 < sizeof(text)) {
        out[at++] = *s++;
    }
    out[at] = '\0';
    return at;
}

/* value in decimal appended at out + at; the new end */
static size_t put_number(char *out, size_t at, uint64_t value)
{
    char digits[21];
    int n = (int) sizeof(digits) - 1;

    digits[n] = '\0';
    do {
        digits[--n] = (char) ('0' + value % 10);
        value /= 10;
    } while (0 != value);
    return put_text(out, at, digits + n);
}

static const char *number(uint64_t value)
{
    char *out = text;

    (void) put_number(out, 0, value);
    return out;
}

/* per operation: one number when all are the same, else op:bytes,... */
static const char *per_op(const uint64_t *values)
{
    char *out = text;
    size_t at = 0;
    bool same = true;

    for (int op = 1; op < MCA_COLL_SHMCICO_OP_COUNT; ++op) {
        same &= values[op] == values[0];
    }
    if (same) {
        return number(values[0]);
    }
    for (int op = 0; op < MCA_COLL_SHMCICO_OP_COUNT; ++op) {
        at = put_text(out, at, 0 == op ? "" : ",");
        at = put_text(out, at, mca_coll_shmcico_op_names[op]);
        at = put_text(out, at, ":");
        at = put_number(out, at, values[op]);
    }
    return out;
}

static int op_named(const char *name, size_t len)
{
    for (int op = 0; op < MCA_COLL_SHMCICO_OP_COUNT; ++op) {
        if (strlen(mca_coll_shmcico_op_names[op]) == len
            && 0 == strncmp(name, mca_coll_shmcico_op_names[op], len)) {
            return op;
        }
    }
    return -1;
}

/* one item of a per-operation value, "bytes" or "op:bytes", into parsed */
static bool parse_item(char *item, uint64_t *parsed)
{
    char *colon = strchr(item, ':');
    int op = -1;
    uint64_t bytes;

    if (NULL != colon) {
        *colon = '\0';
        if ((op = op_named(item, strlen(item))) < 0) {
            return false;
        }
    }
    if (!parse_bytes(NULL != colon ? colon + 1 : item, &bytes)) {
        return false;
    }
    for (int i = 0; i < MCA_COLL_SHMCICO_OP_COUNT; ++i) {
        parsed[i] = op < 0 || op == i ? bytes : parsed[i];
    }
    return true;
}

/* "bytes" for every operation, or "op:bytes,op:bytes" for some: into
 * values only when all of it is valid (an empty value or item is not) */
static bool parse_per_op(const char *value, uint64_t *values)
{
    uint64_t parsed[MCA_COLL_SHMCICO_OP_COUNT];
    char item[64];

    if ('\0' == *value || ',' == value[strlen(value) - 1]) {
        return false;
    }
    memcpy(parsed, values, sizeof(parsed));
    for (const char *at = value; '\0' != *at; at += '\0' != *at) {
        size_t len = strcspn(at, ",");
        if (len >= sizeof(item)) {
            return false;
        }
        memcpy(item, at, len);
        item[len] = '\0';
        if (!parse_item(item, parsed)) {
            return false;
        }
        at += len;
    }
    memcpy(values, parsed, sizeof(parsed));
    return true;
}

/* ------------------------------------------------------------------ */
/* The keys                                                             */

typedef enum { HINT_DISABLE, HINT_TREE, HINT_TREE_DEGREE, HINT_SINGLE_COPY, HINT_MAX_BYTES,
               HINT_SINGLE_MIN, HINT_SINGLE_MAX_PROCS, HINT_STREAMING_MIN,
               HINT_OWN_STREAMING_MIN, HINT_NEARNESS } hint_kind_t;

typedef struct hint_t {
    char name[28];                  /* Open MPI 4.1: at most 27 characters */
    hint_kind_t kind;
} hint_t;

static const hint_t hints[] = {
    { "shmcico_disable", HINT_DISABLE },
    { "shmcico_tree", HINT_TREE },
    { "shmcico_tree_degree", HINT_TREE_DEGREE },
    { "shmcico_single_copy", HINT_SINGLE_COPY },
    { "shmcico_max_bytes", HINT_MAX_BYTES },
    { "shmcico_single_copy_min", HINT_SINGLE_MIN },
    { "shmcico_single_max_procs", HINT_SINGLE_MAX_PROCS },
    { "shmcico_streaming_min", HINT_STREAMING_MIN },
    { "shmcico_own_streaming_min", HINT_OWN_STREAMING_MIN },
    { "shmcico_nearness", HINT_NEARNESS }
};

static const int nhints = (int) (sizeof(hints) / sizeof(hints[0]));

static const hint_t *find_hint(const char *key)
{
    for (int i = 0; i < nhints; ++i) {
        if (0 == strcmp(key, hints[i].name)) {
            return &hints[i];
        }
    }
    return NULL;
}

/* the module whose segment serves m's calls: m's own, or on a
 * communicator that spans nodes its node communicator's (NULL until the
 * node communicator is made) */
static const mca_coll_shmcico_module_t *segment_owner(const mca_coll_shmcico_module_t *m)
{
    if (!m->multinode) {
        return m;
    }
    return NULL != m->net.node_comm ? mca_coll_shmcico_module_of(m->net.node_comm) : NULL;
}

static bool segment_made(const mca_coll_shmcico_module_t *m)
{
    const mca_coll_shmcico_module_t *owner = segment_owner(m);

    return NULL != owner && MCA_COLL_SHMCICO_SEGMENT_NONE != owner->state;
}

/* the module whose segment serves m's calls now; NULL: none (not made,
 * or failed) */
static const mca_coll_shmcico_module_t *serving(const mca_coll_shmcico_module_t *m)
{
    const mca_coll_shmcico_module_t *owner = segment_owner(m);

    return NULL != owner && MCA_COLL_SHMCICO_SEGMENT_READY == owner->state ? owner : NULL;
}

/* how the segment's processes copy, once it is made */
static mca_coll_shmcico_single_mode_t copy_mode(const mca_coll_shmcico_module_t *m)
{
    return segment_owner(m)->copy.mode;
}

/* the parameters that serve m's calls: on a communicator that spans
 * nodes, its node stages' once its node communicator has a module (hints
 * reach them there; its node segment holds the values of the node's
 * first process) */
static const mca_coll_shmcico_params_t *params_in_effect(const mca_coll_shmcico_module_t *m)
{
    const mca_coll_shmcico_module_t *owner = segment_owner(m);

    return NULL != owner ? &owner->params : &m->params;
}

/* the crossovers in effect: where a segment serves, raised to the near
 * floor where it applies (coll_shmcico_choice.h) */
static const char *single_mins(const mca_coll_shmcico_module_t *m,
                               const mca_coll_shmcico_params_t *p)
{
    const mca_coll_shmcico_module_t *s = serving(m);
    uint64_t mins[MCA_COLL_SHMCICO_OP_COUNT];

    for (int op = 0; op < MCA_COLL_SHMCICO_OP_COUNT; ++op) {
        mins[op] = NULL != s ? mca_coll_shmcico_single_min_in_effect(s, op) : p->single_min[op];
    }
    return per_op(mins);
}

static uint64_t streaming_min(const mca_coll_shmcico_module_t *m,
                              const mca_coll_shmcico_params_t *p)
{
    const mca_coll_shmcico_module_t *s = serving(m);

    return NULL != s ? mca_coll_shmcico_streaming_min_in_effect(s) : p->streaming_min;
}

/* the value of a hint in effect on the module */
static const char *in_effect(const mca_coll_shmcico_module_t *m, const hint_t *h)
{
    const mca_coll_shmcico_params_t *p = params_in_effect(m);
    bool single = MCA_COLL_SHMCICO_SINGLE_OFF != p->single_copy
        && (!segment_made(m) || MCA_COLL_SHMCICO_SINGLE_OFF != copy_mode(m));

    switch (h->kind) {
    case HINT_DISABLE: return m->disabled ? "true" : "false";
    case HINT_TREE: return mca_coll_shmcico_tree_name(p->tree);
    case HINT_TREE_DEGREE:
        return number((uint64_t) mca_coll_shmcico_tree_degree_for(p->tree, p->tree_degree));
    case HINT_SINGLE_COPY:
        return !single ? "off" : mca_coll_shmcico_single_names[segment_made(m)
                                                               ? (int) copy_mode(m)
                                                               : p->single_copy];
    case HINT_MAX_BYTES: return per_op(p->max_bytes);
    case HINT_STREAMING_MIN: return number(streaming_min(m, p));
    case HINT_OWN_STREAMING_MIN: return per_op(p->own_streaming_min);
    case HINT_NEARNESS:             /* what the setup found, where a segment serves */
        return NULL == serving(m) ? mca_coll_shmcico_nearness_names[p->nearness]
               : serving(m)->near ? "near" : "far";
    case HINT_SINGLE_MAX_PROCS: return per_op(p->single_max_procs);
    default: return single_mins(m, p);
    }
}

/* a single copy mode asked for once the segment is made: off always
 * works, on only where the segment has a copier */
static bool single_copy_now(mca_coll_shmcico_module_t *m, int32_t mode)
{
    if (!segment_made(m)) {
        m->params.single_copy = mode;
        return true;
    }
    if (MCA_COLL_SHMCICO_SINGLE_OFF != mode && MCA_COLL_SHMCICO_SINGLE_OFF == copy_mode(m)) {
        return false;
    }
    m->params.single_copy = mode;
    return true;
}

/* A crossover given on the communicator replaces the near floor there:
 * the hint is the more precise word (docs/parameters.md).  given: not
 * the value in effect that Open MPI passes back at subscription (told
 * apart by module->subscribing, not by the value: a user's value equal
 * to the parameter's, set before the segment is made, is given too). */
static bool set_streaming_min(mca_coll_shmcico_params_t *p, const char *value, bool given)
{
    uint64_t bytes;

    if (!parse_bytes(value, &bytes)) {
        return false;
    }
    p->streaming_min = bytes;
    p->near_streaming_min = given ? 0 : p->near_streaming_min;
    return true;
}

static bool set_single_mins(mca_coll_shmcico_params_t *p, const char *value, bool given)
{
    if (!parse_per_op(value, p->single_min)) {
        return false;
    }
    p->near_single_min = given ? 0 : p->near_single_min;
    p->readers_single_min = given ? 0 : p->readers_single_min;
    return true;
}

/* Apply a value; false when it is invalid or cannot apply now. */
static bool apply(mca_coll_shmcico_module_t *m, const hint_t *h, const char *value, bool given)
{
    mca_coll_shmcico_params_t *p = &m->params;
    uint64_t bytes;
    int32_t choice;
    bool flag;

    switch (h->kind) {
    case HINT_DISABLE:
        return parse_bool(value, &flag) && ((m->disabled = flag), true);
    case HINT_TREE:
        return !segment_made(m)
            && parse_name(value, (const char *const[]) { "kary", "knomial", "flat", "chain",
                                                         "numa" },
                          MCA_COLL_SHMCICO_TREE_COUNT, &p->tree);
    case HINT_TREE_DEGREE:
        return !segment_made(m) && parse_bytes(value, &bytes) && bytes >= 1
            && bytes <= MCA_COLL_SHMCICO_MAX_TREE_DEGREE
            && ((p->tree_degree = (int32_t) bytes), true);
    case HINT_SINGLE_COPY:
        return parse_name(value, mca_coll_shmcico_single_names, MCA_COLL_SHMCICO_SINGLE_COUNT,
                          &choice) && single_copy_now(m, choice);
    case HINT_MAX_BYTES:
        return parse_per_op(value, p->max_bytes);
    case HINT_STREAMING_MIN:
        return set_streaming_min(p, value, given);
    case HINT_OWN_STREAMING_MIN:
        return parse_per_op(value, p->own_streaming_min);
    case HINT_NEARNESS:
        return !segment_made(m)
            && parse_name(value, mca_coll_shmcico_nearness_names,
                          MCA_COLL_SHMCICO_NEARNESS_COUNT, &p->nearness);
    case HINT_SINGLE_MAX_PROCS:
        return parse_per_op(value, p->single_max_procs);
    default:
        return set_single_mins(p, value, given);
    }
}

/* why a value could not apply */
static const char *refusal(const mca_coll_shmcico_module_t *m, const hint_t *h)
{
    if ((HINT_TREE == h->kind || HINT_TREE_DEGREE == h->kind || HINT_NEARNESS == h->kind)
        && segment_made(m)) {
        return "the communicator's segment is made already";
    }
    if (HINT_SINGLE_COPY == h->kind && segment_made(m)
        && MCA_COLL_SHMCICO_SINGLE_OFF == copy_mode(m)) {
        return "this communicator has no single copy";
    }
    return "not a valid value";
}

static MCA_COLL_SHMCICO_HINT_CALLBACK(hint_changed, object, key, value)
{
    mca_coll_shmcico_module_t *module =
        mca_coll_shmcico_module_of((struct ompi_communicator_t *) object);
    const hint_t *h = find_hint(key);
    bool given;

    if (NULL == module || NULL == h) {
        return value;
    }
    given = NULL == module->subscribing || NULL == value
            || 0 != strcmp(value, module->subscribing);
    if (NULL == value || !apply(module, h, value, given)) {
        struct ompi_communicator_t *comm = (struct ompi_communicator_t *) object;
        MCA_COLL_SHMCICO_VERBOSE(MCA_COLL_SHMCICO_VERBOSE_WARN,
                                 MCA_COLL_SHMCICO_COMM_FMT "hint %s=%s ignored (%s); in "
                                 "effect: %s", MCA_COLL_SHMCICO_COMM_ARGS(comm), key,
                                 NULL != value ? value : "", refusal(module, h),
                                 in_effect(module, h));
        return NULL;                /* ignored: not reported */
    }
    if (NULL != module->net.node_comm) {
        /* a communicator that spans nodes: its node stages take the same
         * hint, and keep what their segment's processes agreed on for the
         * rest (rank 0 of the node's parameters: a copy of this process's
         * own could differ between the node's processes) */
        mca_coll_shmcico_module_t *inner = mca_coll_shmcico_module_of(module->net.node_comm);
        if (NULL != inner) {
            (void) apply(inner, h, value, given);   /* the same segment, the same answer */
        }
    }
    return (MCA_COLL_SHMCICO_HINT_VALUE) in_effect(module, h);
}

void mca_coll_shmcico_hints_subscribe(mca_coll_shmcico_module_t *module,
                                      struct ompi_communicator_t *comm)
{
    char now[MPI_MAX_INFO_VAL + 1];

    if (!mca_coll_shmcico_registry_add(comm, module)) {
        return;                     /* the component is not open */
    }
    for (int i = 0; i < nhints; ++i) {
        /* Open MPI calls back at once, with the communicator's value or
         * this default */
        (void) snprintf(now, sizeof(now), "%s", in_effect(module, &hints[i]));
        module->subscribing = now;
        (void) opal_infosubscribe_subscribe(&comm->super,
                                            (MCA_COLL_SHMCICO_HINT_VALUE) hints[i].name,
                                            (MCA_COLL_SHMCICO_HINT_VALUE) now, hint_changed);
    }
    module->subscribing = NULL;
}

void mca_coll_shmcico_hints_publish(mca_coll_shmcico_module_t *module,
                                   struct ompi_communicator_t *comm)
{
    for (int i = 0; NULL != comm->super.s_info && i < nhints; ++i) {
        const char *value = in_effect(module, &hints[i]);
        (void) opal_info_set(comm->super.s_info, hints[i].name, value);
#if OMPI_MAJOR_VERSION < 5
        /* 4.1's MPI_Comm_get_info reports the copy Open MPI saved of what
         * it was given, where there is one */
        size_t prefix = strlen(OPAL_INFO_SAVE_PREFIX), name = strlen(hints[i].name);
        char saved[MPI_MAX_INFO_KEY + 1];

        if (prefix + name < sizeof(saved)) {
            memcpy(saved, OPAL_INFO_SAVE_PREFIX, prefix);
            memcpy(saved + prefix, hints[i].name, name + 1);
            (void) opal_info_set(comm->super.s_info, saved, value);
        }
#endif
    }
}
