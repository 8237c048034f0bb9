#pragma once

// Checks shared by the distributed FFT tests.

#include <mpi.h>

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

namespace a2afft::testing_support {

/// Runs `fill()` then `plan.forward()` twice and expects the same bits in the first
/// `output_elements` of plan.data() on every rank: a plan keeps no state between runs.
template <typename Plan, typename Fill>
void expect_repeatable_forward(Plan& plan, std::size_t output_elements, Fill fill,
                               const std::string& what) {
  fill();
  plan.forward();
  const std::vector<typename std::remove_reference_t<decltype(*plan.data())>> first(
      plan.data(), plan.data() + output_elements);
  fill();
  plan.forward();
  int differs =
      std::memcmp(first.data(), plan.data(), output_elements * sizeof(first.front())) != 0;
  MPI_Allreduce(MPI_IN_PLACE, &differs, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  EXPECT_EQ(differs, 0) << what << " repeated forward";
}

/// Exchanges only move bytes, so every backend's FFT must give exactly the bits of
/// `reference`'s (the same problem on another backend): forward from `fill()`, then backward
/// from that output. "" when they agree on this rank, else what differs.
template <typename Plan, typename Fill>
std::string bit_difference(Plan& plan, Plan& reference, std::size_t output_elements,
                           std::size_t input_elements, Fill fill) {
  const auto same = [&](std::size_t elements) {
    return std::memcmp(plan.data(), reference.data(), elements * sizeof(*plan.data())) == 0;
  };
  fill(plan.data());
  fill(reference.data());
  plan.forward();
  reference.forward();
  if (!same(output_elements)) return "forward output differs in its bits";
  plan.backward();
  reference.backward();
  if (!same(input_elements)) return "backward output differs in its bits";
  return "";
}

}  // namespace a2afft::testing_support
