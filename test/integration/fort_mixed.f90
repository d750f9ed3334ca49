! fort_mixed.f90 - the Fortran half of fort_mixed (its main is C, fort_mixed_c.c): called with
! MPI_COMM_WORLD, a communicator, a datatype and a receive request that C made (as Fortran
! handles from MPI_<Kind>_c2f) and a status from MPI_Status_c2f.  It checks them against
! Fortran's own view (MPI_COMM_WORLD is Fortran's MPI_COMM_WORLD; the communicator has the
! ranks reversed), sends on the communicator with C's datatype to the right, completes C's
! request, and gives C a datatype and a receive request (into FBUF, C's memory) of its own.
subroutine fort_mixed_half(world, comm, ctype, creq, cstatus, fbuf, ftype, freq) &
    bind(C, name='fort_mixed_half')
    use, intrinsic :: iso_c_binding, only: c_int
    use mpi
    implicit none
    integer(c_int) :: world, comm, ctype, creq, ftype, freq
    integer(c_int) :: cstatus(MPI_STATUS_SIZE)
    integer(c_int) :: fbuf(2)
    integer :: ierr, rank, crank, nprocs, left, right, result, i, cnt
    integer :: ibuf(6), status(MPI_STATUS_SIZE)

    call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
    if (world /= MPI_COMM_WORLD) call fail('C''s MPI_COMM_WORLD is not Fortran''s')
    call MPI_Comm_size(world, nprocs, ierr)
    call MPI_Comm_rank(comm, crank, ierr)
    if (ierr /= MPI_SUCCESS) call fail('MPI_Comm_rank of C''s communicator returned an error')
    if (crank /= nprocs - 1 - rank) call fail('C''s communicator does not have the ranks reversed')
    call MPI_Comm_compare(comm, MPI_COMM_WORLD, result, ierr)
    if ((nprocs > 1 .and. result /= MPI_SIMILAR) .or. (nprocs == 1 .and. result /= MPI_CONGRUENT)) &
        call fail('MPI_Comm_compare of C''s communicator and MPI_COMM_WORLD')
    right = mod(crank + 1, nprocs)
    left = mod(crank - 1 + nprocs, nprocs)
    if (cstatus(MPI_SOURCE) /= left .or. cstatus(MPI_TAG) /= 7) &
        call fail('the status from MPI_Status_c2f has the wrong MPI_SOURCE or MPI_TAG')
    call MPI_Get_count(cstatus, MPI_INTEGER, cnt, ierr)
    if (cnt /= 1) call fail('MPI_Get_count of the status from MPI_Status_c2f is not 1')

    ! C's datatype: every other integer of 6.
    call MPI_Type_size(ctype, cnt, ierr)
    if (ierr /= MPI_SUCCESS .or. cnt /= 12) call fail('MPI_Type_size of C''s datatype is not 12')
    ibuf = [(100 * crank + i - 1, i = 1, 6)]
    call MPI_Send(ibuf, 1, ctype, right, 5, comm, ierr)
    if (ierr /= MPI_SUCCESS) call fail('MPI_Send with C''s datatype returned an error')
    call MPI_Wait(creq, status, ierr)
    if (ierr /= MPI_SUCCESS) call fail('MPI_Wait of C''s request returned an error')
    if (creq /= MPI_REQUEST_NULL) call fail('MPI_Wait of C''s request did not set MPI_REQUEST_NULL')
    if (status(MPI_SOURCE) /= left .or. status(MPI_TAG) /= 5) &
        call fail('MPI_Wait of C''s request: wrong status')

    ! A datatype and a request for C.
    call MPI_Type_contiguous(2, MPI_INTEGER, ftype, ierr)
    call MPI_Type_commit(ftype, ierr)
    call MPI_Irecv(fbuf, 1, ftype, left, 9, comm, freq, ierr)
    if (ierr /= MPI_SUCCESS) call fail('MPI_Irecv for C returned an error')

contains

    subroutine fail(what)
        character(len=*), intent(in) :: what
        integer :: ierr2

        write (*, '(a, i0, a, a)') 'FAIL: fort_mixed rank ', rank, ': ', what
        flush (6)
        call MPI_Abort(MPI_COMM_WORLD, 1, ierr2)
    end subroutine fail
end subroutine fort_mixed_half
