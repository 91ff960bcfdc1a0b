#!/usr/bin/env bash
# Lease script (fourth lease): Debian 12's Open MPI 4.1.4 unpacked under
# /tmp/ompi, the component and programs built on the 2-vCPU machine,
# phases in order of priority, each step only while the budget allows.
# Results go to /tmp/res, packed into $OUT/res.tar.gz after every step.
. "$(dirname "$0")/lease-common.sh"

log "cma-fanout"
timeout 60 "$B/bin/cma-fanout" "${FANOUT:-15}" 201 > "$R/cma-fanout.txt" 2>&1
log "done cma-fanout rc $?"; save

ops="bcast scatter scatterv gather gatherv allgather allgatherv"
every() { for o in $ops; do printf ' --mca coll_shmcico_%s_%s %s' "$o" "$1" "$2"; done; }
anysize=$(every single_copy_max_procs 0)
c64=$(every single_copy_min 65536)$anysize
export OMPI_MCA_coll_shmcico_cache_probe=0
log "tests"
tcase keep-np16 mpirun -np $N16 "$B/mpi/test_keep" keep
tcase keep-off-np16 mpirun -np $N16 --mca coll_shmcico_keep_segments 0 "$B/mpi/test_keep" off
seg=$(timeout 60 mpirun -np $N16 --mca coll_shmcico_verbose 10 "$B/mpi/test_plain" 2>&1 \
      | sed -n 's/.*new segment of \([0-9]*\) bytes.*/\1/p' | head -n 1)
echo "segment at np $N16: ${seg:-?} bytes" >> "$R/tests.txt"
tcase many-comms-np16 mpirun -np $N16 --mca coll_shmcico_max_memory $((20 * ${seg:-1})) \
    "$B/mpi/test_many_comms" 20
tcase threads-np8 mpirun -np $N8 "$B/mpi/test_threads" 2 200
tcase bcast-np16 mpirun -np $N16 "$B/mpi/test_bcast" --no-huge
for o in scatterv gatherv; do tcase $o-np16 mpirun -np $N16 "$B/mpi/test_vector" $o; done
tcase transport-np16 mpirun -np $N16 --mca coll_shmcico_verbose 10 $c64 "$B/mpi/test_transport" single
tcase stress-all-ops-np16 mpirun -np $N16 "$B/mpi/test_stress" 5000 all
echo "left in backing dir: $(ls -A "$shm" | wc -l)" >> "$R/tests.txt"
unset OMPI_MCA_coll_shmcico_cache_probe
save

# setup NAME NP MPIRUN-ARGS...: comm-setup 1000 into $R/setup.txt
setup() {
    local name=$1 np=$2; shift 2
    [ "$(left)" -gt 30 ] || return
    echo "$name $(timeout 60 mpirun -np "$np" "$@" "$B/bin/comm-setup" 1000 2>&1 | tail -n 1)" \
        | tee -a "$R/setup.txt"
}
main="--components shmcico,tuned --sizes 8,4K,64K,256K,1M,4M --max-seconds 0.2"
for k in ${MAIN_RUNS:-1 2}; do
    bench main-np16-warm-$k $N16 60 $main --cache warm
    bench main-np16-cold-$k $N16 60 $main --cache cold
done
log "comm-setup"
for k in 1 2; do
    setup "keep-$k" $N16 --mca coll shmcico,tuned,basic,self,libnbc
    setup "nokeep-$k" $N16 --mca coll shmcico,tuned,basic,self,libnbc --mca coll_shmcico_keep_segments 0
    setup "tuned-$k" $N16 --mca coll tuned,basic,self,libnbc
done
save
bench scatter-shape-np16-warm $N16 45 --components shmcico,shmcico@shmcico_single_copy=off,tuned \
    --ops scatter,scatterv,gather --sizes 16K,32K,64K,128K,256K --max-seconds 0.2 --cache warm
bench sm-np16-warm $N16 40 --components shmcico,sm,tuned --ops bcast --sizes 8,4K,64K,256K,1M,4M --max-seconds 0.2 --cache warm
bench main-np16-warm-3 $N16 60 $main --cache warm
bench main-np16-cold-3 $N16 60 $main --cache cold
bench sm-np16-cold $N16 40 --components shmcico,sm,tuned --ops bcast --sizes 8,4K,64K,256K,1M,4M --max-seconds 0.2 --cache cold
log "end; left in backing dir: $(ls -A "$shm" | wc -l)"
save
rmdir "$shm" 2>/dev/null
