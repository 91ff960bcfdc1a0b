#!/usr/bin/env bash
#
# Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
# make install and make uninstall, one of the README's three ways per
# call, from the build's test directory (run-suite.sh calls it with
# MPIRUN, OMPI_INFO and OMPI_PKGLIBDIR set):
#   install.sh default        ./configure: Open MPI's own component
#                             directory, staged with DESTDIR so that the
#                             system's Open MPI is left alone; then an
#                             MPICC of another installation beside this
#                             ompi_info, which configure must refuse
#   install.sh prefix         ./configure --prefix=P: P/lib/openmpi, and an
#                             MPI job loads the installed DSO through
#                             mca_base_component_path and is served by it
#   install.sh component-dir  ./configure --prefix=P
#                             --with-component-dir=$HOME/.openmpi/components:
#                             that directory (it wins over --prefix), which
#                             Open MPI searches with no flag
#   install.sh with-prefixes  ./configure --with-hwloc=P1 --with-libnuma=P2
#                             where P1 and P2 hold their libraries in
#                             lib64: the DSO is linked against those and
#                             finds them there at run time (its rpath)
#   install.sh vpath          ./configure from a build directory beside a
#                             read-only copy of the distribution (as
#                             "make distcheck" and Open MPI's developers
#                             build): the component, every test program,
#                             make install with DESTDIR and make
#                             uninstall, and nothing written into the
#                             sources
# Each configures and builds a copy of this build's distribution (with
# the build's own configure options) in results/install-WAY/, checks what
# configure and make install say, where the files went, and that make
# uninstall leaves no file behind.  Prints "install-WAY: OK" when all of
# it holds.  With INSTALL_SHARED_TREE=DIR (run-suite.sh sets it, a
# directory of its run's results), default, prefix and component-dir
# take one copy in DIR/src, the first of them to run making and
# building it: each configures it anew, which rewrites the Makefiles and
# leaves the compiled objects as they are (no path is compiled in), and
# the DSO is linked again for its own installation directory.

set -u
: "${MPIRUN:?}" "${OMPI_INFO:?}" "${OMPI_PKGLIBDIR:?}"
way=${1:-}
case $way in
    default|prefix|component-dir|with-prefixes|vpath) ;;
    *) echo "usage: install.sh default|prefix|component-dir|with-prefixes|vpath" >&2; exit 2 ;;
esac

top=$(cd .. && pwd)
work=$PWD/results/install-$way
rm -rf "$work"
mkdir -p "$work"
failures=0

fail() {
    echo "FAIL: $*"
    failures=$((failures + 1))
}

# the output of a step is kept in $work/STEP.log and shown; the build
# steps go without a sanitizer runtime that the suite preloads
step() {
    local name=$1 status
    shift
    echo "-- $name: $*"
    case $name in
        configure|build|install*|uninstall*) env -u LD_PRELOAD "$@" >"$work/$name.log" 2>&1 ;;
        *) "$@" >"$work/$name.log" 2>&1 ;;
    esac
    status=$?
    case $name in
        ompi-info) grep -F 'parameter "coll_shmcico_priority"' "$work/$name.log" ;;
        *) grep -v -E '^(checking |config.status: |configure: creating|  CC|  CCLD|make(\[[0-9]+\])?: |Making [a-z]+ in |make  )' \
               "$work/$name.log" ;;
    esac | sed -e 's/^/   /' | tail -n 20
    [ $status -eq 0 ] || fail "$name exited with $status"
    return $status
}

expect_in() {
    grep -q -F -- "$2" "$work/$1.log" || fail "$1 does not say: $2"
}

# files (or links) under DIR, one a line
files_under() {
    [ -d "$1" ] || return 0
    find "$1" \( -type f -o -type l \) | sort
}

# which mca_coll_shmcico.so the processes that wrote LD_DEBUG=files
# output into PREFIX.* loaded: exactly WANT
expect_loaded() {
    local prefix=$1 want=$2 loaded
    loaded=$(cat "$prefix".* 2>/dev/null \
                 | sed -n -e 's/^.*file=\([^ ]*mca_coll_shmcico\.so\) .*$/\1/p' | sort -u)
    echo "   loaded: ${loaded:-nothing}"
    [ "$loaded" = "$want" ] || fail "the DSO loaded is not $want"
}

# the build's configure options, less those that say where to install;
# the three calls share configure's cache
eval "set -- $("$top/config.status" --config)"
options=()
for option; do
    case $option in
        --prefix=*|--with-component-dir*|--without-component-dir|--cache-file=*|-C) ;;
        --srcdir=*) ;;                  # (make distcheck's build)
        --with-hwloc*|--with-libnuma*|--without-libnuma)
            [ "$way" = with-prefixes ] || options+=("$option") ;;
        *) options+=("$option") ;;
    esac
done
# (with-prefixes runs configure's checks of hwloc and libnuma anew)
[ "$way" = with-prefixes ] || options+=(--cache-file="$top/test/results/install-config.cache")

src=$work/src
case $way in
    default|prefix|component-dir) src=${INSTALL_SHARED_TREE:+$INSTALL_SHARED_TREE/src} ;;
esac
src=${src:-$work/src}
if [ -d "$src" ]; then
    echo "-- the copy of the distribution in $src, configured anew"
    # linked again below, for this way's installation directory
    rm -f "$src/ompi/mca/coll/shmcico/mca_coll_shmcico.la"
else
    echo "-- a copy of the distribution in $src"
    mkdir -p "$(dirname "$src")"
    # (automake's distdir must be relative to the top build directory)
    make -s --no-print-directory -C "$top" distdir \
        distdir="$(realpath -m --relative-to="$top" "$src")" >"$work/distdir.log" 2>&1 \
        || { cat "$work/distdir.log"; rm -rf "$src"; echo "FAIL: make distdir"; exit 1; }
fi
cd "$src"

system_before=$(ls -l --time-style=full-iso "$OMPI_PKGLIBDIR" 2>/dev/null | grep shmcico)
case $way in
    default)
        dir=$OMPI_PKGLIBDIR
        stage=$work/stage
        step configure ./configure "${options[@]+"${options[@]}"}" || exit 1
        expect_in configure "install into:   $dir (Open MPI's component directory)"
        expect_in configure "every job selects"
        step build make -j"$(nproc)" || exit 1
        step install make install DESTDIR="$stage"
        expect_in install "installed into $stage$dir"
        [ -f "$stage$dir/mca_coll_shmcico.so" ] || fail "no $stage$dir/mca_coll_shmcico.so"
        echo "   installed: $(files_under "$stage" | sed -e "s,^$stage,," | tr '\n' ' ')"
        step uninstall make uninstall DESTDIR="$stage"
        left=$(files_under "$stage")
        [ -z "$left" ] || fail "left after make uninstall: $left"
        # what Debian's packaging does: the .la deleted after installing
        step install-again make install DESTDIR="$stage"
        rm -f "$stage$dir/mca_coll_shmcico.la"
        step uninstall-without-la make uninstall DESTDIR="$stage"
        left=$(files_under "$stage")
        [ -z "$left" ] || fail "left after make uninstall without the .la: $left"
        # an mpicc of another installation (an MPICC in the environment:
        # its headers say 5.0.99) beside this ompi_info: configure refuses
        fake=$work/other-ompi
        mkdir -p "$fake/include/ompi/mca/coll"
        printf '#define OMPI_MAJOR_VERSION 5\n#define OMPI_MINOR_VERSION 0\n#define OMPI_RELEASE_VERSION 99\n' \
            >"$fake/include/mpi.h"
        : >"$fake/include/ompi/mca/coll/coll.h"
        printf '#!/bin/sh\n[ "$1" = --showme:incdirs ] && exec echo %s\nexec %s "$@"\n' \
            "$fake/include" "$(sed -n 's/^MPICC = //p' "$top/Makefile")" >"$fake/mpicc"
        chmod +x "$fake/mpicc"
        if env MPICC="$fake/mpicc" ./configure --cache-file=/dev/null >"$work/mixed.log" 2>&1; then
            fail "configure took an mpicc of Open MPI 5.0.99 beside another ompi_info"
        fi
        grep -v '^checking ' "$work/mixed.log" | tail -n 2 | sed -e 's/^/   /'
        expect_in mixed "builds for Open MPI 5.0.99 but"
        ;;
    prefix)
        prefix=$work/prefix
        dir=$prefix/lib/openmpi
        step configure ./configure --prefix="$prefix" "${options[@]+"${options[@]}"}" || exit 1
        expect_in configure "install into:   $dir (--prefix)"
        expect_in configure "mca_base_component_path $OMPI_PKGLIBDIR:$dir"
        step build make -j"$(nproc)" || exit 1
        step install make install
        expect_in install "installed into $dir"
        expect_in install "export OMPI_MCA_mca_base_component_path=$OMPI_PKGLIBDIR:$dir"
        [ -f "$dir/mca_coll_shmcico.so" ] || fail "no $dir/mca_coll_shmcico.so"
        echo "   installed: $(files_under "$prefix" | sed -e "s,^$prefix,P," | tr '\n' ' ')"
        # loaded from there (and from there only), as the hint says
        step ompi-info env OMPI_MCA_mca_base_component_path="$OMPI_PKGLIBDIR:$dir" \
            LD_DEBUG=files LD_DEBUG_OUTPUT="$work/ld-ompi-info" \
            "$OMPI_INFO" --param coll shmcico --level 9
        expect_in ompi-info 'coll_shmcico_priority'
        expect_loaded "$work/ld-ompi-info" "$dir/mca_coll_shmcico.so"
        step mpi-job env OMPI_MCA_mca_base_component_path="$OMPI_PKGLIBDIR:$dir" \
            "$MPIRUN" --oversubscribe -np 2 \
            -x LD_DEBUG=files -x LD_DEBUG_OUTPUT="$work/ld-job" \
            "$top/test/mpi/test_plain" used
        expect_in mpi-job ': OK'
        expect_loaded "$work/ld-job" "$dir/mca_coll_shmcico.so"
        step uninstall make uninstall
        left=$(files_under "$prefix")
        [ -z "$left" ] || fail "left after make uninstall: $left"
        ;;
    component-dir)
        prefix=$work/prefix
        home=$work/home
        dir=$home/.openmpi/components
        mkdir -p "$home"
        step configure env HOME="$home" ./configure --prefix="$prefix" \
            --with-component-dir="$dir" "${options[@]+"${options[@]}"}" || exit 1
        expect_in configure "install into:   $dir (--with-component-dir)"
        expect_in configure "your per-user component directory"
        step build make -j"$(nproc)" || exit 1
        step install env HOME="$home" make install
        expect_in install "installed into $dir"
        [ -f "$dir/mca_coll_shmcico.so" ] || fail "no $dir/mca_coll_shmcico.so"
        [ ! -e "$prefix/lib/openmpi/mca_coll_shmcico.so" ] \
            || fail "also installed under the prefix"
        echo "   installed: $(files_under "$work" | grep -E "^($prefix|$home)/" \
                                | sed -e "s,^$work/,," | tr '\n' ' ')"
        # the user's directory, searched with no flag at all
        step ompi-info env -u OMPI_MCA_mca_base_component_path HOME="$home" \
            LD_DEBUG=files LD_DEBUG_OUTPUT="$work/ld-ompi-info" \
            "$OMPI_INFO" --param coll shmcico --level 9
        expect_in ompi-info 'coll_shmcico_priority'
        expect_loaded "$work/ld-ompi-info" "$dir/mca_coll_shmcico.so"
        step uninstall make uninstall
        left=$(files_under "$prefix"; files_under "$home")
        [ -z "$left" ] || fail "left after make uninstall: $left"
        ;;
    with-prefixes)
        # each library as a tree of its own (as module systems and
        # RPM-based distributions install them): the system's headers
        # and libraries linked into P/include and P/lib64 (libnuma where
        # this build has it)
        cc=$(sed -n 's/^CC = //p' "$top/Makefile")
        header_dir() {
            printf '#include <%s>\n' "$1" | $cc -M -x c - 2>/dev/null | tr ' \\' '\n\n' \
                | grep "/$1\$" | head -n 1 | xargs -r dirname
        }
        libs=(hwloc)
        if grep -q -- '-lnuma' "$top/Makefile"; then
            libs+=(numa)
        fi
        mkdir -p "$work/hwloc/include" "$work/numa/include"
        ln -s "$(header_dir hwloc.h)/hwloc.h" "$(header_dir hwloc.h)/hwloc" "$work/hwloc/include/"
        ln -s "$(header_dir numa.h)/numa.h" "$(header_dir numaif.h)/numaif.h" "$work/numa/include/"
        for lib in "${libs[@]}"; do
            mkdir -p "$work/$lib/lib64"
            ln -s "$(dirname "$($cc -print-file-name=lib$lib.so)")"/lib$lib.so* "$work/$lib/lib64/"
        done
        numa_option=--without-libnuma
        [ ${#libs[@]} = 1 ] || numa_option=--with-libnuma="$work/numa"
        step configure ./configure --with-hwloc="$work/hwloc" "$numa_option" \
            "${options[@]+"${options[@]}"}" || exit 1
        expect_in configure "hwloc:          yes (-L$work/hwloc/lib64 -Wl,-rpath,$work/hwloc/lib64)"
        [ ${#libs[@]} = 1 ] || expect_in configure "(-L$work/numa/lib64 -Wl,-rpath,$work/numa/lib64)"
        step build make -j"$(nproc)" || exit 1
        dso=ompi/mca/coll/shmcico/.libs/mca_coll_shmcico.so
        for lib in "${libs[@]}"; do
            found=$(ldd "$dso" | sed -n "s/^[[:space:]]*lib$lib\.so[.0-9]* => \([^ ]*\) .*/\1/p")
            echo "   lib$lib: $found"
            case $found in
                "$work/$lib/lib64/"*) ;;
                *) fail "the DSO finds lib$lib at ${found:-nothing}, not in $work/$lib/lib64" ;;
            esac
        done
        ;;
    vpath)
        src=$work/src
        build=$work/build
        stage=$work/stage
        dir=$OMPI_PKGLIBDIR
        mkdir -p "$build"
        # Root writes into read-only files, so each step runs in a mount
        # namespace of its own with the sources bound read-only there;
        # another user gets read-only modes.
        ro=$work/read-only-src.sh
        printf '#!/bin/sh\nexec unshare -m --propagation private sh -c %s "%s" "$@"\n' \
            "'mount --bind -o ro \"\$0\" \"\$0\" && exec \"\$@\"'" "$src" >"$ro"
        chmod +x "$ro"
        if [ "$(id -u)" != 0 ]; then
            printf '#!/bin/sh\nexec "$@"\n' >"$ro"
            chmod -R a-w "$src"
            trap 'chmod -R u+w "$src"' EXIT
        fi
        sources_before=$(find "$src" -printf '%p %s %T@\n' | sort)
        cd "$build"
        step configure "$ro" "$src/configure" "${options[@]+"${options[@]}"}" || exit 1
        expect_in configure "install into:   $dir (Open MPI's component directory)"
        step build "$ro" make -j"$(nproc)" || exit 1
        step test-programs "$ro" make -j"$(nproc)" -C test check-programs || exit 1
        [ -x test/unit/tsan_claims ] || [ ! -x "$top/test/unit/tsan_claims" ] \
            || fail "no ThreadSanitizer test programs built"
        step install "$ro" make install DESTDIR="$stage"
        [ -f "$stage$dir/mca_coll_shmcico.so" ] || fail "no $stage$dir/mca_coll_shmcico.so"
        step uninstall "$ro" make uninstall DESTDIR="$stage"
        left=$(files_under "$stage")
        [ -z "$left" ] || fail "left after make uninstall: $left"
        changed=$(diff <(echo "$sources_before") <(find "$src" -printf '%p %s %T@\n' | sort))
        [ -z "$changed" ] || fail "the sources changed: $changed"
        chmod -R u+w "$src"
        ;;
esac

# the system's Open MPI is as it was
[ "$(ls -l --time-style=full-iso "$OMPI_PKGLIBDIR" 2>/dev/null | grep shmcico)" = "$system_before" ] \
    || fail "Open MPI's component directory $OMPI_PKGLIBDIR changed"

cd "$top/test"
# the exit status says it (a program's own "OK" in the log must not)
if [ $failures -ne 0 ]; then
    echo "install-$way: $failures failures"
    exit 1
fi
rm -rf "$work"
echo "install-$way: OK"
