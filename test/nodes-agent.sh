#!/bin/sh
#
# Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
# The rsh agent of test/nodes.sh: mpirun calls it as "nodes-agent.sh HOST
# COMMAND-LINE..." to start its daemon on HOST; it runs the command line
# in a UTS namespace of its own whose hostname is HOST, so Open MPI takes
# every such namespace for a node of its own.

host=$1
shift
exec unshare --uts /bin/sh -c "hostname '$host' && $*"
