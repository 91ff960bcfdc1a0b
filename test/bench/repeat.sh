#!/usr/bin/env bash
#
# Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
# Runs shmcico-bench N times (each a separate mpirun, so processes and
# segments are made anew) and summarises the ratio of the first component
# to the second per operation and size: the median over the runs, with the
# smallest and largest.  One run's confidence interval says nothing about
# the spread between runs, which on a shared machine can be large.
#
# Usage (from the build tree, component loaded as in test/run-bench.sh):
#   test/bench/repeat.sh N OUTDIR NP [shmcico-bench OPTIONS]
# Writes OUTDIR/run-K.csv and OUTDIR/ratios.csv and prints the summary,
# and OUTDIR/states.txt: the one-way cache-line latency between CPUs 0
# and 1 (test/bench/line-latency) before and after each run, the state
# of the machine that the run met (docs/performance.md).  LAUNCH: a
# program that mpirun starts each rank under (test/mpi/no_kernel_copy
# runs them with their kernel copies refused).

set -euo pipefail

runs=${1:?usage: repeat.sh N OUTDIR NP [OPTIONS]}
out=${2:?usage: repeat.sh N OUTDIR NP [OPTIONS]}
np=${3:?usage: repeat.sh N OUTDIR NP [OPTIONS]}
shift 3
bench=${BENCH:-$PWD/test/bench/shmcico-bench}

# the mean of two repeats of line-latency, in us ("-" without the tool,
# or when it fails: the runs matter more than their states)
latency() {
    local tool
    tool=$(dirname "$bench")/line-latency
    if [ -x "$tool" ]; then
        { "$tool" 50000 2 || true; } | awk '{ s += $2 } END { if (NR) printf "%.3f", s / NR; else print "-" }'
    else
        echo -
    fi
}

mkdir -p "$out"
# only this invocation's runs go into the medians
rm -f "$out/states.txt" "$out"/run-*.csv "$out"/run-*.txt
for k in $(seq "$runs"); do
    echo "repeat: run $k of $runs" >&2
    before=$(latency)
    mpirun -np "$np" ${LAUNCH:-} "$bench" --quiet --csv "$out/run-$k.csv" "$@" >"$out/run-$k.txt"
    echo "run $k line $before $(latency) $(grep -o 'error [0-9.]* us' "$out/run-$k.txt" \
                                          | head -n 1)" >>"$out/states.txt"
done

# ratio of the first component to the second, per run, then the median
awk -F, '
FNR == 1 { run++; first = ""; next }
$4 == "nan" { next }
{
    key = $1 SUBSEP $2
    if (!(key in order)) { order[key] = ++nkeys; keys[nkeys] = key }
    if (first == "" ) { first = $3 }
    time[run, key, $3] = $4
    comps[$3] = 1
    if (!($3 in rank)) { rank[$3] = ++ncomps; name[ncomps] = $3 }
}
END {
    print "op,size_bytes,runs,median_ratio,min_ratio,max_ratio," name[1] "_median_us," name[2] "_median_us"
    for (i = 1; i <= nkeys; i++) {
        key = keys[i]; n = 0
        for (r = 1; r <= run; r++) {
            a = time[r, key, name[1]]; b = time[r, key, name[2]]
            if (a != "" && b != "" && b > 0) { n++; ratio[n] = a / b; ta[n] = a; tb[n] = b }
        }
        if (n == 0) continue
        sort(ratio, n); sort(ta, n); sort(tb, n)
        split(key, parts, SUBSEP)
        printf "%s,%s,%d,%.3f,%.3f,%.3f,%.3f,%.3f\n", parts[1], parts[2], n, median(ratio, n),
               ratio[1], ratio[n], median(ta, n), median(tb, n)
    }
}
function sort(v, n,    i, j, t) {
    for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
}
function median(v, n) { return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2 }
' "$out"/run-*.csv >"$out/ratios.csv"

# the table, aligned (awk, not column(1): not every system has it)
awk -F, '{ printf "%-11s %-11s %-5s %-13s %-10s %-10s %-18s %s\n", $1, $2, $3, $4, $5, $6, $7, $8 }' \
    "$out/ratios.csv"
