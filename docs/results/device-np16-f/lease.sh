#!/usr/bin/env bash
# Lease script (sixth lease): the fourth and fifth leases' start (Open MPI 4.1.4
# unpacked, tcase, bench), then what no lease has measured yet: the
# nearness each setup measures (819c104) on this machine at np 2, 4 and
# 16, the current build's main table at np 16 and np 4, the setup's
# cost with the trips timed, and the tests at np 16.
. "$(dirname "$0")/../device-np16-e/lease-queues.sh"     # lease-common.sh, setup

# near NAME NP: the verbose line of every setup's nearness, np processes
near() {
    local name=$1 np=$2
    [ "$(left)" -gt 30 ] || return
    timeout 60 mpirun -np "$np" --mca coll_shmcico_verbose 10 "$B/mpi/test_hints" nearness 2>&1 \
        | grep -E 'processes (near|far) ' | sort | uniq -c | sed "s/^/$name /" >> "$R/nearness.txt"
}
log "nearness"
"$B/bin/line-latency" 20000 1 > "$R/line-latency.txt" 2>&1
for np in 2 4 16; do near np$np $np; done
cat "$R/nearness.txt"; save

log "tests"
export OMPI_MCA_coll_shmcico_cache_probe=0
tcase hints-nearness-np4 mpirun -np 4 "$B/mpi/test_hints" nearness
tcase transport-np4 mpirun -np 4 "$B/mpi/test_transport" single
tcase transport-np16 mpirun -np $N16 "$B/mpi/test_transport" single
tcase bcast-np16 mpirun -np $N16 "$B/mpi/test_bcast" --no-huge
tcase stress-all-ops-np16 mpirun -np $N16 "$B/mpi/test_stress" 3000 all
tcase keep-np16 mpirun -np $N16 "$B/mpi/test_keep" keep
echo "left in backing dir: $(ls -A "$shm" | wc -l)" >> "$R/tests.txt"
unset OMPI_MCA_coll_shmcico_cache_probe
save

main="--components shmcico,tuned --sizes 8,4K,64K,256K,1M,4M --max-seconds 0.2"
bench main-np16-warm-1 $N16 60 $main --cache warm
bench main-np16-cold-1 $N16 60 $main --cache cold
main4="--components shmcico,tuned,sm --sizes 8,4K,16K,32K,64K,256K,1M,4M --max-seconds 0.2"
bench main-np4-warm-1 4 45 $main4 --cache warm
bench main-np4-cold-1 4 45 $main4 --cache cold

log "comm-setup"
cs="--mca coll shmcico,tuned,basic,self,libnbc"
for k in 1 2; do
    setup "keep-auto-$k" $N16 $cs
    setup "keep-far-$k" $N16 $cs --mca coll_shmcico_nearness far
    setup "nokeep-auto-$k" $N16 $cs --mca coll_shmcico_keep_segments 0
    setup "nokeep-far-$k" $N16 $cs --mca coll_shmcico_keep_segments 0 --mca coll_shmcico_nearness far
    setup "tuned-$k" $N16 --mca coll tuned,basic,self,libnbc
done
save
bench sm-np16-warm $N16 30 --components shmcico,sm,tuned --ops bcast --sizes 8,4K,64K,256K,1M,4M --max-seconds 0.2 --cache warm
bench main-np16-warm-2 $N16 60 $main --cache warm
bench main-np16-cold-2 $N16 60 $main --cache cold
bench main-np4-warm-2 4 45 $main4 --cache warm
bench main-np4-cold-2 4 45 $main4 --cache cold
log "end; left in backing dir: $(ls -A "$shm" | wc -l)"
save
rmdir "$shm" 2>/dev/null
