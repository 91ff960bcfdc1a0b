#!/bin/sh
#
# Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
# Environment for one rank of a job, where mpirun's MPMD syntax
# ("-np 2 PROG : -np 1 -x VAR=VALUE PROG") cannot be used (Open MPI
# 5.0.7's daemons on the simulated nodes of test/nodes.sh die on it):
#
#   rank-env.sh RANK VAR=VALUE... -- PROGRAM [ARG]...
#
# runs PROGRAM with the variables set in the process whose
# OMPI_COMM_WORLD_RANK (set by Open MPI 4.1's and 5.0's launchers) is
# RANK, and as it is everywhere else.

usage() {
    echo "usage: rank-env.sh RANK VAR=VALUE... -- PROGRAM [ARG]..." >&2
    exit 2
}

[ $# -ge 1 ] || usage
rank=$1
shift
: "${OMPI_COMM_WORLD_RANK:?rank-env.sh: not started by mpirun}"
while [ $# -gt 0 ] && [ "$1" != -- ]; do
    case $1 in
        [A-Za-z_]*=*) ;;
        *) usage ;;
    esac
    if [ "$OMPI_COMM_WORLD_RANK" = "$rank" ]; then
        export "$1"
    fi
    shift
done
[ $# -ge 2 ] || usage               # "--" and a program
shift
exec "$@"
