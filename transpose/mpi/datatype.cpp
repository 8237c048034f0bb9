#include "mpi/datatype.hpp"

#include <climits>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "error.hpp"
#include "mpi/comm.hpp"

namespace a2afft::detail::mpi {

int max_message_count() {
  static const int limit = [] {
    const char* text = std::getenv("A2AFFT_MPI_MAX_COUNT");
    if (text == nullptr || *text == '\0') return INT_MAX;
    char* end = nullptr;
    const long value = std::strtol(text, &end, 10);
    if (*end != '\0' || value < 1 || value > INT_MAX) {
      throw UsageError("A2AFFT_MPI_MAX_COUNT=" + std::string(text) +
                       " is not valid; expected a whole number from 1 to " +
                       std::to_string(INT_MAX));
    }
    return static_cast<int>(value);
  }();
  return limit;
}

Datatype::Datatype(Datatype&& other) noexcept
    : type_(std::exchange(other.type_, MPI_DATATYPE_NULL)) {}

Datatype& Datatype::operator=(Datatype&& other) noexcept {
  if (this != &other) {
    Datatype doomed(std::exchange(type_, std::exchange(other.type_, MPI_DATATYPE_NULL)));
  }
  return *this;
}

Datatype::~Datatype() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (type_ != MPI_DATATYPE_NULL && !finalized) MPI_Type_free(&type_);
}

namespace {

MPI_Datatype committed(MPI_Datatype type) {
  check(MPI_Type_commit(&type), "MPI_Type_commit");
  return type;
}

// `bytes` as whole chunks of `chunk_bytes` plus a tail, glued by a struct type so that
// neither part needs a count above `chunk_bytes`.
Datatype make_large_bytes_type(std::size_t bytes, std::size_t chunk_bytes) {
  MPI_Datatype chunk = MPI_DATATYPE_NULL;
  check(MPI_Type_contiguous(static_cast<int>(chunk_bytes), MPI_BYTE, &chunk),
        "MPI_Type_contiguous");
  const Datatype chunk_owner(chunk);
  const std::size_t whole_chunks = bytes / chunk_bytes;
  const std::size_t tail_bytes = bytes % chunk_bytes;
  if (whole_chunks > static_cast<std::size_t>(INT_MAX)) {
    throw UsageError("a message of " + std::to_string(bytes) + " bytes needs " +
                     std::to_string(whole_chunks) + " chunks, more than MPI can count");
  }
  int lengths[2] = {static_cast<int>(whole_chunks), static_cast<int>(tail_bytes)};
  MPI_Aint displacements[2] = {0, static_cast<MPI_Aint>(whole_chunks * chunk_bytes)};
  MPI_Datatype parts[2] = {chunk, MPI_BYTE};
  MPI_Datatype glued = MPI_DATATYPE_NULL;
  check(MPI_Type_create_struct(tail_bytes > 0 ? 2 : 1, lengths, displacements, parts, &glued),
        "MPI_Type_create_struct");
  return Datatype(committed(glued));
}

}  // namespace

Datatype make_block_type(std::size_t bytes) {
  const auto limit = static_cast<std::size_t>(max_message_count());
  if (bytes > limit) return make_large_bytes_type(bytes, limit);
  MPI_Datatype type = MPI_DATATYPE_NULL;
  check(MPI_Type_contiguous(static_cast<int>(bytes), MPI_BYTE, &type), "MPI_Type_contiguous");
  return Datatype(committed(type));
}

Datatype make_segments_type(std::span<const ByteSegment> segments) {
  const auto limit = static_cast<std::size_t>(max_message_count());
  std::vector<int> lengths;
  std::vector<MPI_Aint> displacements;
  std::vector<MPI_Datatype> types;
  std::vector<Datatype> large;  // alive until the struct type is committed
  for (const ByteSegment& segment : segments) {
    if (segment.bytes == 0) continue;
    displacements.push_back(static_cast<MPI_Aint>(segment.offset));
    if (segment.bytes <= limit) {
      lengths.push_back(static_cast<int>(segment.bytes));
      types.push_back(MPI_BYTE);
    } else {
      large.push_back(make_large_bytes_type(segment.bytes, limit));
      lengths.push_back(1);
      types.push_back(large.back().get());
    }
  }
  if (types.empty()) throw std::logic_error("make_segments_type: no segment holds a byte");
  if (types.size() > static_cast<std::size_t>(INT_MAX)) {
    throw UsageError(std::to_string(types.size()) + " segments in one message; MPI counts up to " +
                     std::to_string(INT_MAX));
  }
  MPI_Datatype type = MPI_DATATYPE_NULL;
  check(MPI_Type_create_struct(static_cast<int>(types.size()), lengths.data(), displacements.data(),
                               types.data(), &type),
        "MPI_Type_create_struct(segments)");
  return Datatype(committed(type));
}

ContiguousBytes::ContiguousBytes(std::size_t bytes) : bytes_(bytes), count_(0) {
  const auto limit = static_cast<std::size_t>(max_message_count());
  if (bytes <= limit) {
    count_ = static_cast<int>(bytes);
  } else {
    derived_ = make_large_bytes_type(bytes, limit);
    count_ = 1;
  }
}

}  // namespace a2afft::detail::mpi
