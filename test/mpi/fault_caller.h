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

/* whether the component's DSO is among the few callers above this
 * function (not only the first: a sanitizer's interceptor may sit in
 * between) */
static inline int called_by_component(void)
{
    void *frames[4];
    int n = backtrace(frames, 4);

    for (int i = 1; i < n; ++i) {
        Dl_info info;
        if (0 != dladdr(frames[i], &info) && NULL != info.dli_fname
            && NULL != strstr(info.dli_fname, "mca_coll_shmcico")) {
            return 1;
        }
    }
    return 0;
}

#endif /* FAULT_CALLER_H */
