#pragma once

#include <mpi.h>

#include <cstddef>
#include <memory>

#include "exchange.hpp"

namespace a2afft::detail::algorithms {

/// How TRA handles the local rotations of [tra-2024] §III.
enum class TraRotation {
  mapped,  // no rotations: blocks are read from `send` and written to `recv` at mapped places
  copied,  // [tra-2024]'s literal steps 1 and 3: rotate into scratch, rotate back at the end
};

/// A TRA plan on any communicator; TRA2 runs two of these on its sub-communicators.
std::unique_ptr<ExchangePlan> make_tra_plan(MPI_Comm comm, std::size_t block_bytes, long radix,
                                            TraRotation rotation);

}  // namespace a2afft::detail::algorithms
