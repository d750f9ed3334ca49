/*
 * info.h - info objects: ordered lists of (key, value) strings that hint at how to do things.
 *
 * Layer: runtime core.  Must not: check MPI arguments (lengths, empty strings), raise MPI errors
 * or print; the API does.
 *
 * Ownership: an info object is reference-counted: the user's handle holds one reference, and
 * an object that keeps the hints it was given (a window, a file) may hold another.  It owns
 * copies of its keys and values.  No lock guards it: the user may not change one info object
 * from two threads at once (MPI-3.1 section 12.4), and reads of an unchanged object are safe.
 */
#ifndef COMM_INFO_H
#define COMM_INFO_H

#include "include/mpi.h"

struct comm_info_entry {
    char *key;
    char *value;
};

struct comm_info {
    struct comm_info_entry *entries; /* in the order the keys were first set */
    int nentries;
    int capacity;
    int refcount;
};

/* The object behind a handle (MPI_INFO_ENV's is static), or NULL for MPI_INFO_NULL and the
 * other small constants. */
struct comm_info *comm_info_lookup(MPI_Info handle);

/* The handle of an object. */
MPI_Info comm_info_handle(struct comm_info *info);

/* A new empty info object with one reference.  Returns COMM_OK or COMM_ERR_NOMEM. */
int comm_info_create(struct comm_info **info_out);

/*
 * A new info object with one reference and a copy of every (key, value) of INFO, in the same
 * order.  Returns COMM_OK or COMM_ERR_NOMEM.
 */
int comm_info_dup(const struct comm_info *info, struct comm_info **info_out);

/* Takes a reference, released with comm_info_release. */
void comm_info_retain(struct comm_info *info);

/* Drops a reference; the last one frees the object and its strings.  Ignores NULL. */
void comm_info_release(struct comm_info *info);

/*
 * Sets KEY to VALUE (both copied).  A key already present keeps its place in the order and gets
 * the new value; a new key goes last.  Returns COMM_OK or COMM_ERR_NOMEM (INFO unchanged).
 */
int comm_info_set(struct comm_info *info, const char *key, const char *value);

/* Removes KEY.  Returns COMM_OK or COMM_ERR_NOT_FOUND. */
int comm_info_delete(struct comm_info *info, const char *key);

/* The value of KEY (owned by INFO, valid until KEY is set or deleted), or NULL if absent. */
const char *comm_info_value(const struct comm_info *info, const char *key);

/* The number of keys. */
int comm_info_nkeys(const struct comm_info *info);

/* The Nth key in order (owned by INFO), or NULL if N is not in [0, nkeys). */
const char *comm_info_nth_key(const struct comm_info *info, int n);

#endif
