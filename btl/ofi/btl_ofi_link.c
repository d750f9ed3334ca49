/*
 * btl_ofi_link.c - links that survive a lost connection.
 *
 * Layer: btl/ofi.  Must not: free a message the peer has not acknowledged, hand the runtime a
 * fragment twice or out of order, or end the job before COMM_LINK_TIMEOUT_MS has passed with
 * the link down.
 *
 * Links.  A connection under the provider can be lost (a switch port that resets it, a link
 * that flaps, a peer's host that kills its sockets) and take with it what was on the way.  So
 * every fragment and pack to a peer is numbered (the header's SEQ) and kept after it left,
 * until the peer acknowledges it: the header's ACK, which every message to the sender carries,
 * counts what the peer took and posted the buffer of again.  The same count gives the credits
 * back (a credit is a buffer posted again), so a message of credits lost with a connection
 * costs nothing: the next one says it all.  The receiver takes only the next number; a copy
 * that came twice, or one after a lost one, is dropped, its buffer posted again at once, and
 * the sender told what was taken.
 *
 * A link goes down when a send to the peer fails (a completion error, or the provider refuses
 * it for good): everything kept is sent again, in order, once the provider has handed back
 * the sends it held (BTL_OFI_LINK_RETRY_NS later, then twice as long each time, up to a
 * second), the connection made again by the provider on that first send (libfabric's tcp
 * providers connect on demand).  The link is up again once all of them left; after
 * COMM_LINK_TIMEOUT_MS down the job ends, naming both ends and the cause.  A link whose peer
 * says nothing while messages wait for its acknowledgement (a reset that only the peer's side
 * saw, with nothing more to send here) is tested the same way: after a second without an
 * acknowledgement the kept messages are sent again (then after 2, 4 ... 16 s: a peer that is
 * only busy away from MPI drops the copies).  Credits owed for a whole tick of these timers
 * (BTL_OFI_LINK_TICK_NS) go back in a message of their own, so kept messages never wait on a
 * peer that has nothing to answer.
 *
 * A read of the peer's memory that fails for a lost connection (comm_btl_ofi_link_error) takes
 * the link down too, and is read again once the link is tried again (reading twice is
 * harmless); a write that fails so is left to the runtime, whose receiver then reads the
 * message.  The link is up again only once something went through after it was tried again.
 */
#include "config.h"

#include "btl/ofi/btl_ofi_module.h"
#include "base/abort.h"
#include "base/error.h"
#include "base/log.h"

#include <stdio.h>
#include <string.h>

enum {
    BTL_OFI_LINK_TICK_NS = 10000000,         /* the timers run at most this often */
    BTL_OFI_LINK_RETRY_NS = 100000000,       /* a link down is tried again after this */
    BTL_OFI_LINK_RETRY_MOST_NS = 1000000000, /* ... doubling up to this */
};
static const uint64_t BTL_OFI_LINK_PROBE_NS = 1000000000ull;       /* kept, no word back */
static const uint64_t BTL_OFI_LINK_PROBE_MOST_NS = 16000000000ull; /* ... doubling up to */

/* Whether number A comes before B (numbers wrap). */
static bool ofi_seq_before(uint32_t a, uint32_t b)
{
    return (int32_t)(a - b) < 0;
}

/* Frees the kept messages of EP the peer acknowledged, from the oldest, while the provider
 * holds none of them; under the send lock. */
static void ofi_link_release(struct btl_ofi_module *m, struct btl_ofi_endpoint *ep)
{
    while (ep->kept_head != NULL && !ep->kept_head->posted &&
           ofi_seq_before(((const struct btl_ofi_hdr *)(const void *)ep->kept_head->buf)->seq,
                          ep->peer_took)) {
        struct btl_ofi_tx *tx = ep->kept_head;

        ep->kept_head = tx->kept_next;
        if (ep->kept_head == NULL) {
            ep->kept_tail = NULL;
        }
        tx->sequenced = false;
        tx->next = m->tx_free;
        m->tx_free = tx;
    }
}

void comm_btl_ofi_link_acked(struct btl_ofi_module *m, struct btl_ofi_endpoint *ep, uint32_t ack)
{
    int32_t more = (int32_t)(ack - ep->peer_took);

    if (more <= 0) {
        return;
    }
    ep->peer_took = ack;
    ep->credits += more;
    ep->ack_ns = m->now_ns;
    ep->probe_ns = BTL_OFI_LINK_PROBE_NS;
    btl_ofi_tx_lock(m);
    ofi_link_release(m, ep);
    btl_ofi_tx_unlock(m);
}

bool comm_btl_ofi_link_take(struct btl_ofi_module *m, struct btl_ofi_endpoint *ep, uint32_t seq)
{
    if (seq == ep->rx_next) {
        ep->rx_next++;
        return true;
    }
    m->dups_dropped++;
    comm_btl_ofi_queue_ack(m, ep);
    return false;
}

bool comm_btl_ofi_link_error(int err)
{
    switch (err) {
    case FI_ECONNRESET:
    case FI_ECONNABORTED:
    case FI_ECONNREFUSED:
    case FI_ENOTCONN:
    case FI_ECANCELED:
    case FI_ETIMEDOUT:
    case FI_EHOSTUNREACH:
    case FI_ENETUNREACH:
    case FI_ENETDOWN:
    case FI_EIO:
        return true;
    default:
        return false;
    }
}

/* The messages to EP's peer it has not acknowledged. */
static unsigned ofi_link_unacked(const struct btl_ofi_endpoint *ep)
{
    return (unsigned)(ep->tx_seq - ep->peer_took);
}

void comm_btl_ofi_link_down(struct btl_ofi_module *m, struct btl_ofi_endpoint *ep,
                            const char *cause)
{
    uint64_t now = comm_btl_ofi_now_ns();
    uint64_t wait = BTL_OFI_LINK_RETRY_NS;

    ep->proved = false;
    if (ep->link == BTL_OFI_LINK_UP) {
        ep->down_ns = now;
        ep->resent = 0;
        snprintf(ep->cause, sizeof(ep->cause), "%s", cause);
        m->links_lost++;
        comm_log_warn("btl_ofi",
                      "host %s: link to rank %ld (host %s) lost: %s; connecting again, with %u "
                      "message%s not acknowledged to send again (the job ends if it stays down "
                      "for COMM_LINK_TIMEOUT_MS, %.1f s)",
                      m->host, ep->base.peer, comm_btl_ofi_peer_host(ep), cause,
                      ofi_link_unacked(ep), ofi_link_unacked(ep) == 1 ? "" : "s",
                      (double)m->link_timeout_ns / 1e9);
    } else if (ep->link == BTL_OFI_LINK_RESENDING) {
        /* Failed again: wait longer each time, within a second. */
        uint64_t since = now - ep->down_ns;

        wait = since < BTL_OFI_LINK_RETRY_MOST_NS ? since : BTL_OFI_LINK_RETRY_MOST_NS;
        if (wait < BTL_OFI_LINK_RETRY_NS) {
            wait = BTL_OFI_LINK_RETRY_NS;
        }
    } else {
        return; /* down already: another send the provider held */
    }
    ep->link = BTL_OFI_LINK_DOWN;
    ep->retry_ns = now + wait;
}

void comm_btl_ofi_link_failed(struct btl_ofi_module *m, struct btl_ofi_endpoint *ep,
                              const char *cause)
{
    btl_ofi_tx_lock(m);
    comm_btl_ofi_link_down(m, ep, cause);
    btl_ofi_tx_unlock(m);
}

void comm_btl_ofi_link_sent(struct btl_ofi_module *m, struct btl_ofi_tx *tx, bool ok,
                            const char *cause)
{
    struct btl_ofi_endpoint *ep = tx->ep;

    tx->posted = false;
    ep->kept_posted--;
    m->tx_posted--;
    if (!ok) {
        comm_btl_ofi_link_down(m, ep, cause);
    } else {
        ep->proved = true;
    }
    ofi_link_release(m, ep);
}

/* Sends again, in order, every message EP keeps (none held by the provider), with what we
 * took now; what waited in the backlog goes behind them (credit messages there are dropped:
 * the copies carry the count).  Returns how many were handed on (up to one the provider
 * refused at once); under the send lock. */
static unsigned ofi_link_resend(struct btl_ofi_module *m, struct btl_ofi_endpoint *ep)
{
    unsigned n = 0;

    while (ep->backlog_head != NULL) {
        struct btl_ofi_tx *tx = ep->backlog_head;

        ep->backlog_head = tx->next;
        if (!tx->sequenced) {
            tx->next = m->tx_free;
            m->tx_free = tx;
        }
    }
    ep->backlog_tail = NULL;
    for (struct btl_ofi_tx *tx = ep->kept_head; tx != NULL; tx = tx->kept_next) {
        ((struct btl_ofi_hdr *)(void *)tx->buf)->ack = ep->took;
    }
    ep->owed = 0;
    ep->ack_aged = false;
    for (struct btl_ofi_tx *tx = ep->kept_head; tx != NULL; tx = tx->kept_next) {
        comm_btl_ofi_post_or_queue(m, ep, tx);
        if (ep->link == BTL_OFI_LINK_DOWN) {
            break; /* refused at once: the rest are sent with it, next time */
        }
        n++;
    }
    return n;
}

/* The timers of EP's link at NOW. */
static void ofi_link_check(struct btl_ofi_module *m, struct btl_ofi_endpoint *ep, uint64_t now)
{
    if (ep->owed > 0) {
        if (ep->ack_aged) {
            comm_btl_ofi_queue_ack(m, ep);
        }
        ep->ack_aged = true;
    }
    if (ep->kept_head == NULL && ep->link == BTL_OFI_LINK_UP) {
        return;
    }
    btl_ofi_tx_lock(m);
    switch (ep->link) {
    case BTL_OFI_LINK_UP:
        if (ep->probe_ns == 0) {
            ep->probe_ns = BTL_OFI_LINK_PROBE_NS;
        }
        if (now - ep->ack_ns >= ep->probe_ns && ep->kept_posted == 0 && ep->backlog_head == NULL) {
            /* Kept this long without a word back: sent again (dropped if they came). */
            m->msgs_resent += ofi_link_resend(m, ep);
            ep->ack_ns = now;
            ep->probe_ns = ep->probe_ns * 2 < BTL_OFI_LINK_PROBE_MOST_NS
                               ? ep->probe_ns * 2
                               : BTL_OFI_LINK_PROBE_MOST_NS;
        }
        break;
    case BTL_OFI_LINK_DOWN:
        if (now - ep->down_ns >= m->link_timeout_ns) {
            btl_ofi_tx_unlock(m);
            comm_abort(COMM_BTL_OFI_LINK_LOST_STATUS,
                       "the link from rank %ld (host %s) to rank %ld (host %s) is lost: %s; no "
                       "connection for %.1f s (COMM_LINK_TIMEOUT_MS), %u message(s) to it not "
                       "delivered",
                       m->rank, m->host, ep->base.peer, comm_btl_ofi_peer_host(ep), ep->cause,
                       (double)(now - ep->down_ns) / 1e9, ofi_link_unacked(ep));
        }
        if (now >= ep->retry_ns && ep->kept_posted == 0) {
            unsigned n;

            ep->link = BTL_OFI_LINK_RESENDING;
            n = ofi_link_resend(m, ep);
            ep->resent += n;
            m->msgs_resent += n;
        }
        break;
    case BTL_OFI_LINK_RESENDING:
        /* Up once what was sent again left and something went through since (a send, a
         * read, a message from the peer). */
        if (ep->proved && ep->kept_posted == 0 && ep->backlog_head == NULL) {
            ep->link = BTL_OFI_LINK_UP;
            ep->ack_ns = now;
            comm_log_warn("btl_ofi",
                          "host %s: link to rank %ld (host %s) reconnected after %.1f s (lost: "
                          "%s); %lu message%s sent again",
                          m->host, ep->base.peer, comm_btl_ofi_peer_host(ep),
                          (double)(now - ep->down_ns) / 1e9, ep->cause, ep->resent,
                          ep->resent == 1 ? "" : "s");
        }
        break;
    }
    btl_ofi_tx_unlock(m);
}

void comm_btl_ofi_links_check(struct btl_ofi_module *m)
{
    uint64_t now = m->now_ns;

    m->links_ns = now + BTL_OFI_LINK_TICK_NS;
    for (long r = 0; r < m->size; r++) {
        if (m->eps[r] != NULL) {
            ofi_link_check(m, m->eps[r], now);
        }
    }
}

void comm_btl_ofi_describe(struct comm_btl_endpoint *base, char *out, size_t len)
{
    struct btl_ofi_endpoint *ep = (struct btl_ofi_endpoint *)base;
    struct btl_ofi_module *m = (struct btl_ofi_module *)base->module;
    uint64_t now = comm_btl_ofi_now_ns();
    unsigned kept = ofi_link_unacked(ep);

    if (ep->link != BTL_OFI_LINK_UP) {
        snprintf(out, len,
                 "its network link is down since %.1f s (%s), %u message%s kept to send "
                 "again; the job ends at %.1f s (COMM_LINK_TIMEOUT_MS)",
                 (double)(now - ep->down_ns) / 1e9, ep->cause, kept, kept == 1 ? "" : "s",
                 (double)m->link_timeout_ns / 1e9);
    } else if (kept > 0 && now - ep->ack_ns >= BTL_OFI_LINK_PROBE_NS) {
        snprintf(out, len, "%u message%s to it not acknowledged for %.1f s", kept,
                 kept == 1 ? "" : "s", (double)(now - ep->ack_ns) / 1e9);
    } else if (len > 0) {
        out[0] = '\0';
    }
}
