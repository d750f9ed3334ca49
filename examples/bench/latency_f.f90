! latency_f.f90 - OSU-style MPI latency test in Fortran (use mpi_f08): ping-pong between ranks
! 0 and 1 with MPI_Send and MPI_Recv; prints half the round-trip time per size, in
! microseconds.  The same options, defaults and output as latency.c (bench_f.inc), so that
! examples/bench/compare sets the two side by side: what the Fortran interface adds per call.
!
! Plain MPI, built with any MPI's Fortran wrapper:
!   mpifort -O2 -I. -o latency_f latency_f.f90 && mpirun -np 2 ./latency_f -m 0:65536
program latency_f
    use, intrinsic :: iso_fortran_env, only: error_unit, output_unit
    use mpi_f08
    implicit none
    include 'bench_f_data.inc'
    integer :: status
    integer(kind=8) :: size

    call MPI_Init()
    bench_program = 'latency_f'
    bench_title = 'Latency'
    bench_summary = 'ping-pong between ranks 0 and 1, half the round trip in microseconds'
    bench_column = 'Latency (us)'
    bench_kind = BENCH_KIND_LATENCY
    bench_ranks = BENCH_RANKS_TWO
    status = bench_setup()
    if (status == BENCH_RUN) then
        size = bench_min_size
        do while (size <= bench_max_size)
            call bench_print_row(size, latency_measure(size))
            size = bench_next_size(size)
        end do
        status = BENCH_EXIT_OK
    end if
    call bench_finish(status)

contains

    ! One size: the one-way latency in microseconds (meaningful on rank 0).
    double precision function latency_measure(size)
        integer(kind=8), intent(in) :: size
        integer :: iterations, warmup, count, peer, i
        double precision :: start

        iterations = bench_iterations(size)
        warmup = bench_warmup(size)
        count = int(size)
        peer = 1 - bench_rank
        start = 0d0
        call bench_barrier()
        do i = 0, warmup + iterations - 1
            if (i == warmup) start = MPI_Wtime()
            if (bench_rank == 0) then
                call MPI_Send(bench_sbuf, count, MPI_CHAR, peer, BENCH_TAG_DATA, MPI_COMM_WORLD)
                call MPI_Recv(bench_rbuf, count, MPI_CHAR, peer, BENCH_TAG_DATA, MPI_COMM_WORLD, &
                              MPI_STATUS_IGNORE)
            else
                call MPI_Recv(bench_rbuf, count, MPI_CHAR, peer, BENCH_TAG_DATA, MPI_COMM_WORLD, &
                              MPI_STATUS_IGNORE)
                call MPI_Send(bench_sbuf, count, MPI_CHAR, peer, BENCH_TAG_DATA, MPI_COMM_WORLD)
            end if
        end do
        latency_measure = (MPI_Wtime() - start) * 1d6 / (2d0 * iterations)
    end function latency_measure

    include 'bench_f.inc'
end program latency_f
