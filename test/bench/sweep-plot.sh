#!/usr/bin/env bash
#
# Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
# Plots of test/bench/sweep.sh's CSV: one panel per (operation, message
# size), time against the swept parameter, one line per queue size for
# the fragment sweep.
#
# Usage: sweep-plot.sh SWEEP-CSV OUTDIR

set -euo pipefail

csv=${1:?usage: sweep-plot.sh SWEEP-CSV OUTDIR}
out=${2:?usage: sweep-plot.sh SWEEP-CSV OUTDIR}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if echo 'set terminal' | gnuplot 2>&1 | grep -q pngcairo; then
    terminal="pngcairo noenhanced font ',10' size 1200,700"
else
    terminal="png noenhanced size 1200,700"
fi

# data files: WORK/SWEEP-OP-SIZE-QUEUE.dat with "x median-time" (the
# median over the repeats of a point)
awk -F, -v dir="$work" 'NR > 1 && $10 != "nan" {
    x = $1 == "fragment" ? $3 : $1 == "slots" ? $4 : $5
    line = $1 == "fragment" ? $2 : "all"
    key = $1 "-" $7 "-" $8 "-" line SUBSEP x
    times[key] = times[key] " " $10
}
END {
    for (key in times) {
        split(key, parts, SUBSEP)
        n = split(substr(times[key], 2), t, " ")
        for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
            if (t[j] + 0 < t[i] + 0) { tmp = t[i]; t[i] = t[j]; t[j] = tmp }
        median = n % 2 ? t[(n + 1) / 2] : (t[n / 2] + t[n / 2 + 1]) / 2
        print parts[2], median >> (dir "/" parts[1] ".dat")
    }
}' "$csv"

plot_sweep() {
    local sweep=$1 xlabel=$2 png=$3 script
    script=$work/$sweep.gp
    {
        echo "set terminal $terminal"
        echo "set output '$png'"
        echo "set multiplot layout 2,3 title 'coll/shmcico: time against $xlabel (cold caches)'"
        echo "set logscale x 2"
        echo "set xlabel '$xlabel'"
        echo "set ylabel 'time [us]'"
        echo "set key top left"
        for op in bcast allgather; do
            for size in 65536 1048576 4194304; do
                echo "set title '$op, $((size / 1024)) KiB'"
                local plots=()
                for dat in "$work/$sweep-$op-$size-"*.dat; do
                    [ -e "$dat" ] || continue
                    sort -n "$dat" -o "$dat"
                    local label=${dat##*-}
                    label=${label%.dat}
                    [ "$label" = all ] && label=$sweep || label="queue $((label / 1024)) KiB"
                    plots+=("'$dat' using 1:2 with linespoints title '$label'")
                done
                if [ ${#plots[@]} -gt 0 ]; then
                    (IFS=,; echo "plot ${plots[*]}")
                else
                    echo "plot 0 notitle"
                fi
            done
        done
        echo "unset multiplot"
    } >"$script"
    gnuplot "$script"
}

plot_sweep fragment "fragment size f [bytes]" "$out/fragment.png"
plot_sweep slots "slots s (f = 8 KiB, w = 2)" "$out/slots.png"
plot_sweep banks "banks w (s = 16, f = 8 KiB)" "$out/banks.png"
