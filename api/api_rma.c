/*
 * api_rma.c - the MPI entry points of one-sided operations and their synchronization: argument
 * checks, the epoch each call needs, then rma/.
 *
 * Layer: api.  Must not: start an operation outside an epoch that allows it (the
 * standard's MPI_ERR_RMA_SYNC), or beyond the target's window as this process knows it
 * (MPI_ERR_RMA_RANGE; a dynamic window's target checks its attached memory itself).
 */
#include "config.h"

#include "rma/rma.h"
#include "api/api.h"
#include "runtime/datatype/datatype.h"
#include "runtime/comm/group.h"
#include "runtime/op/op.h"
#include "runtime/p2p/request.h"

#include <stdlib.h>

/* Whether W's access epoch lets this process reach TARGET now. */
static bool rma_epoch_allows(const struct comm_win *w, int target)
{
    if (w->fence_open || w->access == COMM_RMA_LOCK_ALL || w->peers[target].lock_type != 0) {
        return true;
    }
    if (w->access == COMM_RMA_PSCW) {
        for (int i = 0; i < w->nstart; i++) {
            if (w->start_ranks[i] == target) {
                return true;
            }
        }
    }
    return false;
}

static int rma_check_rank(const char *func, struct comm_win *w, int rank, bool null_ok)
{
    if ((rank == MPI_PROC_NULL && null_ok) || (rank >= 0 && rank < w->size)) {
        return MPI_SUCCESS;
    }
    return comm_api_error(w->comm, MPI_ERR_RANK,
                          "%s: target rank %d is not in the window's group of %d", func, rank,
                          w->size);
}

/* The checks every operation shares: the target, its data, the epoch and the range. */
static int rma_check_target(const char *func, struct comm_win *w, struct comm_rma_op *op,
                            int target_rank, MPI_Aint target_disp, int target_count,
                            MPI_Datatype target_datatype)
{
    int err = rma_check_rank(func, w, target_rank, true);

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (target_count < 0) {
        return comm_api_error(w->comm, MPI_ERR_COUNT, "%s: invalid target_count %d", func,
                              target_count);
    }
    err = comm_api_check_datatype(func, w->comm, target_datatype, &op->tdt);
    if (err != MPI_SUCCESS) {
        return err;
    }
    op->target = target_rank;
    op->disp = target_disp;
    op->tcount = target_count;
    if (target_rank == MPI_PROC_NULL) {
        return MPI_SUCCESS;
    }
    if (w->flavor != MPI_WIN_FLAVOR_DYNAMIC && target_disp < 0) {
        return comm_api_error(w->comm, MPI_ERR_DISP, "%s: target_disp %lld is negative", func,
                              (long long)target_disp);
    }
    if (!rma_epoch_allows(w, target_rank)) {
        return comm_api_error(w->comm, MPI_ERR_RMA_SYNC,
                              "%s: no access epoch to rank %d is open (MPI_Win_fence, "
                              "MPI_Win_start, MPI_Win_lock or MPI_Win_lock_all first)",
                              func, target_rank);
    }
    if (!comm_win_op_in_range(w, op)) {
        return comm_api_error(w->comm, MPI_ERR_RMA_RANGE,
                              "%s: %d elements at displacement %lld lie outside rank %d's window "
                              "of %llu bytes",
                              func, target_count, (long long)target_disp, target_rank,
                              (unsigned long long)w->peers[target_rank].size);
    }
    if (w->flavor == MPI_WIN_FLAVOR_DYNAMIC &&
        !comm_win_dynamic_covers(w, target_rank, target_disp, target_count, op->tdt)) {
        return comm_api_error(w->comm, MPI_ERR_RMA_RANGE,
                              "%s: rank %d has no memory attached to the window at address "
                              "%#llx for %d elements",
                              func, target_rank, (unsigned long long)target_disp, target_count);
    }
    return MPI_SUCCESS;
}

/* The origin's data and the target's describe the same number of bytes. */
static int rma_check_match(const char *func, struct comm_win *w, MPI_Count count,
                           const struct comm_datatype *dt, const struct comm_rma_op *op,
                           const char *what)
{
    if (op->target != MPI_PROC_NULL && count * dt->size != op->tcount * op->tdt->size) {
        return comm_api_error(w->comm, MPI_ERR_TYPE,
                              "%s: the %s holds %lld bytes and the target %lld: the type "
                              "signatures differ",
                              func, what, (long long)(count * dt->size),
                              (long long)(op->tcount * op->tdt->size));
    }
    return MPI_SUCCESS;
}

/* An accumulate's op: predefined, and defined on the target type unless there is no element
 * to combine. */
static int rma_check_op(const char *func, struct comm_win *w, MPI_Op op, struct comm_rma_op *o)
{
    o->op = comm_op_lookup(op);
    if (o->op == NULL) {
        return comm_api_error(w->comm, MPI_ERR_OP, "%s: invalid op", func);
    }
    if (!o->op->predefined) {
        return comm_api_error(w->comm, MPI_ERR_OP,
                              "%s: one-sided accumulates take predefined ops only, not a "
                              "user-defined op",
                              func);
    }
    if (o->tcount == 0 || (o->op == w->accepted_op && o->tdt == w->accepted_type)) {
        return MPI_SUCCESS; /* nothing to combine (as Open MPI and MPICH), or as the last time */
    }
    if (!comm_op_accepts(o->op, o->tdt)) {
        return comm_api_error(w->comm, MPI_ERR_OP, "%s: %s is not defined on the target type", func,
                              comm_op_name(o->op));
    }
    if (o->tdt->predefined) {
        w->accepted_op = o->op;
        w->accepted_type = o->tdt;
    }
    return MPI_SUCCESS;
}

static int rma_start(const char *func, struct comm_win *w, struct comm_rma_op *op,
                     MPI_Request *request)
{
    struct comm_request *req = NULL;
    int err = comm_win_op(w, op, request != NULL ? &req : NULL);

    if (err != MPI_SUCCESS) {
        return comm_api_error(w->comm, err, "%s: the operation to rank %d failed", func,
                              op->target);
    }
    if (request != NULL) {
        *request = (MPI_Request)req;
    }
    return MPI_SUCCESS;
}

/* The start of an operation: a window, and (WANT_REQUEST) where its request goes. */
static int rma_enter_op(const char *func, MPI_Win win, bool want_request, MPI_Request *request,
                        struct comm_win **w_out)
{
    int err = comm_api_enter_win(func, win, w_out);

    if (err == MPI_SUCCESS && want_request && request == NULL) {
        err = comm_api_error((*w_out)->comm, MPI_ERR_ARG, "%s: request is NULL", func);
    }
    return err;
}

static int rma_put_get(const char *func, enum comm_rma_kind kind, const void *origin_addr,
                       int origin_count, MPI_Datatype origin_datatype, int target_rank,
                       MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype,
                       MPI_Op op, MPI_Win win, MPI_Request *request, bool want_request)
{
    struct comm_rma_op o = {.kind = kind, .origin = origin_addr, .ocount = origin_count};
    struct comm_win *w = NULL;
    int err = rma_enter_op(func, win, want_request, request, &w);

    if (err != MPI_SUCCESS) {
        return err;
    }
    err = comm_api_check_data(func, w->comm, origin_addr, origin_count, origin_datatype, &o.odt);
    if (err == MPI_SUCCESS) {
        err =
            rma_check_target(func, w, &o, target_rank, target_disp, target_count, target_datatype);
    }
    if (err == MPI_SUCCESS && kind == COMM_RMA_ACC) {
        err = rma_check_op(func, w, op, &o);
    }
    if (err == MPI_SUCCESS) {
        err = rma_check_match(func, w, o.ocount, o.odt, &o, "origin");
    }
    if (err != MPI_SUCCESS) {
        return err;
    }
    return rma_start(func, w, &o, want_request ? request : NULL);
}

int PMPI_Put(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
             int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype,
             MPI_Win win)
{
    return rma_put_get("MPI_Put", COMM_RMA_PUT, origin_addr, origin_count, origin_datatype,
                       target_rank, target_disp, target_count, target_datatype, MPI_OP_NULL, win,
                       NULL, false);
}
COMM_API_ALIAS(MPI_Put);

int PMPI_Get(void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
             MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win)
{
    return rma_put_get("MPI_Get", COMM_RMA_GET, origin_addr, origin_count, origin_datatype,
                       target_rank, target_disp, target_count, target_datatype, MPI_OP_NULL, win,
                       NULL, false);
}
COMM_API_ALIAS(MPI_Get);

int PMPI_Accumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
                    int target_rank, MPI_Aint target_disp, int target_count,
                    MPI_Datatype target_datatype, MPI_Op op, MPI_Win win)
{
    return rma_put_get("MPI_Accumulate", COMM_RMA_ACC, origin_addr, origin_count, origin_datatype,
                       target_rank, target_disp, target_count, target_datatype, op, win, NULL,
                       false);
}
COMM_API_ALIAS(MPI_Accumulate);

int PMPI_Rput(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
              int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype,
              MPI_Win win, MPI_Request *request)
{
    return rma_put_get("MPI_Rput", COMM_RMA_PUT, origin_addr, origin_count, origin_datatype,
                       target_rank, target_disp, target_count, target_datatype, MPI_OP_NULL, win,
                       request, true);
}
COMM_API_ALIAS(MPI_Rput);

int PMPI_Rget(void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
              MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win,
              MPI_Request *request)
{
    return rma_put_get("MPI_Rget", COMM_RMA_GET, origin_addr, origin_count, origin_datatype,
                       target_rank, target_disp, target_count, target_datatype, MPI_OP_NULL, win,
                       request, true);
}
COMM_API_ALIAS(MPI_Rget);

int PMPI_Raccumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
                     int target_rank, MPI_Aint target_disp, int target_count,
                     MPI_Datatype target_datatype, MPI_Op op, MPI_Win win, MPI_Request *request)
{
    return rma_put_get("MPI_Raccumulate", COMM_RMA_ACC, origin_addr, origin_count, origin_datatype,
                       target_rank, target_disp, target_count, target_datatype, op, win, request,
                       true);
}
COMM_API_ALIAS(MPI_Raccumulate);

static int rma_get_acc(const char *func, const void *origin_addr, int origin_count,
                       MPI_Datatype origin_datatype, void *result_addr, int result_count,
                       MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp,
                       int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win,
                       MPI_Request *request, bool want_request)
{
    struct comm_rma_op o = {.kind = COMM_RMA_GET_ACC,
                            .origin = origin_addr,
                            .ocount = origin_count,
                            .result = result_addr,
                            .rcount = result_count};
    struct comm_win *w = NULL;
    int err = rma_enter_op(func, win, want_request, request, &w);

    if (err != MPI_SUCCESS) {
        return err;
    }
    err = comm_api_check_data(func, w->comm, result_addr, result_count, result_datatype, &o.rdt);
    if (err == MPI_SUCCESS) {
        err =
            rma_check_target(func, w, &o, target_rank, target_disp, target_count, target_datatype);
    }
    if (err == MPI_SUCCESS) {
        err = rma_check_op(func, w, op, &o);
    }
    if (err == MPI_SUCCESS && o.op->index == COMM_OP_NO_OP) {
        /* The origin's arguments are ignored. */
        o.ocount = 0;
        o.odt = o.tdt;
    } else if (err == MPI_SUCCESS) {
        err =
            comm_api_check_data(func, w->comm, origin_addr, origin_count, origin_datatype, &o.odt);
        if (err == MPI_SUCCESS) {
            err = rma_check_match(func, w, o.ocount, o.odt, &o, "origin");
        }
    }
    if (err == MPI_SUCCESS) {
        err = rma_check_match(func, w, o.rcount, o.rdt, &o, "result");
    }
    if (err != MPI_SUCCESS) {
        return err;
    }
    return rma_start(func, w, &o, want_request ? request : NULL);
}

int PMPI_Get_accumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
                        void *result_addr, int result_count, MPI_Datatype result_datatype,
                        int target_rank, MPI_Aint target_disp, int target_count,
                        MPI_Datatype target_datatype, MPI_Op op, MPI_Win win)
{
    return rma_get_acc("MPI_Get_accumulate", origin_addr, origin_count, origin_datatype,
                       result_addr, result_count, result_datatype, target_rank, target_disp,
                       target_count, target_datatype, op, win, NULL, false);
}
COMM_API_ALIAS(MPI_Get_accumulate);

int PMPI_Rget_accumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
                         void *result_addr, int result_count, MPI_Datatype result_datatype,
                         int target_rank, MPI_Aint target_disp, int target_count,
                         MPI_Datatype target_datatype, MPI_Op op, MPI_Win win, MPI_Request *request)
{
    return rma_get_acc("MPI_Rget_accumulate", origin_addr, origin_count, origin_datatype,
                       result_addr, result_count, result_datatype, target_rank, target_disp,
                       target_count, target_datatype, op, win, request, true);
}
COMM_API_ALIAS(MPI_Rget_accumulate);

int PMPI_Fetch_and_op(const void *origin_addr, void *result_addr, MPI_Datatype datatype,
                      int target_rank, MPI_Aint target_disp, MPI_Op op, MPI_Win win)
{
    static const char func[] = "MPI_Fetch_and_op";
    struct comm_rma_op o = {.kind = COMM_RMA_GET_ACC,
                            .origin = origin_addr,
                            .ocount = 1,
                            .result = result_addr,
                            .rcount = 1};
    struct comm_win *w = NULL;
    int err = comm_api_enter_win(func, win, &w);

    if (err != MPI_SUCCESS) {
        return err;
    }
    /* One element of one type everywhere: the target's checks cover the type. */
    err = rma_check_target(func, w, &o, target_rank, target_disp, 1, datatype);
    if (err == MPI_SUCCESS) {
        err = rma_check_op(func, w, op, &o);
    }
    if (err != MPI_SUCCESS) {
        return err;
    }
    o.odt = o.rdt = o.tdt;
    if (o.op->index == COMM_OP_NO_OP) {
        o.ocount = 0;
    }
    if (result_addr == NULL || (origin_addr == NULL && o.ocount > 0)) {
        return comm_api_error(w->comm, MPI_ERR_BUFFER, "%s: %s is NULL", func,
                              result_addr == NULL ? "result_addr" : "origin_addr");
    }
    return rma_start(func, w, &o, NULL);
}
COMM_API_ALIAS(MPI_Fetch_and_op);

int PMPI_Compare_and_swap(const void *origin_addr, const void *compare_addr, void *result_addr,
                          MPI_Datatype datatype, int target_rank, MPI_Aint target_disp, MPI_Win win)
{
    struct comm_rma_op o = {.kind = COMM_RMA_CAS,
                            .origin = origin_addr,
                            .ocount = 1,
                            .compare = compare_addr,
                            .result = result_addr,
                            .rcount = 1};
    struct comm_win *w = NULL;
    int err = comm_api_enter_win("MPI_Compare_and_swap", win, &w);

    if (err != MPI_SUCCESS) {
        return err;
    }
    err = comm_api_check_data("MPI_Compare_and_swap", w->comm, origin_addr, 1, datatype, &o.odt);
    if (err == MPI_SUCCESS &&
        (!o.odt->predefined || o.odt->basic == MPI_DATATYPE_NULL || o.odt->nelements != 1)) {
        err = comm_api_error(w->comm, MPI_ERR_TYPE,
                             "MPI_Compare_and_swap: the datatype must be one predefined integer, "
                             "logical or byte type");
    }
    if (err == MPI_SUCCESS && (compare_addr == NULL || result_addr == NULL)) {
        err = comm_api_error(w->comm, MPI_ERR_BUFFER, "MPI_Compare_and_swap: %s is NULL",
                             compare_addr == NULL ? "compare_addr" : "result_addr");
    }
    if (err == MPI_SUCCESS) {
        o.rdt = o.odt;
        err =
            rma_check_target("MPI_Compare_and_swap", w, &o, target_rank, target_disp, 1, datatype);
    }
    if (err != MPI_SUCCESS) {
        return err;
    }
    return rma_start("MPI_Compare_and_swap", w, &o, NULL);
}
COMM_API_ALIAS(MPI_Compare_and_swap);

/* ---- synchronization -------------------------------------------------------------------- */

static int rma_check_assert(const char *func, struct comm_win *w, int assert, int allowed)
{
    if ((assert & ~allowed) != 0) {
        return comm_api_error(w->comm, MPI_ERR_ASSERT, "%s: invalid assert %#x", func,
                              (unsigned)assert);
    }
    return MPI_SUCCESS;
}

static int rma_sync_result(const char *func, struct comm_win *w, int err)
{
    return err == MPI_SUCCESS ? MPI_SUCCESS
                              : comm_api_error(w->comm, err, "%s: synchronization failed", func);
}

int PMPI_Win_fence(int assert, MPI_Win win)
{
    struct comm_win *w = NULL;
    int err = comm_api_enter_win("MPI_Win_fence", win, &w);

    if (err == MPI_SUCCESS) {
        err = rma_check_assert("MPI_Win_fence", w, assert,
                               MPI_MODE_NOSTORE | MPI_MODE_NOPUT | MPI_MODE_NOPRECEDE |
                                   MPI_MODE_NOSUCCEED);
    }
    if (err != MPI_SUCCESS) {
        return err;
    }
    if (w->access != COMM_RMA_NONE || w->exposed) {
        return comm_api_error(w->comm, MPI_ERR_RMA_SYNC,
                              "MPI_Win_fence: the window is in another epoch (%s)",
                              w->exposed                       ? "posted"
                              : w->access == COMM_RMA_PSCW     ? "started"
                              : w->access == COMM_RMA_LOCK_ALL ? "locked with MPI_Win_lock_all"
                                                               : "locked");
    }
    return rma_sync_result("MPI_Win_fence", w, comm_win_fence(w, assert));
}
COMM_API_ALIAS(MPI_Win_fence);

/* The window ranks of GROUP's members (malloc'ed), or the error raised. */
static int rma_group_ranks(const char *func, struct comm_win *w, MPI_Group group, int **ranks_out,
                           int *n_out)
{
    struct comm_group *g = comm_group_lookup(group);
    int *ranks;

    if (g == NULL) {
        return comm_api_error(w->comm, MPI_ERR_GROUP, "%s: invalid group", func);
    }
    ranks = malloc((size_t)(g->size > 0 ? g->size : 1) * sizeof(int));
    if (ranks == NULL) {
        return comm_api_error(w->comm, MPI_ERR_NO_MEM, "%s: out of memory", func);
    }
    for (int i = 0; i < g->size; i++) {
        ranks[i] = -1;
        for (int r = 0; r < w->size; r++) {
            if (w->peers[r].world == g->world_ranks[i]) {
                ranks[i] = r;
                break;
            }
        }
        if (ranks[i] < 0) {
            free(ranks);
            return comm_api_error(w->comm, MPI_ERR_GROUP,
                                  "%s: member %d of the group is not in the window's group", func,
                                  i);
        }
    }
    *ranks_out = ranks;
    *n_out = g->size;
    return MPI_SUCCESS;
}

int PMPI_Win_post(MPI_Group group, int assert, MPI_Win win)
{
    struct comm_win *w = NULL;
    int *ranks, n;
    int err = comm_api_enter_win("MPI_Win_post", win, &w);

    if (err == MPI_SUCCESS) {
        err = rma_check_assert("MPI_Win_post", w, assert,
                               MPI_MODE_NOCHECK | MPI_MODE_NOSTORE | MPI_MODE_NOPUT);
    }
    if (err != MPI_SUCCESS) {
        return err;
    }
    if (w->exposed) {
        return comm_api_error(w->comm, MPI_ERR_RMA_SYNC,
                              "MPI_Win_post: the window is already posted (MPI_Win_wait first)");
    }
    err = rma_group_ranks("MPI_Win_post", w, group, &ranks, &n);
    if (err != MPI_SUCCESS) {
        return err;
    }
    err = comm_win_post(w, ranks, n, assert);
    free(ranks);
    return rma_sync_result("MPI_Win_post", w, err);
}
COMM_API_ALIAS(MPI_Win_post);

int PMPI_Win_start(MPI_Group group, int assert, MPI_Win win)
{
    struct comm_win *w = NULL;
    int *ranks, n;
    int err = comm_api_enter_win("MPI_Win_start", win, &w);

    if (err == MPI_SUCCESS) {
        err = rma_check_assert("MPI_Win_start", w, assert, MPI_MODE_NOCHECK);
    }
    if (err != MPI_SUCCESS) {
        return err;
    }
    if (w->access != COMM_RMA_NONE) {
        return comm_api_error(w->comm, MPI_ERR_RMA_SYNC,
                              "MPI_Win_start: an access epoch is already open");
    }
    err = rma_group_ranks("MPI_Win_start", w, group, &ranks, &n);
    if (err != MPI_SUCCESS) {
        return err;
    }
    w->fence_open = false;
    err = comm_win_start(w, ranks, n, assert);
    free(ranks);
    return rma_sync_result("MPI_Win_start", w, err);
}
COMM_API_ALIAS(MPI_Win_start);

int PMPI_Win_complete(MPI_Win win)
{
    struct comm_win *w = NULL;
    int err = comm_api_enter_win("MPI_Win_complete", win, &w);

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (w->access != COMM_RMA_PSCW) {
        return comm_api_error(w->comm, MPI_ERR_RMA_SYNC,
                              "MPI_Win_complete: no access epoch was started (MPI_Win_start)");
    }
    return rma_sync_result("MPI_Win_complete", w, comm_win_complete(w));
}
COMM_API_ALIAS(MPI_Win_complete);

int PMPI_Win_wait(MPI_Win win)
{
    struct comm_win *w = NULL;
    int err = comm_api_enter_win("MPI_Win_wait", win, &w);

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (!w->exposed) {
        return comm_api_error(w->comm, MPI_ERR_RMA_SYNC,
                              "MPI_Win_wait: the window was not posted (MPI_Win_post)");
    }
    return rma_sync_result("MPI_Win_wait", w, comm_win_wait(w));
}
COMM_API_ALIAS(MPI_Win_wait);

int PMPI_Win_test(MPI_Win win, int *flag)
{
    struct comm_win *w = NULL;
    bool done = false;
    int err = comm_api_enter_win("MPI_Win_test", win, &w);

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (flag == NULL) {
        return comm_api_error(w->comm, MPI_ERR_ARG, "MPI_Win_test: flag is NULL");
    }
    if (!w->exposed) {
        return comm_api_error(w->comm, MPI_ERR_RMA_SYNC,
                              "MPI_Win_test: the window was not posted (MPI_Win_post)");
    }
    err = comm_win_test(w, &done);
    *flag = done;
    return rma_sync_result("MPI_Win_test", w, err);
}
COMM_API_ALIAS(MPI_Win_test);

int PMPI_Win_lock(int lock_type, int rank, int assert, MPI_Win win)
{
    struct comm_win *w = NULL;
    int err = comm_api_enter_win("MPI_Win_lock", win, &w);

    if (err == MPI_SUCCESS) {
        err = rma_check_assert("MPI_Win_lock", w, assert, MPI_MODE_NOCHECK);
    }
    if (err == MPI_SUCCESS) {
        err = rma_check_rank("MPI_Win_lock", w, rank, true);
    }
    if (err != MPI_SUCCESS) {
        return err;
    }
    if (lock_type != MPI_LOCK_SHARED && lock_type != MPI_LOCK_EXCLUSIVE) {
        return comm_api_error(w->comm, MPI_ERR_LOCKTYPE,
                              "MPI_Win_lock: lock_type %d is neither MPI_LOCK_SHARED nor "
                              "MPI_LOCK_EXCLUSIVE",
                              lock_type);
    }
    if (w->access == COMM_RMA_PSCW || w->access == COMM_RMA_LOCK_ALL ||
        (rank != MPI_PROC_NULL && w->peers[rank].lock_type != 0)) {
        return comm_api_error(w->comm, MPI_ERR_RMA_SYNC,
                              "MPI_Win_lock: rank %d is already in an access epoch of this "
                              "process",
                              rank);
    }
    return rma_sync_result("MPI_Win_lock", w, comm_win_lock(w, lock_type, rank, assert));
}
COMM_API_ALIAS(MPI_Win_lock);

int PMPI_Win_unlock(int rank, MPI_Win win)
{
    struct comm_win *w = NULL;
    int err = comm_api_enter_win("MPI_Win_unlock", win, &w);

    if (err == MPI_SUCCESS) {
        err = rma_check_rank("MPI_Win_unlock", w, rank, true);
    }
    if (err != MPI_SUCCESS) {
        return err;
    }
    if (w->access != COMM_RMA_LOCKS || (rank != MPI_PROC_NULL && w->peers[rank].lock_type == 0)) {
        return comm_api_error(w->comm, MPI_ERR_RMA_SYNC,
                              "MPI_Win_unlock: rank %d is not locked (MPI_Win_lock)", rank);
    }
    return rma_sync_result("MPI_Win_unlock", w, comm_win_unlock(w, rank));
}
COMM_API_ALIAS(MPI_Win_unlock);

int PMPI_Win_lock_all(int assert, MPI_Win win)
{
    struct comm_win *w = NULL;
    int err = comm_api_enter_win("MPI_Win_lock_all", win, &w);

    if (err == MPI_SUCCESS) {
        err = rma_check_assert("MPI_Win_lock_all", w, assert, MPI_MODE_NOCHECK);
    }
    if (err != MPI_SUCCESS) {
        return err;
    }
    if (w->access != COMM_RMA_NONE) {
        return comm_api_error(w->comm, MPI_ERR_RMA_SYNC,
                              "MPI_Win_lock_all: an access epoch is already open");
    }
    return rma_sync_result("MPI_Win_lock_all", w, comm_win_lock_all(w, assert));
}
COMM_API_ALIAS(MPI_Win_lock_all);

int PMPI_Win_unlock_all(MPI_Win win)
{
    struct comm_win *w = NULL;
    int err = comm_api_enter_win("MPI_Win_unlock_all", win, &w);

    if (err != MPI_SUCCESS) {
        return err;
    }
    if (w->access != COMM_RMA_LOCK_ALL) {
        return comm_api_error(w->comm, MPI_ERR_RMA_SYNC,
                              "MPI_Win_unlock_all: the window is not locked with "
                              "MPI_Win_lock_all");
    }
    return rma_sync_result("MPI_Win_unlock_all", w, comm_win_unlock_all(w));
}
COMM_API_ALIAS(MPI_Win_unlock_all);

/* The flushes: a passive-target epoch must be open to RANK (COMM_RMA_ALL: any). */
static int rma_flush(const char *func, int rank, MPI_Win win, bool local)
{
    struct comm_win *w = NULL;
    int err = comm_api_enter_win(func, win, &w);

    if (err == MPI_SUCCESS && rank != COMM_RMA_ALL) {
        err = rma_check_rank(func, w, rank, true);
    }
    if (err != MPI_SUCCESS) {
        return err;
    }
    if (w->access != COMM_RMA_LOCK_ALL &&
        (w->access != COMM_RMA_LOCKS || (rank >= 0 && w->peers[rank].lock_type == 0))) {
        return comm_api_error(w->comm, MPI_ERR_RMA_SYNC,
                              "%s: no passive-target epoch is open%s (MPI_Win_lock or "
                              "MPI_Win_lock_all first)",
                              func, rank >= 0 ? " to that rank" : "");
    }
    return rma_sync_result(func, w, comm_win_flush(w, rank, local));
}

int PMPI_Win_flush(int rank, MPI_Win win)
{
    return rma_flush("MPI_Win_flush", rank, win, false);
}
COMM_API_ALIAS(MPI_Win_flush);

int PMPI_Win_flush_all(MPI_Win win)
{
    return rma_flush("MPI_Win_flush_all", COMM_RMA_ALL, win, false);
}
COMM_API_ALIAS(MPI_Win_flush_all);

int PMPI_Win_flush_local(int rank, MPI_Win win)
{
    return rma_flush("MPI_Win_flush_local", rank, win, true);
}
COMM_API_ALIAS(MPI_Win_flush_local);

int PMPI_Win_flush_local_all(MPI_Win win)
{
    return rma_flush("MPI_Win_flush_local_all", COMM_RMA_ALL, win, true);
}
COMM_API_ALIAS(MPI_Win_flush_local_all);

int PMPI_Win_sync(MPI_Win win)
{
    struct comm_win *w = NULL;
    int err = comm_api_enter_win("MPI_Win_sync", win, &w);

    return err != MPI_SUCCESS ? err : comm_win_sync(w);
}
COMM_API_ALIAS(MPI_Win_sync);
