// The Fortran bindings of MPI_Alltoall, MPI_Alltoallv, MPI_Ialltoall, the MPI_Wait/Test family,
// MPI_Finalize and, where the library has them, MPI_Alltoall(v)_init. Open MPI's Fortran wrappers
// (libmpi_mpifh: mpif.h and `use mpi`) call PMPI_Alltoall directly, so a Fortran program never
// reaches the C MPI_Alltoall above: the drop-in must define the Fortran symbols themselves,
// under every name mangling the libraries export (`nm -D`):
//  - mpi_alltoall, mpi_alltoall_, mpi_alltoall__, MPI_ALLTOALL: mpif.h and `use mpi`, in Open
//    MPI's libmpi_mpifh and MPICH's libmpichfort (compilers append none, one or two _);
//  - ompi_alltoall_f: what Open MPI's `use mpi_f08` wrappers (mpi_alltoall_f08_ in
//    libmpi_usempif08) call, and its aliases MPI_Alltoall_f and MPI_Alltoall_f08;
//  - MPICH's `use mpi_f08` (mpi_alltoall_f08ts_) converts its constants and calls the C
//    MPI_Alltoall, which the C entry point catches (its large-count variant calls
//    MPI_Alltoall_c, which the drop-in does not define yet).
// The PMPI names (pmpi_alltoall_, ...) are left alone: a profiling tool calls them to reach
// the library itself. Handles convert with MPI_Comm_f2c and MPI_Type_f2c; counts are INTEGER.
// MPI_IALLTOALL returns the C request of ialltoall() as a Fortran handle (MPI_Request_c2f): a
// generalized request when routed (nonblocking.cpp), which only the drop-in can complete. So
// the Fortran MPI_WAIT and MPI_TEST family must be caught too wherever it reaches the library
// directly (objdump -d of each entry point, Debian 12's packages):
//  - Open MPI 4.1.4, mpif.h and `use mpi`: ompi_wait_f & co. (mpi_wait_, MPI_WAIT, ...) call
//    PMPI_Wait & co.; `use mpi_f08`: mpi_wait_f08_ & co. call ompi_wait_f & co., and
//    mpi_test_f08_ & co. call pmpi_test_ & co. (the PMPI Fortran names);
//  - MPICH 4.0.2, mpif.h and `use mpi`: mpi_wait_ & co. call the C MPI_Wait & co., which
//    nonblocking.cpp catches; `use mpi_f08`: mpi_wait_f08_ & co. call PMPI_Wait & co.;
//    its MPI_IALLTOALL (mpi_ialltoall_f08ts_) calls the C MPI_Ialltoall.
// Each caught wait or test converts the handles (MPI_Request_f2c), moves the drop-in's requests
// among them on through nonblocking.cpp's progress() (the same code as C's MPI_Wait), and then
// calls the library's own entry point of the same name (dlsym RTLD_NEXT), which completes and
// frees the generalized requests that progress() completed, converts the statuses and writes
// ierror as it always does. MPI_WAITANY and MPI_WAITSOME poll: progress() without blocking and
// the library's MPI_TESTANY / MPI_TESTSOME, until one completes. While the drop-in has no request
// of its own alive, every call goes straight to the library. (MPICH's mpi_f08 with a persistent
// request of the drop-in's among them takes a detour instead: below, A2AFFT_F08_DETOUR.)
// Fortran's MPI_IN_PLACE and MPI_BOTTOM are not C's: each is the address of a variable the
// library defines (Open MPI: the common blocks mpi_fortran_in_place_ and mpi_fortran_bottom_;
// MPICH: the pointers MPIR_F_MPI_IN_PLACE and MPIR_F_MPI_BOTTOM, set at MPI_Init, and the
// variables MPIR_F08_MPI_IN_PLACE and MPIR_F08_MPI_BOTTOM of its mpi_f08), found with dlsym.

#include <dlfcn.h>
#include <mpi.h>

#include <string>
#include <vector>

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

// The library's own definition of a Fortran entry point the drop-in also defines: the next one
// after the drop-in in lookup order. Programs call only names their library defines.
void* library_entry(const char* name) {
  void* found = dlsym(RTLD_NEXT, name);
  if (found == nullptr) {
    fail(MPI_COMM_WORLD, std::string(name) + " was called, but the MPI library does not define it");
  }
  return found;
}

// Moves the drop-in's requests among `count` Fortran requests on (progress()); false, with
// nothing converted, when none of them is the drop-in's.
bool moved_on(MPI_Fint count, const MPI_Fint requests[], bool block) {
  if (!requests_in_flight()) return false;
  std::vector<MPI_Request> handles(count > 0 ? count : 0);
  for (MPI_Fint i = 0; i < count; ++i)
    handles[i] = PMPI_Request_f2c(requests[i]);
  if (!any_ours(count, handles.data())) return false;
  progress(count, handles.data(), block);
  return true;
}

}  // namespace
}  // namespace a2afft::preload

using a2afft::preload::c_buffer;
using a2afft::preload::moved_on;

// MPICH's mpi_f08 waits and tests call PMPI_Wait & co. directly, and PMPI_Wait would wait
// forever on a persistent request of the drop-in's (the library's own, never started; MPICH
// has MPI 4's persistent collectives). With one of those among the requests, its mpi_*_f08_
// take a detour through nonblocking.cpp's wait() & co., as C's calls do: statuses convert with
// MPI_Status_c2f08, flags are gfortran's LOGICALs and indices count as the library's do.
// Its MPI_START(ALL) and MPI_REQUEST_FREE call PMPI_Start & co. directly too, which would run
// the library's exchange instead of the plan: they always go through start() & co.
#if A2AFFT_HAVE_ALLTOALL_INIT && defined(MPICH_VERSION)
#define A2AFFT_F08_DETOUR 1
namespace a2afft::preload {
namespace {

std::vector<MPI_Request> c_requests(MPI_Fint count, const MPI_Fint requests[]) {
  std::vector<MPI_Request> handles(count > 0 ? count + 1 : 1);
  for (MPI_Fint i = 0; i < count; ++i)
    handles[i] = PMPI_Request_f2c(requests[i]);
  return handles;
}

void f_requests(MPI_Fint count, const std::vector<MPI_Request>& handles, MPI_Fint requests[]) {
  for (MPI_Fint i = 0; i < count; ++i)
    requests[i] = PMPI_Request_c2f(handles[i]);
}

bool persistent_among(MPI_Fint count, const MPI_Fint requests[]) {
  if (!requests_in_flight()) return false;
  return any_persistent(count, c_requests(count, requests).data());
}

// The first `count` C statuses into mpi_f08's `statuses` (none for MPI_STATUS(ES)_IGNORE).
void f08_statuses(const MPI_Status statuses[], MPI_Fint* f08, int count) {
  auto* out = reinterpret_cast<MPI_F08_status*>(f08);
  if (out == MPI_F08_STATUS_IGNORE || out == MPI_F08_STATUSES_IGNORE) return;
  for (int i = 0; i < count; ++i)
    PMPI_Status_c2f08(&statuses[i], &out[i]);
}

// The index the library's mpi_f08 MPI_WAITANY & co. give the first request: 1 as the standard
// says, 0 in MPICH 4.0.2 (pmodels/mpich#6270). Asked once of its MPI_WAITANY, on
// MPI_REQUEST_NULL and a receive from MPI_PROC_NULL (complete at once).
MPI_Fint f08_first_index() {
  static const MPI_Fint first = [] {
    using WaitAny = void (*)(const MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*);
    const auto library = reinterpret_cast<WaitAny>(library_entry("mpi_waitany_f08_"));
    int ignored = 0;
    MPI_Request receive = MPI_REQUEST_NULL;
    PMPI_Irecv(&ignored, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_SELF, &receive);
    MPI_Fint requests[2] = {PMPI_Request_c2f(MPI_REQUEST_NULL), PMPI_Request_c2f(receive)};
    MPI_Fint count = 2, index = 0, rc = MPI_SUCCESS;
    library(&count, requests, &index, reinterpret_cast<MPI_Fint*>(MPI_F08_STATUS_IGNORE), &rc);
    return index - 1;
  }();
  return first;
}

// MPI_WAIT, or MPI_TEST with `flag`.
bool detour_wait(MPI_Fint* request, MPI_Fint* flag, MPI_Fint* status, MPI_Fint* ierror) {
  if (!persistent_among(1, request)) return false;
  MPI_Request handle = PMPI_Request_f2c(*request);
  MPI_Status c_status;
  int done = 1;
  const int rc = flag ? test(&handle, &done, &c_status) : wait(&handle, &c_status);
  *request = PMPI_Request_c2f(handle);
  if (flag) *flag = done ? 1 : 0;
  if (done) f08_statuses(&c_status, status, 1);
  set(ierror, rc);
  return true;
}

// MPI_WAITALL, or MPI_TESTALL with `flag`.
bool detour_all(const MPI_Fint* count, MPI_Fint* requests, MPI_Fint* flag, MPI_Fint* statuses,
                MPI_Fint* ierror) {
  if (!persistent_among(*count, requests)) return false;
  std::vector<MPI_Request> handles = c_requests(*count, requests);
  std::vector<MPI_Status> c_statuses(handles.size());
  int done = 1;
  const int rc = flag ? test_all(*count, handles.data(), &done, c_statuses.data())
                      : wait_all(*count, handles.data(), c_statuses.data());
  f_requests(*count, handles, requests);
  if (flag) *flag = done ? 1 : 0;
  if (done) f08_statuses(c_statuses.data(), statuses, *count);
  set(ierror, rc);
  return true;
}

// MPI_WAITANY, or MPI_TESTANY with `flag`.
bool detour_any(const MPI_Fint* count, MPI_Fint* requests, MPI_Fint* index, MPI_Fint* flag,
                MPI_Fint* status, MPI_Fint* ierror) {
  if (!persistent_among(*count, requests)) return false;
  std::vector<MPI_Request> handles = c_requests(*count, requests);
  MPI_Status c_status;
  int c_index = MPI_UNDEFINED, done = 1;
  const int rc = flag ? test_any(*count, handles.data(), &c_index, &done, &c_status)
                      : wait_any(*count, handles.data(), &c_index, &c_status);
  f_requests(*count, handles, requests);
  *index = c_index == MPI_UNDEFINED ? MPI_UNDEFINED : c_index + f08_first_index();
  if (flag) *flag = done ? 1 : 0;
  if (done && c_index != MPI_UNDEFINED) f08_statuses(&c_status, status, 1);
  set(ierror, rc);
  return true;
}

// MPI_WAITSOME (`block`) or MPI_TESTSOME.
bool detour_some(const MPI_Fint* count, MPI_Fint* requests, MPI_Fint* outcount, MPI_Fint* indices,
                 MPI_Fint* statuses, MPI_Fint* ierror, bool block) {
  if (!persistent_among(*count, requests)) return false;
  std::vector<MPI_Request> handles = c_requests(*count, requests);
  std::vector<MPI_Status> c_statuses(handles.size());
  std::vector<int> c_indices(handles.size());
  int done = 0;
  const int rc =
      block ? wait_some(*count, handles.data(), &done, c_indices.data(), c_statuses.data())
            : test_some(*count, handles.data(), &done, c_indices.data(), c_statuses.data());
  f_requests(*count, handles, requests);
  *outcount = done;
  for (int k = 0; k < done && done != MPI_UNDEFINED; ++k)
    indices[k] = c_indices[k] + f08_first_index();
  if (done != MPI_UNDEFINED) f08_statuses(c_statuses.data(), statuses, done);
  set(ierror, rc);
  return true;
}

}  // namespace
}  // namespace a2afft::preload

using a2afft::preload::detour_all;
using a2afft::preload::detour_any;
using a2afft::preload::detour_some;
using a2afft::preload::detour_wait;

extern "C" void mpi_start_f08_(MPI_Fint* request, MPI_Fint* ierror) {
  MPI_Request handle = PMPI_Request_f2c(*request);
  a2afft::preload::set(ierror, a2afft::preload::start(&handle));
  *request = PMPI_Request_c2f(handle);
}

extern "C" void mpi_startall_f08_(const MPI_Fint* count, MPI_Fint* requests, MPI_Fint* ierror) {
  std::vector<MPI_Request> handles = a2afft::preload::c_requests(*count, requests);
  a2afft::preload::set(ierror, a2afft::preload::start_all(*count, handles.data()));
  a2afft::preload::f_requests(*count, handles, requests);
}

extern "C" void mpi_request_free_f08_(MPI_Fint* request, MPI_Fint* ierror) {
  MPI_Request handle = PMPI_Request_f2c(*request);
  a2afft::preload::set(ierror, a2afft::preload::request_free(&handle));
  *request = PMPI_Request_c2f(handle);
}
#else
#define A2AFFT_F08_DETOUR 0
#endif

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

#define A2AFFT_FORTRAN_IALLTOALL(name)                                                           \
  extern "C" void name(const void* sendbuf, const MPI_Fint* sendcount, const MPI_Fint* sendtype, \
                       void* recvbuf, const MPI_Fint* recvcount, const MPI_Fint* recvtype,       \
                       const MPI_Fint* comm, MPI_Fint* request, MPI_Fint* ierror) {              \
    MPI_Request handle = MPI_REQUEST_NULL;                                                       \
    const int rc = a2afft::preload::ialltoall(                                                   \
        c_buffer(sendbuf), *sendcount, PMPI_Type_f2c(*sendtype), c_buffer(recvbuf), *recvcount,  \
        PMPI_Type_f2c(*recvtype), PMPI_Comm_f2c(*comm), &handle, "MPI_Ialltoall (Fortran)");     \
    if (rc == MPI_SUCCESS) *request = PMPI_Request_c2f(handle);                                  \
    a2afft::preload::set(ierror, rc);                                                            \
  }

// The library's entry point `name` (its type: the drop-in's definition's).
#define A2AFFT_LIBRARY(name) \
  reinterpret_cast<decltype(&name)>(a2afft::preload::library_entry(#name))

// MPI_WAIT, MPI_TEST, MPI_WAITALL and MPI_TESTALL: the drop-in's requests moved on, then the
// library's call (which finds ours complete, or, testing, maybe not yet).
#define A2AFFT_FORTRAN_WAIT(name) A2AFFT_FORTRAN_WAIT_(name, false)
#define A2AFFT_FORTRAN_WAIT_(name, detour)                                      \
  extern "C" void name(MPI_Fint* request, MPI_Fint* status, MPI_Fint* ierror) { \
    static const auto library = A2AFFT_LIBRARY(name);                           \
    if (detour) return;                                                         \
    moved_on(1, request, true);                                                 \
    library(request, status, ierror);                                           \
  }
#define A2AFFT_FORTRAN_TEST(name) A2AFFT_FORTRAN_TEST_(name, false)
#define A2AFFT_FORTRAN_TEST_(name, detour)                                                      \
  extern "C" void name(MPI_Fint* request, MPI_Fint* flag, MPI_Fint* status, MPI_Fint* ierror) { \
    static const auto library = A2AFFT_LIBRARY(name);                                           \
    if (detour) return;                                                                         \
    moved_on(1, request, false);                                                                \
    library(request, flag, status, ierror);                                                     \
  }
#define A2AFFT_FORTRAN_WAITALL(name) A2AFFT_FORTRAN_WAITALL_(name, false)
#define A2AFFT_FORTRAN_WAITALL_(name, detour)                                         \
  extern "C" void name(const MPI_Fint* count, MPI_Fint* requests, MPI_Fint* statuses, \
                       MPI_Fint* ierror) {                                            \
    static const auto library = A2AFFT_LIBRARY(name);                                 \
    if (detour) return;                                                               \
    moved_on(*count, requests, true);                                                 \
    library(count, requests, statuses, ierror);                                       \
  }
#define A2AFFT_FORTRAN_TESTALL(name) A2AFFT_FORTRAN_TESTALL_(name, false)
#define A2AFFT_FORTRAN_TESTALL_(name, detour)                                     \
  extern "C" void name(const MPI_Fint* count, MPI_Fint* requests, MPI_Fint* flag, \
                       MPI_Fint* statuses, MPI_Fint* ierror) {                    \
    static const auto library = A2AFFT_LIBRARY(name);                             \
    if (detour) return;                                                           \
    moved_on(*count, requests, false);                                            \
    library(count, requests, flag, statuses, ierror);                             \
  }
// MPI_WAITANY and MPI_WAITSOME with a request of ours among theirs: polls with the library's
// MPI_TESTANY / MPI_TESTSOME (`test`) until one completes (a flag, or an outcount: MPI_UNDEFINED
// when nothing is active) or it fails.
#define A2AFFT_FORTRAN_WAITANY(name, test) A2AFFT_FORTRAN_WAITANY_(name, test, false)
#define A2AFFT_FORTRAN_WAITANY_(name, test, detour)                                 \
  extern "C" void name(const MPI_Fint* count, MPI_Fint* requests, MPI_Fint* index,  \
                       MPI_Fint* status, MPI_Fint* ierror) {                        \
    static const auto library = A2AFFT_LIBRARY(name);                               \
    if (detour) return;                                                             \
    if (!moved_on(*count, requests, false))                                         \
      return library(count, requests, index, status, ierror);                       \
    static const auto test_any = A2AFFT_LIBRARY(test);                              \
    for (MPI_Fint flag = 0, rc = MPI_SUCCESS;; moved_on(*count, requests, false)) { \
      test_any(count, requests, index, &flag, status, &rc);                         \
      if (flag || rc != MPI_SUCCESS) return a2afft::preload::set(ierror, rc);       \
    }                                                                               \
  }
#define A2AFFT_FORTRAN_TESTANY(name) A2AFFT_FORTRAN_TESTANY_(name, false)
#define A2AFFT_FORTRAN_TESTANY_(name, detour)                                                      \
  extern "C" void name(const MPI_Fint* count, MPI_Fint* requests, MPI_Fint* index, MPI_Fint* flag, \
                       MPI_Fint* status, MPI_Fint* ierror) {                                       \
    static const auto library = A2AFFT_LIBRARY(name);                                              \
    if (detour) return;                                                                            \
    moved_on(*count, requests, false);                                                             \
    library(count, requests, index, flag, status, ierror);                                         \
  }
#define A2AFFT_FORTRAN_WAITSOME(name, test) A2AFFT_FORTRAN_WAITSOME_(name, test, false)
#define A2AFFT_FORTRAN_WAITSOME_(name, test, detour)                                    \
  extern "C" void name(const MPI_Fint* count, MPI_Fint* requests, MPI_Fint* outcount,   \
                       MPI_Fint* indices, MPI_Fint* statuses, MPI_Fint* ierror) {       \
    static const auto library = A2AFFT_LIBRARY(name);                                   \
    if (detour) return;                                                                 \
    if (!moved_on(*count, requests, false)) {                                           \
      return library(count, requests, outcount, indices, statuses, ierror);             \
    }                                                                                   \
    static const auto test_some = A2AFFT_LIBRARY(test);                                 \
    for (MPI_Fint rc = MPI_SUCCESS;; moved_on(*count, requests, false)) {               \
      test_some(count, requests, outcount, indices, statuses, &rc);                     \
      if (*outcount != 0 || rc != MPI_SUCCESS) return a2afft::preload::set(ierror, rc); \
    }                                                                                   \
  }
#define A2AFFT_FORTRAN_TESTSOME(name) A2AFFT_FORTRAN_TESTSOME_(name, false)
#define A2AFFT_FORTRAN_TESTSOME_(name, detour)                                        \
  extern "C" void name(const MPI_Fint* count, MPI_Fint* requests, MPI_Fint* outcount, \
                       MPI_Fint* indices, MPI_Fint* statuses, MPI_Fint* ierror) {     \
    static const auto library = A2AFFT_LIBRARY(name);                                 \
    if (detour) return;                                                               \
    moved_on(*count, requests, false);                                                \
    library(count, requests, outcount, indices, statuses, ierror);                    \
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
A2AFFT_FORTRAN_NAMES(A2AFFT_FORTRAN_IALLTOALL, mpi_ialltoall, MPI_IALLTOALL, ompi_ialltoall_f,
                     MPI_Ialltoall)
A2AFFT_FORTRAN_NAMES(A2AFFT_FORTRAN_FINALIZE, mpi_finalize, MPI_FINALIZE, ompi_finalize_f,
                     MPI_Finalize)

// MPICH's mpi_f08 MPI_Finalize calls PMPI_Finalize itself (its MPI_Alltoall(v) call the C
// MPI_Alltoall(v), caught above); Open MPI's goes through ompi_finalize_f.
A2AFFT_FORTRAN_FINALIZE(mpi_finalize_f08_)

// The wait and test family: mpif.h and `use mpi` (A2AFFT_FORTRAN_NAMES), and `use mpi_f08`'s
// mpi_*_f08_ (MPICH's call PMPI_Wait & co.; Open MPI's tests call pmpi_test_ & co.). A wait's
// polling partner is the test of its own binding, defined first.
#define A2AFFT_FORTRAN_POLLING_NAMES(MACRO, lower, upper, ompi, Mixed, tlower, tupper, tompi, \
                                     TMixed)                                                  \
  MACRO(lower, tlower)                                                                        \
  MACRO(lower##_, tlower##_)                                                                  \
  MACRO(lower##__, tlower##__)                                                                \
  MACRO(upper, tupper)                                                                        \
  MACRO(ompi, tompi)                                                                          \
  MACRO(Mixed##_f, TMixed##_f)                                                                \
  MACRO(Mixed##_f08, TMixed##_f08)
A2AFFT_FORTRAN_NAMES(A2AFFT_FORTRAN_WAIT, mpi_wait, MPI_WAIT, ompi_wait_f, MPI_Wait)
A2AFFT_FORTRAN_NAMES(A2AFFT_FORTRAN_TEST, mpi_test, MPI_TEST, ompi_test_f, MPI_Test)
A2AFFT_FORTRAN_NAMES(A2AFFT_FORTRAN_WAITALL, mpi_waitall, MPI_WAITALL, ompi_waitall_f, MPI_Waitall)
A2AFFT_FORTRAN_NAMES(A2AFFT_FORTRAN_TESTALL, mpi_testall, MPI_TESTALL, ompi_testall_f, MPI_Testall)
A2AFFT_FORTRAN_NAMES(A2AFFT_FORTRAN_TESTANY, mpi_testany, MPI_TESTANY, ompi_testany_f, MPI_Testany)
A2AFFT_FORTRAN_POLLING_NAMES(A2AFFT_FORTRAN_WAITANY, mpi_waitany, MPI_WAITANY, ompi_waitany_f,
                             MPI_Waitany, mpi_testany, MPI_TESTANY, ompi_testany_f, MPI_Testany)
A2AFFT_FORTRAN_NAMES(A2AFFT_FORTRAN_TESTSOME, mpi_testsome, MPI_TESTSOME, ompi_testsome_f,
                     MPI_Testsome)
A2AFFT_FORTRAN_POLLING_NAMES(A2AFFT_FORTRAN_WAITSOME, mpi_waitsome, MPI_WAITSOME, ompi_waitsome_f,
                             MPI_Waitsome, mpi_testsome, MPI_TESTSOME, ompi_testsome_f,
                             MPI_Testsome)
#if A2AFFT_F08_DETOUR
A2AFFT_FORTRAN_WAIT_(mpi_wait_f08_, detour_wait(request, nullptr, status, ierror))
A2AFFT_FORTRAN_TEST_(mpi_test_f08_, detour_wait(request, flag, status, ierror))
A2AFFT_FORTRAN_WAITALL_(mpi_waitall_f08_, detour_all(count, requests, nullptr, statuses, ierror))
A2AFFT_FORTRAN_TESTALL_(mpi_testall_f08_, detour_all(count, requests, flag, statuses, ierror))
A2AFFT_FORTRAN_TESTANY_(mpi_testany_f08_, detour_any(count, requests, index, flag, status, ierror))
A2AFFT_FORTRAN_WAITANY_(mpi_waitany_f08_, mpi_testany_f08_,
                        detour_any(count, requests, index, nullptr, status, ierror))
A2AFFT_FORTRAN_TESTSOME_(mpi_testsome_f08_,
                         detour_some(count, requests, outcount, indices, statuses, ierror, false))
A2AFFT_FORTRAN_WAITSOME_(mpi_waitsome_f08_, mpi_testsome_f08_,
                         detour_some(count, requests, outcount, indices, statuses, ierror, true))
#else
A2AFFT_FORTRAN_WAIT(mpi_wait_f08_)
A2AFFT_FORTRAN_TEST(mpi_test_f08_)
A2AFFT_FORTRAN_WAITALL(mpi_waitall_f08_)
A2AFFT_FORTRAN_TESTALL(mpi_testall_f08_)
A2AFFT_FORTRAN_TESTANY(mpi_testany_f08_)
A2AFFT_FORTRAN_WAITANY(mpi_waitany_f08_, mpi_testany_f08_)
A2AFFT_FORTRAN_TESTSOME(mpi_testsome_f08_)
A2AFFT_FORTRAN_WAITSOME(mpi_waitsome_f08_, mpi_testsome_f08_)
#endif

#if A2AFFT_HAVE_ALLTOALL_INIT
// MPI 4's persistent MPI_ALLTOALL_INIT and MPI_ALLTOALLV_INIT (MPICH here: its mpif.h wrappers
// call the C calls, caught anyway, but convert MPI_IN_PLACE themselves; caught here they count as
// Fortran's). MPI_START and MPI_STARTALL reach the C ones (MPICH's mpif.h) or below (mpi_f08).
#define A2AFFT_FORTRAN_ALLTOALL_INIT(name)                                                       \
  extern "C" void name(const void* sendbuf, const MPI_Fint* sendcount, const MPI_Fint* sendtype, \
                       void* recvbuf, const MPI_Fint* recvcount, const MPI_Fint* recvtype,       \
                       const MPI_Fint* comm, const MPI_Fint* info, MPI_Fint* request,            \
                       MPI_Fint* ierror) {                                                       \
    MPI_Request handle = MPI_REQUEST_NULL;                                                       \
    const int rc = a2afft::preload::alltoall_init(                                               \
        c_buffer(sendbuf), *sendcount, PMPI_Type_f2c(*sendtype), c_buffer(recvbuf), *recvcount,  \
        PMPI_Type_f2c(*recvtype), PMPI_Comm_f2c(*comm), PMPI_Info_f2c(*info), &handle,           \
        "MPI_Alltoall_init (Fortran)");                                                          \
    if (rc == MPI_SUCCESS) *request = PMPI_Request_c2f(handle);                                  \
    a2afft::preload::set(ierror, rc);                                                            \
  }
A2AFFT_FORTRAN_NAMES(A2AFFT_FORTRAN_ALLTOALL_INIT, mpi_alltoall_init, MPI_ALLTOALL_INIT,
                     ompi_alltoall_init_f, MPI_Alltoall_init)
#endif
#if A2AFFT_HAVE_ALLTOALLV_INIT
#define A2AFFT_FORTRAN_ALLTOALLV_INIT(name)                                                        \
  extern "C" void name(const void* sendbuf, const MPI_Fint* sendcounts, const MPI_Fint* sdispls,   \
                       const MPI_Fint* sendtype, void* recvbuf, const MPI_Fint* recvcounts,        \
                       const MPI_Fint* rdispls, const MPI_Fint* recvtype, const MPI_Fint* comm,    \
                       const MPI_Fint* info, MPI_Fint* request, MPI_Fint* ierror) {                \
    MPI_Request handle = MPI_REQUEST_NULL;                                                         \
    const int rc = a2afft::preload::alltoallv_init(                                                \
        c_buffer(sendbuf), sendcounts, sdispls, PMPI_Type_f2c(*sendtype), c_buffer(recvbuf),       \
        recvcounts, rdispls, PMPI_Type_f2c(*recvtype), PMPI_Comm_f2c(*comm), PMPI_Info_f2c(*info), \
        &handle, "MPI_Alltoallv_init (Fortran)");                                                  \
    if (rc == MPI_SUCCESS) *request = PMPI_Request_c2f(handle);                                    \
    a2afft::preload::set(ierror, rc);                                                              \
  }
A2AFFT_FORTRAN_NAMES(A2AFFT_FORTRAN_ALLTOALLV_INIT, mpi_alltoallv_init, MPI_ALLTOALLV_INIT,
                     ompi_alltoallv_init_f, MPI_Alltoallv_init)
#endif
