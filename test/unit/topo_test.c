/*
 * topo_test.c - the cluster tree: hostlists, topology files (Slurm's and comm's), the model's
 * answers, its written form, every rule a bad file breaks (test/topo/bad-*.conf, each naming its
 * error on its first line), and random mutations of the good files (test/topo/good-*.conf),
 * which must each be read or refused with a message, never crash or hang.
 */
#include "base/error.h"
#include "topo/topo.h"
#include "topo/topo_hw.h"

#include "test/unit/unit.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char err[COMM_TOPO_ERROR_LEN];

/* The good files of the corpus (test/topo/good-*.conf). */
static const char *const good_files[] = {"good-slurm-two-tier.conf", "good-slurm-three-tier.conf",
                                         "good-comm-rails.conf", "good-slurm-unbalanced.conf"};

/* Expands TEXT and checks the names, given as one space-separated string. */
static void expect_names(const char *text, const char *want)
{
    struct comm_topo_names names;
    char got[4096] = "";

    ck_assert_msg(comm_topo_hostlist(text, &names, err, sizeof(err)) == COMM_OK, "%s: %s", text,
                  err);
    for (size_t i = 0; i < names.n; i++) {
        strcat(got, i ? " " : "");
        strcat(got, names.v[i]);
    }
    ck_assert_str_eq(got, want);
    comm_topo_names_free(&names);
}

static void expect_refused(const char *text, const char *why)
{
    struct comm_topo_names names = {0};

    err[0] = '\0';
    ck_assert_msg(comm_topo_hostlist(text, &names, err, sizeof(err)) == COMM_ERR_BAD_PARAM,
                  "'%s' was accepted", text);
    ck_assert_msg(strstr(err, why) != NULL, "'%s': '%s' does not say '%s'", text, err, why);
    ck_assert_uint_eq(names.n, 0);
}

START_TEST(hostlists_expand_ranges_padding_and_products)
{
    expect_names("tux[0-3,7]", "tux0 tux1 tux2 tux3 tux7");
    expect_names("n[001-003]", "n001 n002 n003");
    expect_names("n[08-11]", "n08 n09 n10 n11");
    expect_names("n[9-11]", "n9 n10 n11");
    expect_names("r[1-2]n[1-2]", "r1n1 r1n2 r2n1 r2n2");
    expect_names("login,b[1-2],c.example-1", "login b1 b2 c.example-1");
    expect_names("rack[0-1]-node", "rack0-node rack1-node");
    expect_names("x", "x");
}
END_TEST

START_TEST(hostlists_refuse_what_is_malformed)
{
    expect_refused("", "an empty name");
    expect_refused("a,,b", "an empty name");
    expect_refused("tux[0-3", "a '[' without its ']'");
    expect_refused("tux]", "a ']' without its '['");
    expect_refused("n[9-2]", "the range 9-2 goes down");
    expect_refused("n[a-b]", "expected a number");
    expect_refused("n[]", "an empty range '[]'");
    expect_refused("n[1-2,]", "ends in ','");
    expect_refused("n[[1]]", "brackets inside brackets");
    expect_refused("a b", "' ' cannot be in a name");
    expect_refused("n[0-2000000]", "more than 1048576 names");
    expect_refused("n[1234567890]", "a number above");
}
END_TEST

/* NAMES (space-separated) written as a hostlist give WANT, which expands back to NAMES. */
static void expect_string(const char *names, const char *want)
{
    char copy[512], *v[64], *save = NULL, *text;
    size_t n = 0;

    snprintf(copy, sizeof(copy), "%s", names);
    for (char *t = strtok_r(copy, " ", &save); t != NULL; t = strtok_r(NULL, " ", &save)) {
        v[n++] = t;
    }
    text = comm_topo_hostlist_string(v, n);
    ck_assert_ptr_nonnull(text);
    ck_assert_str_eq(text, want);
    expect_names(text, names);
    free(text);
}

START_TEST(hostlists_are_written_short_and_read_back_the_same)
{
    expect_string("tux0 tux1 tux2 tux3 tux7", "tux[0-3,7]");
    expect_string("n001 n002 n010", "n[001-002,010]");
    expect_string("n8 n9 n10 n11", "n[8-9],n[10-11]");
    expect_string("login", "login");
    expect_string("a1 b1", "a1,b1");
    expect_string("r1n1 r1n2 r2n1", "r1n[1-2],r2n1");
    expect_string("n3 n1 n2", "n[3,1-2]");
}
END_TEST

/* Reads test/topo/NAME, or fails the test. */
static char *corpus_read(const char *name)
{
    char path[1024];
    FILE *f;
    char *text = malloc(1 << 16);
    size_t n;

    snprintf(path, sizeof(path), "%s/%s", TOPO_CORPUS, name);
    f = fopen(path, "r");
    ck_assert_msg(f != NULL, "cannot read %s", path);
    ck_assert_ptr_nonnull(text);
    n = fread(text, 1, (1 << 16) - 1, f);
    text[n] = '\0';
    fclose(f);
    return text;
}

static struct comm_topo *parse_corpus(const char *name)
{
    struct comm_topo *t = NULL;
    char *text = corpus_read(name);

    ck_assert_msg(comm_topo_parse(name, text, &t, err, sizeof(err)) == COMM_OK, "%s: %s", name,
                  err);
    free(text);
    return t;
}

static const char *switch_at(const struct comm_topo *t, const char *host, int level)
{
    int h = comm_topo_host_find(t, host), s;

    ck_assert_msg(h >= 0, "host %s not found", host);
    s = comm_topo_ancestor(t, h, level);
    return s < 0 ? "-" : t->switches[s].name;
}

START_TEST(slurm_files_give_levels_and_ancestors)
{
    struct comm_topo *t = parse_corpus("good-slurm-two-tier.conf");

    ck_assert_int_eq(t->format, COMM_TOPO_FORMAT_SLURM);
    ck_assert_int_eq(t->nlevels, 3);
    ck_assert_str_eq(t->level_names[0], "host");
    ck_assert_str_eq(t->level_names[1], "rack");
    ck_assert_str_eq(t->level_names[2], "spine");
    ck_assert_uint_eq(t->nhosts, 8);
    ck_assert_str_eq(switch_at(t, "tux5", 1), "s1");
    ck_assert_str_eq(switch_at(t, "tux5", 2), "s2");
    ck_assert_int_eq(t->switches[2].link_speed, 400);
    ck_assert_int_eq(comm_topo_host_find(t, "tux8"), -1);
    comm_topo_free(t);

    t = parse_corpus("good-slurm-three-tier.conf");
    ck_assert_int_eq(t->nlevels, 4);
    ck_assert_str_eq(t->level_names[2], "pod");
    ck_assert_str_eq(t->level_names[3], "spine");
    ck_assert_str_eq(switch_at(t, "h0", 1), "rack0");
    ck_assert_str_eq(switch_at(t, "h7", 1), "rack3");
    ck_assert_str_eq(switch_at(t, "h7", 2), "pod1");
    ck_assert_str_eq(switch_at(t, "h2", 3), "spine");
    ck_assert_str_eq(switch_at(t, "h7", 4), "-");
    ck_assert_str_eq(switch_at(t, "h7", 0), "-");
    comm_topo_free(t);

    /* r0 sits straight under the top: its hosts skip the pod level. */
    t = parse_corpus("good-slurm-unbalanced.conf");
    ck_assert_int_eq(t->nlevels, 4);
    ck_assert_str_eq(switch_at(t, "login", 1), "r0");
    ck_assert_str_eq(switch_at(t, "login", 2), "-");
    ck_assert_str_eq(switch_at(t, "login", 3), "top");
    ck_assert_str_eq(switch_at(t, "b2", 2), "pod");
    ck_assert_str_eq(switch_at(t, "b2", 3), "top");
    comm_topo_free(t);
}
END_TEST

START_TEST(comm_files_give_fabrics_rails_and_level_names)
{
    struct comm_topo *t = parse_corpus("good-comm-rails.conf");
    int h = comm_topo_host_find(t, "n003");

    ck_assert_int_eq(t->format, COMM_TOPO_FORMAT_COMM);
    ck_assert_int_eq(t->nlevels, 3);
    ck_assert_str_eq(t->level_names[2], "spine");
    ck_assert_int_ge(h, 0);
    ck_assert_str_eq(t->hosts[h].nics, "eth1,eth2");
    ck_assert_str_eq(t->switches[0].provider, "tcp");
    ck_assert_str_eq(t->switches[2].provider, "verbs");
    ck_assert_str_eq(t->switches[2].nics, "mlx5_[0-1]");
    ck_assert_int_eq(t->switches[2].link_speed, 200);
    comm_topo_free(t);
}
END_TEST

/* Every bad file is refused with the error its first line names ("# error: TEXT"). */
START_TEST(bad_files_are_refused_with_file_line_and_fault)
{
    DIR *d = opendir(TOPO_CORPUS);
    struct dirent *e;
    int checked = 0;

    ck_assert_ptr_nonnull(d);
    while ((e = readdir(d)) != NULL) {
        struct comm_topo *t = NULL;
        char *text, *want, *end;

        if (strncmp(e->d_name, "bad-", 4) != 0) {
            continue;
        }
        text = corpus_read(e->d_name);
        ck_assert_msg(strncmp(text, "# error: ", 9) == 0, "%s: no '# error:' line", e->d_name);
        want = strdup(text + 9);
        end = strchr(want, '\n');
        *end = '\0';
        err[0] = '\0';
        ck_assert_msg(comm_topo_parse(e->d_name, text, &t, err, sizeof(err)) ==
                          COMM_ERR_BAD_PARAM,
                      "%s was accepted", e->d_name);
        ck_assert_ptr_null(t);
        ck_assert_msg(strstr(err, want) == err, "%s: got '%s', expected '%s'", e->d_name, err,
                      want);
        free(want);
        free(text);
        checked++;
    }
    closedir(d);
    ck_assert_int_ge(checked, 14);
}
END_TEST

START_TEST(missing_files_and_binary_files_are_named)
{
    struct comm_topo *t = NULL;
    char path[] = "/tmp/comm-topo-test.XXXXXX";
    int fd;

    ck_assert_int_eq(comm_topo_load("/nonexistent/topology.conf", &t, err, sizeof(err)),
                     COMM_ERR_NOT_FOUND);
    ck_assert_ptr_nonnull(strstr(err, "/nonexistent/topology.conf: cannot read it"));
    fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, "SwitchName=s0 Nodes=a\0b\n", 24), 24);
    close(fd);
    ck_assert_int_eq(comm_topo_load(path, &t, err, sizeof(err)), COMM_ERR_BAD_PARAM);
    ck_assert_ptr_nonnull(strstr(err, "holds a NUL byte"));
    unlink(path);
    ck_assert_int_eq(comm_topo_parse("f", "SwitchName=s0 Nodes=a\x01\n", &t, err, sizeof(err)),
                     COMM_ERR_BAD_PARAM);
    ck_assert_str_eq(err, "f:1: a character that is not text (byte 0x01)");
}
END_TEST

/* What comm_topo_write gives for T, in a string the caller frees. */
static char *written(const struct comm_topo *t)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);

    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(comm_topo_write(t, f), COMM_OK);
    fclose(f);
    return text;
}

START_TEST(written_trees_read_back_the_same_and_digests_ignore_layout)
{
    struct comm_topo *a, *b, *c;
    char *text, *again;

    for (size_t i = 0; i < sizeof(good_files) / sizeof(good_files[0]); i++) {
        a = parse_corpus(good_files[i]);
        text = written(a);
        ck_assert_msg(comm_topo_parse("written", text, &b, err, sizeof(err)) == COMM_OK, "%s",
                      err);
        again = written(b);
        ck_assert_str_eq(again, text);
        ck_assert_uint_eq(a->digest, b->digest);
        ck_assert_uint_eq(a->nhosts, b->nhosts);
        ck_assert_int_eq(a->nlevels, b->nlevels);
        free(text);
        free(again);
        comm_topo_free(a);
        comm_topo_free(b);
    }
    /* Case, spacing, comments and how hostlists are cut do not change the tree's digest. */
    a = parse_corpus("good-slurm-two-tier.conf");
    ck_assert_int_eq(comm_topo_parse("other", "switchname=s0 nodes=tux[0-1],tux[2-3] "
                                              "linkspeed=100 # rack one\n\n"
                                              "SwitchName=s1   Nodes=tux4,tux5,tux[6-7] "
                                              "LinkSpeed=100\nSwitchName=s2 Switches=s0,s1 "
                                              "LinkSpeed=400\n",
                                     &b, err, sizeof(err)),
                     COMM_OK);
    ck_assert_uint_eq(a->digest, b->digest);
    /* A different tree, a different digest. */
    ck_assert_int_eq(comm_topo_parse("third", "SwitchName=s0 Nodes=tux[0-4] LinkSpeed=100\n"
                                              "SwitchName=s1 Nodes=tux[5-7] LinkSpeed=100\n"
                                              "SwitchName=s2 Switches=s[0-1] LinkSpeed=400\n",
                                     &c, err, sizeof(err)),
                     COMM_OK);
    ck_assert_uint_ne(a->digest, c->digest);
    comm_topo_free(a);
    comm_topo_free(b);
    comm_topo_free(c);
}
END_TEST

START_TEST(unknown_keys_are_warned_once_and_ignored)
{
    char path[] = "/tmp/comm-topo-log.XXXXXX", buf[4096];
    int fd = mkstemp(path), saved = dup(2);
    struct comm_topo *t = NULL;
    ssize_t n;
    int count = 0;

    ck_assert_int_ge(fd, 0);
    ck_assert_int_ge(dup2(fd, 2), 0);
    ck_assert_int_eq(comm_topo_parse("keys.conf",
                                     "SwitchName=s0 Nodes=a0 Colour=red\n"
                                     "SwitchName=s1 Nodes=a1 colour=blue\n"
                                     "BlockName=b0 Nodes=a[0-1]\n",
                                     &t, err, sizeof(err)),
                     COMM_OK);
    dup2(saved, 2);
    close(saved);
    n = pread(fd, buf, sizeof(buf) - 1, 0);
    close(fd);
    unlink(path);
    ck_assert_int_gt(n, 0);
    buf[n] = '\0';
    ck_assert_msg(strstr(buf, "keys.conf:1: unknown key 'Colour' ignored") != NULL, "%s", buf);
    ck_assert_msg(strstr(buf, "keys.conf:3: unknown key 'BlockName' ignored") != NULL, "%s",
                  buf);
    for (char *p = buf; (p = strstr(p, "unknown key")) != NULL; p++) {
        count++;
    }
    ck_assert_int_eq(count, 2);
    ck_assert_uint_eq(t->nhosts, 2);
    comm_topo_free(t);
}
END_TEST

START_TEST(ten_thousand_hosts_load_and_are_found)
{
    size_t cap = 1 << 20, len = 0;
    char *text = malloc(cap);
    struct comm_topo *t = NULL;

    ck_assert_ptr_nonnull(text);
    /* 250 racks of 40 hosts, 10 pods of 25 racks, one spine. */
    for (int r = 0; r < 250; r++) {
        len += (size_t)snprintf(text + len, cap - len, "SwitchName=r%d Nodes=n[%05d-%05d]\n", r,
                                r * 40, r * 40 + 39);
    }
    for (int p = 0; p < 10; p++) {
        len += (size_t)snprintf(text + len, cap - len, "SwitchName=pod%d Switches=r[%d-%d]\n", p,
                                p * 25, p * 25 + 24);
    }
    snprintf(text + len, cap - len, "SwitchName=spine Switches=pod[0-9]\n");
    ck_assert_msg(comm_topo_parse("big", text, &t, err, sizeof(err)) == COMM_OK, "%s", err);
    ck_assert_uint_eq(t->nhosts, 10000);
    ck_assert_int_eq(t->nlevels, 4);
    ck_assert_str_eq(switch_at(t, "n09999", 1), "r249");
    ck_assert_str_eq(switch_at(t, "n09999", 2), "pod9");
    ck_assert_str_eq(switch_at(t, "n00000", 3), "spine");
    comm_topo_free(t);
    free(text);
}
END_TEST

/* A deterministic generator for the mutations. */
static uint64_t fuzz_next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

START_TEST(mutated_files_are_read_or_refused_never_crashed)
{
    static const char alphabet[] = "[]-,=# \n\\0123456789sSnN";
    uint64_t seed = 0x9e3779b97f4a7c15ULL;
    int read_back = 0, refused = 0, quiet = open("/dev/null", O_WRONLY);

    /* Mutated keys are warned about by the thousand: not into the test's log. */
    ck_assert_int_ge(quiet, 0);
    ck_assert_int_ge(dup2(quiet, 2), 0);

    for (size_t f = 0; f < sizeof(good_files) / sizeof(good_files[0]); f++) {
        char *orig = corpus_read(good_files[f]);
        size_t olen = strlen(orig);

        for (int round = 0; round < 1500; round++) {
            char buf[4096];
            size_t len = olen;
            int edits = 1 + (int)(fuzz_next(&seed) % 4);
            struct comm_topo *t = NULL;
            int rc;

            memcpy(buf, orig, olen + 1);
            for (int e = 0; e < edits && len > 1 && len < sizeof(buf) - 2; e++) {
                size_t at = fuzz_next(&seed) % len;
                char c = alphabet[fuzz_next(&seed) % (sizeof(alphabet) - 1)];

                switch (fuzz_next(&seed) % 3) {
                case 0: /* replace */
                    buf[at] = c;
                    break;
                case 1: /* insert */
                    memmove(buf + at + 1, buf + at, len - at + 1);
                    buf[at] = c;
                    len++;
                    break;
                default: /* delete */
                    memmove(buf + at, buf + at + 1, len - at);
                    len--;
                    break;
                }
            }
            err[0] = '\0';
            rc = comm_topo_parse("fuzz", buf, &t, err, sizeof(err));
            COMM_CHECK(rc == COMM_OK || rc == COMM_ERR_BAD_PARAM, "status %d for:\n%s", rc, buf);
            if (rc == COMM_OK) {
                char *text = written(t);
                struct comm_topo *u = NULL;

                COMM_CHECK(comm_topo_parse("again", text, &u, err, sizeof(err)) == COMM_OK &&
                               u->digest == t->digest,
                           "the written form of\n%s\ndoes not read back: %s", buf, err);
                free(text);
                comm_topo_free(u);
                comm_topo_free(t);
                read_back++;
            } else {
                COMM_CHECK(strncmp(err, "fuzz:", 5) == 0, "refused without file:line: '%s'",
                           err);
                refused++;
            }
        }
        free(orig);
    }
    /* Both outcomes were reached: the mutations do test the parser. */
    ck_assert_int_gt(read_back, 100);
    ck_assert_int_gt(refused, 100);
}
END_TEST

/* Members with one key share a group, numbered by first member, led by their first member. */
START_TEST(groups_follow_keys_and_lead_with_their_first_member)
{
    const long keys[] = {3, 1, 3, 0, 1, 3};
    const int group[] = {0, 1, 0, 2, 1, 0}, leader[] = {0, 1, 3}, size[] = {3, 2, 1};
    const long bad[] = {0, 4};
    struct comm_topo_groups g;

    ck_assert_int_eq(comm_topo_group(keys, 6, 4, &g), COMM_OK);
    ck_assert_int_eq(g.ngroups, 3);
    ck_assert_mem_eq(g.group, group, sizeof(group));
    ck_assert_mem_eq(g.leader, leader, sizeof(leader));
    ck_assert_mem_eq(g.size, size, sizeof(size));
    comm_topo_groups_free(&g);
    ck_assert_int_eq(comm_topo_group(keys, 0, 4, &g), COMM_OK);
    ck_assert_int_eq(g.ngroups, 0);
    comm_topo_groups_free(&g);
    ck_assert_int_eq(comm_topo_group(bad, 2, 4, &g), COMM_ERR_BAD_PARAM);
    ck_assert_ptr_null(g.group);
}
END_TEST

START_TEST(hwloc_levels_are_named_in_any_case_and_as_uris)
{
    ck_assert_int_eq(comm_topo_hw_find("Package"), COMM_TOPO_HW_PACKAGE);
    ck_assert_int_eq(comm_topo_hw_find("numanode"), COMM_TOPO_HW_NUMANODE);
    ck_assert_int_eq(comm_topo_hw_find("hwloc://L3Cache"), COMM_TOPO_HW_L3CACHE);
    ck_assert_int_eq(comm_topo_hw_find("CORE"), COMM_TOPO_HW_CORE);
    ck_assert_int_eq(comm_topo_hw_find("rack"), -1);
    ck_assert_int_eq(comm_topo_hw_find("hwloc://"), -1);
    ck_assert_int_eq(comm_topo_hw_find(NULL), -1);
    ck_assert_str_eq(comm_topo_hw_name(COMM_TOPO_HW_NUMANODE), "NUMANode");
}
END_TEST

/*
 * A host described by HWLOC_XMLFILE (2 packages, 2 NUMA nodes each, one L3 per NUMA node, 2
 * cores per L3, 2 PUs per core): local rank i sits on core i mod 8, as the launcher would bind it.
 */
START_TEST(xml_hosts_place_ranks_on_the_cores_a_launcher_would_bind)
{
    static const struct {
        long local_rank;
        int package, numa, l3, core, pu;
    } want[] = {
        {0, 0, 0, 0, 0, 0},  {1, 0, 0, 0, 1, 2}, {2, 0, 1, 1, 2, 4},   {5, 1, 2, 2, 5, 10},
        {7, 1, 3, 3, 7, 14}, {9, 0, 0, 0, 1, 2}, {15, 1, 3, 3, 7, 14},
    };
    struct comm_topo_hw_place p;

    ck_assert_int_eq(setenv("HWLOC_XMLFILE", TOPO_CORPUS "/hw/pack2-numa2-l3-core2-pu2.xml", 1),
                     0);
    for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
        ck_assert_int_eq(comm_topo_hw_place(want[i].local_rank, &p, err, sizeof(err)), COMM_OK);
        ck_assert_msg(p.index[COMM_TOPO_HW_PACKAGE] == want[i].package &&
                          p.index[COMM_TOPO_HW_NUMANODE] == want[i].numa &&
                          p.index[COMM_TOPO_HW_L3CACHE] == want[i].l3 &&
                          p.index[COMM_TOPO_HW_CORE] == want[i].core &&
                          p.index[COMM_TOPO_HW_PU] == want[i].pu,
                      "local rank %ld: package %d numa %d l3 %d core %d pu %d", want[i].local_rank,
                      p.index[COMM_TOPO_HW_PACKAGE], p.index[COMM_TOPO_HW_NUMANODE],
                      p.index[COMM_TOPO_HW_L3CACHE], p.index[COMM_TOPO_HW_CORE],
                      p.index[COMM_TOPO_HW_PU]);
        ck_assert(p.from_xml);
        ck_assert(!p.bound);
    }
    ck_assert_int_eq(p.count[COMM_TOPO_HW_PACKAGE], 2);
    ck_assert_int_eq(p.count[COMM_TOPO_HW_NUMANODE], 4);
    ck_assert_int_eq(p.count[COMM_TOPO_HW_L3CACHE], 4);
    ck_assert_int_eq(p.count[COMM_TOPO_HW_CORE], 8);
    ck_assert_int_eq(p.count[COMM_TOPO_HW_PU], 16);
    /* The file has no L2 or L1 caches: no instance holds the rank there. */
    ck_assert_int_eq(p.count[COMM_TOPO_HW_L2CACHE], 0);
    ck_assert_int_eq(p.index[COMM_TOPO_HW_L2CACHE], -1);

    ck_assert_int_eq(setenv("HWLOC_XMLFILE", TOPO_CORPUS "/hw/core3.xml", 1), 0);
    ck_assert_int_eq(comm_topo_hw_place(4, &p, err, sizeof(err)), COMM_OK);
    ck_assert_int_eq(p.count[COMM_TOPO_HW_CORE], 3);
    ck_assert_int_eq(p.index[COMM_TOPO_HW_CORE], 1);
    ck_assert_int_eq(p.index[COMM_TOPO_HW_PACKAGE], -1);

    ck_assert_int_eq(setenv("HWLOC_XMLFILE", TOPO_CORPUS "/hw/no-such-host.xml", 1), 0);
    ck_assert_int_eq(comm_topo_hw_place(0, &p, err, sizeof(err)), COMM_ERR_SYSTEM);
    ck_assert_msg(strstr(err, "no-such-host.xml") != NULL, "error: %s", err);
    /* A file hwloc cannot parse is named too (hwloc alone would read this host instead). */
    ck_assert_int_eq(setenv("HWLOC_XMLFILE", TOPO_CORPUS "/good-slurm-two-tier.conf", 1), 0);
    ck_assert_int_eq(comm_topo_hw_place(0, &p, err, sizeof(err)), COMM_ERR_SYSTEM);
    ck_assert_msg(strstr(err, "cannot parse HWLOC_XMLFILE") != NULL, "error: %s", err);
    unsetenv("HWLOC_XMLFILE");
    /* This host: every rank has a core. */
    ck_assert_int_eq(comm_topo_hw_place(0, &p, err, sizeof(err)), COMM_OK);
    ck_assert(!p.from_xml);
    ck_assert_int_ge(p.index[COMM_TOPO_HW_CORE], 0);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("topo");
    TCase *tc = comm_test_case("topo");

    tcase_add_test(tc, hostlists_expand_ranges_padding_and_products);
    tcase_add_test(tc, hostlists_refuse_what_is_malformed);
    tcase_add_test(tc, hostlists_are_written_short_and_read_back_the_same);
    tcase_add_test(tc, slurm_files_give_levels_and_ancestors);
    tcase_add_test(tc, comm_files_give_fabrics_rails_and_level_names);
    tcase_add_test(tc, bad_files_are_refused_with_file_line_and_fault);
    tcase_add_test(tc, missing_files_and_binary_files_are_named);
    tcase_add_test(tc, written_trees_read_back_the_same_and_digests_ignore_layout);
    tcase_add_test(tc, unknown_keys_are_warned_once_and_ignored);
    tcase_add_test(tc, ten_thousand_hosts_load_and_are_found);
    tcase_add_test(tc, mutated_files_are_read_or_refused_never_crashed);
    tcase_add_test(tc, groups_follow_keys_and_lead_with_their_first_member);
    tcase_add_test(tc, hwloc_levels_are_named_in_any_case_and_as_uris);
    tcase_add_test(tc, xml_hosts_place_ranks_on_the_cores_a_launcher_would_bind);
    suite_add_tcase(s, tc);
    return comm_test_run(s);
}
