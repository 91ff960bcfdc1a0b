#!/bin/bash
# Alternating runs of several builds of the component, as recorded here:
#   ab.sh OUTDIR ROUNDS NAME=BUILD_TREE... -- shmcico-bench options
# e.g. ab.sh warm 3 old=/tmp/old head=/tmp/head new=/work/main -- \
#        --components shmcico,tuned --cache warm --sizes 8,64,4K --max-seconds 0.2
# where each BUILD_TREE is a git worktree of that commit, built.  Prints
# shmcico/tuned per build, operation and size, each round's value sorted.
out=$1; rounds=$2; shift 2
vars=(); while [ "$1" != "--" ]; do vars+=("$1"); shift; done; shift
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mkdir -p $out
for r in $(seq $rounds); do
  for v in "${vars[@]}"; do
    name=${v%%=*}; dir=${v#*=}
    OMPI_MCA_mca_base_component_path=/usr/lib/x86_64-linux-gnu/openmpi/lib/openmpi3:$dir/ompi/mca/coll/shmcico/.libs \
      mpirun -np 2 /work/main/test/bench/shmcico-bench --quiet --csv $out/$name-$r.csv "$@" > $out/$name-$r.txt 2>&1
  done
done
# ratio shmcico/tuned per variant, op, size: median over rounds
for v in "${vars[@]}"; do name=${v%%=*}; cat $out/$name-*.csv | awk -F, -v n=$name '$1!="op" && $4!="nan"{k=$1" "$2; if($3=="shmcico")s[k]=$4; else if ($3=="tuned" && (k in s)) {print n, k, s[k]/$4; delete s[k]}}'; done | sort -k2,2 -k3,3n -k1,1 | awk '{k=$1" "$2" "$3; v[k]=v[k]" "$4} END{for(k in v) print k, v[k]}' | sort -k2,2 -k3,3n -k1,1
