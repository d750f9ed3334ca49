/*
 * topo_split - MPI_Comm_split_type by hardware, as a job sees it.
 *
 *   topo_split RESOURCE...   for each RESOURCE, MPI_COMM_TYPE_HW_GUIDED with
 *                            mpi_hw_resource_type=RESOURCE ("-" passes no info at all)
 *   topo_split unguided      MPI_COMM_TYPE_HW_UNGUIDED again and again, each time on the
 *                            communicator the last call gave, down to MPI_COMM_NULL
 *
 * Every rank prints one line per split, which the test's expect file checks:
 *   split RESOURCE rank R: N members W0,W1,... (world ranks) info VALUE
 *   split RESOURCE rank R: null
 * and the program checks what MPI promises: the new communicator is the ranks that gave it
 * the same instance (each rank sees the same member list as its fellows), ranks are ordered
 * by the key (here: descending world rank), UNGUIDED's results are strict subsets, and the
 * info key names the resource.
 */
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(cond)                                                                         \
    do {                                                                                    \
        if (!(cond)) {                                                                      \
            fprintf(stderr, "topo_split: rank %d: check failed at line %d: %s\n", world_rank, \
                    __LINE__, #cond);                                                       \
            MPI_Abort(MPI_COMM_WORLD, 1);                                                   \
        }                                                                                   \
    } while (0)

static int world_rank, world_size;

/* Prints NEWCOMM's members, checks their order and that every member lists the same. */
static void report(const char *what, MPI_Comm newcomm, const char *want_info)
{
    int size, rank, *members, *first, flag = 0;
    char line[4096], value[MPI_MAX_INFO_VAL + 1] = "";
    size_t n;
    MPI_Info info;

    if (newcomm == MPI_COMM_NULL) {
        printf("split %s rank %d: null\n", what, world_rank);
        return;
    }
    MPI_Comm_size(newcomm, &size);
    MPI_Comm_rank(newcomm, &rank);
    members = malloc((size_t)size * sizeof(*members));
    first = malloc((size_t)size * sizeof(*first));
    CHECK(members != NULL && first != NULL);
    MPI_Allgather(&world_rank, 1, MPI_INT, members, 1, MPI_INT, newcomm);
    /* The key is -world_rank: members come in descending world rank. */
    for (int i = 1; i < size; i++) {
        CHECK(members[i - 1] > members[i]);
    }
    CHECK(members[rank] == world_rank);
    memcpy(first, members, (size_t)size * sizeof(*first));
    MPI_Bcast(first, size, MPI_INT, 0, newcomm);
    CHECK(memcmp(first, members, (size_t)size * sizeof(*first)) == 0);
    MPI_Comm_get_info(newcomm, &info);
    MPI_Info_get(info, "mpi_hw_resource_type", MPI_MAX_INFO_VAL, value, &flag);
    MPI_Info_free(&info);
    CHECK(flag);
    if (want_info != NULL) {
        CHECK(strcmp(value, want_info) == 0);
    }
    n = (size_t)snprintf(line, sizeof(line), "split %s rank %d: %d members ", what, world_rank,
                         size);
    for (int i = size - 1; i >= 0 && n < sizeof(line); i--) {
        n += (size_t)snprintf(line + n, sizeof(line) - n, "%s%d", i == size - 1 ? "" : ",",
                              members[i]);
    }
    printf("%s info %s\n", line, value);
    free(members);
    free(first);
}

static void guided(const char *resource)
{
    MPI_Comm newcomm = MPI_COMM_WORLD;
    MPI_Info info = MPI_INFO_NULL;

    if (strcmp(resource, "-") != 0) {
        MPI_Info_create(&info);
        MPI_Info_set(info, "mpi_hw_resource_type", resource);
    }
    CHECK(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_GUIDED, -world_rank, info,
                              &newcomm) == MPI_SUCCESS);
    if (info != MPI_INFO_NULL) {
        MPI_Info_free(&info);
    }
    report(resource, newcomm, resource);
    if (newcomm != MPI_COMM_NULL) {
        MPI_Comm_free(&newcomm);
    }
}

static void unguided(void)
{
    MPI_Comm comm = MPI_COMM_WORLD;
    int depth = 0, size = world_size;

    while (comm != MPI_COMM_NULL) {
        MPI_Comm newcomm = MPI_COMM_WORLD;
        char what[32];
        int newsize;

        CHECK(MPI_Comm_split_type(comm, MPI_COMM_TYPE_HW_UNGUIDED, -world_rank, MPI_INFO_NULL,
                                  &newcomm) == MPI_SUCCESS);
        snprintf(what, sizeof(what), "unguided-%d", ++depth);
        report(what, newcomm, NULL);
        if (newcomm != MPI_COMM_NULL) {
            MPI_Comm_size(newcomm, &newsize);
            CHECK(newsize < size); /* a strict subset */
            size = newsize;
        }
        if (comm != MPI_COMM_WORLD) {
            MPI_Comm_free(&comm);
        }
        comm = newcomm;
        CHECK(depth < 64);
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &world_size);
    if (argc < 2) {
        if (world_rank == 0) {
            fprintf(stderr, "usage: topo_split RESOURCE... | unguided\n");
        }
        MPI_Finalize();
        return 2;
    }
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "unguided") == 0) {
            unguided();
        } else {
            guided(argv[i]);
        }
    }
    MPI_Finalize();
    return 0;
}
