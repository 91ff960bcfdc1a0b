# shmcico / coll/tuned per round, the old near rule (ab/*-old-K.csv)
# against the new (ab/*-new-K.csv), and the medians:
#   python3 ab.py ab warm|cold
import csv, statistics, sys

d, cache = sys.argv[1], sys.argv[2]

def ratios(f):
    t = {}
    for r in csv.DictReader(open(f)):
        t[(r['op'], int(r['size_bytes']), r['component'])] = float(r['mean_us'])
    return {(o, s): v / t[(o, s, 'tuned')] for (o, s, c), v in t.items() if c == 'shmcico'}

old = [ratios('%s/%s-old-%d.csv' % (d, cache, i)) for i in range(1, 6)]
new = [ratios('%s/%s-new-%d.csv' % (d, cache, i)) for i in range(1, 6)]
for k in sorted(old[0]):
    print('%-10s %8d  %s  |  %s   median %.2f -> %.2f' % (
        k[0], k[1], ' '.join('%.2f' % r[k] for r in old), ' '.join('%.2f' % r[k] for r in new),
        statistics.median(r[k] for r in old), statistics.median(r[k] for r in new)))
