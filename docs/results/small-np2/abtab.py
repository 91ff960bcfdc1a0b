import csv,sys,glob,statistics,os,collections
out=sys.argv[1]; names=sys.argv[2:]
rat=collections.defaultdict(list)
for n in names:
    for f in sorted(glob.glob(f"{out}/{n}-*.csv")):
        t={}
        for row in csv.DictReader(open(f)):
            if row['mean_us']!='nan': t[(row['op'],int(row['size_bytes']),row['component'])]=float(row['mean_us'])
        for (op,sz,c),v in t.items():
            if c=='shmcico' and (op,sz,'tuned') in t and op not in ('null','waitup'):
                rat[(op,sz,n)].append(v/t[(op,sz,'tuned')])
keys=sorted({(k[0],k[1]) for k in rat},key=lambda k:(k[1],k[0]))
print("op size "+" ".join(f"{n}:median[min-max]" for n in names))
for op,sz in keys:
    print(op,sz," ".join("%.2f[%.2f-%.2f]"%(statistics.median(rat[(op,sz,n)]),min(rat[(op,sz,n)]),max(rat[(op,sz,n)])) if rat[(op,sz,n)] else "-" for n in names))
