#!/usr/bin/env python3
"""Ratios of the sixth lease's runs: for every run directory matching a
prefix given (e.g. call-3/sweep-np4-warm), each shmcico variant's mean time
over every other component's, per operation and size, one value per run
(in the order of the runs).  Usage: summary.py PREFIX...  (from this
directory); summary.txt is summary.py call-*/* of every prefix."""
import collections
import csv
import glob
import sys

OPS = ['bcast', 'scatter', 'scatterv', 'gather', 'gatherv', 'allgather', 'allgatherv']


def times(path):
    t = {}
    for r in csv.DictReader(open(path)):
        try:
            if int(r['valid']) > 0:
                t[(r['op'], int(r['size_bytes']), r['component'])] = float(r['mean_us'])
        except (KeyError, ValueError):
            pass
    return t


def ratios(prefix):
    d = collections.defaultdict(list)
    for f in sorted(glob.glob(prefix + '*/run-*.csv')):
        t = times(f)
        comps = sorted(set(k[2] for k in t))
        for (op, size, c), v in t.items():
            if not c.startswith('shmcico') or op not in OPS:
                continue
            for o in comps:
                w = t.get((op, size, o))
                if o != c and w:
                    d[(op, size, c + ' / ' + o)].append(v / w)
    return d


def show(prefix):
    d = ratios(prefix)
    sizes = sorted(set(k[1] for k in d))
    print(prefix, '(sizes: ' + ' '.join(str(s) for s in sizes) + ')')
    for pair in sorted(set(k[2] for k in d)):
        for op in OPS:
            vals = [d.get((op, s, pair)) for s in sizes]
            if any(vals):
                cells = ['/'.join('%.2f' % x for x in v) if v else '-' for v in vals]
                print('  %-10s %-52s %s' % (op, pair, ' '.join('%14s' % c for c in cells)))
    print()


for p in sys.argv[1:]:
    show(p)
