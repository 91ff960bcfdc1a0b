dnl -*- autoconf -*-
dnl
dnl Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
dnl $COPYRIGHT$
dnl
dnl Additional copyrights may follow
dnl
dnl $HEADER$
dnl

dnl SHMCICO_PREFIX_FLAGS(PREFIX, LIBRARY, CPPFLAGS-VARIABLE, LDFLAGS-VARIABLE)
dnl
dnl The flags of a library installed under PREFIX (--with-hwloc=PREFIX,
dnl --with-libnuma=PREFIX): -IPREFIX/include, and -LDIR with an rpath of
dnl DIR, where DIR is the first of PREFIX/lib64 and PREFIX/lib that holds
dnl libLIBRARY (PREFIX/lib when neither does: the check that follows then
dnl says what is missing).  The rpath lets the component find the library
dnl it was built against at run time, without LD_LIBRARY_PATH, as Open MPI
dnl finds its own; /usr and /usr/local get none.
AC_DEFUN([SHMCICO_PREFIX_FLAGS], [
    shmcico_prefix_libdir=
    for shmcico_prefix_dir in "$1/lib64" "$1/lib"; do
        for shmcico_prefix_file in "$shmcico_prefix_dir"/lib$2.so* "$shmcico_prefix_dir"/lib$2.a; do
            AS_IF([test -z "$shmcico_prefix_libdir" && test -f "$shmcico_prefix_file"],
                  [shmcico_prefix_libdir=$shmcico_prefix_dir])
        done
    done
    AS_IF([test -z "$shmcico_prefix_libdir"], [shmcico_prefix_libdir="$1/lib"])
    $3="-I$1/include"
    $4="-L$shmcico_prefix_libdir"
    dnl no run path into the system's own directories (where the linker
    dnl writes DT_RPATH, it would win over LD_LIBRARY_PATH)
    AS_CASE([$1], [/usr|/usr/|/usr/local|/usr/local/], [],
            [$4="$[]$4 -Wl,-rpath,$shmcico_prefix_libdir"])
])
