/*
 * progress.c - how a rank waits: polling the transports, spinning, and yielding the core when
 * ranks outnumber cores.
 *
 * Layer: runtime core.  Must not: sleep in the kernel while waiting for a message (waking an
 * idle core costs tens of microseconds here); yielding keeps the core busy for the others.
 */
#include "config.h"

#include "runtime/p2p.h"
#include "runtime/error.h"
#include "runtime/log.h"

#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/sysinfo.h>

static int progress_check_yield(const char *value, char *expected_out, size_t len);

static const struct comm_setting progress_settings[] = {
    {.name = "COMM_WAIT_YIELD",
     .type = COMM_SETTING_STRING,
     .default_value = "auto",
     .help = "give up the core while waiting: auto (when ranks outnumber cores), 1 (always), "
             "0 (never: spin)",
     .audience = COMM_AUDIENCE_TUNER,
     .check = progress_check_yield},
};

const struct comm_setting_table comm_progress_settings = {
    .component = "runtime",
    .count = sizeof(progress_settings) / sizeof(progress_settings[0]),
    .settings = progress_settings,
};

/* Guarded by: set at init. */
static bool progress_polite = false;

static int progress_check_yield(const char *value, char *expected_out, size_t len)
{
    bool b;

    if (strcmp(value, "auto") == 0 || comm_config_parse_bool(value, &b) == COMM_OK) {
        return COMM_OK;
    }
    snprintf(expected_out, len, "auto, 1 or 0");
    return COMM_ERR_BAD_PARAM;
}

int comm_progress_init(long local_size)
{
    const char *value;
    long cores = get_nprocs();
    int rc = comm_config_get_string(&progress_settings[0], &value);

    if (rc < 0) {
        return rc;
    }
    if (strcmp(value, "auto") == 0) {
        progress_polite = local_size > cores;
        if (progress_polite) {
            comm_log_info("runtime", "%ld ranks share %ld cores on this host: waiting ranks "
                          "yield their core", local_size, cores);
        }
    } else {
        comm_config_parse_bool(value, &progress_polite);
    }
    return COMM_OK;
}

bool comm_progress_is_polite(void)
{
    return progress_polite;
}

void comm_progress_until(const bool *flag)
{
    unsigned idle = 0;

    while (!*(volatile const bool *)flag) {
        if (comm_progress() > 0) {
            idle = 0;
            continue;
        }
        /* Spinning ranks must still let a same-core thread or process run now and then. */
        if (progress_polite || (++idle & 1023) == 0) {
            sched_yield();
        }
    }
}
