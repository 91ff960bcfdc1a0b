dnl -*- autoconf -*-
dnl
dnl Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
dnl $COPYRIGHT$
dnl
dnl Additional copyrights may follow
dnl
dnl $HEADER$
dnl

dnl SHMCICO_CHECK_OMPI
dnl
dnl Find an installed Open MPI with its development headers: the mpicc of
dnl --with-ompi=PREFIX, or the first mpicc in PATH.  Sets and substitutes
dnl MPICC, MPIRUN, OMPI_INFO, OMPI_CPPFLAGS (public and internal headers),
dnl OMPI_LIBS, OMPI_VERSION, OMPI_SERIES and OMPI_PKGLIBDIR (Open MPI's
dnl own component directory).
AC_DEFUN([SHMCICO_CHECK_OMPI], [
    AC_ARG_WITH([ompi],
        [AS_HELP_STRING([--with-ompi=PREFIX],
            [Open MPI installation to build for (default: the mpicc in PATH)])])

    AS_IF([test -n "$with_ompi" && test "$with_ompi" != yes],
          [ompi_bindir="$with_ompi/bin"],
          [ompi_bindir=`dirname "$(command -v mpicc 2>/dev/null || echo /usr/bin/mpicc)"`])
    AC_PATH_PROG([MPICC], [mpicc], [no], [$ompi_bindir])
    AC_PATH_PROG([MPIRUN], [mpirun], [no], [$ompi_bindir])
    AC_PATH_PROG([OMPI_INFO], [ompi_info], [no], [$ompi_bindir])
    AS_IF([test "$MPICC" = no || test "$OMPI_INFO" = no],
          [AC_MSG_ERROR([Open MPI's mpicc and ompi_info not found; install Open MPI with its development files (Debian/Ubuntu: apt-get install libopenmpi-dev openmpi-bin) or use --with-ompi=PREFIX])])

    AC_MSG_CHECKING([for Open MPI's internal headers])
    OMPI_CPPFLAGS=
    ompi_internal=
    for dir in `$MPICC --showme:incdirs`; do
        OMPI_CPPFLAGS="$OMPI_CPPFLAGS -I$dir"
        for cand in "$dir" "$dir/openmpi"; do
            AS_IF([test -z "$ompi_internal" && test -f "$cand/ompi/mca/coll/coll.h"],
                  [ompi_internal="$cand"])
        done
    done
    AS_IF([test -z "$ompi_internal"],
          [AC_MSG_RESULT([not found])
           AC_MSG_ERROR([ompi/mca/coll/coll.h is not under `$MPICC --showme:incdirs`: this Open MPI has no development headers for components (Debian/Ubuntu: libopenmpi-dev ships them)])])
    AS_CASE([" $OMPI_CPPFLAGS "], [*" -I$ompi_internal "*], [],
            [OMPI_CPPFLAGS="$OMPI_CPPFLAGS -I$ompi_internal"])
    AC_MSG_RESULT([$ompi_internal])

    shmcico_save_CPPFLAGS="$CPPFLAGS"
    CPPFLAGS="$CPPFLAGS $OMPI_CPPFLAGS"
    AC_CHECK_HEADER([ompi/mca/coll/coll.h], [],
        [AC_MSG_ERROR([ompi/mca/coll/coll.h does not compile with $OMPI_CPPFLAGS])],
        [#include "ompi_config.h"])
    AC_COMPUTE_INT([ompi_major], [OMPI_MAJOR_VERSION], [#include "ompi_config.h"])
    AC_COMPUTE_INT([ompi_minor], [OMPI_MINOR_VERSION], [#include "ompi_config.h"])
    AC_COMPUTE_INT([ompi_release], [OMPI_RELEASE_VERSION], [#include "ompi_config.h"])
    CPPFLAGS="$shmcico_save_CPPFLAGS"

    OMPI_SERIES="$ompi_major.$ompi_minor"
    OMPI_VERSION="$ompi_major.$ompi_minor.$ompi_release"
    AC_MSG_CHECKING([the Open MPI version to build for])
    AC_MSG_RESULT([$OMPI_VERSION])
    AS_CASE([$OMPI_SERIES],
        [4.1|5.0], [],
        [AC_MSG_ERROR([Open MPI $OMPI_VERSION is not supported: this release builds for the Open MPI 4.1 and 5.0 series (see docs/versions.md)])])

    OMPI_LIBS=`$MPICC --showme:link`
    AC_MSG_CHECKING([for Open MPI's component directory])
    OMPI_PKGLIBDIR=`$OMPI_INFO --path pkglibdir | sed -e 's/^.*: *//'`
    AC_MSG_RESULT([$OMPI_PKGLIBDIR])

    AC_SUBST([OMPI_CPPFLAGS])
    AC_SUBST([OMPI_LIBS])
    AC_SUBST([OMPI_VERSION])
    AC_SUBST([OMPI_SERIES])
    AC_SUBST([OMPI_PKGLIBDIR])
])
