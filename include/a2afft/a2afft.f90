! a2afft for Fortran: the C API of a2afft.h through ISO_C_BINDING. Compile this file with your
! program (CMake: the variable a2afft_FORTRAN_MODULE after find_package(a2afft); by hand:
! mpifort P/include/a2afft/a2afft.f90 app.f90 $(pkg-config --cflags --libs a2afft)).
!
! Indices: a2afft describes arrays in C order (dimension 2 fastest). A rank's input box of
! size(1) x size(2) x size(3) in a2afft's terms is, in Fortran, an array
! u(size(3), size(2), size(1)) (or a flat array of a2afft_fft3d_in_place_elements(plan)
! elements); lower() holds 0-based global indices. Plans are type(c_ptr); strings passed in the
! options must be NUL-terminated (//c_null_char) and stay alive until the plan is created.
module a2afft
  use, intrinsic :: iso_c_binding
  implicit none
  private :: c_string

  integer(c_int), parameter :: A2AFFT_SUCCESS = 0, A2AFFT_ERROR_USAGE = 1, &
                               A2AFFT_ERROR_MPI = 2, A2AFFT_ERROR_INTERNAL = 3
  integer(c_int), parameter :: A2AFFT_RIGOR_ESTIMATE = 0, A2AFFT_RIGOR_MEASURE = 1, &
                               A2AFFT_RIGOR_PATIENT = 2
  integer(c_int), parameter :: A2AFFT_SCALING_NONE = 0, A2AFFT_SCALING_FULL = 1, &
                               A2AFFT_SCALING_SYMMETRIC = 2
  integer(c_int), parameter :: A2AFFT_FFT3D_OUTPUT_TRANSPOSED = 0, A2AFFT_FFT3D_OUTPUT_NATURAL = 1
  ! grid = [A2AFFT_GRID_TIMED, A2AFFT_GRID_TIMED]: the candidate process grids timed, the fastest kept
  integer(c_int), parameter :: A2AFFT_GRID_TIMED = -1
  ! threads = A2AFFT_THREADS_TIMED: the thread counts timed, the fastest kept
  integer(c_int), parameter :: A2AFFT_THREADS_TIMED = -1
  integer(c_int), parameter :: A2AFFT_FFT1D_OUTPUT_NATURAL = 0, A2AFFT_FFT1D_OUTPUT_SCRAMBLED = 1
  integer(c_int), parameter :: A2AFFT_KIND_C2C = 0, A2AFFT_KIND_R2C = 1, A2AFFT_KIND_R2R = 2
  integer(c_int), parameter :: A2AFFT_PRECISION_DOUBLE = 0, A2AFFT_PRECISION_FLOAT = 1
  integer(c_int), parameter :: A2AFFT_FORWARD = 0, A2AFFT_BACKWARD = 1

  ! The options structs of a2afft.h, field for field; fill them with the _options_init calls.
  type, bind(C) :: a2afft_fft3d_options
    integer(c_size_t) :: struct_size
    integer(c_int) :: grid(2)
    type(c_ptr) :: row_exchange, column_exchange
    integer(c_int) :: rigor, output
    type(c_ptr) :: wisdom_file
    integer(c_int) :: scaling, kind, precision
    integer(c_size_t) :: batch
    ! c_loc of a NUL-terminated string such as "dct2,dft,r2c" (one kind per axis, C order:
    ! slowest first), or c_null_ptr for every axis dft (a2afft.h says more)
    type(c_ptr) :: transforms
    ! This rank's input and output boxes as the application holds them (has_*_box = 1; lower
    ! corners and sizes in C's dimension order, order slowest first, 0-based), a2afft.h says more
    integer(c_int) :: has_input_box
    integer(c_size_t) :: input_lower(3), input_size(3)
    integer(c_int) :: input_order(3)
    integer(c_int) :: has_output_box
    integer(c_size_t) :: output_lower(3), output_size(3)
    integer(c_int) :: output_order(3)
    type(c_ptr) :: reshape_exchange
    ! Padded (dealiased) transforms: one factor per axis, C order (slowest first), e.g. 1.5 for
    ! the 3/2 rule; 0 or 1: not padded (the default). a2afft.h says more
    real(c_double) :: padding(3)
    ! Threads of each rank (OpenMP), >= 1; default 1. More needs MPI_Init_thread with at least
    ! MPI_THREAD_FUNNELED (a2afft.h says more)
    integer(c_int) :: threads
  end type

  type, bind(C) :: a2afft_fft1d_options
    integer(c_size_t) :: struct_size
    type(c_ptr) :: exchange
    integer(c_size_t) :: n1
    integer(c_int) :: rigor, output
    type(c_ptr) :: wisdom_file
    integer(c_int) :: scaling, precision
    integer(c_size_t) :: batch
    integer(c_int) :: threads
  end type

  interface
    subroutine a2afft_fft3d_options_init(options) bind(C)
      import :: a2afft_fft3d_options
      type(a2afft_fft3d_options), intent(out) :: options
    end subroutine
    subroutine a2afft_fft1d_options_init(options) bind(C)
      import :: a2afft_fft1d_options
      type(a2afft_fft1d_options), intent(out) :: options
    end subroutine

    ! comm: a Fortran communicator (MPI_COMM_WORLD from `use mpi`).
    integer(c_int) function a2afft_fft3d_create_f(comm, shape, options, plan) bind(C)
      import :: c_int, c_size_t, c_ptr, a2afft_fft3d_options
      integer(c_int), value :: comm
      integer(c_size_t), intent(in) :: shape(3)
      type(a2afft_fft3d_options), intent(in) :: options
      type(c_ptr), intent(out) :: plan
    end function
    integer(c_int) function a2afft_fft3d_destroy(plan) bind(C)
      import :: c_int, c_ptr
      type(c_ptr), intent(inout) :: plan
    end function
    integer(c_int) function a2afft_fft3d_input_box(plan, lower, size, order) bind(C)
      import :: c_int, c_size_t, c_ptr
      type(c_ptr), value :: plan
      integer(c_size_t), intent(out) :: lower(3), size(3)
      integer(c_int), intent(out) :: order(3)
    end function
    integer(c_int) function a2afft_fft3d_output_box(plan, lower, size, order) bind(C)
      import :: c_int, c_size_t, c_ptr
      type(c_ptr), value :: plan
      integer(c_size_t), intent(out) :: lower(3), size(3)
      integer(c_int), intent(out) :: order(3)
    end function
    integer(c_size_t) function a2afft_fft3d_input_elements(plan) bind(C)
      import :: c_size_t, c_ptr
      type(c_ptr), value :: plan
    end function
    integer(c_size_t) function a2afft_fft3d_output_elements(plan) bind(C)
      import :: c_size_t, c_ptr
      type(c_ptr), value :: plan
    end function
    integer(c_size_t) function a2afft_fft3d_in_place_elements(plan) bind(C)
      import :: c_size_t, c_ptr
      type(c_ptr), value :: plan
    end function
    integer(c_size_t) function a2afft_fft3d_input_bytes(plan) bind(C)
      import :: c_size_t, c_ptr
      type(c_ptr), value :: plan
    end function
    integer(c_size_t) function a2afft_fft3d_output_bytes(plan) bind(C)
      import :: c_size_t, c_ptr
      type(c_ptr), value :: plan
    end function
    integer(c_size_t) function a2afft_fft3d_in_place_bytes(plan) bind(C)
      import :: c_size_t, c_ptr
      type(c_ptr), value :: plan
    end function
    integer(c_size_t) function a2afft_fft3d_workspace_bytes(plan) bind(C)
      import :: c_size_t, c_ptr
      type(c_ptr), value :: plan
    end function
    integer(c_int) function a2afft_fft3d_forward(plan, in, out) bind(C)
      import :: c_int, c_ptr, c_double_complex
      type(c_ptr), value :: plan
      complex(c_double_complex), intent(in) :: in(*)
      complex(c_double_complex), intent(inout) :: out(*)
    end function
    integer(c_int) function a2afft_fft3d_backward(plan, in, out) bind(C)
      import :: c_int, c_ptr, c_double_complex
      type(c_ptr), value :: plan
      complex(c_double_complex), intent(in) :: in(*)
      complex(c_double_complex), intent(inout) :: out(*)
    end function
    ! Any kind and precision: in and out are c_loc() of the arrays, holding in_bytes and
    ! out_bytes; direction A2AFFT_FORWARD or A2AFFT_BACKWARD.
    integer(c_int) function a2afft_fft3d_execute(plan, direction, in, in_bytes, out, out_bytes) &
        bind(C)
      import :: c_int, c_size_t, c_ptr
      type(c_ptr), value :: plan, in, out
      integer(c_int), value :: direction
      integer(c_size_t), value :: in_bytes, out_bytes
    end function
    integer(c_int) function a2afft_fft3d_last_times(plan, transpose_seconds, compute_seconds) &
        bind(C)
      import :: c_int, c_ptr, c_double
      type(c_ptr), value :: plan
      real(c_double), intent(out) :: transpose_seconds, compute_seconds
    end function

    integer(c_int) function a2afft_fft1d_create_f(comm, n, options, plan) bind(C)
      import :: c_int, c_size_t, c_ptr, a2afft_fft1d_options
      integer(c_int), value :: comm
      integer(c_size_t), value :: n
      type(a2afft_fft1d_options), intent(in) :: options
      type(c_ptr), intent(out) :: plan
    end function
    integer(c_int) function a2afft_fft1d_destroy(plan) bind(C)
      import :: c_int, c_ptr
      type(c_ptr), intent(inout) :: plan
    end function
    integer(c_int) function a2afft_fft1d_local(plan, local_elements, input_offset) bind(C)
      import :: c_int, c_size_t, c_ptr
      type(c_ptr), value :: plan
      integer(c_size_t), intent(out) :: local_elements, input_offset
    end function
    integer(c_size_t) function a2afft_fft1d_output_index(plan, i) bind(C)
      import :: c_size_t, c_ptr
      type(c_ptr), value :: plan
      integer(c_size_t), value :: i
    end function
    integer(c_size_t) function a2afft_fft1d_local_bytes(plan) bind(C)
      import :: c_size_t, c_ptr
      type(c_ptr), value :: plan
    end function
    integer(c_int) function a2afft_fft1d_forward(plan, in, out) bind(C)
      import :: c_int, c_ptr, c_double_complex
      type(c_ptr), value :: plan
      complex(c_double_complex), intent(in) :: in(*)
      complex(c_double_complex), intent(inout) :: out(*)
    end function
    integer(c_int) function a2afft_fft1d_backward(plan, in, out) bind(C)
      import :: c_int, c_ptr, c_double_complex
      type(c_ptr), value :: plan
      complex(c_double_complex), intent(in) :: in(*)
      complex(c_double_complex), intent(inout) :: out(*)
    end function

    ! Either precision, as a2afft_fft3d_execute.
    integer(c_int) function a2afft_fft1d_execute(plan, direction, in, in_bytes, out, out_bytes) &
        bind(C)
      import :: c_int, c_size_t, c_ptr
      type(c_ptr), value :: plan, in, out
      integer(c_int), value :: direction
      integer(c_size_t), value :: in_bytes, out_bytes
    end function

    type(c_ptr) function a2afft_error_message_c() bind(C, name="a2afft_error_message")
      import :: c_ptr
    end function
    type(c_ptr) function a2afft_fft3d_describe_c(plan) bind(C, name="a2afft_fft3d_describe")
      import :: c_ptr
      type(c_ptr), value :: plan
    end function
    type(c_ptr) function a2afft_fft1d_describe_c(plan) bind(C, name="a2afft_fft1d_describe")
      import :: c_ptr
      type(c_ptr), value :: plan
    end function
    integer(c_size_t) function strlen(text) bind(C, name="strlen")
      import :: c_size_t, c_ptr
      type(c_ptr), value :: text
    end function
  end interface

contains

  ! The last error on this thread, as a Fortran string.
  function a2afft_error_message() result(text)
    character(len=:), allocatable :: text
    text = c_string(a2afft_error_message_c())
  end function

  ! Which exchanges a plan runs, as a Fortran string.
  function a2afft_fft3d_describe(plan) result(text)
    type(c_ptr), intent(in) :: plan
    character(len=:), allocatable :: text
    text = c_string(a2afft_fft3d_describe_c(plan))
  end function

  function a2afft_fft1d_describe(plan) result(text)
    type(c_ptr), intent(in) :: plan
    character(len=:), allocatable :: text
    text = c_string(a2afft_fft1d_describe_c(plan))
  end function

  function c_string(pointer) result(text)
    type(c_ptr), intent(in) :: pointer
    character(len=:), allocatable :: text
    character(kind=c_char), pointer :: chars(:)
    integer :: i
    integer(c_size_t) :: length
    length = strlen(pointer)
    call c_f_pointer(pointer, chars, [length])
    allocate(character(len=length) :: text)
    do i = 1, int(length)
      text(i:i) = chars(i)
    end do
  end function

end module a2afft
