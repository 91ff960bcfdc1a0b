#!/bin/bash
# Alternating runs of builds of the component, np 2, from the build tree:
#   ab.sh OUT ROUNDS warm|cold SIZES DIR...
# each DIR holds one build's mca_coll_shmcico.so; OUT/NAME-R.csv per run,
# OUT/states.txt the line latency after each run.
out=$1 rounds=$2 cache=$3 sizes=$4; shift 4
mkdir -p "$out"
lib=$(ompi_info --parsable --path pkglibdir | sed -n 's/^path:pkglibdir://p')
for r in $(seq "$rounds"); do
    for d in "$@"; do
        n=$(basename "$d")
        OMPI_MCA_mca_base_component_path="$lib:$d" \
            mpirun -np 2 test/bench/shmcico-bench --quiet --csv "$out/$n-$r.csv" \
            --components shmcico,tuned --cache "$cache" --sizes "$sizes" --max-seconds 0.2 >/dev/null 2>&1
        echo "$n $r $(test/bench/line-latency 20000 2 | awk '{ s += $2 } END { printf "%.3f", s / NR }')" \
            >>"$out/states.txt"
    done
done
