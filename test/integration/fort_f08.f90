! fort_f08.f90 - integration test of `use mpi_f08`: the handle types, optional ierror left out
! (but checked where given), choice buffers as arrays and array sections.
!   - handles: == and /= on type(MPI_Comm), type(MPI_Datatype), type(MPI_Request), type(MPI_Op);
!     MPI_Comm_dup / MPI_Comm_free to MPI_COMM_NULL;
!   - point to point: MPI_Sendrecv with MPI_ANY_SOURCE/MPI_ANY_TAG and type(MPI_Status)
!     (%MPI_SOURCE, %MPI_TAG, MPI_Get_count); MPI_Isend/MPI_Irecv with MPI_Waitall on a
!     type(MPI_Status) array and with MPI_STATUSES_IGNORE; MPI_Iprobe's LOGICAL flag,
!     MPI_Probe; MPI_STATUS_IGNORE;
!   - array sections: a contiguous column a(:, j) and a strided row a(i, :) sent and received
!     with MPI_Send/MPI_Recv (and nonblocking when MPI_SUBARRAYS_SUPPORTED); a 2-D section;
!   - MPI_Type_vector over a column and over a row;
!   - collectives: MPI_Allreduce, MPI_Gather at the root and MPI_Scan with MPI_IN_PLACE,
!     MPI_Bcast, MPI_Allgather; MPI_Bcast of MPI_BOTTOM with a struct of absolute addresses
!     (MPI_Get_address);
!   - MPI_Wtime and MPI_Wtick.
! Any number of ranks (1 included).  Plain portable MPI.  Prints "fort_f08 R: ok" per rank, or
! "FAIL: fort_f08 rank R: ..." and aborts the job.
! What MPI_BOTTOM reaches: module variables, so that the compiler knows any call may change them.
module fort_f08_data
    implicit none
    integer :: bottom_i(3)
    double precision :: bottom_d
end module fort_f08_data

program fort_f08
    use mpi_f08
    use fort_f08_data
    implicit none
    integer, parameter :: NR = 4, NC = 6
    integer :: rank, nprocs, left, right, i, j, n, ierr
    type(MPI_Comm) :: comm, dup
    type(MPI_Status) :: st
    type(MPI_Status), allocatable :: stats(:)
    type(MPI_Request) :: req
    type(MPI_Request), allocatable :: reqs(:)
    type(MPI_Datatype) :: coltype, rowtype, stype
    integer(kind=MPI_ADDRESS_KIND) :: disp(2)
    integer :: a(NR, NC), b(NR, NC), v(NC), w(NR)
    integer, allocatable :: g(:)
    double precision :: t0, t1, x
    logical :: flag

    call MPI_Init()
    comm = MPI_COMM_WORLD
    call MPI_Comm_rank(comm, rank)
    call MPI_Comm_size(comm, nprocs, ierr)
    if (ierr /= MPI_SUCCESS) call fail('MPI_Comm_size returned an error')
    right = mod(rank + 1, nprocs)
    left = mod(rank - 1 + nprocs, nprocs)
    allocate(stats(2 * nprocs), reqs(2 * nprocs), g(nprocs))
    t0 = MPI_Wtime()

    ! Handles compare with == and /=.
    if (.not. (comm == MPI_COMM_WORLD) .or. comm /= MPI_COMM_WORLD) &
        call fail('== or /= on type(MPI_Comm) is wrong')
    if (MPI_INTEGER == MPI_REAL .or. .not. (MPI_INTEGER /= MPI_DOUBLE_PRECISION)) &
        call fail('== or /= on type(MPI_Datatype) is wrong')
    if (MPI_SUM == MPI_PROD) call fail('MPI_SUM == MPI_PROD')
    call MPI_Comm_dup(MPI_COMM_WORLD, dup)
    if (dup == MPI_COMM_WORLD .or. dup == MPI_COMM_NULL) call fail('MPI_Comm_dup: wrong handle')
    call MPI_Comm_compare(dup, MPI_COMM_WORLD, n)
    if (n /= MPI_CONGRUENT) call fail('MPI_Comm_compare of a duplicate is not MPI_CONGRUENT')

    ! Sendrecv with wildcards, on the duplicate.
    v = [(100 * rank + i, i = 1, NC)]
    w = -1
    call MPI_Sendrecv(v, 3, MPI_INTEGER, right, 10 + rank, w, NR, MPI_INTEGER, &
                      MPI_ANY_SOURCE, MPI_ANY_TAG, dup, st)
    if (st%MPI_SOURCE /= left .or. st%MPI_TAG /= 10 + left) &
        call fail('Sendrecv with wildcards: wrong MPI_SOURCE or MPI_TAG')
    call MPI_Get_count(st, MPI_INTEGER, n)
    if (n /= 3) call fail('Sendrecv with wildcards: MPI_Get_count is not 3')
    if (any(w(1:3) /= [(100 * left + i, i = 1, 3)]) .or. w(4) /= -1) &
        call fail('Sendrecv with wildcards: wrong data')
    call MPI_Comm_free(dup)
    if (dup /= MPI_COMM_NULL) call fail('MPI_Comm_free did not set MPI_COMM_NULL')

    ! All pairs, Waitall with statuses, then with MPI_STATUSES_IGNORE.
    do j = 1, 2
        g = -1
        do i = 0, nprocs - 1
            call MPI_Irecv(g(i + 1), 1, MPI_INTEGER, i, 20 + j, comm, reqs(i + 1))
        end do
        v = rank
        do i = 0, nprocs - 1
            call MPI_Isend(v(1), 1, MPI_INTEGER, i, 20 + j, comm, reqs(nprocs + i + 1))
        end do
        if (j == 1) then
            call MPI_Waitall(2 * nprocs, reqs, stats, ierr)
            if (ierr /= MPI_SUCCESS) call fail('MPI_Waitall returned an error')
            do i = 0, nprocs - 1
                if (stats(i + 1)%MPI_SOURCE /= i .or. stats(i + 1)%MPI_TAG /= 21) &
                    call fail('Waitall: wrong status')
            end do
        else
            call MPI_Waitall(2 * nprocs, reqs, MPI_STATUSES_IGNORE)
        end if
        if (any(g /= [(i, i = 0, nprocs - 1)])) call fail('all pairs: wrong data')
        do i = 1, 2 * nprocs
            if (reqs(i) /= MPI_REQUEST_NULL) call fail('MPI_Waitall left a request')
        end do
    end do

    ! Iprobe: false, then true; Probe.
    call MPI_Iprobe(MPI_ANY_SOURCE, 99, comm, flag, st)
    if (flag) call fail('MPI_Iprobe set its flag with no message to match')
    v = rank
    call MPI_Isend(v, 2, MPI_INTEGER, right, 30, comm, req)
    do while (.not. flag)
        call MPI_Iprobe(MPI_ANY_SOURCE, 30, comm, flag, st)
    end do
    if (st%MPI_SOURCE /= left) call fail('MPI_Iprobe: wrong MPI_SOURCE')
    call MPI_Probe(left, 30, comm, st)
    call MPI_Get_count(st, MPI_INTEGER, n)
    if (n /= 2) call fail('MPI_Probe: MPI_Get_count is not 2')
    call MPI_Recv(w, NR, MPI_INTEGER, left, 30, comm, MPI_STATUS_IGNORE)
    call MPI_Wait(req, MPI_STATUS_IGNORE)
    if (req /= MPI_REQUEST_NULL) call fail('MPI_Wait did not set MPI_REQUEST_NULL')
    if (any(w(1:2) /= left)) call fail('Probe then Recv: wrong data')

    ! Array sections: a column (contiguous), a row (strided), a 2-D block.
    call fill(a, rank)
    b = -1
    call MPI_Sendrecv(a(:, 2), NR, MPI_INTEGER, right, 40, b(:, 5), NR, MPI_INTEGER, left, 40, &
                      comm, MPI_STATUS_IGNORE)
    if (any(b(:, 5) /= [(val(left, i, 2), i = 1, NR)]) .or. count(b /= -1) /= NR) &
        call fail('a column section: wrong data')
    b = -1
    if (nprocs == 1) then
        call MPI_Sendrecv(a(3, :), NC, MPI_INTEGER, 0, 41, b(1, :), NC, MPI_INTEGER, 0, 41, &
                          comm, st)
    else if (mod(rank, 2) == 0) then
        call MPI_Send(a(3, :), NC, MPI_INTEGER, right, 41, comm)
        call MPI_Recv(b(1, :), NC, MPI_INTEGER, left, 41, comm, st)
    else
        call MPI_Recv(b(1, :), NC, MPI_INTEGER, left, 41, comm, st)
        call MPI_Send(a(3, :), NC, MPI_INTEGER, right, 41, comm)
    end if
    if (any(b(1, :) /= [(val(left, 3, j), j = 1, NC)]) .or. count(b /= -1) /= NC) &
        call fail('a row section a(3, :) sent to b(1, :): wrong data')
    call MPI_Get_count(st, MPI_INTEGER, n)
    if (n /= NC) call fail('a row section: MPI_Get_count is not NC')
    b = -1
    call MPI_Sendrecv(a(2:3, 2:5:3), 4, MPI_INTEGER, right, 42, b(3:4, 1:2), 4, MPI_INTEGER, &
                      left, 42, comm, MPI_STATUS_IGNORE)
    if (b(3, 1) /= val(left, 2, 2) .or. b(4, 1) /= val(left, 3, 2) .or. &
        b(3, 2) /= val(left, 2, 5) .or. b(4, 2) /= val(left, 3, 5) .or. count(b /= -1) /= 4) &
        call fail('a 2-D section a(2:3, 2:5:3): wrong data')
    if (MPI_SUBARRAYS_SUPPORTED) then
        ! The library itself handles the section: nonblocking on strided memory.
        b = -1
        call MPI_Irecv(b(2, :), NC, MPI_INTEGER, left, 43, comm, req)
        call MPI_Send(a(4, :), NC, MPI_INTEGER, right, 43, comm)
        call MPI_Wait(req, MPI_STATUS_IGNORE)
        if (any(b(2, :) /= [(val(left, 4, j), j = 1, NC)]) .or. count(b /= -1) /= NC) &
            call fail('MPI_SUBARRAYS_SUPPORTED: a row section received by MPI_Irecv: wrong data')
    end if

    ! Derived types over a column and a row.
    call MPI_Type_vector(1, NR, NR, MPI_INTEGER, coltype)
    call MPI_Type_vector(NC, 1, NR, MPI_INTEGER, rowtype)
    call MPI_Type_commit(coltype)
    call MPI_Type_commit(rowtype, ierr)
    if (ierr /= MPI_SUCCESS) call fail('MPI_Type_commit returned an error')
    if (coltype == rowtype .or. coltype == MPI_DATATYPE_NULL) call fail('MPI_Type_vector handles')
    b = -1
    call MPI_Sendrecv(a(1, 6), 1, coltype, right, 50, b(1, 1), 1, coltype, left, 50, comm, st)
    if (any(b(:, 1) /= [(val(left, i, 6), i = 1, NR)]) .or. count(b /= -1) /= NR) &
        call fail('MPI_Type_vector over a column: wrong data')
    call MPI_Get_count(st, coltype, n)
    if (n /= 1) call fail('MPI_Type_vector over a column: MPI_Get_count is not 1')
    b = -1
    call MPI_Sendrecv(a(2, 1), 1, rowtype, right, 51, b(4, 1), 1, rowtype, left, 51, comm, &
                      MPI_STATUS_IGNORE)
    if (any(b(4, :) /= [(val(left, 2, j), j = 1, NC)]) .or. count(b /= -1) /= NC) &
        call fail('MPI_Type_vector over a row: wrong data')
    call MPI_Type_free(coltype)
    call MPI_Type_free(rowtype)
    if (coltype /= MPI_DATATYPE_NULL) call fail('MPI_Type_free did not set MPI_DATATYPE_NULL')

    ! Collectives.
    v = [(rank * i, i = 1, NC)]
    call MPI_Allreduce(MPI_IN_PLACE, v, NC, MPI_INTEGER, MPI_SUM, comm)
    if (any(v /= [(i * nprocs * (nprocs - 1) / 2, i = 1, NC)])) &
        call fail('MPI_Allreduce in place: wrong sums')
    g = -1
    g(rank + 1) = 3 * rank
    if (rank == 0) then
        call MPI_Gather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, g, 1, MPI_INTEGER, 0, comm)
        if (any(g /= [(3 * i, i = 0, nprocs - 1)])) call fail('MPI_Gather in place: wrong data')
    else
        call MPI_Gather(g(rank + 1), 1, MPI_INTEGER, g, 1, MPI_INTEGER, 0, comm)
    end if
    x = 1d0
    call MPI_Scan(MPI_IN_PLACE, x, 1, MPI_DOUBLE_PRECISION, MPI_SUM, comm)
    if (x /= dble(rank + 1)) call fail('MPI_Scan in place: wrong prefix sum')
    w = merge(7, 0, rank == nprocs - 1)
    call MPI_Bcast(w, NR, MPI_INTEGER, nprocs - 1, comm)
    if (any(w /= 7)) call fail('MPI_Bcast: wrong data')
    g = -1
    call MPI_Allgather(rank * rank, 1, MPI_INTEGER, g, 1, MPI_INTEGER, comm)
    if (any(g /= [(i * i, i = 0, nprocs - 1)])) call fail('MPI_Allgather: wrong data')

    ! MPI_BOTTOM with a struct of absolute addresses, broadcast from the last rank.
    call MPI_Get_address(bottom_i, disp(1))
    call MPI_Get_address(bottom_d, disp(2))
    call MPI_Type_create_struct(2, [3, 1], disp, [MPI_INTEGER, MPI_DOUBLE_PRECISION], stype)
    call MPI_Type_commit(stype)
    bottom_i = -1
    bottom_d = -1d0
    if (rank == nprocs - 1) then
        bottom_i = [4, 5, 6]
        bottom_d = 0.75d0
    end if
    call MPI_Bcast(MPI_BOTTOM, 1, stype, nprocs - 1, comm, ierr)
    if (ierr /= MPI_SUCCESS) call fail('MPI_Bcast of MPI_BOTTOM returned an error')
    if (any(bottom_i /= [4, 5, 6]) .or. bottom_d /= 0.75d0) &
        call fail('MPI_Bcast of MPI_BOTTOM: wrong values')
    call MPI_Type_free(stype)

    t1 = MPI_Wtime()
    if (t1 < t0) call fail('MPI_Wtime went backwards')
    if (MPI_Wtick() <= 0d0 .or. MPI_Wtick() > 1d0) call fail('MPI_Wtick is not in (0, 1]')

    write (*, '(a, i0, a)') 'fort_f08 ', rank, ': ok'
    deallocate(stats, reqs, g)
    call MPI_Finalize()

contains

    integer function val(r, i, j)
        integer, intent(in) :: r, i, j

        val = 1000 * r + 10 * i + j
    end function val

    subroutine fill(x, r)
        integer, intent(out) :: x(NR, NC)
        integer, intent(in) :: r
        integer :: i, j

        do j = 1, NC
            do i = 1, NR
                x(i, j) = val(r, i, j)
            end do
        end do
    end subroutine fill

    subroutine fail(what)
        character(len=*), intent(in) :: what

        write (*, '(a, i0, a, a)') 'FAIL: fort_f08 rank ', rank, ': ', what
        flush (6)
        call MPI_Abort(MPI_COMM_WORLD, 1)
    end subroutine fail
end program fort_f08
