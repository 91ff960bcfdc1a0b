#!/usr/bin/env bash
# Lease script: Debian 12's Open MPI 4.1.4 unpacked under /tmp/ompi, the
# component and programs built on the 2-vCPU machine, phases in order of
# priority, each step only while the budget allows.  Results go to
# /tmp/res, packed into $OUT/res.tar.gz after every step.
set -u
B=$(cd "$(dirname "$0")" && pwd)
budget=${BUDGET:-480}
N16=${N16:-16} N12=${N12:-12} N6=${N6:-6}
[ -z "${REHEARSE:-}" ] || export OMPI_MCA_rmaps_base_oversubscribe=1
R=/tmp/res
rm -rf "$R"; mkdir -p "$R"
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
t0=$SECONDS
left() { echo $((budget - (SECONDS - t0))); }
save() { tar czf "$OUT/res.tar.gz" -C /tmp res 2>/dev/null; }
log() { echo "[$(date -u +%H:%M:%S) +$((SECONDS - t0))s] $*" | tee -a "$R/log.txt"; }

mkdir -p /tmp/ompi
for f in "$B"/debs/*.deb; do dpkg -x "$f" /tmp/ompi || exit 1; done
P=/tmp/ompi/usr
ln -sf orterun $P/bin/mpirun
L=$P/lib/x86_64-linux-gnu
export OPAL_PREFIX=$P PMIX_INSTALL_PREFIX=$P PATH=$P/bin:$PATH
export LD_LIBRARY_PATH=$L/openmpi/lib:$L:/tmp/ompi/lib/x86_64-linux-gnu
export PMIX_MCA_mca_base_component_path=$L/pmix2/lib/pmix
export OMPI_MCA_mca_base_component_path=$L/openmpi/lib/openmpi3:$B/comp
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_pml=ob1 OMPI_MCA_btl=self,vader OMPI_MCA_btl_base_warn_component_unused=0
[ -n "${REHEARSE:-}" ] || export OMPI_MCA_rmaps_base_mapping_policy=core OMPI_MCA_hwloc_base_binding_policy=core
export BENCH=$B/bin/shmcico-bench
shm=/dev/shm/shmcico-lease; rm -rf "$shm"; mkdir -p "$shm"
export OMPI_MCA_coll_shmcico_backing_dir=$shm

{ cat /etc/os-release | head -2; uname -r; nproc; lscpu | grep -E 'Model name|Thread|Core|Socket|cache|NUMA'
  free -g | head -2; df -h /dev/shm | tail -1; echo "ptrace_scope $(cat /proc/sys/kernel/yama/ptrace_scope 2>/dev/null)"
  ldd --version | head -1; which mpirun; mpirun --version | head -1; } > "$R/machine.txt" 2>&1
cat "$R/machine.txt"
log "mpirun check"
timeout 60 mpirun -np 2 --mca coll_shmcico_verbose 10 "$B/mpi/test_plain" > "$R/check.txt" 2>&1
echo "rc $?" >> "$R/check.txt"; tail -n 15 "$R/check.txt"; save
grep -q '^rc 0' "$R/check.txt" || { log "mpirun check failed"; exit 3; }
[ -z "${CHECK_ONLY:-}" ] || exit 0

ops="bcast scatter scatterv gather gatherv allgather allgatherv"
every() { for o in $ops; do printf ' --mca coll_shmcico_%s_%s %s' "$o" "$1" "$2"; done; }
anysize=$(every single_copy_max_procs 0)
c64=$(every single_copy_min 65536)$anysize
single=$(every single_copy_min 1)$anysize
# case NAME NP ENV... -- MCA-ARGS... -- PROGRAM ARGS
tcase() {
    local name=$1 np=$2; shift 2
    [ "$(left)" -gt 60 ] || { echo "SKIP $name" >> "$R/tests.txt"; return; }
    local s=$SECONDS
    if timeout 120 "$@" > "$R/t-$name.txt" 2>&1; then v=PASS; else v="FAIL($?)"; fi
    echo "$v $name $((SECONDS - s))s" | tee -a "$R/tests.txt"
}
export OMPI_MCA_coll_shmcico_cache_probe=0
log "tests"
tcase bcast-np16 16 mpirun -np $N16 "$B/mpi/test_bcast" --no-huge
for o in scatterv gatherv allgatherv; do tcase $o-np16 16 mpirun -np $N16 "$B/mpi/test_vector" $o; done
tcase transport-np16 16 mpirun -np $N16 --mca coll_shmcico_verbose 10 $c64 "$B/mpi/test_transport" single
tcase transport-default-np12 12 mpirun -np $N12 --mca coll_shmcico_verbose 10 "$B/mpi/test_transport" single
tcase stress-all-ops-np16 16 mpirun -np $N16 "$B/mpi/test_stress" 5000 all
tcase allgatherv-np12-single-copy-everything 12 env TC_TRANSPORT=single mpirun -np $N12 $single "$B/mpi/test_vector" allgatherv
tcase bcast-np16-single-copy-everything 16 env TC_TRANSPORT=single mpirun -np $N16 $single "$B/mpi/test_bcast" --no-huge
tcase scatter-np16-queues-only 16 env TC_TRANSPORT=queue mpirun -np $N16 --mca coll_shmcico_single_copy off "$B/mpi/test_vector" scatter
echo "left in backing dir: $(ls -A "$shm" | wc -l)" >> "$R/tests.txt"
unset OMPI_MCA_coll_shmcico_cache_probe
save

# bench NAME NP SECONDS-ESTIMATE OPTIONS...: one run into $R/NAME
bench() {
    local name=$1 np=$2 est=$3; shift 3
    if [ "$(left)" -lt "$est" ]; then log "skip $name (left $(left) s)"; return; fi
    log "bench $name"
    timeout $(( $(left) - 5 )) "$B/bin/repeat.sh" 1 "$R/$name" "$np" "$@" > "$R/$name.out" 2>&1
    log "done $name rc $?"; save
}
main="--components shmcico,tuned --sizes 8,4K,64K,256K,1M,4M --max-seconds 0.2"
for k in 1 2 3; do
    bench main-np16-warm-$k $N16 60 $main --cache warm
    bench main-np16-cold-$k $N16 60 $main --cache cold
done
tr="--components shmcico,shmcico@shmcico_single_copy=off,shmcico@shmcico_single_copy_min=1@shmcico_single_max_procs=0,tuned --sizes 64K,256K,1M,4M --max-seconds 0.2"
bench transports-np16-warm $N16 60 $tr --cache warm --ops bcast,scatter,gather,allgather
bench transports-np16-cold $N16 60 $tr --cache cold --ops bcast,scatter,gather,allgather
bench big-np16-warm $N16 50 --components shmcico,tuned,sm --sizes 16M --max-seconds 0.3 --cache warm \
    --ops bcast,scatter,scatterv,gather,gatherv
bench sm-np16-warm $N16 40 --components shmcico,sm,tuned --ops bcast --sizes 8,4K,64K,256K,1M,4M --max-seconds 0.2 --cache warm
bench sm-np16-cold $N16 40 --components shmcico,sm,tuned --ops bcast --sizes 8,4K,64K,256K,1M,4M --max-seconds 0.2 --cache cold
for np in $N6 $N12; do
    bench cross-np$np-warm $np 40 --components shmcico,shmcico@shmcico_single_max_procs=0,tuned \
        --ops bcast,allgather,allgatherv --sizes 64K,256K,1M,4M --max-seconds 0.2 --cache warm
done
log "end; left in backing dir: $(ls -A "$shm" | wc -l)"
save
rmdir "$shm" 2>/dev/null
