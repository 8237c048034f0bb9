#pragma once

#include <mpi.h>

#include <cstddef>
#include <span>

namespace a2afft::detail::mpi {

/// Largest element count a2afft passes to one MPI call. MPI-3 counts are `int`, so a message
/// of more bytes goes as one derived datatype. A2AFFT_MPI_MAX_COUNT lowers the limit so tests
/// can drive the derived-datatype path with small messages.
int max_message_count();

/// Owns one committed derived datatype.
class Datatype {
 public:
  Datatype() = default;
  explicit Datatype(MPI_Datatype committed) : type_(committed) {}
  Datatype(Datatype&& other) noexcept;
  Datatype& operator=(Datatype&& other) noexcept;
  Datatype(const Datatype&) = delete;
  Datatype& operator=(const Datatype&) = delete;
  ~Datatype();

  MPI_Datatype get() const { return type_; }
  explicit operator bool() const { return type_ != MPI_DATATYPE_NULL; }

 private:
  MPI_Datatype type_ = MPI_DATATYPE_NULL;
};

/// A committed datatype of exactly `bytes` contiguous bytes, so that n of them go as count n:
/// messages of many large blocks never need a byte count beyond INT_MAX.
Datatype make_block_type(std::size_t bytes);

/// `bytes` bytes at byte `offset` of a buffer.
struct ByteSegment {
  std::size_t offset;
  std::size_t bytes;
};

/// One committed datatype of the non-empty `segments` of a buffer, in the order given (each at
/// its byte offset from the buffer's start), so that many pieces go as one message of count 1
/// and no piece needs an int count or displacement: a piece beyond max_message_count() bytes is
/// one derived block. `segments` must hold at least one piece of bytes.
Datatype make_segments_type(std::span<const ByteSegment> segments);

/// `bytes` contiguous bytes as (type, count) with a count MPI can take: MPI_BYTE x bytes when
/// it fits, otherwise one derived datatype of exactly `bytes` extent (count 1).
class ContiguousBytes {
 public:
  explicit ContiguousBytes(std::size_t bytes);

  MPI_Datatype type() const { return derived_ ? derived_.get() : MPI_BYTE; }
  int count() const { return count_; }
  std::size_t bytes() const { return bytes_; }
  bool is_derived() const { return static_cast<bool>(derived_); }

 private:
  std::size_t bytes_;
  Datatype derived_;
  int count_;
};

}  // namespace a2afft::detail::mpi
