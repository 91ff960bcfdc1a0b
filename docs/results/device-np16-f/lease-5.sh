#!/usr/bin/env bash
# Lease script (sixth lease, fifth call): the first call found coll/sm's
# Bcast at np 4 faster than shmcico's from 16 KiB (shmcico 1.1 to 2.0
# times its time), where the fourth lease had measured np 16 only.
# Which part of shmcico's queues costs it: the default, the queues only,
# the queues with ordinary stores (shmcico_streaming_min=0), coll/sm and
# coll/tuned in the same runs, np 4 and 3, warm and cold; then the
# queues with 32 KiB fragments.  And test_hints at np 16 (fixed).
. "$(dirname "$0")/../device-np16-e/lease-queues.sh"

export OMPI_MCA_coll_shmcico_cache_probe=0
tcase hints-np16 mpirun -np $N16 "$B/mpi/test_hints"
unset OMPI_MCA_coll_shmcico_cache_probe
c="--components shmcico,shmcico@shmcico_single_copy=off,shmcico@shmcico_single_copy=off@shmcico_streaming_min=0,sm,tuned"
s="--ops bcast --sizes 16K,32K,64K,256K,1M --max-seconds 0.2"
for k in 1 2; do
    bench sm-np4-warm-$k 4 15 $c $s --cache warm
    bench sm-np4-cold-$k 4 15 $c $s --cache cold
done
bench sm-np3-warm-1 3 15 $c $s --cache warm
bench sm-np3-cold-1 3 15 $c $s --cache cold
q 8 32768 frag32k-np4-warm-1 4 15 $c $s --cache warm
q 8 32768 frag32k-np4-cold-1 4 15 $c $s --cache cold
log "end; left in backing dir: $(ls -A "$shm" | wc -l)"
save
rmdir "$shm" 2>/dev/null
