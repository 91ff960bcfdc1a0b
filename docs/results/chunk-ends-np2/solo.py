# median time of shmcico alone per operation and size, build A (next
# chunk, c66e412) against build C (pulls from the front, pushes from the
# back): python3 solo.py (in this directory)
import csv, glob, statistics
t = {}
for v in 'AC':
    for f in glob.glob(f'solo-{v}/run-*.csv'):
        for r in csv.DictReader(open(f)):
            if r['component'] == 'shmcico' and r['mean_us'] != 'nan':
                t.setdefault((r['op'], int(r['size_bytes']), v), []).append(float(r['mean_us']))
for o, s in sorted({(o, s) for (o, s, v) in t}):
    a, c = t.get((o, s, 'A')), t.get((o, s, 'C'))
    if a and c and o not in ('null', 'waitup'):
        print(f"{o:8s} {s:8d} A {statistics.median(a):8.2f} us  C {statistics.median(c):8.2f} us"
              f"  C/A {statistics.median(c) / statistics.median(a):.2f}"
              f"  A [{min(a):.1f} to {max(a):.1f}]  C [{min(c):.1f} to {max(c):.1f}]")
