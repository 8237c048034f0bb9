#pragma once

// UsageError and MpiError are public (include/a2afft/error.hpp): library users catch them.
#include <a2afft/error.hpp>
