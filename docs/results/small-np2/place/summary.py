"""Medians over the rounds of shmcico/tuned per build: summary.py OUT.
Each column: median ratio (median shmcico time) [smallest-largest ratio]."""
import collections
import csv
import glob
import statistics
import sys

out = sys.argv[1]
runs = collections.defaultdict(list)
for path in sorted(glob.glob(out + '/*.csv')):
    build = path.split('/')[-1].rsplit('-', 1)[0]
    times = {(r['op'], r['size_bytes'], r['component']): float(r['mean_us'])
             for r in csv.DictReader(open(path))}
    for (op, size, comp), t in times.items():
        if comp == 'shmcico' and (op, size, 'tuned') in times:
            runs[(op, int(size), build)].append((t / times[(op, size, 'tuned')], t))
builds = sorted({k[2] for k in runs})
for op, size in sorted({(k[0], k[1]) for k in runs}):
    line = f"{op:10s} {size:8d}"
    for b in builds:
        xs = runs.get((op, size, b), [])
        if xs:
            ratios = [x[0] for x in xs]
            line += (f"  {b}: {statistics.median(ratios):.3f}"
                     f" ({statistics.median(x[1] for x in xs):.3f}us)"
                     f" [{min(ratios):.2f}-{max(ratios):.2f}] n={len(xs)}")
    print(line)
