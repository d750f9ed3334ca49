/*
 * topo_file.c - reading a topology file (Slurm's topology.conf, or comm's format) into the
 * model of topo.h.
 *
 * Layer: topo.  Parsing only: the statements are checked, then handed to
 * comm_topo_build (topo.c), which links the tree and checks its shape.  Every fault is an
 * error naming file:line; unknown keys are warned once each.
 */
#include "topo/topo.h"
#include "topo/topo_build.h"

#include "base/error.h"
#include "base/log.h"

#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum { FILE_MAX_BYTES = 64 << 20 };

/* comm's Provider= values: libfabric's providers (and their utility stacks) and comm's shm. */
static const char *const file_providers[] = {
    "shm",           "tcp",         "net",           "verbs", "psm2",    "psm3", "opx",
    "efa",           "cxi",         "usnic",         "ucx",   "sockets", "udp",  "tcp;ofi_rxm",
    "verbs;ofi_rxm", "udp;ofi_rxd", "verbs;ofi_rxd", "sm2",   "lnx",
};

static bool file_provider_is_known(const char *name)
{
    for (size_t i = 0; i < sizeof(file_providers) / sizeof(file_providers[0]); i++) {
        if (strcmp(name, file_providers[i]) == 0) {
            return true;
        }
    }
    return false;
}

/* Keys warned about already (each once per parse). */
struct file_warned {
    char keys[16][32];
    int n;
};

static void file_warn_unknown(struct file_warned *w, const char *path, int line, const char *key)
{
    for (int i = 0; i < w->n; i++) {
        if (strcasecmp(w->keys[i], key) == 0) {
            return;
        }
    }
    if (w->n < 16) {
        snprintf(w->keys[w->n++], sizeof(w->keys[0]), "%s", key);
    }
    comm_log_warn("topo", "%s:%d: unknown key '%s' ignored", path, line, key);
}

/* A long from VALUE (a whole decimal number >= 0). */
static bool file_number(const char *value, long *out)
{
    char *end;
    long v;

    if (!isdigit((unsigned char)value[0])) {
        return false;
    }
    errno = 0;
    v = strtol(value, &end, 10);
    if (errno != 0 || *end != '\0') {
        return false;
    }
    *out = v;
    return true;
}

/* Copies VALUE into *slot, refusing a key given twice on one line. */
static int file_set(char **slot, const char *key, const char *value, const char *path, int line,
                    char *err, size_t errlen)
{
    if (*slot != NULL) {
        return comm_topo_fail(err, errlen, path, line, "%s= given twice", key);
    }
    if (*value == '\0') {
        return comm_topo_fail(err, errlen, path, line, "%s= has no value", key);
    }
    *slot = strdup(value);
    return *slot ? COMM_OK : COMM_ERR_NOMEM;
}

static void statement_clear(struct comm_topo_statement *st)
{
    free(st->name);
    free(st->nodes);
    free(st->switches);
    free(st->level);
    free(st->provider);
    free(st->nics);
    free(st->link_speed);
    memset(st, 0, sizeof(*st));
}

void comm_topo_statements_free(struct comm_topo_statements *sts)
{
    for (size_t i = 0; i < sts->n; i++) {
        statement_clear(&sts->v[i]);
    }
    free(sts->v);
    memset(sts, 0, sizeof(*sts));
}

/* Parses the statement in TEXT (comments and continuations already gone) at LINE. */
static int file_statement(char *text, int line, const char *path, struct file_warned *warned,
                          struct comm_topo_statements *sts, char *err, size_t errlen)
{
    struct comm_topo_statement st = {.line = line};
    char *save = NULL, *tok;
    int rc = COMM_OK;
    bool first = true, known_kind = true;

    for (tok = strtok_r(text, " \t\r\f\v", &save); rc == COMM_OK && tok != NULL;
         tok = strtok_r(NULL, " \t\r\f\v", &save)) {
        char *eq = strchr(tok, '=');
        const char *key = tok, *value;

        if (eq == NULL) {
            rc = comm_topo_fail(err, errlen, path, line, "'%s' is not KEY=VALUE", tok);
            break;
        }
        *eq = '\0';
        value = eq + 1;
        if (first) {
            first = false;
            if (strcasecmp(key, "SwitchName") == 0) {
                st.kind = COMM_TOPO_STATEMENT_SWITCH;
            } else if (strcasecmp(key, "NodeName") == 0) {
                st.kind = COMM_TOPO_STATEMENT_NODE;
            } else {
                /* A statement comm does not know (Slurm's BlockName=, ...): warned, skipped. */
                file_warn_unknown(warned, path, line, key);
                known_kind = false;
                break;
            }
            rc = file_set(&st.name, key, value, path, line, err, errlen);
        } else if (strcasecmp(key, "Nodes") == 0 && st.kind == COMM_TOPO_STATEMENT_SWITCH) {
            rc = file_set(&st.nodes, key, value, path, line, err, errlen);
        } else if (strcasecmp(key, "Switches") == 0 && st.kind == COMM_TOPO_STATEMENT_SWITCH) {
            rc = file_set(&st.switches, key, value, path, line, err, errlen);
        } else if (strcasecmp(key, "LinkSpeed") == 0 && st.kind == COMM_TOPO_STATEMENT_SWITCH) {
            long v;

            rc = file_set(&st.link_speed, key, value, path, line, err, errlen);
            if (rc == COMM_OK && !file_number(value, &v)) {
                rc = comm_topo_fail(err, errlen, path, line,
                                    "LinkSpeed=%s is not a whole number of 0 or more", value);
            }
        } else if (strcasecmp(key, "Level") == 0 && st.kind == COMM_TOPO_STATEMENT_SWITCH) {
            rc = file_set(&st.level, key, value, path, line, err, errlen);
            for (const char *q = value; rc == COMM_OK && *q != '\0'; q++) {
                if (!isalnum((unsigned char)*q) && *q != '_' && *q != '-') {
                    rc = comm_topo_fail(err, errlen, path, line,
                                        "Level=%s: a level name holds letters, digits, '_' and '-'",
                                        value);
                }
            }
        } else if (strcasecmp(key, "Provider") == 0 && st.kind == COMM_TOPO_STATEMENT_SWITCH) {
            rc = file_set(&st.provider, key, value, path, line, err, errlen);
            if (rc == COMM_OK && !file_provider_is_known(value)) {
                char known[256];
                size_t n = 0;

                /* The message lists the table itself, so the two never disagree. */
                for (size_t i = 0;
                     i < sizeof(file_providers) / sizeof(file_providers[0]) && n < sizeof(known);
                     i++) {
                    n += (size_t)snprintf(known + n, sizeof(known) - n, "%s%s", i ? ", " : "",
                                          file_providers[i]);
                }
                rc = comm_topo_fail(err, errlen, path, line,
                                    "Provider=%s is not a known provider (%s)", value, known);
            }
        } else if (strcasecmp(key, "Nics") == 0) {
            struct comm_topo_names nics;

            rc = file_set(&st.nics, key, value, path, line, err, errlen);
            if (rc == COMM_OK) {
                char herr[COMM_TOPO_ERROR_LEN];

                rc = comm_topo_hostlist(value, &nics, herr, sizeof(herr));
                if (rc == COMM_ERR_BAD_PARAM) {
                    rc = comm_topo_fail(err, errlen, path, line, "Nics=: %s", herr);
                } else if (rc == COMM_OK) {
                    comm_topo_names_free(&nics);
                }
            }
        } else {
            file_warn_unknown(warned, path, line, key);
        }
    }
    if (rc == COMM_OK && known_kind && !first) {
        if (st.kind == COMM_TOPO_STATEMENT_SWITCH && st.nodes != NULL && st.switches != NULL) {
            rc =
                comm_topo_fail(err, errlen, path, line,
                               "switch '%s' has both Nodes= and Switches= (a switch holds hosts or "
                               "switches)",
                               st.name);
        } else if (st.kind == COMM_TOPO_STATEMENT_NODE && st.nics == NULL) {
            rc = comm_topo_fail(err, errlen, path, line, "NodeName=%s says nothing (give Nics=)",
                                st.name);
        }
    }
    if (rc == COMM_OK && known_kind && !first) {
        if (sts->n == sts->cap) {
            size_t cap = sts->cap ? sts->cap * 2 : 16;
            struct comm_topo_statement *v = realloc(sts->v, cap * sizeof(*v));

            if (v == NULL) {
                rc = COMM_ERR_NOMEM;
            } else {
                sts->v = v;
                sts->cap = cap;
            }
        }
        if (rc == COMM_OK) {
            sts->v[sts->n++] = st;
            return COMM_OK;
        }
    }
    statement_clear(&st);
    return rc;
}

int comm_topo_parse(const char *path, const char *text, struct comm_topo **topo_out, char *err,
                    size_t errlen)
{
    struct comm_topo_statements sts = {0};
    struct file_warned warned = {.n = 0};
    size_t len = strlen(text);
    char *buf = malloc(len + 1), *p;
    int line = 1, rc = COMM_OK;

    if (buf == NULL) {
        return COMM_ERR_NOMEM;
    }
    p = buf;
    /* One statement at a time: a line without its comment, joined to the next by a '\'. */
    for (size_t i = 0; rc == COMM_OK && i < len;) {
        size_t n = 0;
        int first_line = line;
        bool comment = false;

        while (i < len) {
            char c = text[i++];

            if (c == '\n') {
                line++;
                while (n > 0 && p[n - 1] == ' ') {
                    n--;
                }
                if (!comment && n > 0 && p[n - 1] == '\\') {
                    p[n - 1] = ' ';
                    continue;
                }
                break;
            }
            if (c == '#') {
                comment = true;
            }
            if (!comment) {
                p[n++] = c == '\t' || c == '\r' ? ' ' : c;
            }
        }
        p[n] = '\0';
        for (size_t k = 0; k < n; k++) {
            if (!isprint((unsigned char)p[k])) {
                rc = comm_topo_fail(err, errlen, path, first_line,
                                    "a character that is not text (byte 0x%02x)",
                                    (unsigned char)p[k]);
                break;
            }
        }
        if (rc == COMM_OK && strspn(p, " ") < n) {
            rc = file_statement(p, first_line, path, &warned, &sts, err, errlen);
        }
    }
    free(buf);
    if (rc == COMM_OK) {
        rc = comm_topo_build(path, &sts, topo_out, err, errlen);
    }
    comm_topo_statements_free(&sts);
    return rc;
}

int comm_topo_load(const char *path, struct comm_topo **topo_out, char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    char *text;
    size_t n;
    bool failed;
    int rc;

    if (f == NULL) {
        snprintf(err, errlen, "%s: cannot read it: %s", path, strerror(errno));
        return COMM_ERR_NOT_FOUND;
    }
    text = malloc(FILE_MAX_BYTES + 1);
    if (text == NULL) {
        fclose(f);
        return COMM_ERR_NOMEM;
    }
    n = fread(text, 1, FILE_MAX_BYTES + 1, f);
    failed = ferror(f) != 0;
    fclose(f);
    if (failed || n > FILE_MAX_BYTES) {
        snprintf(err, errlen, "%s: %s", path,
                 failed ? "cannot read it" : "larger than 64 MiB: not a topology file");
        free(text);
        return failed ? COMM_ERR_NOT_FOUND : COMM_ERR_BAD_PARAM;
    }
    text[n] = '\0';
    if (memchr(text, '\0', n) != NULL) {
        snprintf(err, errlen, "%s: holds a NUL byte: not a topology file", path);
        free(text);
        return COMM_ERR_BAD_PARAM;
    }
    rc = comm_topo_parse(path, text, topo_out, err, errlen);
    free(text);
    return rc;
}
