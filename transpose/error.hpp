#pragma once

#include <a2afft/error.hpp>

namespace a2afft {

/// A mistake the user can fix: a bad spec, size, layout or option. The message is one line
/// that names the offending value and says what is valid; apps print it on rank 0 and exit 2.
/// An a2afft::Error, so library users catch one type.
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
