#!/bin/bash
# Alternating runs of one build under several sets of MCA parameters:
#   ab-mca.sh OUTDIR ROUNDS 'NAME=MPIRUN ARGS'... -- shmcico-bench options
# e.g. ab-mca.sh warm 3 'off=--mca coll_shmcico_cache_probe_max 0' 'on=' -- \
#        --components shmcico,tuned --cache warm --sizes 256K,1M --max-seconds 0.2
# run from the build tree.  Prints shmcico/tuned per set, operation and
# size, each round's value sorted.
out=$1; rounds=$2; shift 2
vars=(); while [ "$1" != "--" ]; do vars+=("$1"); shift; done; shift
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_mca_base_component_path=/usr/lib/x86_64-linux-gnu/openmpi/lib/openmpi3:$PWD/ompi/mca/coll/shmcico/.libs
mkdir -p $out
for r in $(seq $rounds); do
  for v in "${vars[@]}"; do
    name=${v%%=*}; args=${v#*=}
    mpirun -np 2 $args $PWD/test/bench/shmcico-bench --quiet --csv $out/$name-$r.csv "$@" > $out/$name-$r.txt 2>&1
  done
done
for v in "${vars[@]}"; do name=${v%%=*}; cat $out/$name-*.csv | awk -F, -v n=$name '$1!="op" && $4!="nan"{k=$1" "$2; if($3=="shmcico")s[k]=$4; else if ($3=="tuned" && (k in s)) {print n, k, s[k]/$4; delete s[k]}}'; done | sort -k2,2 -k3,3n -k1,1 | awk '{k=$1" "$2" "$3; v[k]=v[k]" "$4} END{for(k in v) print k, v[k]}' | sort -k2,2 -k3,3n -k1,1
