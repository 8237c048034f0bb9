#pragma once

#include <stdexcept>

namespace a2afft {

/// The base of every exception a2afft throws on purpose: a bad argument, spec or layout (its
/// what() names the offending value and says what is valid) or a failed MPI call (the call and
/// MPI's own message). Collective constructors agree on failure: when one rank throws, every
/// rank of the communicator throws the same message, so none waits forever.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace a2afft
