/*
 * coll_remake.h - for the collective tests: communicators made, used and freed many times
 * must leave nothing behind (no mapping of a shared segment, where /proc lists them).
 *
 * Include after p2p_check.h (fail, CHECK, CHECK_MPI) in a program that defines `rank`.
 */
#ifndef COLL_REMAKE_H
#define COLL_REMAKE_H

#include <stdio.h>

/* Mappings of this process, where the system lists them (-1 elsewhere). */
static long mapping_count(void)
{
    FILE *f = fopen("/proc/self/maps", "r");
    long n = 0;
    int c;

    if (f == NULL) {
        return -1;
    }
    while ((c = fgetc(f)) != EOF) {
        n += c == '\n';
    }
    fclose(f);
    return n;
}

/* 150 communicators (dups and splits of MPI_COMM_WORLD), each given to USE(comm, i) once and
 * freed: the process must not hold more mappings afterwards. */
static void remake_check(void (*use)(MPI_Comm comm, int i))
{
    long before = -1, after = -1;

    /* Once first, so that what the library keeps for good is already there. */
    for (int round = 0; round < 2; round++) {
        before = mapping_count();
        for (int i = 0; i < (round == 0 ? 1 : 150); i++) {
            MPI_Comm c;

            if (i % 2) {
                CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &c));
            } else {
                CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, rank % 3, rank, &c));
            }
            use(c, i);
            CHECK_MPI(MPI_Comm_free(&c));
        }
        after = mapping_count();
    }
    if (before >= 0 && after > before + 8) {
        fail(__LINE__, "%ld mappings before 150 communicators were made and freed, %ld after",
             before, after);
    }
}

#endif
