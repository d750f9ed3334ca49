! fort_strings.f90 - integration test of `use mpi`: strings in and out of the library.
!   - MPI_Comm_get_name of MPI_COMM_WORLD; MPI_Comm_set_name with trailing blanks (not part of
!     the name), then MPI_Comm_get_name: the name, its length, blanks after it;
!   - MPI_Get_processor_name: a non-empty name of resultlen characters, blanks after it;
!   - MPI_Error_string of an error class: its resultlen is the length of the text;
!   - info: MPI_Info_set with blanks around key and value (stripped), MPI_Info_get's flag
!     (true, then false for a missing key), its valuelen (a shorter one truncates),
!     MPI_Info_get_valuelen, MPI_Info_get_nkeys, MPI_Info_get_nthkey, MPI_Info_dup,
!     MPI_Info_delete.
! Any number of ranks.  Plain portable MPI.  Prints "fort_strings R: ok" per rank, or
! "FAIL: fort_strings rank R: ..." and aborts the job.
program fort_strings
    use mpi
    implicit none
    integer :: ierr, rank, nprocs, dup, rlen, info, info2, nkeys, vlen
    character(len=MPI_MAX_OBJECT_NAME) :: name
    character(len=MPI_MAX_PROCESSOR_NAME) :: host
    character(len=MPI_MAX_ERROR_STRING) :: text
    character(len=MPI_MAX_INFO_KEY) :: key, key2
    character(len=MPI_MAX_INFO_VAL) :: value
    character(len=5) :: short
    logical :: flag

    call MPI_Init(ierr)
    call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
    call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)

    ! Communicator names.
    name = repeat('x', len(name))
    call MPI_Comm_get_name(MPI_COMM_WORLD, name, rlen, ierr)
    if (ierr /= MPI_SUCCESS) call fail('MPI_Comm_get_name returned an error')
    if (rlen /= 14 .or. name /= 'MPI_COMM_WORLD') &
        call fail('MPI_Comm_get_name of MPI_COMM_WORLD is not "MPI_COMM_WORLD" of length 14')
    call MPI_Comm_dup(MPI_COMM_WORLD, dup, ierr)
    call MPI_Comm_set_name(dup, 'a Fortran name   ', ierr)
    if (ierr /= MPI_SUCCESS) call fail('MPI_Comm_set_name returned an error')
    name = repeat('x', len(name))
    call MPI_Comm_get_name(dup, name, rlen, ierr)
    if (rlen /= 14) call fail('MPI_Comm_get_name: resultlen is not 14 (trailing blanks kept?)')
    if (name(1:14) /= 'a Fortran name') call fail('MPI_Comm_get_name: wrong name')
    if (len_trim(name) /= 14) call fail('MPI_Comm_get_name: no blanks after the name')
    call MPI_Comm_free(dup, ierr)
    if (dup /= MPI_COMM_NULL) call fail('MPI_Comm_free did not set MPI_COMM_NULL')

    ! Processor name.
    host = repeat('x', len(host))
    call MPI_Get_processor_name(host, rlen, ierr)
    if (ierr /= MPI_SUCCESS) call fail('MPI_Get_processor_name returned an error')
    if (rlen < 1 .or. rlen > MPI_MAX_PROCESSOR_NAME) &
        call fail('MPI_Get_processor_name: resultlen out of range')
    if (len_trim(host) /= rlen) &
        call fail('MPI_Get_processor_name: resultlen is not the length of the name')

    ! Error strings.
    text = repeat('x', len(text))
    call MPI_Error_string(MPI_ERR_COMM, text, rlen, ierr)
    if (ierr /= MPI_SUCCESS) call fail('MPI_Error_string returned an error')
    if (rlen < 1 .or. rlen > MPI_MAX_ERROR_STRING) call fail('MPI_Error_string: bad resultlen')
    if (len_trim(text) /= rlen) call fail('MPI_Error_string: resultlen is not the text''s length')
    if (text(1:1) == ' ') call fail('MPI_Error_string: the text starts with a blank')

    ! Info keys and values.
    call MPI_Info_create(info, ierr)
    call MPI_Info_set(info, 'fortran_key   ', '  a value with blanks  ', ierr)
    if (ierr /= MPI_SUCCESS) call fail('MPI_Info_set returned an error')
    call MPI_Info_set(info, 'other', 'x', ierr)
    value = repeat('x', len(value))
    call MPI_Info_get(info, 'fortran_key', len(value), value, flag, ierr)
    if (ierr /= MPI_SUCCESS) call fail('MPI_Info_get returned an error')
    if (.not. flag) call fail('MPI_Info_get: flag false for a key just set')
    if (value /= 'a value with blanks') &
        call fail('MPI_Info_get: value is not "a value with blanks" padded with blanks')
    call MPI_Info_get_valuelen(info, 'fortran_key  ', vlen, flag, ierr)
    if (.not. flag .or. vlen /= 19) call fail('MPI_Info_get_valuelen: not 19 characters')
    short = 'zzzzz'
    call MPI_Info_get(info, 'fortran_key', 3, short, flag, ierr)
    if (.not. flag .or. short /= 'a v') call fail('MPI_Info_get with valuelen 3: not "a v"')
    value = 'unchanged'
    call MPI_Info_get(info, 'no_such_key', len(value), value, flag, ierr)
    if (ierr /= MPI_SUCCESS) call fail('MPI_Info_get of a missing key returned an error')
    if (flag) call fail('MPI_Info_get: flag true for a missing key')
    call MPI_Info_get_nkeys(info, nkeys, ierr)
    if (nkeys /= 2) call fail('MPI_Info_get_nkeys is not 2')
    ! Keys 0 and 1 are the two keys set, in an order the standard leaves open.
    key = repeat('x', len(key))
    call MPI_Info_get_nthkey(info, 0, key, ierr)
    if (ierr /= MPI_SUCCESS) call fail('MPI_Info_get_nthkey returned an error')
    key2 = repeat('x', len(key2))
    call MPI_Info_get_nthkey(info, 1, key2, ierr)
    if (.not. ((key == 'fortran_key' .and. key2 == 'other') .or. &
               (key == 'other' .and. key2 == 'fortran_key'))) &
        call fail('MPI_Info_get_nthkey(0) and (1) are not "fortran_key" and "other" (blank-padded)')
    call MPI_Info_dup(info, info2, ierr)
    call MPI_Info_delete(info, 'fortran_key', ierr)
    call MPI_Info_get(info, 'fortran_key', len(value), value, flag, ierr)
    if (flag) call fail('MPI_Info_delete: the key is still there')
    call MPI_Info_get(info2, 'fortran_key', len(value), value, flag, ierr)
    if (.not. flag .or. value /= 'a value with blanks') call fail('MPI_Info_dup: key not copied')
    call MPI_Info_free(info, ierr)
    call MPI_Info_free(info2, ierr)
    if (info /= MPI_INFO_NULL .or. info2 /= MPI_INFO_NULL) &
        call fail('MPI_Info_free did not set MPI_INFO_NULL')

    write (*, '(a, i0, a)') 'fort_strings ', rank, ': ok'
    call MPI_Finalize(ierr)

contains

    subroutine fail(what)
        character(len=*), intent(in) :: what
        integer :: ierr2

        write (*, '(a, i0, a, a)') 'FAIL: fort_strings rank ', rank, ': ', what
        flush (6)
        call MPI_Abort(MPI_COMM_WORLD, 1, ierr2)
    end subroutine fail
end program fort_strings
