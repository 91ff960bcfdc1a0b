import csv,statistics as st,collections,sys,glob
d=collections.defaultdict(list)
for f in sorted(glob.glob(sys.argv[1])):
    for r in csv.DictReader(open(f)):
        if r['mean_us']!='nan': d[(r['op'],int(r['size_bytes']),r['component'])].append(float(r['mean_us']))
comps=[]
for _,_,c in d:
    if c not in comps: comps.append(c)
for op in ['bcast','scatter','scatterv','gather','gatherv','allgather','allgatherv']:
    for sz in sorted(set(s for o,s,_ in d if o==op)):
        t=[st.median(d[(op,sz,c)]) if d[(op,sz,c)] else float('nan') for c in comps]
        tu=t[comps.index('tuned')]
        print(f"{op:10s} {sz:8d} "+"  ".join(f"{c[:16]:>16s} {x:8.2f} ({x/tu:.2f})" for c,x in zip(comps,t)))
