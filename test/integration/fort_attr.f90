! fort_attr.f90 - integration test of `use mpi`: attributes.
!   - MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB) is set and at least 32767, and the MPI-1
!     MPI_Attr_get gives the same as an INTEGER;
!   - a keyval with MPI_COMM_DUP_FN: a 64-bit value set on a communicator is copied by
!     MPI_Comm_dup; one with MPI_COMM_NULL_COPY_FN is not;
!   - a keyval with copy and delete callbacks written in Fortran: the copy gets the old
!     communicator, the keyval, extra_state and the value and returns value + 1; the delete is
!     called on MPI_Comm_delete_attr and on MPI_Comm_free with the value;
!   - MPI_Comm_free_keyval.
! Any number of ranks.  Plain portable MPI.  Prints "fort_attr R: ok" per rank, or
! "FAIL: fort_attr rank R: ..." and aborts the job.

module fort_attr_seen
    use mpi, only: MPI_ADDRESS_KIND
    implicit none
    integer :: copies = 0, deletes = 0, copy_oldcomm = -1, copy_keyval = -1
    integer(kind=MPI_ADDRESS_KIND) :: copy_extra = -1, last_deleted = -1
end module fort_attr_seen

subroutine copy_plus_one(oldcomm, keyval, extra_state, val_in, val_out, flag, ierror)
    use mpi
    use fort_attr_seen
    implicit none
    integer :: oldcomm, keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: extra_state, val_in, val_out
    logical :: flag

    copies = copies + 1
    copy_oldcomm = oldcomm
    copy_keyval = keyval
    copy_extra = extra_state
    val_out = val_in + 1
    flag = .true.
    ierror = MPI_SUCCESS
end subroutine copy_plus_one

subroutine delete_count(comm, keyval, val, extra_state, ierror)
    use mpi
    use fort_attr_seen
    implicit none
    integer :: comm, keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: val, extra_state

    if (comm == MPI_COMM_NULL .or. keyval == MPI_KEYVAL_INVALID .or. extra_state /= 77) then
        ierror = MPI_ERR_OTHER
        return
    end if
    deletes = deletes + 1
    last_deleted = val
    ierror = MPI_SUCCESS
end subroutine delete_count

program fort_attr
    use mpi
    use fort_attr_seen
    implicit none
    external :: copy_plus_one, delete_count
    integer :: ierr, rank, nprocs, kdup, knull, kuser, dup, dup2, ival
    integer(kind=MPI_ADDRESS_KIND) :: val, extra
    integer(kind=MPI_ADDRESS_KIND), parameter :: big = 12345678901_MPI_ADDRESS_KIND
    logical :: flag

    call MPI_Init(ierr)
    call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
    call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)

    ! The predefined MPI_TAG_UB.
    val = -1
    flag = .false.
    call MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, val, flag, ierr)
    if (ierr /= MPI_SUCCESS) call fail('MPI_Comm_get_attr(MPI_TAG_UB) returned an error')
    if (.not. flag) call fail('MPI_Comm_get_attr(MPI_TAG_UB): flag is false')
    if (val < 32767) call fail('MPI_Comm_get_attr(MPI_TAG_UB) is below 32767')
    ival = -1
    call MPI_Attr_get(MPI_COMM_WORLD, MPI_TAG_UB, ival, flag, ierr)
    if (ierr /= MPI_SUCCESS .or. .not. flag .or. ival /= val) &
        call fail('MPI_Attr_get(MPI_TAG_UB) is not the value MPI_Comm_get_attr gives')

    ! MPI_COMM_DUP_FN copies, MPI_COMM_NULL_COPY_FN does not.
    extra = 0
    call MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, kdup, extra, ierr)
    if (ierr /= MPI_SUCCESS) call fail('MPI_Comm_create_keyval(MPI_COMM_DUP_FN) returned an error')
    call MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, knull, extra, &
                                ierr)
    call MPI_Comm_set_attr(MPI_COMM_WORLD, kdup, big + rank, ierr)
    if (ierr /= MPI_SUCCESS) call fail('MPI_Comm_set_attr returned an error')
    call MPI_Comm_set_attr(MPI_COMM_WORLD, knull, 5_MPI_ADDRESS_KIND, ierr)
    call MPI_Comm_get_attr(MPI_COMM_WORLD, kdup, val, flag, ierr)
    if (.not. flag .or. val /= big + rank) &
        call fail('MPI_Comm_get_attr does not give the 64-bit value set')
    call MPI_Comm_dup(MPI_COMM_WORLD, dup, ierr)
    val = -1
    call MPI_Comm_get_attr(dup, kdup, val, flag, ierr)
    if (ierr /= MPI_SUCCESS .or. .not. flag .or. val /= big + rank) &
        call fail('MPI_COMM_DUP_FN: the attribute was not copied by MPI_Comm_dup')
    call MPI_Comm_get_attr(dup, knull, val, flag, ierr)
    if (flag) call fail('MPI_COMM_NULL_COPY_FN: the attribute was copied by MPI_Comm_dup')

    ! Fortran callbacks.
    extra = 77
    call MPI_Comm_create_keyval(copy_plus_one, delete_count, kuser, extra, ierr)
    if (ierr /= MPI_SUCCESS) &
        call fail('MPI_Comm_create_keyval (Fortran callbacks) returned an error')
    call MPI_Comm_set_attr(dup, kuser, 1000_MPI_ADDRESS_KIND + rank, ierr)
    call MPI_Comm_dup(dup, dup2, ierr)
    if (copies /= 1) call fail('the Fortran copy callback was not called once by MPI_Comm_dup')
    if (copy_oldcomm /= dup .or. copy_keyval /= kuser .or. copy_extra /= 77) &
        call fail('the Fortran copy callback got the wrong communicator, keyval or extra_state')
    call MPI_Comm_get_attr(dup2, kuser, val, flag, ierr)
    if (.not. flag .or. val /= 1001 + rank) &
        call fail('the Fortran copy callback''s value did not reach the new communicator')
    call MPI_Comm_delete_attr(dup, kuser, ierr)
    if (ierr /= MPI_SUCCESS) call fail('MPI_Comm_delete_attr returned an error')
    if (deletes /= 1 .or. last_deleted /= 1000 + rank) &
        call fail('MPI_Comm_delete_attr did not call the Fortran delete callback with the value')
    call MPI_Comm_get_attr(dup, kuser, val, flag, ierr)
    if (flag) call fail('MPI_Comm_delete_attr: the attribute is still there')
    call MPI_Comm_free(dup2, ierr)
    if (deletes /= 2 .or. last_deleted /= 1001 + rank) &
        call fail('MPI_Comm_free did not call the Fortran delete callback with the value')

    call MPI_Comm_free_keyval(kuser, ierr)
    if (ierr /= MPI_SUCCESS .or. kuser /= MPI_KEYVAL_INVALID) &
        call fail('MPI_Comm_free_keyval did not set MPI_KEYVAL_INVALID')
    call MPI_Comm_free(dup, ierr)
    call MPI_Comm_delete_attr(MPI_COMM_WORLD, kdup, ierr)
    call MPI_Comm_delete_attr(MPI_COMM_WORLD, knull, ierr)
    call MPI_Comm_free_keyval(kdup, ierr)
    call MPI_Comm_free_keyval(knull, ierr)
    if (ierr /= MPI_SUCCESS) call fail('MPI_Comm_free_keyval returned an error')

    write (*, '(a, i0, a)') 'fort_attr ', rank, ': ok'
    call MPI_Finalize(ierr)

contains

    subroutine fail(what)
        character(len=*), intent(in) :: what
        integer :: ierr2

        write (*, '(a, i0, a, a)') 'FAIL: fort_attr rank ', rank, ': ', what
        flush (6)
        call MPI_Abort(MPI_COMM_WORLD, 1, ierr2)
    end subroutine fail
end program fort_attr
