/*
 * Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
 * $COPYRIGHT$
 *
 * Additional copyrights may follow
 *
 * $HEADER$
 */

/*
 * Between test_multinode.c, which runs the mode its command line names,
 * and test_multinode_memory.c, which holds the out-of-memory modes.
 */

#ifndef TEST_MULTINODE_H
#define TEST_MULTINODE_H

/* no-memory: on 2x2 nodes; its result for main() (st_finish()) */
int tm_no_memory(void);
/* no-memory-bcast: on 4x2 nodes; its result for main() (st_finish()) */
int tm_no_memory_bcast(void);

#endif
