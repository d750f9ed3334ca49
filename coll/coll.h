/*
 * coll.h - the contract of collective algorithms (no algorithm exists yet).
 *
 * Layer: coll, between the runtime API (which calls collectives through a communicator's
 * table) and the runtime core (point-to-point, which the algorithms use).
 *
 * Contract, for the algorithms to come:
 * - one algorithm per file, coll/<op>/<op>_<algorithm>.c, a plain function with the common
 *   signature of its operation, registered in coll/<op>/<op>.c with its name and restrictions;
 * - the selector fills a communicator's table when the communicator is created, per topology
 *   level and message size; COMM_COLL_<OP>=<name> forces an algorithm;
 * - the runtime core never names coll/; it calls through that table.
 */
#ifndef COMM_COLL_H
#define COMM_COLL_H

#endif
