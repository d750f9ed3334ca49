! fort_p2p.f - integration test of mpif.h in fixed source form:
! point-to-point with status checks.  A ring of any number of ranks
! (1 included):
! Sendrecv with MPI_ANY_SOURCE/MPI_ANY_TAG (MPI_SOURCE, MPI_TAG,
! MPI_Get_count), Isend + Recv with MPI_STATUS_IGNORE, Isend/Irecv to
! both neighbours completed by MPI_Waitall with MPI_STATUSES_IGNORE and
! with a status array, MPI_Iprobe (its LOGICAL flag false, then true)
! and MPI_Probe.
!
! Plain portable MPI: it must pass on any correct MPI.  Prints
! "fort_p2p R: ok" per rank, or "FAIL: fort_p2p rank R: ..." and
! aborts the job.
      program fort_p2p
      implicit none
      include 'mpif.h'
      integer ierr, rank, nprocs, left, right, i, cnt
      integer status(MPI_STATUS_SIZE)
      integer stats(MPI_STATUS_SIZE, 4)
      integer reqs(4), req
      integer sbuf(8), rbuf(8), rl(8), rr(8)
      double precision dsend(3), drecv(3)
      logical flag

      call MPI_INIT(ierr)
      call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
      call MPI_COMM_SIZE(MPI_COMM_WORLD, nprocs, ierr)
      if (ierr .ne. MPI_SUCCESS) call fail(rank, 'MPI_COMM_SIZE')
      right = mod(rank + 1, nprocs)
      left = mod(rank - 1 + nprocs, nprocs)

!     Sendrecv, the receive side with wildcards.
      do i = 1, 8
         sbuf(i) = 100 * rank + i
         rbuf(i) = -1
      end do
      call MPI_SENDRECV(sbuf, 5, MPI_INTEGER, right, 10 + rank,
     &     rbuf, 8, MPI_INTEGER, MPI_ANY_SOURCE, MPI_ANY_TAG,
     &     MPI_COMM_WORLD, status, ierr)
      if (ierr .ne. MPI_SUCCESS) call fail(rank, 'MPI_SENDRECV')
      if (status(MPI_SOURCE) .ne. left)
     &     call fail(rank, 'wildcard receive: wrong MPI_SOURCE')
      if (status(MPI_TAG) .ne. 10 + left)
     &     call fail(rank, 'wildcard receive: wrong MPI_TAG')
      call MPI_GET_COUNT(status, MPI_INTEGER, cnt, ierr)
      if (ierr .ne. MPI_SUCCESS .or. cnt .ne. 5)
     &     call fail(rank, 'MPI_GET_COUNT is not 5 integers')
      do i = 1, 5
         if (rbuf(i) .ne. 100 * left + i)
     &        call fail(rank, 'Sendrecv: wrong data')
      end do
      if (rbuf(6) .ne. -1)
     &     call fail(rank, 'Sendrecv wrote past the message')
!     No later message may meet the wildcards above.
      call MPI_BARRIER(MPI_COMM_WORLD, ierr)

!     Sendrecv of doubles, explicit source and tag; MPI_Get_count in
!     doubles.
      dsend(1) = 0.5d0 * rank
      dsend(2) = -1.25d0
      dsend(3) = 1.0d300
      call MPI_SENDRECV(dsend, 3, MPI_DOUBLE_PRECISION, left, 20,
     &     drecv, 3, MPI_DOUBLE_PRECISION, right, 20,
     &     MPI_COMM_WORLD, status, ierr)
      if (ierr .ne. MPI_SUCCESS) call fail(rank, 'MPI_SENDRECV d')
      if (status(MPI_SOURCE) .ne. right .or. status(MPI_TAG) .ne. 20)
     &     call fail(rank, 'Sendrecv d: wrong source or tag')
      call MPI_GET_COUNT(status, MPI_DOUBLE_PRECISION, cnt, ierr)
      if (cnt .ne. 3) call fail(rank, 'Sendrecv d: count is not 3')
      if (drecv(1) .ne. 0.5d0 * right .or. drecv(2) .ne. -1.25d0
     &     .or. drecv(3) .ne. 1.0d300)
     &     call fail(rank, 'Sendrecv d: wrong data')

!     Isend + Recv with MPI_STATUS_IGNORE, then MPI_WAIT likewise.
      call MPI_ISEND(sbuf, 8, MPI_INTEGER, right, 30, MPI_COMM_WORLD,
     &     req, ierr)
      if (ierr .ne. MPI_SUCCESS) call fail(rank, 'MPI_ISEND')
      call MPI_RECV(rbuf, 8, MPI_INTEGER, left, 30, MPI_COMM_WORLD,
     &     MPI_STATUS_IGNORE, ierr)
      if (ierr .ne. MPI_SUCCESS) call fail(rank, 'MPI_RECV ignore')
      call MPI_WAIT(req, MPI_STATUS_IGNORE, ierr)
      if (ierr .ne. MPI_SUCCESS) call fail(rank, 'MPI_WAIT')
      if (req .ne. MPI_REQUEST_NULL)
     &     call fail(rank, 'MPI_WAIT left the request')
      do i = 1, 8
         if (rbuf(i) .ne. 100 * left + i)
     &        call fail(rank, 'Recv with MPI_STATUS_IGNORE: wrong data')
      end do

!     Both neighbours, MPI_WAITALL with MPI_STATUSES_IGNORE.
      call post4(rank, left, right, 40, sbuf, rl, rr, reqs)
      call MPI_WAITALL(4, reqs, MPI_STATUSES_IGNORE, ierr)
      if (ierr .ne. MPI_SUCCESS) call fail(rank, 'MPI_WAITALL ign')
      call check4(rank, left, right, 40, rl, rr, reqs)

!     Again, with statuses: the receives' sources and tags.
      call post4(rank, left, right, 50, sbuf, rl, rr, reqs)
      call MPI_WAITALL(4, reqs, stats, ierr)
      if (ierr .ne. MPI_SUCCESS) call fail(rank, 'MPI_WAITALL')
      call check4(rank, left, right, 50, rl, rr, reqs)
      if (stats(MPI_SOURCE, 1) .ne. left .or.
     &     stats(MPI_TAG, 1) .ne. 51)
     &     call fail(rank, 'Waitall: status 1 source or tag')
      if (stats(MPI_SOURCE, 2) .ne. right .or.
     &     stats(MPI_TAG, 2) .ne. 50)
     &     call fail(rank, 'Waitall: status 2 source or tag')
      call MPI_GET_COUNT(stats(1, 2), MPI_INTEGER, cnt, ierr)
      if (cnt .ne. 4) call fail(rank, 'Waitall: status 2 count')

!     Iprobe: nothing has tag 99, so the flag is false.
      flag = .true.
      call MPI_IPROBE(MPI_ANY_SOURCE, 99, MPI_COMM_WORLD, flag,
     &     status, ierr)
      if (ierr .ne. MPI_SUCCESS) call fail(rank, 'MPI_IPROBE')
      if (flag) call fail(rank, 'MPI_IPROBE flag true with no message')

!     Iprobe until a message of 3 + left integers from the left shows.
      do i = 1, 8
         sbuf(i) = 7 * rank + i
      end do
      call MPI_ISEND(sbuf, 3 + rank, MPI_INTEGER, right, 60,
     &     MPI_COMM_WORLD, req, ierr)
      flag = .false.
      do while (.not. flag)
         call MPI_IPROBE(MPI_ANY_SOURCE, 60, MPI_COMM_WORLD, flag,
     &        status, ierr)
         if (ierr .ne. MPI_SUCCESS) call fail(rank, 'MPI_IPROBE 60')
      end do
      if (status(MPI_SOURCE) .ne. left .or. status(MPI_TAG) .ne. 60)
     &     call fail(rank, 'Iprobe: wrong source or tag')
      call MPI_GET_COUNT(status, MPI_INTEGER, cnt, ierr)
      if (cnt .ne. 3 + left) call fail(rank, 'Iprobe: wrong count')
      call MPI_RECV(rbuf, cnt, MPI_INTEGER, status(MPI_SOURCE), 60,
     &     MPI_COMM_WORLD, status, ierr)
      call MPI_WAIT(req, status, ierr)
      do i = 1, 3 + left
         if (rbuf(i) .ne. 7 * left + i)
     &        call fail(rank, 'Iprobe: wrong data')
      end do

!     Probe (blocking).
      call MPI_ISEND(sbuf, 2, MPI_INTEGER, right, 70, MPI_COMM_WORLD,
     &     req, ierr)
      call MPI_PROBE(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD,
     &     status, ierr)
      if (ierr .ne. MPI_SUCCESS) call fail(rank, 'MPI_PROBE')
      if (status(MPI_SOURCE) .ne. left .or. status(MPI_TAG) .ne. 70)
     &     call fail(rank, 'Probe: wrong source or tag')
      call MPI_GET_COUNT(status, MPI_INTEGER, cnt, ierr)
      if (cnt .ne. 2) call fail(rank, 'Probe: wrong count')
      call MPI_RECV(rbuf, 2, MPI_INTEGER, left, 70, MPI_COMM_WORLD,
     &     MPI_STATUS_IGNORE, ierr)
      call MPI_WAIT(req, MPI_STATUS_IGNORE, ierr)

      write (*, '(a, i0, a)') 'fort_p2p ', rank, ': ok'
      call MPI_FINALIZE(ierr)
      end

!     Irecv from left (tag TAG + 1) and right (TAG), Isend to right
!     (TAG + 1) and left (TAG): 4 integers each way.
      subroutine post4(rank, left, right, tag, sbuf, rl, rr, reqs)
      implicit none
      include 'mpif.h'
      integer rank, left, right, tag, sbuf(8), rl(8), rr(8), reqs(4)
      integer ierr, i
      do i = 1, 8
         sbuf(i) = 1000 * rank + tag + i
         rl(i) = -1
         rr(i) = -1
      end do
      call MPI_IRECV(rl, 4, MPI_INTEGER, left, tag + 1,
     &     MPI_COMM_WORLD, reqs(1), ierr)
      call MPI_IRECV(rr, 8, MPI_INTEGER, right, tag,
     &     MPI_COMM_WORLD, reqs(2), ierr)
      call MPI_ISEND(sbuf, 4, MPI_INTEGER, right, tag + 1,
     &     MPI_COMM_WORLD, reqs(3), ierr)
      call MPI_ISEND(sbuf, 4, MPI_INTEGER, left, tag,
     &     MPI_COMM_WORLD, reqs(4), ierr)
      if (ierr .ne. MPI_SUCCESS) call fail(rank, 'MPI_ISEND post4')
      end

      subroutine check4(rank, left, right, tag, rl, rr, reqs)
      implicit none
      include 'mpif.h'
      integer rank, left, right, tag, rl(8), rr(8), reqs(4)
      integer i
      do i = 1, 4
         if (reqs(i) .ne. MPI_REQUEST_NULL)
     &        call fail(rank, 'Waitall left a request')
      end do
      do i = 1, 4
         if (rl(i) .ne. 1000 * left + tag + i .or.
     &        rr(i) .ne. 1000 * right + tag + i)
     &        call fail(rank, 'Waitall: wrong data')
      end do
      if (rl(5) .ne. -1 .or. rr(5) .ne. -1)
     &     call fail(rank, 'Waitall: data past the message')
      end

      subroutine fail(rank, what)
      implicit none
      include 'mpif.h'
      integer rank, ierr
      character*(*) what
      write (*, '(a, i0, a, a)') 'FAIL: fort_p2p rank ', rank, ': ',
     &     what
      flush (6)
      call MPI_ABORT(MPI_COMM_WORLD, 1, ierr)
      end
