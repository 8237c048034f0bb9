#pragma once

// In which order a benchmark runs its plans (alltoall, fft3d, fft1d): the policy, apart from
// the loops that follow it.

#include <cstddef>
#include <string>

#include <a2afft/tools/timing.hpp>
#include <a2afft/tools/topology.hpp>

namespace a2afft::cli {

/// Interleaved runs spread the machine's slow spells over every plan alike, so the rows of one
/// table compare fairly; they need every plan alive at once. timing::run_trials follows it.
using Order = timing::TrialOrder;

/// `auto` is interleaved when `plan_count` plans of `bytes_per_rank` each fit in half the
/// node's memory, else sequential. Throws UsageError for other words, or for `interleaved`
/// when it would not fit.
Order choose_order(const std::string& text, double bytes_per_rank, const RankMap& ranks,
                   std::size_t plan_count);

/// For the header line, e.g. `one plan after another`.
std::string to_string(Order order);

}  // namespace a2afft::cli

namespace a2afft::commands {
// The commands name these unqualified.
using cli::choose_order;
using cli::Order;
using cli::to_string;
}  // namespace a2afft::commands
