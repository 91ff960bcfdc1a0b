#!/usr/bin/env python3
# Medians over the runs of auto-K/ (the default: 32 KiB fragments where
# single copy is refused) and f8k-K/ (coll_shmcico_fragment_size 8192),
# and coll/tuned's over both; run here: python3 summary.py
import collections
import csv
import glob
import statistics as st

t = collections.defaultdict(list)
for f in glob.glob('*-*/run-1.csv'):
    build = f.split('-')[0]
    for r in csv.DictReader(open(f)):
        try:
            t[(r['op'], int(r['size_bytes']), build, r['component'])].append(float(r['mean_us']))
        except ValueError:
            pass
print('op size | shmcico 32 KiB: median [runs] | shmcico 8 KiB | tuned | 32K/8K | 32K/tuned')
for op, size in sorted(set(k[:2] for k in t)):
    a, b = t.get((op, size, 'auto', 'shmcico')), t.get((op, size, 'f8k', 'shmcico'))
    tuned = t.get((op, size, 'auto', 'tuned'), []) + t.get((op, size, 'f8k', 'tuned'), [])
    if a and b and tuned:
        print(f'{op:10s} {size:8d} | {st.median(a):8.2f} [{min(a):.2f} to {max(a):.2f}] | '
              f'{st.median(b):8.2f} [{min(b):.2f} to {max(b):.2f}] | {st.median(tuned):8.2f} | '
              f'{st.median(a) / st.median(b):.2f} | {st.median(a) / st.median(tuned):.2f}')
