import sys, glob, statistics, re, os
d = sys.argv[1]
ops = ["bcast","scatter","scatterv","gather","gatherv","allgather","allgatherv"]
def load(f):
    r = {}
    for line in open(f, errors="replace"):
        p = line.split()
        if len(p) >= 2 and p[0].isdigit():
            try: r[int(p[0])] = float(p[1])
            except ValueError: pass
    return r
sizes = None
print("| size | " + " | ".join(ops) + " |")
print("|---|" + "---|" * len(ops))
rows = {}
for op in ops:
    for comp in ["shmcico", "tuned"]:
        runs = [load(f) for f in sorted(glob.glob(f"{d}/{op}-{comp}-*.txt"))]
        rows[(op, comp)] = runs
allsizes = sorted(set().union(*[set(r.keys()) for runs in rows.values() for r in runs]))
for s in allsizes:
    cells = []
    for op in ops:
        sh = [r[s] for r in rows[(op,"shmcico")] if s in r]
        tu = [r[s] for r in rows[(op,"tuned")] if s in r]
        if not sh or not tu: cells.append("-"); continue
        # per-run ratios (run i of each, alternating), median
        ratios = [a/b for a, b in zip(sh, tu)]
        cells.append("%.2f" % statistics.median(ratios))
    label = "%d B" % s if s < 1024 else ("%d KiB" % (s//1024) if s < 1<<20 else "%d MiB" % (s >> 20))
    print(f"| {label} | " + " | ".join(cells) + " |")
