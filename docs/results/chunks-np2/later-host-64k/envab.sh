#!/usr/bin/env bash
#
# Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
# Alternating runs of one build with settings given by environment
# variables, np 2, shmcico against coll/tuned in each run, the line
# latency (the machine's state) before each run into OUT/states.txt.
#
#   envab.sh OUT ROUNDS OPS SIZES CACHE NAME=VAR=VALUE...
set -euo pipefail
out=$1 n=$2 ops=$3 sizes=$4 cache=$5; shift 5
mkdir -p $out   # run from the build tree
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_mca_base_component_path="$(ompi_info --parsable --path pkglibdir | sed -n "s/^path:pkglibdir://p"):$PWD/ompi/mca/coll/shmcico/.libs"
for i in $(seq $n); do
  for spec in "$@"; do
    name=${spec%%=*}; envs=${spec#*=}
    lat=$(test/bench/line-latency 50000 1 | awk '{print $2}')
    env $envs mpirun -np 2 test/bench/shmcico-bench --quiet --csv $out/$name-$i.csv --components shmcico,tuned \
      --cache $cache --ops $ops --sizes $sizes --max-seconds 0.2 > $out/$name-$i.txt 2>&1
    echo "round $i $name line $lat" | tee -a $out/states.txt
  done
done
