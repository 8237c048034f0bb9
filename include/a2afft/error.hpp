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

/// A mistake the caller can fix: a bad shape, grid, spec, option, layout or array. The message
/// is one line that names the offending value and says what is valid (the a2afft command prints
/// it on rank 0 and exits 2).
class UsageError : public Error {
 public:
  using Error::Error;
};

/// An MPI call failed. The message carries the call and MPI's own error string.
class MpiError : public Error {
 public:
  using Error::Error;
};

}  // namespace a2afft
