#!/bin/bash
# Alternating runs of the two transports of one build, as recorded here:
#   xo.sh OUTDIR ROUNDS -- shmcico-bench options
# run from the build tree.  "single": every block by single copy
# (coll_shmcico_<op>_single_copy_min 1); "queues": coll_shmcico_single_copy
# off.  Prints shmcico/tuned per transport, operation and size, each
# round's value sorted.
out=$1; rounds=$2; shift 3
ops="bcast scatter scatterv gather gatherv allgather allgatherv"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_mca_base_component_path=/usr/lib/x86_64-linux-gnu/openmpi/lib/openmpi3:$PWD/ompi/mca/coll/shmcico/.libs
mkdir -p $out
for r in $(seq $rounds); do
  ( for op in $ops; do export OMPI_MCA_coll_shmcico_${op}_single_copy_min=1; done
    mpirun -np 2 test/bench/shmcico-bench --quiet --csv $out/single-$r.csv "$@" > $out/single-$r.txt 2>&1 )
  OMPI_MCA_coll_shmcico_single_copy=off \
    mpirun -np 2 test/bench/shmcico-bench --quiet --csv $out/queues-$r.csv "$@" > $out/queues-$r.txt 2>&1
done
for name in single queues; do cat $out/$name-*.csv | awk -F, -v n=$name '$1!="op" && $4!="nan"{k=$1" "$2; if($3=="shmcico")s[k]=$4; else if ($3=="tuned" && (k in s)) {print n, k, s[k]/$4; delete s[k]}}'; done | sort -k2,2 -k3,3n -k1,1 | awk '{k=$1" "$2" "$3; v[k]=v[k]" "sprintf("%.2f",$4)} END{for(k in v) print k, v[k]}' | sort -k2,2 -k3,3n -k1,1
