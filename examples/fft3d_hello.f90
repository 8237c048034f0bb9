! A 3D FFT with a2afft from Fortran: the plane-wave check of fft3d_hello.cpp through the a2afft
! module (include/a2afft/a2afft.f90, over the C API). Forward turns the wave into one spike of
! height N; backward (full scaling) brings it back. Prints the plan and PASS or FAIL; exits
! non-zero on failure.
!
!     mpiexec -n 4 ./fft3d_hello_f [exchange spec] [timed]     (default: auto, the rule's grid)
!
! With `timed`, the plan times the candidate process grids with the candidate thread counts and
! keeps the fastest (A2AFFT_GRID_TIMED, A2AFFT_THREADS_TIMED); the plan line names the winner.
! A threaded plan needs MPI_THREAD_FUNNELED, so MPI is initialised with it.
program fft3d_hello_f
  use, intrinsic :: iso_c_binding
  use mpi
  use a2afft
  implicit none
  integer(c_size_t), parameter :: shape(3) = [32_c_size_t, 24_c_size_t, 20_c_size_t]
  integer(c_size_t), parameter :: wave(3) = [3_c_size_t, 5_c_size_t, 7_c_size_t]
  double precision, parameter :: pi = acos(-1d0)
  type(a2afft_fft3d_options) :: options
  type(c_ptr) :: plan
  character(len=64, kind=c_char), target :: spec
  character(len=8) :: grid_choice
  integer(c_size_t) :: in_lower(3), in_size(3), out_lower(3), out_size(3), at(3)
  integer(c_int) :: in_order(3), out_order(3), status
  complex(c_double_complex), allocatable :: x(:), spectrum(:), back(:)
  double precision :: errors(2), points, phase
  integer :: rank, ranks, ierror, i, j, k, provided

  call MPI_Init_thread(MPI_THREAD_FUNNELED, provided, ierror)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierror)
  call MPI_Comm_size(MPI_COMM_WORLD, ranks, ierror)

  call a2afft_fft3d_options_init(options)
  ! The module's type must be a2afft.h's struct, field for field (init wrote sizeof the struct).
  if (options%struct_size /= c_sizeof(options)) error stop 'a2afft_fft3d_options differs from a2afft.h'
  options%scaling = A2AFFT_SCALING_FULL
  if (command_argument_count() > 0) then
    call get_command_argument(1, spec)
    spec = trim(spec)//c_null_char
    options%row_exchange = c_loc(spec)
    options%column_exchange = c_loc(spec)
  end if
  if (command_argument_count() > 1) then
    call get_command_argument(2, grid_choice)
    if (trim(grid_choice) /= 'timed') then
      if (rank == 0) print '(a)', 'FAIL: the second argument is "timed" or nothing, not '//trim(grid_choice)
      call MPI_Finalize(ierror)
      stop 1
    end if
    options%grid = [A2AFFT_GRID_TIMED, A2AFFT_GRID_TIMED]
    options%threads = A2AFFT_THREADS_TIMED
  end if
  status = a2afft_fft3d_create_f(MPI_COMM_WORLD, shape, options, plan)
  if (status /= A2AFFT_SUCCESS) then
    if (rank == 0) print '(a)', 'FAIL: '//a2afft_error_message()  ! the same on every rank
    call MPI_Finalize(ierror)
    stop 1
  end if

  status = a2afft_fft3d_input_box(plan, in_lower, in_size, in_order)
  status = a2afft_fft3d_output_box(plan, out_lower, out_size, out_order)
  allocate(x(a2afft_fft3d_input_elements(plan)), back(a2afft_fft3d_input_elements(plan)))
  allocate(spectrum(a2afft_fft3d_output_elements(plan)))

  do i = 0, int(in_size(1)) - 1
    do j = 0, int(in_size(2)) - 1
      do k = 0, int(in_size(3)) - 1
        at = in_lower + [i, j, k]
        phase = sum(dble(wave * at) / dble(shape))
        x(local_index(in_lower, in_size, in_order, at)) = exp(cmplx(0d0, 2 * pi * phase, c_double))
      end do
    end do
  end do

  status = a2afft_fft3d_forward(plan, x, spectrum)
  points = dble(product(shape))
  errors = 0
  do i = 0, int(out_size(1)) - 1
    do j = 0, int(out_size(2)) - 1
      do k = 0, int(out_size(3)) - 1
        at = out_lower + [i, j, k]
        phase = merge(points, 0d0, all(at == wave))
        errors(1) = max(errors(1), &
                        abs(spectrum(local_index(out_lower, out_size, out_order, at)) - phase) / points)
      end do
    end do
  end do
  if (status == A2AFFT_SUCCESS) status = a2afft_fft3d_backward(plan, spectrum, back)
  if (size(x) > 0) errors(2) = maxval(abs(back - x))
  call MPI_Allreduce(MPI_IN_PLACE, errors, 2, MPI_DOUBLE_PRECISION, MPI_MAX, MPI_COMM_WORLD, ierror)

  if (rank == 0) then
    print '(a,i0,a)', 'fft3d from Fortran: 32x24x20, ', ranks, ' ranks, '// &
      a2afft_fft3d_describe(plan)
    if (status /= A2AFFT_SUCCESS) print '(a)', 'FAIL: '//a2afft_error_message()
  end if
  ierror = merge(0, 1, status == A2AFFT_SUCCESS .and. errors(1) < 1d-12 .and. errors(2) < 1d-12)
  if (rank == 0) print '(a,es8.1,a,es8.1)', merge('PASS', 'FAIL', ierror == 0)// &
    ': spectrum error', errors(1), ', round-trip error', errors(2)
  status = a2afft_fft3d_destroy(plan)
  call MPI_Finalize(i)
  if (ierror /= 0) stop 1

contains

  ! The 1-based position of global element `at` in a box stored as a2afft's `order` says.
  integer function local_index(lower, size, order, at)
    integer(c_size_t), intent(in) :: lower(3), size(3), at(3)
    integer(c_int), intent(in) :: order(3)
    integer(c_size_t) :: index
    integer :: d
    index = 0
    do d = 1, 3
      index = index * size(order(d) + 1) + (at(order(d) + 1) - lower(order(d) + 1))
    end do
    local_index = int(index) + 1
  end function

end program fft3d_hello_f
