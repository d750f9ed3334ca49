/*
 * pmix_server.h - the PMIx server that a launcher agent runs for the ranks of its host.
 *
 * Layer: pmix-glue (server side).  Used only by launcher/; never linked into libcomm.
 * Must not: fork, signal or wait for processes (the launcher does), or print to the user.
 *
 * Life cycle: init (once) -> register_job -> client_env for each local rank -> the ranks run,
 * and PMIx calls the launcher back through `struct comm_pmix_server_ops` -> finalize.
 *
 * Threads: the callbacks run on PMIx's progress thread.  They must only record what happened
 * and wake the launcher's own loop; they must not block.  A fence handed to the launcher is
 * completed later, from any thread, with comm_pmix_server_fence_complete().
 */
#ifndef COMM_PMIX_SERVER_H
#define COMM_PMIX_SERVER_H

#include <stdbool.h>
#include <stddef.h>

struct comm_pmix_fence;

typedef void (*comm_pmix_server_rank_fn)(void *ctx, long rank);
/* A rank asked to end the job.  Runs before the rank is released to exit. */
typedef void (*comm_pmix_server_abort_fn)(void *ctx, long rank, int status, const char *message);
/* Every local rank entered a fence: DATA (len bytes, owned by the fence) is this host's part. */
typedef void (*comm_pmix_server_fence_fn)(void *ctx, struct comm_pmix_fence *fence,
                                          const void *data, size_t len);

struct comm_pmix_server_ops {
    comm_pmix_server_rank_fn connected;
    comm_pmix_server_rank_fn finalized;
    comm_pmix_server_abort_fn aborted;
    comm_pmix_server_fence_fn fence;
};

/* The job as this host's server must describe it.  Arrays are owned by the caller. */
struct comm_pmix_server_job {
    const char *nspace;
    long size;
    long universe_size;
    size_t nhosts;
    const char *const *hosts; /* node id = index */
    const long *rank_host;    /* host index of every rank, `size` entries */
    size_t this_host;         /* the host this server serves */
};

/*
 * Starts the server library with its files under TMPDIR (which must exist and be private).
 * OPS and CTX must stay valid until finalize returns.  Returns COMM_OK or COMM_ERR_PMIX (logged).
 */
int comm_pmix_server_init(const char *tmpdir, const struct comm_pmix_server_ops *ops, void *ctx);

/* Registers the job and every rank of this host; waits until PMIx has taken them. */
int comm_pmix_server_register_job(const struct comm_pmix_server_job *job);

/*
 * Adds to ENV (a NULL-terminated malloc'ed array, possibly reallocated) what RANK needs to
 * reach this server.  Call in the launcher before forking the rank.
 */
int comm_pmix_server_client_env(const char *nspace, long rank, char ***env_inout);

/* Completes a fence with the whole job's data (every host's part concatenated). */
void comm_pmix_server_fence_complete(struct comm_pmix_fence *fence, int status, const void *data,
                                     size_t len);

/*
 * Stops the server; its files under TMPDIR are gone afterwards (the launcher removes the
 * directory itself).  CLIENTS_LOST: some client died without finalizing (a rank aborted while
 * others waited in a fence).  PMIx 4.2's PMIx_server_finalize then crashes (SIGSEGV) or hangs
 * about one time in four, so the server is left as it is: the process exits next, and every
 * file the server made is in TMPDIR.  Either way no callback runs once this returns (one
 * under way is waited for): a server left running may still read an abort or a fence a rank
 * sent before it died, after the launcher freed what OPS touch.
 */
int comm_pmix_server_finalize(bool clients_lost);

#endif
