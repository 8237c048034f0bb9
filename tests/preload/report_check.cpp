// usage: report_check REPORT.json (--kind KIND --min N [--plans N] [--fallback REGEX]...)...
// Checks a drop-in report (A2AFFT_REPORT) kind by kind: the rows of call kind KIND (e.g.
// "MPI_Alltoall (Fortran)"; "A|B" for either) routed at least N calls in all; every fallback reason
// they list matches one of that kind's REGEXes (none given: no fallback at all); with --plans, the
// MPI_COMM_WORLD row of that kind made exactly that many plans. Prints the rows it read; exit
// status 0 when everything holds.
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>
#include <vector>

namespace {

struct Expected {
  std::string kind;
  long min_routed = 1;
  long plans = -1;  // -1: not checked
  std::vector<std::regex> fallbacks;
};

bool failed(const std::string& why) {
  std::printf("FAILED: %s\n", why.c_str());
  return false;
}

bool allowed(const std::string& reason, const std::vector<std::regex>& fallbacks) {
  for (const std::regex& pattern : fallbacks) {
    if (std::regex_search(reason, pattern)) return true;
  }
  return false;
}

// Whether `kind` is one of the '|'-separated names of `kinds`.
bool one_of(const std::string& kind, const std::string& kinds) {
  return ("|" + kinds + "|").find("|" + kind + "|") != std::string::npos;
}

bool check(const nlohmann::json& report, const Expected& expected) {
  long routed = 0, world_plans = -1;
  for (const auto& row : report["rows"]) {
    if (!one_of(row["kind"].get<std::string>(), expected.kind)) continue;
    std::printf("%s\n", row.dump().c_str());
    routed += row["routed"].get<long>();
    if (row["communicator"] == "MPI_COMM_WORLD") world_plans = row["plans"].get<long>();
    for (const auto& [reason, count] : row["fallbacks"].items()) {
      if (!allowed(reason, expected.fallbacks)) {
        return failed(expected.kind + ": unexpected fallback: " + reason);
      }
    }
  }
  if (routed < expected.min_routed) {
    return failed(expected.kind + ": " + std::to_string(routed) +
                  " calls routed, expected at least " + std::to_string(expected.min_routed));
  }
  if (expected.plans >= 0 && world_plans != expected.plans) {
    return failed(expected.kind + " on MPI_COMM_WORLD: " + std::to_string(world_plans) +
                  " plans made, expected " + std::to_string(expected.plans));
  }
  std::printf("ok: %s: %ld calls routed\n", expected.kind.c_str(), routed);
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<Expected> kinds;
  for (int i = 2; i + 1 < argc; i += 2) {
    const std::string option = argv[i], value = argv[i + 1];
    if (option == "--kind") {
      kinds.push_back({value});
    } else if (kinds.empty()) {
      break;
    } else if (option == "--min") {
      kinds.back().min_routed = std::atol(value.c_str());
    } else if (option == "--plans") {
      kinds.back().plans = std::atol(value.c_str());
    } else if (option == "--fallback") {
      kinds.back().fallbacks.emplace_back(value);
    }
  }
  if (argc < 4 || kinds.empty() || (argc % 2) != 0) {
    failed(
        "usage: report_check REPORT.json (--kind KIND --min N [--plans N] [--fallback RE]...)...");
    return 2;
  }
  std::ifstream in(argv[1]);
  const nlohmann::json report = nlohmann::json::parse(in, nullptr, false);
  if (!in || report.is_discarded() || !report.contains("rows")) {
    failed(std::string(argv[1]) + " is missing or no drop-in report");
    return 1;
  }
  bool ok = true;
  for (const Expected& expected : kinds)
    ok = check(report, expected) && ok;
  return ok ? 0 : 1;
}
