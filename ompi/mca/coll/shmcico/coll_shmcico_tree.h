/* -*- Mode: C; c-basic-offset:4 ; indent-tabs-mode:nil -*- */
/*
 * Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
 * $COPYRIGHT$
 *
 * Additional copyrights may follow
 *
 * $HEADER$
 */

/**
 * @file
 *
 * Notification trees of Bcast.  A tree is made once per communicator
 * (O(p) memory, only for the NUMA hierarchy) and serves every root: the
 * parent of a rank is found in O(1) and its children in O(children).
 *
 * The plain shapes are defined over virtual ranks v = (rank - root) mod p,
 * so the root is always v = 0:
 *   kary(k)     parent (v-1)/k, children k*v+1 .. k*v+k
 *   knomial(k)  parent: v with its lowest non-zero base-k digit cleared;
 *               children: v + d*k^j for every j below that digit
 *   flat        everyone is a child of the root
 *   chain       v-1 -> v -> v+1
 * The NUMA hierarchy is two k-ary levels: the root sends to the leaders of
 * the other NUMA nodes (NUMA leaders first) and to the members of its own
 * node, and every leader sends to the members of its node, so each byte
 * crosses between NUMA nodes once per node.
 */

#ifndef MCA_COLL_SHMCICO_TREE_H
#define MCA_COLL_SHMCICO_TREE_H

#include <stdint.h>

/** The largest tree degree a parameter or hint may give (a k-nomial
 *  tree needs 2 at least, the other shapes 1). */
#define MCA_COLL_SHMCICO_MAX_TREE_DEGREE 1024

typedef enum {
    MCA_COLL_SHMCICO_TREE_KARY = 0,
    MCA_COLL_SHMCICO_TREE_KNOMIAL,
    MCA_COLL_SHMCICO_TREE_FLAT,
    MCA_COLL_SHMCICO_TREE_CHAIN,
    MCA_COLL_SHMCICO_TREE_NUMA,
    MCA_COLL_SHMCICO_TREE_COUNT
} mca_coll_shmcico_tree_type_t;

/** The degree a tree of this shape is built with: a k-nomial tree has 2
 *  at least, so a degree of 1 (which the other shapes take, from
 *  coll_shmcico_tree_degree or a hint) gives it 2.  Applied when the
 *  segment is made, to the values every process takes from rank 0, so
 *  the order in which hints arrive does not matter. */
static inline int mca_coll_shmcico_tree_degree_for(mca_coll_shmcico_tree_type_t type,
                                                   int degree)
{
    return MCA_COLL_SHMCICO_TREE_KNOMIAL == type && degree < 2 ? 2 : degree;
}

typedef struct mca_coll_shmcico_tree_t {
    mca_coll_shmcico_tree_type_t type;
    int degree;                 /**< k, at least 2 for kary/knomial/numa */
    int nprocs;
    /* NUMA hierarchy only */
    int nnodes;                 /**< NUMA nodes present */
    int *node_of;               /**< [p] node index (0..nnodes-1) of a rank */
    int *index_in_node;         /**< [p] position of a rank in its node */
    int *node_start;            /**< [nnodes+1] first member of each node */
    int *members;               /**< [p] ranks by node, in rank order */
} mca_coll_shmcico_tree_t;

/**
 * Build a tree.  numa[p] gives the NUMA node of each rank (any integers;
 * only equality matters) and is used by the NUMA hierarchy alone; it may
 * be NULL for the other shapes.  Returns 0 or -1 (bad arguments, no
 * memory).
 */
int mca_coll_shmcico_tree_init(mca_coll_shmcico_tree_t *tree,
                               mca_coll_shmcico_tree_type_t type, int degree,
                               int nprocs, const int32_t *numa);

void mca_coll_shmcico_tree_fini(mca_coll_shmcico_tree_t *tree);

/** Parent of rank in the tree rooted at root; -1 for the root. */
int mca_coll_shmcico_tree_parent(const mca_coll_shmcico_tree_t *tree,
                                 int rank, int root);

/** Children of rank in the tree rooted at root, in the order they
 *  should be notified; returns their number.  children must hold as many
 *  as the shape can give: nprocs - 1 in general (flat), degree for kary,
 *  (degree - 1) * ceil(log_degree nprocs) for knomial, one for chain. */
int mca_coll_shmcico_tree_children(const mca_coll_shmcico_tree_t *tree,
                                   int rank, int root, int *children);

/**
 * One rank's place in a tree for one root: its parent and its children.
 * A communicator keeps the place of the root of its last Bcast, so that
 * a program that broadcasts from one root finds its place once, not at
 * every call (the children of a NUMA tree take over a hundred instructions,
 * a sixth of a small Bcast's).
 */
typedef struct mca_coll_shmcico_place_t {
    int root;                   /**< the root it is for; -1: none yet */
    int parent;                 /**< -1 at the root */
    int nchildren;
    int *children;              /**< room for nprocs - 1 */
} mca_coll_shmcico_place_t;

/** An empty place with room for the children of nprocs processes.
 *  Returns 0 or -1 (no memory). */
int mca_coll_shmcico_place_init(mca_coll_shmcico_place_t *place, int nprocs);

void mca_coll_shmcico_place_fini(mca_coll_shmcico_place_t *place);

/** Find rank's place in tree for root, into place. */
void mca_coll_shmcico_place_find(const mca_coll_shmcico_tree_t *tree, int rank, int root,
                                 mca_coll_shmcico_place_t *place);

/** rank's place in tree for root, found again only when place holds
 *  another root's: a place serves one tree and one rank. */
static inline const mca_coll_shmcico_place_t *
mca_coll_shmcico_place_for(const mca_coll_shmcico_tree_t *tree, int rank, int root,
                           mca_coll_shmcico_place_t *place)
{
    if (place->root != root) {
        mca_coll_shmcico_place_find(tree, rank, root, place);
    }
    return place;
}

/**
 * Group ranks 0..p-1 by key[stride * r] (any integers; only equality
 * matters), the groups numbered in order of their lowest rank:
 * group_of[p] each rank's group, index_in[p] its position in its group
 * (in rank order), start[n + 1] where each group begins in members,
 * members[p] the ranks by group, in rank order.  start must hold p + 1
 * entries (n is at most p).  Returns n, the number of groups.  (The NUMA
 * tree's nodes; the network stage's nodes.)
 */
int mca_coll_shmcico_group_ranks(const int32_t *key, int stride, int p, int *group_of,
                                 int *index_in, int *start, int *members);

/** Name of a tree type ("kary", ...), NULL when out of range. */
const char *mca_coll_shmcico_tree_name(mca_coll_shmcico_tree_type_t type);

#endif /* MCA_COLL_SHMCICO_TREE_H */
