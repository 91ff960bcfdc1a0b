#!/usr/bin/env bash
#
# Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
# Sweeps of the queue geometry, to choose coll_shmcico_fragment_size,
# slots and banks (as the paper's figures of time against fragment size):
#
#   fragment  time against f at a fixed queue size b = s*f (64 KiB,
#             256 KiB, 1 MiB), w = 2
#   slots     time against s at f = 8 KiB, w = 2
#   banks     time against w at s = 16, f = 8 KiB
#
# for Bcast and Allgather at 64 KiB, 1 MiB and 4 MiB, cold caches, with
# the size limits off.  Every point is measured REPEATS times (default 3,
# each a separate mpirun, so a segment made anew): on a shared machine a
# whole run can come out slow, and the plots show the median.  Writes
# OUTDIR/sweep.csv (geometry and repeat columns added to shmcico-bench's)
# and OUTDIR/fragment.png, slots.png, banks.png.
#
# Usage (from the build tree, component loaded as in test/run-bench.sh):
#   [REPEATS=N] test/bench/sweep.sh OUTDIR [NP] [EXTRA shmcico-bench OPTIONS]

set -euo pipefail

out=${1:?usage: sweep.sh OUTDIR [NP] [OPTIONS]}
np=${2:-2}
shift $(( $# >= 2 ? 2 : 1 ))
here=$(cd "$(dirname "$0")" && pwd)
bench=${BENCH:-$PWD/test/bench/shmcico-bench}
sizes=65536,1048576,4194304
ops=bcast,allgather

mkdir -p "$out"
csv=$out/sweep.csv
repeats=${REPEATS:-3}
echo "sweep,queue_bytes,fragment_size,slots,banks,repeat,op,size_bytes,component,mean_us,stderr_us,ci95_lo_us,ci95_hi_us,min_us,max_us,launches,valid,b_us,cache,root,np,served,calls" >"$csv"

for op in bcast scatter scatterv gather gatherv allgather allgatherv; do
    export "OMPI_MCA_coll_shmcico_${op}_max_bytes=0"
done

# run_point SWEEP F S W
run_point() {
    local sweep=$1 f=$2 s=$3 w=$4 tmp
    shift 4
    tmp=$(mktemp)
    for r in $(seq "$repeats"); do
        echo "sweep $sweep: f=$f s=$s w=$w (queue $((f * s)) bytes), run $r" >&2
        mpirun -np "$np" --mca coll_shmcico_fragment_size "$f" \
            --mca coll_shmcico_slots "$s" --mca coll_shmcico_banks "$w" "$bench" \
            --ops "$ops" --sizes "$sizes" --components shmcico --max-seconds 2 \
            --quiet --csv "$tmp" "$@" >/dev/null
        tail -n +2 "$tmp" | sed -e "s/^/$sweep,$((f * s)),$f,$s,$w,$r,/" >>"$csv"
    done
    rm -f "$tmp"
}

for b in 65536 262144 1048576; do
    for f in 4096 8192 16384 32768 65536; do
        if [ $((b / f)) -ge 2 ]; then
            run_point fragment "$f" $((b / f)) 2 "$@"
        fi
    done
done
for s in 2 4 8 16 32 64; do
    run_point slots 8192 "$s" 2 "$@"
done
for w in 1 2 4 8; do
    run_point banks 8192 16 "$w" "$@"
done

"$here/sweep-plot.sh" "$csv" "$out"
echo "sweep: $csv, $out/fragment.png, $out/slots.png, $out/banks.png" >&2
