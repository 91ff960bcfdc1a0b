#!/usr/bin/env python3
# shmcico / coll/tuned per run (the run's own ratio) of each build, medians
# and ranges, and shmcico's time; run here: python3 summary.py
import collections
import csv
import glob
import statistics as st

ratio, time = collections.defaultdict(list), collections.defaultdict(list)
for f in glob.glob('*-*-*/run-1.csv'):
    cache, build, _ = f.split('/')[0].split('-')
    rows = {(r['op'], r['size_bytes'], r['component']): r for r in csv.DictReader(open(f))}
    for (op, size, comp), r in rows.items():
        if comp != 'shmcico' or size not in ('8', '64'):
            continue
        try:
            mine, tuned = float(r['mean_us']), float(rows[(op, size, 'tuned')]['mean_us'])
        except (KeyError, ValueError):
            continue
        ratio[(cache, op, int(size), build)].append(mine / tuned)
        time[(cache, op, int(size), build)].append(mine)
builds = ('e737cd9', '30e925d')
print('cache op size | ' + ' | '.join(f'{b}: us, ratio median [range]' for b in builds))
for cache, op, size in sorted(set(k[:3] for k in ratio)):
    cells = []
    for b in builds:
        r, t = ratio.get((cache, op, size, b)), time.get((cache, op, size, b))
        cells.append(f'{st.median(t):.3f}, {st.median(r):.2f} [{min(r):.2f} to {max(r):.2f}]'
                     if r else '-')
    print(f'{cache} {op:10s} {size:3d} | ' + ' | '.join(cells))
