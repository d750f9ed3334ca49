/*
 * scan.c - the registry of prefix reduction algorithms.
 *
 * Layer: coll.
 */
#include "config.h"

#include "coll/scan/scan.h"

const struct comm_coll_algorithm comm_coll_scan_algorithms[] = {
    {.name = "recursive_doubling", .fn.scan = comm_coll_scan_recursive_doubling},
};

const size_t comm_coll_scan_nalgorithms =
    sizeof(comm_coll_scan_algorithms) / sizeof(comm_coll_scan_algorithms[0]);

size_t comm_coll_scan_choose(const struct comm_coll_call *call)
{
    (void)call;
    return 0;
}
