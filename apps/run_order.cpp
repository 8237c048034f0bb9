#include "run_order.hpp"

#include <unistd.h>

#include <a2afft/error.hpp>

#include "report/stats.hpp"

namespace a2afft::cli {

Order choose_order(const std::string& text, double bytes_per_rank, const RankMap& ranks,
                   std::size_t plan_count) {
  if (text == "sequential") return Order::sequential;
  if (text != "interleaved" && text != "auto") {
    throw UsageError("--order=" + text + " is not valid; expected auto, interleaved or sequential");
  }
  const auto ranks_per_node = static_cast<double>(ranks.largest_node_size());
  const double node_bytes = static_cast<double>(plan_count) * bytes_per_rank * ranks_per_node;
  const double memory_bytes =
      static_cast<double>(sysconf(_SC_PHYS_PAGES)) * static_cast<double>(sysconf(_SC_PAGESIZE));
  if (node_bytes <= memory_bytes / 2) return Order::interleaved;
  if (text == "interleaved") {
    using report::format;
    throw UsageError("--order=interleaved needs about " + format("%.1f", node_bytes / (1 << 30)) +
                     " GiB per node for " + std::to_string(plan_count) +
                     " plans, over half of the " + format("%.1f", memory_bytes / (1 << 30)) +
                     " GiB here; use --order sequential or fewer plans");
  }
  return Order::sequential;  // the header says so
}

std::string to_string(Order order) {
  return order == Order::interleaved ? "interleaved (run i of every plan before run i+1)"
                                     : "one plan after another";
}

}  // namespace a2afft::cli
