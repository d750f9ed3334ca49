/*
 * copy.h - copying large buffers that nobody reads again soon.
 *
 * Layer: base.  Must not: allocate or log.
 *
 * A copy larger than a good part of the last-level cache, into memory that will not be read
 * before much else has gone through the cache (an all-to-all's own block, while the blocks of
 * every peer stream past), is faster with non-temporal stores: they write the destination
 * without first reading it into the cache, and do not evict what the copy's neighbours need.
 * Measured on 2 ranks of one host (AMD EPYC, 32 MiB L3): a 16 MiB all-to-all took 3.6-4.6 ms
 * with its 8 MiB own block copied so, against 4.1-5.9 ms with memcpy, in five alternating
 * runs; with 1 MiB blocks memcpy was faster (225 against 250 us), the destination then still
 * being in the cache when it is next written.
 */
#ifndef COMM_COPY_H
#define COMM_COPY_H

#include <stddef.h>

/* The length from which comm_copy_stream beats memcpy for such copies: 4 MiB, an eighth of
 * the L3 where it was measured. */
size_t comm_copy_stream_min(void);

/* Copies LEN bytes from SRC to DST (not overlapping) with non-temporal stores where the CPU has
 * them (x86-64), memcpy elsewhere; any length and alignment.  The stores are fenced before it
 * returns, so the bytes are visible to other cores like a memcpy's. */
void comm_copy_stream(void *dst, const void *src, size_t len);

#endif
