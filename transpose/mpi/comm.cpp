#include "mpi/comm.hpp"

#include <climits>
#include <string>
#include <utility>

#include "error.hpp"
#include "mpi/error_scope.hpp"

namespace a2afft::detail::mpi {

namespace {

std::string describe_peers(Peers peers) {
  if (peers.to >= 0 && peers.to == peers.from) return " with peer " + std::to_string(peers.to);
  std::string text;
  if (peers.to >= 0) text += " to peer " + std::to_string(peers.to);
  if (peers.to >= 0 && peers.from >= 0) text += " and";
  if (peers.from >= 0) text += " from peer " + std::to_string(peers.from);
  return text;
}

// The standard name of `rc`'s error class. Each MPI words its error strings its own way (Open
// MPI's start with the class name, MPICH's do not), so messages name the class themselves.
std::string error_class_name(int rc) {
// The name as written, e.g. {MPI_ERR_TRUNCATE, "MPI_ERR_TRUNCATE"}.
#define A2AFFT_CLASS(name) \
  { name, #name }
  static const std::pair<int, const char*> names[] = {
      A2AFFT_CLASS(MPI_ERR_BUFFER),    A2AFFT_CLASS(MPI_ERR_COUNT),
      A2AFFT_CLASS(MPI_ERR_TYPE),      A2AFFT_CLASS(MPI_ERR_TAG),
      A2AFFT_CLASS(MPI_ERR_COMM),      A2AFFT_CLASS(MPI_ERR_RANK),
      A2AFFT_CLASS(MPI_ERR_REQUEST),   A2AFFT_CLASS(MPI_ERR_ROOT),
      A2AFFT_CLASS(MPI_ERR_GROUP),     A2AFFT_CLASS(MPI_ERR_OP),
      A2AFFT_CLASS(MPI_ERR_ARG),       A2AFFT_CLASS(MPI_ERR_UNKNOWN),
      A2AFFT_CLASS(MPI_ERR_TRUNCATE),  A2AFFT_CLASS(MPI_ERR_OTHER),
      A2AFFT_CLASS(MPI_ERR_INTERN),    A2AFFT_CLASS(MPI_ERR_PENDING),
      A2AFFT_CLASS(MPI_ERR_IN_STATUS), A2AFFT_CLASS(MPI_ERR_INFO),
      A2AFFT_CLASS(MPI_ERR_NO_MEM),    A2AFFT_CLASS(MPI_ERR_SIZE),
      A2AFFT_CLASS(MPI_ERR_DISP),      A2AFFT_CLASS(MPI_ERR_WIN),
      A2AFFT_CLASS(MPI_ERR_BASE),      A2AFFT_CLASS(MPI_ERR_RMA_SHARED),
      A2AFFT_CLASS(MPI_ERR_RMA_SYNC),  A2AFFT_CLASS(MPI_ERR_RMA_RANGE),
  };
#undef A2AFFT_CLASS
  int error_class = MPI_ERR_UNKNOWN;
  MPI_Error_class(rc, &error_class);
  for (const auto& [code, name] : names) {
    if (code == error_class) return name;
  }
  return "MPI error class " + std::to_string(error_class);
}

}  // namespace

void check(int rc, std::string_view call, Peers peers) {
  if (rc == MPI_SUCCESS) return;
  char buffer[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(rc, buffer, &length);
  const std::string text(buffer, static_cast<size_t>(length));
  const std::string name = error_class_name(rc);
  throw MpiError(std::string(call) + describe_peers(peers) + " failed" +
                 ErrorScope::describe_current() + ": " +
                 (text.starts_with(name) ? text : name + ": " + text));
}

std::string broadcast(std::string text, int root, MPI_Comm comm) {
  int length = static_cast<int>(text.size());
  check(MPI_Bcast(&length, 1, MPI_INT, root, comm), "MPI_Bcast(length)");
  text.resize(static_cast<std::size_t>(length));
  check(MPI_Bcast(text.data(), length, MPI_CHAR, root, comm), "MPI_Bcast(text)");
  return text;
}

RankMessage agreed_message(const std::string& local, MPI_Comm comm) {
  int rank = 0;
  check(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
  const int mine = local.empty() ? INT_MAX : rank;
  int lowest = INT_MAX;
  check(MPI_Allreduce(&mine, &lowest, 1, MPI_INT, MPI_MIN, comm), "MPI_Allreduce(lowest rank)");
  if (lowest == INT_MAX) return {};
  return {lowest, broadcast(local, lowest, comm)};
}

Comm::Comm(MPI_Comm adopted) : comm_(adopted) {
  if (comm_ == MPI_COMM_NULL) return;  // MPI_Comm_split with MPI_UNDEFINED: not a member
  check(MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler");
  check(MPI_Comm_rank(comm_, &rank_), "MPI_Comm_rank");
  check(MPI_Comm_size(comm_, &size_), "MPI_Comm_size");
}

Comm Comm::duplicate(MPI_Comm parent) {
  MPI_Comm result = MPI_COMM_NULL;
  check(MPI_Comm_dup(parent, &result), "MPI_Comm_dup");
  return Comm(result);
}

Comm Comm::split(MPI_Comm parent, int color, int key) {
  MPI_Comm result = MPI_COMM_NULL;
  check(MPI_Comm_split(parent, color, key, &result), "MPI_Comm_split");
  return Comm(result);
}

Comm Comm::split_shared_memory(MPI_Comm parent) {
  int rank = 0;
  check(MPI_Comm_rank(parent, &rank), "MPI_Comm_rank");
  MPI_Comm result = MPI_COMM_NULL;
  check(MPI_Comm_split_type(parent, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &result),
        "MPI_Comm_split_type(MPI_COMM_TYPE_SHARED)");
  return Comm(result);
}

Comm::Comm(Comm&& other) noexcept
    : comm_(std::exchange(other.comm_, MPI_COMM_NULL)), rank_(other.rank_), size_(other.size_) {}

Comm& Comm::operator=(Comm&& other) noexcept {
  if (this != &other) {
    release();
    comm_ = std::exchange(other.comm_, MPI_COMM_NULL);
    rank_ = other.rank_;
    size_ = other.size_;
  }
  return *this;
}

Comm::~Comm() {
  release();
}

void Comm::release() noexcept {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (comm_ != MPI_COMM_NULL && !finalized) MPI_Comm_free(&comm_);
  comm_ = MPI_COMM_NULL;
}

}  // namespace a2afft::detail::mpi
