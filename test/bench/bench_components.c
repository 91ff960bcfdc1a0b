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
 * The communicators of the compared components (bench.h:
 * bench_open_component()).  Each component runs on its own duplicate of
 * MPI_COMM_WORLD, selected with the info key ompi_comm_coll_preference;
 * a baseline's excludes the measured component, and a variant of the
 * measured component (NAME@KEY=VALUE...) carries its hints, which must
 * take effect.
 */

#include <stdio.h>
#include <string.h>

#include "bench.h"

/* NAME of a component given as NAME[@KEY=VALUE]... */
static void component_base(const char *spec, char *base, size_t len)
{
    snprintf(base, len, "%.*s", (int) strcspn(spec, "@"), spec);
}

/* The i-th hint (KEY=VALUE) of a component given as NAME@KEY=VALUE@...,
 * a ';' of VALUE as a ',' (the list of components is comma separated):
 * false when it has no i-th (bench_options.c checked their form). */
static bool hint_of(const char *spec, int i, char *key, char *value)
{
    const char *at = strchr(spec, '@');
    char hint[BENCH_HINT_MAX], *eq;

    for (; NULL != at && i > 0; --i) {
        at = strchr(at + 1, '@');
    }
    if (NULL == at) {
        return false;
    }
    snprintf(hint, sizeof(hint), "%.*s", (int) strcspn(at + 1, "@"), at + 1);
    for (char *semi = strchr(hint, ';'); NULL != semi; semi = strchr(semi, ';')) {
        *semi = ',';
    }
    eq = strchr(hint, '=');
    *eq = '\0';
    snprintf(key, BENCH_HINT_MAX, "%s", hint);
    snprintf(value, BENCH_HINT_MAX, "%s", eq + 1);
    return true;
}

/* A duplicate of MPI_COMM_WORLD for the component of the preference,
 * with the hints of spec */
static MPI_Comm dup_for(const char *preference, const char *spec)
{
    char key[BENCH_HINT_MAX], value[BENCH_HINT_MAX];
    MPI_Info info;
    MPI_Comm comm;

    MPI_Info_create(&info);
    MPI_Info_set(info, "ompi_comm_coll_preference", preference);
    for (int i = 0; hint_of(spec, i, key, value); ++i) {
        MPI_Info_set(info, key, value);
    }
    MPI_Comm_dup_with_info(MPI_COMM_WORLD, info, &comm);
    MPI_Info_free(&info);
    return comm;
}

/* Whether info has key */
static bool has_key(MPI_Info info, const char *key)
{
    char value[MPI_MAX_INFO_VAL + 1];
    int flag = 0;

    MPI_Info_get(info, key, MPI_MAX_INFO_VAL, value, &flag);
    return 0 != flag;
}

/* Whether every hint of the component is in effect on comm.  A hint the
 * component ignored (a bad value) is missing from comm's info; a key it
 * does not know (a typo) is missing from the info of known, a
 * communicator of the same component without hints, where the component
 * reports every key it has.  Either way the variant would measure the
 * defaults under its name. */
static bool hints_taken(const char *spec, MPI_Comm comm, MPI_Info known, int rank)
{
    char key[BENCH_HINT_MAX], value[BENCH_HINT_MAX];
    bool all = true;
    MPI_Info info;

    MPI_Comm_get_info(comm, &info);
    for (int i = 0; hint_of(spec, i, key, value); ++i) {
        bool taken = has_key(known, key) && has_key(info, key);
        if (!taken && 0 == rank) {
            fprintf(stderr, "shmcico-bench: %s: hint %s=%s not in effect (a key the "
                    "component does not know, or a bad value: --mca coll_shmcico_verbose 1 "
                    "says why)\n", spec, key, value);
        }
        all &= taken;
    }
    MPI_Info_free(&info);
    return all;
}

/* The info of a communicator of the component without hints */
static MPI_Info known_keys(const char *preference, const char *base)
{
    MPI_Comm comm = dup_for(preference, base);
    MPI_Info known;

    MPI_Comm_get_info(comm, &known);
    MPI_Comm_free(&comm);
    return known;
}

/* A baseline's communicator excludes the measured component, so that
 * operations the baseline lacks fall to the usual next component rather
 * than to the one under test; a variant of the measured component (the
 * same NAME with other hints) does not. */
bool bench_open_component(bench_run_t *run, int c)
{
    bench_component_t *component = &run->components[c];
    char preference[256];
    MPI_Info known;
    bool taken;

    component->name = run->opt.components[c];
    component_base(component->name, component->base, sizeof(component->base));
    component->is_shmcico = 0 == strcmp(component->base, "shmcico");
    if (0 == c || 0 == strcmp(component->base, run->components[0].base)) {
        snprintf(preference, sizeof(preference), "%s", component->base);
    } else {
        snprintf(preference, sizeof(preference), "%s,^%s", component->base,
                 run->components[0].base);
    }
    component->comm = dup_for(preference, component->name);
    MPI_Comm_set_errhandler(component->comm, MPI_ERRORS_RETURN);
    if (NULL == strchr(component->name, '@')) {
        return true;
    }
    known = known_keys(preference, component->base);
    taken = hints_taken(component->name, component->comm, known, run->rank);
    MPI_Info_free(&known);
    return taken;
}
