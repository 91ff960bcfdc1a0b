#!/usr/bin/env bash
#
# Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
# Another project's tests against coll/shmcico: the tests of MPICH's
# test/mpi/coll that call Bcast, Scatter(v), Gather(v) or Allgather(v)
# (intracommunicators of every shape MPICH's MTest makes, intercommunicators,
# MPI_IN_PLACE, zero counts, derived datatypes from its dtpools), taken
# from Debian's mpich source package, built with this Open MPI's mpicc and
# run by its mpirun, which selects coll/shmcico by its priority.
#
#   mpich-coll.sh CONFIG    CONFIG: default | single-copy | queues
#     default      the component's parameters as the suite sets them
#     single-copy  every operation's crossover at 1 byte, on communicators
#                  of any size
#     queues       coll_shmcico_single_copy off
#
# A test passes when it exits 0, prints MPICH's "No Errors", and the
# MPI_T counters (mpi/counters_report.so, preloaded) say that
# coll/shmcico served calls in it.  Over the run, single-copy must have
# served calls by single copy and queues none.  The last line is
# "mpich-coll CONFIG: N passed, N failed".
#
# run-suite.sh calls it from the build's test directory with MPIRUN set.
# The source package is downloaded once into $MPICH_SOURCE_CACHE
# (/var/cache/coll-shmcico/mpich; apt's deb-src of this Debian release
# is added if missing, which needs root), and its tests built once per
# source package, mpicc and recipe below into tests-KEY/ there (KEY: a
# checksum of the three), so that a fresh checkout's suite builds them
# only the first time on a machine; where that cache is not writable,
# into mpich-tests/ of the build's test directory.

set -u
: "${MPIRUN:?}"
config=${1:-}
case $config in
    default) params=() ;;
    single-copy)
        params=()
        for op in bcast scatter scatterv gather gatherv allgather allgatherv; do
            params+=(--mca "coll_shmcico_${op}_single_copy_min" 1
                     --mca "coll_shmcico_${op}_single_copy_max_procs" 0)
        done
        params+=(--mca coll_shmcico_bcast_readers_single_copy_min 0) ;;
    queues) params=(--mca coll_shmcico_single_copy off) ;;
    nodes) params=() ;;
    *) echo "usage: mpich-coll.sh default|single-copy|queues|nodes" >&2; exit 2 ;;
esac

here=$(cd "$(dirname "$0")" && pwd)
cache=${MPICH_SOURCE_CACHE:-/var/cache/coll-shmcico/mpich}
build=                                  # set by build_tests
mpicc=${MPICC:-$(dirname "$MPIRUN")/mpicc}
report=$PWD/mpi/.libs/counters_report.so

# NAME NP [ARG...]: the tests, with MPICH's own process counts where
# they are small (its testlist runs some at 10)
tests=(
    "allgather2 4" "allgather3 4" "allgather_struct 4" "allgatherv2 4" "allgatherv3 4"
    "allgatherv4 4" "bcasttest 4" "bcastzerotype 4"
    "bcast 4 -type=MPI_INT:4+MPI_DOUBLE:8 -count=512 -seed=6 -testsize=16"
    "bcast 3 -type=MPI_INT -count=65536 -seed=7 -testsize=4"
    "coll2 5" "coll4 4" "coll5 4" "coll6 5" "coll7 5" "coll8 4" "coll9 4" "coll10 4"
    "coll12 4" "gather 4" "gather2 4" "gatherv 5" "scatter2 4" "scatter3 4" "scattern 4"
    "scatterv 4" "icbcast 4" "icgatherv 5" "icallgatherv 5"
)

log() { echo "mpich-coll: $*"; }

# deb-src of this release, for apt-get source (root only)
add_sources() {
    local codename list=/etc/apt/sources.list.d/coll-shmcico-src.sources
    codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
    if ! grep -rqs '^Types:.*deb-src' /etc/apt/sources.list.d/ \
        && ! grep -qs '^deb-src ' /etc/apt/sources.list; then
        log "adding the $codename source packages to apt ($list)"
        printf 'Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: %s\n%s\n%s\n' \
            "$codename" "Components: main" \
            "Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg" >"$list"
    fi
    apt-get update -qq
}

fetch_source() {
    if ls "$cache"/mpich_*.orig.tar.* >/dev/null 2>&1; then
        return 0
    fi
    [ "$(id -u)" = 0 ] || { log "no source package in $cache (root fetches it)"; return 1; }
    mkdir -p "$cache"
    add_sources || return 1
    log "downloading the source package mpich into $cache"
    (cd "$cache" && apt-get source --download-only mpich >download.log 2>&1) \
        || { cat "$cache/download.log"; return 1; }
}

# the test directory configured and the tests above built into DIR
compile_tests() {
    local dir=$1 tarball=$2 names
    rm -rf "$dir" && mkdir -p "$dir" || return 1
    tar -xf "$tarball" -C "$dir" --strip-components=1 --wildcards '*/test/mpi' || return 1
    # dtpools calls MPI-1 functions that Open MPI's mpi.h no longer declares
    sed -i -e 's/MPI_Type_hvector(/MPI_Type_create_hvector(/g' \
        -e 's/MPI_Type_hindexed(/MPI_Type_create_hindexed(/g' \
        "$dir/test/mpi/dtpools/src/dtpools_custom.c"
    names=$(printf '%s\n' "${tests[@]}" | cut -d' ' -f1 | sort -u)
    (cd "$dir/test/mpi" \
         && env -u LD_PRELOAD ./configure CC="$mpicc" --disable-fortran --disable-cxx \
                --disable-romio --disable-spawn --enable-strictmpi \
         && env -u LD_PRELOAD make -C util -j"$(nproc)" \
         && env -u LD_PRELOAD make -C dtpools -j"$(nproc)" \
         && env -u LD_PRELOAD make -C coll -j"$(nproc)" $names) >"$dir/build.log" 2>&1 \
        || { tail -n 30 "$dir/build.log"; return 1; }
}

# MPICH's test configure runs python3: installed where missing (root),
# else a clear failure
need_python() {
    command -v python3 >/dev/null && return 0
    if [ "$(id -u)" = 0 ]; then
        "$(dirname "$0")/install-deps.sh" python3 && return 0
    fi
    log "MPICH's tests need python3 to configure (apt-get install python3)"
    return 1
}

# build: the tests built once per source package, mpicc and recipe (this
# function's and compile_tests' text, the test list), in the cache where
# it is writable; a build goes to a directory of its own first and is
# renamed when whole, so that suites side by side never run half of one
build_tests() {
    local tarball key
    tarball=$(ls "$cache"/mpich_*.orig.tar.* | sort -V | tail -n 1)
    key=$({ echo "$tarball"; realpath "$mpicc"; "$mpicc" --showme:version 2>&1 | head -n 1
            declare -f compile_tests build_tests; printf '%s\n' "${tests[@]}"; } \
              | cksum | cut -d' ' -f1)
    build=$cache/tests-$key
    [ -w "$cache" ] || build=$PWD/mpich-tests/tests-$key
    [ -f "$build/built" ] && return 0
    log "building MPICH's collective tests from $(basename "$tarball") with $mpicc into $build"
    need_python || return 1
    mkdir -p "$(dirname "$build")" && compile_tests "$build.$$" "$tarball" || return 1
    touch "$build.$$/built"
    mv -T "$build.$$" "$build" 2>/dev/null || rm -rf "$build.$$"
    [ -f "$build/built" ]
}

# launch NP: the command line that starts NP processes, on one node or
# (nodes) on simulated ones
launch() {
    local np=$1 layout
    if [ "$config" != nodes ]; then
        echo "$MPIRUN --oversubscribe -np $np"
        return
    fi
    case $np in
        3) layout=1+3 ;;
        4) layout=2x2-by-node ;;
        5) layout=3+2 ;;
        *) echo "false no-layout-for-np-$np"; return ;;
    esac
    echo "$here/nodes.sh $layout -np $np"
}

# counter KIND: the sum of KIND's values over the lines of MPI_T sums on
# stdin ("served N queue N ..."; 0 where none)
counter() {
    awk -v kind="$1" '{ for (i = 1; i < NF; i += 2) if ($i == kind) sum += $(i + 1) }
                      END { print sum + 0 }'
}

# the MPI_T sums say that coll/shmcico served calls (nodes: on
# communicators that span nodes)
served() {
    local kind=served
    [ "$config" != nodes ] || kind=multinode
    [ "$(counter "$kind" <<<"$1")" -gt 0 ]
}

# run_test NAME NP ARGS...: one test; prints its line, returns 1 on failure
run_test() {
    local name=$1 np=$2 out counters
    shift 2
    # shellcheck disable=SC2046 # (launch's words, none with a blank)
    out=$(cd "$build/test/mpi/coll" && timeout -k 10 300 $(launch "$np") \
              "${params[@]+"${params[@]}"}" -x LD_PRELOAD="$report${SANITIZER_PRELOAD:+:$SANITIZER_PRELOAD}${LD_PRELOAD:+:$LD_PRELOAD}" \
              ./"$name" "$@" 2>&1 </dev/null)
    local status=$?
    counters=$(echo "$out" | sed -n 's/^shmcico counters: //p' | tail -n 1)
    echo "$counters" >>"$sums"
    if [ $status -eq 0 ] && echo "$out" | grep -q 'No Errors' && served "$counters"; then
        echo "  pass  $name np $np $* ($counters)"
        return 0
    fi
    echo "  FAIL  $name np $np $* (exit $status; ${counters:-no counters})"
    echo "$out" | tail -n 15 | sed -e 's/^/      | /'
    return 1
}

fetch_source && build_tests || { echo "mpich-coll $config: 0 passed, 1 failed"; exit 1; }
sums=$(mktemp) || exit 1
trap 'rm -f "$sums"' EXIT
passed=0 failed=0
for t in "${tests[@]}"; do
    # shellcheck disable=SC2086
    if run_test $t; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
done
# the sums over the run
single=$(counter single_copy <"$sums")
queue=$(counter queue <"$sums")
multinode=$(counter multinode <"$sums")
log "over the run: $queue calls with a block through the queues, $single by single copy," \
    "$multinode on communicators that span nodes"
case $config in
    default|nodes) [ "$single" -gt 0 ] && [ "$queue" -gt 0 ] \
                 || { log "FAIL: not both transports served calls"; failed=$((failed + 1)); } ;;
    single-copy) [ "$single" -gt 0 ] || { log "FAIL: no call served by single copy"; failed=$((failed + 1)); } ;;
    queues) [ "$single" -eq 0 ] || { log "FAIL: single copy served calls"; failed=$((failed + 1)); } ;;
esac
echo "mpich-coll $config: $passed passed, $failed failed"
[ $failed -eq 0 ]
