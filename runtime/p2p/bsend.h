/*
 * bsend.h - the buffer attached for buffered sends (MPI_Buffer_attach, MPI_Bsend).
 *
 * Layer: runtime core.  Must not: send anything itself (the API starts the sends).
 *
 * A buffered send packs its message into a block of the attached buffer; the block is given
 * back when the send completes.  Each block costs COMM_BSEND_HEADER bytes besides the message,
 * which MPI_BSEND_OVERHEAD in mpi.h covers.
 *
 * Threads: guarded by the core lock (runtime/thread.h), which the functions here take: any
 * thread may call them.
 */
#ifndef COMM_BSEND_H
#define COMM_BSEND_H

#include <stdbool.h>
#include <stddef.h>

/* Attaches [buf, buf+size).  COMM_ERR_STATE if a buffer is already attached. */
int comm_bsend_attach(void *buf, size_t size);

/* Waits until every buffered send has completed, then detaches; returns the buffer. */
int comm_bsend_detach(void **buf_out, size_t *size_out);

/* A block for LEN bytes of packed message; COMM_ERR_NOMEM (no logging) if it does not fit,
 * with the free space in *free_out. */
int comm_bsend_alloc(size_t len, void **data_out, size_t *free_out);

/* Gives the block of DATA back. */
void comm_bsend_release(void *data);

/* Whether a buffer is attached. */
bool comm_bsend_is_attached(void);

#endif
