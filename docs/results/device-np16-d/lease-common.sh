#!/usr/bin/env bash
# What every call of the fourth lease ran first (sourced by lease.sh to
# lease-4.sh): Debian 12's Open MPI 4.1.4 unpacked under /tmp/ompi, its
# environment, the machine's description and an mpirun check.  Results
# go to /tmp/res, packed into $OUT/res.tar.gz by save().
set -u
B=$(cd "$(dirname "$0")" && pwd)
budget=${BUDGET:-520}
N16=${N16:-16} N8=${N8:-8}
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
  echo "thp $(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null)"
  ldd --version | head -1; which mpirun; mpirun --version | head -1; } > "$R/machine.txt" 2>&1
cat "$R/machine.txt"
log "mpirun check"
timeout 60 mpirun -np 2 --mca coll_shmcico_verbose 10 "$B/mpi/test_plain" > "$R/check.txt" 2>&1
echo "rc $?" >> "$R/check.txt"; tail -n 15 "$R/check.txt"; save
grep -q '^rc 0' "$R/check.txt" || { log "mpirun check failed"; exit 3; }
[ -z "${CHECK_ONLY:-}" ] || exit 0

# tcase NAME COMMAND...: one correctness case into $R/tests.txt
tcase() {
    local name=$1; shift
    [ "$(left)" -gt 60 ] || { echo "SKIP $name" >> "$R/tests.txt"; return; }
    local s=$SECONDS
    if timeout 100 "$@" > "$R/t-$name.txt" 2>&1; then v=PASS; else v="FAIL($?)"; fi
    echo "$v $name $((SECONDS - s))s" | tee -a "$R/tests.txt"
}
# [DSO=DIR] bench NAME NP SECONDS-ESTIMATE OPTIONS...: one run into $R/NAME,
# with the component of $B/DIR (default comp)
bench() {
    local name=$1 np=$2 est=$3; shift 3
    if [ "$(left)" -lt "$est" ]; then log "skip $name (left $(left) s)"; return; fi
    log "bench $name"
    OMPI_MCA_mca_base_component_path=$L/openmpi/lib/openmpi3:$B/${DSO:-comp} \
        timeout $(( $(left) - 5 )) "$B/bin/repeat.sh" 1 "$R/$name" "$np" "$@" > "$R/$name.out" 2>&1
    log "done $name rc $?"; save
}
