#!/usr/bin/env bash
# Lease script (sixth lease, second call): the first call found every
# setup far on this machine (a line's trip 97 to 114 ns, a load from
# memory 133 to 143 ns) and cold Bcast (16 to 256 KiB) and Allgather(v)
# (16 to 64 KiB) at np 4 at 0.86 to 1.06 of coll/tuned.  Which
# transport, and which nearness, would have served them better: the
# default against the queues only, against near by hint, and coll/tuned,
# in the same runs, np 4 and np 2, cold and warm.
. "$(dirname "$0")/../device-np16-d/lease-common.sh"

c="--components shmcico,shmcico@shmcico_single_copy=off,shmcico@shmcico_nearness=near,tuned"
s="--sizes 4K,16K,32K,64K,256K,1M --max-seconds 0.2"
for k in 1 2 3; do
    bench np4-cold-$k 4 40 $c $s --ops bcast,allgather,allgatherv,scatter,gather --cache cold
    bench np4-warm-$k 4 40 $c $s --ops bcast,allgather,allgatherv,scatter,gather --cache warm
    bench np2-cold-$k 2 30 $c $s --ops bcast,allgather,scatter,gather --cache cold
    bench np2-warm-$k 2 30 $c $s --ops bcast,allgather,scatter,gather --cache warm
done
log "end; left in backing dir: $(ls -A "$shm" | wc -l)"
save
rmdir "$shm" 2>/dev/null
