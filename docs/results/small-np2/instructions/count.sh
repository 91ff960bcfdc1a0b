#!/usr/bin/env bash
#
# Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
# Instructions per call of one collective of 8 bytes, counted by
# callgrind on one process of a run of small.c: everything inside
# PMPI_<Op> less the segment's setup at the first call, divided by the
# calls, then the functions that took 4 or more per call.
#
#   count.sh COMPONENT_DIR OP SIDE [CALLS]
#     COMPONENT_DIR  the directory of the mca_coll_shmcico.so to count
#     OP             bcast | scatter | gather | allgather
#     SIDE           0: rank 0 (the root) under callgrind, 1: rank 1
#   NP=8 count.sh ...  more processes (the others run without valgrind)
#   COLL=tuned count.sh ...  count coll/tuned instead

set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dir=$1 op=$2 side=$3 n=${4:-20000} np=${NP:-2} coll=${COLL:-shmcico}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mpicc -O2 -o "$work/small" "$here/small.c"
export OMPI_MCA_mca_base_component_path="$(ompi_info --parsable --path pkglibdir | sed -n 's/^path:pkglibdir://p'):$dir"
if [ "$(id -u)" = 0 ]; then
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
fn=$(echo "${op:0:1}" | tr a-z A-Z)${op:1}
vg=(valgrind --tool=callgrind --callgrind-out-file="$work/out" --toggle-collect="PMPI_$fn")
mca=(--mca coll "$coll,tuned,basic,self,libnbc")
plain=("${mca[@]}" "$work/small" "$n" "$op")
counted=("${mca[@]}" "${vg[@]}" "$work/small" "$n" "$op")
apps=(-np 1)
if [ "$side" = 0 ]; then
    apps+=("${counted[@]}" : -np $((np - 1)) "${plain[@]}")
else
    apps+=("${plain[@]}" : -np 1 "${counted[@]}")
    [ "$np" -gt 2 ] && apps+=(: -np $((np - 2)) "${plain[@]}")
fi
mpirun --oversubscribe "${apps[@]}" >/dev/null 2>&1
callgrind_annotate --inclusive=yes "$work/out" >"$work/incl" 2>/dev/null
callgrind_annotate "$work/out" >"$work/self" 2>/dev/null
total=$(awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }' "$work/incl")
setup=$(awk '/coll_shmcico_setup.c:mca_coll_shmcico_segment_setup/ { gsub(",", "", $1); print $1; exit }' "$work/incl")
echo "$coll $op np $np side $side: $(( (total - ${setup:-0}) / n )) instructions per call"
python3 "$here/functions.py" "$work/self" "$n"
