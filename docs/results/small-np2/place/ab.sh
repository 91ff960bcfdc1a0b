#!/usr/bin/env bash
#
# Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
# Alternating runs of builds of the component, np 2, each against
# coll/tuned in the same run, with the one-way line latency (the
# machine's state) before each run.
#
#   ab.sh OUT ROUNDS OPS SIZES CACHE DIR...
#     DIR: a directory holding one build's mca_coll_shmcico.so; its
#     name names the build in OUT/NAME-ROUND.{csv,txt}
# Run from the build tree (for test/bench); COMPONENTS=shmcico,tuned,sm
# adds coll/sm to each run. summary.py OUT prints the
# medians of shmcico/tuned.

set -euo pipefail
out=$1 rounds=$2 ops=$3 sizes=$4 cache=$5
shift 5
pkglibdir=$(ompi_info --parsable --path pkglibdir | sed -n 's/^path:pkglibdir://p')
if [ "$(id -u)" = 0 ]; then
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
mkdir -p "$out"
for i in $(seq "$rounds"); do
    for dir in "$@"; do
        name=$(basename "$dir")
        line=$(test/bench/line-latency 50000 1 | awk '{ print $2 }')
        OMPI_MCA_mca_base_component_path="$pkglibdir:$dir" \
            mpirun -np 2 test/bench/shmcico-bench --quiet --csv "$out/$name-$i.csv" \
            --components "${COMPONENTS:-shmcico,tuned}" --cache "$cache" --ops "$ops" --sizes "$sizes" \
            --max-seconds 0.2 >"$out/$name-$i.txt" 2>&1
        echo "round $i $name line $line" | tee -a "$out/states.txt"
    done
done
