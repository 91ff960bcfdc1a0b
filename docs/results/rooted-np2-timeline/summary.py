#!/usr/bin/env python3
# Summaries of cma-trace timelines (test/bench/cma_trace.c) of warm
# Scatter and Gather runs at np 2:  summary.py RUNDIR...
# (each RUNDIR holds the two trace.PID files of one run).
# A launch is the n-th call of an operation and size in each process;
# time 0 is the later of the two calls' starts.  A launch with a pull of
# the whole block is coll/tuned's (btl/vader's CMA), the others are
# coll/shmcico's (its chunks).  Per run, operation, size and component:
#  - the launch: the later end, median over launches;
#  - the first kernel copy's start, median;
#  - pulls and pushes: each copy's time in us per MiB, median, and how
#    many copies of each kind a launch holds (median);
#  - the root's part (shmcico): its copies' time and its time in the call
#    outside them, medians.
# The benchmark's own calls (its check, slot estimates, warm-up) are
# among the launches; which ones it timed, the trace does not say.
import glob, statistics as st, sys

OPS = ('scatter', 'gather')

def load(path):
    return [(int(a), int(b), k, int(n)) for a, b, k, n, _ in
            (line.split() for line in open(path))]

def launches(procs, op, size):
    calls = [[e for e in ev if e[2] == op and e[3] == size] for ev in procs]
    copies = [[e for e in ev if e[2] in ('pull', 'push', 'short')] for ev in procs]
    for i in range(min(len(c) for c in calls)):
        t0 = max(c[i][0] for c in calls)
        yield t0, [(c[i], [e for e in cp if c[i][0] <= e[0] and e[1] <= c[i][1]])
                   for c, cp in zip(calls, copies)]

def root_of(op, parts):
    """Scatter's root pushes or makes no copy, Gather's pulls."""
    kinds = [{e[2] for e in inside} for _, inside in parts]
    want = 'push' if op == 'scatter' else 'pull'
    for p, k in enumerate(kinds):
        if want in k or (op == 'scatter' and not k):
            return p
    return 0

def med(xs):
    return '%7.1f' % st.median(xs) if xs else '      -'

def summarise(procs, op, size):
    out = {}
    for t0, parts in launches(procs, op, size):
        allcp = [e for _, inside in parts for e in inside]
        comp = 'tuned' if any(e[3] >= size and e[2] == 'pull' for e in allcp) else 'shmcico'
        s = out.setdefault(comp, {'end': [], 'first': [], 'pull': [], 'push': [],
                                  'npull': [], 'npush': [], 'rcopy': [], 'rother': []})
        s['end'].append((max(c[1] for c, _ in parts) - t0) / 1e3)
        if allcp:
            s['first'].append((min(e[0] for e in allcp) - t0) / 1e3)
        for k in ('pull', 'push'):
            cp = [e for e in allcp if e[2] == k]
            s[k] += [(e[1] - e[0]) / 1e3 * (1 << 20) / e[3] for e in cp]
            s['n' + k].append(len(cp))
        call, inside = parts[root_of(op, parts)]
        busy = sum(e[1] - e[0] for e in inside) / 1e3
        s['rcopy'].append(busy)
        s['rother'].append((call[1] - max(call[0], t0)) / 1e3 - busy)
    return out

def main(dirs):
    print('%-8s %-8s %8s %-8s %7s %7s %7s %7s %5s %5s %7s %7s' %
          ('run', 'op', 'bytes', 'comp', 'end', 'first', 'pull/M', 'push/M',
           'npull', 'npush', 'r.copy', 'r.other'))
    for d in dirs:
        procs = [load(p) for p in sorted(glob.glob(d + '/trace.*'))]
        sizes = sorted({e[3] for ev in procs for e in ev if e[2] in OPS and e[3] >= 65536})
        for op in OPS:
            for size in sizes:
                for comp, s in sorted(summarise(procs, op, size).items()):
                    print('%-8s %-8s %8d %-8s %s %s %s %s %5s %5s %s %s' % (
                        d.rstrip('/').split('/')[-1], op, size, comp, med(s['end']),
                        med(s['first']), med(s['pull']), med(s['push']),
                        st.median(s['npull']), st.median(s['npush']),
                        med(s['rcopy']), med(s['rother'])))

if __name__ == '__main__':
    main(sys.argv[1:])
