#!/usr/bin/env bash
#
# Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
# Messages and bytes that cross node boundaries, per operation at 8 B,
# 64 KiB and 4 MiB, on 2, 3 and 4 simulated nodes of 2 processes each
# (test/nodes.sh), for coll/shmcico, coll/tuned and coll/han (priority
# raised to 50, as 4.1 leaves it at 0), counted at the PML (net_traffic.c).
#
# Usage (from the build tree, as root, component loaded as in
# test/run-bench.sh): test/bench/net-traffic.sh OUTFILE.csv

set -euo pipefail
out=${1:?usage: net-traffic.sh OUTFILE.csv}
here=$(cd "$(dirname "$0")" && pwd)
export MPIRUN=${MPIRUN:-mpirun}
if [ "$(id -u)" = 0 ]; then
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi

echo "label,nodes,procs,op,size,messages,bytes,node_pairs,min_bytes" >"$out"
for layout in 2x2 3x2 4x2; do
    for component in shmcico tuned han; do
        case $component in
            shmcico) args=(--mca coll shmcico,tuned,basic,self,libnbc) ;;
            tuned) args=(--mca coll tuned,basic,self,libnbc) ;;
            han) args=(--mca coll han,tuned,basic,self,libnbc --mca coll_han_priority 50) ;;
        esac
        "$here/../nodes.sh" "$layout" --oversubscribe "${args[@]}" \
            "$here/net-traffic" "$component" | grep -v '^label' >>"$out"
    done
done
column -s, -t "$out"
