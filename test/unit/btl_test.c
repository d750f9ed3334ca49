/*
 * btl_test.c - the byte-transfer layers on their own: tables complete, the template declines,
 * self delivers to itself, and shm moves fragments between two modules (two "ranks" in one
 * process), wraps its rings, reports a full ring, reads memory with CMA and writes it with
 * write_start, reported at progress.
 */
#include "config.h"

#include "btl/btl.h"
#include "btl/shm/btl_shm.h"
#include "base/error.h"
#include "test/unit/unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern const struct comm_btl_ops comm_btl_self;
extern const struct comm_btl_ops comm_btl_shm;
extern const struct comm_btl_ops comm_btl_ofi;
extern const struct comm_btl_ops comm_btl_template;

static const struct comm_btl_ops *const tables[] = {&comm_btl_self, &comm_btl_shm, &comm_btl_ofi,
                                                    &comm_btl_template};

/* What the receive function saw. */
static long got_peer[256];
static char got_data[256][256];
static size_t got_len[256];
static int got;

static void record(long peer, const void *data, size_t len)
{
    if (got < 256) {
        got_peer[got] = peer;
        got_len[got] = len;
        memcpy(got_data[got], data, len < 256 ? len : 256);
    }
    got++;
}

START_TEST(every_table_is_complete)
{
    for (size_t i = 0; i < sizeof(tables) / sizeof(tables[0]); i++) {
        const struct comm_btl_ops *t = tables[i];

        ck_assert_uint_eq(t->size, sizeof(struct comm_btl_ops));
        ck_assert_ptr_nonnull(t->name);
        ck_assert_ptr_nonnull(t->open);
        ck_assert_ptr_nonnull(t->reaches);
        ck_assert_ptr_nonnull(t->connect);
        ck_assert_ptr_nonnull(t->reserve);
        ck_assert_ptr_nonnull(t->commit);
        ck_assert_ptr_nonnull(t->send);
        ck_assert_ptr_nonnull(t->get);
        ck_assert_ptr_nonnull(t->register_mem);
        ck_assert_ptr_nonnull(t->deregister_mem);
        ck_assert_ptr_nonnull(t->progress);
        ck_assert_ptr_nonnull(t->close);
        ck_assert_ptr_nonnull(t->wired);
        ck_assert_ptr_nonnull(t->flush);
        ck_assert_ptr_nonnull(t->get_start);
        ck_assert_ptr_nonnull(t->put);
        ck_assert_ptr_nonnull(t->put_start);
        ck_assert_ptr_nonnull(t->write_start);
        ck_assert_ptr_nonnull(t->describe);
    }
}
END_TEST

static const long peers2[] = {0, 1};

static struct comm_btl_self_info info_for(long rank, const char *nspace)
{
    return (struct comm_btl_self_info){.nspace = nspace,
                                       .rank = rank,
                                       .size = 2,
                                       .local_rank = rank,
                                       .local_size = 2,
                                       .local_peers = peers2};
}

START_TEST(template_opens_and_reaches_nobody)
{
    struct comm_btl_self_info info = info_for(0, "t");
    struct comm_btl_peer peer = {.rank = 1, .same_host = true, .local_rank = 1};
    struct comm_btl_endpoint *ep;
    struct comm_btl_module *m;

    ck_assert_int_eq(comm_btl_template.open(&info, record, &m), COMM_OK);
    ck_assert(!m->ops->reaches(m, &peer));
    ck_assert_int_eq(m->ops->connect(m, &peer, &ep), COMM_ERR_UNREACHABLE);
    ck_assert_int_eq(m->ops->progress(m), 0);
    m->ops->close(m);
}
END_TEST

START_TEST(self_delivers_at_progress_in_order)
{
    struct comm_btl_self_info info = info_for(0, "t");
    struct comm_btl_peer me = {.rank = 0, .is_self = true, .same_host = true};
    struct comm_btl_endpoint *ep;
    struct comm_btl_module *m;
    char buf[64] = "remote bytes";
    struct iovec iov = {buf + 32, 13};

    got = 0;
    ck_assert_int_eq(comm_btl_self.open(&info, record, &m), COMM_OK);
    ck_assert(m->ops->reaches(m, &me));
    ck_assert_int_eq(m->ops->connect(m, &me, &ep), COMM_OK);
    ck_assert_int_eq(m->ops->send(ep, "ab", 2, "cd", 2), COMM_OK);
    ck_assert_int_eq(m->ops->send(ep, "ef", 2, NULL, 0), COMM_OK);
    ck_assert_int_eq(got, 0); /* nothing before progress */
    ck_assert_int_eq(m->ops->progress(m), 2);
    ck_assert_int_eq(got, 2);
    ck_assert_int_eq(got_len[0], 4);
    ck_assert(memcmp(got_data[0], "abcd", 4) == 0);
    ck_assert(memcmp(got_data[1], "ef", 2) == 0);
    ck_assert_int_eq(m->ops->get(ep, &iov, 1, (uint64_t)(uintptr_t)buf, 0, 13), COMM_OK);
    ck_assert_str_eq(buf + 32, "remote bytes");
    ck_assert_int_eq(m->ops->write_start(ep, &iov, 1, (uint64_t)(uintptr_t)buf, 0, 13, NULL, NULL),
                     COMM_ERR_NOT_SUPPORTED);
    m->ops->close(m);
}
END_TEST

/* Two shm modules, ranks 0 and 1 of a job named after this process, connected both ways. */
static void shm_pair(struct comm_btl_module **m0, struct comm_btl_module **m1,
                     struct comm_btl_endpoint **to1, struct comm_btl_endpoint **to0)
{
    static char nspace[64];
    struct comm_btl_self_info i0, i1;
    struct comm_btl_peer p0 = {.rank = 0, .same_host = true, .local_rank = 0};
    struct comm_btl_peer p1 = {.rank = 1, .same_host = true, .local_rank = 1};

    snprintf(nspace, sizeof(nspace), "comm-btl-test.%ld", (long)getpid());
    i0 = info_for(0, nspace);
    i1 = info_for(1, nspace);
    ck_assert_int_eq(comm_btl_shm.open(&i0, record, m0), COMM_OK);
    ck_assert_int_eq(comm_btl_shm.open(&i1, record, m1), COMM_OK);
    ck_assert(!(*m0)->ops->reaches(
        *m0, &(struct comm_btl_peer){.rank = 0, .is_self = true, .same_host = true}));
    ck_assert((*m0)->ops->reaches(*m0, &p1));
    ck_assert_int_eq((*m0)->ops->connect(*m0, &p1, to1), COMM_OK);
    ck_assert_int_eq((*m1)->ops->connect(*m1, &p0, to0), COMM_OK);
    (*m0)->ops->wired(*m0);
    (*m1)->ops->wired(*m1);
}

START_TEST(shm_moves_fragments_in_order_and_wraps)
{
    struct comm_btl_module *m0, *m1;
    struct comm_btl_endpoint *to1, *to0;
    char msg[32];
    int sent = 0;

    setenv("COMM_SHM_CELLS", "4", 1);
    shm_pair(&m0, &m1, &to1, &to0);
    got = 0;
    /* 4 cells: the fifth send finds the ring full until the receiver drains it. */
    for (int i = 0; i < 4; i++) {
        snprintf(msg, sizeof(msg), "m%d", sent++);
        ck_assert_int_eq(to1->module->ops->send(to1, msg, strlen(msg) + 1, NULL, 0), COMM_OK);
    }
    ck_assert_int_eq(to1->module->ops->send(to1, "x", 2, NULL, 0), COMM_AGAIN);
    ck_assert_int_eq(m1->ops->progress(m1), 4);
    for (int lap = 0; lap < 5; lap++) {
        for (int i = 0; i < 3; i++) {
            snprintf(msg, sizeof(msg), "m%d", sent++);
            ck_assert_int_eq(to1->module->ops->send(to1, msg, strlen(msg) + 1, NULL, 0), COMM_OK);
        }
        while (m1->ops->progress(m1) > 0) {
        }
    }
    ck_assert_int_eq(got, sent);
    for (int i = 0; i < sent; i++) {
        snprintf(msg, sizeof(msg), "m%d", i);
        ck_assert_int_eq(got_peer[i], 0);
        ck_assert_str_eq(got_data[i], msg);
    }
    /* The other direction is its own ring. */
    ck_assert_int_eq(to0->module->ops->send(to0, "back", 5, NULL, 0), COMM_OK);
    ck_assert_int_eq(m1->ops->progress(m1), 0);
    ck_assert_int_eq(m0->ops->progress(m0), 1);
    ck_assert_int_eq(got_peer[got - 1], 1);
    m0->ops->close(m0);
    m1->ops->close(m1);
}
END_TEST

START_TEST(shm_reserve_commit_fills_in_place)
{
    struct comm_btl_module *m0, *m1;
    struct comm_btl_endpoint *to1, *to0;
    void *slot;

    shm_pair(&m0, &m1, &to1, &to0);
    got = 0;
    ck_assert_int_eq(to1->module->ops->reserve(to1, m0->max_fragment + 1, &slot),
                     COMM_ERR_BAD_PARAM);
    ck_assert_int_eq(to1->module->ops->reserve(to1, 6, &slot), COMM_OK);
    memcpy(slot, "inline", 6);
    ck_assert_int_eq(to1->module->ops->commit(to1, slot, 6), COMM_OK);
    ck_assert_int_eq(m1->ops->progress(m1), 1);
    ck_assert_int_eq(got_len[0], 6);
    ck_assert(memcmp(got_data[0], "inline", 6) == 0);
    m0->ops->close(m0);
    m1->ops->close(m1);
}
END_TEST

/* Touching a ring's pages ahead of use (the first fragment does) leaves every byte as it was. */
START_TEST(shm_warming_keeps_contents)
{
    enum { LEN = 3 * 4096 + 100 };
    unsigned char *buf = malloc(LEN + 8), *want = malloc(LEN + 8);

    ck_assert(buf != NULL && want != NULL);
    for (size_t i = 0; i < LEN + 8; i++) {
        buf[i] = want[i] = (unsigned char)(i * 37 + 11);
    }
    comm_btl_shm_warm(buf + 3, LEN, true); /* unaligned start: words from the next 8 bytes */
    comm_btl_shm_warm(buf + 3, LEN, false);
    ck_assert(memcmp(buf, want, LEN + 8) == 0);
    free(buf);
    free(want);
}
END_TEST

START_TEST(shm_reads_peer_memory_with_cma)
{
    struct comm_btl_module *m0, *m1;
    struct comm_btl_endpoint *to1, *to0;
    static char src[100000], dst1[60000], dst2[40000];
    struct iovec iov[2] = {{dst1, sizeof(dst1)}, {dst2, sizeof(dst2)}};

    for (size_t i = 0; i < sizeof(src); i++) {
        src[i] = (char)(i * 7);
    }
    shm_pair(&m0, &m1, &to1, &to0);
    ck_assert_int_eq(to0->module->ops->get(to0, iov, 2, (uint64_t)(uintptr_t)src, 0, sizeof(src)),
                     COMM_OK);
    ck_assert(memcmp(dst1, src, sizeof(dst1)) == 0);
    ck_assert(memcmp(dst2, src + sizeof(dst1), sizeof(dst2)) == 0);
    m0->ops->close(m0);
    m1->ops->close(m1);
}
END_TEST

START_TEST(shm_writes_peer_memory_with_cma)
{
    struct comm_btl_module *m0, *m1;
    struct comm_btl_endpoint *to1, *to0;
    static char src1[70000], src2[30000], dst[100000 + 16];
    struct iovec iov[2] = {{src1, sizeof(src1)}, {src2, sizeof(src2)}};

    for (size_t i = 0; i < sizeof(src1); i++) {
        src1[i] = (char)(i * 5 + 1);
    }
    for (size_t i = 0; i < sizeof(src2); i++) {
        src2[i] = (char)(i * 3 + 2);
    }
    memset(dst, 'z', sizeof(dst));
    shm_pair(&m0, &m1, &to1, &to0);
    ck_assert_int_eq(to0->module->ops->put(to0, NULL, 0, 0, 0, 0), COMM_OK);
    /* Both pieces, at an offset, and not a byte beyond them. */
    ck_assert_int_eq(to0->module->ops->put(to0, iov, 2, (uint64_t)(uintptr_t)(dst + 8), 0,
                                           sizeof(src1) + sizeof(src2)),
                     COMM_OK);
    ck_assert(memcmp(dst + 8, src1, sizeof(src1)) == 0);
    ck_assert(memcmp(dst + 8 + sizeof(src1), src2, sizeof(src2)) == 0);
    for (size_t i = 0; i < 8; i++) {
        ck_assert_int_eq(dst[i], 'z');
        ck_assert_int_eq(dst[sizeof(dst) - 1 - i], 'z');
    }
    m0->ops->close(m0);
    m1->ops->close(m1);
}
END_TEST

/* What write_start's done functions saw. */
static int written_calls;
static int written_status;
static void *written_ctx;

static void note_written(void *ctx, int status)
{
    written_calls++;
    written_status = status;
    written_ctx = ctx;
}

START_TEST(shm_write_start_lands_at_once_and_reports_at_progress)
{
    struct comm_btl_module *m0, *m1;
    struct comm_btl_endpoint *to1, *to0;
    static char src1[50000], src2[20000], dst[70000 + 16];
    struct iovec iov[2] = {{src1, sizeof(src1)}, {src2, sizeof(src2)}};
    int tag = 0;

    for (size_t i = 0; i < sizeof(src1); i++) {
        src1[i] = (char)(i * 5 + 1);
    }
    for (size_t i = 0; i < sizeof(src2); i++) {
        src2[i] = (char)(i * 3 + 2);
    }
    memset(dst, 'z', sizeof(dst));
    written_calls = 0;
    shm_pair(&m0, &m1, &to1, &to0);
    ck_assert_int_eq(to0->module->ops->write_start(to0, NULL, 0, 0, 0, 0, note_written, &tag),
                     COMM_OK);
    ck_assert_int_eq(to0->module->ops->write_start(to0, iov, 2, (uint64_t)(uintptr_t)(dst + 8), 0,
                                                   sizeof(src1) + sizeof(src2), note_written, &tag),
                     COMM_OK);
    /* In place at once, but reported only by the writer's next progress call. */
    ck_assert_int_eq(written_calls, 0);
    ck_assert(memcmp(dst + 8, src1, sizeof(src1)) == 0);
    ck_assert(memcmp(dst + 8 + sizeof(src1), src2, sizeof(src2)) == 0);
    for (size_t i = 0; i < 8; i++) {
        ck_assert_int_eq(dst[i], 'z');
        ck_assert_int_eq(dst[sizeof(dst) - 1 - i], 'z');
    }
    ck_assert_int_eq(m0->ops->progress(m0), 0);
    ck_assert_int_eq(written_calls, 0);
    ck_assert_int_eq(m1->ops->progress(m1), 1);
    ck_assert_int_eq(written_calls, 1);
    ck_assert_int_eq(written_status, COMM_OK);
    ck_assert_ptr_eq(written_ctx, &tag);
    ck_assert_int_eq(m1->ops->progress(m1), 0);
    ck_assert_int_eq(written_calls, 1);
    /* Too few local bytes: refused, nothing reported. */
    ck_assert_int_eq(to0->module->ops->write_start(to0, iov, 1, (uint64_t)(uintptr_t)dst, 0,
                                                   sizeof(src1) + 1, note_written, &tag),
                     COMM_ERR_BAD_PARAM);
    ck_assert_int_eq(m1->ops->progress(m1), 0);
    ck_assert_int_eq(written_calls, 1);
    /* A write not reported yet is dropped at close. */
    ck_assert_int_eq(to0->module->ops->write_start(to0, iov, 1, (uint64_t)(uintptr_t)dst, 0, 16,
                                                   note_written, &tag),
                     COMM_OK);
    m0->ops->close(m0);
    m1->ops->close(m1);
    ck_assert_int_eq(written_calls, 1);
}
END_TEST

START_TEST(shm_split_size_is_read)
{
    struct comm_btl_module *m0, *m1;
    struct comm_btl_endpoint *to1, *to0;

    shm_pair(&m0, &m1, &to1, &to0);
    ck_assert_uint_eq(m0->split_min, 16384);
    m0->ops->close(m0);
    m1->ops->close(m1);
    setenv("COMM_SHM_SPLIT_SIZE", "0", 1);
    shm_pair(&m0, &m1, &to1, &to0);
    ck_assert_uint_eq(m0->split_min, 0);
    m0->ops->close(m0);
    m1->ops->close(m1);
    unsetenv("COMM_SHM_SPLIT_SIZE");
}
END_TEST

START_TEST(shm_without_cma_refuses_get)
{
    struct comm_btl_module *m0, *m1;
    struct comm_btl_endpoint *to1, *to0;
    char src[8] = "abcdefg", dst[8];
    struct iovec iov = {dst, sizeof(dst)};

    setenv("COMM_SHM_CMA", "0", 1);
    shm_pair(&m0, &m1, &to1, &to0);
    ck_assert_int_eq(to0->module->ops->get(to0, &iov, 1, (uint64_t)(uintptr_t)src, 0, 8),
                     COMM_ERR_NOT_SUPPORTED);
    ck_assert_int_eq(to0->module->ops->put(to0, NULL, 0, 0, 0, 0), COMM_ERR_NOT_SUPPORTED);
    ck_assert_int_eq(to0->module->ops->put(to0, &iov, 1, (uint64_t)(uintptr_t)src, 0, 8),
                     COMM_ERR_NOT_SUPPORTED);
    ck_assert_int_eq(
        to0->module->ops->write_start(to0, &iov, 1, (uint64_t)(uintptr_t)src, 0, 8, NULL, NULL),
        COMM_ERR_NOT_SUPPORTED);
    m0->ops->close(m0);
    m1->ops->close(m1);
}
END_TEST

START_TEST(shm_disabled_declines)
{
    struct comm_btl_self_info info = info_for(0, "t");
    struct comm_btl_module *m;

    setenv("COMM_SHM", "0", 1);
    ck_assert_int_eq(comm_btl_shm.open(&info, record, &m), COMM_ERR_NOT_FOUND);
}
END_TEST

START_TEST(shm_eager_limit_must_fit_a_fragment)
{
    struct comm_btl_self_info info = info_for(0, "t");
    struct comm_btl_module *m;

    setenv("COMM_SHM_EAGER_LIMIT", "8192", 1);
    setenv("COMM_SHM_FRAGMENT_SIZE", "4096", 1);
    ck_assert_int_eq(comm_btl_shm.open(&info, record, &m), COMM_ERR_BAD_PARAM);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("btl");
    TCase *tc = comm_test_case("btl");

    unsetenv("COMM_SHM");
    unsetenv("COMM_SHM_CMA");
    unsetenv("COMM_SHM_CELLS");
    unsetenv("COMM_SHM_EAGER_LIMIT");
    unsetenv("COMM_SHM_FRAGMENT_SIZE");
    tcase_add_test(tc, every_table_is_complete);
    tcase_add_test(tc, template_opens_and_reaches_nobody);
    tcase_add_test(tc, self_delivers_at_progress_in_order);
    tcase_add_test(tc, shm_moves_fragments_in_order_and_wraps);
    tcase_add_test(tc, shm_reserve_commit_fills_in_place);
    tcase_add_test(tc, shm_warming_keeps_contents);
    tcase_add_test(tc, shm_reads_peer_memory_with_cma);
    tcase_add_test(tc, shm_writes_peer_memory_with_cma);
    tcase_add_test(tc, shm_write_start_lands_at_once_and_reports_at_progress);
    tcase_add_test(tc, shm_split_size_is_read);
    tcase_add_test(tc, shm_without_cma_refuses_get);
    tcase_add_test(tc, shm_disabled_declines);
    tcase_add_test(tc, shm_eager_limit_must_fit_a_fragment);
    suite_add_tcase(s, tc);
    return comm_test_run(s);
}
