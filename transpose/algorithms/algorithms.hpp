#pragma once

#include "registry.hpp"

// One row per backend, each defined in its algorithm family's file; registry.cpp lists them.
namespace a2afft::algorithms {

extern const ExchangeInfo kVendorExchange;       // vendor.cpp
extern const ExchangeInfo kPairwiseExchange;     // direct.cpp
extern const ExchangeInfo kNonblockingExchange;  // direct.cpp
extern const ExchangeInfo kFactorExchange;       // factor.cpp

}  // namespace a2afft::algorithms
