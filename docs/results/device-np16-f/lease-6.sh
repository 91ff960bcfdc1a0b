#!/usr/bin/env bash
# Lease script (sixth lease, sixth call): the cache probe of Bcast and
# Allgather(v) blocks with several readers (coll_shmcico_readers_cache_probe_max,
# 512 KiB), which runs on 3 or more processes even where, as here, the
# kernel's copy of cold data is fast and the probe of blocks sent is off.
# Its tests at np 4 and 8 (every block cold), then the component with it
# (the default) against the same with coll_shmcico_readers_cache_probe_max
# 0 (as before), alternating mpiruns, each with the queues only and
# coll/tuned, cold and warm, np 4, 3 and 8.
. "$(dirname "$0")/../device-np16-d/lease-common.sh"

export OMPI_MCA_coll_shmcico_cache_probe=0
c64=$(for o in bcast scatter scatterv gather gatherv allgather allgatherv; do
        printf ' --mca coll_shmcico_%s_single_copy_min 65536' $o; done)
for np in 4 8; do
    tcase transport-cold-np$np mpirun -np $np --mca coll_shmcico_cache_probe 1 \
        --mca coll_shmcico_cache_probe_ns 1 $c64 "$B/mpi/test_transport" cold
done
tcase vector-allgatherv-np8 mpirun -np 8 "$B/mpi/test_vector" allgatherv
echo "left in backing dir: $(ls -A "$shm" | wc -l)" >> "$R/tests.txt"
unset OMPI_MCA_coll_shmcico_cache_probe
timeout 30 mpirun -np 4 --mca coll_shmcico_verbose 10 "$B/mpi/test_plain" 2>&1 \
    | grep 'cache probe' > "$R/probe.txt"
save

c="--components shmcico,shmcico@shmcico_single_copy=off,tuned"
s="--ops bcast,allgather,allgatherv --sizes 64K,128K,256K,512K,1M --max-seconds 0.15"
old() { OMPI_MCA_coll_shmcico_readers_cache_probe_max=0 bench "$@"; }
for k in 1 2; do
    bench new-np4-cold-$k 4 15 $c $s --cache cold
    old old-np4-cold-$k 4 15 $c $s --cache cold
    old old-np4-warm-$k 4 15 $c $s --cache warm
    bench new-np4-warm-$k 4 15 $c $s --cache warm
done
for np in 3 8; do
    bench new-np$np-cold-1 $np 15 $c $s --cache cold
    old old-np$np-cold-1 $np 15 $c $s --cache cold
    old old-np$np-warm-1 $np 15 $c $s --cache warm
    bench new-np$np-warm-1 $np 15 $c $s --cache warm
done
log "end; left in backing dir: $(ls -A "$shm" | wc -l)"
save
rmdir "$shm" 2>/dev/null
