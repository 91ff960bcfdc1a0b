dnl -*- autoconf -*-
dnl
dnl Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
dnl $COPYRIGHT$
dnl
dnl Additional copyrights may follow
dnl
dnl $HEADER$
dnl

dnl SHMCICO_CHECK_LIBNUMA
dnl
dnl libnuma places each process's queue on its NUMA node (mbind) and
dnl checks where the pages landed (move_pages).  --with-libnuma: require
dnl it; --without-libnuma: build without; default: use it when found.
dnl Sets NUMA_CPPFLAGS, NUMA_LDFLAGS, NUMA_LIBS and shmcico_have_libnuma.
AC_DEFUN([SHMCICO_CHECK_LIBNUMA], [
    AC_ARG_WITH([libnuma],
        [AS_HELP_STRING([--with-libnuma[=PREFIX]],
            [place queues on NUMA nodes with libnuma (default: when found)])])
    NUMA_CPPFLAGS=
    NUMA_LDFLAGS=
    NUMA_LIBS=
    shmcico_have_libnuma=0
    AS_IF([test "$with_libnuma" != no], [
        AS_IF([test -n "$with_libnuma" && test "$with_libnuma" != yes],
              [SHMCICO_PREFIX_FLAGS([$with_libnuma], [numa], [NUMA_CPPFLAGS], [NUMA_LDFLAGS])])
        shmcico_save_CPPFLAGS="$CPPFLAGS"
        shmcico_save_LDFLAGS="$LDFLAGS"
        CPPFLAGS="$CPPFLAGS $NUMA_CPPFLAGS"
        LDFLAGS="$LDFLAGS $NUMA_LDFLAGS"
        shmcico_numa_headers=yes
        AC_CHECK_HEADERS([numa.h numaif.h], [], [shmcico_numa_headers=no])
        AS_IF([test "$shmcico_numa_headers" = yes],
              [AC_CHECK_LIB([numa], [move_pages],
                   [shmcico_have_libnuma=1
                    NUMA_LIBS=-lnuma])])
        CPPFLAGS="$shmcico_save_CPPFLAGS"
        LDFLAGS="$shmcico_save_LDFLAGS"
    ])
    AS_IF([test "$shmcico_have_libnuma" = 0], [
        AS_IF([test -n "$with_libnuma" && test "$with_libnuma" != no],
              [AC_MSG_ERROR([libnuma requested but not found (Debian/Ubuntu: apt-get install libnuma-dev)])])
        AC_MSG_WARN([building without libnuma: each process's queue is NOT placed on its own NUMA node (pages land where rank 0 allocates them) and placement is not checked])
        NUMA_CPPFLAGS=
        NUMA_LDFLAGS=
    ])
    AC_SUBST([NUMA_CPPFLAGS])
    AC_SUBST([NUMA_LDFLAGS])
    AC_SUBST([NUMA_LIBS])
])
