#!/usr/bin/env bash
# Lease script (fifth lease, first call): the queue's size against the
# time of Bcast and Allgather(v) through the queues at np 16 and 8, and
# Scatter(v) at np 6 and 12.  Each configuration is one mpirun with
# OMPI_MCA_coll_shmcico_slots (and _fragment_size) set for it.
. "$(dirname "$0")/lease-queues.sh"

qo="--components shmcico,tuned --ops bcast,allgather,allgatherv --sizes 16K,64K,256K,1M,4M --max-seconds 0.2"
for c in "8 8192" "32 8192" "128 8192" "512 8192" "32 32768"; do
    set -- $c; q $1 $2 q-np16-warm-s$1-f$2-1 $N16 15 $qo --cache warm
done
for c in "128 8192" "8 8192" "512 8192"; do
    set -- $c; q $1 $2 q-np16-warm-s$1-f$2-2 $N16 15 $qo --cache warm
done
for c in "8 8192" "128 8192"; do
    set -- $c; q $1 $2 q-np16-cold-s$1-f$2-1 $N16 15 $qo --cache cold
done
q8="--components shmcico,tuned,shmcico@shmcico_single_max_procs=4 --ops bcast,allgather,allgatherv --sizes 16K,64K,256K,1M,4M --max-seconds 0.2"
for c in "8 8192" "128 8192"; do
    set -- $c; q $1 $2 q-np8-warm-s$1-f$2-1 $N8 12 $q8 --cache warm
done
sc="--components shmcico,tuned --ops scatter,scatterv --sizes 16K,32K,64K,128K,256K --max-seconds 0.2"
for np in 6 12; do bench sc-np$np-warm $np 8 $sc --cache warm; done
log "comm-setup"
cs="--mca coll shmcico,tuned,basic,self,libnbc"
for s in 8 128; do
    setup "keep-s$s" $N16 $cs --mca coll_shmcico_slots $s
    setup "nokeep-s$s" $N16 $cs --mca coll_shmcico_slots $s --mca coll_shmcico_keep_segments 0
done
save
log "tests"
tcase bcast-np16-s512 mpirun -np $N16 --mca coll_shmcico_slots 512 "$B/mpi/test_bcast" --no-huge
tcase stress-np16-s128 mpirun -np $N16 --mca coll_shmcico_slots 128 "$B/mpi/test_stress" 2000 all
for c in "8 8192" "128 8192"; do
    set -- $c; q $1 $2 q-np16-warm-s$1-f$2-3 $N16 15 $qo --cache warm
done
log "end; left in backing dir: $(ls -A "$shm" | wc -l)"
save
rmdir "$shm" 2>/dev/null
