#!/usr/bin/env python3
# shmcico time of each queue geometry over that of the default (s=8,
# f=8192), medians over runs, per state, operation and size, with their
# geometric mean from 64 KiB:  python3 summary.py call-1 call-2 call-3
import csv,glob,re,sys,math,statistics as st,collections
t=collections.defaultdict(list)
for d in sys.argv[1:]:
    for f in glob.glob(d+'/q-np*-*/run-1.csv'):
        m=re.match(r'q-(np\d+-\w+)-(s\d+-f\d+)-\d',f.split('/')[-2]); st_,cfg=m.groups()
        for r in csv.DictReader(open(f)):
            if r['component']!='shmcico': continue
            try: v=float(r['mean_us'])
            except: continue
            t[(st_,cfg,r['op'],int(r['size_bytes']))].append(v)
states=sorted(set(k[0] for k in t)); cfgs=sorted(set(k[1] for k in t), key=lambda c:(int(c.split('-f')[1]),int(c[1:].split('-')[0])))
for s in states:
  for opset in (('bcast',),('allgather','allgatherv')):
    print(f"== {s} {'/'.join(opset)}: shmcico time / s8-f8192's, medians over runs; geomean 64K..4M")
    sizes=sorted(set(k[3] for k in t if k[0]==s and k[2] in opset))
    print("cfg".ljust(12)+''.join(f"{z//1024:>7d}K" for z in sizes)+"   geo>=64K  runs")
    for c in cfgs:
      row=c.ljust(12); g=[]; n=0
      for z in sizes:
        r=[]
        for o in opset:
          a=t.get((s,c,o,z)); b=t.get((s,'s8-f8192',o,z))
          if a and b: r.append(st.median(a)/st.median(b)); n=max(n,len(a))
        if r:
          v=st.mean(r); row+=f"{v:8.2f}"
          if z>=65536: g.append(v)
        else: row+=" "*8
      if g: row+=f"   {math.exp(sum(map(math.log,g))/len(g)):.3f}     {n}"
      print(row)
