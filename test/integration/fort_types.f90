! fort_types.f90 - integration test of `use mpi`: derived datatypes over Fortran's column-major
! arrays.  In a(NR, NC) a column a(:, j) is contiguous and a row a(i, :) is strided by NR:
!   - MPI_Type_vector over a column and over a row (size and extent checked), each sent to the
!     right neighbour into another column or row, and into a contiguous buffer;
!   - the row type resized to one element, so that a count of 2 sends two consecutive rows;
!   - MPI_Type_create_subarray in MPI_ORDER_FORTRAN and MPI_ORDER_C.
! Any number of ranks (1 included).  Plain portable MPI.  Prints "fort_types R: ok" per rank,
! or "FAIL: fort_types rank R: ..." and aborts the job.
program fort_types
    use mpi
    implicit none
    integer, parameter :: NR = 6, NC = 5
    integer :: ierr, rank, nprocs, left, right, i, j, isz
    integer :: coltype, rowtype, row1, subf, subc
    integer(kind=MPI_ADDRESS_KIND) :: lb, extent
    integer :: a(NR, NC), c(NR, NC), flat(NR * NC)
    integer :: cc(NC, NR)

    call MPI_Init(ierr)
    call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
    call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
    right = mod(rank + 1, nprocs)
    left = mod(rank - 1 + nprocs, nprocs)
    call fill(a, rank)

    ! A column: NR contiguous integers (one block).
    call MPI_Type_vector(1, NR, NR, MPI_INTEGER, coltype, ierr)
    call MPI_Type_commit(coltype, ierr)
    if (ierr /= MPI_SUCCESS) call fail('MPI_Type_vector of a column returned an error')
    ! A row: NC integers NR apart.
    call MPI_Type_vector(NC, 1, NR, MPI_INTEGER, rowtype, ierr)
    call MPI_Type_commit(rowtype, ierr)
    if (ierr /= MPI_SUCCESS) call fail('MPI_Type_vector of a row returned an error')
    call MPI_Type_size(rowtype, isz, ierr)
    if (isz /= NC * 4) call fail('MPI_Type_size of the row type is not NC integers')
    call MPI_Type_get_extent(rowtype, lb, extent, ierr)
    if (lb /= 0 .or. extent /= ((NC - 1) * NR + 1) * 4) &
        call fail('MPI_Type_get_extent of the row type is wrong')

    ! Column 2 of the left's array into column 4 of ours.
    c = -1
    call MPI_Sendrecv(a(1, 2), 1, coltype, right, 1, c(1, 4), 1, coltype, left, 1, &
                      MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
    if (ierr /= MPI_SUCCESS) call fail('Sendrecv of a column returned an error')
    do i = 1, NR
        if (c(i, 4) /= val(left, i, 2)) call fail('column type: wrong element')
    end do
    if (count(c /= -1) /= NR) call fail('column type: elements outside the column changed')

    ! Row 3 of the left's array into row 5 of ours, then into a contiguous buffer.
    c = -1
    call MPI_Sendrecv(a(3, 1), 1, rowtype, right, 2, c(5, 1), 1, rowtype, left, 2, &
                      MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
    if (ierr /= MPI_SUCCESS) call fail('Sendrecv of a row returned an error')
    do j = 1, NC
        if (c(5, j) /= val(left, 3, j)) call fail('row type: wrong element')
    end do
    if (count(c /= -1) /= NC) call fail('row type: elements outside the row changed')
    flat = -1
    call MPI_Sendrecv(a(3, 1), 1, rowtype, right, 3, flat, NC, MPI_INTEGER, left, 3, &
                      MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
    do j = 1, NC
        if (flat(j) /= val(left, 3, j)) call fail('row type to contiguous: wrong element')
    end do

    ! The row type resized to one integer: 2 of them are rows 2 and 3.
    call MPI_Type_create_resized(rowtype, 0_MPI_ADDRESS_KIND, 4_MPI_ADDRESS_KIND, row1, ierr)
    call MPI_Type_commit(row1, ierr)
    if (ierr /= MPI_SUCCESS) call fail('MPI_Type_create_resized returned an error')
    flat = -1
    call MPI_Sendrecv(a(2, 1), 2, row1, right, 4, flat, 2 * NC, MPI_INTEGER, left, 4, &
                      MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
    do j = 1, NC
        if (flat(j) /= val(left, 2, j) .or. flat(NC + j) /= val(left, 3, j)) &
            call fail('resized row type: wrong element')
    end do

    ! Subarray, Fortran order: rows 2-4 of columns 3-4 (starts count from 0), column by column.
    call MPI_Type_create_subarray(2, [NR, NC], [3, 2], [1, 2], MPI_ORDER_FORTRAN, MPI_INTEGER, &
                                  subf, ierr)
    call MPI_Type_commit(subf, ierr)
    if (ierr /= MPI_SUCCESS) call fail('MPI_Type_create_subarray (Fortran order) returned an error')
    flat = -1
    call MPI_Sendrecv(a, 1, subf, right, 5, flat, 6, MPI_INTEGER, left, 5, MPI_COMM_WORLD, &
                      MPI_STATUS_IGNORE, ierr)
    if (any(flat(1:6) /= [val(left, 2, 3), val(left, 3, 3), val(left, 4, 3), &
                          val(left, 2, 4), val(left, 3, 4), val(left, 4, 4)])) &
        call fail('subarray (Fortran order): wrong elements or order')
    ! And back into the same place of a cleared array.
    c = -1
    call MPI_Sendrecv(a, 1, subf, right, 6, c, 1, subf, left, 6, MPI_COMM_WORLD, &
                      MPI_STATUS_IGNORE, ierr)
    if (any(c(2:4, 3:4) /= a(2:4, 3:4) - 1000 * rank + 1000 * left) .or. count(c /= -1) /= 6) &
        call fail('subarray to subarray: wrong elements')

    ! Subarray, C order, of an array declared cc(NC, NR): sizes and starts in C's order.
    cc = reshape([(i, i = 1, NR * NC)], [NC, NR])
    call MPI_Type_create_subarray(2, [NR, NC], [2, 3], [4, 1], MPI_ORDER_C, MPI_INTEGER, subc, &
                                  ierr)
    call MPI_Type_commit(subc, ierr)
    if (ierr /= MPI_SUCCESS) call fail('MPI_Type_create_subarray (C order) returned an error')
    flat = -1
    call MPI_Sendrecv(cc, 1, subc, rank, 7, flat, 6, MPI_INTEGER, rank, 7, MPI_COMM_WORLD, &
                      MPI_STATUS_IGNORE, ierr)
    ! C's [4][1..3] and [5][1..3] are Fortran's cc(2:4, 5) and cc(2:4, 6).
    if (any(flat(1:6) /= [cc(2, 5), cc(3, 5), cc(4, 5), cc(2, 6), cc(3, 6), cc(4, 6)])) &
        call fail('subarray (C order): wrong elements or order')

    call MPI_Type_free(coltype, ierr)
    call MPI_Type_free(rowtype, ierr)
    call MPI_Type_free(row1, ierr)
    call MPI_Type_free(subf, ierr)
    call MPI_Type_free(subc, ierr)
    if (ierr /= MPI_SUCCESS .or. subc /= MPI_DATATYPE_NULL) call fail('MPI_Type_free')
    write (*, '(a, i0, a)') 'fort_types ', rank, ': ok'
    call MPI_Finalize(ierr)

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
        integer :: ierr2

        write (*, '(a, i0, a, a)') 'FAIL: fort_types rank ', rank, ': ', what
        flush (6)
        call MPI_Abort(MPI_COMM_WORLD, 1, ierr2)
    end subroutine fail
end program fort_types
