import csv,glob,statistics,collections,sys
d=sys.argv[1]
r=collections.defaultdict(list)
for v in 'AB':
    for f in sorted(glob.glob(f'{d}/{v}/run-*.csv')):
        t={}
        for row in csv.DictReader(open(f)):
            t[(row['op'],int(row['size_bytes']),row['component'])]=float(row['mean_us'])
        for (op,size,comp),us in t.items():
            if comp=='shmcico' and (op,size,'tuned') in t:
                r[(op,size,v)].append(us/t[(op,size,'tuned')])
for op,size in sorted(set((k[0],k[1]) for k in r)):
    a=r.get((op,size,'A'),[]); b=r.get((op,size,'B'),[])
    if a and b: print(f"{op:10s} {size:8d}  A {statistics.median(a):.2f} [{min(a):.2f}-{max(a):.2f}]  B {statistics.median(b):.2f} [{min(b):.2f}-{max(b):.2f}]")
