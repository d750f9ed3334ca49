! fort_coll.f90 - integration test of `use mpi`: collectives with MPI_IN_PLACE (allreduce,
! reduce at the root, allgather, gather at the root, scan, exscan) and MPI_BOTTOM with absolute
! addresses from MPI_Get_address (a struct datatype over two module variables, broadcast from
! the last rank, then sent around the ring point to point).  Any number of ranks (1 included).
! Plain portable MPI.  Prints "fort_coll R: ok" per rank, or "FAIL: fort_coll rank R: ..." and
! aborts the job.

! What MPI_BOTTOM reaches: module variables, so that the compiler knows any call may change
! them (the standard's advice for buffers named by absolute address).
module fort_coll_data
    implicit none
    integer :: ivals(5)
    double precision :: dval
end module fort_coll_data

program fort_coll
    use mpi
    use fort_coll_data
    implicit none
    integer :: ierr, rank, nprocs, i, root, expect, stype, right, left
    integer :: a(3), b(3), sb(2)
    integer, allocatable :: g(:)
    double precision :: x
    integer(kind=MPI_ADDRESS_KIND) :: disp(2)
    integer :: blocklens(2), types(2)

    call MPI_Init(ierr)
    call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
    call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
    allocate(g(2 * nprocs))

    ! Allreduce in place.
    a = [rank + 1, 2 * rank, -rank]
    call MPI_Allreduce(MPI_IN_PLACE, a, 3, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
    if (ierr /= MPI_SUCCESS) call fail('MPI_Allreduce in place returned an error')
    expect = nprocs * (nprocs - 1) / 2
    if (a(1) /= expect + nprocs .or. a(2) /= 2 * expect .or. a(3) /= -expect) &
        call fail('MPI_Allreduce in place: wrong sums')

    ! Reduce in place at the root (the last rank); the others' receive buffer is untouched.
    root = nprocs - 1
    a = [rank, 1, 10 * rank]
    b = -5
    if (rank == root) then
        call MPI_Reduce(MPI_IN_PLACE, a, 3, MPI_INTEGER, MPI_MAX, root, MPI_COMM_WORLD, ierr)
        if (any(a /= [root, 1, 10 * root])) call fail('MPI_Reduce in place: wrong maxima')
    else
        call MPI_Reduce(a, b, 3, MPI_INTEGER, MPI_MAX, root, MPI_COMM_WORLD, ierr)
        if (any(b /= -5)) call fail('MPI_Reduce wrote the receive buffer of a non-root rank')
    end if
    if (ierr /= MPI_SUCCESS) call fail('MPI_Reduce returned an error')

    ! Allgather in place: each rank's share already in its slot.
    g = -1
    g(2 * rank + 1) = rank * rank
    g(2 * rank + 2) = rank + 7
    call MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, g, 2, MPI_INTEGER, MPI_COMM_WORLD, &
                       ierr)
    if (ierr /= MPI_SUCCESS) call fail('MPI_Allgather in place returned an error')
    do i = 0, nprocs - 1
        if (g(2 * i + 1) /= i * i .or. g(2 * i + 2) /= i + 7) &
            call fail('MPI_Allgather in place: wrong slot')
    end do

    ! Gather in place at rank 0.
    g = -1
    sb = [3 * rank, -rank]
    if (rank == 0) then
        g(1:2) = sb
        call MPI_Gather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, g, 2, MPI_INTEGER, 0, &
                        MPI_COMM_WORLD, ierr)
        do i = 0, nprocs - 1
            if (g(2 * i + 1) /= 3 * i .or. g(2 * i + 2) /= -i) &
                call fail('MPI_Gather in place: wrong slot')
        end do
    else
        call MPI_Gather(sb, 2, MPI_INTEGER, g, 0, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
    end if
    if (ierr /= MPI_SUCCESS) call fail('MPI_Gather returned an error')

    ! Scan and exscan in place.
    x = dble(rank + 1)
    call MPI_Scan(MPI_IN_PLACE, x, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
    if (ierr /= MPI_SUCCESS) call fail('MPI_Scan in place returned an error')
    if (x /= dble((rank + 1) * (rank + 2) / 2)) call fail('MPI_Scan in place: wrong prefix sum')
    a(1) = rank + 1
    call MPI_Exscan(MPI_IN_PLACE, a, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
    if (ierr /= MPI_SUCCESS) call fail('MPI_Exscan in place returned an error')
    if (rank > 0 .and. a(1) /= rank * (rank + 1) / 2) &
        call fail('MPI_Exscan in place: wrong prefix sum')

    ! MPI_BOTTOM: a struct of the absolute addresses of ivals(2:4) and dval.
    call MPI_Get_address(ivals(2), disp(1), ierr)
    call MPI_Get_address(dval, disp(2), ierr)
    if (ierr /= MPI_SUCCESS) call fail('MPI_Get_address returned an error')
    blocklens = [3, 1]
    types = [MPI_INTEGER, MPI_DOUBLE_PRECISION]
    call MPI_Type_create_struct(2, blocklens, disp, types, stype, ierr)
    call MPI_Type_commit(stype, ierr)
    if (ierr /= MPI_SUCCESS) call fail('MPI_Type_commit of the struct returned an error')
    ivals = -1
    dval = -1.0d0
    if (rank == root) then
        ivals = [0, 11, 22, 33, 0]
        dval = 2.5d0
    end if
    call MPI_Bcast(MPI_BOTTOM, 1, stype, root, MPI_COMM_WORLD, ierr)
    if (ierr /= MPI_SUCCESS) call fail('MPI_Bcast of MPI_BOTTOM returned an error')
    if (any(ivals(2:4) /= [11, 22, 33]) .or. dval /= 2.5d0) &
        call fail('MPI_Bcast of MPI_BOTTOM: wrong values')
    if (rank /= root .and. (ivals(1) /= -1 .or. ivals(5) /= -1)) &
        call fail('MPI_Bcast of MPI_BOTTOM wrote outside the struct')

    ! Point to point from MPI_BOTTOM to MPI_BOTTOM around the ring.
    right = mod(rank + 1, nprocs)
    left = mod(rank - 1 + nprocs, nprocs)
    ivals = [rank, rank + 1, rank + 2, rank + 3, rank + 4]
    dval = 0.25d0 * rank
    call MPI_Sendrecv_replace(MPI_BOTTOM, 1, stype, right, 7, left, 7, MPI_COMM_WORLD, &
                              MPI_STATUS_IGNORE, ierr)
    if (ierr /= MPI_SUCCESS) call fail('MPI_Sendrecv_replace of MPI_BOTTOM returned an error')
    if (any(ivals /= [rank, left + 1, left + 2, left + 3, rank + 4]) .or. dval /= 0.25d0 * left) &
        call fail('MPI_Sendrecv_replace of MPI_BOTTOM: wrong values')
    call MPI_Type_free(stype, ierr)
    if (stype /= MPI_DATATYPE_NULL) call fail('MPI_Type_free did not set MPI_DATATYPE_NULL')

    write (*, '(a, i0, a)') 'fort_coll ', rank, ': ok'
    deallocate(g)
    call MPI_Finalize(ierr)

contains

    subroutine fail(what)
        character(len=*), intent(in) :: what
        integer :: ierr2

        write (*, '(a, i0, a, a)') 'FAIL: fort_coll rank ', rank, ': ', what
        flush (6)
        call MPI_Abort(MPI_COMM_WORLD, 1, ierr2)
    end subroutine fail
end program fort_coll
