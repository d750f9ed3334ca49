/*
 * proc_topo_map.c - placing a process topology on the communicator's hosts (reorder = true).
 *
 * Layer: runtime core.  Must not: send messages: every member computes the same placement
 * from the levels its communicator already holds (runtime/comm/communicator.h), so the result is
 * agreed without a word exchanged.
 *
 * The slots: the communicator's ranks host by host, hosts in the order of the tree (sorted by
 * their group at the top level, then the next, ..., so the hosts of a rack follow each other),
 * ranks ascending inside a host.  A placement fills the slots in order with vertices taken in
 * a local order; each candidate order is weighed and the cheapest kept:
 * - a grid: recursive bisection (cut the longest side in two, lay out the first half, then
 *   the second), so any run of consecutive cells is a compact block: each host gets a
 *   sub-block, and the hosts of a rack a larger one; and slabs (the hosts split in two halves,
 *   each half given its exact share of the cells as a slab across the longest side of the
 *   cells' bounding box, then each half split again), which fit uneven shares better;
 * - a graph: greedy growth, one host at a time: start from the unplaced vertex with the most
 *   links to vertices already placed, then add the unplaced vertex with the most links into
 *   this host's vertices (ties: lowest vertex).
 * The cost of a placement is the sum over links of the level the two ranks first share
 * (0: the same host, 1: the same rack, ...) times the link's weight; a placement is kept only
 * if it costs less than the identity.  Cost: O(N log N + links) for a grid, O(N^2 + links) for
 * a graph.
 */
#include "config.h"

#include "runtime/comm/proc_topo.h"

#include "runtime/comm/communicator.h"
#include "base/error.h"
#include "base/log.h"

#include <stdlib.h>
#include <string.h>

/* A host's sort key: its groups from the top level down, then its own number. */
struct map_host {
    const struct comm_communicator *comm;
    int host;
    int leader;
};

static int map_by_tree(const void *a, const void *b)
{
    const struct map_host *x = a, *y = b;
    const struct comm_communicator *c = x->comm;

    for (int l = c->nlevels - 1; l >= 1; l--) {
        int gx = c->levels[l].group[x->leader], gy = c->levels[l].group[y->leader];

        if (gx != gy) {
            return gx < gy ? -1 : 1;
        }
    }
    return x->host < y->host ? -1 : x->host > y->host;
}

/* COMM's ranks in slot order (see above), into SLOTS (COMM->size entries). */
static int map_slots(const struct comm_communicator *comm, int *slots)
{
    const struct comm_topo_groups *hosts = &comm->levels[0];
    struct map_host *order = malloc((size_t)hosts->ngroups * sizeof(*order));
    int *start = malloc((size_t)hosts->ngroups * sizeof(*start));
    int next = 0;

    if (order == NULL || start == NULL) {
        free(order);
        free(start);
        return COMM_ERR_NOMEM;
    }
    for (int h = 0; h < hosts->ngroups; h++) {
        order[h] = (struct map_host){.comm = comm, .host = h, .leader = hosts->leader[h]};
    }
    qsort(order, (size_t)hosts->ngroups, sizeof(*order), map_by_tree);
    for (int i = 0; i < hosts->ngroups; i++) {
        start[order[i].host] = next;
        next += hosts->size[order[i].host];
    }
    for (int r = 0; r < comm->size; r++) {
        slots[start[hosts->group[r]]++] = r;
    }
    free(order);
    free(start);
    return COMM_OK;
}

/* The cost of OLD_OF_NEW (see above); *CROSS_OUT: the links between two hosts, of *LINKS_OUT
 * (a process's links to itself left out). */
static long map_cost(const struct comm_communicator *comm, int n, const int *xadj, const int *adj,
                     const int *weights, const int *old_of_new, long *cross_out, long *links_out)
{
    long cost = 0, cross = 0, links = 0;

    for (int v = 0; v < n; v++) {
        for (int k = xadj[v]; k < xadj[v + 1]; k++) {
            int level;

            if (adj[k] == v) {
                continue;
            }
            level = comm_communicator_shared_level(comm, old_of_new[v], old_of_new[adj[k]]);
            cost += (long)level * (weights != NULL ? weights[k] : 1);
            cross += level > 0;
            links++;
        }
    }
    *cross_out = cross;
    *links_out = links;
    return cost;
}

/* Lays out the cells of the box [LO, HI) in recursive-bisection order, row-major numbers. */
static void map_bisect(int ndims, const int *dims, int *lo, int *hi, int **seq)
{
    int best = -1, len = 1, mid, keep;

    for (int d = 0; d < ndims; d++) {
        if (hi[d] - lo[d] > len) {
            len = hi[d] - lo[d];
            best = d;
        }
    }
    if (best < 0) {
        int cell = 0;

        for (int d = 0; d < ndims; d++) {
            cell = cell * dims[d] + lo[d];
        }
        *(*seq)++ = cell;
        return;
    }
    mid = lo[best] + len / 2;
    keep = hi[best];
    hi[best] = mid;
    map_bisect(ndims, dims, lo, hi, seq);
    hi[best] = keep;
    keep = lo[best];
    lo[best] = mid;
    map_bisect(ndims, dims, lo, hi, seq);
    lo[best] = keep;
}

/* Greedy growth of a graph's vertices over the hosts (see above), into SEQ. */
static int map_greedy(const struct comm_communicator *comm, int n, const int *xadj, const int *adj,
                      const int *weights, const int *slots, int *seq)
{
    const struct comm_topo_groups *hosts = &comm->levels[0];
    long *here = calloc((size_t)n, sizeof(*here)), *all = calloc((size_t)n, sizeof(*all));
    bool *placed = calloc((size_t)n, sizeof(*placed));
    int *rxadj = calloc((size_t)n + 1, sizeof(*rxadj));
    int *radj = malloc((size_t)(xadj[n] > 0 ? xadj[n] : 1) * sizeof(*radj));
    int *rw = malloc((size_t)(xadj[n] > 0 ? xadj[n] : 1) * sizeof(*rw));
    int rc = COMM_ERR_NOMEM, host = -1;

    if (here == NULL || all == NULL || placed == NULL || rxadj == NULL || radj == NULL ||
        rw == NULL) {
        goto out_free;
    }
    /* The links the other way, so a vertex's pull counts both directions. */
    for (int k = 0; k < xadj[n]; k++) {
        rxadj[adj[k] + 1]++;
    }
    for (int v = 0; v < n; v++) {
        rxadj[v + 1] += rxadj[v];
    }
    for (int v = 0; v < n; v++) {
        for (int k = xadj[v]; k < xadj[v + 1]; k++) {
            int at = rxadj[adj[k]]++;

            radj[at] = v;
            rw[at] = weights != NULL ? weights[k] : 1;
        }
    }
    for (int v = n; v > 0; v--) {
        rxadj[v] = rxadj[v - 1];
    }
    rxadj[0] = 0;
    for (int i = 0; i < n; i++) {
        int best = -1;

        if (hosts->group[slots[i]] != host) { /* a new host: nothing pulls towards it yet */
            host = hosts->group[slots[i]];
            memset(here, 0, (size_t)n * sizeof(*here));
        }
        for (int v = 0; v < n; v++) {
            if (!placed[v] && (best < 0 || here[v] > here[best] ||
                               (here[v] == here[best] && all[v] > all[best]))) {
                best = v;
            }
        }
        placed[best] = true;
        seq[i] = best;
        for (int k = xadj[best]; k < xadj[best + 1]; k++) {
            here[adj[k]] += weights != NULL ? weights[k] : 1;
            all[adj[k]] += weights != NULL ? weights[k] : 1;
        }
        for (int k = rxadj[best]; k < rxadj[best + 1]; k++) {
            here[radj[k]] += rw[k];
            all[radj[k]] += rw[k];
        }
    }
    rc = COMM_OK;
out_free:
    free(here);
    free(all);
    free(placed);
    free(rxadj);
    free(radj);
    free(rw);
    return rc;
}

static int map_by_key(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;

    return x < y ? -1 : x > y;
}

/*
 * Orders the N CELLS of grid G so that each host's share is a slab: the hosts (CAPS, their
 * shares in slot order, NH of them) split in two halves, the cells sorted along the longest
 * side of their bounding box (row-major order among equals), the first half's share taken from
 * the front; then each half again.  SCRATCH: N longs and 2 * G->ndims ints.
 */
static void map_slabs(const struct comm_proc_topo *g, int total, int *cells, int n, const int *caps,
                      int nh, long *keys, int *box)
{
    int h1 = nh / 2, share = 0, best = 0, stride = 1;

    if (nh <= 1 || n <= 1) {
        return;
    }
    for (int h = 0; h < h1; h++) {
        share += caps[h];
    }
    share = share < n ? share : n;
    for (int d = g->ndims - 1, st = 1; d >= 0; st *= g->dims[d], d--) {
        box[2 * d] = g->dims[d];
        box[2 * d + 1] = -1;
        for (int i = 0; i < n; i++) {
            int c = cells[i] / st % g->dims[d];

            box[2 * d] = c < box[2 * d] ? c : box[2 * d];
            box[2 * d + 1] = c > box[2 * d + 1] ? c : box[2 * d + 1];
        }
        if (box[2 * d + 1] - box[2 * d] >= box[2 * best + 1] - box[2 * best] || d == g->ndims - 1) {
            best = d;
            stride = st;
        }
    }
    for (int i = 0; i < n; i++) {
        keys[i] = (long)(cells[i] / stride % g->dims[best]) * total + cells[i];
    }
    qsort(keys, (size_t)n, sizeof(*keys), map_by_key);
    for (int i = 0; i < n; i++) {
        cells[i] = (int)(keys[i] % total);
    }
    map_slabs(g, total, cells, share, caps, h1, keys, box);
    map_slabs(g, total, cells + share, n - share, caps + h1, nh - h1, keys, box);
}

/*
 * The candidate orders of N vertices over SLOTS, into SEQ: for a grid G, recursive bisection
 * (CANDIDATE 0) and slabs (1); for a graph (G NULL), greedy growth (0).  false: no such
 * candidate.  *RC_OUT: COMM_ERR_NOMEM when out of memory.
 */
static bool map_candidate(const struct comm_communicator *comm, const struct comm_proc_topo *g,
                          int n, const int *xadj, const int *adj, const int *weights,
                          const int *slots, int candidate, int *seq, int *rc_out)
{
    int *caps, *lo, *hi, *at = seq, nh = 0;
    long *keys;

    *rc_out = COMM_OK;
    if (g == NULL) {
        if (candidate == 0) {
            *rc_out = map_greedy(comm, n, xadj, adj, weights, slots, seq);
        }
        return candidate == 0;
    }
    if (candidate > 1) {
        return false;
    }
    lo = calloc((size_t)g->ndims + 1, sizeof(*lo));
    hi = malloc(((size_t)g->ndims + 1) * 2 * sizeof(*hi));
    caps = calloc((size_t)n + 1, sizeof(*caps));
    keys = malloc(((size_t)n + 1) * sizeof(*keys));
    if (lo == NULL || hi == NULL || caps == NULL || keys == NULL) {
        *rc_out = COMM_ERR_NOMEM;
    } else if (candidate == 0) {
        memcpy(hi, g->dims, (size_t)g->ndims * sizeof(*hi));
        map_bisect(g->ndims, g->dims, lo, hi, &at);
    } else {
        for (int i = 0; i < n; i++) {
            seq[i] = i;
            nh += i == 0 || comm->levels[0].group[slots[i]] != comm->levels[0].group[slots[i - 1]];
            caps[nh - 1]++;
        }
        map_slabs(g, n, seq, n, caps, nh, keys, hi);
    }
    free(lo);
    free(hi);
    free(caps);
    free(keys);
    return true;
}

/*
 * The placement of N vertices (links XADJ/ADJ/WEIGHTS) on COMM, into OLD_OF_NEW: of the
 * candidate orders (map_candidate; G the grid, or NULL for a graph) over the slots, the one
 * whose links cost least, if it beats the identity.  WHAT names the topology in the log.
 */
static int map_place(const struct comm_communicator *comm, int n, const int *xadj, const int *adj,
                     const int *weights, const struct comm_proc_topo *g, bool reorder, bool log,
                     const char *what, int *old_of_new)
{
    int *slots = NULL, *seq = NULL, *mine = NULL, *best = NULL;
    long cross_id = 0, cross_best = 0, cross = 0, links = 0, cost_id, cost_best = -1;
    int rc = COMM_OK;
    bool logs =
        log && comm->rank == 0 && comm->size > 1 && comm_log_is_enabled(COMM_LOG_INFO, "runtime");

    for (int v = 0; v < n; v++) {
        old_of_new[v] = v;
    }
    if (comm->nlevels == 0 || (!reorder && !logs)) {
        if (logs) {
            comm_log_info("runtime", "%s: hosts unknown, ranks kept in order", what);
        }
        return COMM_OK;
    }
    cost_id = map_cost(comm, n, xadj, adj, weights, old_of_new, &cross_id, &links);
    if (reorder && comm->levels[0].ngroups > 1) {
        slots = malloc((size_t)comm->size * sizeof(*slots));
        seq = malloc((size_t)(n > 0 ? n : 1) * sizeof(*seq));
        mine = malloc((size_t)(n > 0 ? n : 1) * sizeof(*mine));
        best = malloc((size_t)(n > 0 ? n : 1) * sizeof(*best));
        if (slots == NULL || seq == NULL || mine == NULL || best == NULL) {
            rc = COMM_ERR_NOMEM;
            goto out_free;
        }
        rc = map_slots(comm, slots);
        for (int k = 0;
             rc == COMM_OK && map_candidate(comm, g, n, xadj, adj, weights, slots, k, seq, &rc) &&
             rc == COMM_OK;
             k++) {
            long cost;

            for (int i = 0; i < n; i++) {
                mine[seq[i]] = slots[i];
            }
            cost = map_cost(comm, n, xadj, adj, weights, mine, &cross, &links);
            if (cost_best < 0 || cost < cost_best) {
                cost_best = cost;
                cross_best = cross;
                memcpy(best, mine, (size_t)n * sizeof(*best));
            }
        }
        if (rc < 0) {
            goto out_free;
        }
        if (cost_best >= 0 && cost_best < cost_id) {
            memcpy(old_of_new, best, (size_t)n * sizeof(*old_of_new));
        }
    }
    if (logs && cost_best >= 0 && cost_best < cost_id) {
        comm_log_info("runtime",
                      "%s on %d host%s: reordered, %ld of %ld neighbour links cross hosts "
                      "(in rank order: %ld)",
                      what, comm->levels[0].ngroups, comm->levels[0].ngroups > 1 ? "s" : "",
                      cross_best, links, cross_id);
    } else if (logs) {
        comm_log_info("runtime",
                      "%s on %d host%s: ranks kept in order%s, %ld of %ld neighbour links "
                      "cross hosts",
                      what, comm->levels[0].ngroups, comm->levels[0].ngroups > 1 ? "s" : "",
                      reorder ? " (no better placement)" : "", cross_id, links);
    }
out_free:
    free(slots);
    free(seq);
    free(mine);
    free(best);
    return rc;
}

int comm_proc_topo_map_cart(const struct comm_communicator *comm, int ndims, const int *dims,
                            const int *periods, bool reorder, bool log, int *old_of_new)
{
    struct comm_proc_topo grid = {
        .ndims = ndims, .dims = (int *)(uintptr_t)dims, .periods = (int *)(uintptr_t)periods};
    int n = 1, *xadj, *adj;
    int rc = COMM_ERR_NOMEM;
    char what[64];
    size_t used;

    for (int d = 0; d < ndims; d++) {
        n *= dims[d];
    }
    xadj = malloc((size_t)(n + 1) * sizeof(*xadj));
    adj = malloc((size_t)n * (size_t)(2 * ndims > 0 ? 2 * ndims : 1) * sizeof(*adj));
    if (xadj == NULL || adj == NULL) {
        goto out_free;
    }
    xadj[0] = 0;
    for (int v = 0; v < n; v++) {
        xadj[v + 1] = xadj[v];
        for (int d = 0; d < ndims; d++) {
            int src, dst;

            comm_proc_topo_cart_shift(&grid, v, d, 1, &src, &dst);
            if (src != MPI_PROC_NULL) {
                adj[xadj[v + 1]++] = src;
            }
            if (dst != MPI_PROC_NULL) {
                adj[xadj[v + 1]++] = dst;
            }
        }
    }
    used = (size_t)snprintf(what, sizeof(what), ndims > 0 ? "cart " : "cart of 0 dimensions");
    for (int d = 0; d < ndims && used < sizeof(what); d++) {
        used += (size_t)snprintf(what + used, sizeof(what) - used, "%s%d", d ? "x" : "", dims[d]);
    }
    rc = map_place(comm, n, xadj, adj, NULL, &grid, reorder, log, what, old_of_new);
out_free:
    free(xadj);
    free(adj);
    return rc;
}

int comm_proc_topo_map_graph(const struct comm_communicator *comm, int n, const int *xadj,
                             const int *adj, const int *weights, bool reorder, bool log,
                             int *old_of_new)
{
    char what[64];

    snprintf(what, sizeof(what), "graph of %d vertices", n);
    return map_place(comm, n, xadj, adj, weights, NULL, reorder, log, what, old_of_new);
}
