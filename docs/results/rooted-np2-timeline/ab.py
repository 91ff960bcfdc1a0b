#!/usr/bin/env python3
# Alternating runs of two builds or settings, A and B:  ab.py DIR
# (DIR holds shmcico-bench --csv files named A-CACHE-rN.csv, B-CACHE-rN.csv).
# Prints shmcico / coll/tuned of every run and the median, per cache
# state, operation and size (the 4-byte throw-away point left out), as
# docs/results/ab-small-np2/ab.sh does for runs without a cache state.
import collections, csv, glob, os, statistics as st, sys

def means(path):
    """(op, size, component) -> mean us of one benchmark CSV file"""
    out = {}
    for row in csv.DictReader(open(path)):
        try:
            out[(row['op'], row['size_bytes'], row['component'])] = float(row['mean_us'])
        except ValueError:                  # a point without a valid launch
            pass
    return out

def ratios(directory):
    """(cache, op, size, variant) -> shmcico/tuned of each run"""
    out = collections.defaultdict(list)
    for path in sorted(glob.glob(directory + '/*.csv')):
        variant, cache, _ = os.path.basename(path)[:-4].split('-')
        mean = means(path)
        for (op, size, comp), us in mean.items():
            tuned = mean.get((op, size, 'tuned'))
            if comp == 'shmcico' and size != '4' and tuned is not None:
                out[(cache, op, int(size), variant)].append(us / tuned)
    return out

def listed(values):
    return ' '.join('%.2f' % v for v in values)

def main(directory):
    r = ratios(directory)
    for point in sorted({k[:3] for k in r}):
        a, b = r.get(point + ('A',), []), r.get(point + ('B',), [])
        print('%-5s %-9s %8d  A %-16s med %.2f   B %-16s med %.2f' % (
            point + (listed(a), st.median(a) if a else 0, listed(b), st.median(b) if b else 0)))

if __name__ == '__main__':
    main(sys.argv[1])
