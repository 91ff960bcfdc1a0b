#!/usr/bin/env bash
# Lease script (fifth lease, second call): fragment size and queue size
# against Bcast and Allgather(v) through the queues, np 16 and 8.
. "$(dirname "$0")/lease-queues.sh"

qo="--components shmcico,tuned --ops bcast,allgather,allgatherv --sizes 16K,32K,64K,256K,1M,4M --max-seconds 0.2"
geo1="8:8192 16:32768 32:32768 16:65536 8:65536 32:16384 64:32768"
geo2="64:32768 32:16384 8:65536 16:65536 32:32768 16:32768 8:8192"
for k in 1 2; do
    [ $k = 1 ] && g=$geo1 || g=$geo2
    for c in $g; do
        s=${c%:*} f=${c#*:}; q $s $f q-np16-warm-s$s-f$f-$k $N16 15 $qo --cache warm
    done
done
for c in 8:8192 32:32768 16:65536; do
    s=${c%:*} f=${c#*:}; q $s $f q-np16-cold-s$s-f$f-1 $N16 15 $qo --cache cold
done
q8="--components shmcico,tuned,shmcico@shmcico_single_max_procs=4 --ops bcast,allgather,allgatherv --sizes 16K,64K,256K,1M,4M --max-seconds 0.2"
for c in 8:8192 32:32768 16:65536; do
    s=${c%:*} f=${c#*:}; q $s $f q-np8-warm-s$s-f$f-1 $N8 12 $q8 --cache warm
done
log "comm-setup"
cs="--mca coll shmcico,tuned,basic,self,libnbc --mca coll_shmcico_keep_segments 0"
for c in 8:8192 16:32768 32:32768 8:65536; do
    s=${c%:*} f=${c#*:}
    setup "nokeep-s$s-f$f" $N16 $cs --mca coll_shmcico_slots $s --mca coll_shmcico_fragment_size $f
done
save
log "end; left in backing dir: $(ls -A "$shm" | wc -l)"
save
rmdir "$shm" 2>/dev/null
