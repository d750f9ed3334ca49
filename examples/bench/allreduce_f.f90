! allreduce_f.f90 - OSU-style MPI allreduce latency test in Fortran (use mpi_f08):
! MPI_Allreduce of SIZE bytes (MPI_CHAR with MPI_SUM, as allreduce.c) over all ranks; prints the
! average time per call over ranks in microseconds, with bandwidth columns (BusBW factor
! 2(n-1)/n).  The same options, defaults and output as allreduce.c (bench_f.inc), so that
! examples/bench/compare sets the two side by side: what the Fortran interface adds per call.
!
! Plain MPI, built with any MPI's Fortran wrapper:
!   mpifort -O2 -I. -o allreduce_f allreduce_f.f90 && mpirun -np 4 ./allreduce_f -m 1:65536
program allreduce_f
    use, intrinsic :: iso_fortran_env, only: error_unit, output_unit
    use mpi_f08
    implicit none
    include 'bench_f_data.inc'
    integer :: status
    integer(kind=8) :: size

    call MPI_Init()
    bench_program = 'allreduce_f'
    bench_title = 'Allreduce Latency'
    bench_summary = 'MPI_Allreduce of SIZE bytes (MPI_CHAR, MPI_SUM) on every rank'
    bench_kind = BENCH_KIND_COLLECTIVE
    bench_ranks = BENCH_RANKS_ANY
    bench_coll_traffic = COLL_TRAFFIC_ALLREDUCE
    status = bench_setup()
    if (status == BENCH_RUN) then
        if (bench_rank == 0) call coll_print_columns()
        size = bench_min_size
        do while (size <= bench_max_size)
            call allreduce_measure(size)
            size = bench_next_size(size)
        end do
        status = BENCH_EXIT_OK
    end if
    call bench_finish(status)

contains

    ! One size: each call timed alone, separated by a barrier, as in OSU (coll.c).
    subroutine allreduce_measure(size)
        integer(kind=8), intent(in) :: size
        integer :: iterations, warmup, count, i
        double precision :: start, total, stat(3)

        iterations = bench_iterations(size)
        warmup = bench_warmup(size)
        count = int(size)
        total = 0d0
        call bench_barrier()
        do i = 0, warmup + iterations - 1
            start = MPI_Wtime()
            call MPI_Allreduce(bench_sbuf, bench_rbuf, count, MPI_CHAR, MPI_SUM, MPI_COMM_WORLD)
            if (i >= warmup) total = total + (MPI_Wtime() - start)
            call bench_barrier()
        end do
        call coll_gather_stat(total * 1d6 / iterations, stat)
        if (bench_rank == 0) call coll_print_row(size, iterations, stat)
    end subroutine allreduce_measure

    include 'bench_f.inc'
end program allreduce_f
