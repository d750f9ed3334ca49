/*
 * btl_ofi_send.c - sending fragments and credits.
 *
 * Layer: btl/ofi.  Hot path: no allocation.  Must not: post a fragment without a credit (the
 * receiver would have no buffer for it), or let a fragment overtake an earlier one to the same
 * peer (a send the provider refused for now waits in the peer's backlog, and so does every
 * fragment after it).
 */
#include "config.h"

#include "btl/ofi/btl_ofi_module.h"
#include "base/error.h"
#include "base/log.h"

#include <stdio.h>
#include <string.h>

/* Hands TX to the provider: COMM_OK, COMM_AGAIN (not taken: try again later) or a status. */
static int ofi_post_tx(struct btl_ofi_module *m, struct btl_ofi_tx *tx)
{
    ssize_t ret;

    /* Fragments are sent with a completion, so flush knows when they have left; only credit
     * messages, which no one waits for, are injected. */
    if (tx->len <= m->inject_size &&
        ((struct btl_ofi_hdr *)(void *)tx->buf)->kind == BTL_OFI_CREDIT) {
        ret = fi_inject(m->rails[tx->ep->home].ep, tx->buf, tx->len, tx->ep->addr);
        if (ret == 0) {
            tx->next = m->tx_free;
            m->tx_free = tx;
            return COMM_OK;
        }
    } else {
        ret = fi_send(m->rails[tx->ep->home].ep, tx->buf, tx->len, m->rails[tx->ep->home].tx_desc,
                      tx->ep->addr, &tx->op.ctx);
        if (ret == 0) {
            m->tx_posted++;
            if (tx->sequenced) {
                tx->posted = true;
                tx->ep->kept_posted++;
            }
            return COMM_OK;
        }
    }
    if (ret == -FI_EAGAIN) {
        return COMM_AGAIN;
    }
    if (tx->sequenced) {
        char cause[128];

        /* Kept: sent again once the link is tried again (btl_ofi_link.c). */
        snprintf(cause, sizeof(cause), "a send was refused: %s",
                 comm_btl_ofi_fi_strerror((int)-ret));
        comm_btl_ofi_link_down(m, tx->ep, cause);
        return COMM_ERR_SYSTEM;
    }
    /* Credits only: the peer sends its kept messages again when it hears nothing, and the
     * copies that come twice make us say again what we took. */
    tx->next = m->tx_free;
    m->tx_free = tx;
    return COMM_ERR_SYSTEM;
}

static void ofi_backlog_add(struct btl_ofi_module *m, struct btl_ofi_endpoint *ep,
                            struct btl_ofi_tx *tx)
{
    tx->next = NULL;
    if (ep->backlog_tail != NULL) {
        ep->backlog_tail->next = tx;
    } else {
        ep->backlog_head = tx;
    }
    ep->backlog_tail = tx;
    if (!ep->in_backlog_list) {
        ep->in_backlog_list = true;
        ep->backlog_next = m->backlog_list;
        m->backlog_list = ep;
    }
}

/* A free send buffer, or NULL; under the send lock. */
static struct btl_ofi_tx *ofi_pop_tx(struct btl_ofi_module *m)
{
    struct btl_ofi_tx *tx = m->tx_free;

    if (tx != NULL) {
        m->tx_free = tx->next;
    }
    return tx;
}

/* A free send buffer, after reaping completions if there is none; NULL when all are busy. */
static struct btl_ofi_tx *ofi_take_tx(struct btl_ofi_module *m)
{
    struct btl_ofi_tx *tx;

    btl_ofi_tx_lock(m);
    tx = ofi_pop_tx(m);
    btl_ofi_tx_unlock(m);
    if (tx == NULL && comm_btl_ofi_poll(m) > 0) {
        btl_ofi_tx_lock(m);
        tx = ofi_pop_tx(m);
        btl_ofi_tx_unlock(m);
    }
    return tx;
}

void comm_btl_ofi_post_or_queue(struct btl_ofi_module *m, struct btl_ofi_endpoint *ep,
                                struct btl_ofi_tx *tx)
{
    if (ep->backlog_head != NULL || ep->link == BTL_OFI_LINK_DOWN ||
        ofi_post_tx(m, tx) == COMM_AGAIN) {
        ofi_backlog_add(m, ep, tx);
    }
}

/* Sends TX (LEN bytes, our header included) to its peer as a message of KIND, numbered and
 * kept until acknowledged, spending a credit and giving back what we owe; behind the peer's
 * backlog if it has one. */
static void ofi_seal_and_post(struct btl_ofi_module *m, struct btl_ofi_endpoint *ep,
                              struct btl_ofi_tx *tx, uint8_t kind, size_t len)
{
    struct btl_ofi_hdr *h = (struct btl_ofi_hdr *)(void *)tx->buf;

    h->src = (uint32_t)m->rank;
    h->kind = kind;
    memset(h->pad, 0, sizeof(h->pad));
    h->seq = ep->tx_seq++;
    h->ack = ep->took;
    ep->owed = 0;
    ep->ack_aged = false;
    ep->credits--;
    tx->ep = ep;
    tx->len = len;
    tx->sequenced = true;
    tx->posted = false;
    tx->kept_next = NULL;
    btl_ofi_tx_lock(m);
    if (ep->kept_tail != NULL) {
        ep->kept_tail->kept_next = tx;
    } else {
        ep->kept_head = tx;
        ep->ack_ns = m->now_ns; /* the wait for an acknowledgement starts */
    }
    ep->kept_tail = tx;
    comm_btl_ofi_post_or_queue(m, ep, tx);
    btl_ofi_tx_unlock(m);
}

/* Sends EP's open pack (a credit must be left). */
static void ofi_post_pack(struct btl_ofi_module *m, struct btl_ofi_endpoint *ep)
{
    struct btl_ofi_tx *tx = ep->packing;

    ep->packing = NULL;
    m->packs_sent++;
    ofi_seal_and_post(m, ep, tx, BTL_OFI_PACKED, ep->packed);
}

/* The room for one more fragment in EP's open pack. */
static size_t ofi_pack_room(const struct btl_ofi_module *m, const struct btl_ofi_endpoint *ep)
{
    size_t used = ep->packed + sizeof(struct btl_ofi_record);

    return used < m->frag_size ? m->frag_size - used : 0;
}

int comm_btl_ofi_reserve(struct comm_btl_endpoint *base, size_t len, void **slot_out)
{
    struct btl_ofi_endpoint *ep = (struct btl_ofi_endpoint *)base;
    struct btl_ofi_module *m = (struct btl_ofi_module *)base->module;
    struct btl_ofi_tx *tx;
    /* A pack holds a fragment of at most the fragment size less a record's header. */
    bool packable = len + sizeof(struct btl_ofi_record) <= m->base.max_fragment;

    if (len > m->base.max_fragment) {
        return COMM_ERR_BAD_PARAM;
    }
    if (ep->packing != NULL) {
        /* Join the open pack, or send it first (order). */
        if (packable && ofi_pack_room(m, ep) >= len) {
            ep->reserved_packed = true;
            *slot_out = ep->packing->buf + ep->packed + sizeof(struct btl_ofi_record);
            return COMM_OK;
        }
        if (ep->credits <= 0) {
            return COMM_AGAIN;
        }
        ofi_post_pack(m, ep);
    }
    if (ep->credits <= 0 && !packable) {
        return COMM_AGAIN;
    }
    tx = ofi_take_tx(m);
    if (tx == NULL) {
        return COMM_AGAIN;
    }
    if (ep->credits <= 0) {
        /* No credit: open a pack that leaves with the first credit back. */
        ep->packing = tx;
        ep->packed = sizeof(struct btl_ofi_hdr);
        if (!ep->in_packing_list) {
            ep->in_packing_list = true;
            ep->packing_next = m->packing_list;
            m->packing_list = ep;
        }
        ep->reserved_packed = true;
        *slot_out = tx->buf + ep->packed + sizeof(struct btl_ofi_record);
        return COMM_OK;
    }
    tx->ep = ep;
    ep->reserved = tx;
    *slot_out = tx->buf + sizeof(struct btl_ofi_hdr);
    return COMM_OK;
}

int comm_btl_ofi_commit(struct comm_btl_endpoint *base, void *slot, size_t len)
{
    struct btl_ofi_endpoint *ep = (struct btl_ofi_endpoint *)base;
    struct btl_ofi_module *m = (struct btl_ofi_module *)base->module;
    struct btl_ofi_tx *tx = ep->reserved;

    (void)slot;
    if (ep->reserved_packed) {
        struct btl_ofi_record *rec =
            (struct btl_ofi_record *)(void *)(ep->packing->buf + ep->packed);

        ep->reserved_packed = false;
        rec->len = (uint32_t)len;
        rec->pad = 0;
        ep->packed += btl_ofi_record_span(len);
        m->packed_frags++;
        if (ep->credits > 0) {
            ofi_post_pack(m, ep);
        }
        return COMM_OK;
    }
    ep->reserved = NULL;
    ofi_seal_and_post(m, ep, tx, BTL_OFI_FRAG, len + sizeof(struct btl_ofi_hdr));
    return COMM_OK;
}

int comm_btl_ofi_send(struct comm_btl_endpoint *base, const void *hdr, size_t hdr_len,
                      const void *data, size_t data_len)
{
    void *slot;
    int rc = comm_btl_ofi_reserve(base, hdr_len + data_len, &slot);

    if (rc != COMM_OK) {
        return rc;
    }
    memcpy(slot, hdr, hdr_len);
    if (data_len > 0) {
        memcpy((char *)slot + hdr_len, data, data_len);
    }
    return comm_btl_ofi_commit(base, slot, hdr_len + data_len);
}

void comm_btl_ofi_owe_credit(struct btl_ofi_module *m, struct btl_ofi_endpoint *ep)
{
    ep->took++;
    ep->owed++;
    if (ep->owed >= m->credits_per_peer / 2 && !ep->credit_queued) {
        ep->credit_queued = true;
        ep->credit_next = m->credit_list;
        m->credit_list = ep;
    }
}

void comm_btl_ofi_queue_ack(struct btl_ofi_module *m, struct btl_ofi_endpoint *ep)
{
    ep->ack_now = true;
    if (!ep->credit_queued) {
        ep->credit_queued = true;
        ep->credit_next = m->credit_list;
        m->credit_list = ep;
    }
}

/* Gives EP its owed credits in a message of their own; false when that must wait.  Never
 * fewer than half the credits, unless the peer waits for the acknowledgement (ACK_NOW: credits
 * owed for a while, or a message of its that came twice): the peer keeps spares for no more
 * of these than that allows (comm_btl_ofi_spares), and one more waits in its provider. */
static bool ofi_send_credits(struct btl_ofi_module *m, struct btl_ofi_endpoint *ep)
{
    struct btl_ofi_hdr h = {.src = (uint32_t)m->rank, .kind = BTL_OFI_CREDIT};
    struct btl_ofi_tx *tx;

    if (ep->owed < m->credits_per_peer / 2 && !ep->ack_now) {
        return true; /* fragments carried them meanwhile */
    }
    h.ack = ep->took;
    btl_ofi_tx_lock(m);
    tx = ofi_pop_tx(m);
    if (tx == NULL) {
        btl_ofi_tx_unlock(m);
        return false;
    }
    memcpy(tx->buf, &h, sizeof(h));
    tx->len = sizeof(h);
    tx->ep = ep;
    tx->sequenced = false;
    tx->posted = false;
    ep->owed = 0;
    ep->ack_aged = false;
    ep->ack_now = false;
    /* Behind the backlog, so a provider that refused its fragments is not pushed harder. */
    comm_btl_ofi_post_or_queue(m, ep, tx);
    btl_ofi_tx_unlock(m);
    m->credit_msgs++;
    return true;
}

void comm_btl_ofi_push_backlog(struct btl_ofi_module *m)
{
    struct btl_ofi_endpoint **link;

    btl_ofi_tx_lock(m);
    link = &m->backlog_list;
    while (*link != NULL) {
        struct btl_ofi_endpoint *ep = *link;
        int rc = COMM_OK;

        /* A link that is down waits for its timer (btl_ofi_link.c). */
        while (ep->backlog_head != NULL && ep->link != BTL_OFI_LINK_DOWN) {
            struct btl_ofi_tx *tx = ep->backlog_head;
            struct btl_ofi_tx *next = tx->next; /* posting may put tx on the free list */

            rc = ofi_post_tx(m, tx);
            if (rc == COMM_AGAIN) {
                break;
            }
            ep->backlog_head = next;
            if (ep->backlog_head == NULL) {
                ep->backlog_tail = NULL;
            }
        }
        if (ep->backlog_head == NULL) {
            ep->in_backlog_list = false;
            *link = ep->backlog_next;
        } else {
            link = &ep->backlog_next;
        }
    }
    btl_ofi_tx_unlock(m);
}

void comm_btl_ofi_push(struct btl_ofi_module *m, bool now)
{
    struct btl_ofi_endpoint **link;

    comm_btl_ofi_push_backlog(m);
    /* Packs whose peer gave credits back leave now. */
    link = &m->packing_list;
    while (*link != NULL) {
        struct btl_ofi_endpoint *ep = *link;

        if (ep->packing != NULL && !ep->reserved_packed && ep->credits > 0) {
            ofi_post_pack(m, ep);
        }
        if (ep->packing == NULL) {
            ep->in_packing_list = false;
            *link = ep->packing_next;
        } else {
            link = &ep->packing_next;
        }
    }
    link = &m->credit_list;
    while (*link != NULL) {
        struct btl_ofi_endpoint *ep = *link;

        /* Credits owed since this progress call wait for the next: the runtime may answer
         * the peer meanwhile, and its fragment carries them (a ping-pong with 2 credits took
         * 9.8 us one way with a credit message per message, 4.2 without).  So do credits
         * owed while a read from the peer is under way: its end sends a fragment (a 1 MiB
         * ping-pong on loopback took 169 us one way with a credit message during each read,
         * 151 with 8 credits and none).  Not when the peer has none left: its requests to
         * read large messages would wait (a stream of 1 MiB ones on loopback moved 5.0 GB/s
         * against 8.0 sent at once). */
        if (!now && !ep->ack_now && ep->owed < m->credits_per_peer &&
            (!ep->credit_aged || ep->gets_now > 0)) {
            ep->credit_aged = true;
            link = &ep->credit_next;
        } else if (ofi_send_credits(m, ep)) {
            ep->credit_queued = false;
            ep->credit_aged = false;
            *link = ep->credit_next;
        } else {
            link = &ep->credit_next;
        }
    }
}

int comm_btl_ofi_flush(struct comm_btl_module *module)
{
    struct btl_ofi_module *m = (struct btl_ofi_module *)module;
    bool idle;

    comm_btl_ofi_push(m, true);
    if (comm_btl_ofi_poll(m) < 0) {
        return COMM_OK; /* logged; waiting longer would not help */
    }
    btl_ofi_tx_lock(m);
    idle = m->backlog_list == NULL && m->tx_posted == 0;
    btl_ofi_tx_unlock(m);
    return idle && m->packing_list == NULL && m->credit_list == NULL ? COMM_OK : COMM_AGAIN;
}
