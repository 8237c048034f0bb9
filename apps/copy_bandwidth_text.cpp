#include "copy_bandwidth_text.hpp"

#include "report/stats.hpp"

namespace a2afft::commands {

std::string copy_bandwidth_text(const CopyBandwidth& copy) {
  return report::format("1 core %.1f GB/s, ", copy.one_core_bytes_per_second / 1e9) +
         std::to_string(copy.node_ranks) +
         report::format(" cores at once %.1f GB/s per core", copy.all_cores_bytes_per_second / 1e9);
}

nlohmann::json copy_bandwidth_json(const CopyBandwidth& copy) {
  return {{"buffer_bytes", copy.bytes},
          {"one_core_bytes_per_second", copy.one_core_bytes_per_second},
          {"all_cores_bytes_per_second_per_core", copy.all_cores_bytes_per_second},
          {"cores_at_once", copy.node_ranks}};
}

std::string mebibytes(std::size_t bytes) {
  return report::format("%.3g MiB", static_cast<double>(bytes) / 1048576);
}

}  // namespace a2afft::commands
