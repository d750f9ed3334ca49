/*
 * btl_template.c - a skeleton transport: it opens, reaches no peer and moves nothing.
 *
 * Layer: btl.  Copy this folder to start a btl: rename the files, the table and the symbols
 * (comm_btl_<name>_*), fill the operations one by one (pointing the ones you do not provide at
 * btl_stubs.c), add the table to the registry in btl/btl.c and its test to
 * test/unit/btl_test.c.  It is not in the registry, so no job ever uses it.
 */
#include "config.h"

#include "btl/btl.h"
#include "btl/btl_stubs.h"
#include "base/error.h"

#include <stdlib.h>

struct btl_template_module {
    struct comm_btl_module base; /* first: the runtime sees only this */
};

extern const struct comm_btl_ops comm_btl_template;

static int btl_template_open(const struct comm_btl_self_info *self, comm_btl_recv_fn recv,
                             struct comm_btl_module **module_out)
{
    struct btl_template_module *m = calloc(1, sizeof(*m));

    (void)self;
    (void)recv;
    if (m == NULL) {
        return COMM_ERR_NOMEM;
    }
    m->base.ops = &comm_btl_template;
    m->base.max_fragment = 0;
    m->base.eager_limit = 0;
    *module_out = &m->base;
    return COMM_OK;
}

static bool btl_template_reaches(struct comm_btl_module *module, const struct comm_btl_peer *peer)
{
    (void)module;
    (void)peer;
    return false;
}

static int btl_template_connect(struct comm_btl_module *module, const struct comm_btl_peer *peer,
                                struct comm_btl_endpoint **endpoint_out)
{
    (void)module;
    (void)peer;
    (void)endpoint_out;
    return COMM_ERR_UNREACHABLE;
}

static int btl_template_progress(struct comm_btl_module *module)
{
    (void)module;
    return 0;
}

static void btl_template_wired(struct comm_btl_module *module)
{
    (void)module;
}

static void btl_template_close(struct comm_btl_module *module)
{
    free(module);
}

const struct comm_btl_ops comm_btl_template = {
    .size = sizeof(struct comm_btl_ops),
    .name = "template",
    .exclusivity = 0,
    .open = btl_template_open,
    .reaches = btl_template_reaches,
    .connect = btl_template_connect,
    .reserve = comm_btl_stub_reserve,
    .commit = comm_btl_stub_commit,
    .send = comm_btl_stub_send,
    .get = comm_btl_stub_get,
    .register_mem = comm_btl_stub_register,
    .deregister_mem = comm_btl_stub_deregister,
    .progress = btl_template_progress,
    .close = btl_template_close,
    .wired = btl_template_wired,
    .flush = comm_btl_stub_flush,
    .put = comm_btl_stub_put,
    .get_start = comm_btl_stub_get_start,
    .put_start = comm_btl_stub_put_start,
    .write_start = comm_btl_stub_write_start,
    .describe = comm_btl_stub_describe,
};
