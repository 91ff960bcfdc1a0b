import csv,glob,statistics,collections,sys
d=sys.argv[1]
r=collections.defaultdict(list); sizes=set()
for f in sorted(glob.glob(d+'/*.csv')):
    cache=f.split('/')[-1].split('-')[0]
    t={}
    for row in csv.DictReader(open(f)):
        t[(row['op'],int(row['size_bytes']),row['component'])]=float(row['mean_us'])
    for (op,size,comp),us in t.items():
        if comp!='tuned' and (op,size,'tuned') in t:
            r[(cache,op,size,comp)].append(us/t[(op,size,'tuned')]); sizes.add(size)
for cache in ('warm','cold'):
  for op in ('allgather','allgatherv','gather','gatherv','scatter','scatterv'):
    for size in sorted(sizes):
        a=r[(cache,op,size,'shmcico')]; b=r[(cache,op,size,'shmcico@shmcico_own_streaming_min=0')]
        if a and b: print(f"{cache} {op:10s} {size:8d} default {statistics.median(a):.2f} [{min(a):.2f}-{max(a):.2f}]  own streaming never {statistics.median(b):.2f} [{min(b):.2f}-{max(b):.2f}]")
