! fort_reduce.f90 - integration test of `use mpi`: reductions on Fortran's datatypes and
! reductions written in Fortran.
!   - MPI_SUM on MPI_DOUBLE_COMPLEX and MPI_COMPLEX; MPI_LAND and MPI_LOR on MPI_LOGICAL;
!     MPI_MAXLOC and MPI_MINLOC on MPI_2DOUBLE_PRECISION and MPI_2INTEGER (ties to the lowest
!     index); MPI_PROD on MPI_INTEGER8 past 2**31;
!   - MPI_Op_create of Fortran subroutines: a commutative one on MPI_INTEGER (which also checks
!     the datatype and length it is given) and a non-commutative one, the product of 2x2
!     matrices on a contiguous type of 4 MPI_DOUBLE_PRECISION, whose result depends on the
!     order of the ranks; MPI_Op_commutative's LOGICAL flag; MPI_Op_free.
! Any number of ranks up to 4 for the exact products (more are allowed).  Plain portable MPI.
! Prints "fort_reduce R: ok" per rank, or "FAIL: fort_reduce rank R: ..." and aborts the job.

! The user reductions: MPI calls them as fn(invec, inoutvec, len, datatype).
subroutine plus_one(invec, inoutvec, len, datatype)
    use mpi
    implicit none
    integer, intent(in) :: len, datatype
    integer, intent(in) :: invec(len)
    integer, intent(inout) :: inoutvec(len)
    integer :: i, ierr

    if (datatype /= MPI_INTEGER .or. len /= 3) then
        write (*, '(a)') 'FAIL: fort_reduce: plus_one called with another datatype or length'
        flush (6)
        call MPI_Abort(MPI_COMM_WORLD, 1, ierr)
    end if
    do i = 1, len
        inoutvec(i) = invec(i) + inoutvec(i) + 1
    end do
end subroutine plus_one

subroutine matmul2(invec, inoutvec, len, datatype)
    implicit none
    integer, intent(in) :: len, datatype
    double precision, intent(in) :: invec(2, 2, len)
    double precision, intent(inout) :: inoutvec(2, 2, len)
    integer :: i

    do i = 1, len
        inoutvec(:, :, i) = matmul(invec(:, :, i), inoutvec(:, :, i))
    end do
end subroutine matmul2

program fort_reduce
    use mpi
    implicit none
    external :: plus_one, matmul2
    integer :: ierr, rank, nprocs, r, op_plus, op_mat, mat4
    integer, parameter :: dp = kind(1d0)
    complex(kind=dp) :: z(2), zr(2)
    complex :: c(2), cr(2)
    logical :: l(2), lr(2), flag
    double precision :: d2(2, 2), d2r(2, 2)
    integer :: i2(2, 2), i2r(2, 2), iv(3), ivr(3)
    integer(kind=8) :: p8, p8r, expect8
    double precision :: m(2, 2, 2), mr(2, 2, 2), mexp(2, 2)
    double precision :: tmp(2, 2)

    call MPI_Init(ierr)
    call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
    call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)

    ! Complex sums.
    z = [cmplx(rank, -2 * rank, dp), cmplx(0.5d0, 1, dp)]
    call MPI_Allreduce(z, zr, 2, MPI_DOUBLE_COMPLEX, MPI_SUM, MPI_COMM_WORLD, ierr)
    if (ierr /= MPI_SUCCESS) call fail('MPI_Allreduce on MPI_DOUBLE_COMPLEX returned an error')
    if (zr(1) /= cmplx(nprocs * (nprocs - 1) / 2, -nprocs * (nprocs - 1), dp) .or. &
        zr(2) /= cmplx(0.5d0 * nprocs, nprocs, dp)) call fail('MPI_SUM on MPI_DOUBLE_COMPLEX')
    c = [cmplx(rank + 1, 3), cmplx(-1, rank)]
    call MPI_Allreduce(c, cr, 2, MPI_COMPLEX, MPI_SUM, MPI_COMM_WORLD, ierr)
    if (ierr /= MPI_SUCCESS) call fail('MPI_Allreduce on MPI_COMPLEX returned an error')
    if (cr(1) /= cmplx(nprocs * (nprocs + 1) / 2, 3 * nprocs) .or. &
        cr(2) /= cmplx(-nprocs, nprocs * (nprocs - 1) / 2)) call fail('MPI_SUM on MPI_COMPLEX')

    ! Logicals: one true only on rank 0, one true everywhere.
    l = [rank == 0, .true.]
    call MPI_Allreduce(l, lr, 2, MPI_LOGICAL, MPI_LAND, MPI_COMM_WORLD, ierr)
    if (ierr /= MPI_SUCCESS) call fail('MPI_Allreduce with MPI_LAND returned an error')
    if ((lr(1) .neqv. (nprocs == 1)) .or. .not. lr(2)) call fail('MPI_LAND on MPI_LOGICAL')
    l = [rank == nprocs - 1, .false.]
    call MPI_Allreduce(l, lr, 2, MPI_LOGICAL, MPI_LOR, MPI_COMM_WORLD, ierr)
    if (.not. lr(1) .or. lr(2)) call fail('MPI_LOR on MPI_LOGICAL')

    ! MAXLOC and MINLOC: (value, index) pairs; the second pair ties everywhere.
    d2(:, 1) = [dble(mod(rank + 1, nprocs)), dble(rank)]
    d2(:, 2) = [7.5d0, dble(rank)]
    call MPI_Allreduce(d2, d2r, 2, MPI_2DOUBLE_PRECISION, MPI_MAXLOC, MPI_COMM_WORLD, ierr)
    if (ierr /= MPI_SUCCESS) call fail('MPI_MAXLOC on MPI_2DOUBLE_PRECISION returned an error')
    if (d2r(1, 1) /= dble(nprocs - 1) .or. d2r(2, 1) /= dble(max(nprocs - 2, 0))) &
        call fail('MPI_MAXLOC on MPI_2DOUBLE_PRECISION: wrong value or index')
    if (d2r(1, 2) /= 7.5d0 .or. d2r(2, 2) /= 0d0) &
        call fail('MPI_MAXLOC on MPI_2DOUBLE_PRECISION: a tie is not the lowest index')
    call MPI_Allreduce(d2, d2r, 2, MPI_2DOUBLE_PRECISION, MPI_MINLOC, MPI_COMM_WORLD, ierr)
    if (d2r(1, 1) /= 0d0 .or. d2r(2, 1) /= dble(nprocs - 1) .or. d2r(2, 2) /= 0d0) &
        call fail('MPI_MINLOC on MPI_2DOUBLE_PRECISION: wrong value or index')
    i2(:, 1) = [-mod(rank + 1, nprocs), rank]
    i2(:, 2) = [42, rank]
    call MPI_Allreduce(i2, i2r, 2, MPI_2INTEGER, MPI_MINLOC, MPI_COMM_WORLD, ierr)
    if (ierr /= MPI_SUCCESS) call fail('MPI_MINLOC on MPI_2INTEGER returned an error')
    if (i2r(1, 1) /= -(nprocs - 1) .or. i2r(2, 1) /= max(nprocs - 2, 0) .or. &
        i2r(1, 2) /= 42 .or. i2r(2, 2) /= 0) call fail('MPI_MINLOC on MPI_2INTEGER')
    call MPI_Allreduce(i2, i2r, 2, MPI_2INTEGER, MPI_MAXLOC, MPI_COMM_WORLD, ierr)
    if (i2r(1, 1) /= 0 .or. i2r(2, 1) /= nprocs - 1 .or. i2r(2, 2) /= 0) &
        call fail('MPI_MAXLOC on MPI_2INTEGER')

    ! A 64-bit product: 50000 + rank on the first 4 ranks, 1 on the others.
    p8 = merge(50000_8 + rank, 1_8, rank < 4)
    call MPI_Allreduce(p8, p8r, 1, MPI_INTEGER8, MPI_PROD, MPI_COMM_WORLD, ierr)
    if (ierr /= MPI_SUCCESS) call fail('MPI_PROD on MPI_INTEGER8 returned an error')
    expect8 = 1
    do r = 0, min(nprocs, 4) - 1
        expect8 = expect8 * (50000_8 + r)
    end do
    if (p8r /= expect8) call fail('MPI_PROD on MPI_INTEGER8: wrong product')

    ! A commutative reduction in Fortran.
    call MPI_Op_create(plus_one, .true., op_plus, ierr)
    if (ierr /= MPI_SUCCESS) call fail('MPI_Op_create (commutative) returned an error')
    call MPI_Op_commutative(op_plus, flag, ierr)
    if (ierr /= MPI_SUCCESS .or. .not. flag) call fail('MPI_Op_commutative is not true')
    iv = [rank, 1, -rank]
    call MPI_Allreduce(iv, ivr, 3, MPI_INTEGER, op_plus, MPI_COMM_WORLD, ierr)
    if (ierr /= MPI_SUCCESS) call fail('MPI_Allreduce with a Fortran op returned an error')
    if (any(ivr /= [nprocs * (nprocs - 1) / 2 + nprocs - 1, 2 * nprocs - 1, &
                    -nprocs * (nprocs - 1) / 2 + nprocs - 1])) &
        call fail('MPI_Allreduce with a commutative Fortran op: wrong result')

    ! A non-commutative one: M(0) M(1) ... M(n-1), in rank order, on 2 elements of 4 doubles.
    call MPI_Op_create(matmul2, .false., op_mat, ierr)
    if (ierr /= MPI_SUCCESS) call fail('MPI_Op_create (non-commutative) returned an error')
    call MPI_Op_commutative(op_mat, flag, ierr)
    if (flag) call fail('MPI_Op_commutative is true for a non-commutative op')
    call MPI_Type_contiguous(4, MPI_DOUBLE_PRECISION, mat4, ierr)
    call MPI_Type_commit(mat4, ierr)
    m(:, :, 1) = mat(rank)
    m(:, :, 2) = transpose(mat(rank))
    mr = 0
    call MPI_Reduce(m, mr, 2, mat4, op_mat, 0, MPI_COMM_WORLD, ierr)
    if (ierr /= MPI_SUCCESS) call fail('MPI_Reduce with a non-commutative op returned an error')
    if (rank == 0) then
        mexp = mat(0)
        do r = 1, nprocs - 1
            tmp = matmul(mexp, mat(r))
            mexp = tmp
        end do
        if (any(mr(:, :, 1) /= mexp)) &
            call fail('MPI_Reduce with a non-commutative Fortran op: wrong order or result')
        mexp = transpose(mat(0))
        do r = 1, nprocs - 1
            tmp = matmul(mexp, transpose(mat(r)))
            mexp = tmp
        end do
        if (any(mr(:, :, 2) /= mexp)) &
            call fail('MPI_Reduce with a non-commutative Fortran op: wrong second element')
    end if
    mr = 0
    call MPI_Allreduce(m, mr, 2, mat4, op_mat, MPI_COMM_WORLD, ierr)
    mexp = mat(0)
    do r = 1, nprocs - 1
        tmp = matmul(mexp, mat(r))
        mexp = tmp
    end do
    if (any(mr(:, :, 1) /= mexp)) &
        call fail('MPI_Allreduce with a non-commutative Fortran op: wrong order or result')
    call MPI_Type_free(mat4, ierr)
    call MPI_Op_free(op_plus, ierr)
    call MPI_Op_free(op_mat, ierr)
    if (ierr /= MPI_SUCCESS .or. op_mat /= MPI_OP_NULL) call fail('MPI_Op_free')

    write (*, '(a, i0, a)') 'fort_reduce ', rank, ': ok'
    call MPI_Finalize(ierr)

contains

    ! A matrix per rank, such that no two of them commute.
    function mat(r)
        integer, intent(in) :: r
        double precision :: mat(2, 2)

        mat = reshape([dble(r + 1), 1d0, 2d0, 0d0], [2, 2])
    end function mat

    subroutine fail(what)
        character(len=*), intent(in) :: what
        integer :: ierr2

        write (*, '(a, i0, a, a)') 'FAIL: fort_reduce rank ', rank, ': ', what
        flush (6)
        call MPI_Abort(MPI_COMM_WORLD, 1, ierr2)
    end subroutine fail
end program fort_reduce
