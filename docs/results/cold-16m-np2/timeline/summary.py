#!/usr/bin/env python3
# Summaries of cma-trace timelines (test/bench/cma_trace.c) of 16 MiB Bcast
# runs at np 2:  summary.py RUNDIR...  (each RUNDIR holds trace.PID files)
#  1. every kernel copy of >= 1 MiB made inside a 16 MiB Bcast, in us
#     per MiB, "first" when its
#     process had not copied that address range in that direction before
#     (the other process's first address, the bytes and the direction),
#     "again" otherwise: median, min, max, per run set;
#  2. per run: the launches of each component (both processes' Bcasts,
#     one launch = the n-th Bcast of each; coll/tuned's have a 16 MiB
#     pull, coll/shmcico's 1 MiB chunks, coll/sm's none), how many
#     contain a first copy, the median time of those and of the others,
#     and the last 16 (* = with a first copy).  The benchmark's own calls
#     (a check, the slot estimates, the warm-up stage) are among the
#     launches here; which ones it timed, the trace does not say.
import glob, os, statistics, sys

def load(path):
    return [(int(a), int(b), k, int(n), r) for a, b, k, n, r in
            (line.split() for line in open(path))]

def in_bcast(e, bcasts):
    return any(b[0] <= e[0] and e[1] <= b[1] for b in bcasts)

def copies(events):
    """the copies inside 16 MiB Bcasts (not the ones a process made of its
    own buffers before), each with whether it is its process's first of
    that range in that direction"""
    seen, out = set(), []
    bcasts = [x for x in events if x[2] == 'bcast' and x[3] == 16 << 20]
    for e in sorted(x for x in events if x[2] != 'bcast' and x[3] >= 1 << 20
                    and in_bcast(x, bcasts)):
        key = (e[2], e[3], e[4])
        out.append((e, key not in seen))
        seen.add(key)
    return out

def launches(events):
    cps = copies(events)
    for b in (x for x in events if x[2] == 'bcast' and x[3] == 16 << 20):
        inside = [(e, f) for e, f in cps if e[0] >= b[0] and e[1] <= b[1]]
        yield b, inside

def per_mib(e):
    return (e[1] - e[0]) / 1000 / (e[3] / (1 << 20))

def set_name(d):
    return os.path.basename(d.rstrip('/')).rsplit('-', 1)[0]

rates = {}
for d in sys.argv[1:]:
    for f in glob.glob(d + '/trace.*'):
        for e, first in copies(load(f)):
            key = (set_name(d), e[2], e[3], 'first' if first else 'again')
            rates.setdefault(key, []).append(per_mib(e))
print('copies: set direction bytes first/again: n, median, min, max us per MiB')
for k in sorted(rates):
    v = rates[k]
    print('  %-22s %s %8d %-5s n=%3d median %4.0f min %4.0f max %4.0f'
          % (k + (len(v), statistics.median(v), min(v), max(v))))

print('launches: run component: with a first copy (n, median us), without, the last 16')
for d in sys.argv[1:]:
    procs = [list(launches(load(f))) for f in sorted(glob.glob(d + '/trace.*'))]
    rows = []
    for pair in zip(*procs):
        sizes = {e[3] for _, inside in pair for e, _ in inside}
        comp = 'tuned' if 16 << 20 in sizes else ('shmcico' if sizes else 'sm')
        dur = (max(b[1] for b, _ in pair) - min(b[0] for b, _ in pair)) / 1000
        rows.append((comp, dur, any(f for _, inside in pair for _, f in inside)))
    for comp in ('shmcico', 'tuned'):
        r = [x for x in rows if x[0] == comp]
        w = [x[1] for x in r if x[2]]
        wo = [x[1] for x in r if not x[2]]
        print('  %s %s: %d launches; with %d, median %.0f; without %d, median %.0f; last 16: %s'
              % (os.path.basename(d), comp, len(r), len(w), statistics.median(w) if w else 0,
                 len(wo), statistics.median(wo) if wo else 0,
                 ' '.join('%.0f%s' % (x[1], '*' if x[2] else '') for x in r[-16:])))
