#!/usr/bin/env bash
# Lease script (sixth lease, fourth call): the component with
# coll_shmcico_bcast_readers_single_copy_min (a Bcast of 3 or more
# processes sends no block below 64 KiB by single copy).  Its tests at
# np 3, 4 and 16, then Bcast with the floor (the default) against Bcast's
# own crossover (the hint shmcico_single_copy_min=bcast:10240, the rule
# of before), the queues only and coll/tuned, in the same runs, np 3 and
# 4, warm and cold, three rounds.
. "$(dirname "$0")/../device-np16-d/lease-common.sh"

export OMPI_MCA_coll_shmcico_cache_probe=0
for np in 3 4 16; do
    tcase hints-np$np mpirun -np $np "$B/mpi/test_hints"
    tcase transport-np$np mpirun -np $np "$B/mpi/test_transport" single
done
echo "left in backing dir: $(ls -A "$shm" | wc -l)" >> "$R/tests.txt"
unset OMPI_MCA_coll_shmcico_cache_probe
save

c="--components shmcico,shmcico@shmcico_single_copy_min=bcast:10240,shmcico@shmcico_single_copy=off,tuned"
s="--ops bcast --sizes 8K,16K,24K,32K,48K,64K,96K,128K --max-seconds 0.2"
for k in 1 2 3; do
    for np in 3 4; do
        bench floor-np$np-warm-$k $np 20 $c $s --cache warm
        bench floor-np$np-cold-$k $np 20 $c $s --cache cold
    done
done
log "end; left in backing dir: $(ls -A "$shm" | wc -l)"
save
rmdir "$shm" 2>/dev/null
