import csv, glob, statistics, sys, collections
d = sys.argv[1]; var = sys.argv[2] if len(sys.argv) > 2 else None
for cache in ["warm", "cold"]:
    data = collections.defaultdict(list)
    for f in sorted(glob.glob(f"{d}/{cache}-*.csv")):
        rows = list(csv.DictReader(open(f)))
        t = {(r["op"], int(r["size_bytes"]), r["component"]): float(r["mean_us"]) if r["mean_us"] not in ("", "nan") else None for r in rows}
        comps = sorted({r["component"] for r in rows})
        v = [c for c in comps if c.startswith("shmcico@")][0]
        for (op, s, c), x in t.items():
            if c != "shmcico": continue
            tu = t.get((op, s, "tuned")); y = t.get((op, s, v))
            if x and tu and y: data[(op, s)].append((x / tu, y / tu))
    print(f"## {cache}: shmcico/tuned, default (2 MiB) / variant {v}: median [min..max] over runs")
    for (op, s), l in sorted(data.items(), key=lambda k: (k[0][0], k[0][1])):
        a = [p[0] for p in l]; b = [p[1] for p in l]
        print(f"{op:11s} {s>>20:3d} MiB  {statistics.median(a):.2f} [{min(a):.2f}..{max(a):.2f}]  {statistics.median(b):.2f} [{min(b):.2f}..{max(b):.2f}]  n={len(l)}")
