#!/usr/bin/env bash
#
# Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
# Alternating runs of two settings that no hint can give (MCA parameters
# in the environment), each a shmcico-bench run at np 2 against
# coll/tuned, with the line latency before and after as in variants.sh.
#
# Usage, from the build tree, the component loaded as in
# test/run-bench.sh:
#   alternate.sh OUTDIR ROUNDS CACHE SIZES OPS "VAR=VALUE..." "VAR=VALUE..."
# Writes OUTDIR/A and OUTDIR/B as variants.sh writes OUTDIR.

set -euo pipefail
out=$1 rounds=$2 cache=$3 sizes=$4 ops=$5 a=$6 b=$7

latency() {
    test/bench/line-latency 50000 2 | awk '{ s += $2 } END { printf "%.3f", s / NR }'
}

mkdir -p "$out/A" "$out/B"
for i in $(seq "$rounds"); do
    for v in A B; do
        settings=$a
        [ "$v" = B ] && settings=$b
        before=$(latency)
        # shellcheck disable=SC2086 # the settings are words VAR=VALUE
        env $settings mpirun -np 2 test/bench/shmcico-bench --quiet --csv "$out/$v/run-$i.csv" \
            --components shmcico,tuned --cache "$cache" --ops "$ops" --sizes "$sizes" \
            --max-seconds 0.2 >"$out/$v/run-$i.txt" 2>&1
        after=$(latency)
        sync=$(grep -o 'error [0-9.]* us' "$out/$v/run-$i.txt" | head -n 1)
        echo "run $i line $before $after $sync" | tee -a "$out/$v/states.txt"
    done
done
