/*
 * Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
 * $COPYRIGHT$
 *
 * Additional copyrights may follow
 *
 * $HEADER$
 */

/* A minimal check macro for the engine's unit tests: every failed check
 * is printed with its place; main() returns the number of failures. */

#ifndef SHMCICO_UNIT_H
#define SHMCICO_UNIT_H

#include <stdio.h>

static long long unit_checks;
static int unit_failures;

#define CHECK(cond, ...)                                                     \
    do {                                                                      \
        ++unit_checks;                                                        \
        if (!(cond)) {                                                        \
            if (++unit_failures <= 20) {                                      \
                fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__,        \
                        __LINE__, #cond);                                     \
                fprintf(stderr, __VA_ARGS__);                                 \
                fputc('\n', stderr);                                          \
            }                                                                 \
        }                                                                     \
    } while (0)

static inline int unit_report(const char *name)
{
    printf("%s: %lld checks, %d failed\n", name, unit_checks, unit_failures);
    return unit_failures ? 1 : 0;
}

#endif
