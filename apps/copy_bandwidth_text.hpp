#pragma once

// memcpy bandwidths (a2afft::CopyBandwidth) in words and in JSON, as every --roofline header
// gives them (fft3d, fft2d, fft1d, alltoall).

#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>

#include <a2afft/tools/roofline.hpp>

namespace a2afft::commands {

/// e.g. "1 core 17.1 GB/s, 2 cores at once 14.2 GB/s per core".
std::string copy_bandwidth_text(const CopyBandwidth& copy);
/// The same figures, with the buffer's bytes, for the JSON's "roofline".
nlohmann::json copy_bandwidth_json(const CopyBandwidth& copy);
/// e.g. "2 MiB", "0.0625 MiB".
std::string mebibytes(std::size_t bytes);

}  // namespace a2afft::commands
