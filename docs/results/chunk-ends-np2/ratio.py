import csv, sys, glob, statistics
d, a, b = sys.argv[1:4]; ops = sys.argv[4:] 
res = {}
for f in sorted(glob.glob(d + '/run-*.csv')):
    t = {}
    for r in csv.DictReader(open(f)):
        if r['mean_us'] != 'nan': t[(r['op'], int(r['size_bytes']), r['component'])] = float(r['mean_us'])
    for (op, sz, c), v in t.items():
        if c == a and (op, sz, b) in t: res.setdefault((op, sz), []).append(v / t[(op, sz, b)])
for (op, sz) in sorted(res, key=lambda k: (k[0], k[1])):
    if ops and op not in ops: continue
    v = res[(op, sz)]
    print(f"{op:11s} {sz:9d} {statistics.median(v):.2f}  [{min(v):.2f}..{max(v):.2f}] n={len(v)}")
