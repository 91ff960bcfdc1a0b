#!/usr/bin/env bash
# What the three calls of the fifth lease shared: the fourth lease's
# start (unpacking Open MPI, its environment, tcase and bench), a queue
# geometry per run (q) and the setup timing (setup).
. "$(dirname "$0")/../device-np16-d/lease-common.sh"

# q SLOTS FRAG NAME NP EST OPTIONS...: bench with that queue geometry
q() {
    local s=$1 f=$2; shift 2
    export OMPI_MCA_coll_shmcico_slots=$s OMPI_MCA_coll_shmcico_fragment_size=$f
    bench "$@"
    unset OMPI_MCA_coll_shmcico_slots OMPI_MCA_coll_shmcico_fragment_size
}
# setup NAME NP MPIRUN-ARGS...: comm-setup 1000 into $R/setup.txt
setup() {
    local name=$1 np=$2; shift 2
    [ "$(left)" -gt 30 ] || return
    echo "$name $(timeout 60 mpirun -np "$np" "$@" "$B/bin/comm-setup" 1000 2>&1 | tail -n 1)" \
        | tee -a "$R/setup.txt"
}
