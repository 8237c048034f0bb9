// The Fortran bindings of MPI_Alltoall, MPI_Alltoallv and MPI_Finalize. Open MPI's Fortran
// wrappers (libmpi_mpifh: mpif.h and `use mpi`) call PMPI_Alltoall directly, so a Fortran
// program never reaches the C MPI_Alltoall above: the drop-in must define the Fortran symbols
// themselves, under every name mangling the libraries export (`nm -D`):
//  - mpi_alltoall, mpi_alltoall_, mpi_alltoall__, MPI_ALLTOALL: mpif.h and `use mpi`, in Open
//    MPI's libmpi_mpifh and MPICH's libmpichfort (compilers append none, one or two _);
//  - ompi_alltoall_f: what Open MPI's `use mpi_f08` wrappers (mpi_alltoall_f08_ in
//    libmpi_usempif08) call, and its aliases MPI_Alltoall_f and MPI_Alltoall_f08;
//  - MPICH's `use mpi_f08` (mpi_alltoall_f08ts_) converts its constants and calls the C
//    MPI_Alltoall, which the C entry point catches (its large-count variant calls
//    MPI_Alltoall_c, which the drop-in does not define yet).
// The PMPI names (pmpi_alltoall_, ...) are left alone: a profiling tool calls them to reach
// the library itself. Handles convert with MPI_Comm_f2c and MPI_Type_f2c; counts are INTEGER.
// Fortran's MPI_IN_PLACE and MPI_BOTTOM are not C's: each is the address of a variable the
// library defines (Open MPI: the common blocks mpi_fortran_in_place_ and mpi_fortran_bottom_;
// MPICH: the pointers MPIR_F_MPI_IN_PLACE and MPIR_F_MPI_BOTTOM, set at MPI_Init, and the
// variables MPIR_F08_MPI_IN_PLACE and MPIR_F08_MPI_BOTTOM of its mpi_f08), found with dlsym.

#include <dlfcn.h>
#include <mpi.h>

#include "preload.hpp"

static_assert(sizeof(MPI_Fint) == sizeof(int), "Fortran INTEGER counts are read as C int");

namespace a2afft::preload {
namespace {

// The addresses a Fortran buffer argument has when it is one of the special constants.
struct FortranConstant {
  std::vector<const void*> addresses;  // of variables: the argument is this address
  std::vector<void* const*> pointers;  // of pointer variables: the argument is their value

  explicit FortranConstant(std::initializer_list<const char*> variables,
                           std::initializer_list<const char*> pointer_variables) {
    for (const char* name : variables) {
      if (const void* found = dlsym(RTLD_DEFAULT, name)) addresses.push_back(found);
    }
    for (const char* name : pointer_variables) {
      if (void* found = dlsym(RTLD_DEFAULT, name)) pointers.push_back(static_cast<void**>(found));
    }
  }
  bool is(const void* argument) const {
    for (const void* address : addresses) {
      if (argument == address) return true;
    }
    for (void* const* pointer : pointers) {
      if (*pointer != nullptr && argument == *pointer) return true;
    }
    return false;
  }
};

const FortranConstant& fortran_in_place() {
  static const FortranConstant constant(
      {"mpi_fortran_in_place", "mpi_fortran_in_place_", "mpi_fortran_in_place__",
       "MPI_FORTRAN_IN_PLACE", "MPIR_F08_MPI_IN_PLACE"},
      {"MPIR_F_MPI_IN_PLACE"});
  return constant;
}

const FortranConstant& fortran_bottom() {
  static const FortranConstant constant(
      {"mpi_fortran_bottom", "mpi_fortran_bottom_", "mpi_fortran_bottom__", "MPI_FORTRAN_BOTTOM",
       "MPIR_F08_MPI_BOTTOM"},
      {"MPIR_F_MPI_BOTTOM"});
  return constant;
}

// A Fortran buffer argument as C sees it.
const void* c_buffer(const void* buffer) {
  if (fortran_in_place().is(buffer)) return MPI_IN_PLACE;
  if (fortran_bottom().is(buffer)) return MPI_BOTTOM;
  return buffer;
}

void* c_buffer(void* buffer) {
  return fortran_bottom().is(buffer) ? MPI_BOTTOM : buffer;
}

void set(MPI_Fint* ierror, int rc) {
  if (ierror != nullptr) *ierror = rc;
}

}  // namespace
}  // namespace a2afft::preload

using a2afft::preload::c_buffer;

#define A2AFFT_FORTRAN_ALLTOALL(name)                                                              \
  extern "C" void name(const void* sendbuf, const MPI_Fint* sendcount, const MPI_Fint* sendtype,   \
                       void* recvbuf, const MPI_Fint* recvcount, const MPI_Fint* recvtype,         \
                       const MPI_Fint* comm, MPI_Fint* ierror) {                                   \
    a2afft::preload::set(                                                                          \
        ierror, a2afft::preload::alltoall(c_buffer(sendbuf), *sendcount, PMPI_Type_f2c(*sendtype), \
                                          c_buffer(recvbuf), *recvcount, PMPI_Type_f2c(*recvtype), \
                                          PMPI_Comm_f2c(*comm), "MPI_Alltoall (Fortran)"));        \
  }

#define A2AFFT_FORTRAN_ALLTOALLV(name)                                                           \
  extern "C" void name(const void* sendbuf, const MPI_Fint* sendcounts, const MPI_Fint* sdispls, \
                       const MPI_Fint* sendtype, void* recvbuf, const MPI_Fint* recvcounts,      \
                       const MPI_Fint* rdispls, const MPI_Fint* recvtype, const MPI_Fint* comm,  \
                       MPI_Fint* ierror) {                                                       \
    a2afft::preload::set(                                                                        \
        ierror, a2afft::preload::alltoallv(c_buffer(sendbuf), sendcounts, sdispls,               \
                                           PMPI_Type_f2c(*sendtype), c_buffer(recvbuf),          \
                                           recvcounts, rdispls, PMPI_Type_f2c(*recvtype),        \
                                           PMPI_Comm_f2c(*comm), "MPI_Alltoallv (Fortran)"));    \
  }

// The report is written before the library finalizes, as from C's MPI_Finalize.
#define A2AFFT_FORTRAN_FINALIZE(name)              \
  extern "C" void name(MPI_Fint* ierror) {         \
    a2afft::preload::finish_report();              \
    a2afft::preload::set(ierror, PMPI_Finalize()); \
  }

#define A2AFFT_FORTRAN_NAMES(MACRO, lower, upper, ompi, Mixed) \
  MACRO(lower)                                                 \
  MACRO(lower##_)                                              \
  MACRO(lower##__)                                             \
  MACRO(upper)                                                 \
  MACRO(ompi)                                                  \
  MACRO(Mixed##_f)                                             \
  MACRO(Mixed##_f08)

A2AFFT_FORTRAN_NAMES(A2AFFT_FORTRAN_ALLTOALL, mpi_alltoall, MPI_ALLTOALL, ompi_alltoall_f,
                     MPI_Alltoall)
A2AFFT_FORTRAN_NAMES(A2AFFT_FORTRAN_ALLTOALLV, mpi_alltoallv, MPI_ALLTOALLV, ompi_alltoallv_f,
                     MPI_Alltoallv)
A2AFFT_FORTRAN_NAMES(A2AFFT_FORTRAN_FINALIZE, mpi_finalize, MPI_FINALIZE, ompi_finalize_f,
                     MPI_Finalize)
// MPICH's mpi_f08 MPI_Finalize calls PMPI_Finalize itself (its MPI_Alltoall(v) call the C
// MPI_Alltoall(v), caught above); Open MPI's goes through ompi_finalize_f.
A2AFFT_FORTRAN_FINALIZE(mpi_finalize_f08_)
