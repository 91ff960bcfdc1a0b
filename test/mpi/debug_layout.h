/* -*- Mode: C; c-basic-offset:4 ; indent-tabs-mode:nil -*- */
/*
 * Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
 * $COPYRIGHT$
 *
 * Additional copyrights may follow
 *
 * $HEADER$
 */

/*
 * Included before every source of the test DSO abi-layout/: the Open MPI
 * headers then lay objects out as an Open MPI configured with
 * --enable-debug does (a magic word and two fields more in every
 * object), while the Open MPI that loads the DSO was configured without.
 * The component must see the difference and refuse to register
 * (coll_shmcico_abi.c; case abi-layout-refused).  opal_config.h guards
 * itself, so the value set here is the one every later header sees.
 */

#include "opal_config.h"

#undef OPAL_ENABLE_DEBUG
#define OPAL_ENABLE_DEBUG 1
