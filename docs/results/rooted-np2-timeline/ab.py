#!/usr/bin/env python3
# Alternating runs of two builds or settings, A and B: ab.py DIR
# (DIR holds shmcico-bench --csv files named A-CACHE-rN.csv, B-CACHE-rN.csv).
# Prints shmcico / coll/tuned of every run and the median, per cache
# state, operation and size (the 4-byte throw-away point left out).
import csv,glob,statistics as st,collections,sys
R=sys.argv[1]
r=collections.defaultdict(list)
for f in sorted(glob.glob(R+'/*.csv')):
    b,cache,_=f.split('/')[-1][:-4].split('-')
    d={}
    for x in csv.DictReader(open(f)):
        try: d[(x['op'],x['size_bytes'],x['component'])]=float(x['mean_us'])
        except: pass
    for (op,sz,comp),v in d.items():
        if comp=='shmcico' and sz!='4' and (op,sz,'tuned') in d:
            r[(cache,op,int(sz),b)].append(v/d[(op,sz,'tuned')])
keys=sorted({k[:3] for k in r})
for k in keys:
    a=r.get(k+('A',),[]); b=r.get(k+('B',),[])
    f=lambda l:' '.join('%.2f'%x for x in l)
    print('%-5s %-9s %8d  A %-16s med %.2f   B %-16s med %.2f'%(k+(f(a),st.median(a) if a else 0,f(b),st.median(b) if b else 0)))
