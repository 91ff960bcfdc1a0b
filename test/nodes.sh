#!/usr/bin/env bash
#
# Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
# Simulated nodes on one machine, for the tests of communicators that
# span nodes:
#
#   nodes.sh LAYOUT [MPIRUN-OPTION]... PROGRAM [ARG]...
#
# LAYOUT is 2x2 (node1:2,node2:2), 2x2-by-node (the same, ranks placed
# round robin over the nodes), 3+2, 1+3, 3x2, 4x2, 4x1 or 2x1.  Every node's
# daemon runs in a UTS namespace whose hostname is the node's name
# (nodes-agent.sh is mpirun's rsh agent), so each gets its own node-local
# communicators; between nodes Open MPI uses TCP, over loopback with
# Open MPI 4.1, over a veth pair in a network namespace of the job's own
# with 5.0 (below).  Needs root (namespaces, a veth pair with 5.0, and
# node1 to node4 in a private /etc/hosts where they are missing) and
# MPIRUN in the environment.

set -euo pipefail
: "${MPIRUN:?}"
here=$(cd "$(dirname "$0")" && pwd)
layout=${1:?usage: nodes.sh LAYOUT [MPIRUN-OPTION]... PROGRAM [ARG]...}
shift

case $layout in
    2x2) hosts=node1:2,node2:2; extra=() ;;
    2x2-by-node) hosts=node1:2,node2:2; extra=(--map-by node) ;;
    3+2) hosts=node1:3,node2:2; extra=() ;;
    1+3) hosts=node1:1,node2:3; extra=() ;;
    3x2) hosts=node1:2,node2:2,node3:2; extra=() ;;
    4x2) hosts=node1:2,node2:2,node3:2,node4:2; extra=() ;;
    4x1) hosts=node1:1,node2:1,node3:1,node4:1; extra=() ;;
    2x1) hosts=node1:1,node2:1; extra=() ;;
    *) echo "nodes.sh: unknown layout $layout" >&2; exit 2 ;;
esac

# Every node's processes share this machine's cores: where the job has
# more processes than the machine has cores, they yield the core while
# they wait, as Open MPI makes them on an oversubscribed node (its own
# rule sees each simulated node's slots, which are not oversubscribed).
# (On a 2-core machine the cases on simulated nodes took 256 s without,
# 106 s with.)
procs=$(tr ',' '\n' <<<"$hosts" | awk -F: '{ n += $2 } END { print n }')
if [ "$procs" -gt "$(nproc)" ]; then
    extra+=(--mca mpi_yield_when_idle 1)
fi

# node1 to node4, where the system does not know them, come from a copy
# of /etc/hosts bound over it in a mount namespace of the job's own: the
# system's file stays as it was
missing=()
for i in 1 2 3 4; do
    getent hosts "node$i" >/dev/null || missing+=("$i")
done
if [ ${#missing[@]} -gt 0 ]; then
    if [ -z "${_SHMCICO_NODES_HOSTS:-}" ]; then
        exec unshare --mount --propagation private env _SHMCICO_NODES_HOSTS=1 \
            "$here/${0##*/}" "$layout" "$@"
    fi
    copy=$(mktemp /tmp/shmcico-hosts.XXXXXX)
    cat /etc/hosts >"$copy"
    for i in "${missing[@]}"; do
        echo "127.0.1.1$i node$i" >>"$copy"
    done
    chmod 644 "$copy"
    mount --bind "$copy" /etc/hosts
    rm -f "$copy"               # the mount keeps it while the job runs
fi

# the component path and the backing directory travel to every node's
# processes (mpirun passes only OMPI_MCA_* of its own environment to the
# local daemon's children otherwise)
env_args=()
for var in $(env | sed -n 's/^\(OMPI_MCA_[A-Za-z0-9_]*\)=.*/\1/p'); do
    env_args+=(-x "$var")
done
# (and glibc's tunables: the suite's huge or kept pages)
[ -z "${GLIBC_TUNABLES:-}" ] || env_args+=(-x GLIBC_TUNABLES)
# the launcher's own parameters: Open MPI 4.1's ORTE takes them as MCA
# parameters, 5.0's PRRTE as its own (--prtemca; its rsh agent is
# plm_ssh_agent); the shared-memory BTL is vader in 4.1, sm in 5.0
version=$("$MPIRUN" --version 2>/dev/null || true)
if grep -q 'Open MPI) [0-4]\.' <<<"$version"; then
    launcher=(--mca plm_rsh_agent "$here/nodes-agent.sh" --mca oob_tcp_if_include lo)
    btl=self,vader,tcp
    net=lo
else
    # PRRTE's daemons never talk over a loopback interface ("No network
    # interfaces were found for out-of-band communications"): the job
    # runs in a network namespace of its own, where one end of a veth
    # pair carries a private address; the namespace, and the pair with
    # it, goes when the job ends
    command -v ip >/dev/null || { echo "nodes.sh: Open MPI 5.0 needs ip (iproute2)" >&2; exit 2; }
    if [ -z "${_SHMCICO_NODES_NETNS:-}" ]; then
        exec unshare --net env _SHMCICO_NODES_NETNS=1 "$here/${0##*/}" "$layout" "$@"
    fi
    # a fresh namespace holds nothing but lo: never touch another one
    if [ "$(ip -o link show | wc -l)" != 1 ]; then
        echo "nodes.sh: not in a network namespace of its own (_SHMCICO_NODES_NETNS is set)" >&2
        exit 2
    fi
    net=shmcico0
    ip link set lo up
    ip link add "$net" type veth peer name "$net-peer"
    ip addr add 10.213.0.1/24 dev "$net"
    ip link set "$net-peer" up
    ip link set "$net" up
    # (5.0 binds each process to a core, and refuses to let processes
    # share one unless told so: a node of 3 processes on a machine of 2
    # cores)
    launcher=(--prtemca plm_ssh_agent "$here/nodes-agent.sh"
              --prtemca oob_tcp_if_include "$net" --bind-to core:overload-allowed)
    btl=self,sm,tcp
fi
exec "$MPIRUN" --host "$hosts" "${extra[@]+"${extra[@]}"}" "${launcher[@]}" \
    --mca btl "$btl" --mca btl_tcp_if_include "$net" \
    "${env_args[@]+"${env_args[@]}"}" "$@"
