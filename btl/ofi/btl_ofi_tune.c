/*
 * btl_ofi_tune.c - choosing per peer and message size how a large message is read.  See
 * btl_ofi_tune.h.
 *
 * Layer: btl/ofi.  Must not: include libfabric or read a clock (the caller reports times).
 */
#include "config.h"

#include "btl/ofi/btl_ofi_tune.h"

#include <stdio.h>
#include <string.h>

void comm_btl_ofi_tune_init(struct comm_btl_ofi_tune *t, size_t piece)
{
    memset(t, 0, sizeof(*t));
    t->piece = piece;
    t->batch = 1;
}

void comm_btl_ofi_tune_set_batch(struct comm_btl_ofi_tune *t, unsigned batch)
{
    t->batch = batch > 0 ? batch : 1;
}

static enum comm_btl_ofi_read_way tune_other(enum comm_btl_ofi_read_way way)
{
    return way == COMM_BTL_OFI_READ_PIECES ? COMM_BTL_OFI_READ_WHOLE : COMM_BTL_OFI_READ_PIECES;
}

int comm_btl_ofi_tune_class_of(const struct comm_btl_ofi_tune *t, size_t len)
{
    size_t top = 2 * t->piece;
    int c = 0;

    if (t->piece == 0 || len <= t->piece) {
        return -1;
    }
    while (c < COMM_BTL_OFI_TUNE_CLASSES - 1 && len > top) {
        top *= 2;
        c++;
    }
    return c;
}

enum comm_btl_ofi_read_way comm_btl_ofi_tune_choose(struct comm_btl_ofi_tune *t, size_t len)
{
    int c = comm_btl_ofi_tune_class_of(t, len);
    struct comm_btl_ofi_tune_class *k;
    bool warming;

    if (c < 0) {
        return COMM_BTL_OFI_READ_WHOLE;
    }
    k = &t->cls[c];
    k->count++;
    warming = k->seen[COMM_BTL_OFI_READ_PIECES] < 2 || k->seen[COMM_BTL_OFI_READ_WHOLE] < 2;
    if (t->batch > 1) {
        /* Turns of BATCH messages: samples come at the end of a turn, not of each message. */
        unsigned long turn = (k->count - 1) / t->batch;

        if (warming) {
            return turn % 2 == 0 ? COMM_BTL_OFI_READ_PIECES : COMM_BTL_OFI_READ_WHOLE;
        }
        return turn % COMM_BTL_OFI_TUNE_EVERY == COMM_BTL_OFI_TUNE_EVERY - 1 ? tune_other(k->chosen)
                                                                             : k->chosen;
    }
    if (warming) {
        /* Warming up: the way with fewer reads so far, pieces first. */
        return k->seen[COMM_BTL_OFI_READ_WHOLE] < k->seen[COMM_BTL_OFI_READ_PIECES]
                   ? COMM_BTL_OFI_READ_WHOLE
                   : COMM_BTL_OFI_READ_PIECES;
    }
    if (k->count % COMM_BTL_OFI_TUNE_EVERY == 0) {
        return tune_other(k->chosen);
    }
    return k->chosen;
}

bool comm_btl_ofi_tune_record(struct comm_btl_ofi_tune *t, size_t len,
                              enum comm_btl_ofi_read_way way, uint64_t ns)
{
    return comm_btl_ofi_tune_record_bytes(t, len, way, len, ns);
}

bool comm_btl_ofi_tune_record_bytes(struct comm_btl_ofi_tune *t, size_t len,
                                    enum comm_btl_ofi_read_way way, size_t bytes, uint64_t ns)
{
    int c = comm_btl_ofi_tune_class_of(t, len);
    struct comm_btl_ofi_tune_class *k;
    enum comm_btl_ofi_read_way before;
    double sample, *avg;

    if (c < 0 || (unsigned)way >= COMM_BTL_OFI_READ_WAYS || bytes == 0) {
        return false;
    }
    k = &t->cls[c];
    if (k->seen[way]++ == 0) {
        return false; /* the first read of a way warms up: registrations, buffers, the path */
    }
    if (k->seen[way] > 2) {
        k->seen[way] = 2;
    }
    sample = (double)ns / (double)bytes;
    avg = &k->ns_per_byte[way];
    if (*avg == 0) {
        *avg = sample;
    } else {
        /* One stalled read (the sender busy elsewhere, a core taken away) moves the average
         * at most as far as a read twice as slow would. */
        if (sample > 2 * *avg) {
            sample = 2 * *avg;
        }
        *avg += (sample - *avg) / 4;
    }
    if (k->ns_per_byte[COMM_BTL_OFI_READ_PIECES] == 0 ||
        k->ns_per_byte[COMM_BTL_OFI_READ_WHOLE] == 0) {
        return false;
    }
    before = k->chosen;
    k->chosen = k->ns_per_byte[COMM_BTL_OFI_READ_WHOLE] < k->ns_per_byte[COMM_BTL_OFI_READ_PIECES]
                    ? COMM_BTL_OFI_READ_WHOLE
                    : COMM_BTL_OFI_READ_PIECES;
    if (!k->decided) {
        k->decided = true;
        return true;
    }
    return k->chosen != before;
}

/* "512 KiB", "4 MiB": the bounds of the classes are whole KiB or MiB. */
static void tune_bytes_text(size_t bytes, char *out, size_t len)
{
    if (bytes >= (1u << 20) && bytes % (1u << 20) == 0) {
        snprintf(out, len, "%zu MiB", bytes >> 20);
    } else {
        snprintf(out, len, "%zu KiB", bytes >> 10);
    }
}

void comm_btl_ofi_tune_describe(const struct comm_btl_ofi_tune *t, size_t piece, char *out,
                                size_t len)
{
    char size[32], pieces[48];
    size_t used = 0;

    tune_bytes_text(piece, size, sizeof(size));
    snprintf(pieces, sizeof(pieces), "in %s pieces", size);
    out[0] = '\0';
    for (int c = 0; c < COMM_BTL_OFI_TUNE_CLASSES && used < len; c++) {
        const struct comm_btl_ofi_tune_class *k = &t->cls[c];
        bool last = c == COMM_BTL_OFI_TUNE_CLASSES - 1;
        bool whole = k->chosen == COMM_BTL_OFI_READ_WHOLE;
        char bound[32];
        int n;

        if (!k->decided) {
            continue;
        }
        tune_bytes_text(t->piece << (last ? c : c + 1), bound, sizeof(bound));
        n = snprintf(out + used, len - used, "%s%s %s %s (%.0f MB/s; %s %.0f)",
                     used > 0 ? ", " : "", last ? "above" : "up to", bound,
                     whole ? "whole" : pieces, 1000.0 / k->ns_per_byte[k->chosen],
                     whole ? pieces : "whole", 1000.0 / k->ns_per_byte[!k->chosen]);
        if (n < 0) {
            break;
        }
        used += (size_t)n;
    }
}
