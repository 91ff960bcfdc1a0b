#!/usr/bin/env bash
# Lease script (fourth lease, second call): Debian 12's Open MPI 4.1.4 unpacked under
# /tmp/ompi, the component and programs built on the 2-vCPU machine,
# phases in order of priority, each step only while the budget allows.
# Results go to /tmp/res, packed into $OUT/res.tar.gz after every step.
. "$(dirname "$0")/lease-common.sh"

L1=$L/openmpi/lib/openmpi3
log "tests (new build)"
tcase scatter-np16 env OMPI_MCA_mca_base_component_path=$L1:$B/comp-new mpirun -np $N16 "$B/mpi/test_vector" scatter
tcase scatterv-np16 env OMPI_MCA_mca_base_component_path=$L1:$B/comp-new mpirun -np $N16 "$B/mpi/test_vector" scatterv
tcase stress-all-ops-np16 env OMPI_MCA_mca_base_component_path=$L1:$B/comp-new mpirun -np $N16 "$B/mpi/test_stress" 5000 all
echo "left in backing dir: $(ls -A "$shm" | wc -l)" >> "$R/tests.txt"
save
sc="--components shmcico,tuned --ops scatter,scatterv --sizes 16K,32K,64K,128K,256K --max-seconds 0.2"
for np in $N16 $N8 4; do
    for k in 1 2; do
        DSO=comp bench sc-np$np-old-$k $np 15 $sc --cache warm
        DSO=comp-new bench sc-np$np-new-$k $np 15 $sc --cache warm
    done
done
for k in 1 2; do
    DSO=comp bench sc-np$N16-cold-old-$k $N16 15 $sc --cache cold
    DSO=comp-new bench sc-np$N16-cold-new-$k $N16 15 $sc --cache cold
done
log "end; left in backing dir: $(ls -A "$shm" | wc -l)"
save
rmdir "$shm" 2>/dev/null
