/* -*- Mode: C; c-basic-offset:4 ; indent-tabs-mode:nil -*- */
/*
 * Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
 * $COPYRIGHT$
 *
 * Additional copyrights may follow
 *
 * $HEADER$
 */

/**
 * @file
 *
 * Everything that differs between the Open MPI series coll/shmcico builds
 * for, in one place.  The rest of the component is written once.
 *
 *                       4.1.x                   5.0.x
 *   coll component API  2.0.0                   2.4.0
 *   communicator id     c_contextid (uint32_t)  ompi_comm_print_cid()
 *   index in ompi_mpi_  c_contextid             c_index
 *   communicators
 *   exported symbols    OMPI_MODULE_DECLSPEC    OMPI_DECLSPEC (either way
 *                                               "default" with GCC, below)
 *   runtime (process    ompi/mca/rte/rte.h      ompi/runtime/ompi_rte.h
 *   info) header
 *   single copy         Linux CMA only          opal's smsc framework (cma,
 *                                               xpmem, knem), or CMA
 *   info subscriber     char * strings          const char * strings
 *   callback
 *
 * Open MPI main (6.x, coll component API 3.0.0) changes more; see
 * docs/versions.md for what a port needs: counts become size_t arrays
 * (ompi_count_array_t / ompi_disp_array_t) in every collective's
 * signature, a module installs and removes its own function pointers
 * (MCA_COLL_INSTALL_API / MCA_COLL_SAVE_API) in coll_module_enable and
 * coll_module_disable instead of the framework copying them, and the
 * component struct is declared with MCA_BASE_COMPONENT_INIT.
 */

#ifndef MCA_COLL_SHMCICO_COMPAT_H
#define MCA_COLL_SHMCICO_COMPAT_H

#include "ompi_config.h"

#include <stdbool.h>

#include "ompi/communicator/communicator.h"
#include "ompi/mca/coll/coll.h"

#if OMPI_MAJOR_VERSION >= 6
#error "coll/shmcico supports Open MPI 4.1 and 5.0; main (6.x) needs the port described in docs/versions.md"
#elif OMPI_MAJOR_VERSION == 5

#include "ompi/runtime/ompi_rte.h"

#if defined(__has_include)
#if __has_include("opal/mca/smsc/smsc.h")
#include "opal/mca/smsc/smsc.h"
#define MCA_COLL_SHMCICO_HAVE_SMSC 1
#endif
#endif

#define MCA_COLL_SHMCICO_BASE_VERSION MCA_COLL_BASE_VERSION_2_4_0
#define MCA_COLL_SHMCICO_DECLSPEC OMPI_DECLSPEC

/** printf format and argument of a communicator's id */
#define MCA_COLL_SHMCICO_CID_FMT "%s"
#define MCA_COLL_SHMCICO_CID(comm) ompi_comm_print_cid(comm)

/** a communicator's index in ompi_mpi_communicators */
#define MCA_COLL_SHMCICO_COMM_INDEX(comm) (comm)->c_index

/** An info subscriber's callback and the type of its strings. */
#define MCA_COLL_SHMCICO_HINT_VALUE const char *
#define MCA_COLL_SHMCICO_HINT_CALLBACK(name, object, key, value)                \
    const char *name(opal_infosubscriber_t *object, const char *key, const char *value)

#else /* Open MPI 4.1 */

#include "ompi/mca/rte/rte.h"

#define MCA_COLL_SHMCICO_BASE_VERSION MCA_COLL_BASE_VERSION_2_0_0
#define MCA_COLL_SHMCICO_DECLSPEC OMPI_MODULE_DECLSPEC

#define MCA_COLL_SHMCICO_CID_FMT "%u"
#define MCA_COLL_SHMCICO_CID(comm) (comm)->c_contextid
#define MCA_COLL_SHMCICO_COMM_INDEX(comm) (comm)->c_contextid

#define MCA_COLL_SHMCICO_HINT_VALUE char *
#define MCA_COLL_SHMCICO_HINT_CALLBACK(name, object, key, value)                \
    char *name(opal_infosubscriber_t *object, char *key, char *value)

#endif

#ifndef MCA_COLL_SHMCICO_HAVE_SMSC
#define MCA_COLL_SHMCICO_HAVE_SMSC 0
#endif

/* The build hides every symbol but the component's structure
 * (-fvisibility=hidden with GCC and compilers like it), so the structure
 * says "default" itself: Open MPI's DECLSPEC says nothing where Open MPI
 * was built without visibility support, and the DSO would then export
 * nothing for Open MPI to find. */
#if defined(__GNUC__)
#undef MCA_COLL_SHMCICO_DECLSPEC
#define MCA_COLL_SHMCICO_DECLSPEC __attribute__((visibility("default")))
#endif

/** Whether comm, a communicator this component made, at index (its
 *  MCA_COLL_SHMCICO_COMM_INDEX() when made), still exists.  MPI_Finalize
 *  releases the communicators a program left, in the order of their
 *  index, and the destruction of each takes it out of the array: one
 *  made here with a lower index than the communicator it serves is gone
 *  when that communicator's module is destroyed (both series). */
static inline bool mca_coll_shmcico_comm_exists(const struct ompi_communicator_t *comm,
                                                uint32_t index)
{
    return opal_pointer_array_get_item(&ompi_mpi_communicators, (int) index) == comm;
}

#endif /* MCA_COLL_SHMCICO_COMPAT_H */
