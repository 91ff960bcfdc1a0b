#!/bin/sh
#
# Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
# $COPYRIGHT$
#
# Additional copyrights may follow
#
# $HEADER$
#
# install-hint.sh DIR OMPI_PKGLIBDIR
#
# Says how Open MPI comes to load a mca_coll_shmcico.so installed in DIR
# (configure prints it, and so does make install).

dir=${1%/}
pkglibdir=${2%/}

case $dir in
    "$pkglibdir")
        echo "  This is Open MPI's own component directory: every job selects"
        echo "  coll/shmcico by priority, with no flag." ;;
    "${HOME:-/nonexistent}/.openmpi/components")
        echo "  This is your per-user component directory, which Open MPI searches:"
        echo "  your jobs select coll/shmcico by priority, with no flag." ;;
    *)
        cat <<HINT
  Open MPI does not search this directory by itself: to load coll/shmcico
  from there, name it at run time, after Open MPI's own directory:
    mpirun --mca mca_base_component_path $pkglibdir:$dir ...
  or
    export OMPI_MCA_mca_base_component_path=$pkglibdir:$dir
  (Installing with --with-component-dir=\$HOME/.openmpi/components instead
  makes one user's jobs load it with no flag, and a configure without
  --prefix installs into Open MPI's own directory, for every job.)
HINT
        ;;
esac
