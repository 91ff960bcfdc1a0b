#!/usr/bin/env python3
#
# Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
"""Ratios of every measured variant to a baseline (coll/tuned), per
operation and size, over the runs of variants.sh or alternate.sh:
the median, the smallest and the largest, and the largest over the runs
that met the far state (a one-way line latency of 0.1 us or more before
or after the run; "-" when no run did).

Usage: summary.py DIR [BASELINE]"""

import collections
import csv
import math
import sys

FAR_US = 0.1


def read_states(directory):
    """run number -> whether it met the far state, and its line latencies"""
    states = {}
    with open(f"{directory}/states.txt") as lines:
        for line in lines:
            words = line.split()
            before, after = float(words[3]), float(words[4])
            states[int(words[1])] = (before >= FAR_US or after >= FAR_US, before, after)
    return states


def read_ratios(directory, states, baseline):
    """(op, size, variant) -> [(ratio, far)], and the variants in order"""
    ratios = collections.defaultdict(list)
    variants = []
    for run, (far, _, _) in sorted(states.items()):
        times = collections.defaultdict(dict)
        with open(f"{directory}/run-{run}.csv") as rows:
            for row in csv.DictReader(rows):
                if row["component"] not in variants:
                    variants.append(row["component"])
                times[(row["op"], int(row["size_bytes"]))][row["component"]] = \
                    float(row["mean_us"])
        for (op, size), by_variant in times.items():
            base = by_variant.get(baseline, math.nan)
            for variant, t in by_variant.items():
                if variant != baseline and not math.isnan(t) and not math.isnan(base):
                    ratios[(op, size, variant)].append((t / base, far))
    return ratios, [v for v in variants if v != baseline]


def median(values):
    ordered = sorted(values)
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


def cell(values):
    if not values:
        return "no valid run"
    plain = [r for r, _ in values]
    far = [r for r, is_far in values if is_far]
    worst_far = f"{max(far):.2f}" if far else "-"
    return f"{median(plain):.2f} [{min(plain):.2f}-{max(plain):.2f}] far {worst_far}"


def main():
    directory = sys.argv[1]
    baseline = sys.argv[2] if len(sys.argv) > 2 else "tuned"
    states = read_states(directory)
    ratios, variants = read_ratios(directory, states, baseline)
    for run, (far, before, after) in sorted(states.items()):
        print(f"run {run}: line {before:.3f} / {after:.3f} us{' (far)' if far else ''}")
    print(f"ratio to {baseline}: median [smallest-largest] far: largest in far runs")
    print("variants: " + ", ".join(f"{i + 1} = {v}" for i, v in enumerate(variants)))
    keys = sorted({(op, size) for op, size, _ in ratios})
    for op in sorted({op for op, _ in keys}):
        print(op)
        for _, size in [k for k in keys if k[0] == op]:
            cells = [f"{i + 1}: {cell(ratios.get((op, size, v), [])):31s}"
                     for i, v in enumerate(variants)]
            print(f"  {size:>9}  " + "  ".join(cells))


if __name__ == "__main__":
    main()
