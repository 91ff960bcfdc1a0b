#!/usr/bin/env python3
"""shmcico / coll/tuned per run for the queues (default below 16 KiB) and
single copy (shmcico_single_copy_min=6144): median [min to max] of the runs."""
import csv, glob, collections, statistics, sys, os
here = os.path.dirname(os.path.abspath(__file__))
for cache in ('warm', 'cold'):
    d = collections.defaultdict(list)
    for f in sorted(glob.glob(f'{here}/{cache}/run-*.csv')):
        t = {(r['op'], int(r['size_bytes']), r['component']): float(r['mean_us'])
             for r in csv.DictReader(open(f)) if r['mean_us'] != 'nan'}
        for (op, sz, c), v in t.items():
            if c != 'tuned' and (op, sz, 'tuned') in t:
                d[(op, sz, c)].append(v / t[(op, sz, 'tuned')])
    print(f'{cache}: op size | default (queues below 16 KiB) | single copy from 6 KiB')
    for op, sz in sorted({(k[0], k[1]) for k in d}):
        if sz < 1024:
            continue
        cells = []
        for c in ('shmcico', 'shmcico@shmcico_single_copy_min=6144'):
            v = d.get((op, sz, c), [])
            cells.append(f'{statistics.median(v):.2f} [{min(v):.2f}-{max(v):.2f}] n={len(v)}' if v else '-')
        print(f'  {op:10s} {sz:6d} | ' + ' | '.join(cells))
