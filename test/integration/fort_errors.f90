! fort_errors.f90 - integration test of `use mpi`: error handlers.
!   - MPI_ERRORS_RETURN on a duplicate of MPI_COMM_WORLD (MPI_Comm_get_errhandler gives it
!     back); then bad calls (a rank, a count, a tag out of range) return their code through
!     ierror: MPI_Error_class gives the class, MPI_Error_string a text of resultlen characters;
!   - a handler written in Fortran (MPI_Comm_create_errhandler) on another duplicate: a bad
!     call and MPI_Comm_call_errhandler call it with that communicator and the code, and the
!     call returns the code; MPI_Errhandler_free.
! Any number of ranks.  Plain portable MPI.  Prints "fort_errors R: ok" per rank, or
! "FAIL: fort_errors rank R: ..." and aborts the job.

! What the handler saw.
module fort_errors_seen
    implicit none
    integer :: calls = 0
    integer :: seen_comm = -1
    integer :: seen_code = -1
end module fort_errors_seen

subroutine record_error(comm, code)
    use fort_errors_seen
    implicit none
    integer :: comm, code

    calls = calls + 1
    seen_comm = comm
    seen_code = code
end subroutine record_error

program fort_errors
    use mpi
    use fort_errors_seen
    implicit none
    external :: record_error
    integer :: ierr, rank, nprocs, comm, comm2, errh, got, cls
    integer :: buf(4)

    call MPI_Init(ierr)
    call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
    call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
    buf = 0

    ! MPI_ERRORS_RETURN: the codes come back through ierror.
    call MPI_Comm_dup(MPI_COMM_WORLD, comm, ierr)
    call MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN, ierr)
    if (ierr /= MPI_SUCCESS) call fail('MPI_Comm_set_errhandler returned an error')
    call MPI_Comm_get_errhandler(comm, got, ierr)
    if (ierr /= MPI_SUCCESS .or. got /= MPI_ERRORS_RETURN) &
        call fail('MPI_Comm_get_errhandler does not give MPI_ERRORS_RETURN back')
    call MPI_Errhandler_free(got, ierr)
    ierr = MPI_SUCCESS
    call MPI_Send(buf, 1, MPI_INTEGER, nprocs + 3, 0, comm, ierr)
    call expect_class(ierr, MPI_ERR_RANK, 'MPI_Send to rank nprocs + 3')
    ierr = MPI_SUCCESS
    call MPI_Send(buf, -1, MPI_INTEGER, rank, 0, comm, ierr)
    call expect_class(ierr, MPI_ERR_COUNT, 'MPI_Send of count -1')
    ierr = MPI_SUCCESS
    call MPI_Send(buf, 1, MPI_INTEGER, rank, -5, comm, ierr)
    call expect_class(ierr, MPI_ERR_TAG, 'MPI_Send with tag -5')
    ! The communicator still works.
    call MPI_Allreduce(1, buf(1), 1, MPI_INTEGER, MPI_SUM, comm, ierr)
    if (ierr /= MPI_SUCCESS .or. buf(1) /= nprocs) &
        call fail('the communicator does not work after errors were returned')

    ! A Fortran handler.
    call MPI_Comm_create_errhandler(record_error, errh, ierr)
    if (ierr /= MPI_SUCCESS) call fail('MPI_Comm_create_errhandler returned an error')
    call MPI_Comm_dup(MPI_COMM_WORLD, comm2, ierr)
    call MPI_Comm_set_errhandler(comm2, errh, ierr)
    if (ierr /= MPI_SUCCESS) &
        call fail('MPI_Comm_set_errhandler (Fortran handler) returned an error')
    call MPI_Errhandler_free(errh, ierr)
    if (errh /= MPI_ERRHANDLER_NULL) &
        call fail('MPI_Errhandler_free did not set MPI_ERRHANDLER_NULL')
    ierr = MPI_SUCCESS
    call MPI_Send(buf, 1, MPI_INTEGER, -7, 0, comm2, ierr)
    if (calls /= 1) call fail('the Fortran error handler was not called once for a bad rank')
    if (seen_comm /= comm2) call fail('the Fortran error handler got another communicator')
    call expect_class(seen_code, MPI_ERR_RANK, 'the code given to the Fortran error handler')
    if (ierr /= seen_code) call fail('the call did not return the code its handler got')
    call MPI_Comm_call_errhandler(comm2, MPI_ERR_OTHER, ierr)
    if (calls /= 2 .or. seen_comm /= comm2 .or. seen_code /= MPI_ERR_OTHER) &
        call fail('MPI_Comm_call_errhandler did not call the Fortran handler with MPI_ERR_OTHER')
    ! Not on the other communicator.
    call MPI_Comm_call_errhandler(comm, MPI_ERR_OTHER, ierr)
    if (calls /= 2) call fail('the Fortran handler was called for another communicator')
    call MPI_Error_class(MPI_ERR_OTHER, cls, ierr)
    if (cls /= MPI_ERR_OTHER) call fail('MPI_Error_class of a class is not itself')

    call MPI_Comm_free(comm2, ierr)
    call MPI_Comm_free(comm, ierr)
    write (*, '(a, i0, a)') 'fort_errors ', rank, ': ok'
    call MPI_Finalize(ierr)

contains

    ! CODE, returned by WHAT, must be an error of class CLS with a text.
    subroutine expect_class(code, cls, what)
        integer, intent(in) :: code, cls
        character(len=*), intent(in) :: what
        character(len=MPI_MAX_ERROR_STRING) :: text
        integer :: got_cls, rlen, ierr2

        if (code == MPI_SUCCESS) call fail(what // ' succeeded; an error was expected')
        call MPI_Error_class(code, got_cls, ierr2)
        if (ierr2 /= MPI_SUCCESS) call fail(what // ': MPI_Error_class returned an error')
        if (got_cls /= cls) call fail(what // ': the error is of another class')
        text = repeat('x', len(text))
        rlen = -1
        call MPI_Error_string(code, text, rlen, ierr2)
        if (ierr2 /= MPI_SUCCESS) call fail(what // ': MPI_Error_string returned an error')
        if (rlen < 1 .or. len_trim(text) /= rlen) &
            call fail(what // ': the error string is empty or resultlen is not its length')
    end subroutine expect_class

    subroutine fail(what)
        character(len=*), intent(in) :: what
        integer :: ierr2

        write (*, '(a, i0, a, a)') 'FAIL: fort_errors rank ', rank, ': ', what
        flush (6)
        call MPI_Abort(MPI_COMM_WORLD, 1, ierr2)
    end subroutine fail
end program fort_errors
