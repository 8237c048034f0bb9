// What the drop-in did, per communicator and call kind: A2AFFT_REPORT=<file.json> and, when
// the report or the log is asked for, a summary on stderr of world rank 0 at MPI_Finalize.
// Each rank counts its own calls; at MPI_Finalize world rank 0 gathers them and merges records
// of the same communicator (by its members in MPI_COMM_WORLD) and call kind: calls and routed
// calls are the most any rank made (every member makes each collective call), bytes are summed
// over ranks, seconds are the most any rank spent inside the calls.

#include <algorithm>
#include <cstdio>
#include <deque>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>

#include "preload.hpp"

namespace a2afft::preload {
namespace {

using nlohmann::json;

std::deque<CommRecord>& records() {
  static std::deque<CommRecord> table;  // a deque: records keep their addresses
  return table;
}

// "world ranks 0-2,5": the members by their MPI_COMM_WORLD ranks, ranges joined.
std::string members(MPI_Comm comm) {
  MPI_Group group = MPI_GROUP_NULL, world = MPI_GROUP_NULL;
  PMPI_Comm_group(comm, &group);
  PMPI_Comm_group(MPI_COMM_WORLD, &world);
  int size = 0;
  PMPI_Group_size(group, &size);
  std::vector<int> local(size), global(size);
  for (int i = 0; i < size; ++i)
    local[i] = i;
  PMPI_Group_translate_ranks(group, size, local.data(), world, global.data());
  PMPI_Group_free(&group);
  PMPI_Group_free(&world);
  std::string text = "world ranks ";
  for (int i = 0; i < size;) {
    int j = i;
    while (j + 1 < size && global[j + 1] == global[j] + 1)
      ++j;
    text += (i > 0 ? "," : "") + std::to_string(global[i]);
    if (j > i) text += "-" + std::to_string(global[j]);
    i = j + 1;
  }
  return text;
}

json to_json(const CommRecord& record, const std::string& kind, const CallStats& stats) {
  return {{"communicator", record.label}, {"size", record.size},      {"kind", kind},
          {"calls", stats.calls},         {"routed", stats.routed},   {"plans", stats.plans},
          {"bytes", stats.bytes},         {"seconds", stats.seconds}, {"backends", stats.backends},
          {"fallbacks", stats.fallbacks}};
}

// Merges one rank's row into the merged row of the same communicator and kind.
void merge(json& into, const json& row) {
  into["calls"] = std::max(into["calls"].get<long>(), row["calls"].get<long>());
  into["routed"] = std::max(into["routed"].get<long>(), row["routed"].get<long>());
  into["plans"] = std::max(into["plans"].get<long>(), row["plans"].get<long>());
  into["bytes"] = into["bytes"].get<double>() + row["bytes"].get<double>();
  into["seconds_max"] = std::max(into["seconds_max"].get<double>(), row["seconds"].get<double>());
  for (const char* part : {"backends", "fallbacks"}) {
    for (const auto& [name, count] : row[part].items()) {
      const long known = into[part].value(name, 0L);
      into[part][name] = std::max(known, count.get<long>());
    }
  }
}

// Every rank's `text`, on world rank 0 (other ranks get nothing).
std::vector<std::string> gather_texts(const std::string& text) {
  int length = static_cast<int>(text.size()), rank = 0, ranks = 0;
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  PMPI_Comm_size(MPI_COMM_WORLD, &ranks);
  std::vector<int> lengths(ranks), offsets(ranks);
  PMPI_Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  int total = 0;
  for (int r = 0; r < ranks; ++r)
    offsets[r] = std::exchange(total, total + lengths[r]);
  std::string all(rank == 0 ? total : 0, '\0');
  PMPI_Gatherv(text.data(), length, MPI_CHAR, all.data(), lengths.data(), offsets.data(), MPI_CHAR,
               0, MPI_COMM_WORLD);
  std::vector<std::string> texts;
  for (int r = 0; rank == 0 && r < ranks; ++r)
    texts.push_back(all.substr(offsets[r], lengths[r]));
  return texts;
}

// Every rank's rows, merged by communicator and kind on world rank 0 (elsewhere: empty).
json gather_rows() {
  json mine = json::array();
  for (const CommRecord& record : records()) {
    for (const auto& [kind, stats] : record.kinds)
      mine.push_back(to_json(record, kind, stats));
  }
  std::map<std::pair<std::string, std::string>, json> rows;  // by communicator and kind
  for (const std::string& text : gather_texts(mine.dump())) {
    for (const json& row : json::parse(text)) {
      const auto key =
          std::make_pair(row["communicator"].get<std::string>(), row["kind"].get<std::string>());
      const json empty = {{"communicator", key.first},
                          {"size", row["size"]},
                          {"kind", key.second},
                          {"calls", 0L},
                          {"routed", 0L},
                          {"plans", 0L},
                          {"bytes", 0.0},
                          {"seconds_max", 0.0},
                          {"backends", json::object()},
                          {"fallbacks", json::object()}};
      merge(rows.try_emplace(key, empty).first->second, row);
    }
  }
  json merged = json::array();
  for (auto& [key, row] : rows)
    merged.push_back(std::move(row));
  return merged;
}

std::string joined(const json& counts) {
  std::string text;
  for (const auto& [name, count] : counts.items()) {
    text += (text.empty() ? "" : "; ") + name + " (" + std::to_string(count.get<long>()) + ")";
  }
  return text;
}

// One screen at most: a line per communicator and kind, a line per fallback reason.
void print_summary(const json& rows, const Setup& s) {
  std::fprintf(stderr, "a2afft: drop-in summary (A2AFFT_ALLTOALL=%s, A2AFFT_ALLTOALLV=%s)\n",
               s.alltoall ? s.alltoall_text.c_str() : "unset",
               s.alltoallv ? s.alltoallv_text.c_str() : "unset");
  std::fprintf(stderr, "a2afft: %-24s %-24s %8s %8s %6s %10s %9s  %s\n", "communicator", "call",
               "calls", "routed", "plans", "MB", "max s", "backend");
  int lines = 0;
  for (const json& row : rows) {
    if (++lines > 16) {
      std::fprintf(stderr, "a2afft: ... %zu rows in all%s\n", rows.size(),
                   s.report_path.empty() ? "" : ", every one in the report");
      break;
    }
    std::fprintf(stderr, "a2afft: %-24s %-24s %8ld %8ld %6ld %10.3f %9.4f  %s\n",
                 row["communicator"].get<std::string>().c_str(),
                 row["kind"].get<std::string>().c_str(), row["calls"].get<long>(),
                 row["routed"].get<long>(), row["plans"].get<long>(),
                 row["bytes"].get<double>() / 1e6, row["seconds_max"].get<double>(),
                 joined(row["backends"]).c_str());
    for (const auto& [reason, count] : row["fallbacks"].items()) {
      std::fprintf(stderr, "a2afft:   fallback in %ld calls: %s\n", count.get<long>(),
                   reason.c_str());
    }
  }
}

}  // namespace

CommRecord* new_record(MPI_Comm comm) {
  CommRecord record;
  int is_world = MPI_UNEQUAL, inter = 0;
  PMPI_Comm_compare(comm, MPI_COMM_WORLD, &is_world);
  PMPI_Comm_test_inter(comm, &inter);
  PMPI_Comm_size(comm, &record.size);
  std::string base = is_world == MPI_IDENT ? "MPI_COMM_WORLD" : members(comm);
  if (inter) base = "intercomm, local " + base;
  // Communicators with the same members are told apart by the order this rank first used them.
  const auto same = std::count_if(records().begin(), records().end(), [&](const CommRecord& r) {
    return r.label == base || r.label.starts_with(base + " #");
  });
  record.label = same == 0 ? base : base + " #" + std::to_string(same + 1);
  records().push_back(std::move(record));
  return &records().back();
}

void count_call(CommCache& cache, const char* kind, double bytes, double seconds,
                const std::string& backend, const std::string& fallback, bool planned) {
  // By the kind's address (a string literal): no string is made per call.
  CallStats*& known = cache.kind_stats[kind];
  if (known == nullptr) known = &cache.record->kinds[kind];
  CallStats& stats = *known;
  ++stats.calls;
  stats.plans += planned ? 1 : 0;
  stats.bytes += bytes;
  stats.seconds += seconds;
  if (!backend.empty()) {
    ++stats.routed;
    ++stats.backends[backend];
  } else {
    ++stats.fallbacks[fallback];
  }
}

void finish_report() {
  int finalized = 0;
  PMPI_Finalized(&finalized);
  if (finalized) return;
  const Setup& s = setup(MPI_COMM_WORLD);
  if (!s.counting()) return;
  const json rows = gather_rows();
  int rank = 0;
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank != 0) return;
  print_summary(rows, s);
  if (s.report_path.empty()) return;
  const json report = {{"a2afft_drop_in_report", 1},
                       {"A2AFFT_ALLTOALL", s.alltoall ? s.alltoall_text : ""},
                       {"A2AFFT_ALLTOALLV", s.alltoallv ? s.alltoallv_text : ""},
                       {"rows", rows}};
  std::ofstream out(s.report_path);
  out << report.dump(2) << "\n";
  if (!out)
    std::fprintf(stderr, "a2afft: error: A2AFFT_REPORT=%s: cannot write it\n",
                 s.report_path.c_str());
}

}  // namespace a2afft::preload
