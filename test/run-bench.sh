#!/usr/bin/env bash
#
# Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
# Build coll/shmcico from this source tree and benchmark it against
# coll/tuned and coll/sm on all local cores with shmcico-bench.  On a
# fresh Debian 12 (or Ubuntu) machine as root it first installs the
# packages it needs (gnuplot-nox for the plot).
#
#   test/run-bench.sh [SHMCICO-BENCH OPTION]...
#
# Options are passed to shmcico-bench after the defaults of this script
# (--components shmcico,tuned,sm --max-seconds 1), so they override them;
# see shmcico-bench --help.  Environment:
#   RESULTS  directory of the results (default bench-results at the
#            repository root): table.txt, bench.csv, bench.png, progress.log
#   NP       number of processes (default: nproc)
#
# The freshly built component is loaded through mca_base_component_path
# (Open MPI's own directory first), so nothing needs to be installed.
# coll/sm implements only bcast of the operations measured; for the others
# its communicator runs coll/tuned, and the table marks its column "sm*".

set -euo pipefail
cd "$(dirname "$0")/.."
top=$PWD

results=${RESULTS:-$top/bench-results}
np=${NP:-$(nproc)}

test/install-deps.sh gnuplot-nox
./autogen.pl
./configure
make -j"$(nproc)"

pkglibdir=$(ompi_info --parsable --path pkglibdir | sed -n 's/^path:pkglibdir://p')
if [ -z "$pkglibdir" ]; then
    echo "run-bench: ompi_info did not give Open MPI's component directory" >&2
    exit 1
fi
if [ -e "$pkglibdir/mca_coll_shmcico.so" ]; then
    echo "run-bench: note: a coll/shmcico is also installed in $pkglibdir;" \
         "Open MPI may load that one instead of the build's" >&2
fi
export OMPI_MCA_mca_base_component_path="$pkglibdir:$top/ompi/mca/coll/shmcico/.libs"
if [ "$(id -u)" = 0 ]; then
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi

# mpirun offers one slot per core; more processes need --oversubscribe
# (nproc counts hardware threads).
mpirun_args=(-np "$np")
cores=$(lscpu -p=Core,Socket | grep -v '^#' | sort -u | wc -l)
if [ "$np" -gt "${cores:-0}" ]; then
    mpirun_args+=(--oversubscribe)
fi

mkdir -p "$results"
table=$results/table.txt
csv=$results/bench.csv
png=$results/bench.png
log=$results/progress.log
rm -f "$table" "$csv" "$png" "$log"

echo "run-bench: mpirun ${mpirun_args[*]} shmcico-bench (progress below, one line per point)"
mpirun "${mpirun_args[@]}" test/bench/shmcico-bench \
    --components shmcico,tuned,sm --max-seconds 1 --csv "$csv" "$@" \
    2>&1 >"$table" | tee "$log" >&2
cat "$table"

test/bench/shmcico-bench-plot "$csv" "$png" \
    "coll/shmcico against coll/tuned, np $np on $(hostname)"

echo
echo "run-bench: table: $table"
echo "run-bench: CSV:   $csv"
echo "run-bench: plot:  $png"
echo "run-bench: log:   $log"
