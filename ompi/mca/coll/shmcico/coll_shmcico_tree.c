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
 * Notification trees (see coll_shmcico_tree.h for the shapes).
 */

#include <stdlib.h>
#include <string.h>

#include "coll_shmcico_tree.h"

static const char *const tree_names[MCA_COLL_SHMCICO_TREE_COUNT] = {
    "kary", "knomial", "flat", "chain", "numa"
};

const char *mca_coll_shmcico_tree_name(mca_coll_shmcico_tree_type_t type)
{
    return (type >= 0 && type < MCA_COLL_SHMCICO_TREE_COUNT)
        ? tree_names[type] : NULL;
}

/* ------------------------------------------------------------------ */
/* Plain shapes over virtual ranks 0..n-1, rooted at 0                 */

static int kary_parent(int k, int v)
{
    return 0 == v ? -1 : (v - 1) / k;
}

static int kary_children(int k, int n, int v, int *out)
{
    int count = 0;

    for (long c = (long) k * v + 1; c <= (long) k * v + k && c < n; ++c) {
        out[count++] = (int) c;
    }
    return count;
}

/* weight of the lowest non-zero base-k digit of v > 0 */
static long lowest_digit_weight(int k, int v)
{
    long weight = 1;

    while (0 == (v / weight) % k) {
        weight *= k;
    }
    return weight;
}

static int knomial_parent(int k, int v)
{
    long weight;

    if (0 == v) {
        return -1;
    }
    weight = lowest_digit_weight(k, v);
    return (int) (v - (v / weight) % k * weight);
}

/* larger subtrees first: the highest digit position is notified first */
static int knomial_children(int k, int n, int v, int *out)
{
    long limit = 1;
    int count = 0;

    if (0 == v) {
        while (limit < n) {
            limit *= k;
        }
    } else {
        limit = lowest_digit_weight(k, v);
    }
    for (long weight = limit / k; weight >= 1; weight /= k) {
        for (long d = 1; d < k && v + d * weight < n; ++d) {
            out[count++] = (int) (v + d * weight);
        }
    }
    return count;
}

static int shape_parent(const mca_coll_shmcico_tree_t *tree, int v)
{
    switch (tree->type) {
    case MCA_COLL_SHMCICO_TREE_KNOMIAL:
        return knomial_parent(tree->degree, v);
    case MCA_COLL_SHMCICO_TREE_FLAT:
        return 0 == v ? -1 : 0;
    case MCA_COLL_SHMCICO_TREE_CHAIN:
        return v - 1;
    default:
        return kary_parent(tree->degree, v);
    }
}

static int shape_children(const mca_coll_shmcico_tree_t *tree, int n, int v,
                          int *out)
{
    switch (tree->type) {
    case MCA_COLL_SHMCICO_TREE_KNOMIAL:
        return knomial_children(tree->degree, n, v, out);
    case MCA_COLL_SHMCICO_TREE_FLAT:
        if (0 != v) {
            return 0;
        }
        for (int c = 1; c < n; ++c) {
            out[c - 1] = c;
        }
        return n - 1;
    case MCA_COLL_SHMCICO_TREE_CHAIN:
        if (v + 1 >= n) {
            return 0;
        }
        out[0] = v + 1;
        return 1;
    default:
        return kary_children(tree->degree, n, v, out);
    }
}

/* ------------------------------------------------------------------ */
/* NUMA hierarchy: a k-ary tree over NUMA nodes (rotated so that the   */
/* root's node comes first), and a k-ary tree inside every node        */
/* (rotated so that the root leads its own node)                       */

static int node_size(const mca_coll_shmcico_tree_t *tree, int node)
{
    return tree->node_start[node + 1] - tree->node_start[node];
}

/* position of rank in its node, counted from the node's sub-root */
static int numa_vindex(const mca_coll_shmcico_tree_t *tree, int rank, int root)
{
    int node = tree->node_of[rank];

    if (node != tree->node_of[root]) {
        return tree->index_in_node[rank];
    }
    return (tree->index_in_node[rank] - tree->index_in_node[root]
            + node_size(tree, node)) % node_size(tree, node);
}

/* rank at position vindex of node, counted from the node's sub-root */
static int numa_member(const mca_coll_shmcico_tree_t *tree, int node,
                       int vindex, int root)
{
    if (node == tree->node_of[root]) {
        vindex = (vindex + tree->index_in_node[root]) % node_size(tree, node);
    }
    return tree->members[tree->node_start[node] + vindex];
}

static int numa_node_vindex(const mca_coll_shmcico_tree_t *tree, int node,
                            int root)
{
    return (node - tree->node_of[root] + tree->nnodes) % tree->nnodes;
}

static int numa_node_at(const mca_coll_shmcico_tree_t *tree, int vnode,
                        int root)
{
    return (vnode + tree->node_of[root]) % tree->nnodes;
}

static int numa_parent(const mca_coll_shmcico_tree_t *tree, int rank, int root)
{
    int node = tree->node_of[rank];
    int vindex = numa_vindex(tree, rank, root);
    int parent_vnode;

    if (rank == root) {
        return -1;
    }
    if (0 != vindex) {
        return numa_member(tree, node, kary_parent(tree->degree, vindex), root);
    }
    parent_vnode = kary_parent(tree->degree, numa_node_vindex(tree, node, root));
    return numa_member(tree, numa_node_at(tree, parent_vnode, root), 0, root);
}

static int numa_children(const mca_coll_shmcico_tree_t *tree, int rank,
                         int root, int *children)
{
    int node = tree->node_of[rank];
    int vindex = numa_vindex(tree, rank, root);
    int count = 0, n;

    if (0 == vindex) {
        n = kary_children(tree->degree, tree->nnodes,
                          numa_node_vindex(tree, node, root), children);
        for (int i = 0; i < n; ++i) {
            children[i] = numa_member(tree, numa_node_at(tree, children[i], root),
                                      0, root);
        }
        count = n;
    }
    n = kary_children(tree->degree, node_size(tree, node), vindex,
                      children + count);
    for (int i = count; i < count + n; ++i) {
        children[i] = numa_member(tree, node, children[i], root);
    }
    return count + n;
}

static int numa_build(mca_coll_shmcico_tree_t *tree, const int32_t *numa)
{
    int p = tree->nprocs;

    tree->node_of = malloc(p * sizeof(int));
    tree->index_in_node = malloc(p * sizeof(int));
    tree->node_start = malloc((p + 1) * sizeof(int));
    tree->members = malloc(p * sizeof(int));
    if (!tree->node_of || !tree->index_in_node || !tree->node_start || !tree->members) {
        return -1;
    }
    tree->nnodes = mca_coll_shmcico_group_ranks(numa, 1, p, tree->node_of,
                                                tree->index_in_node, tree->node_start,
                                                tree->members);
    return 0;
}

/* ------------------------------------------------------------------ */
/* A rank's place                                                       */

int mca_coll_shmcico_place_init(mca_coll_shmcico_place_t *place, int nprocs)
{
    *place = (mca_coll_shmcico_place_t) {
        .root = -1, .parent = -1, .nchildren = 0,
        .children = malloc((size_t) (nprocs > 1 ? nprocs - 1 : 1) * sizeof(int))
    };
    return NULL == place->children ? -1 : 0;
}

void mca_coll_shmcico_place_fini(mca_coll_shmcico_place_t *place)
{
    free(place->children);
    *place = (mca_coll_shmcico_place_t) { .root = -1, .parent = -1 };
}

void mca_coll_shmcico_place_find(const mca_coll_shmcico_tree_t *tree, int rank, int root,
                                 mca_coll_shmcico_place_t *place)
{
    place->parent = mca_coll_shmcico_tree_parent(tree, rank, root);
    place->nchildren = mca_coll_shmcico_tree_children(tree, rank, root, place->children);
    place->root = root;
}

/* ------------------------------------------------------------------ */
/* Grouping ranks                                                       */

/* each rank's group, groups numbered in order of their first rank;
 * first[g] is group g's first rank; returns the number of groups */
static int number_groups(const int32_t *key, int stride, int p, int *group_of, int *first)
{
    int n = 0;

    for (int r = 0; r < p; ++r) {
        int g = 0;
        while (g < n && key[(size_t) stride * first[g]] != key[(size_t) stride * r]) {
            ++g;
        }
        if (g == n) {
            first[n++] = r;
        }
        group_of[r] = g;
    }
    return n;
}

int mca_coll_shmcico_group_ranks(const int32_t *key, int stride, int p, int *group_of,
                                 int *index_in, int *start, int *members)
{
    /* members holds the groups' first ranks until the sort fills it */
    int n = number_groups(key, stride, p, group_of, members);

    /* a counting sort, stable: start[g] first counts, then is group g's
     * cursor, which ends at group g + 1's start */
    memset(start, 0, (size_t) (n + 1) * sizeof(int));
    for (int r = 0; r < p; ++r) {
        ++start[group_of[r] + 1];
    }
    for (int g = 0; g < n; ++g) {
        start[g + 1] += start[g];
    }
    for (int r = 0; r < p; ++r) {
        index_in[r] = start[group_of[r]]++;
        members[index_in[r]] = r;
    }
    for (int g = n - 1; g > 0; --g) {
        start[g] = start[g - 1];
    }
    start[0] = 0;
    for (int r = 0; r < p; ++r) {
        index_in[r] -= start[group_of[r]];
    }
    return n;
}

/* ------------------------------------------------------------------ */

int mca_coll_shmcico_tree_init(mca_coll_shmcico_tree_t *tree,
                               mca_coll_shmcico_tree_type_t type, int degree,
                               int nprocs, const int32_t *numa)
{
    memset(tree, 0, sizeof(*tree));
    if (type < 0 || type >= MCA_COLL_SHMCICO_TREE_COUNT || nprocs < 1
        || degree < 1 || (MCA_COLL_SHMCICO_TREE_KNOMIAL == type && degree < 2)
        || (MCA_COLL_SHMCICO_TREE_NUMA == type && NULL == numa)) {
        return -1;
    }
    tree->type = type;
    tree->degree = degree;
    tree->nprocs = nprocs;
    if (MCA_COLL_SHMCICO_TREE_NUMA == type && 0 != numa_build(tree, numa)) {
        mca_coll_shmcico_tree_fini(tree);
        return -1;
    }
    return 0;
}

void mca_coll_shmcico_tree_fini(mca_coll_shmcico_tree_t *tree)
{
    free(tree->node_of);
    free(tree->index_in_node);
    free(tree->node_start);
    free(tree->members);
    memset(tree, 0, sizeof(*tree));
}

int mca_coll_shmcico_tree_parent(const mca_coll_shmcico_tree_t *tree,
                                 int rank, int root)
{
    int p = tree->nprocs, vparent;

    if (MCA_COLL_SHMCICO_TREE_NUMA == tree->type) {
        return numa_parent(tree, rank, root);
    }
    vparent = shape_parent(tree, (rank - root + p) % p);
    return vparent < 0 ? -1 : (vparent + root) % p;
}

int mca_coll_shmcico_tree_children(const mca_coll_shmcico_tree_t *tree,
                                   int rank, int root, int *children)
{
    int p = tree->nprocs, count;

    if (MCA_COLL_SHMCICO_TREE_NUMA == tree->type) {
        return numa_children(tree, rank, root, children);
    }
    count = shape_children(tree, p, (rank - root + p) % p, children);
    for (int i = 0; i < count; ++i) {
        children[i] = (children[i] + root) % p;
    }
    return count;
}
