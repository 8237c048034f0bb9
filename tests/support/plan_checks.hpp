#pragma once

// Checks shared by the distributed FFT tests.

#include <mpi.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "fftw_plan.hpp"

namespace a2afft::detail::testing_support {

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

/// The same transforms three ways must give the same bits: the plan's own data() (forward() then
/// backward()), caller arrays out of place (which must leave their input untouched) and one
/// caller array in place of `in_place_elements`. `fill(array)` writes the input. "" when all
/// agree on this rank, else the first difference. Collective: every call runs on every rank.
template <typename Plan, typename Fill>
std::string user_array_difference(Plan& plan, std::size_t input_elements,
                                  std::size_t output_elements, std::size_t in_place_elements,
                                  Fill fill) {
  using Element = std::remove_reference_t<decltype(*plan.data())>;
  std::string failure;
  const auto expect_same = [&](const Element* got, const std::vector<Element>& expected,
                               const char* what) {
    if (failure.empty() && !expected.empty() &&
        std::memcmp(got, expected.data(), expected.size() * sizeof(Element)) != 0) {
      failure = what;
    }
  };
  fill(plan.data());
  plan.forward();
  const std::vector<Element> spectrum(plan.data(), plan.data() + output_elements);
  plan.backward();
  const std::vector<Element> round_trip(plan.data(), plan.data() + input_elements);

  std::vector<Element> in(input_elements);
  std::vector<Element> out(output_elements);
  std::vector<Element> back(input_elements);
  fill(in.data());
  const std::vector<Element> input = in;
  plan.forward(in.data(), out.data());
  expect_same(in.data(), input, "forward out of place wrote its input");
  expect_same(out.data(), spectrum, "forward out of place differs from forward() on data()");
  const std::vector<Element> output = out;
  plan.backward(out.data(), back.data());
  expect_same(out.data(), output, "backward out of place wrote its input");
  expect_same(back.data(), round_trip, "backward out of place differs from backward() on data()");

  std::vector<Element> array(in_place_elements);
  fill(array.data());
  plan.forward(array.data(), array.data());
  expect_same(array.data(), spectrum, "forward in place differs from forward() on data()");
  plan.backward(array.data(), array.data());
  expect_same(array.data(), round_trip, "backward in place differs from backward() on data()");
  return failure;
}

/// Scaling on plans `make_plan(scaling)` of N = `points` points, from input `x` (this rank's
/// part): none keeps FFTW's unnormalized transforms (backward(forward(x)) = N x), full gives
/// the unscaled forward bits and backward(forward(x)) = x, symmetric gives the unscaled forward
/// over sqrt(N), keeps the energy (summed over ranks: Parseval) and round trips to x. "" when
/// all hold on this rank, else the first failure. Collective.
template <typename MakePlan>
std::string scaling_failure(MakePlan make_plan, const std::vector<fft::Complex>& x,
                            std::size_t output_elements, std::size_t points) {
  using fft::Complex;
  using fft::Scaling;
  const auto n = static_cast<double>(points);
  const auto energy = [](const std::vector<Complex>& values) {
    double sum = 0;
    for (const Complex& value : values)
      sum += std::norm(value);
    MPI_Allreduce(MPI_IN_PLACE, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    return sum;
  };
  // max |got[i] * factor - expected[i]| relative to max |expected[i]| (this rank's parts).
  const auto differs = [](const std::vector<Complex>& got, double factor,
                          const std::vector<Complex>& expected) {
    double worst = 0;
    double scale = 1e-300;
    for (std::size_t i = 0; i < expected.size(); ++i) {
      worst = std::max(worst, std::abs(got[i] * factor - expected[i]));
      scale = std::max(scale, std::abs(expected[i]));
    }
    return worst / scale > 1e-12;
  };
  std::string failure;
  const auto fail_if = [&](bool failed, const char* what) {
    if (failed && failure.empty()) failure = what;
  };
  std::vector<Complex> unscaled;
  for (const Scaling scaling : {Scaling::none, Scaling::full, Scaling::symmetric}) {
    auto plan = make_plan(scaling);
    std::vector<Complex> spectrum(output_elements);
    std::vector<Complex> back(x.size());
    plan->forward(x.data(), spectrum.data());
    plan->backward(spectrum.data(), back.data());
    switch (scaling) {
      case Scaling::none:
        unscaled = spectrum;
        fail_if(differs(back, 1 / n, x), "none: backward(forward(x)) is not N x");
        break;
      case Scaling::full:
        fail_if(spectrum != unscaled, "full: forward differs from the unscaled bits");
        fail_if(differs(back, 1, x), "full: backward(forward(x)) is not x");
        break;
      case Scaling::symmetric: {
        fail_if(differs(spectrum, std::sqrt(n), unscaled), "symmetric: forward is not 1/sqrt(N)");
        fail_if(differs(back, 1, x), "symmetric: backward(forward(x)) is not x");
        const double before = energy(x);
        fail_if(std::abs(energy(spectrum) / before - 1) > 1e-12, "symmetric: energy changed");
        break;
      }
    }
  }
  return failure;
}

}  // namespace a2afft::detail::testing_support
