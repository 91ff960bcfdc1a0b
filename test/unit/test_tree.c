/*
 * Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
 * $COPYRIGHT$
 *
 * Additional copyrights may follow
 *
 * $HEADER$
 */

/*
 * Notification trees: for every shape, p = 1..1024 and every root, the
 * tree is a spanning tree of all ranks rooted at root (every other rank
 * has exactly one parent, it is connected and acyclic), children and
 * parents agree, and the depth stays within the shape's bound.  Grouping
 * ranks by a key (the NUMA tree's nodes, the network stage's nodes) puts
 * every rank once in its group, groups in order of their lowest rank and
 * members in rank order.  A rank's place (parent and children) is the
 * tree's for the root asked, and is found again only when the root
 * changes.
 */

#include <stdlib.h>
#include <string.h>

#include "coll_shmcico_tree.h"
#include "unit.h"

#define MAX_P 1024

typedef struct tree_case {
    const char *name;
    mca_coll_shmcico_tree_type_t type;
    int degree;
    int numa_layout;            /* for NUMA trees: see numa_of() */
} tree_case;

static const tree_case cases[] = {
    { "kary-1", MCA_COLL_SHMCICO_TREE_KARY, 1, 0 },
    { "kary-2", MCA_COLL_SHMCICO_TREE_KARY, 2, 0 },
    { "kary-4", MCA_COLL_SHMCICO_TREE_KARY, 4, 0 },
    { "knomial-2", MCA_COLL_SHMCICO_TREE_KNOMIAL, 2, 0 },
    { "knomial-4", MCA_COLL_SHMCICO_TREE_KNOMIAL, 4, 0 },
    { "flat", MCA_COLL_SHMCICO_TREE_FLAT, 1, 0 },
    { "chain", MCA_COLL_SHMCICO_TREE_CHAIN, 1, 0 },
    { "numa-4-one-node", MCA_COLL_SHMCICO_TREE_NUMA, 4, 0 },
    { "numa-4-two-nodes-round-robin", MCA_COLL_SHMCICO_TREE_NUMA, 4, 1 },
    { "numa-2-four-nodes-blocks", MCA_COLL_SHMCICO_TREE_NUMA, 2, 2 },
    { "numa-5-random-nodes", MCA_COLL_SHMCICO_TREE_NUMA, 5, 3 },
    { "numa-3-node-per-rank", MCA_COLL_SHMCICO_TREE_NUMA, 3, 4 },
};

/* synthetic NUMA maps */
static int32_t numa_of(int layout, int rank, int p)
{
    switch (layout) {
    case 1: return rank % 2;
    case 2: return (int32_t) ((long) rank * 4 / p) * 10 + 3; /* sparse ids */
    case 3: return (int32_t) ((rank * 2654435761u) >> 7) % 5;
    case 4: return rank;
    default: return 0;
    }
}

/* smallest d with 1 + k + ... + k^d >= n (a complete k-ary tree) */
static int kary_depth(int k, int n)
{
    long covered = 1, level = 1;
    int depth = 0;

    if (k == 1) {
        return n - 1;
    }
    while (covered < n) {
        level *= k;
        covered += level;
        ++depth;
    }
    return depth;
}

/* ceil(log_k(n)) */
static int log_ceil(int k, int n)
{
    long reach = 1;
    int depth = 0;

    while (reach < n) {
        reach *= k;
        ++depth;
    }
    return depth;
}

static int compare_int32(const void *a, const void *b)
{
    int32_t x = *(const int32_t *) a, y = *(const int32_t *) b;

    return (x > y) - (x < y);
}

/* size of the largest NUMA node, and the number of nodes */
static int largest_node(const int32_t *numa, int p, int *nnodes)
{
    static int32_t sorted[MAX_P];
    int best = 0, run = 0;

    memcpy(sorted, numa, p * sizeof(int32_t));
    qsort(sorted, p, sizeof(int32_t), compare_int32);
    *nnodes = 0;
    for (int i = 0; i < p; ++i) {
        if (0 == i || sorted[i] != sorted[i - 1]) {
            ++*nnodes;
            run = 0;
        }
        best = ++run > best ? run : best;
    }
    return best;
}

static int depth_bound(const tree_case *c, const int32_t *numa, int p)
{
    int nnodes, largest;

    switch (c->type) {
    case MCA_COLL_SHMCICO_TREE_KARY: return kary_depth(c->degree, p);
    case MCA_COLL_SHMCICO_TREE_KNOMIAL: return log_ceil(c->degree, p);
    case MCA_COLL_SHMCICO_TREE_FLAT: return p > 1 ? 1 : 0;
    case MCA_COLL_SHMCICO_TREE_CHAIN: return p - 1;
    default:
        largest = largest_node(numa, p, &nnodes);
        return kary_depth(c->degree, nnodes) + kary_depth(c->degree, largest);
    }
}

/* Breadth-first walk from the root over the children lists: every rank
 * must be reached exactly once, from the parent it names. */
static void check_root(const tree_case *c, const mca_coll_shmcico_tree_t *tree,
                       const int32_t *numa, int p, int root, int bound)
{
    static int queue[MAX_P], depth[MAX_P], seen[MAX_P], children[MAX_P];
    int head = 0, tail = 0, max_depth = 0;

    memset(seen, 0, p * sizeof(int));
    CHECK(-1 == mca_coll_shmcico_tree_parent(tree, root, root),
          "%s p=%d: root %d has a parent", c->name, p, root);
    queue[tail++] = root;
    seen[root] = 1;
    depth[root] = 0;
    while (head < tail) {
        int rank = queue[head++];
        int n = mca_coll_shmcico_tree_children(tree, rank, root, children);
        int other_node_seen_after_local = 0, local_seen = 0;

        for (int i = 0; i < n; ++i) {
            int child = children[i];
            if (child < 0 || child >= p || seen[child]) {
                CHECK(0, "%s p=%d root=%d: rank %d has child %d (out of range "
                      "or reached twice)", c->name, p, root, rank, child);
                return;
            }
            CHECK(mca_coll_shmcico_tree_parent(tree, child, root) == rank,
                  "%s p=%d root=%d: child %d of %d names parent %d", c->name,
                  p, root, child, rank, mca_coll_shmcico_tree_parent(tree, child, root));
            /* NUMA trees notify other nodes' leaders before local ranks */
            if (numa[child] == numa[rank]) {
                local_seen = 1;
            } else if (local_seen) {
                other_node_seen_after_local = 1;
            }
            seen[child] = 1;
            depth[child] = depth[rank] + 1;
            max_depth = depth[child] > max_depth ? depth[child] : max_depth;
            queue[tail++] = child;
        }
        if (MCA_COLL_SHMCICO_TREE_NUMA == c->type) {
            CHECK(!other_node_seen_after_local,
                  "%s p=%d root=%d: rank %d notifies a local rank before a "
                  "NUMA leader", c->name, p, root, rank);
        }
    }
    CHECK(tail == p, "%s p=%d root=%d: %d of %d ranks reachable", c->name, p,
          root, tail, p);
    CHECK(max_depth <= bound, "%s p=%d root=%d: depth %d over bound %d",
          c->name, p, root, max_depth, bound);
    if (MCA_COLL_SHMCICO_TREE_KARY == c->type
        || MCA_COLL_SHMCICO_TREE_CHAIN == c->type) {
        CHECK(max_depth == bound, "%s p=%d root=%d: depth %d, expected %d",
              c->name, p, root, max_depth, bound);
    }
}

/* every size up to 130 processes, then the sizes around powers of two
 * up to MAX_P (where trees change shape), every root each time */
static int next_size(int p)
{
    static const int large[] = { 255, 256, 257, 511, 512, 513, 1000, 1023, MAX_P };

    if (p < 130) {
        return p + 1;
    }
    for (size_t i = 0; i < sizeof(large) / sizeof(large[0]); ++i) {
        if (large[i] > p) {
            return large[i];
        }
    }
    return MAX_P + 1;
}

/* a place asked for roots in turn, then for the same root again */
static void check_place(const tree_case *c, const mca_coll_shmcico_tree_t *tree, int p,
                        int rank)
{
    static int children[MAX_P];
    mca_coll_shmcico_place_t place;

    CHECK(0 == mca_coll_shmcico_place_init(&place, p) && -1 == place.root,
          "%s p=%d: place_init", c->name, p);
    for (int i = 0; i < 2 * p; ++i) {
        int root = (i / 2 + rank) % p;      /* every root, each twice in a row */
        const mca_coll_shmcico_place_t *at = mca_coll_shmcico_place_for(tree, rank, root,
                                                                        &place);
        int n = mca_coll_shmcico_tree_children(tree, rank, root, children);
        CHECK(at == &place && root == at->root, "%s p=%d: place of root %d", c->name, p, root);
        CHECK(at->parent == mca_coll_shmcico_tree_parent(tree, rank, root)
              && at->nchildren == n
              && 0 == memcmp(at->children, children, (size_t) n * sizeof(int)),
              "%s p=%d rank %d root %d: place is not the tree's", c->name, p, rank, root);
    }
    place.nchildren = -7;                   /* the same root: not found again */
    CHECK(-7 == mca_coll_shmcico_place_for(tree, rank, place.root, &place)->nchildren,
          "%s p=%d: place found again for its own root", c->name, p);
    mca_coll_shmcico_place_fini(&place);
}

static void check_case(const tree_case *c)
{
    static int32_t numa[MAX_P];

    for (int p = 1; p <= MAX_P; p = next_size(p)) {
        mca_coll_shmcico_tree_t tree;
        int bound;

        for (int i = 0; i < p; ++i) {
            numa[i] = numa_of(c->numa_layout, i, p);
        }
        if (0 != mca_coll_shmcico_tree_init(&tree, c->type, c->degree, p, numa)) {
            CHECK(0, "%s p=%d: tree_init failed", c->name, p);
            continue;
        }
        bound = depth_bound(c, numa, p);
        for (int root = 0; root < p; ++root) {
            check_root(c, &tree, numa, p, root, bound);
        }
        for (int rank = 0; rank < p && p <= 64; ++rank) {
            check_place(c, &tree, p, rank);
        }
        mca_coll_shmcico_tree_fini(&tree);
    }
}

/* keys[stride * r] of rank r: the (r * 7) % m-th of m groups, with
 * garbage between the keys when stride > 1 */
static void check_groups(int p, int m, int stride)
{
    int32_t keys[2 * MAX_P];
    int group_of[MAX_P], index_in[MAX_P], start[MAX_P + 1], members[MAX_P], n;

    for (int r = 0; r < p; ++r) {
        keys[stride * r] = 1000 - (r * 7) % m;
        if (stride > 1) {
            keys[stride * r + 1] = r;
        }
    }
    n = mca_coll_shmcico_group_ranks(keys, stride, p, group_of, index_in, start, members);
    CHECK(n == (p < m ? p : m), "p %d m %d: %d groups", p, m, n);
    CHECK(0 == start[0] && p == start[n], "p %d m %d: members %d..%d", p, m, start[0], start[n]);
    for (int i = 0; i < p; ++i) {
        int r = members[i], g = group_of[r];
        CHECK(start[g] + index_in[r] == i, "p %d m %d: rank %d at %d", p, m, r, i);
        CHECK(keys[stride * r] == keys[stride * members[start[g]]], "p %d m %d: rank %d in a "
              "group of another key", p, m, r);
        CHECK(i == start[g] || members[i - 1] < r, "p %d m %d: members out of rank order",
              p, m);
    }
    for (int g = 1; g < n; ++g) {
        CHECK(members[start[g - 1]] < members[start[g]] && start[g - 1] < start[g],
              "p %d m %d: group %d before its lowest rank's order", p, m, g);
    }
}

static void check_invalid(void)
{
    mca_coll_shmcico_tree_t tree;

    CHECK(0 != mca_coll_shmcico_tree_init(&tree, MCA_COLL_SHMCICO_TREE_KNOMIAL, 1, 8, NULL),
          "knomial of degree 1 accepted");
    CHECK(0 != mca_coll_shmcico_tree_init(&tree, MCA_COLL_SHMCICO_TREE_KARY, 0, 8, NULL),
          "degree 0 accepted");
    CHECK(0 != mca_coll_shmcico_tree_init(&tree, MCA_COLL_SHMCICO_TREE_NUMA, 2, 8, NULL),
          "numa tree without a NUMA map accepted");
    CHECK(0 != mca_coll_shmcico_tree_init(&tree, MCA_COLL_SHMCICO_TREE_COUNT, 2, 8, NULL),
          "unknown tree type accepted");
    CHECK(0 != mca_coll_shmcico_tree_init(&tree, MCA_COLL_SHMCICO_TREE_FLAT, 2, 0, NULL),
          "empty communicator accepted");
    CHECK(NULL == mca_coll_shmcico_tree_name(MCA_COLL_SHMCICO_TREE_COUNT),
          "name of an unknown tree");
}

int main(void)
{
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
        check_case(&cases[i]);
    }
    for (int p = 1; p <= MAX_P; p = next_size(p)) {
        for (int m = 1; m <= 9; m += 4) {
            check_groups(p, m, 1);
            check_groups(p, m, 2);
        }
    }
    check_invalid();
    return unit_report("test_tree");
}
