#!/usr/bin/env bash
# Lease script (fourth lease, third call): Debian 12's Open MPI 4.1.4 unpacked under
# /tmp/ompi, the component and programs built on the 2-vCPU machine,
# phases in order of priority, each step only while the budget allows.
# Results go to /tmp/res, packed into $OUT/res.tar.gz after every step.
. "$(dirname "$0")/lease-common.sh"

DSO=comp-new
main="--components shmcico,tuned --sizes 8,4K,64K,256K,1M --max-seconds 0.2"
bench new-np16-warm $N16 50 $main --cache warm
bench new-np16-cold $N16 50 $main --cache cold
bench big-np16-warm-late20us $N16 40 --components shmcico,tuned --sizes 4M,16M --max-seconds 0.3 --cache warm --late-ns 20000
bench big-np16-cold-late20us $N16 30 --components shmcico,tuned --sizes 4M --max-seconds 0.3 --cache cold --late-ns 20000
log "end; left in backing dir: $(ls -A "$shm" | wc -l)"
save
rmdir "$shm" 2>/dev/null
