! fort_p2p_free.f90 - integration test of mpif.h in free source form: point-to-point with
! status checks, on any number of ranks (1 included).
!   - every rank sends rank 0 a message of RANK + 1 integers with tag 5 + RANK; rank 0 takes
!     them with MPI_ANY_SOURCE/MPI_ANY_TAG and checks MPI_SOURCE, MPI_TAG and MPI_Get_count,
!     each source once;
!   - all pairs by MPI_Irecv/MPI_Isend, completed by MPI_Waitall with a status array (each
!     receive's source, tag and count) and, the second time, with MPI_STATUSES_IGNORE;
!   - MPI_Test's LOGICAL flag, MPI_Iprobe's (false with nothing to match), MPI_Probe;
!   - MPI_Sendrecv with MPI_STATUS_IGNORE and MPI_Sendrecv_replace.
! Plain portable MPI.  Prints "fort_p2p_free R: ok" per rank, or
! "FAIL: fort_p2p_free rank R: ..." and aborts the job.
program fort_p2p_free
    implicit none
    include 'mpif.h'
    integer :: ierr, rank, nprocs, i, j, peer, cnt, req
    integer :: status(MPI_STATUS_SIZE)
    integer, allocatable :: stats(:, :), reqs(:), sbuf(:), rbuf(:, :)
    logical, allocatable :: seen(:)
    integer :: small(64)
    logical :: flag

    call MPI_Init(ierr)
    call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
    call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
    if (ierr /= MPI_SUCCESS) call fail('MPI_Comm_size returned an error')
    allocate(stats(MPI_STATUS_SIZE, 2 * nprocs), reqs(2 * nprocs), sbuf(max(nprocs + 1, 3)), &
             rbuf(nprocs + 1, nprocs), seen(0:nprocs - 1))

    ! Many to one, with wildcards.
    do i = 1, rank + 1
        sbuf(i) = 1000 * rank + i
    end do
    call MPI_Isend(sbuf, rank + 1, MPI_INTEGER, 0, 5 + rank, MPI_COMM_WORLD, req, ierr)
    if (ierr /= MPI_SUCCESS) call fail('MPI_Isend to rank 0 returned an error')
    if (rank == 0) then
        seen = .false.
        do j = 1, nprocs
            small = -1
            call MPI_Recv(small, 64, MPI_INTEGER, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &
                          status, ierr)
            if (ierr /= MPI_SUCCESS) call fail('MPI_Recv with wildcards returned an error')
            peer = status(MPI_SOURCE)
            if (peer < 0 .or. peer >= nprocs) call fail('wildcard receive: MPI_SOURCE out of range')
            if (seen(peer)) call fail('wildcard receive: a source seen twice')
            seen(peer) = .true.
            if (status(MPI_TAG) /= 5 + peer) call fail('wildcard receive: wrong MPI_TAG')
            call MPI_Get_count(status, MPI_INTEGER, cnt, ierr)
            if (cnt /= peer + 1) call fail('wildcard receive: wrong MPI_Get_count')
            do i = 1, cnt
                if (small(i) /= 1000 * peer + i) call fail('wildcard receive: wrong data')
            end do
            if (small(cnt + 1) /= -1) call fail('wildcard receive: data past the message')
        end do
    end if
    ! MPI_Test until done: its flag is a LOGICAL.
    flag = .false.
    do while (.not. flag)
        call MPI_Test(req, flag, status, ierr)
        if (ierr /= MPI_SUCCESS) call fail('MPI_Test returned an error')
    end do
    if (req /= MPI_REQUEST_NULL) call fail('MPI_Test left the request')
    call MPI_Barrier(MPI_COMM_WORLD, ierr)

    ! All pairs, twice: with statuses, then with MPI_STATUSES_IGNORE.
    do j = 1, 2
        rbuf = -1
        do peer = 0, nprocs - 1
            call MPI_Irecv(rbuf(1, peer + 1), nprocs + 1, MPI_INTEGER, peer, 20 + j, &
                           MPI_COMM_WORLD, reqs(peer + 1), ierr)
        end do
        do peer = 0, nprocs - 1
            sbuf(peer + 1) = 100 * rank + peer
            call MPI_Isend(sbuf(peer + 1), 1, MPI_INTEGER, peer, 20 + j, MPI_COMM_WORLD, &
                           reqs(nprocs + peer + 1), ierr)
        end do
        if (ierr /= MPI_SUCCESS) call fail('MPI_Isend returned an error')
        if (j == 1) then
            stats = -7
            call MPI_Waitall(2 * nprocs, reqs, stats, ierr)
        else
            call MPI_Waitall(2 * nprocs, reqs, MPI_STATUSES_IGNORE, ierr)
        end if
        if (ierr /= MPI_SUCCESS) call fail('MPI_Waitall returned an error')
        do peer = 0, nprocs - 1
            if (rbuf(1, peer + 1) /= 100 * peer + rank) call fail('all pairs: wrong data')
            if (rbuf(2, peer + 1) /= -1) call fail('all pairs: data past the message')
            if (j == 1) then
                if (stats(MPI_SOURCE, peer + 1) /= peer) call fail('Waitall: wrong MPI_SOURCE')
                if (stats(MPI_TAG, peer + 1) /= 21) call fail('Waitall: wrong MPI_TAG')
                call MPI_Get_count(stats(:, peer + 1), MPI_INTEGER, cnt, ierr)
                if (cnt /= 1) call fail('Waitall: wrong MPI_Get_count')
            end if
        end do
        do i = 1, 2 * nprocs
            if (reqs(i) /= MPI_REQUEST_NULL) call fail('Waitall left a request')
        end do
    end do

    ! Iprobe: false with nothing to match, then true for the message from the left.
    call MPI_Iprobe(MPI_ANY_SOURCE, 99, MPI_COMM_WORLD, flag, status, ierr)
    if (ierr /= MPI_SUCCESS) call fail('MPI_Iprobe returned an error')
    if (flag) call fail('MPI_Iprobe set its flag with no message to match')
    peer = mod(rank + 1, nprocs)
    sbuf = rank
    call MPI_Isend(sbuf, 3, MPI_INTEGER, peer, 30, MPI_COMM_WORLD, req, ierr)
    do while (.not. flag)
        call MPI_Iprobe(MPI_ANY_SOURCE, 30, MPI_COMM_WORLD, flag, status, ierr)
    end do
    peer = mod(rank - 1 + nprocs, nprocs)
    if (status(MPI_SOURCE) /= peer .or. status(MPI_TAG) /= 30) call fail('Iprobe: wrong status')
    call MPI_Get_count(status, MPI_INTEGER, cnt, ierr)
    if (cnt /= 3) call fail('Iprobe: wrong count')
    call MPI_Probe(peer, MPI_ANY_TAG, MPI_COMM_WORLD, status, ierr)
    if (ierr /= MPI_SUCCESS) call fail('MPI_Probe returned an error')
    if (status(MPI_TAG) /= 30) call fail('Probe: wrong MPI_TAG')
    call MPI_Recv(small, cnt, MPI_INTEGER, peer, 30, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
    if (any(small(1:3) /= peer)) call fail('Probe then Recv: wrong data')
    call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)

    ! Sendrecv with MPI_STATUS_IGNORE, and Sendrecv_replace.
    small(1) = rank
    call MPI_Sendrecv(small(1), 1, MPI_INTEGER, mod(rank + 1, nprocs), 40, small(2), 1, &
                      MPI_INTEGER, peer, 40, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
    if (ierr /= MPI_SUCCESS .or. small(2) /= peer) call fail('Sendrecv: wrong data')
    small(1:4) = [rank, 2 * rank, 3 * rank, 4 * rank]
    call MPI_Sendrecv_replace(small, 4, MPI_INTEGER, mod(rank + 1, nprocs), 41, peer, 41, &
                              MPI_COMM_WORLD, status, ierr)
    if (ierr /= MPI_SUCCESS) call fail('MPI_Sendrecv_replace returned an error')
    if (any(small(1:4) /= [peer, 2 * peer, 3 * peer, 4 * peer])) &
        call fail('Sendrecv_replace: wrong data')
    if (status(MPI_SOURCE) /= peer .or. status(MPI_TAG) /= 41) &
        call fail('Sendrecv_replace: wrong status')

    write (*, '(a, i0, a)') 'fort_p2p_free ', rank, ': ok'
    deallocate(stats, reqs, sbuf, rbuf, seen)
    call MPI_Finalize(ierr)

contains

    subroutine fail(what)
        character(len=*), intent(in) :: what
        integer :: ierr2

        write (*, '(a, i0, a, a)') 'FAIL: fort_p2p_free rank ', rank, ': ', what
        flush (6)
        call MPI_Abort(MPI_COMM_WORLD, 1, ierr2)
    end subroutine fail
end program fort_p2p_free
