#!/usr/bin/env bash
# Lease script (sixth lease, third call): the second call found the
# queues faster than single copy at np 4 for Bcast up to 64 KiB (warm
# and cold) and for cold Allgather(v) up to 64 KiB, where at np 2 single
# copy won from 32 KiB.  Where does each crossover lie at np 2, 3, 4
# and 8: the default against the queues only and coll/tuned, 16 KiB to
# 512 KiB, warm and cold, two runs each.
. "$(dirname "$0")/../device-np16-d/lease-common.sh"

c="--components shmcico,shmcico@shmcico_single_copy=off,tuned"
s="--sizes 16K,32K,48K,64K,96K,128K,192K,256K,512K --max-seconds 0.15"
for k in 1 2; do
    for np in 3 4 2; do
        bench sweep-np$np-warm-$k $np 30 $c $s --ops bcast,allgather,allgatherv,scatter,gather --cache warm
        bench sweep-np$np-cold-$k $np 30 $c $s --ops bcast,allgather,allgatherv,scatter,gather --cache cold
    done
    bench sweep-np8-warm-$k 8 30 $c $s --ops bcast,allgather,allgatherv --cache warm
    bench sweep-np8-cold-$k 8 30 $c $s --ops bcast,allgather,allgatherv --cache cold
done
log "end; left in backing dir: $(ls -A "$shm" | wc -l)"
save
rmdir "$shm" 2>/dev/null
