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
dnl own component directory), and OMPI_HEADERS_SUMMARY (where the
dnl internal headers come from).
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
    # the version from the public mpi.h, which compiles even where the
    # internal headers are incomplete
    AC_COMPUTE_INT([ompi_major], [OMPI_MAJOR_VERSION], [#include <mpi.h>],
                   [AC_MSG_ERROR([mpi.h does not compile with $OMPI_CPPFLAGS])])
    AC_COMPUTE_INT([ompi_minor], [OMPI_MINOR_VERSION], [#include <mpi.h>])
    AC_COMPUTE_INT([ompi_release], [OMPI_RELEASE_VERSION], [#include <mpi.h>])
    OMPI_SERIES="$ompi_major.$ompi_minor"
    OMPI_VERSION="$ompi_major.$ompi_minor.$ompi_release"
    AC_MSG_CHECKING([the Open MPI version to build for])
    AC_MSG_RESULT([$OMPI_VERSION])
    AS_CASE([$OMPI_SERIES],
        [4.1|5.0], [],
        [AC_MSG_ERROR([Open MPI $OMPI_VERSION is not supported: this release builds for the Open MPI 4.1 and 5.0 series (see docs/versions.md)])])

    # mpicc (whose headers gave the version), ompi_info (the component
    # directory) and mpirun (the tests) must be of one installation: an
    # MPICC from the environment can name another one's
    AC_MSG_CHECKING([that ompi_info and mpirun are of Open MPI $OMPI_VERSION too])
    shmcico_info_version=`$OMPI_INFO --version 2>/dev/null | head -n 1`
    shmcico_run_version=`$MPIRUN --version 2>/dev/null | head -n 1`
    AS_CASE(["$shmcico_info_version"], [*" v$OMPI_VERSION"*], [],
        [AC_MSG_RESULT([no])
         AC_MSG_ERROR([$MPICC builds for Open MPI $OMPI_VERSION but $OMPI_INFO says "$shmcico_info_version": they are of different installations (an MPICC set in the environment?); use --with-ompi=PREFIX])])
    AS_IF([test "$MPIRUN" != no],
        [AS_CASE(["$shmcico_run_version"], [*" $OMPI_VERSION"*], [],
            [AC_MSG_RESULT([no])
             AC_MSG_ERROR([$MPICC builds for Open MPI $OMPI_VERSION but $MPIRUN says "$shmcico_run_version": they are of different installations; use --with-ompi=PREFIX])])])
    AC_MSG_RESULT([yes])

    # Open MPI 5.0's internal headers include PMIx's pmix.h, which an
    # external PMIx (Debian: libpmix-dev) keeps in a directory of its own
    AS_IF([test "$OMPI_SERIES" = 5.0], [SHMCICO_CHECK_OMPI_PMIX])

    SHMCICO_CHECK_OMPI_SOURCE
    CPPFLAGS="$shmcico_save_CPPFLAGS"

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

dnl SHMCICO_CHECK_OMPI_PMIX (inside SHMCICO_CHECK_OMPI, CPPFLAGS set)
dnl
dnl pmix.h for Open MPI 5.0's internal headers: as it is, else where
dnl pkg-config or Open MPI's own build flags (ompi_info --config) say.
AC_DEFUN([SHMCICO_CHECK_OMPI_PMIX], [
    AC_MSG_CHECKING([for pmix.h])
    ompi_pmix=
    AC_PREPROC_IFELSE([AC_LANG_SOURCE([[#include <pmix.h>]])], [ompi_pmix=yes])
    AS_IF([test -z "$ompi_pmix"], [
        ompi_pmix_dirs=
        AS_IF([command -v pkg-config >/dev/null 2>&1],
              [ompi_pmix_dirs=`pkg-config --cflags-only-I pmix 2>/dev/null | sed -e 's/-I//g'`])
        for dir in `$OMPI_INFO --config 2>/dev/null | sed -n -e 's/^ *Build LDFLAGS: *//p'`; do
            AS_CASE([$dir], [-L*/lib], [ompi_pmix_dirs="$ompi_pmix_dirs `echo "$dir" | sed -e 's/^-L//' -e 's,/lib$,/include,'`"])
        done
        for dir in $ompi_pmix_dirs; do
            AS_IF([test -z "$ompi_pmix" && test -f "$dir/pmix.h"], [
                ompi_pmix="$dir"
                OMPI_CPPFLAGS="$OMPI_CPPFLAGS -I$dir"
                CPPFLAGS="$CPPFLAGS -I$dir"])
        done
    ])
    AS_IF([test -z "$ompi_pmix"],
          [AC_MSG_RESULT([not found])
           AC_MSG_ERROR([pmix.h not found: Open MPI $OMPI_VERSION's internal headers include PMIx's; install PMIx's development files (Debian: apt-get install libpmix-dev), or name their directory with CPPFLAGS=-IDIR])])
    AS_IF([test "$ompi_pmix" = yes],
          [AC_MSG_RESULT([yes])],
          [AC_MSG_RESULT([$ompi_pmix])])
])

dnl SHMCICO_CHECK_OMPI_SOURCE (inside SHMCICO_CHECK_OMPI, CPPFLAGS set)
dnl
dnl A distribution's Open MPI may leave out internal headers that its own
dnl headers include (Debian 13's libopenmpi-dev 5.0.7 has no
dnl opal/mca/threads/pthreads/threads_pthreads_mutex.h, which
dnl opal_config.h includes).  Those are then taken from the source tree
dnl of the same Open MPI version: --with-ompi-source=DIR, or found in
dnl PREFIX/src/openmpi-VERSION, /usr/src/openmpi-VERSION or
dnl /usr/local/src/openmpi-VERSION (where test/debian13-root.sh unpacks
dnl Debian's source package).  The tree is added with -idirafter, after
dnl the installed headers, so that these win wherever both have a file.
AC_DEFUN([SHMCICO_CHECK_OMPI_SOURCE], [
    AC_ARG_WITH([ompi-source],
        [AS_HELP_STRING([--with-ompi-source=DIR],
            [Open MPI source tree of the installed version, to take the
             internal headers from that the installation lacks (default:
             look for PREFIX/src/openmpi-VERSION, /usr/src/openmpi-VERSION,
             /usr/local/src/openmpi-VERSION when headers are missing)])])

    # the Open MPI headers the component includes (coll_shmcico_compat.h
    # picks some by series)
    ompi_headers_test='
#include "ompi_config.h"
#include "ompi/mca/coll/coll.h"
#include "ompi/mca/coll/base/base.h"
#include "ompi/mca/coll/base/coll_tags.h"
#include "ompi/communicator/communicator.h"
#include "ompi/datatype/ompi_datatype.h"
#include "ompi/group/group.h"
#include "ompi/mca/pml/pml.h"
#if OMPI_MAJOR_VERSION == 5
#include "ompi/runtime/ompi_rte.h"
#include "opal/mca/pmix/pmix-internal.h"
#else
#include "ompi/mca/rte/rte.h"
#include "opal/mca/pmix/pmix.h"
#endif
#include "opal/datatype/opal_convertor.h"
#include "opal/mca/base/mca_base_pvar.h"
#include "opal/mca/base/mca_base_var.h"
#include "opal/runtime/opal_progress.h"
#include "opal/util/output.h"
'
    AC_MSG_CHECKING([whether Open MPI's internal headers are complete])
    ompi_missing=
    AC_PREPROC_IFELSE([AC_LANG_SOURCE([$ompi_headers_test])], [],
        [ompi_missing=`sed -n -e 's/^.*fatal error: *\(.*\): No such file or directory.*$/\1/p' conftest.err | head -n 1`
         test -n "$ompi_missing" || ompi_missing=unknown])
    AS_IF([test -z "$ompi_missing"],
          [AC_MSG_RESULT([yes])],
          [AC_MSG_RESULT([no ($ompi_missing is missing)])])

    ompi_source=
    OMPI_HEADERS_SUMMARY="installed ($ompi_internal)"
    AS_CASE([$with_ompi_source],
        [no], [],
        [yes|""],
            [AS_IF([test -n "$ompi_missing"], [
                AC_MSG_CHECKING([for the source tree of Open MPI $OMPI_VERSION])
                ompi_prefix=`cd "$ompi_bindir/.." && pwd`
                for dir in "$ompi_prefix/src/openmpi-$OMPI_VERSION" \
                           "/usr/src/openmpi-$OMPI_VERSION" \
                           "/usr/local/src/openmpi-$OMPI_VERSION"; do
                    AS_IF([test -z "$ompi_source" && test -f "$dir/VERSION"],
                          [ompi_source="$dir"])
                done
                AS_IF([test -n "$ompi_source"],
                      [AC_MSG_RESULT([$ompi_source])],
                      [AC_MSG_RESULT([not found])])])],
        [ompi_source="$with_ompi_source"])

    AS_IF([test -n "$ompi_source"], [
        AC_MSG_CHECKING([the version of the Open MPI source tree $ompi_source])
        AS_IF([test -f "$ompi_source/VERSION" && test -d "$ompi_source/opal"],
              [ompi_source=`cd "$ompi_source" && pwd`],
              [AC_MSG_RESULT([none])
               AC_MSG_ERROR([$ompi_source is not an Open MPI source tree (no VERSION file or opal directory)])])
        ompi_source_version=`sed -n -e 's/^major=//p' "$ompi_source/VERSION"`.`sed -n -e 's/^minor=//p' "$ompi_source/VERSION"`.`sed -n -e 's/^release=//p' "$ompi_source/VERSION"`
        AC_MSG_RESULT([$ompi_source_version])
        AS_IF([test "$ompi_source_version" != "$OMPI_VERSION"],
              [AC_MSG_ERROR([the Open MPI source tree $ompi_source is version $ompi_source_version, but the installed Open MPI ($MPICC) is $OMPI_VERSION: its headers do not match; give the source tree of Open MPI $OMPI_VERSION with --with-ompi-source=DIR (Debian: apt-get source openmpi=VERSION-OF-libopenmpi-dev)])])
        OMPI_CPPFLAGS="$OMPI_CPPFLAGS -idirafter $ompi_source"
        CPPFLAGS="$CPPFLAGS -idirafter $ompi_source"
        # which headers come from there
        printf '%s\n' "$ompi_headers_test" >conftest.c
        ompi_taken=`$CPP $CPPFLAGS -M conftest.c 2>/dev/null | tr ' \\\\' '\n\n' | sed -n -e "s,^$ompi_source/,,p" | sort -u | tr '\n' ' ' | sed -e 's/ $//'`
        rm -f conftest.c
        AC_MSG_NOTICE([added -idirafter $ompi_source (Open MPI $ompi_source_version source tree), searched after the installed headers; taken from it: ${ompi_taken:-nothing}])
        OMPI_HEADERS_SUMMARY="installed ($ompi_internal), missing ones from $ompi_source ($ompi_source_version, -idirafter): ${ompi_taken:-none}"
    ])

    AC_CHECK_HEADER([ompi/mca/coll/coll.h], [],
        [AS_IF([test -n "$ompi_missing" && test -z "$ompi_source"],
               [AC_MSG_ERROR([Open MPI $OMPI_VERSION's installed internal headers are incomplete ($ompi_missing is missing) and no source tree of Open MPI $OMPI_VERSION was found to take them from: unpack one (Debian: apt-get source openmpi, deb-src enabled) and give it with --with-ompi-source=DIR])],
               [AC_MSG_ERROR([ompi/mca/coll/coll.h does not compile with $OMPI_CPPFLAGS (see config.log)])])],
        [#include "ompi_config.h"])
    AC_SUBST([OMPI_HEADERS_SUMMARY])
])
