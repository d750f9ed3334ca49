/*
 * pmix_client.h - what a rank learns from, and asks of, its process manager.
 *
 * Layer: pmix-glue (client side), below the btls and the runtime core.  This folder is the
 * only code in comm that includes PMIx headers; its interface speaks comm's terms only.
 * Must not: depend on comm-run: the same calls work under srun --mpi=pmix, mpirun.openmpi or
 * any PMIx server, and with no server at all (a singleton: rank 0 of 1).
 *
 * Thread safety: call from the thread that called comm_pmix_init(), between init and
 * finalize; comm_pmix_abort() may be called from any thread.
 */
#ifndef COMM_PMIX_CLIENT_H
#define COMM_PMIX_CLIENT_H

#include <stdbool.h>
#include <stddef.h>

enum { COMM_PMIX_NAME_MAX = 256 };

/* What a rank knows about its job after init.  Owned by the caller. */
struct comm_pmix_job {
    char nspace[COMM_PMIX_NAME_MAX]; /* the job's name, unique on the host */
    char host[COMM_PMIX_NAME_MAX];   /* this rank's host name as the job map has it */
    long rank;
    long size;
    long universe_size;
    long local_rank; /* rank among this job's ranks on this host */
    long local_size;
    long node_rank; /* rank among all jobs' ranks on this host */
    long node_id;
    long appnum;
    bool singleton; /* no process manager: rank 0 of 1 */
};

/*
 * Connects to the process manager and reads the job's shape.  Without a server (no PMIx
 * variables in the environment) the process becomes a singleton and this succeeds.  Returns
 * COMM_ERR_PMIX (after logging why) when a server was announced but cannot be used.
 */
int comm_pmix_init(struct comm_pmix_job *job_out);

/* Disconnects.  Returns COMM_OK or COMM_ERR_PMIX. */
int comm_pmix_finalize(void);

/* Publishes KEY=DATA (copied) for every other rank of the job; visible after commit+fence. */
int comm_pmix_put(const char *key, const void *data, size_t len);
int comm_pmix_commit(void);

/* Waits for every rank of the job; with collect, also exchanges what was put. */
int comm_pmix_fence(bool collect);

/*
 * Reads what RANK put under KEY.  *data_out is malloc'ed and owned by the caller.  Returns
 * COMM_ERR_NOT_FOUND if RANK put nothing under KEY.
 */
int comm_pmix_get(long rank, const char *key, void **data_out, size_t *len_out);

/*
 * The world ranks of the job on this host, in local-rank order (malloc'ed, owned by the
 * caller).  A singleton has just itself.
 */
int comm_pmix_local_peers(long **ranks_out, size_t *n_out);

/* Host name of RANK as the job map has it. */
int comm_pmix_peer_host(long rank, char *host_out, size_t len);

/*
 * Every rank's host: *HOSTS_OUT (malloc'ed names, NHOSTS_OUT of them; comm_pmix_hosts_free)
 * and RANK_HOST[r] (SIZE entries, the caller's), the index of rank r's host in it.  One call
 * per host, not per rank, where the process manager resolves nodes.
 */
int comm_pmix_job_hosts(long size, char ***hosts_out, size_t *nhosts_out, long *rank_host);
void comm_pmix_hosts_free(char **hosts, size_t nhosts);

/* Asks the process manager to end the whole job, with STATUS and MESSAGE.  Returns when the
 * server has taken the request (or at once without a server); the caller then exits. */
void comm_pmix_abort(int status, const char *message);

/* The PMIx library's own version text, for comm-info. */
const char *comm_pmix_version(void);

#endif
