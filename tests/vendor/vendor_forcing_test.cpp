// The vendor rows (mpi:alg=NAME) force one of the MPI library's own alltoall algorithms. These
// tests fail when a forced algorithm does not take effect.
//
// The observable: an algorithm's own refusal of arguments it cannot serve, which only that
// algorithm, forced, gives. Open MPI's two_proc returns MPI_ERR_UNSUPPORTED_OPERATION on other
// than 2 ranks; under MPIR_CVAR_COLLECTIVE_FALLBACK=error MPICH's brucks and pairwise refuse
// MPI_IN_PLACE and pairwise_sendrecv_replace refuses anything else. (Message counts are no
// observable here: both libraries send below PMPI, and Open MPI 4.1's pml monitoring
// variables vanished from MPI_T once MPI_Init had run in our trials.) So a forced value that
// names the wrong algorithm, a variable written after the communicator exists, or one never
// read, fails. tests/vendor.cmake runs the suite that matches the MPI library of the build; a
// suite run against another library fails saying so.

#include <gtest/gtest.h>

#include <numeric>
#include <vector>

#include "agreed.hpp"
#include "algorithms/vendor.hpp"
#include "error.hpp"
#include "make_exchange.hpp"
#include "world_topology.hpp"

namespace a2afft::detail {
namespace {

using algorithms::vendor::Forcing;
using algorithms::vendor::selector;

const Topology& world() {
  return testing_support::world_topology();
}

// MPI_Alltoall of one int per rank on `comm` (errors return), in place or not: its error class.
int alltoall_class(MPI_Comm comm, bool in_place) {
  const int ranks = world().size();
  std::vector<int> send(static_cast<std::size_t>(ranks)), recv(send.size());
  std::iota(send.begin(), send.end(), world().rank() * ranks);
  recv = send;
  const int rc = in_place ? MPI_Alltoall(MPI_IN_PLACE, 1, MPI_INT, recv.data(), 1, MPI_INT, comm)
                          : MPI_Alltoall(send.data(), 1, MPI_INT, recv.data(), 1, MPI_INT, comm);
  int error_class = MPI_SUCCESS;
  MPI_Error_class(rc, &error_class);
  return error_class;
}

// The same class on every rank, or -1 where ranks differ.
int agreed_class(int local) {
  int low = 0, high = 0;
  MPI_Allreduce(&local, &low, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(&local, &high, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  return low == high ? low : -1;
}

// A forced row builds, names its algorithm and moves every block where MPI_Alltoall would.
void expect_row_runs(const std::string& name) {
  const auto plan = make_exchange("mpi:alg=" + name, world(), 8);
  EXPECT_EQ(plan->describe(), "mpi(alg=" + name + ")");
  const std::size_t total = 8 * static_cast<std::size_t>(world().size());
  std::vector<std::byte> send(total), recv(total), expected(total);
  for (std::size_t i = 0; i < total; ++i)
    send[i] = static_cast<std::byte>(world().rank() * 31 + static_cast<int>(i));
  MPI_Alltoall(send.data(), 8, MPI_BYTE, expected.data(), 8, MPI_BYTE, MPI_COMM_WORLD);
  plan->run(send.data(), recv.data());
  EXPECT_EQ(testing_support::agreed_failure(recv == expected ? "" : "blocks differ"), "") << name;
}

TEST(OpenMpiForcing, two_proc_forced_on_a_plans_communicator_alone_refuses_three_ranks) {
  ASSERT_EQ(selector().forcing, Forcing::at_communicator_creation)
      << "this suite is for Open MPI's tuned module; the library is another: "
      << (selector().algorithm ? selector().algorithm->name() : selector().unavailable);
  ASSERT_EQ(selector().unavailable, "") << "run with OMPI_MCA_coll_tuned_use_dynamic_rules=1";
  ASSERT_GE(world().size(), 3) << "two_proc serves 2 ranks: its refusal needs 3 or more";
  const int before = selector().algorithm->read();
  const mpi::Comm forced =
      algorithms::vendor::forced_communicator(world().comm(), selector().value_of("two_proc"));
  EXPECT_EQ(selector().algorithm->read(), before) << "the variable is restored";
  EXPECT_EQ(agreed_class(alltoall_class(forced.get(), false)), MPI_ERR_UNSUPPORTED_OPERATION)
      << "two_proc did not take effect on the communicator created with it forced";
  const mpi::Comm plain = algorithms::vendor::forced_communicator(world().comm(), std::nullopt);
  EXPECT_EQ(agreed_class(alltoall_class(plain.get(), false)), MPI_SUCCESS)
      << "a communicator created after the restore must keep the library's choice";
  // The row itself is refused with the reason, and every other listed algorithm runs.
  EXPECT_THROW(make_exchange("mpi:alg=two_proc", world(), 8), UsageError);
  for (const std::string& name : selector().names) {
    if (name != "two_proc") expect_row_runs(name);
  }
}

TEST(MpichForcing, forced_algorithms_refuse_what_only_they_cannot_serve) {
  ASSERT_EQ(selector().forcing, Forcing::at_call)
      << "this suite is for MPICH; the library is another: "
      << (selector().algorithm ? selector().algorithm->name() : selector().unavailable);
  ASSERT_EQ(selector().unavailable, "");
  const mpi::Comm comm = mpi::Comm::duplicate(world().comm());  // errors return
  const int before = selector().algorithm->read();
  for (const char* in_place_refused : {"brucks", "pairwise"}) {
    {
      const algorithms::vendor::ForcedCall forcing(selector().value_of(in_place_refused));
      EXPECT_NE(agreed_class(alltoall_class(comm.get(), true)), MPI_SUCCESS)
          << in_place_refused << " did not take effect: it cannot serve MPI_IN_PLACE";
    }
    EXPECT_EQ(agreed_class(alltoall_class(comm.get(), true)), MPI_SUCCESS)
        << "after " << in_place_refused << " the library's choice is back";
  }
  {
    const algorithms::vendor::ForcedCall forcing(selector().value_of("pairwise_sendrecv_replace"));
    EXPECT_NE(agreed_class(alltoall_class(comm.get(), false)), MPI_SUCCESS)
        << "pairwise_sendrecv_replace did not take effect: it serves only MPI_IN_PLACE";
  }
  EXPECT_EQ(selector().algorithm->read(), before) << "the variable is restored";
  EXPECT_THROW(make_exchange("mpi:alg=pairwise_sendrecv_replace", world(), 8), UsageError);
  for (const std::string& name : selector().names) {
    if (name != "pairwise_sendrecv_replace") expect_row_runs(name);
  }
}

// Where another coll component outranks tuned, a forced value would be ignored: the plan is
// refused with the reason instead (tests/vendor.cmake runs this with coll_tuned_priority=0).
TEST(OpenMpiForcing, outranked_tuned_refuses_the_plan) {
  ASSERT_EQ(selector().forcing, Forcing::at_communicator_creation);
  ASSERT_EQ(selector().unavailable, "") << "run with OMPI_MCA_coll_tuned_use_dynamic_rules=1";
  ASSERT_GE(world().size(), 3) << "the check needs 3 ranks or more";
  try {
    make_exchange("mpi:alg=pairwise", world(), 8);
    FAIL() << "a plan whose forced algorithm tuned would ignore was made";
  } catch (const UsageError& error) {
    EXPECT_NE(std::string(error.what()).find("does not serve"), std::string::npos) << error.what();
  }
}

// Without the variable Open MPI reads at MPI_Init, every forced row is refused with the reason
// (never a plan that silently runs the library's choice).
TEST(OpenMpiForcing, without_dynamic_rules_every_forced_row_is_refused) {
  ASSERT_EQ(selector().forcing, Forcing::at_communicator_creation);
  ASSERT_NE(selector().unavailable, "") << "run without OMPI_MCA_coll_tuned_use_dynamic_rules";
  ASSERT_FALSE(selector().names.empty()) << "the list is read even where it cannot be forced";
  for (const std::string& name : selector().names) {
    const Spec spec = parse_spec("mpi:alg=" + name);
    EXPECT_NE(exchange_refusal(spec, world().layout()).find("coll_tuned_use_dynamic_rules"),
              std::string::npos)
        << name;
  }
}

// MPICH 4.0.2's descriptions as MPI_T gives them (lines joined without separators): the list
// must come out item by item, whichever library runs the test.
TEST(VendorRows, mpich_descriptions_are_read_item_by_item) {
  const std::string alltoall =
      "Variable to select alltoall algorithmauto - Internal algorithm selection (can be "
      "overridden with MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE)brucks                    - "
      "Force brucks algorithmnb                        - Force nonblocking "
      "algorithmpairwise                  - Force pairwise algorithmpairwise_sendrecv_replace - "
      "Force pairwise sendrecv replace algorithmscattered                 - Force scattered "
      "algorithm";
  EXPECT_EQ(algorithms::vendor::listed_in_description(alltoall),
            (std::vector<std::string>{"auto", "brucks", "nb", "pairwise",
                                      "pairwise_sendrecv_replace", "scattered"}));
  const std::string fallback =
      "Variable to control what the MPI library should do if theuser-specified collective "
      "algorithm does not work for thearguments passed in by the user.error   - throw an "
      "errorprint   - print an error message and fallback to the internally selected "
      "algorithmsilent  - silently fallback to the internally selected algorithm";
  EXPECT_EQ(algorithms::vendor::listed_in_description(fallback),
            (std::vector<std::string>{"error", "print", "silent"}));
}

TEST(VendorRows, an_algorithm_the_library_does_not_list_is_an_error_naming_the_list) {
  if (!selector().unavailable.empty()) GTEST_FAIL() << selector().unavailable;
  try {
    exchange_refusal(parse_spec("mpi:alg=no_such_algorithm"), world().layout());
    FAIL() << "no error";
  } catch (const UsageError& error) {
    EXPECT_NE(std::string(error.what()).find(selector().names.front()), std::string::npos)
        << error.what();
  }
}

}  // namespace
}  // namespace a2afft::detail
