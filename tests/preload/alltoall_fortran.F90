! An ordinary Fortran MPI program, built without a2afft, in one of three bindings (BINDING=1:
! mpif.h, 2: use mpi, 3: use mpi_f08). It calls MPI_ALLTOALL and MPI_ALLTOALLV on MPI_COMM_WORLD
! and on a split and checks every received element against what its sender put there (each
! value names sender, receiver, element and round), and that ierror is MPI_SUCCESS. Routed:
! integers, doubles, uneven ALLTOALLV counts with empty peers, and MPI_ALLTOALL from MPI_BOTTOM
! with a type at an absolute address (staged). Falling back, still checked: MPI_IN_PLACE
! (Fortran's own constant, not C's). Prints "N of N checks matched" and stops with status 1 on any mismatch.
#if BINDING == 3
#define HANDLE(kind) type(kind)
#else
#define HANDLE(kind) integer
#endif
program alltoall_fortran
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
  integer :: ierror, world_rank, k, round, checks, failures
  character(len=8), parameter :: names(3) = [character(len=8) :: 'mpif.h', 'use mpi', 'mpi_f08']

  call MPI_Init(ierror)
  call MPI_Comm_rank(MPI_COMM_WORLD, world_rank, ierror)
  call MPI_Comm_split(MPI_COMM_WORLD, mod(world_rank, 2), world_rank, halves, ierror)
  comms(1) = MPI_COMM_WORLD
  comms(2) = halves
  checks = 0
  failures = 0
  do k = 1, 2
    do round = 1, 2  ! twice: the cached plan again, other data
      call tally(integers(comms(k), round, .false.), 'MPI_ALLTOALL MPI_INTEGER')
      call tally(doubles(comms(k), round), 'MPI_ALLTOALL MPI_DOUBLE_PRECISION')
      call tally(integers(comms(k), round, .true.), 'MPI_ALLTOALL MPI_IN_PLACE')
      call tally(bottom(comms(k), round), 'MPI_ALLTOALL MPI_BOTTOM')
      call tally(uneven(comms(k), round, .false.), 'MPI_ALLTOALLV uneven counts')
      call tally(uneven(comms(k), round, .true.), 'MPI_ALLTOALLV MPI_IN_PLACE')
    end do
  end do
  if (world_rank == 0) print '(a,a,a,i0,a,i0,a)', 'alltoall_fortran (', trim(names(BINDING)), &
      '): ', checks - failures, ' of ', checks, ' checks matched'
  call MPI_Comm_free(halves, ierror)
  call MPI_Finalize(ierror)
  if (failures /= 0) stop 1

contains

  ! What rank `from` puts in element `i` (from 1) of its block for rank `to`.
  integer function value_of(from, to, i, round)
    integer, intent(in) :: from, to, i, round
    value_of = from * 100000 + to * 1000 + i * 10 + round
  end function

  subroutine tally(bad, what)
    integer, intent(in) :: bad
    character(len=*), intent(in) :: what
    integer :: total, ierr
    call MPI_Allreduce(bad, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
    checks = checks + 1
    if (total /= 0) then
      failures = failures + 1
      if (world_rank == 0) print '(a,a,a,i0,a)', 'FAIL ', what, ': ', total, ' elements wrong'
    end if
  end subroutine

  ! MPI_ALLTOALL of 5 integers per peer, from a send buffer or in place; mismatches returned.
  integer function integers(comm, round, in_place) result(bad)
    HANDLE(MPI_Comm), intent(in) :: comm
    integer, intent(in) :: round
    logical, intent(in) :: in_place
    integer, parameter :: n = 5
    integer :: rank, ranks, j, i, ierr
    integer, allocatable :: send(:), recv(:)
    call MPI_Comm_rank(comm, rank, ierr)
    call MPI_Comm_size(comm, ranks, ierr)
    allocate (send(n * ranks), recv(n * ranks))
    do j = 0, ranks - 1
      do i = 1, n
        send(j * n + i) = value_of(rank, j, i, round)
      end do
    end do
    if (in_place) then
      recv = send
      call MPI_Alltoall(MPI_IN_PLACE, 0, MPI_INTEGER, recv, n, MPI_INTEGER, comm, ierr)
    else
      recv = -1
      call MPI_Alltoall(send, n, MPI_INTEGER, recv, n, MPI_INTEGER, comm, ierr)
    end if
    bad = merge(0, 1, ierr == MPI_SUCCESS)
    do j = 0, ranks - 1
      do i = 1, n
        if (recv(j * n + i) /= value_of(j, rank, i, round)) bad = bad + 1
      end do
    end do
  end function

  ! MPI_ALLTOALL of 3 double precision values per peer.
  integer function doubles(comm, round) result(bad)
    HANDLE(MPI_Comm), intent(in) :: comm
    integer, intent(in) :: round
    integer, parameter :: n = 3
    integer :: rank, ranks, j, i, ierr
    double precision, allocatable :: send(:), recv(:)
    call MPI_Comm_rank(comm, rank, ierr)
    call MPI_Comm_size(comm, ranks, ierr)
    allocate (send(n * ranks), recv(n * ranks))
    do j = 0, ranks - 1
      do i = 1, n
        send(j * n + i) = value_of(rank, j, i, round) + 0.25d0
      end do
    end do
    recv = -1
    call MPI_Alltoall(send, n, MPI_DOUBLE_PRECISION, recv, n, MPI_DOUBLE_PRECISION, comm, ierr)
    bad = merge(0, 1, ierr == MPI_SUCCESS)
    do j = 0, ranks - 1
      do i = 1, n
        if (recv(j * n + i) /= value_of(j, rank, i, round) + 0.25d0) bad = bad + 1
      end do
    end do
  end function

  ! MPI_ALLTOALL from MPI_BOTTOM: the send type sits at the send buffer's absolute address, so
  ! block j (at j extents from MPI_BOTTOM) is send(j + 1).
  integer function bottom(comm, round) result(bad)
    HANDLE(MPI_Comm), intent(in) :: comm
    integer, intent(in) :: round
    integer :: rank, ranks, j, ierr
    integer :: lengths(1)
    integer(kind=MPI_ADDRESS_KIND) :: where(1)
    HANDLE(MPI_Datatype) :: absolute
    integer, allocatable, target :: send(:), recv(:)
    call MPI_Comm_rank(comm, rank, ierr)
    call MPI_Comm_size(comm, ranks, ierr)
    allocate (send(ranks), recv(ranks))
    do j = 0, ranks - 1
      send(j + 1) = value_of(rank, j, 1, round)
    end do
    recv = -1
    lengths(1) = 1
    call MPI_Get_address(send(1), where(1), ierr)
    call MPI_Type_create_hindexed(1, lengths, where, MPI_INTEGER, absolute, ierr)
    call MPI_Type_commit(absolute, ierr)
    call MPI_Alltoall(MPI_BOTTOM, 1, absolute, recv, 1, MPI_INTEGER, comm, ierr)
    bad = merge(0, 1, ierr == MPI_SUCCESS)
    call MPI_Type_free(absolute, ierr)
    do j = 0, ranks - 1
      if (recv(j + 1) /= value_of(j, rank, 1, round)) bad = bad + 1
    end do
  end function

  ! MPI_ALLTOALLV: rank i sends rank j mod(3i + 5j + 1, 4) integers (empty peers), packed; in
  ! place with 2 integers per peer (in place needs the counts symmetric).
  integer function uneven(comm, round, in_place) result(bad)
    HANDLE(MPI_Comm), intent(in) :: comm
    integer, intent(in) :: round
    logical, intent(in) :: in_place
    integer :: rank, ranks, j, i, ierr
    integer, allocatable :: sc(:), sd(:), rc(:), rd(:), send(:), recv(:)
    call MPI_Comm_rank(comm, rank, ierr)
    call MPI_Comm_size(comm, ranks, ierr)
    allocate (sc(ranks), sd(ranks), rc(ranks), rd(ranks))
    do j = 0, ranks - 1
      sc(j + 1) = merge(2, mod(3 * rank + 5 * j + 1, 4), in_place)
      rc(j + 1) = merge(2, mod(3 * j + 5 * rank + 1, 4), in_place)
    end do
    sd(1) = 0
    rd(1) = 0
    do j = 2, ranks
      sd(j) = sd(j - 1) + sc(j - 1)
      rd(j) = rd(j - 1) + rc(j - 1)
    end do
    allocate (send(max(1, sum(sc))), recv(max(1, sum(rc))))
    do j = 0, ranks - 1
      do i = 1, sc(j + 1)
        send(sd(j + 1) + i) = value_of(rank, j, i, round)
      end do
    end do
    recv = -1
    if (in_place) then
      recv = send
      call MPI_Alltoallv(MPI_IN_PLACE, sc, sd, MPI_INTEGER, recv, rc, rd, MPI_INTEGER, comm, ierr)
    else
      call MPI_Alltoallv(send, sc, sd, MPI_INTEGER, recv, rc, rd, MPI_INTEGER, comm, ierr)
    end if
    bad = merge(0, 1, ierr == MPI_SUCCESS)
    do j = 0, ranks - 1
      do i = 1, rc(j + 1)
        if (recv(rd(j + 1) + i) /= value_of(j, rank, i, round)) bad = bad + 1
      end do
    end do
  end function

end program
