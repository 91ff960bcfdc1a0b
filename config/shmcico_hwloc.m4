dnl -*- autoconf -*-
dnl
dnl Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
dnl $COPYRIGHT$
dnl
dnl Additional copyrights may follow
dnl
dnl $HEADER$
dnl

dnl SHMCICO_CHECK_HWLOC
dnl
dnl hwloc tells which NUMA node each process is bound to.  Required (Open
dnl MPI depends on it anyway).  Sets HWLOC_CPPFLAGS, HWLOC_LDFLAGS,
dnl HWLOC_LIBS.
AC_DEFUN([SHMCICO_CHECK_HWLOC], [
    AC_ARG_WITH([hwloc],
        [AS_HELP_STRING([--with-hwloc=PREFIX], [hwloc installation (default: system)])])
    HWLOC_CPPFLAGS=
    HWLOC_LDFLAGS=
    AS_IF([test -n "$with_hwloc" && test "$with_hwloc" != yes],
          [SHMCICO_PREFIX_FLAGS([$with_hwloc], [hwloc], [HWLOC_CPPFLAGS], [HWLOC_LDFLAGS])])
    shmcico_save_CPPFLAGS="$CPPFLAGS"
    shmcico_save_LDFLAGS="$LDFLAGS"
    CPPFLAGS="$CPPFLAGS $HWLOC_CPPFLAGS"
    LDFLAGS="$LDFLAGS $HWLOC_LDFLAGS"
    AC_CHECK_HEADER([hwloc.h], [],
        [AC_MSG_ERROR([hwloc.h not found (Debian/Ubuntu: apt-get install libhwloc-dev)])])
    AC_CHECK_LIB([hwloc], [hwloc_get_last_cpu_location], [HWLOC_LIBS=-lhwloc],
        [AC_MSG_ERROR([libhwloc not found (Debian/Ubuntu: apt-get install libhwloc-dev)])])
    dnl the type filters the component sets came with hwloc 2.0
    AC_MSG_CHECKING([for hwloc 2.0 or later])
    AC_COMPILE_IFELSE([AC_LANG_PROGRAM([[#include <hwloc.h>]],
                                       [[#if HWLOC_API_VERSION < 0x20000
#error hwloc 1.x
#endif]])],
        [AC_MSG_RESULT([yes])],
        [AC_MSG_RESULT([no])
         AC_MSG_ERROR([hwloc 2.0 or later is needed (hwloc.h is of 1.x; give --with-hwloc=PREFIX)])])
    CPPFLAGS="$shmcico_save_CPPFLAGS"
    LDFLAGS="$shmcico_save_LDFLAGS"
    AC_SUBST([HWLOC_CPPFLAGS])
    AC_SUBST([HWLOC_LDFLAGS])
    AC_SUBST([HWLOC_LIBS])
])
