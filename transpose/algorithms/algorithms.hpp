#pragma once

#include <memory>

#include "registry.hpp"

// One row per backend, each defined in its algorithm family's file; registry.cpp lists them.
namespace a2afft::algorithms {

extern const ExchangeInfo kVendorExchange;                // vendor.cpp
extern const ExchangeInfo kPairwiseExchange;              // direct.cpp
extern const ExchangeInfo kNonblockingExchange;           // direct.cpp
extern const ExchangeInfo kFactorExchange;                // factor.cpp
extern const ExchangeInfo kFactorHierExchange;            // factor.cpp
extern const ExchangeInfo kTraExchange;                   // tra.cpp
extern const ExchangeInfo kBruckExchange;                 // tra.cpp
extern const ExchangeInfo kTra2Exchange;                  // tra.cpp
extern const ExchangeInfo kHierarchicalExchange;          // node_aware.cpp
extern const ExchangeInfo kMultileaderExchange;           // node_aware.cpp
extern const ExchangeInfo kNodeAwareExchange;             // node_aware.cpp
extern const ExchangeInfo kLocalityAwareExchange;         // node_aware.cpp
extern const ExchangeInfo kMultileaderNodeAwareExchange;  // node_aware.cpp
extern const ExchangeInfo kMpmlExchange;                  // shared_leaders.cpp
extern const ExchangeInfo kNmpmlExchange;                 // shared_leaders.cpp
extern const ExchangeInfo kOnmpmlExchange;                // shared_leaders.cpp
extern const ExchangeInfo kAutoExchange;                  // auto.cpp

/// `make` for a backend without parameters: its plan is built from the problem alone.
template <typename Plan>
std::unique_ptr<Exchange> make_plan(const ExchangeProblem& problem, const Params&) {
  return std::make_unique<Plan>(problem);
}

}  // namespace a2afft::algorithms
