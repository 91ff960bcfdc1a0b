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
 * Whether the running Open MPI is one this DSO may touch.  A component
 * reads and writes Open MPI's internal structures as the headers it was
 * compiled against lay them out, so before the component registers
 * anything it checks two things (docs/user-guide.md, "Install"):
 *
 *  - the release series (4.1, 5.0): structures change between series;
 *  - the size of every kind of object it touches, as the running Open
 *    MPI's class descriptors give it: an Open MPI of the same series
 *    configured another way lays its objects out differently (with
 *    --enable-debug every object gains a magic word and two fields; in
 *    4.1 CUDA support adds two fields to every convertor).
 *
 * Each check reads only exported globals whose layout is the same in
 * every configuration (the version string, opal_class_t), so it is safe
 * in an Open MPI it refuses.
 */

#include "ompi_config.h"

#include <stdio.h>

#include "ompi/communicator/communicator.h"
#include "ompi/datatype/ompi_datatype.h"
#include "ompi/group/group.h"
#include "ompi/mca/coll/coll.h"
#include "ompi/request/request.h"
#include "opal/class/opal_object.h"
#include "opal/datatype/opal_convertor.h"
#include "opal/util/output.h"

#include "coll_shmcico.h"

/* The Open MPI series whose internal ABI this DSO uses. */
#ifndef MCA_COLL_SHMCICO_BUILT_MAJOR
#define MCA_COLL_SHMCICO_BUILT_MAJOR OMPI_MAJOR_VERSION
#endif
#ifndef MCA_COLL_SHMCICO_BUILT_MINOR
#define MCA_COLL_SHMCICO_BUILT_MINOR OMPI_MINOR_VERSION
#endif

static bool series_matches(void)
{
    char version[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = 0, major = -1, minor = -1;

    if (MPI_SUCCESS != MPI_Get_library_version(version, &len)
        || 2 != sscanf(version, "Open MPI v%d.%d", &major, &minor)
        || major != MCA_COLL_SHMCICO_BUILT_MAJOR
        || minor != MCA_COLL_SHMCICO_BUILT_MINOR) {
        opal_output(0, "coll:shmcico: this component was built for Open MPI "
                    "%d.%d but runs in \"%.40s\"; it disables itself (rebuild "
                    "it against the Open MPI in use)",
                    MCA_COLL_SHMCICO_BUILT_MAJOR, MCA_COLL_SHMCICO_BUILT_MINOR,
                    version);
        return false;
    }
    return true;
}

/* One kind of object: its class in the running Open MPI, and its size in
 * the headers this DSO was compiled against. */
typedef struct {
    const char *name;
    const opal_class_t *cls;
    size_t built;
} layout_t;

#define LAYOUT(type) { #type, &type##_class, sizeof(type) }

static bool layout_matches(void)
{
    /* the objects whose fields the component reads or writes, or that
     * it extends (a proc or an info it only passes on by pointer) */
    const layout_t layouts[] = {
        LAYOUT(opal_object_t), LAYOUT(opal_datatype_t), LAYOUT(opal_convertor_t),
        LAYOUT(opal_mutex_t), LAYOUT(ompi_datatype_t), LAYOUT(ompi_group_t),
        LAYOUT(ompi_request_t), LAYOUT(ompi_communicator_t), LAYOUT(mca_coll_base_module_t)
    };

    for (size_t k = 0; k < sizeof(layouts) / sizeof(layouts[0]); ++k) {
        if (layouts[k].cls->cls_sizeof != layouts[k].built) {
            opal_output(0, "coll:shmcico: this component was built for Open MPI objects "
                        "laid out otherwise than those of the running Open MPI (%s: %zu "
                        "bytes when built, %zu here; an Open MPI configured with or "
                        "without --enable-debug, or CUDA support in 4.1, differs so); it "
                        "disables itself (rebuild it against the headers of the Open MPI "
                        "in use)", layouts[k].name, layouts[k].built,
                        layouts[k].cls->cls_sizeof);
            return false;
        }
    }
    return true;
}

bool mca_coll_shmcico_abi_matches(void)
{
    return series_matches() && layout_matches();
}
