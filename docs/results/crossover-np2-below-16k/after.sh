#!/usr/bin/env bash
# The new crossovers (Scatter(v) 8 KiB, Bcast 10 KiB, Allgather(v)
# 12 KiB, Gather(v) 16 KiB) against coll/tuned from 6 to 16 KiB, np 2,
# five runs warm and five cold (from the build tree, component loaded as
# in test/run-bench.sh).
set -euo pipefail
out=$(cd "$(dirname "$0")" && pwd)
for cache in warm cold; do
    test/bench/repeat.sh 5 "$out/after-$cache" 2 --components shmcico,tuned \
        --cache $cache --ops bcast,scatter,scatterv,gather,gatherv,allgather,allgatherv \
        --sizes 4,6K,8K,10K,12K,14K,16K --max-seconds 0.2 | sed -n '/^op /,$p' > "$out/after-$cache.txt"
done
