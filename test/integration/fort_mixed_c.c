/*
 * fort_mixed_c.c - the C half of fort_mixed, and its main: handles cross between C and Fortran
 * (fort_mixed.f90) through MPI_<Kind>_c2f and MPI_<Kind>_f2c, and both languages communicate
 * on the same communicator.
 *
 * C makes a communicator (MPI_Comm_split, ranks reversed), a datatype (every other int of 6),
 * a receive request (MPI_Irecv of that datatype from the left) and a status (from a Sendrecv),
 * and hands the Fortran half MPI_COMM_WORLD, the three handles and the status as Fortran
 * values.  The Fortran half checks them, sends on the communicator with C's datatype, completes
 * C's request with MPI_Wait, and hands back a datatype and a receive request of its own, which
 * C uses (MPI_Send) and completes (MPI_Wait) after MPI_Type_f2c and MPI_Request_f2c.
 *
 * Any number of ranks (1 included).  Plain portable MPI.  Prints "fort_mixed R: ok" per rank,
 * or "FAIL: fort_mixed rank R: ..." and aborts the job.
 */
#include <mpi.h>

#include <stdio.h>

/* fort_mixed.f90; every argument by reference, handles as Fortran INTEGERs. */
void fort_mixed_half(MPI_Fint *world, MPI_Fint *comm, MPI_Fint *ctype, MPI_Fint *creq,
                     MPI_Fint *cstatus, int *fbuf, MPI_Fint *ftype_out, MPI_Fint *freq_out);

/* Fortran's status size: MPI_F_STATUS_SIZE since MPI 4.0; room enough before. */
#ifdef MPI_F_STATUS_SIZE
#define FORT_STATUS_SIZE MPI_F_STATUS_SIZE
#else
#define FORT_STATUS_SIZE 16
#endif

static int rank;

static void fail(const char *what)
{
    printf("FAIL: fort_mixed rank %d: %s\n", rank, what);
    fflush(stdout);
    MPI_Abort(MPI_COMM_WORLD, 1);
}

int main(int argc, char **argv)
{
    MPI_Comm comm;
    MPI_Datatype ctype, ftype;
    MPI_Request req, freq;
    MPI_Status status;
    MPI_Fint fworld, fcomm, fctype, fcreq, fstatus[FORT_STATUS_SIZE], fftype, ffreq;
    int nprocs, crank, left, right, i, x, y, ok, all_ok;
    int cbuf[6], fbuf[2] = {-1, -1}, send[2];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    if (MPI_Comm_split(MPI_COMM_WORLD, 0, nprocs - rank, &comm) != MPI_SUCCESS) {
        fail("MPI_Comm_split returned an error");
    }
    MPI_Comm_rank(comm, &crank);
    if (crank != nprocs - 1 - rank) {
        fail("MPI_Comm_split did not reverse the ranks");
    }
    right = (crank + 1) % nprocs;
    left = (crank - 1 + nprocs) % nprocs;
    MPI_Type_vector(3, 1, 2, MPI_INT, &ctype);
    MPI_Type_commit(&ctype);
    for (i = 0; i < 6; i++) {
        cbuf[i] = -1;
    }
    MPI_Irecv(cbuf, 1, ctype, left, 5, comm, &req);
    x = crank;
    MPI_Sendrecv(&x, 1, MPI_INT, right, 7, &y, 1, MPI_INT, left, 7, comm, &status);
    if (y != left) {
        fail("MPI_Sendrecv on the split communicator: wrong data");
    }

    fworld = MPI_Comm_c2f(MPI_COMM_WORLD);
    fcomm = MPI_Comm_c2f(comm);
    fctype = MPI_Type_c2f(ctype);
    fcreq = MPI_Request_c2f(req);
    if (MPI_Status_c2f(&status, fstatus) != MPI_SUCCESS) {
        fail("MPI_Status_c2f returned an error");
    }
    if (MPI_Comm_f2c(fcomm) != comm || MPI_Type_f2c(fctype) != ctype ||
        MPI_Comm_f2c(fworld) != MPI_COMM_WORLD) {
        fail("MPI_<Kind>_f2c of MPI_<Kind>_c2f is not the handle itself");
    }
    fort_mixed_half(&fworld, &fcomm, &fctype, &fcreq, fstatus, fbuf, &fftype, &ffreq);

    /* Fortran completed C's request: its Fortran value is now MPI_REQUEST_NULL's. */
    if (MPI_Request_f2c(fcreq) != MPI_REQUEST_NULL) {
        fail("the request MPI_Wait completed in Fortran is not MPI_REQUEST_NULL in C");
    }
    for (i = 0; i < 6; i++) {
        int expect = i % 2 == 0 ? 100 * left + i : -1;

        if (cbuf[i] != expect) {
            fail("what Fortran sent with C's datatype arrived wrong");
        }
    }
    /* Fortran's datatype and request, used from C. */
    ftype = MPI_Type_f2c(fftype);
    freq = MPI_Request_f2c(ffreq);
    if (ftype == MPI_DATATYPE_NULL || freq == MPI_REQUEST_NULL) {
        fail("MPI_Type_f2c or MPI_Request_f2c of Fortran's handles gave a null handle");
    }
    send[0] = 10 * crank + 1;
    send[1] = 10 * crank + 2;
    MPI_Send(send, 1, ftype, right, 9, comm);
    if (MPI_Wait(&freq, &status) != MPI_SUCCESS || freq != MPI_REQUEST_NULL) {
        fail("MPI_Wait in C of Fortran's request");
    }
    if (status.MPI_SOURCE != left || status.MPI_TAG != 9) {
        fail("MPI_Wait in C of Fortran's request: wrong status");
    }
    if (fbuf[0] != 10 * left + 1 || fbuf[1] != 10 * left + 2) {
        fail("Fortran's receive with its own datatype: wrong data");
    }
    ok = 1;
    MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_SUM, comm);
    if (all_ok != nprocs) {
        fail("MPI_Allreduce on the split communicator: wrong sum");
    }
    MPI_Type_free(&ftype);
    MPI_Type_free(&ctype);
    MPI_Comm_free(&comm);
    printf("fort_mixed %d: ok\n", rank);
    MPI_Finalize();
    return 0;
}
