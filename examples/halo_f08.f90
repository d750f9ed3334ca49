! halo_f08.f90 - a 2-D Jacobi solver in Fortran (use mpi_f08): Laplace's equation on a
! GNX x GNY grid, 1 on the top edge and 0 on the others, decomposed in blocks over a 2-D Cartesian
! communicator (MPI_Dims_create, MPI_Cart_create, MPI_Cart_shift).  Each iteration exchanges
! the halo with the four neighbours, then updates every point from its neighbours.
!
! The local block is u(0:nx+1, 0:ny+1), halo included.  Fortran stores it column by column, so
! the halo of a y neighbour, u(1:nx, j), is contiguous (MPI_Type_contiguous), and that of an x
! neighbour, u(i, 1:ny), is strided by nx + 2 (MPI_Type_vector).  After the iterations the
! global residual (the norm of the last update) and the sum of the grid come from
! MPI_Allreduce and are checked against the same iterations done by one process on the whole
! grid.  Rank 0 prints them; the exit status is 0 when they agree, else the job aborts.
!
!   commfort -o halo_f08 halo_f08.f90 && comm-run -np 4 ./halo_f08
program halo_f08
    use mpi_f08
    implicit none
    integer, parameter :: GNX = 64, GNY = 48, ITERATIONS = 100
    double precision, parameter :: TOLERANCE = 1d-10
    integer :: rank, nprocs, dims(2), coords(2), west, east, south, north
    integer :: nx, ny, i0, j0, it
    logical :: periods(2)
    type(MPI_Comm) :: cart
    type(MPI_Datatype) :: column, row
    double precision, allocatable :: u(:, :), unew(:, :)
    double precision :: local(2), global(2), residual, total, ref_residual, ref_total

    call MPI_Init()
    call MPI_Comm_size(MPI_COMM_WORLD, nprocs)
    dims = 0
    call MPI_Dims_create(nprocs, 2, dims)
    periods = .false.
    call MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, .true., cart)
    call MPI_Comm_rank(cart, rank)
    call MPI_Cart_coords(cart, rank, 2, coords)
    call MPI_Cart_shift(cart, 0, 1, west, east)
    call MPI_Cart_shift(cart, 1, 1, south, north)
    call block(GNX, dims(1), coords(1), nx, i0)
    call block(GNY, dims(2), coords(2), ny, j0)
    if (nx < 1 .or. ny < 1) call fail('more ranks than grid points in a dimension')

    allocate(u(0:nx + 1, 0:ny + 1), unew(0:nx + 1, 0:ny + 1))
    u = 0
    if (north == MPI_PROC_NULL) u(:, ny + 1) = 1
    unew = u
    ! The halo of a y neighbour: nx contiguous points; of an x neighbour: ny points nx + 2 apart.
    call MPI_Type_contiguous(nx, MPI_DOUBLE_PRECISION, column)
    call MPI_Type_vector(ny, 1, nx + 2, MPI_DOUBLE_PRECISION, row)
    call MPI_Type_commit(column)
    call MPI_Type_commit(row)

    do it = 1, ITERATIONS
        call exchange(u)
        unew(1:nx, 1:ny) = 0.25d0 * (u(0:nx - 1, 1:ny) + u(2:nx + 1, 1:ny) + &
                                     u(1:nx, 0:ny - 1) + u(1:nx, 2:ny + 1))
        local(1) = sum((unew(1:nx, 1:ny) - u(1:nx, 1:ny))**2)
        u(1:nx, 1:ny) = unew(1:nx, 1:ny)
    end do
    local(2) = sum(u(1:nx, 1:ny))
    call MPI_Allreduce(local, global, 2, MPI_DOUBLE_PRECISION, MPI_SUM, cart)
    residual = sqrt(global(1))
    total = global(2)

    call serial(ref_residual, ref_total)
    if (abs(residual - ref_residual) > TOLERANCE * ref_residual .or. &
        abs(total - ref_total) > TOLERANCE * ref_total) &
        call fail('the result differs from the same iterations on one process')
    if (rank == 0) then
        write (*, '(a, i0, a, i0, a, i0, a, i0, a, i0, a)') 'halo_f08: ', GNX, ' x ', GNY, &
            ' grid on ', dims(1), ' x ', dims(2), ' ranks, ', ITERATIONS, ' Jacobi iterations'
        write (*, '(a, es13.7, a, es13.7, a, f0.6, a)') 'halo_f08: residual ', residual, &
            ' (one process: ', ref_residual, '), sum ', total, ': ok'
    end if
    call MPI_Type_free(column)
    call MPI_Type_free(row)
    call MPI_Comm_free(cart)
    deallocate(u, unew)
    call MPI_Finalize()

contains

    ! The share of N points of coordinate C among P: its size and the offset before it.
    subroutine block(n, p, c, size, offset)
        integer, intent(in) :: n, p, c
        integer, intent(out) :: size, offset

        size = n / p + merge(1, 0, c < mod(n, p))
        offset = c * (n / p) + min(c, mod(n, p))
    end subroutine block

    ! The halo of X from the four neighbours (MPI_PROC_NULL at the grid's edges: kept as is).
    subroutine exchange(x)
        double precision, intent(inout) :: x(0:, 0:)

        call MPI_Sendrecv(x(nx, 1), 1, row, east, 1, x(0, 1), 1, row, west, 1, cart, &
                          MPI_STATUS_IGNORE)
        call MPI_Sendrecv(x(1, 1), 1, row, west, 2, x(nx + 1, 1), 1, row, east, 2, cart, &
                          MPI_STATUS_IGNORE)
        call MPI_Sendrecv(x(1, ny), 1, column, north, 3, x(1, 0), 1, column, south, 3, cart, &
                          MPI_STATUS_IGNORE)
        call MPI_Sendrecv(x(1, 1), 1, column, south, 4, x(1, ny + 1), 1, column, north, 4, cart, &
                          MPI_STATUS_IGNORE)
    end subroutine exchange

    ! The same iterations on the whole grid, by this process alone.
    subroutine serial(res, tot)
        double precision, intent(out) :: res, tot
        double precision, allocatable :: g(:, :), gnew(:, :)
        integer :: k

        allocate(g(0:GNX + 1, 0:GNY + 1), gnew(0:GNX + 1, 0:GNY + 1))
        g = 0
        g(:, GNY + 1) = 1
        gnew = g
        res = 0
        do k = 1, ITERATIONS
            gnew(1:GNX, 1:GNY) = 0.25d0 * (g(0:GNX - 1, 1:GNY) + g(2:GNX + 1, 1:GNY) + &
                                         g(1:GNX, 0:GNY - 1) + g(1:GNX, 2:GNY + 1))
            res = sqrt(sum((gnew(1:GNX, 1:GNY) - g(1:GNX, 1:GNY))**2))
            g(1:GNX, 1:GNY) = gnew(1:GNX, 1:GNY)
        end do
        tot = sum(g(1:GNX, 1:GNY))
        ! The block of this rank must match too: the halo exchange moved the right points.
        if (maxval(abs(g(i0 + 1:i0 + nx, j0 + 1:j0 + ny) - u(1:nx, 1:ny))) > TOLERANCE) &
            call fail('this rank''s block differs from the same iterations on one process')
    end subroutine serial

    subroutine fail(what)
        character(len=*), intent(in) :: what
        integer :: r

        call MPI_Comm_rank(MPI_COMM_WORLD, r)
        write (*, '(a, i0, a, a)') 'FAIL: halo_f08 rank ', r, ': ', what
        flush (6)
        call MPI_Abort(MPI_COMM_WORLD, 1)
    end subroutine fail
end program halo_f08
