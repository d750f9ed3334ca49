/*
 * btl_ofi_test.c - the pure parts of the libfabric transport: COMM_BACKEND names to provider
 * strings, device lists (COMM_DEVICE_ALLOWLIST, COMM_NET_INTERFACES) and which devices they
 * allow, the registration cache (hits, least-recently-used eviction, entries in use kept), the
 * sizing of the receive buffers to COMM_OFI_RECV_MEMORY, and how large messages are read
 * (in pieces or whole, by what each way delivered), and which key and address each rail
 * names a peer's registration with.
 */
#include "config.h"

#include "btl/ofi/btl_ofi.h"
#include "btl/ofi/btl_ofi_mr_cache.h"
#include "btl/ofi/btl_ofi_module.h"
#include "btl/ofi/btl_ofi_tune.h"
#include "base/error.h"
#include "test/unit/unit.h"

#include <stdlib.h>
#include <string.h>

START_TEST(backend_auto_tries_rdma_before_tcp)
{
    const char *c[COMM_BTL_OFI_MAX_CANDIDATES];

    ck_assert_uint_eq(comm_btl_ofi_backend_candidates("auto", c), 4);
    ck_assert_str_eq(c[0], "verbs;ofi_rxm");
    ck_assert_str_eq(c[1], "net");
    ck_assert_str_eq(c[2], "tcp;ofi_rxm");
    ck_assert_str_eq(c[3], "tcp");
}
END_TEST

START_TEST(backend_friendly_names_map_to_providers)
{
    const char *c[COMM_BTL_OFI_MAX_CANDIDATES];

    ck_assert_uint_eq(comm_btl_ofi_backend_candidates("verbs", c), 1);
    ck_assert_str_eq(c[0], "verbs;ofi_rxm");
    ck_assert_uint_eq(comm_btl_ofi_backend_candidates("rdma", c), 1);
    ck_assert_str_eq(c[0], "verbs;ofi_rxm");
    ck_assert_uint_eq(comm_btl_ofi_backend_candidates("tcp", c), 2);
    ck_assert_str_eq(c[0], "net");
    ck_assert_str_eq(c[1], "tcp;ofi_rxm");
    ck_assert_uint_eq(comm_btl_ofi_backend_candidates("udp;ofi_rxd", c), 1);
    ck_assert_str_eq(c[0], "udp;ofi_rxd");
}
END_TEST

START_TEST(backend_setting_refuses_empty_and_lists)
{
    const struct comm_setting *s = &comm_btl_ofi_settings.settings[0];
    char msg[256];

    ck_assert_str_eq(s->name, "COMM_BACKEND");
    ck_assert_int_eq(comm_config_check(s, "tcp;ofi_rxm", msg, sizeof(msg)), COMM_OK);
    ck_assert_int_eq(comm_config_check(s, "", msg, sizeof(msg)), COMM_ERR_BAD_PARAM);
    ck_assert_int_eq(comm_config_check(s, "tcp,verbs", msg, sizeof(msg)), COMM_ERR_BAD_PARAM);
    ck_assert_ptr_nonnull(strstr(msg, "COMM_BACKEND"));
}
END_TEST

START_TEST(devices_parse_include_and_exclude_lists)
{
    struct comm_btl_ofi_names d;
    char why[256];

    ck_assert_int_eq(comm_btl_ofi_parse_devices("lo", true, &d, why, sizeof(why)), COMM_OK);
    ck_assert(!d.exclude);
    ck_assert_uint_eq(d.count, 1);
    ck_assert_str_eq(d.names[0], "lo");
    ck_assert_int_eq(comm_btl_ofi_parse_devices("^eth0,mlx5_0", true, &d, why, sizeof(why)),
                     COMM_OK);
    ck_assert(d.exclude);
    ck_assert_uint_eq(d.count, 2);
    ck_assert_str_eq(d.names[0], "eth0");
    ck_assert_str_eq(d.names[1], "mlx5_0");
}
END_TEST

START_TEST(devices_parse_refuses_malformed_lists)
{
    static const char *const bad[] = {"", ",", "lo,", ",lo", "lo,,eth0", "^", "lo,^eth0", "^^lo"};
    struct comm_btl_ofi_names d = {.count = 7};
    char why[256];

    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        why[0] = '\0';
        ck_assert_msg(comm_btl_ofi_parse_devices(bad[i], true, &d, why, sizeof(why)) ==
                          COMM_ERR_BAD_PARAM,
                      "'%s' accepted", bad[i]);
        ck_assert_msg(why[0] != '\0', "no reason for '%s'", bad[i]);
    }
    ck_assert_uint_eq(d.count, 7); /* untouched on failure */
    ck_assert_int_eq(comm_btl_ofi_parse_devices("^lo", false, &d, why, sizeof(why)),
                     COMM_ERR_BAD_PARAM);
}
END_TEST

START_TEST(devices_parse_refuses_too_many_or_too_long)
{
    char text[2048] = "";
    char longname[COMM_BTL_OFI_NAME + 2];
    struct comm_btl_ofi_names d;
    char why[256];

    for (int i = 0; i <= COMM_BTL_OFI_MAX_DEVICES; i++) {
        strcat(text, i ? ",d" : "d");
    }
    ck_assert_int_eq(comm_btl_ofi_parse_devices(text, true, &d, why, sizeof(why)),
                     COMM_ERR_BAD_PARAM);
    memset(longname, 'x', sizeof(longname) - 1);
    longname[sizeof(longname) - 1] = '\0';
    ck_assert_int_eq(comm_btl_ofi_parse_devices(longname, true, &d, why, sizeof(why)),
                     COMM_ERR_BAD_PARAM);
}
END_TEST

START_TEST(policy_uses_job_interfaces_then_loopback_then_every_network)
{
    struct comm_btl_ofi_devices d;
    char why[256];

    ck_assert_int_eq(comm_btl_ofi_device_policy(NULL, "eth1,eth2", false, &d, why, sizeof(why)),
                     COMM_OK);
    ck_assert_int_eq(d.scope, COMM_BTL_OFI_ONLY);
    ck_assert_uint_eq(d.use.count, 2);
    ck_assert_str_eq(d.use.names[1], "eth2");
    ck_assert_int_eq(comm_btl_ofi_device_policy(NULL, NULL, true, &d, why, sizeof(why)), COMM_OK);
    ck_assert_int_eq(d.scope, COMM_BTL_OFI_ONLY);
    ck_assert_uint_eq(d.use.count, 1);
    ck_assert_str_eq(d.use.names[0], "lo");
    ck_assert_int_eq(comm_btl_ofi_device_policy(NULL, NULL, false, &d, why, sizeof(why)), COMM_OK);
    ck_assert_int_eq(d.scope, COMM_BTL_OFI_NONLOOPBACK);
    /* comm-run's list names interfaces only: no exclusion there. */
    ck_assert_int_eq(comm_btl_ofi_device_policy(NULL, "^eth0", false, &d, why, sizeof(why)),
                     COMM_ERR_BAD_PARAM);
}
END_TEST

START_TEST(policy_allowlist_replaces_or_narrows_the_job_set)
{
    struct comm_btl_ofi_devices d;
    const char *lo[] = {"lo", "lo"};
    const char *eth0[] = {"eth0", "eth0"};
    const char *ib[] = {"mlx5_0", "ib0"};
    char why[256];

    ck_assert_int_eq(comm_btl_ofi_device_policy("ib0", "eth1", true, &d, why, sizeof(why)),
                     COMM_OK);
    ck_assert_int_eq(d.scope, COMM_BTL_OFI_ONLY);
    ck_assert_str_eq(d.use.names[0], "ib0");
    ck_assert_str_eq(d.source, "COMM_DEVICE_ALLOWLIST");
    ck_assert(comm_btl_ofi_devices_allow(&d, ib, 2, false));
    /* ^ only narrows: on one host the set was lo, so ^lo leaves nothing (never eth0). */
    ck_assert_int_eq(comm_btl_ofi_device_policy("^lo", NULL, true, &d, why, sizeof(why)), COMM_OK);
    ck_assert(!comm_btl_ofi_devices_allow(&d, lo, 2, true));
    ck_assert(!comm_btl_ofi_devices_allow(&d, eth0, 2, false));
    /* Across hosts, ^ leaves devices out of every non-loopback one. */
    ck_assert_int_eq(comm_btl_ofi_device_policy("^eth0", NULL, false, &d, why, sizeof(why)),
                     COMM_OK);
    ck_assert(!comm_btl_ofi_devices_allow(&d, eth0, 2, false));
    ck_assert(comm_btl_ofi_devices_allow(&d, ib, 2, false));
    ck_assert(!comm_btl_ofi_devices_allow(&d, lo, 2, true));
}
END_TEST

START_TEST(devices_allow_by_domain_or_interface_name)
{
    struct comm_btl_ofi_devices only, net;
    const char *roce[] = {"mlx5_0", "eth2"};
    const char *loop[] = {"lo", "lo"};
    const char *eth0[] = {"eth0", NULL};
    char why[256];

    comm_btl_ofi_device_policy("eth2", NULL, true, &only, why, sizeof(why));
    comm_btl_ofi_device_policy(NULL, NULL, false, &net, why, sizeof(why));
    ck_assert(comm_btl_ofi_devices_allow(&only, roce, 2, false));
    ck_assert(!comm_btl_ofi_devices_allow(&only, loop, 2, true));
    ck_assert(!comm_btl_ofi_devices_allow(&only, eth0, 2, false));
    ck_assert(comm_btl_ofi_devices_allow(&net, eth0, 2, false));
    ck_assert(comm_btl_ofi_devices_allow(&net, roce, 2, false));
    ck_assert(!comm_btl_ofi_devices_allow(&net, loop, 2, true));
}
END_TEST

START_TEST(devices_describe_names_the_set)
{
    struct comm_btl_ofi_devices d;
    char why[256], text[256];

    comm_btl_ofi_device_policy("^eth0,eth1", NULL, false, &d, why, sizeof(why));
    comm_btl_ofi_devices_describe(&d, text, sizeof(text));
    ck_assert_str_eq(text, "every non-loopback device but eth0,eth1");
    comm_btl_ofi_device_policy(NULL, "eth1,eth2", false, &d, why, sizeof(why));
    comm_btl_ofi_devices_describe(&d, text, sizeof(text));
    ck_assert_str_eq(text, "eth1,eth2");
}
END_TEST

/* A fake provider: counts registrations, hands out keys, can refuse. */
static int fake_live;
static int fake_registered;
static bool fake_refuse;

static int fake_register(void *ctx, struct comm_btl_ofi_mr *mr)
{
    (void)ctx;
    if (fake_refuse) {
        return COMM_ERR_SYSTEM;
    }
    fake_live++;
    fake_registered++;
    mr->key = (uint64_t)fake_registered;
    return COMM_OK;
}

static void fake_deregister(void *ctx, struct comm_btl_ofi_mr *mr)
{
    (void)ctx;
    (void)mr;
    fake_live--;
}

static char *page_buffer(size_t pages)
{
    char *p = NULL;

    ck_assert_int_eq(posix_memalign((void **)&p, 4096, pages * 4096), 0);
    return p;
}

START_TEST(cache_reuses_a_covering_registration)
{
    struct comm_btl_ofi_mr_cache c;
    struct comm_btl_ofi_mr *a, *b;
    char *buf = page_buffer(4);

    comm_btl_ofi_mr_cache_init(&c, 8, fake_register, fake_deregister, NULL);
    ck_assert_int_eq(comm_btl_ofi_mr_cache_acquire(&c, buf, 4 * 4096, &a), COMM_OK);
    ck_assert_int_eq(comm_btl_ofi_mr_cache_acquire(&c, buf + 100, 5000, &b), COMM_OK);
    ck_assert_ptr_eq(a, b);
    ck_assert_int_eq(fake_registered, 1);
    ck_assert_uint_eq(a->refs, 2);
    ck_assert_ptr_eq(comm_btl_ofi_mr_cache_find_key(&c, a->key), a);
    comm_btl_ofi_mr_cache_release(&c, a);
    comm_btl_ofi_mr_cache_release(&c, b);
    ck_assert_int_eq(fake_live, 1); /* idle, kept for reuse */
    ck_assert_ptr_null(comm_btl_ofi_mr_cache_find_key(&c, a->key));
    comm_btl_ofi_mr_cache_flush(&c);
    ck_assert_int_eq(fake_live, 0);
    free(buf);
}
END_TEST

START_TEST(cache_evicts_least_recently_used_idle_entries)
{
    struct comm_btl_ofi_mr_cache c;
    struct comm_btl_ofi_mr *mr[4];
    char *buf = page_buffer(8);

    comm_btl_ofi_mr_cache_init(&c, 2, fake_register, fake_deregister, NULL);
    for (int i = 0; i < 4; i++) {
        ck_assert_int_eq(comm_btl_ofi_mr_cache_acquire(&c, buf + 2 * i * 4096, 4096, &mr[i]),
                         COMM_OK);
    }
    ck_assert_int_eq(fake_live, 4);
    /* Entry 0 used again: entry 1 becomes the least recently used. */
    comm_btl_ofi_mr_cache_release(&c, mr[0]);
    ck_assert_int_eq(comm_btl_ofi_mr_cache_acquire(&c, buf, 4096, &mr[0]), COMM_OK);
    comm_btl_ofi_mr_cache_release(&c, mr[1]);
    comm_btl_ofi_mr_cache_release(&c, mr[2]);
    comm_btl_ofi_mr_cache_release(&c, mr[0]);
    /* Three idle, two allowed: entry 1 went; 0 and 2 stay, 3 is in use. */
    ck_assert_int_eq(fake_live, 3);
    ck_assert_uint_eq(c.nidle, 2);
    ck_assert_int_eq(comm_btl_ofi_mr_cache_acquire(&c, buf, 4096, &mr[0]), COMM_OK);
    ck_assert_int_eq(comm_btl_ofi_mr_cache_acquire(&c, buf + 4 * 4096, 4096, &mr[2]), COMM_OK);
    ck_assert_int_eq(fake_registered, 4);
    ck_assert_int_eq(comm_btl_ofi_mr_cache_acquire(&c, buf + 2 * 4096, 4096, &mr[1]), COMM_OK);
    ck_assert_int_eq(fake_registered, 5);
    comm_btl_ofi_mr_cache_flush(&c);
    ck_assert_int_eq(fake_live, 0);
    free(buf);
}
END_TEST

START_TEST(cache_never_evicts_entries_in_use)
{
    struct comm_btl_ofi_mr_cache c;
    struct comm_btl_ofi_mr *mr[16];
    char *buf = page_buffer(32);

    comm_btl_ofi_mr_cache_init(&c, 0, fake_register, fake_deregister, NULL);
    for (int i = 0; i < 16; i++) {
        ck_assert_int_eq(comm_btl_ofi_mr_cache_acquire(&c, buf + 2 * i * 4096, 10, &mr[i]),
                         COMM_OK);
    }
    ck_assert_int_eq(fake_live, 16);
    for (int i = 0; i < 16; i++) {
        ck_assert_ptr_eq(comm_btl_ofi_mr_cache_find_key(&c, mr[i]->key), mr[i]);
        comm_btl_ofi_mr_cache_release(&c, mr[i]);
        ck_assert_int_eq(fake_live, 15 - i); /* no idle entry kept with a size of 0 */
    }
    free(buf);
}
END_TEST

START_TEST(cache_replaces_idle_overlapping_entries)
{
    struct comm_btl_ofi_mr_cache c;
    struct comm_btl_ofi_mr *small, *big;
    char *buf = page_buffer(4);

    comm_btl_ofi_mr_cache_init(&c, 8, fake_register, fake_deregister, NULL);
    ck_assert_int_eq(comm_btl_ofi_mr_cache_acquire(&c, buf, 4096, &small), COMM_OK);
    comm_btl_ofi_mr_cache_release(&c, small);
    ck_assert_int_eq(comm_btl_ofi_mr_cache_acquire(&c, buf, 4 * 4096, &big), COMM_OK);
    ck_assert_int_eq(fake_live, 1);
    ck_assert_uint_eq(big->len, 4 * 4096);
    ck_assert_uint_eq(big->base, (uintptr_t)buf);
    comm_btl_ofi_mr_cache_flush(&c);
    free(buf);
}
END_TEST

START_TEST(cache_reports_a_refused_registration)
{
    struct comm_btl_ofi_mr_cache c;
    struct comm_btl_ofi_mr *mr = NULL;
    char *buf = page_buffer(1);

    comm_btl_ofi_mr_cache_init(&c, 8, fake_register, fake_deregister, NULL);
    fake_refuse = true;
    ck_assert_int_eq(comm_btl_ofi_mr_cache_acquire(&c, buf, 64, &mr), COMM_ERR_SYSTEM);
    ck_assert_ptr_null(mr);
    ck_assert_uint_eq(c.count, 0);
    free(buf);
}
END_TEST

/* The defaults of COMM_OFI_FRAGMENT_SIZE, COMM_OFI_EAGER_LIMIT and COMM_OFI_CREDITS, none set. */
static struct comm_btl_ofi_sizing default_sizing(void)
{
    return (struct comm_btl_ofi_sizing){.frag = 263168, .eager = 131072, .credits = 4, .room = 136};
}

enum { MIB = 1024 * 1024 };

/* Sizes the defaults for PEERS peers in 32 MiB and checks the outcome: the eager limit follows
 * the fragment, and the memory is what the buffers take. */
static void expect_default_sizing(long peers, long frag, long credits, bool over)
{
    struct comm_btl_ofi_sizing s = default_sizing();

    comm_btl_ofi_size_receives(&s, peers, 32 * MIB);
    ck_assert_int_eq(s.frag, frag);
    ck_assert_int_eq(s.credits, credits);
    ck_assert_int_eq(s.eager, frag >= 131072 + 136 ? 131072 : frag - 136);
    ck_assert_int_eq(s.spares, credits == 3 ? 3 : 2);
    ck_assert_uint_eq(s.memory, (size_t)peers * (size_t)(credits + s.spares) * (size_t)frag);
    ck_assert(s.over == over);
}

enum { KIB = 1024 };

START_TEST(tune_classes_start_above_one_piece)
{
    struct comm_btl_ofi_tune t;

    comm_btl_ofi_tune_init(&t, 512 * KIB);
    ck_assert_int_eq(comm_btl_ofi_tune_class_of(&t, 0), -1);
    ck_assert_int_eq(comm_btl_ofi_tune_class_of(&t, 512 * KIB), -1);
    ck_assert_int_eq(comm_btl_ofi_tune_class_of(&t, 512 * KIB + 1), 0);
    ck_assert_int_eq(comm_btl_ofi_tune_class_of(&t, MIB), 0);
    ck_assert_int_eq(comm_btl_ofi_tune_class_of(&t, MIB + 1), 1);
    ck_assert_int_eq(comm_btl_ofi_tune_class_of(&t, 4 * MIB), 2);
    ck_assert_int_eq(comm_btl_ofi_tune_class_of(&t, 8 * MIB), 3);
    ck_assert_int_eq(comm_btl_ofi_tune_class_of(&t, 8 * MIB + 1), 4);
    ck_assert_int_eq(comm_btl_ofi_tune_class_of(&t, (size_t)1 << 40), 4);
    /* Messages a single piece holds are read whole and never counted. */
    ck_assert_int_eq(comm_btl_ofi_tune_choose(&t, 4096), COMM_BTL_OFI_READ_WHOLE);
    ck_assert(!comm_btl_ofi_tune_record(&t, 4096, COMM_BTL_OFI_READ_WHOLE, 1000));
    /* A piece of 0 (COMM_OFI_READ_SIZE set): nothing is tuned. */
    comm_btl_ofi_tune_init(&t, 0);
    ck_assert_int_eq(comm_btl_ofi_tune_class_of(&t, 64 * MIB), -1);
    ck_assert_int_eq(comm_btl_ofi_tune_choose(&t, 64 * MIB), COMM_BTL_OFI_READ_WHOLE);
}
END_TEST

/* Reads LEN-byte messages N times the way T chooses, each taking NS_PIECES or NS_WHOLE; returns
 * how many were read whole. */
static int tune_run(struct comm_btl_ofi_tune *t, size_t len, int n, uint64_t ns_pieces,
                    uint64_t ns_whole)
{
    int whole = 0;

    for (int i = 0; i < n; i++) {
        enum comm_btl_ofi_read_way w = comm_btl_ofi_tune_choose(t, len);

        whole += w == COMM_BTL_OFI_READ_WHOLE;
        comm_btl_ofi_tune_record(t, len, w, w == COMM_BTL_OFI_READ_WHOLE ? ns_whole : ns_pieces);
    }
    return whole;
}

START_TEST(tune_tries_both_ways_then_keeps_the_faster)
{
    struct comm_btl_ofi_tune t;
    char text[256];

    comm_btl_ofi_tune_init(&t, 512 * KIB);
    /* Two reads of each way in turn, pieces first; the first of each only warms up: its
     * time (here absurd) is not kept. */
    ck_assert_int_eq(comm_btl_ofi_tune_choose(&t, MIB), COMM_BTL_OFI_READ_PIECES);
    ck_assert(!comm_btl_ofi_tune_record(&t, MIB, COMM_BTL_OFI_READ_PIECES, 1000000000));
    ck_assert_int_eq(comm_btl_ofi_tune_choose(&t, MIB), COMM_BTL_OFI_READ_WHOLE);
    ck_assert(!comm_btl_ofi_tune_record(&t, MIB, COMM_BTL_OFI_READ_WHOLE, 1));
    ck_assert_int_eq(comm_btl_ofi_tune_choose(&t, MIB), COMM_BTL_OFI_READ_PIECES);
    ck_assert(!comm_btl_ofi_tune_record(&t, MIB, COMM_BTL_OFI_READ_PIECES, 150000));
    comm_btl_ofi_tune_describe(&t, 128 * KIB, text, sizeof(text));
    ck_assert_str_eq(text, ""); /* nothing chosen yet */
    ck_assert_int_eq(comm_btl_ofi_tune_choose(&t, MIB), COMM_BTL_OFI_READ_WHOLE);
    /* Both measured: the way is chosen, and the record says so. */
    ck_assert(comm_btl_ofi_tune_record(&t, MIB, COMM_BTL_OFI_READ_WHOLE, 100000));
    ck_assert_int_eq(t.cls[0].chosen, COMM_BTL_OFI_READ_WHOLE);
    comm_btl_ofi_tune_describe(&t, 128 * KIB, text, sizeof(text));
    ck_assert_str_eq(text, "up to 1 MiB whole (10486 MB/s; in 128 KiB pieces 6991)");
    /* From then on the faster way, but every 32nd message of the class the other: 128 more
     * messages bring the count to 132, so 4 of them go in pieces. */
    ck_assert_int_eq(tune_run(&t, MIB, 128, 150000, 100000), 124);
    ck_assert_int_eq(t.cls[0].chosen, COMM_BTL_OFI_READ_WHOLE);
    /* Other classes learn on their own. */
    ck_assert(!t.cls[2].decided);
    ck_assert_int_eq(tune_run(&t, 4 * MIB, 4 + 64, 400000, 800000), 2 + 2);
    ck_assert_int_eq(t.cls[2].chosen, COMM_BTL_OFI_READ_PIECES);
    comm_btl_ofi_tune_describe(&t, 128 * KIB, text, sizeof(text));
    ck_assert_str_eq(text, "up to 1 MiB whole (10486 MB/s; in 128 KiB pieces 6991), up to 4 MiB "
                           "in 128 KiB pieces (10486 MB/s; whole 5243)");
    tune_run(&t, 64 * MIB, 4, 8000000, 6000000);
    comm_btl_ofi_tune_describe(&t, 128 * KIB, text, sizeof(text));
    ck_assert_ptr_nonnull(strstr(text, ", above 8 MiB whole (11185 MB/s; in 128 KiB pieces 8389)"));
}
END_TEST

START_TEST(tune_follows_a_path_that_changes)
{
    struct comm_btl_ofi_tune t;
    int flips = 0;

    comm_btl_ofi_tune_init(&t, 512 * KIB);
    tune_run(&t, 2 * MIB, 4, 300000, 200000);
    ck_assert_int_eq(t.cls[1].chosen, COMM_BTL_OFI_READ_WHOLE);
    /* Whole reads become three times as slow: the way changes within a few messages. */
    for (int i = 0; i < 8; i++) {
        enum comm_btl_ofi_read_way w = comm_btl_ofi_tune_choose(&t, 2 * MIB);

        flips += comm_btl_ofi_tune_record(&t, 2 * MIB, w,
                                          w == COMM_BTL_OFI_READ_WHOLE ? 600000 : 300000);
    }
    ck_assert_int_eq(t.cls[1].chosen, COMM_BTL_OFI_READ_PIECES);
    ck_assert_int_eq(flips, 1);
    /* Then the pieces slow down: the tries of whole reads every 32nd message find it. */
    ck_assert_int_gt(tune_run(&t, 2 * MIB, 256, 900000, 600000), 150);
    ck_assert_int_eq(t.cls[1].chosen, COMM_BTL_OFI_READ_WHOLE);
}
END_TEST

START_TEST(tune_one_stalled_read_does_not_change_the_way)
{
    struct comm_btl_ofi_tune t;

    comm_btl_ofi_tune_init(&t, 512 * KIB);
    tune_run(&t, MIB, 4, 200000, 100000);
    ck_assert_int_eq(t.cls[0].chosen, COMM_BTL_OFI_READ_WHOLE);
    /* A read of the chosen way that stalls a hundred times as long counts as at most twice. */
    ck_assert(!comm_btl_ofi_tune_record(&t, MIB, COMM_BTL_OFI_READ_WHOLE, 10000000));
    ck_assert_int_eq(t.cls[0].chosen, COMM_BTL_OFI_READ_WHOLE);
    ck_assert(t.cls[0].ns_per_byte[COMM_BTL_OFI_READ_WHOLE] < 1.3 * 100000.0 / MIB);
}
END_TEST

/* A stream is timed by runs of messages: each way keeps its turn for a batch of messages, the
 * samples carry the bytes of a whole run, and the faster way then keeps all turns but every
 * 32nd. */
START_TEST(tune_batches_take_turns_of_messages)
{
    struct comm_btl_ofi_tune t;
    int whole = 0;

    comm_btl_ofi_tune_init(&t, 512 * KIB);
    comm_btl_ofi_tune_set_batch(&t, 4);
    for (int turn = 0; turn < 4; turn++) {
        enum comm_btl_ofi_read_way way =
            turn % 2 == 0 ? COMM_BTL_OFI_READ_PIECES : COMM_BTL_OFI_READ_WHOLE;
        uint64_t ns = way == COMM_BTL_OFI_READ_WHOLE ? 400000 : 800000;

        for (int i = 0; i < 4; i++) {
            ck_assert_int_eq(comm_btl_ofi_tune_choose(&t, MIB), way);
        }
        ck_assert(!comm_btl_ofi_tune_record_bytes(&t, MIB, way, 0, 1000));
        /* Whole delivers the run's 4 MiB twice as fast; the last report decides. */
        ck_assert(comm_btl_ofi_tune_record_bytes(&t, MIB, way, 4 * MIB, ns) == (turn == 3));
    }
    ck_assert_int_eq(t.cls[0].chosen, COMM_BTL_OFI_READ_WHOLE);
    ck_assert(t.cls[0].ns_per_byte[COMM_BTL_OFI_READ_WHOLE] > 0.99 * 100000.0 / MIB &&
              t.cls[0].ns_per_byte[COMM_BTL_OFI_READ_WHOLE] < 1.01 * 100000.0 / MIB);
    /* Turns 4 to 35: one of them, the 32nd, in pieces. */
    for (int i = 0; i < 32 * 4; i++) {
        whole += comm_btl_ofi_tune_choose(&t, MIB) == COMM_BTL_OFI_READ_WHOLE;
    }
    ck_assert_int_eq(whole, 31 * 4);
    /* Another class keeps its own turns. */
    ck_assert_int_eq(comm_btl_ofi_tune_choose(&t, 4 * MIB), COMM_BTL_OFI_READ_PIECES);
}
END_TEST

/* A peer's credit messages on the way each carry back at least half the credits, and never
 * more than all of them together. */
START_TEST(spares_cover_every_credit_message_on_the_way)
{
    ck_assert_int_eq(comm_btl_ofi_spares(2), 2);
    ck_assert_int_eq(comm_btl_ofi_spares(3), 3);
    ck_assert_int_eq(comm_btl_ofi_spares(4), 2);
    ck_assert_int_eq(comm_btl_ofi_spares(5), 2);
    ck_assert_int_eq(comm_btl_ofi_spares(8), 2);
    ck_assert_int_eq(comm_btl_ofi_spares(4095), 2);
    for (long credits = 2; credits <= 4096; credits++) {
        long spares = comm_btl_ofi_spares(credits);

        /* that many messages of at least credits / 2 each fit in the credits... */
        ck_assert_int_le(spares * (credits / 2), credits);
        /* ...and one more would not */
        ck_assert_int_gt((spares + 1) * (credits / 2), credits);
    }
}
END_TEST

/* Pieces of 512 KiB (256 KiB to other hosts) over the kernel's TCP, whole messages on other
 * providers, unless set. */
START_TEST(write_piece_by_provider_unless_set)
{
    ck_assert_uint_eq(comm_btl_ofi_write_piece("net", 0, false), 512 * 1024);
    ck_assert_uint_eq(comm_btl_ofi_write_piece("tcp", 0, false), 512 * 1024);
    ck_assert_uint_eq(comm_btl_ofi_write_piece("tcp;ofi_rxm", 0, false), 512 * 1024);
    ck_assert_uint_eq(comm_btl_ofi_write_piece("sockets", 0, false), 512 * 1024);
    ck_assert_uint_eq(comm_btl_ofi_write_piece("verbs;ofi_rxm", 0, false), 0);
    ck_assert_uint_eq(comm_btl_ofi_write_piece("verbs", 0, false), 0);
    ck_assert_uint_eq(comm_btl_ofi_write_piece("shm", 0, false), 0);
    ck_assert_uint_eq(comm_btl_ofi_write_piece("efa", 0, false), 0);
    /* a name that only begins like one over TCP is not one */
    ck_assert_uint_eq(comm_btl_ofi_write_piece("tcpx", 0, false), 0);
    ck_assert_uint_eq(comm_btl_ofi_write_piece("ne", 0, false), 0);
    ck_assert_uint_eq(comm_btl_ofi_write_piece("", 0, false), 0);
    /* smaller pieces to other hosts */
    ck_assert_uint_eq(comm_btl_ofi_write_piece("net", 0, true), 256 * 1024);
    ck_assert_uint_eq(comm_btl_ofi_write_piece("tcp;ofi_rxm", 0, true), 256 * 1024);
    ck_assert_uint_eq(comm_btl_ofi_write_piece("verbs;ofi_rxm", 0, true), 0);
    /* COMM_OFI_WRITE_PIECE wins on every provider, to every peer */
    ck_assert_uint_eq(comm_btl_ofi_write_piece("net", 4096, true), 4096);
    ck_assert_uint_eq(comm_btl_ofi_write_piece("verbs;ofi_rxm", 4096, false), 4096);
    ck_assert_uint_eq(comm_btl_ofi_write_piece("net", 65536, false), 65536);
}
END_TEST

/* The pieces of a written message cover it exactly, the last one taking the rest. */
START_TEST(write_next_covers_the_message_in_pieces)
{
    static const size_t lens[] = {1, 4095, 4096, 4097, 524288, 1048576, 1048577, 2097152};
    static const size_t pieces[] = {0, 1, 4096, 524288, 2097152};

    ck_assert_uint_eq(comm_btl_ofi_write_next(1048576, 0, 524288), 524288);
    ck_assert_uint_eq(comm_btl_ofi_write_next(1048576, 524288, 524288), 524288);
    ck_assert_uint_eq(comm_btl_ofi_write_next(1048577, 1048576, 524288), 1);
    ck_assert_uint_eq(comm_btl_ofi_write_next(1048576, 0, 0), 1048576);
    ck_assert_uint_eq(comm_btl_ofi_write_next(1048576, 1048576, 524288), 0);
    for (size_t i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
        for (size_t j = 0; j < sizeof(pieces) / sizeof(pieces[0]); j++) {
            size_t done = 0, n, count = 0, piece = pieces[j];

            while ((n = comm_btl_ofi_write_next(lens[i], done, piece)) > 0) {
                COMM_CHECK(piece == 0 || n <= piece, "message %zu, piece %zu: %zu bytes at %zu",
                           lens[i], piece, n, done);
                done += n;
                count++;
            }
            ck_assert_uint_eq(done, lens[i]);
            ck_assert_uint_eq(count, piece == 0 ? 1 : (lens[i] + piece - 1) / piece);
        }
    }
}
END_TEST

START_TEST(sizing_keeps_the_defaults_while_they_fit)
{
    /* 21 peers x 6 buffers x 263168 bytes = 31.6 MiB: fits; 22 get 254144-byte ones. */
    expect_default_sizing(21, 263168, 4, false);
    expect_default_sizing(22, 254144, 4, false);
    expect_default_sizing(2, 263168, 4, false);
    /* A job of one rank has no network peer. */
    expect_default_sizing(0, 263168, 4, false);
}
END_TEST

START_TEST(sizing_shrinks_fragments_then_credits_then_fragments)
{
    /* 100 peers, 335544 bytes each: 6 buffers of 55924, down to a multiple of 64; the eager
     * limit follows. */
    expect_default_sizing(100, 55872, 4, false);
    expect_default_sizing(300, 18624, 4, false);
    /* 1000 peers: fragments stop at 16 KiB, credits are 4 already, then fragments shrink to
     * what 6 buffers allow. */
    expect_default_sizing(1000, 5568, 4, false);
    /* 2000 peers: 4 buffers of 4 KiB fit (3 credits would need 3 spares). */
    expect_default_sizing(2000, 4096, 2, false);
    /* 2100 peers: 4 KiB fragments and 2 credits are the least, and still too much. */
    expect_default_sizing(2100, 4096, 2, true);
    /* More credits shrink to 4 before fragments go below 16 KiB, then to 2 with 4 KiB ones
     * (3 credits would need 3 spares). */
    struct comm_btl_ofi_sizing s = default_sizing();

    s.credits = 8;
    comm_btl_ofi_size_receives(&s, 300, 32 * MIB);
    ck_assert_int_eq(s.frag, 16384);
    ck_assert_int_eq(s.credits, 4);
    s = default_sizing();
    s.credits = 8;
    comm_btl_ofi_size_receives(&s, 2000, 32 * MIB);
    ck_assert_int_eq(s.frag, 4096);
    ck_assert_int_eq(s.credits, 2);
}
END_TEST

START_TEST(sizing_never_changes_what_the_user_set)
{
    struct comm_btl_ofi_sizing s = default_sizing();

    /* Credits set: only the fragments shrink. */
    s.credits = 8;
    s.credits_set = true;
    comm_btl_ofi_size_receives(&s, 1000, 32 * MIB);
    ck_assert_int_eq(s.credits, 8);
    ck_assert_int_eq(s.frag, 4096);
    ck_assert(s.over);
    /* A set eager limit keeps a fragment that holds it. */
    s = default_sizing();
    s.eager = 32768;
    s.eager_set = true;
    comm_btl_ofi_size_receives(&s, 1000, 32 * MIB);
    ck_assert_int_eq(s.eager, 32768);
    ck_assert_int_eq(s.frag, 32768 + 136);
    ck_assert_int_eq(s.credits, 2);
    ck_assert(s.over);
    /* A set fragment, smaller than the floors, stays; so do its credits and limit. */
    s = (struct comm_btl_ofi_sizing){.frag = 256,
                                     .eager = 64,
                                     .credits = 2,
                                     .frag_set = true,
                                     .eager_set = true,
                                     .credits_set = true,
                                     .room = 136};
    comm_btl_ofi_size_receives(&s, 3, 65536);
    ck_assert_int_eq(s.frag, 256);
    ck_assert_int_eq(s.eager, 64);
    ck_assert_int_eq(s.credits, 2);
    ck_assert(!s.over);
    /* Defaults never grow: a large budget leaves them as they are. */
    s = default_sizing();
    comm_btl_ofi_size_receives(&s, 3, (size_t)1 << 40);
    ck_assert_int_eq(s.frag, 263168);
    ck_assert_int_eq(s.credits, 4);
}
END_TEST

START_TEST(sizing_setting_refuses_small_or_malformed_budgets)
{
    const struct comm_setting *set = NULL;
    char msg[256];

    for (size_t i = 0; i < comm_btl_ofi_settings.count; i++) {
        if (strcmp(comm_btl_ofi_settings.settings[i].name, "COMM_OFI_RECV_MEMORY") == 0) {
            set = &comm_btl_ofi_settings.settings[i];
        }
    }
    ck_assert_ptr_nonnull(set);
    ck_assert_int_eq(comm_config_check(set, "33554432", msg, sizeof(msg)), COMM_OK);
    ck_assert_int_eq(comm_config_check(set, "4096", msg, sizeof(msg)), COMM_ERR_BAD_PARAM);
    ck_assert_int_eq(comm_config_check(set, "32M", msg, sizeof(msg)), COMM_ERR_BAD_PARAM);
    ck_assert_int_eq(comm_config_check(set, "-1", msg, sizeof(msg)), COMM_ERR_BAD_PARAM);
}
END_TEST

/* The rails of the fabrics on a host's path: the highest level's first, each (provider,
 * device) once with every fabric it serves, a fabric without Nics= on the job's devices; a
 * malformed Nics= or too many rails names the fabric at fault. */
/* Verbs-like rails (virtual addresses, the providers' own keys) paired crosswise with the
 * peer's: each rail reads with the key of the peer's rail it is paired with, at the address
 * the runtime carries. */
START_TEST(rail_keys_follow_the_peer_rail_paired)
{
    struct btl_ofi_module *m = calloc(1, sizeof(*m));
    struct btl_ofi_endpoint *ep = calloc(1, sizeof(*ep));
    const struct comm_btl_key rk = {.w = {0x11 + 1, 0x22, 0x33}};

    ck_assert_ptr_nonnull(m);
    ck_assert_ptr_nonnull(ep);
    m->nrails = 3;
    m->virt_addr = true;
    for (unsigned k = 0; k < 3; k++) {
        m->rails[k].mr_mode = FI_MR_VIRT_ADDR | FI_MR_PROV_KEY | FI_MR_LOCAL;
    }
    ep->peer_rail[0] = 0;
    ep->peer_rail[1] = 2;
    ep->peer_rail[2] = 1;
    ck_assert(btl_ofi_rkey_set(&rk));
    ck_assert_uint_eq(btl_ofi_rkey(m, ep, 0, &rk), 0x11);
    ck_assert_uint_eq(btl_ofi_rkey(m, ep, 1, &rk), 0x33);
    ck_assert_uint_eq(btl_ofi_rkey(m, ep, 2, &rk), 0x22);
    for (unsigned k = 0; k < 3; k++) {
        ck_assert_uint_eq(btl_ofi_raddr(m, k, 0x7f0000001000, &rk), 0x7f0000001000);
    }
    free(ep);
    free(m);
}
END_TEST

/* tcp-like rails address memory by offsets from the base, which rails[0]'s key is; one beside
 * them that addresses it virtually (libfabric's shm) reads at the address itself. */
START_TEST(rail_keys_by_offset_carry_the_base)
{
    struct btl_ofi_module *m = calloc(1, sizeof(*m));
    struct btl_ofi_endpoint *ep = calloc(1, sizeof(*ep));
    const uint64_t base = 0x7f0000000000;
    const struct comm_btl_key rk = {.w = {base, base | 1ull << 56, 77}};
    const struct comm_btl_key none = {.w = {0}};

    ck_assert_ptr_nonnull(m);
    ck_assert_ptr_nonnull(ep);
    m->nrails = 3;
    m->virt_addr = false;
    m->rails[2].mr_mode = FI_MR_VIRT_ADDR;
    ep->peer_rail[1] = 1;
    ep->peer_rail[2] = 2;
    ck_assert_uint_eq(btl_ofi_rkey(m, ep, 0, &rk), base);
    ck_assert_uint_eq(btl_ofi_rkey(m, ep, 1, &rk), base | 1ull << 56);
    ck_assert_uint_eq(btl_ofi_rkey(m, ep, 2, &rk), 77);
    ck_assert_uint_eq(btl_ofi_raddr(m, 0, base + 4096, &rk), 4096);
    ck_assert_uint_eq(btl_ofi_raddr(m, 1, base + 4096, &rk), 4096);
    ck_assert_uint_eq(btl_ofi_raddr(m, 2, base + 4096, &rk), base + 4096);
    ck_assert(!btl_ofi_rkey_set(&none));
    ck_assert(!btl_ofi_rkey_set(NULL));
    free(ep);
    free(m);
}
END_TEST

START_TEST(rail_plan_per_level)
{
    const struct comm_btl_fabric fabrics[] = {
        {.level = 1,
         .level_name = "rack",
         .where = "r0",
         .provider = "verbs",
         .nics = "mlx5_0,mlx5_1"},
        {.level = 2, .level_name = "pod", .where = "p0", .provider = "verbs", .nics = "mlx5_1"},
        {.level = 3, .level_name = "spine", .where = "s", .provider = "tcp", .nics = NULL},
    };
    struct comm_btl_fabric bad[] = {
        {.level = 1, .level_name = "rack", .where = "r0", .provider = NULL, .nics = "eth0,,eth1"},
        {.level = 2, .level_name = "spine", .where = "s", .provider = "tcp", .nics = "eth2"},
    };
    struct comm_btl_fabric many[] = {
        {.level = 1,
         .level_name = "rack",
         .where = "r0",
         .provider = NULL,
         .nics = "a0,a1,a2,a3,a4,a5"},
        {.level = 2, .level_name = "spine", .where = "s", .provider = "tcp", .nics = "b0,b1,b2"},
    };
    struct comm_btl_ofi_rail_spec specs[COMM_BTL_OFI_PLAN_MAX];
    size_t n = 99, at = 99;
    char expected[256];

    ck_assert_int_eq(comm_btl_ofi_rail_plan(fabrics, 3, specs, &n, &at, expected, sizeof(expected)),
                     COMM_OK);
    ck_assert_uint_eq(n, 3);
    ck_assert_str_eq(specs[0].provider, "tcp");
    ck_assert_str_eq(specs[0].name, "");
    ck_assert_uint_eq(specs[0].fabrics, 1u << 2);
    ck_assert_str_eq(specs[1].provider, "verbs");
    ck_assert_str_eq(specs[1].name, "mlx5_1");
    ck_assert_uint_eq(specs[1].fabrics, (1u << 1) | (1u << 0));
    ck_assert_str_eq(specs[2].name, "mlx5_0");
    ck_assert_uint_eq(specs[2].fabrics, 1u << 0);
    /* no fabrics: no rails */
    ck_assert_int_eq(comm_btl_ofi_rail_plan(fabrics, 0, specs, &n, &at, expected, sizeof(expected)),
                     COMM_OK);
    ck_assert_uint_eq(n, 0);
    ck_assert_int_eq(comm_btl_ofi_rail_plan(bad, 2, specs, &n, &at, expected, sizeof(expected)),
                     COMM_ERR_BAD_PARAM);
    ck_assert_uint_eq(at, 0);
    ck_assert_uint_eq(n, 0);
    ck_assert_int_eq(comm_btl_ofi_rail_plan(many, 2, specs, &n, &at, expected, sizeof(expected)),
                     COMM_ERR_BAD_PARAM);
    ck_assert_uint_eq(at, 0);
    ck_assert_ptr_nonnull(strstr(expected, "at most 8 rails"));
}
END_TEST

/* Rails come from the topology file, else an allowlist of several devices, else the job's
 * interfaces when several; one device, an exclusion list or none means no rails. */
START_TEST(rail_names_topology_then_allowlist_then_job_interfaces)
{
    struct comm_btl_ofi_names names;
    const char *source;
    char expected[256];

    ck_assert_int_eq(comm_btl_ofi_rail_names("ib0,ib1", "eth0,eth1", "eth0,eth1", &names, &source,
                                             expected, sizeof(expected)),
                     COMM_OK);
    ck_assert_uint_eq(names.count, 2);
    ck_assert_str_eq(names.names[0], "ib0");
    ck_assert_str_eq(names.names[1], "ib1");
    ck_assert_str_eq(source, "the topology file (Nics=)");
    /* one device from the file is still a rail on it */
    ck_assert_int_eq(comm_btl_ofi_rail_names("mlx5_0", NULL, "eth0", &names, &source, expected,
                                             sizeof(expected)),
                     COMM_OK);
    ck_assert_uint_eq(names.count, 1);
    ck_assert_str_eq(names.names[0], "mlx5_0");
    ck_assert_int_eq(comm_btl_ofi_rail_names(NULL, "eth1,eth2", "eth0,eth3", &names, &source,
                                             expected, sizeof(expected)),
                     COMM_OK);
    ck_assert_uint_eq(names.count, 2);
    ck_assert_str_eq(names.names[1], "eth2");
    ck_assert_str_eq(source, "COMM_DEVICE_ALLOWLIST");
    /* the allowlist decides even when it gives no rails */
    ck_assert_int_eq(comm_btl_ofi_rail_names(NULL, "eth1", "eth0,eth3", &names, &source, expected,
                                             sizeof(expected)),
                     COMM_OK);
    ck_assert_uint_eq(names.count, 0);
    ck_assert_int_eq(comm_btl_ofi_rail_names("", "^eth1,eth2", "eth0,eth3", &names, &source,
                                             expected, sizeof(expected)),
                     COMM_OK);
    ck_assert_uint_eq(names.count, 0);
    ck_assert_int_eq(comm_btl_ofi_rail_names(NULL, NULL, "eth0,eth3", &names, &source, expected,
                                             sizeof(expected)),
                     COMM_OK);
    ck_assert_uint_eq(names.count, 2);
    ck_assert_str_eq(source, "the job's interfaces (COMM_NET_INTERFACES)");
    ck_assert_int_eq(
        comm_btl_ofi_rail_names(NULL, NULL, "eth0", &names, &source, expected, sizeof(expected)),
        COMM_OK);
    ck_assert_uint_eq(names.count, 0);
    ck_assert_int_eq(
        comm_btl_ofi_rail_names(NULL, NULL, NULL, &names, &source, expected, sizeof(expected)),
        COMM_OK);
    ck_assert_uint_eq(names.count, 0);
    /* a malformed list in the file is an error that says what was expected */
    expected[0] = '\0';
    ck_assert_int_eq(comm_btl_ofi_rail_names("ib0,,ib1", NULL, NULL, &names, &source, expected,
                                             sizeof(expected)),
                     COMM_ERR_BAD_PARAM);
    ck_assert(expected[0] != '\0');
}
END_TEST

int main(void)
{
    Suite *s = suite_create("btl_ofi");
    TCase *tc = comm_test_case("btl_ofi");

    tcase_add_test(tc, backend_auto_tries_rdma_before_tcp);
    tcase_add_test(tc, backend_friendly_names_map_to_providers);
    tcase_add_test(tc, backend_setting_refuses_empty_and_lists);
    tcase_add_test(tc, devices_parse_include_and_exclude_lists);
    tcase_add_test(tc, devices_parse_refuses_malformed_lists);
    tcase_add_test(tc, devices_parse_refuses_too_many_or_too_long);
    tcase_add_test(tc, policy_uses_job_interfaces_then_loopback_then_every_network);
    tcase_add_test(tc, policy_allowlist_replaces_or_narrows_the_job_set);
    tcase_add_test(tc, devices_allow_by_domain_or_interface_name);
    tcase_add_test(tc, devices_describe_names_the_set);
    tcase_add_test(tc, cache_reuses_a_covering_registration);
    tcase_add_test(tc, cache_evicts_least_recently_used_idle_entries);
    tcase_add_test(tc, cache_never_evicts_entries_in_use);
    tcase_add_test(tc, cache_replaces_idle_overlapping_entries);
    tcase_add_test(tc, cache_reports_a_refused_registration);
    tcase_add_test(tc, tune_classes_start_above_one_piece);
    tcase_add_test(tc, tune_tries_both_ways_then_keeps_the_faster);
    tcase_add_test(tc, tune_follows_a_path_that_changes);
    tcase_add_test(tc, tune_one_stalled_read_does_not_change_the_way);
    tcase_add_test(tc, tune_batches_take_turns_of_messages);
    tcase_add_test(tc, spares_cover_every_credit_message_on_the_way);
    tcase_add_test(tc, write_piece_by_provider_unless_set);
    tcase_add_test(tc, write_next_covers_the_message_in_pieces);
    tcase_add_test(tc, sizing_keeps_the_defaults_while_they_fit);
    tcase_add_test(tc, sizing_shrinks_fragments_then_credits_then_fragments);
    tcase_add_test(tc, sizing_never_changes_what_the_user_set);
    tcase_add_test(tc, sizing_setting_refuses_small_or_malformed_budgets);
    tcase_add_test(tc, rail_names_topology_then_allowlist_then_job_interfaces);
    tcase_add_test(tc, rail_plan_per_level);
    tcase_add_test(tc, rail_keys_follow_the_peer_rail_paired);
    tcase_add_test(tc, rail_keys_by_offset_carry_the_base);
    suite_add_tcase(s, tc);
    return comm_test_run(s);
}
