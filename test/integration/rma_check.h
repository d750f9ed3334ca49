/*
 * rma_check.h - what every one-sided (RMA) test program shares: fail()/CHECK from p2p_check.h,
 * and one way to make a window of each flavor and address its targets.
 *
 * Include it after declaring `static const char *prog` and `static int rank`.  A window made by
 * rma_win_make() has BYTES bytes of local memory at `base` on every rank; rma_disp() turns a
 * byte offset into that memory into the target displacement the flavor wants (disp_unit units,
 * or an absolute address for a dynamic window, whose disp_unit is always 1).
 */
#ifndef COMM_TEST_RMA_CHECK_H
#define COMM_TEST_RMA_CHECK_H

#include "p2p_check.h"

#include <stdbool.h>
#include <stdlib.h>

enum rma_flavor {
    RMA_CREATE,
    RMA_ALLOCATE,
    RMA_SHARED,
    RMA_DYNAMIC,
    RMA_NFLAVORS,
};

static const char *const rma_flavor_name[RMA_NFLAVORS] = {"create", "allocate", "allocate_shared",
                                                          "dynamic"};

struct rma_win {
    MPI_Win win;
    enum rma_flavor flavor;
    char *base;     /* this rank's window memory */
    MPI_Aint size;  /* its size in bytes */
    int disp_unit;  /* 1 for a dynamic window */
    MPI_Aint *addr; /* dynamic: every rank's base address, from MPI_Get_address */
    void *own;      /* create, dynamic: the memory this file allocated */
};

/* Whether every process of COMM can share memory with every other (one node). */
#if defined(__GNUC__)
static bool rma_all_shared(MPI_Comm comm) __attribute__((unused));
#endif
static bool rma_all_shared(MPI_Comm comm)
{
    MPI_Comm node;
    int n, nnode, all;

    CHECK_MPI(MPI_Comm_size(comm, &n));
    CHECK_MPI(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node));
    CHECK_MPI(MPI_Comm_size(node, &nnode));
    CHECK_MPI(MPI_Comm_free(&node));
    nnode = nnode == n;
    CHECK_MPI(MPI_Allreduce(&nnode, &all, 1, MPI_INT, MPI_LAND, comm));
    return all != 0;
}

#if defined(__GNUC__)
static void rma_win_make(struct rma_win *w, enum rma_flavor flavor, MPI_Aint bytes, int disp_unit,
                         MPI_Comm comm) __attribute__((unused));
#endif
static void rma_win_make(struct rma_win *w, enum rma_flavor flavor, MPI_Aint bytes, int disp_unit,
                         MPI_Comm comm)
{
    int n;
    MPI_Aint mine;

    CHECK_MPI(MPI_Comm_size(comm, &n));
    memset(w, 0, sizeof(*w));
    w->flavor = flavor;
    w->size = bytes;
    w->disp_unit = disp_unit;
    switch (flavor) {
    case RMA_CREATE:
        w->own = malloc(bytes > 0 ? (size_t)bytes : 1);
        CHECK(w->own != NULL);
        w->base = w->own;
        CHECK_MPI(MPI_Win_create(w->base, bytes, disp_unit, MPI_INFO_NULL, comm, &w->win));
        break;
    case RMA_ALLOCATE:
        CHECK_MPI(MPI_Win_allocate(bytes, disp_unit, MPI_INFO_NULL, comm, &w->base, &w->win));
        break;
    case RMA_SHARED:
        CHECK_MPI(
            MPI_Win_allocate_shared(bytes, disp_unit, MPI_INFO_NULL, comm, &w->base, &w->win));
        break;
    case RMA_DYNAMIC:
        w->disp_unit = 1;
        w->own = malloc(bytes > 0 ? (size_t)bytes : 1);
        w->addr = malloc(sizeof(*w->addr) * (size_t)n);
        CHECK(w->own != NULL && w->addr != NULL);
        w->base = w->own;
        CHECK_MPI(MPI_Win_create_dynamic(MPI_INFO_NULL, comm, &w->win));
        CHECK_MPI(MPI_Win_attach(w->win, w->base, bytes));
        CHECK_MPI(MPI_Get_address(w->base, &mine));
        CHECK_MPI(MPI_Allgather(&mine, 1, MPI_AINT, w->addr, 1, MPI_AINT, comm));
        break;
    default:
        fail(__LINE__, "unknown window flavor %d", (int)flavor);
    }
}

#if defined(__GNUC__)
static void rma_win_free(struct rma_win *w) __attribute__((unused));
#endif
static void rma_win_free(struct rma_win *w)
{
    if (w->flavor == RMA_DYNAMIC) {
        /* No one may still address the memory once it is detached. */
        CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
        CHECK_MPI(MPI_Win_detach(w->win, w->base));
    }
    CHECK_MPI(MPI_Win_free(&w->win));
    free(w->own);
    free(w->addr);
    memset(w, 0, sizeof(*w));
    w->win = MPI_WIN_NULL;
}

/* The target displacement of byte OFFSET (a multiple of disp_unit) in TARGET's window memory. */
#if defined(__GNUC__)
static MPI_Aint rma_disp(const struct rma_win *w, int target, MPI_Aint offset)
    __attribute__((unused));
#endif
static MPI_Aint rma_disp(const struct rma_win *w, int target, MPI_Aint offset)
{
    if (w->flavor == RMA_DYNAMIC) {
        return target == MPI_PROC_NULL ? 0 : MPI_Aint_add(w->addr[target], offset);
    }
    return offset / w->disp_unit;
}

#endif
