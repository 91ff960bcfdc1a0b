#!/usr/bin/env bash
# Lease script (fifth lease, third call): fragments of 32 KiB in a queue
# of 8 slots (256 KiB) against the old default (8 KiB, 64 KiB queue).
. "$(dirname "$0")/lease-queues.sh"

qo="--components shmcico,tuned --ops bcast,allgather,allgatherv --sizes 16K,32K,64K,256K,1M,4M --max-seconds 0.2"
for k in 1 2; do
    for f in 8192 32768; do q 8 $f q-np16-warm-s8-f$f-$k $N16 15 $qo --cache warm; done
done
for f in 32768 8192; do q 8 $f q-np16-cold-s8-f$f-1 $N16 15 $qo --cache cold; done
q8="--components shmcico,tuned --ops bcast,allgather,allgatherv --sizes 16K,64K,256K,1M,4M --max-seconds 0.2"
for f in 8192 32768; do q 8 $f q-np8-warm-s8-f$f-1 $N8 12 $q8 --cache warm; done
log "comm-setup"
cs="--mca coll shmcico,tuned,basic,self,libnbc --mca coll_shmcico_slots 8"
for f in 32768 8192 32768; do
    setup "nokeep-s8-f$f" $N16 $cs --mca coll_shmcico_fragment_size $f --mca coll_shmcico_keep_segments 0
done
setup "keep-s8-f32768" $N16 $cs --mca coll_shmcico_fragment_size 32768
save
log "tests"
tcase stress-np16-f32k mpirun -np $N16 --mca coll_shmcico_fragment_size 32768 "$B/mpi/test_stress" 3000 all
tcase bcast-np16-f32k mpirun -np $N16 --mca coll_shmcico_fragment_size 32768 "$B/mpi/test_bcast" --no-huge
log "end; left in backing dir: $(ls -A "$shm" | wc -l)"
save
rmdir "$shm" 2>/dev/null
