/*
 * comm_run_wire.c - the messages between comm-run and its agents: framing on a libevent
 * bufferevent, and packing of numbers and strings.
 *
 * Layer: launcher.
 *
 * A message is a header of two 32-bit numbers in network order, its type and the length of its
 * body, then the body: 64-bit numbers in network order and strings as a 32-bit length and the
 * bytes.  A malformed message ends the connection (the reader says so).
 */
#include "config.h"

#include "launcher/comm_run_wire.h"
#include "base/error.h"

#include <event2/buffer.h>
#include <event2/bufferevent.h>

#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>

void comm_run_wire_init(struct comm_run_wire *w)
{
    memset(w, 0, sizeof(*w));
}

static int wire_reserve(struct comm_run_wire *w, size_t more)
{
    if (w->failed) {
        return COMM_ERR_NOMEM;
    }
    if (w->len + more > w->cap) {
        size_t cap = w->cap ? w->cap : 256;
        char *grown;

        while (cap < w->len + more) {
            cap *= 2;
        }
        grown = realloc(w->buf, cap);
        if (grown == NULL) {
            w->failed = true;
            return COMM_ERR_NOMEM;
        }
        w->buf = grown;
        w->cap = cap;
    }
    return COMM_OK;
}

void comm_run_wire_u64(struct comm_run_wire *w, uint64_t v)
{
    unsigned char b[8];

    for (int i = 0; i < 8; i++) {
        b[i] = (unsigned char)(v >> (56 - 8 * i));
    }
    if (wire_reserve(w, 8) == COMM_OK) {
        memcpy(w->buf + w->len, b, 8);
        w->len += 8;
    }
}

void comm_run_wire_bytes(struct comm_run_wire *w, const void *data, size_t len)
{
    uint32_t n = htonl((uint32_t)len);

    if (wire_reserve(w, 4 + len) == COMM_OK) {
        memcpy(w->buf + w->len, &n, 4);
        if (len > 0) {
            memcpy(w->buf + w->len + 4, data, len);
        }
        w->len += 4 + len;
    }
}

void comm_run_wire_str(struct comm_run_wire *w, const char *s)
{
    comm_run_wire_bytes(w, s, strlen(s));
}

int comm_run_wire_send(struct bufferevent *bev, uint32_t type, struct comm_run_wire *w)
{
    uint32_t head[2] = {htonl(type), htonl((uint32_t)(w ? w->len : 0))};
    int rc = COMM_OK;

    if (w != NULL && w->failed) {
        rc = COMM_ERR_NOMEM;
    } else if (bufferevent_write(bev, head, sizeof(head)) != 0 ||
               (w != NULL && w->len > 0 && bufferevent_write(bev, w->buf, w->len) != 0)) {
        rc = COMM_ERR_NOMEM;
    }
    if (w != NULL) {
        free(w->buf);
        comm_run_wire_init(w);
    }
    return rc;
}

int comm_run_wire_next(struct bufferevent *bev, uint32_t *type_out, struct comm_run_reader *r)
{
    struct evbuffer *in = bufferevent_get_input(bev);
    uint32_t head[2];
    size_t len;

    if (evbuffer_get_length(in) < sizeof(head)) {
        return 0;
    }
    evbuffer_copyout(in, head, sizeof(head));
    len = ntohl(head[1]);
    if (len > COMM_RUN_WIRE_MAX) {
        return COMM_ERR_BAD_PARAM;
    }
    if (evbuffer_get_length(in) < sizeof(head) + len) {
        return 0;
    }
    evbuffer_drain(in, sizeof(head));
    r->data = malloc(len > 0 ? len : 1);
    if (r->data == NULL) {
        return COMM_ERR_NOMEM;
    }
    evbuffer_remove(in, r->data, len);
    r->len = len;
    r->pos = 0;
    r->bad = false;
    *type_out = ntohl(head[0]);
    return 1;
}

uint64_t comm_run_read_u64(struct comm_run_reader *r)
{
    uint64_t v = 0;

    if (r->bad || r->len - r->pos < 8) {
        r->bad = true;
        return 0;
    }
    for (int i = 0; i < 8; i++) {
        v = (v << 8) | (unsigned char)r->data[r->pos + (size_t)i];
    }
    r->pos += 8;
    return v;
}

const char *comm_run_read_bytes(struct comm_run_reader *r, size_t *len_out)
{
    uint32_t n;
    const char *p;

    if (r->bad || r->len - r->pos < 4) {
        r->bad = true;
        return NULL;
    }
    memcpy(&n, r->data + r->pos, 4);
    n = ntohl(n);
    if (r->len - r->pos - 4 < n) {
        r->bad = true;
        return NULL;
    }
    p = r->data + r->pos + 4;
    r->pos += 4 + n;
    *len_out = n;
    return p;
}

char *comm_run_read_str(struct comm_run_reader *r)
{
    size_t n;
    const char *p = comm_run_read_bytes(r, &n);
    char *s;

    if (p == NULL) {
        return NULL;
    }
    s = malloc(n + 1);
    if (s == NULL) {
        r->bad = true;
        return NULL;
    }
    memcpy(s, p, n);
    s[n] = '\0';
    return s;
}

void comm_run_reader_free(struct comm_run_reader *r)
{
    free(r->data);
    r->data = NULL;
}
