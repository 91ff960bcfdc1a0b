#!/usr/bin/env bash
#
# Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
# What a communicator set up near costs where the machine runs far, once
# the nearness watch follows the stores: far stores with the near floor
# (shmcico_nearness=far with single_copy_min 262144), against the far
# rule and against the near rule told (ordinary stores, the near floor).
# Four rounds, warm then cold; each run's line latency before and after.
# From the build tree, the component loaded as in test/run-bench.sh:
#   docs/results/near-stores-np2/stale-far/run.sh OUTDIR
set -euo pipefail
out=${1:?usage: run.sh OUTDIR}
mkdir -p "$out"
for i in 1 2 3 4; do
    for cache in warm cold; do
        f=$out/$cache-$i
        test/bench/line-latency | tail -1 >"$f.state"
        mpirun -np 2 test/bench/shmcico-bench --quiet --csv "$f.csv" \
            --components 'shmcico@shmcico_nearness=far,shmcico@shmcico_nearness=far@shmcico_single_copy_min=262144,shmcico@shmcico_nearness=near,tuned' \
            --cache "$cache" --ops bcast,scatter,gather,allgather \
            --sizes 16K,64K,128K,192K --max-seconds 0.2 >"$f.txt" 2>&1
        test/bench/line-latency | tail -1 >>"$f.state"
    done
done
