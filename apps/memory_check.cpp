#include "memory_check.hpp"

#include <mpi.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <iterator>
#include <numeric>
#include <sstream>

#include <a2afft/error.hpp>
#include <a2afft/tools/backends.hpp>

namespace a2afft::cli {

namespace {

double sum(const std::vector<MemoryItem>& items, bool with_bounds) {
  return std::accumulate(items.begin(), items.end(), 0.0,
                         [&](double total, const MemoryItem& item) {
                           return total + (with_bounds || !item.bound ? item.bytes : 0.0);
                         });
}

std::string read_file(const char* path) {
  std::ifstream file(path);
  return {std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
}

std::optional<double> parse_number(std::string_view text) {
  const std::string copy(text);
  char* end = nullptr;
  const double value = std::strtod(copy.c_str(), &end);
  if (end == copy.c_str() || value < 0) return std::nullopt;
  return value;
}

std::string describe_items(const std::vector<MemoryItem>& items) {
  std::string text;
  for (const MemoryItem& item : items) {
    if (item.bytes <= 0) continue;
    text += (text.empty() ? "" : ", ") + item.what + (item.bound ? " up to " : " ") +
            format_bytes(item.bytes);
  }
  return text;
}

}  // namespace

double MemoryEstimate::per_rank_bytes(bool with_bounds) const {
  return sum(per_rank, with_bounds);
}

double MemoryEstimate::on_rank0_bytes(bool with_bounds) const {
  return sum(on_rank0, with_bounds);
}

double exchange_scratch_bytes(const std::string& spec, int ranks, int largest_node,
                              std::size_t block_bytes) {
  if (ranks <= 1) return 0;  // a transpose inside one rank builds no plan
  return backend_scratch_bytes(spec, ranks, largest_node, block_bytes);
}

MemoryEstimate fft_memory_estimate(double points, const RankMap& ranks, Order order, bool fftw_mpi,
                                   const std::vector<double>& scratch_per_plan) {
  constexpr double kPointBytes = sizeof(std::complex<double>);
  const double local_bytes = kPointBytes * std::ceil(points / ranks.size());
  std::vector<double> arrays, scratch;  // per plan
  if (fftw_mpi) {
    arrays.push_back(4 * local_bytes);  // data, FFTW-MPI's work array, input, slack of its split
    scratch.push_back(0);
  }
  for (const double bytes : scratch_per_plan) {
    arrays.push_back(5 * local_bytes);  // input, data, work array, send, receive
    scratch.push_back(bytes);
  }
  const auto combine = [&](const std::vector<double>& per_plan) {
    if (per_plan.empty()) return 0.0;
    return order == Order::interleaved ? std::accumulate(per_plan.begin(), per_plan.end(), 0.0)
                                       : *std::max_element(per_plan.begin(), per_plan.end());
  };
  MemoryEstimate estimate;
  estimate.per_rank = {{"plans' arrays", combine(arrays)},
                       {"exchange scratch", combine(scratch), true}};
  estimate.on_rank0 = {{"gathered output" + std::string(fftw_mpi ? " and reference" : ""),
                        (fftw_mpi ? 2 : 1) * kPointBytes * points}};
  return estimate;
}

std::optional<double> parse_meminfo_available(std::string_view meminfo) {
  constexpr std::string_view kKey = "MemAvailable:";
  const std::size_t at = meminfo.find(kKey);
  if (at == std::string_view::npos) return std::nullopt;
  std::istringstream line(std::string(meminfo.substr(at + kKey.size())));
  double kibibytes = -1;
  std::string unit;
  if (!(line >> kibibytes >> unit) || kibibytes < 0 || unit != "kB") return std::nullopt;
  return kibibytes * 1024;
}

std::optional<double> parse_cgroup_room(std::string_view max, std::string_view current) {
  if (max.substr(0, 3) == "max") return std::nullopt;
  const auto limit = parse_number(max);
  const auto used = parse_number(current);
  if (!limit) return std::nullopt;
  return std::max(0.0, *limit - used.value_or(0));
}

double available_memory_bytes(std::string* source) {
  double bytes = 0;
  std::string from;
  if (const auto available = parse_meminfo_available(read_file("/proc/meminfo"))) {
    bytes = *available;
    from = "MemAvailable";
  } else {
    bytes = 0.5 * static_cast<double>(sysconf(_SC_PHYS_PAGES)) *
            static_cast<double>(sysconf(_SC_PAGESIZE));
    from = "half the physical memory (no MemAvailable)";
  }
  if (const auto room = parse_cgroup_room(read_file("/sys/fs/cgroup/memory.max"),
                                          read_file("/sys/fs/cgroup/memory.current"));
      room && *room < bytes) {
    bytes = *room;
    from = "the cgroup's memory.max";
  }
  if (source != nullptr) *source = from;
  return bytes;
}

std::string format_bytes(double bytes) {
  constexpr const char* kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  std::size_t unit = 0;
  while (bytes >= 1024 && unit + 1 < std::size(kUnits)) {
    bytes /= 1024;
    ++unit;
  }
  char text[32];
  std::snprintf(text, sizeof text, unit == 0 ? "%.0f %s" : "%.1f %s", bytes, kUnits[unit]);
  return text;
}

void check_memory_fits(const MemoryEstimate& estimate, const RankMap& ranks,
                       std::string_view what) {
  if (const char* skip = std::getenv("A2AFFT_SKIP_MEMORY_CHECK"); skip && std::string(skip) == "1")
    return;
  // Every rank judges its own host; the worst host's numbers go to every rank, so all throw
  // together (or none does). In simulation (SMPI) every simulated rank lives in this one process
  // on this one machine, whatever simulated host it is on: the machine holds all P ranks' memory.
  const std::string& host = ranks.host_of_rank[static_cast<std::size_t>(ranks.rank)];
  int ranks_here = 0;
  bool rank0_here = false;
  for (int rank = 0; rank < ranks.size(); ++rank) {
    if (!A2AFFT_SMPI && ranks.host_of_rank[static_cast<std::size_t>(rank)] != host) continue;
    ++ranks_here;
    rank0_here = rank0_here || rank == 0;
  }
  std::string source;
  const double available = available_memory_bytes(&source);
  const auto host_need = [&](bool with_bounds) {
    return ranks_here * estimate.per_rank_bytes(with_bounds) +
           (rank0_here ? estimate.on_rank0_bytes(with_bounds) : 0.0);
  };
  // The worst shortfall, certain and with the bounds, and the rank that has each.
  struct {
    double shortfall;
    int rank;
  } mine[2] = {{host_need(false) - available, ranks.rank},
               {host_need(true) - available, ranks.rank}},
    worst[2];
  if (MPI_Allreduce(mine, worst, 2, MPI_DOUBLE_INT, MPI_MAXLOC, MPI_COMM_WORLD) != MPI_SUCCESS) {
    throw MpiError("MPI_Allreduce(memory) failed");
  }
  const bool certain = worst[0].shortfall > 0;
  if (!certain && worst[1].shortfall <= 0) return;
  const int reporter = certain ? worst[0].rank : worst[1].rank;
  std::string text;
  if (ranks.rank == reporter) {
    text = std::string(what) + " needs about " + format_bytes(estimate.per_rank_bytes()) +
           " per rank (" + describe_items(estimate.per_rank) + ")";
    if (rank0_here && estimate.on_rank0_bytes() > 0) {
      text += " plus " + format_bytes(estimate.on_rank0_bytes()) + " on rank 0 (" +
              describe_items(estimate.on_rank0) + ")";
    }
    text += ", " + format_bytes(host_need(certain ? false : true)) +
            (certain ? " for certain" : " at most") + " for the " + std::to_string(ranks_here) +
            (A2AFFT_SMPI ? " simulated rank" : " rank") + (ranks_here == 1 ? "" : "s") +
            (A2AFFT_SMPI ? " (all in this one process: SMPI)" : " on host " + host) +
            ", which has " + format_bytes(available) + " available (" + source + ")";
  }
  // The reporter's text to every rank: its length, then its characters.
  unsigned long length = text.size();
  MPI_Bcast(&length, 1, MPI_UNSIGNED_LONG, reporter, MPI_COMM_WORLD);
  text.resize(length);
  MPI_Bcast(text.data(), static_cast<int>(length), MPI_CHAR, reporter, MPI_COMM_WORLD);
  if (certain) {
    throw UsageError(text +
                     "; use smaller sizes, fewer plans or more nodes "
                     "(A2AFFT_SKIP_MEMORY_CHECK=1 tries anyway)");
  }
  if (ranks.rank == 0) std::cerr << "a2afft: warning: " << text << "; running anyway\n";
}

}  // namespace a2afft::cli
