/*
 * topo_hostlist.c - Slurm's hostlists: "tux[0-3,7],login" to names and back.
 *
 * Layer: topo.  Pure string work: no logging (errors go back in a message).
 *
 * A hostlist is a comma-separated list of items; an item is text with any number of bracket
 * groups, each a comma-separated list of numbers and ranges ("0-3,7").  A range whose first
 * number has leading zeros pads every number to that width ("n[001-128]").  Several groups
 * give every combination, the first group varying slowest ("r[1-2]n[1-2]": r1n1 r1n2 r2n1
 * r2n2).  Names may hold letters, digits, '.', '_' and '-'.
 */
#include "topo/topo.h"

#include "base/error.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { HOSTLIST_MAX_NUMBER = 999999999, HOSTLIST_MAX_NAME = 255 };

static int hostlist_fail(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int hostlist_fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return COMM_ERR_BAD_PARAM;
}

static bool hostlist_is_name_char(char c)
{
    return isalnum((unsigned char)c) || c == '.' || c == '_' || c == '-';
}

static int names_push(struct comm_topo_names *names, char *name)
{
    if (names->n == names->cap) {
        size_t cap = names->cap ? names->cap * 2 : 16;
        char **v = realloc(names->v, cap * sizeof(*v));

        if (v == NULL) {
            free(name);
            return COMM_ERR_NOMEM;
        }
        names->v = v;
        names->cap = cap;
    }
    names->v[names->n++] = name;
    return COMM_OK;
}

void comm_topo_names_free(struct comm_topo_names *names)
{
    for (size_t i = 0; i < names->n; i++) {
        free(names->v[i]);
    }
    free(names->v);
    memset(names, 0, sizeof(*names));
}

/* One number of a bracket group: digits at *p, at most HOSTLIST_MAX_NUMBER. */
static int hostlist_number(const char **p, long *value_out, int *digits_out, const char *item,
                           char *err, size_t errlen)
{
    const char *s = *p;
    long v = 0;
    int digits = 0;

    while (isdigit((unsigned char)*s)) {
        if (v > HOSTLIST_MAX_NUMBER / 10) {
            return hostlist_fail(err, errlen, "hostlist '%s': a number above %d", item,
                                 HOSTLIST_MAX_NUMBER);
        }
        v = v * 10 + (*s - '0');
        digits++;
        s++;
    }
    if (digits == 0) {
        return hostlist_fail(err, errlen, "hostlist '%s': expected a number at '%.10s'", item,
                             s);
    }
    *p = s;
    *value_out = v;
    *digits_out = digits;
    return COMM_OK;
}

/*
 * Expands ITEM from position AT (text before it already in PREFIX) into NAMES.  The group that
 * starts at the first '[' after AT is expanded here, the rest of the item recursively.
 */
static int hostlist_item(const char *item, const char *at, const char *prefix,
                         struct comm_topo_names *names, char *err, size_t errlen)
{
    const char *open = strchr(at, '['), *close, *p;
    size_t plen = strlen(prefix);
    int rc = COMM_OK;

    if (open == NULL) {
        size_t len = plen + strlen(at);
        char *name;

        if (len == 0) {
            return hostlist_fail(err, errlen, "hostlist: an empty name");
        }
        if (len > HOSTLIST_MAX_NAME) {
            return hostlist_fail(err, errlen, "hostlist '%s': a name longer than %d characters",
                                 item, HOSTLIST_MAX_NAME);
        }
        if (names->n >= COMM_TOPO_MAX_NAMES) {
            return hostlist_fail(err, errlen, "hostlist '%s': more than %d names", item,
                                 COMM_TOPO_MAX_NAMES);
        }
        name = malloc(len + 1);
        if (name == NULL) {
            return COMM_ERR_NOMEM;
        }
        memcpy(name, prefix, plen);
        strcpy(name + plen, at);
        return names_push(names, name);
    }
    close = strchr(open, ']');
    if (close == NULL) {
        return hostlist_fail(err, errlen, "hostlist '%s': a '[' without its ']'", item);
    }
    if (memchr(open + 1, '[', (size_t)(close - open - 1)) != NULL) {
        return hostlist_fail(err, errlen, "hostlist '%s': brackets inside brackets", item);
    }
    if (close == open + 1) {
        return hostlist_fail(err, errlen, "hostlist '%s': an empty range '[]'", item);
    }
    {
        size_t fixed = plen + (size_t)(open - at);
        char *next = malloc(fixed + 11);

        if (next == NULL) {
            return COMM_ERR_NOMEM;
        }
        memcpy(next, prefix, plen);
        memcpy(next + plen, at, (size_t)(open - at));
        p = open + 1;
        while (rc == COMM_OK && p < close) {
            long first, last;
            int digits, last_digits, width;

            rc = hostlist_number(&p, &first, &digits, item, err, errlen);
            if (rc != COMM_OK) {
                break;
            }
            last = first;
            width = digits > 1 && p[-digits] == '0' ? digits : 0;
            if (*p == '-') {
                p++;
                rc = hostlist_number(&p, &last, &last_digits, item, err, errlen);
                if (rc != COMM_OK) {
                    break;
                }
                if (last < first) {
                    rc = hostlist_fail(err, errlen, "hostlist '%s': the range %ld-%ld goes down",
                                       item, first, last);
                    break;
                }
            }
            if (*p != ',' && p != close) {
                rc = hostlist_fail(err, errlen, "hostlist '%s': unexpected '%c' in a range",
                                   item, *p);
                break;
            }
            if (*p == ',') {
                p++;
                if (p == close) {
                    rc = hostlist_fail(err, errlen, "hostlist '%s': a range list ends in ','",
                                       item);
                    break;
                }
            }
            if (last - first >= COMM_TOPO_MAX_NAMES) {
                rc = hostlist_fail(err, errlen, "hostlist '%s': more than %d names", item,
                                   COMM_TOPO_MAX_NAMES);
                break;
            }
            for (long v = first; rc == COMM_OK && v <= last; v++) {
                snprintf(next + fixed, 11, "%0*ld", width, v);
                rc = hostlist_item(item, close + 1, next, names, err, errlen);
            }
        }
        free(next);
    }
    return rc;
}

int comm_topo_hostlist(const char *text, struct comm_topo_names *names_out, char *err,
                       size_t errlen)
{
    struct comm_topo_names names = {0};
    size_t len = strlen(text);
    char *copy = malloc(len + 1);
    char *item;
    int depth = 0, rc = COMM_OK;

    if (copy == NULL) {
        return COMM_ERR_NOMEM;
    }
    memcpy(copy, text, len + 1);
    item = copy;
    for (size_t i = 0; rc == COMM_OK && i <= len; i++) {
        char c = copy[i];

        if (c == '[') {
            depth++;
        } else if (c == ']') {
            if (--depth < 0) {
                rc = hostlist_fail(err, errlen, "hostlist '%s': a ']' without its '['", text);
            }
        } else if ((c == ',' && depth == 0) || c == '\0') {
            copy[i] = '\0';
            if (*item == '\0') {
                rc = hostlist_fail(err, errlen, "hostlist '%s': an empty name", text);
                break;
            }
            for (const char *q = item; *q != '\0'; q++) {
                if (!hostlist_is_name_char(*q) && *q != '[' && *q != ']' && *q != ',') {
                    rc = hostlist_fail(err, errlen, "hostlist '%s': '%c' cannot be in a name",
                                       text, *q);
                    break;
                }
            }
            if (rc == COMM_OK) {
                rc = hostlist_item(item, item, "", &names, err, errlen);
            }
            item = copy + i + 1;
        }
    }
    if (rc == COMM_OK && depth != 0) {
        rc = hostlist_fail(err, errlen, "hostlist '%s': a '[' without its ']'", text);
    }
    free(copy);
    if (rc != COMM_OK) {
        comm_topo_names_free(&names);
        return rc;
    }
    *names_out = names;
    return COMM_OK;
}

/* NAME split into text and a numeric suffix of DIGITS digits (0: none). */
static void hostlist_split(const char *name, size_t *stem_out, int *digits_out, long *value_out)
{
    size_t len = strlen(name), stem = len;
    long v = 0, scale = 1;

    while (stem > 0 && isdigit((unsigned char)name[stem - 1]) && len - stem < 9) {
        stem--;
        v += (name[stem] - '0') * scale;
        scale *= 10;
    }
    *stem_out = stem;
    *digits_out = (int)(len - stem);
    *value_out = v;
}

/* Appends TEXT to the growing string *buf (length *len, room *cap); false when out of memory. */
static bool hostlist_append(char **buf, size_t *len, size_t *cap, const char *text, size_t n)
{
    if (*len + n + 1 > *cap) {
        size_t c = (*cap ? *cap : 64);
        char *b;

        while (*len + n + 1 > c) {
            c *= 2;
        }
        b = realloc(*buf, c);
        if (b == NULL) {
            return false;
        }
        *buf = b;
        *cap = c;
    }
    memcpy(*buf + *len, text, n);
    *len += n;
    (*buf)[*len] = '\0';
    return true;
}

char *comm_topo_hostlist_string(char *const *names, size_t n)
{
    char *buf = NULL, num[48];
    size_t len = 0, cap = 0, i = 0;
    bool ok = hostlist_append(&buf, &len, &cap, "", 0);

    while (ok && i < n) {
        size_t stem, j = i + 1;
        int digits;
        long v;

        hostlist_split(names[i], &stem, &digits, &v);
        if (i > 0) {
            ok = hostlist_append(&buf, &len, &cap, ",", 1);
        }
        ok = ok && hostlist_append(&buf, &len, &cap, names[i], stem);
        /* The names that follow with this stem and as many digits: one bracket group (each
         * number printed at that width expands back to itself, padded or not). */
        while (digits > 0 && j < n) {
            size_t s2;
            int d2;
            long v2;

            hostlist_split(names[j], &s2, &d2, &v2);
            if (s2 != stem || d2 != digits || strncmp(names[j], names[i], stem) != 0) {
                break;
            }
            j++;
        }
        if (digits == 0 || j == i + 1) {
            ok = ok && hostlist_append(&buf, &len, &cap, names[i] + stem, strlen(names[i] + stem));
            i++;
            continue;
        }
        ok = ok && hostlist_append(&buf, &len, &cap, "[", 1);
        for (size_t k = i; ok && k < j;) {
            size_t s;
            int d;
            long first, last;
            size_t m = k + 1;

            hostlist_split(names[k], &s, &d, &first);
            last = first;
            while (m < j) {
                long next;

                hostlist_split(names[m], &s, &d, &next);
                if (next != last + 1) {
                    break;
                }
                last = next;
                m++;
            }
            if (k > i) {
                ok = hostlist_append(&buf, &len, &cap, ",", 1);
            }
            if (first == last) {
                snprintf(num, sizeof(num), "%0*ld", digits, first);
            } else {
                snprintf(num, sizeof(num), "%0*ld-%0*ld", digits, first, digits, last);
            }
            ok = ok && hostlist_append(&buf, &len, &cap, num, strlen(num));
            k = m;
        }
        ok = ok && hostlist_append(&buf, &len, &cap, "]", 1);
        i = j;
    }
    if (!ok) {
        free(buf);
        return NULL;
    }
    return buf;
}
