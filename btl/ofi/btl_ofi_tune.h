/*
 * btl_ofi_tune.h - how to read a large message from a peer: in pieces, several in flight, or
 * whole, chosen per peer and message size by what each way has delivered.
 *
 * Layer: btl/ofi.  Free of libfabric types and clocks: the caller times its reads and reports
 * them, so unit tests drive the choice with made-up times.
 *
 * Why measured, not set: over the kernel's TCP the faster way depends on the path, on the
 * kernel's congestion control and on its state (docs/performance.md gives the figures): under
 * bbr one large read was faster on loopback one day and slower the next, while between two
 * hosts 512 KiB pieces were twice as fast; under cubic one read won everywhere.
 *
 * Messages up to the piece size are read whole either way and take no part.  Larger ones fall
 * into classes by size (up to 2, 4, 8, 16 pieces, and more).  In each class the first two reads
 * of each way are taken in turn, the first of each only warming up; after that the way with
 * the lower average time per byte is used, and every COMM_BTL_OFI_TUNE_EVERY-th message of the
 * class uses the other way, so that a path whose behaviour changes is followed.
 *
 * The ofi module keeps two per peer: one for a message read alone (timed from its start to
 * its end), one for messages read while others from the same peer are under way (a stream,
 * timed by runs of messages, comm_btl_ofi_tune_set_batch).  They disagree: on loopback under
 * bbr a stream of 4 MiB messages moved 6200-7300 MB/s in pieces against 5100-5700 whole,
 * while between two hosts under cubic pieces gave 3500-4500 and whole 4600-9200.  (Streams
 * from a peer on the same host skip the tuner: btl_ofi_endpoint.same_host.)  Not thread-safe:
 * the owner (the ofi module) serializes calls.
 */
#ifndef COMM_BTL_OFI_TUNE_H
#define COMM_BTL_OFI_TUNE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum comm_btl_ofi_read_way {
    COMM_BTL_OFI_READ_PIECES = 0, /* pieces of the small size, several in flight */
    COMM_BTL_OFI_READ_WHOLE = 1,  /* one read, of at most the large size */
    COMM_BTL_OFI_READ_WAYS = 2,
};

enum {
    COMM_BTL_OFI_TUNE_CLASSES = 5,
    COMM_BTL_OFI_TUNE_EVERY = 32, /* one message in this many tries the way not chosen */
};

struct comm_btl_ofi_tune_class {
    double ns_per_byte[COMM_BTL_OFI_READ_WAYS]; /* running average; 0 until measured */
    unsigned seen[COMM_BTL_OFI_READ_WAYS];      /* reads reported, up to 2 */
    unsigned long count;                        /* messages of the class so far */
    enum comm_btl_ofi_read_way chosen;          /* once both ways are measured */
    bool decided;
};

/* One peer's choice.  Zero-filled, then comm_btl_ofi_tune_init. */
struct comm_btl_ofi_tune {
    size_t piece;   /* the small size: messages above it are tuned */
    unsigned batch; /* messages per turn of a way (1 unless comm_btl_ofi_tune_set_batch) */
    struct comm_btl_ofi_tune_class cls[COMM_BTL_OFI_TUNE_CLASSES];
};

void comm_btl_ofi_tune_init(struct comm_btl_ofi_tune *t, size_t piece);

/*
 * Makes each way's turn BATCH messages of a class long instead of one: for messages timed
 * together (a stream reports one sample per run of messages read the same way).  The warm-up
 * takes two turns of each way in turn, and every COMM_BTL_OFI_TUNE_EVERY-th turn tries the
 * way not chosen.
 */
void comm_btl_ofi_tune_set_batch(struct comm_btl_ofi_tune *t, unsigned batch);

/* The class of a LEN-byte message, or -1 when it is read whole either way. */
int comm_btl_ofi_tune_class_of(const struct comm_btl_ofi_tune *t, size_t len);

/* The way to read a LEN-byte message (counts it in its class). */
enum comm_btl_ofi_read_way comm_btl_ofi_tune_choose(struct comm_btl_ofi_tune *t, size_t len);

/*
 * Reports that a LEN-byte message read WAY took NS nanoseconds.  Returns whether its class's
 * way was chosen for the first time or changed.
 */
bool comm_btl_ofi_tune_record(struct comm_btl_ofi_tune *t, size_t len,
                              enum comm_btl_ofi_read_way way, uint64_t ns);

/*
 * The same for BYTES delivered in NS by messages of LEN's class read WAY: a stream of
 * messages, timed from one end of a message to the next, reports those that ended together
 * as one.  BYTES 0 is ignored.
 */
bool comm_btl_ofi_tune_record_bytes(struct comm_btl_ofi_tune *t, size_t len,
                                    enum comm_btl_ofi_read_way way, size_t bytes, uint64_t ns);

/*
 * What T chose, for the log, its pieces being PIECE bytes: "up to 2 MiB whole (9120 MB/s; in
 * 512 KiB pieces 7710), above 8 MiB in 512 KiB pieces (...)", one entry per class whose way is
 * chosen; "" when none is.
 */
void comm_btl_ofi_tune_describe(const struct comm_btl_ofi_tune *t, size_t piece, char *out,
                                size_t len);

#endif
