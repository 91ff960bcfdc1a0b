/*
 * Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
 * $COPYRIGHT$
 *
 * Additional copyrights may follow
 *
 * $HEADER$
 */

/* For the fault tests' preload libraries: whether a call comes from
 * coll/shmcico's own DSO. */

#ifndef FAULT_CALLER_H
#define FAULT_CALLER_H

#include <dlfcn.h>
#include <execinfo.h>
#include <string.h>

/* whether the component's DSO is among the callers up to depth frames
 * above this function (depth 1: the direct caller; more where a
 * sanitizer's interceptor may sit in between, but then a function of
 * another component that the component calls counts too) */
static inline int called_by_component_within(int depth)
{
    void *frames[4];
    int n = backtrace(frames, depth + 1 < 4 ? depth + 1 : 4);

    for (int i = 1; i < n; ++i) {
        Dl_info info;
        if (0 != dladdr(frames[i], &info) && NULL != info.dli_fname
            && NULL != strstr(info.dli_fname, "mca_coll_shmcico")) {
            return 1;
        }
    }
    return 0;
}

static inline int called_by_component(void)
{
    return called_by_component_within(3);
}

#endif /* FAULT_CALLER_H */
