#!/usr/bin/env bash
#
# Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
# N runs of shmcico-bench at np 2, each with variants of coll/shmcico
# (NAME@HINT=VALUE...) measured in the same run as coll/tuned, with the
# one-way cache-line latency (test/bench/line-latency, the mean of two
# repeats) before and after each run: the machine's state.
#
# Usage, from the build tree, the component loaded as in
# test/run-bench.sh (OMPI_MCA_mca_base_component_path):
#   variants.sh OUTDIR N CACHE COMPONENTS SIZES [OPS]
# Writes OUTDIR/run-K.{csv,txt} and OUTDIR/states.txt; summary.py OUTDIR
# prints the ratios.

set -euo pipefail
out=$1 runs=$2 cache=$3 components=$4 sizes=$5 ops=${6:-bcast,scatter,gather,allgather}

latency() {
    test/bench/line-latency 50000 2 | awk '{ s += $2 } END { printf "%.3f", s / NR }'
}

mkdir -p "$out"
for i in $(seq "$runs"); do
    before=$(latency)
    mpirun -np 2 test/bench/shmcico-bench --quiet --csv "$out/run-$i.csv" \
        --components "$components" --cache "$cache" --ops "$ops" --sizes "$sizes" \
        --max-seconds 0.15 >"$out/run-$i.txt" 2>&1
    after=$(latency)
    sync=$(grep -o 'error [0-9.]* us' "$out/run-$i.txt" | head -n 1)
    echo "run $i line $before $after $sync" | tee -a "$out/states.txt"
done
