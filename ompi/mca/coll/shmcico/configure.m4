# -*- shell-script -*-
#
# Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
# In-tree build: Open MPI's configure calls this macro.  It sets the same
# variables as the out-of-tree configure.ac, so that one Makefile.am
# serves both builds.

# MCA_ompi_coll_shmcico_CONFIG([action-if-can-compile],
#                              [action-if-cant-compile])
# ------------------------------------------------
AC_DEFUN([MCA_ompi_coll_shmcico_CONFIG],[
    AC_CONFIG_FILES([ompi/mca/coll/shmcico/Makefile])

    # Linux only: tmpfs backing files, mbind and move_pages
    coll_shmcico_happy=no
    AS_CASE([$host_os], [linux*], [coll_shmcico_happy=yes])

    # libnuma is optional: without it queues are not placed per NUMA node
    coll_shmcico_have_libnuma=0
    OPAL_CHECK_PACKAGE([coll_shmcico_numa], [numaif.h], [numa], [move_pages],
                       [], [], [],
                       [coll_shmcico_have_libnuma=1], [])

    coll_shmcico_ENGINE_CPPFLAGS="$coll_shmcico_numa_CPPFLAGS -DCOLL_SHMCICO_HAVE_LIBNUMA=$coll_shmcico_have_libnuma"
    coll_shmcico_CPPFLAGS="$coll_shmcico_ENGINE_CPPFLAGS"
    coll_shmcico_LDFLAGS="$coll_shmcico_numa_LDFLAGS"
    coll_shmcico_LIBS="$coll_shmcico_numa_LIBS"
    coll_shmcico_MPI_LIBADD='$(top_builddir)/ompi/lib$(OMPI_LIBMPI_NAME).la'
    SANITIZER_CFLAGS=
    WARN_CFLAGS=
    # (Open MPI's own build hides every symbol of a component already)
    VISIBILITY_CFLAGS=

    AC_SUBST([coll_shmcico_ENGINE_CPPFLAGS])
    AC_SUBST([coll_shmcico_CPPFLAGS])
    AC_SUBST([coll_shmcico_LDFLAGS])
    AC_SUBST([coll_shmcico_LIBS])
    AC_SUBST([coll_shmcico_MPI_LIBADD])
    AC_SUBST([SANITIZER_CFLAGS])
    AC_SUBST([WARN_CFLAGS])
    AC_SUBST([VISIBILITY_CFLAGS])

    AS_IF([test "$coll_shmcico_happy" = yes], [$1], [$2])
])dnl
