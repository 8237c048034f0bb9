! An ordinary Fortran MPI program, built without a2afft, in one of three bindings (BINDING=1:
! mpif.h, 2: use mpi, 3: use mpi_f08). It calls MPI_IALLTOALL on MPI_COMM_WORLD and on a split
! and completes it through each of MPI_WAIT, MPI_TEST, MPI_WAITALL, MPI_TESTALL, MPI_WAITANY,
! MPI_TESTANY, MPI_WAITSOME and MPI_TESTSOME, with a point-to-point pair in the same request
! array (whose status must name its sender: the statuses stay the library's); two calls in
! flight on one plan; one from MPI_BOTTOM with a type at an absolute address (staged); and one
! with MPI_IN_PLACE (Fortran's own constant), which falls back. Every received element is
! checked against what its sender put there (each value names sender, receiver, element and
! round), and every request must end as MPI_REQUEST_NULL, each completed exactly once, with
! ierror MPI_SUCCESS. With PERSISTENT (MPI 4 libraries), also MPI_ALLTOALL_INIT and
! MPI_ALLTOALLV_INIT, each started three times (MPI_START, MPI_STARTALL) and completed by
! MPI_WAIT, MPI_WAITANY and MPI_TEST, then freed.
! Prints "N of N checks matched" and stops with status 1 on any mismatch.
#if BINDING == 3
#define HANDLE(kind) type(kind)
#define STATUSES type(MPI_Status) :: statuses(3)
#define STATUS_OF(i) statuses(i)
#else
#define HANDLE(kind) integer
#define STATUSES integer :: statuses(MPI_STATUS_SIZE, 3)
#define STATUS_OF(i) statuses(:, i)
#endif
program ialltoall_fortran
#if BINDING == 2
  use mpi
#elif BINDING == 3
  use mpi_f08
#endif
  implicit none
#if BINDING == 1
  include 'mpif.h'
#endif
  HANDLE(MPI_Comm) :: comms(2), halves
  integer :: ierror, world_rank, k, how, checks, failures, shift
  character(len=8), parameter :: names(3) = [character(len=8) :: 'mpif.h', 'use mpi', 'mpi_f08']
  character(len=12), parameter :: completions(8) = [character(len=12) :: 'MPI_WAIT', &
      'MPI_TEST', 'MPI_WAITALL', 'MPI_TESTALL', 'MPI_WAITANY', 'MPI_TESTANY', 'MPI_WAITSOME', &
      'MPI_TESTSOME']

  call MPI_Init(ierror)
  call MPI_Comm_rank(MPI_COMM_WORLD, world_rank, ierror)
  call MPI_Comm_split(MPI_COMM_WORLD, mod(world_rank, 2), world_rank, halves, ierror)
  comms(1) = MPI_COMM_WORLD
  comms(2) = halves
  checks = 0
  failures = 0
  shift = index_shift()
  do k = 1, 2
    do how = 1, 8
      call tally(completed_by(comms(k), how), 'MPI_IALLTOALL with '//completions(how))
    end do
    call tally(two_in_flight(comms(k)), 'two MPI_IALLTOALL in flight')
    call tally(bottom(comms(k)), 'MPI_IALLTOALL from MPI_BOTTOM')
    call tally(in_place(comms(k)), 'MPI_IALLTOALL MPI_IN_PLACE')
#ifdef PERSISTENT
    call tally(persistent(comms(k), .false.), 'MPI_ALLTOALL_INIT')
    call tally(persistent(comms(k), .true.), 'MPI_ALLTOALLV_INIT')
#endif
  end do
  if (world_rank == 0) print '(a,a,a,i0,a,i0,a)', 'ialltoall_fortran (', &
      trim(names(BINDING)), '): ', checks - failures, ' of ', checks, ' checks matched'
  call MPI_Comm_free(halves, ierror)
  call MPI_Finalize(ierror)
  if (failures /= 0) stop 1

contains

  ! What the library's MPI_WAITANY says for the second of two requests, less 2: 0, or -1 where
  ! it counts from 0 (MPICH 4.0.2's mpi_f08 MPI_WAITANY, MPI_TESTANY, MPI_WAITSOME and
  ! MPI_TESTSOME: pmodels/mpich#6270). The drop-in must give the library's own indices.
  integer function index_shift()
    HANDLE(MPI_Request) :: pair(2)
    integer :: index, ierr
    integer, asynchronous :: inbox
    pair(1) = MPI_REQUEST_NULL
    call MPI_Irecv(inbox, 1, MPI_INTEGER, MPI_PROC_NULL, 0, MPI_COMM_SELF, pair(2), ierr)
    call MPI_Waitany(2, pair, index, MPI_STATUS_IGNORE, ierr)
    index_shift = index - 2
  end function

  ! What rank `from` puts in element `i` (from 1) of its block for rank `to`.
  integer function value_of(from, to, i, round)
    integer, intent(in) :: from, to, i, round
    value_of = ((from * 100 + to) * 100 + i) * 100 + round
  end function

  subroutine tally(bad, what)
    integer, intent(in) :: bad
    character(len=*), intent(in) :: what
    integer :: total, ierr
    call MPI_Allreduce(bad, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
    checks = checks + 1
    if (total /= 0) then
      failures = failures + 1
      if (world_rank == 0) print '(a,a,a,i0,a)', 'FAIL ', what, ': ', total, ' wrong'
    end if
  end subroutine

  ! Send blocks of n integers per peer, for `round`.
  subroutine fill(send, n, rank, ranks, round)
    integer, intent(out) :: send(:)
    integer, intent(in) :: n, rank, ranks, round
    integer :: j, i
    do j = 0, ranks - 1
      do i = 1, n
        send(j * n + i) = value_of(rank, j, i, round)
      end do
    end do
  end subroutine

  ! Received elements that are not what their sender put there.
  integer function wrong(recv, n, rank, ranks, round) result(bad)
    integer, intent(in) :: recv(:), n, rank, ranks, round
    integer :: j, i
    bad = 0
    do j = 0, ranks - 1
      do i = 1, n
        if (recv(j * n + i) /= value_of(j, rank, i, round)) bad = bad + 1
      end do
    end do
  end function

  ! 1 unless `status` names `source` as its sender.
  integer function wrong_source(status, source)
#if BINDING == 3
    type(MPI_Status), intent(in) :: status
    integer, intent(in) :: source
    wrong_source = merge(0, 1, status%MPI_SOURCE == source)
#else
    integer, intent(in) :: status(MPI_STATUS_SIZE), source
    wrong_source = merge(0, 1, status(MPI_SOURCE) == source)
#endif
  end function

  ! MPI_IALLTOALL of 4 integers per peer beside a ring pair (receive from the left, send to the
  ! right), all three completed through completion `how`.
  integer function completed_by(comm, how) result(bad)
    HANDLE(MPI_Comm), intent(in) :: comm
    integer, intent(in) :: how
    integer, parameter :: n = 4
    integer :: rank, ranks, left, ierr
    integer, allocatable, asynchronous :: send(:), recv(:)
    integer, asynchronous :: inbox, outbox
    HANDLE(MPI_Request) :: requests(3)
    call MPI_Comm_rank(comm, rank, ierr)
    call MPI_Comm_size(comm, ranks, ierr)
    left = mod(rank + ranks - 1, ranks)
    allocate (send(n * ranks), recv(n * ranks))
    call fill(send, n, rank, ranks, how)
    recv = -1
    inbox = -1
    outbox = rank
    call MPI_Ialltoall(send, n, MPI_INTEGER, recv, n, MPI_INTEGER, comm, requests(1), ierr)
    bad = merge(0, 1, ierr == MPI_SUCCESS)
    call MPI_Irecv(inbox, 1, MPI_INTEGER, left, 7, comm, requests(2), ierr)
    call MPI_Isend(outbox, 1, MPI_INTEGER, mod(rank + 1, ranks), 7, comm, requests(3), ierr)
    bad = bad + complete(how, requests, left)
    bad = bad + wrong(recv, n, rank, ranks, how) + merge(0, 1, inbox == left)
    bad = bad + count([requests(1) /= MPI_REQUEST_NULL, requests(2) /= MPI_REQUEST_NULL, &
                       requests(3) /= MPI_REQUEST_NULL])
  end function

  ! Completes the three requests through `how`; counts what went wrong: an ierror, a request
  ! completed twice or never, the receive's status not naming `left`.
  integer function complete(how, requests, left) result(bad)
    integer, intent(in) :: how, left
    HANDLE(MPI_Request), intent(inout) :: requests(3)
    STATUSES
    integer :: i, index, outcount, indices(3), ierr, done, seen(3)
    logical :: flag
    bad = 0
    seen = 0
    done = 0
    select case (how)
    case (1)
      do i = 1, 3
        call MPI_Wait(requests(i), STATUS_OF(i), ierr)
        bad = bad + merge(0, 1, ierr == MPI_SUCCESS)
      end do
      bad = bad + wrong_source(STATUS_OF(2), left)
    case (2)
      do i = 1, 3
        flag = .false.
        do while (.not. flag)
          call MPI_Test(requests(i), flag, MPI_STATUS_IGNORE, ierr)
          bad = bad + merge(0, 1, ierr == MPI_SUCCESS)
        end do
      end do
    case (3)
      call MPI_Waitall(3, requests, statuses, ierr)
      bad = bad + merge(0, 1, ierr == MPI_SUCCESS) + wrong_source(STATUS_OF(2), left)
    case (4)
      flag = .false.
      do while (.not. flag)
        call MPI_Testall(3, requests, flag, MPI_STATUSES_IGNORE, ierr)
        bad = bad + merge(0, 1, ierr == MPI_SUCCESS)
      end do
    case (5, 6)
      do while (done < 3 .and. bad == 0)
        if (how == 5) then
          call MPI_Waitany(3, requests, index, STATUS_OF(1), ierr)
          flag = .true.
        else
          call MPI_Testany(3, requests, index, flag, STATUS_OF(1), ierr)
        end if
        bad = bad + merge(0, 1, ierr == MPI_SUCCESS)
        if (.not. flag) cycle
        index = index - shift
        if (index < 1 .or. index > 3) then
          bad = bad + 1
        else
          seen(index) = seen(index) + 1
          done = done + 1
          if (index == 2) bad = bad + wrong_source(STATUS_OF(1), left)
        end if
      end do
    case default
      do while (done < 3 .and. bad == 0)
        if (how == 7) then
          call MPI_Waitsome(3, requests, outcount, indices, statuses, ierr)
        else
          call MPI_Testsome(3, requests, outcount, indices, statuses, ierr)
        end if
        bad = bad + merge(0, 1, ierr == MPI_SUCCESS)
        if (outcount == MPI_UNDEFINED) bad = bad + 1
        do i = 1, max(0, outcount)
          index = indices(i) - shift
          if (index < 1 .or. index > 3) then
            bad = bad + 1
            cycle
          end if
          seen(index) = seen(index) + 1
          done = done + 1
          if (index == 2) bad = bad + wrong_source(STATUS_OF(i), left)
        end do
      end do
    end select
    if (how >= 5) bad = bad + count(seen /= 1)
  end function

  ! Two MPI_IALLTOALL of one block size (one plan) in flight: the second completes the first.
  integer function two_in_flight(comm) result(bad)
    HANDLE(MPI_Comm), intent(in) :: comm
    integer, parameter :: n = 6
    integer :: rank, ranks, ierr, ierr2
    integer, allocatable, asynchronous :: send1(:), recv1(:), send2(:), recv2(:)
    HANDLE(MPI_Request) :: pair(2)
    call MPI_Comm_rank(comm, rank, ierr)
    call MPI_Comm_size(comm, ranks, ierr)
    allocate (send1(n * ranks), recv1(n * ranks), send2(n * ranks), recv2(n * ranks))
    call fill(send1, n, rank, ranks, 11)
    call fill(send2, n, rank, ranks, 12)
    recv1 = -1
    recv2 = -1
    call MPI_Ialltoall(send1, n, MPI_INTEGER, recv1, n, MPI_INTEGER, comm, pair(1), ierr)
    call MPI_Ialltoall(send2, n, MPI_INTEGER, recv2, n, MPI_INTEGER, comm, pair(2), ierr2)
    bad = merge(0, 1, ierr == MPI_SUCCESS .and. ierr2 == MPI_SUCCESS)
    call MPI_Waitall(2, pair, MPI_STATUSES_IGNORE, ierr)
    bad = bad + merge(0, 1, ierr == MPI_SUCCESS)
    bad = bad + wrong(recv1, n, rank, ranks, 11) + wrong(recv2, n, rank, ranks, 12)
  end function

  ! MPI_IALLTOALL from MPI_BOTTOM: the send type sits at the send buffer's absolute address, so
  ! block j (at j extents from MPI_BOTTOM) is send(j + 1).
  integer function bottom(comm) result(bad)
    HANDLE(MPI_Comm), intent(in) :: comm
    integer :: rank, ranks, ierr
    integer :: lengths(1)
    integer(kind=MPI_ADDRESS_KIND) :: where(1)
    HANDLE(MPI_Datatype) :: absolute
    HANDLE(MPI_Request) :: request
    integer, allocatable, target, asynchronous :: send(:), recv(:)
    call MPI_Comm_rank(comm, rank, ierr)
    call MPI_Comm_size(comm, ranks, ierr)
    allocate (send(ranks), recv(ranks))
    call fill(send, 1, rank, ranks, 13)
    recv = -1
    lengths(1) = 1
    call MPI_Get_address(send(1), where(1), ierr)
    call MPI_Type_create_hindexed(1, lengths, where, MPI_INTEGER, absolute, ierr)
    call MPI_Type_commit(absolute, ierr)
    call MPI_Ialltoall(MPI_BOTTOM, 1, absolute, recv, 1, MPI_INTEGER, comm, request, ierr)
    bad = merge(0, 1, ierr == MPI_SUCCESS)
    call MPI_Wait(request, MPI_STATUS_IGNORE, ierr)
    bad = bad + merge(0, 1, ierr == MPI_SUCCESS) + wrong(recv, 1, rank, ranks, 13)
    call MPI_Type_free(absolute, ierr)
  end function

  ! MPI_IALLTOALL in place (the library's call: the drop-in falls back).
  integer function in_place(comm) result(bad)
    HANDLE(MPI_Comm), intent(in) :: comm
    integer, parameter :: n = 3
    integer :: rank, ranks, ierr
    integer, allocatable, asynchronous :: recv(:)
    HANDLE(MPI_Request) :: request
    call MPI_Comm_rank(comm, rank, ierr)
    call MPI_Comm_size(comm, ranks, ierr)
    allocate (recv(n * ranks))
    call fill(recv, n, rank, ranks, 14)
    call MPI_Ialltoall(MPI_IN_PLACE, 0, MPI_INTEGER, recv, n, MPI_INTEGER, comm, request, ierr)
    bad = merge(0, 1, ierr == MPI_SUCCESS)
    call MPI_Wait(request, MPI_STATUS_IGNORE, ierr)
    bad = bad + merge(0, 1, ierr == MPI_SUCCESS) + wrong(recv, n, rank, ranks, 14)
  end function

#ifdef PERSISTENT
  ! A persistent MPI_ALLTOALL of n integers per peer or, `uneven`, MPI_ALLTOALLV with rank i
  ! sending rank j mod(3i + 5j + 1, 4) integers (empty peers among them), started three times
  ! with new data (MPI_START, MPI_STARTALL, MPI_START) and completed by MPI_WAIT, MPI_WAITANY and
  ! MPI_TEST (MPICH 4.0.2's own MPI_TESTALL fails on its persistent collectives), then freed.
  integer function persistent(comm, uneven) result(bad)
    HANDLE(MPI_Comm), intent(in) :: comm
    logical, intent(in) :: uneven
    integer, parameter :: n = 3
    integer :: rank, ranks, j, i, round, index, ierr
    logical :: flag
    integer, allocatable :: sc(:), sd(:), rc(:), rd(:)
    integer, allocatable, asynchronous :: send(:), recv(:)
    HANDLE(MPI_Request) :: request, started(1)
    call MPI_Comm_rank(comm, rank, ierr)
    call MPI_Comm_size(comm, ranks, ierr)
    allocate (sc(ranks), sd(ranks), rc(ranks), rd(ranks))
    do j = 0, ranks - 1
      sc(j + 1) = merge(mod(3 * rank + 5 * j + 1, 4), n, uneven)
      rc(j + 1) = merge(mod(3 * j + 5 * rank + 1, 4), n, uneven)
    end do
    sd(1) = 0
    rd(1) = 0
    do j = 2, ranks
      sd(j) = sd(j - 1) + sc(j - 1)
      rd(j) = rd(j - 1) + rc(j - 1)
    end do
    allocate (send(max(1, sum(sc))), recv(max(1, sum(rc))))
    if (uneven) then
      call MPI_Alltoallv_init(send, sc, sd, MPI_INTEGER, recv, rc, rd, MPI_INTEGER, comm, &
                              MPI_INFO_NULL, request, ierr)
    else
      call MPI_Alltoall_init(send, n, MPI_INTEGER, recv, n, MPI_INTEGER, comm, MPI_INFO_NULL, &
                             request, ierr)
    end if
    bad = merge(0, 1, ierr == MPI_SUCCESS)
    do round = 1, 3
      do j = 0, ranks - 1
        do i = 1, sc(j + 1)
          send(sd(j + 1) + i) = value_of(rank, j, i, 20 + round)
        end do
      end do
      recv = -1
      started(1) = request
      select case (round)
      case (1)
        call MPI_Start(request, ierr)
        call MPI_Wait(request, MPI_STATUS_IGNORE, ierr)
      case (2)
        call MPI_Startall(1, started, ierr)
        call MPI_Waitany(1, started, index, MPI_STATUS_IGNORE, ierr)
        bad = bad + merge(0, 1, index - shift == 1)
      case default
        call MPI_Start(request, ierr)
        flag = .false.
        do while (.not. flag)
          call MPI_Test(request, flag, MPI_STATUS_IGNORE, ierr)
        end do
      end select
      bad = bad + merge(0, 1, ierr == MPI_SUCCESS .and. request /= MPI_REQUEST_NULL)
      do j = 0, ranks - 1
        do i = 1, rc(j + 1)
          if (recv(rd(j + 1) + i) /= value_of(j, rank, i, 20 + round)) bad = bad + 1
        end do
      end do
    end do
    call MPI_Request_free(request, ierr)
    bad = bad + merge(0, 1, ierr == MPI_SUCCESS .and. request == MPI_REQUEST_NULL)
  end function
#endif

end program
