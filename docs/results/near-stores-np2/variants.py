# Ratio of component A to component B at each point, one column per run,
# each tagged with the machine's state before and after the run
# (n: near, a line's one-way trip under 0.12 us; f: far):
#   python3 variants.py A B DIR/*.csv
import csv, sys

a, b, files = sys.argv[1], sys.argv[2], sys.argv[3:]
rows = {}
for f in files:
    times = {}
    for r in csv.DictReader(open(f)):
        times[(r['op'], int(r['size_bytes']), r['component'])] = float(r['mean_us'])
    words = open(f.replace('.csv', '.state')).read().split()
    state = ''.join('n' if float(w) < 0.12 else 'f'
                    for w in words if w.replace('.', '').isdigit())
    for (op, size, c), t in times.items():
        if c == a and (op, size, b) in times:
            rows.setdefault((op, size), []).append('%.2f%s' % (t / times[(op, size, b)], state))
for k in sorted(rows):
    print('%-10s %8d  %s' % (k[0], k[1], ' '.join(rows[k])))
