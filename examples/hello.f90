! hello.f90 - the smallest MPI program in Fortran (use mpi_f08): each rank says who and where
! it is, as hello.c does.
!
!   commfort -o hello_f08 hello.f90 && comm-run -np 4 ./hello_f08
program hello
    use mpi_f08
    implicit none
    character(len=MPI_MAX_PROCESSOR_NAME) :: host
    integer :: rank, size, len

    call MPI_Init()
    call MPI_Comm_rank(MPI_COMM_WORLD, rank)
    call MPI_Comm_size(MPI_COMM_WORLD, size)
    call MPI_Get_processor_name(host, len)
    write (*, '(a, i0, a, i0, a, a)') 'Hello from rank ', rank, ' of ', size, ' on ', host(1:len)
    call MPI_Finalize()
end program hello
