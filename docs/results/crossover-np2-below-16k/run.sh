#!/usr/bin/env bash
# Queues against single copy from 6 to 16 KiB, np 2, warm and cold, five
# runs each (run from the build tree, component loaded as in
# test/run-bench.sh).  shmcico: the default crossovers (16 KiB: the
# queues below); shmcico@shmcico_single_copy_min=6144: single copy at
# every size of the sweep.
set -euo pipefail
out=$(cd "$(dirname "$0")" && pwd)
for cache in warm cold; do
    test/bench/repeat.sh 5 "$out/$cache" 2 \
        --components "shmcico,shmcico@shmcico_single_copy_min=6144,tuned" \
        --cache $cache --ops bcast,scatter,scatterv,gather,allgather \
        --sizes 4,6K,8K,10K,12K,14K,16K --max-seconds 0.2 | sed -n '/^op /,$p' > "$out/$cache.txt"
done
