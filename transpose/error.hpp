#pragma once

#include <stdexcept>

namespace a2afft {

/// A mistake the user can fix: a bad spec, size, layout or option. The message is one line
/// that names the offending value and says what is valid; apps print it on rank 0 and exit 2.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// An MPI call failed. The message carries the call and MPI's own error string.
class MpiError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace a2afft
