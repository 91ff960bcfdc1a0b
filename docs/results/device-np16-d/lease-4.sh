#!/usr/bin/env bash
# Lease script (fourth lease, fourth call): Debian 12's Open MPI 4.1.4 unpacked under
# /tmp/ompi, the component and programs built on the 2-vCPU machine,
# phases in order of priority, each step only while the budget allows.
# Results go to /tmp/res, packed into $OUT/res.tar.gz after every step.
. "$(dirname "$0")/lease-common.sh"

DSO=comp-new bench big-np16-warm-rule $N16 30 --components shmcico,tuned --sizes 4M --max-seconds 0.3 --cache warm
sc="--components shmcico,tuned --ops scatter,scatterv --sizes 16K,32K,64K,128K,256K --max-seconds 0.2"
for k in 1 2; do
    DSO=comp bench sc-np3-old-$k 3 8 $sc --cache warm
    DSO=comp-new bench sc-np3-new-$k 3 8 $sc --cache warm
done
DSO=comp-new bench new-np16-warm-2 $N16 25 --components shmcico,tuned --sizes 8,4K,64K,256K,1M --max-seconds 0.2 --cache warm
DSO=comp-new bench big-np16-cold-rule $N16 20 --components shmcico,tuned --sizes 4M --max-seconds 0.3 --cache cold
log "end; left in backing dir: $(ls -A "$shm" | wc -l)"
save
rmdir "$shm" 2>/dev/null
