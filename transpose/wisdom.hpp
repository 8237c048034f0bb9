#pragma once

#include <mpi.h>

#include <string>

// A2AFFT_WISDOM: one JSON file, {"<key>": "<choice>", ...}, that keeps decisions made by
// measuring (auto's exchange, a timed process grid) so that a later plan of the same problem on
// the same machine takes the choice instead of measuring again. Rank 0 reads and writes it and
// every rank gets rank 0's answer, so every rank builds the same plan.
namespace a2afft::detail::wisdom {

/// Throws UsageError when `path` (A2AFFT_WISDOM, may be nullptr) names a directory: a directory
/// opens as a stream and fails only at the first read. Local; validation calls it on every rank.
void check_path(const char* path);

/// The choice kept under `key`, or "" when there is none or A2AFFT_WISDOM is unset. Collective
/// over `comm`: a file that is not a JSON object is a UsageError on every rank.
std::string recall(const std::string& key, MPI_Comm comm);

/// Keeps `choice` under `key` (rank 0 of `comm` rewrites the file; nothing when A2AFFT_WISDOM
/// is unset). Local: no communication.
void remember(const std::string& key, const std::string& choice, MPI_Comm comm);

/// The MPI library's first line (MPI_Get_library_version): a key's part that says whose
/// timings a choice came from.
std::string mpi_library();

}  // namespace a2afft::detail::wisdom
