#include <a2afft/version.hpp>

#include "git_describe.hpp"  // generated at every build: A2AFFT_GIT_DESCRIBE

namespace a2afft {

const char* version() noexcept {
  return A2AFFT_VERSION;
}

const char* git_describe() noexcept {
  return A2AFFT_GIT_DESCRIBE;
}

}  // namespace a2afft
