// mpi: the vendor's MPI_Alltoall, the reference every other backend is checked against; and
// mpi:alg=NAME, the same call with one of the library's own algorithms forced (the vendor rows).
//
// Source: the MPI standard; the MPI library picks its own algorithm (Open MPI's tuned module
// chooses among linear, pairwise and Bruck by message size and rank count). The vendor rows
// list the algorithms at run time through MPI_T (mpi/control_variable): Open MPI's
// coll_tuned_alltoall_algorithm enumeration (its value 0, `ignore`, is the library's choice);
// MPICH's MPIR_CVAR_ALLTOALL_INTRA_ALGORITHM, whose MPI_T enumeration MPICH 4.0 leaves empty and
// lists in the variable's description instead (value k is the k-th item, `auto` first).
// Steps: one MPI_Alltoall call; a block of more than INT_MAX bytes travels as one derived type.
//   Split phase: MPI_Ialltoall in start(), MPI_Wait in finish(); refused in simulation from
//   simulator::kCrashRanks ranks, where SMPI 3.32 crashes on MPI_Ialltoall itself.
//   A forced algorithm, per library (found by experiment, tests/vendor.cmake checks it):
//   - Open MPI 4.1: tuned reads its forced algorithm when a communicator's coll module is
//     enabled, and only with coll_tuned_use_dynamic_rules, which is fixed at MPI_Init. The plan
//     writes the variable, duplicates its communicator, and restores the variable: that
//     communicator alone keeps the algorithm. One-rank communicators are served by coll/self,
//     not tuned, so nothing can be forced there; two_proc serves exactly 2 ranks. Where another
//     coll component outranks tuned, tuned ignores the value: the first forced plan of 3 or
//     more ranks checks, through two_proc's refusal there, and refuses if so (tuned_refusal).
//   - MPICH 4.0: the variable is read at each call, so every run() writes it and
//     MPIR_CVAR_COLLECTIVE_FALLBACK=error (a forced algorithm that does not apply is an error,
//     never MPICH's silent fallback), calls MPI_Alltoall and restores both. The variables are
//     process-wide: another thread's collectives during that call would see them too, so a
//     forced MPICH row is for one thread at a time. pairwise_sendrecv_replace serves only
//     MPI_IN_PLACE, which an exchange never is.
//   - SimGrid SMPI: no MPI_T, and one alltoall algorithm for the whole simulation, chosen at
//     launch (smpi/alltoall: scripts/simulate --alltoall NAME). The rows are SMPI's own
//     algorithms, read at run time from SimGrid's table (simulator/smpi_alltoall); the row of the
//     algorithm in effect runs (nothing is forced: the plain `mpi` row runs it too, and
//     describe() says it is the simulation's), every other one is refused, saying to relaunch
//     with --alltoall NAME.
//   A forced row's start() does all the work with MPI_Alltoall (the libraries force only the
//   blocking call), so it does not overlap.
// Cost: whatever the library does; at best (P-1)(alpha + b*beta) for large blocks b. The model
//   prices only a named schedule (vendor_cost): mpi:alg=pair, SMPI's XOR pairs
//   (schedule::model_xor_pairs), and mpi:alg=ring, SMPI's shifts (pairwise's); plain mpi is an
//   error there, and neither `a2afft model`'s default table nor auto:mode=estimate prices it.
// Parameters: alg = one of the algorithms the running library lists, or auto (its own choice).

#include <algorithm>
#include <optional>
#include <regex>
#include <stdexcept>

#include "algorithms/vendor.hpp"

#include "algorithms/algorithms.hpp"
#include "error.hpp"
#include "mpi/comm.hpp"
#include "mpi/control_variable.hpp"
#include "mpi/datatype.hpp"
#include "schedule/cost_model.hpp"
#include "simulator/smpi_alltoall.hpp"
#include "simulator/smpi_rules.hpp"
#include "topology/topology.hpp"

namespace a2afft::detail::algorithms {
namespace vendor {

// MPI_T gives MPICH 4.0's description lines joined without separators, so an item's name may
// follow the previous line's last word ("...Force brucks algorithmnb   - Force ..."). The names
// of the items after the first are padded to one column; the narrowest padded item that is not
// glued (two or more spaces before its `-`) gives the column's width, and a wider one's name is
// its last (width - spaces) characters. The first item ("auto - ...") is not padded; it follows
// the opening sentence, which ends in "algorithm".
std::vector<std::string> listed_in_description(const std::string& text) {
  static const std::regex item("([A-Za-z0-9_]+)( +)- ");
  static const std::regex opening("^algorithm(.+)$");
  std::vector<std::pair<std::string, std::size_t>> found;  // (token, spaces)
  std::size_t column = std::string::npos;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), item); it != std::sregex_iterator();
       ++it) {
    const std::size_t spaces = static_cast<std::size_t>((*it)[2].length());
    found.emplace_back((*it)[1], spaces);
    if (spaces >= 2) column = std::min(column, found.back().first.size() + spaces);
  }
  std::vector<std::string> names;
  for (const auto& [token, spaces] : found) {
    const std::size_t width = token.size() + spaces;
    std::smatch unglued;
    if (column != std::string::npos && width > column) {
      names.push_back(token.substr(width - column));
    } else if (width < column && std::regex_match(token, unglued, opening)) {
      names.push_back(unglued[1]);
    } else {
      names.push_back(token);
    }
  }
  return names;
}

namespace {

// A variable's (value, name) items: its MPI_T enumeration, else its description's list.
std::vector<std::pair<int, std::string>> items_of(const mpi::ControlVariable& variable) {
  if (!variable.enumeration().empty()) return variable.enumeration();
  std::vector<std::pair<int, std::string>> items;
  for (const std::string& name : listed_in_description(variable.description()))
    items.emplace_back(static_cast<int>(items.size()), name);
  return items;
}

// Open MPI's tuned module: forced when a communicator is created, with dynamic rules on.
void read_open_mpi(vendor::Selector& selector) {
  selector.forcing = Forcing::at_communicator_creation;
  for (const auto& [value, name] : items_of(*selector.algorithm)) {
    if (value == 0) continue;  // `ignore`: the library's own choice, the plain `mpi` row
    selector.names.push_back(name);
    selector.values.push_back(value);
  }
  const auto dynamic = mpi::ControlVariable::find("coll_tuned_use_dynamic_rules");
  if (!dynamic || dynamic->read() == 0) {
    selector.unavailable =
        "Open MPI's tuned module honours coll_tuned_alltoall_algorithm only with "
        "coll_tuned_use_dynamic_rules, which it reads once at MPI_Init; launch with "
        "OMPI_MCA_coll_tuned_use_dynamic_rules=1 (mpirun -x)";
  }
}

// MPICH: read at each call, with the fallback made an error.
void read_mpich(vendor::Selector& selector) {
  selector.forcing = Forcing::at_call;
  const auto items = items_of(*selector.algorithm);
  if (items.empty() || items.front().second != "auto") {
    selector.unavailable = "cannot read the algorithms of " + selector.algorithm->name() +
                           " from its MPI_T enumeration or description";
    return;
  }
  for (std::size_t k = 1; k < items.size(); ++k) {
    selector.names.push_back(items[k].second);
    selector.values.push_back(items[k].first);
  }
  selector.fallback = mpi::ControlVariable::find("MPIR_CVAR_COLLECTIVE_FALLBACK");
  const auto error =
      selector.fallback ? items_of(*selector.fallback) : std::vector<std::pair<int, std::string>>{};
  const auto found = std::find_if(error.begin(), error.end(),
                                  [](const auto& item) { return item.second == "error"; });
  if (found == error.end()) {
    selector.unavailable =
        "MPICH has no MPIR_CVAR_COLLECTIVE_FALLBACK=error, so a forced "
        "algorithm that does not apply would fall back silently";
    return;
  }
  selector.fallback_error = found->first;
}

// SimGrid SMPI: its own algorithms, of which the one chosen at launch runs.
vendor::Selector read_smpi() {
  vendor::Selector selector;
  selector.forcing = Forcing::at_launch;
  simulator::SmpiAlltoall smpi = simulator::read_smpi_alltoall();
  selector.unavailable = std::move(smpi.unavailable);
  selector.names = std::move(smpi.algorithms);
  for (std::size_t k = 0; k < selector.names.size(); ++k)
    selector.values.push_back(static_cast<int>(k));
  selector.in_effect = std::move(smpi.in_effect);
  return selector;
}

vendor::Selector read_selector() {
  if (simulator::kSimulated) return read_smpi();
  vendor::Selector selector;
  if ((selector.algorithm = mpi::ControlVariable::find("coll_tuned_alltoall_algorithm"))) {
    read_open_mpi(selector);
  } else if ((selector.algorithm =
                  mpi::ControlVariable::find("MPIR_CVAR_ALLTOALL_INTRA_ALGORITHM"))) {
    read_mpich(selector);
  } else {
    selector.unavailable =
        "this MPI library offers no MPI_T control variable to force an alltoall algorithm "
        "(Open MPI's coll_tuned_alltoall_algorithm, MPICH's MPIR_CVAR_ALLTOALL_INTRA_ALGORITHM)";
  }
  if (selector.unavailable.empty() && selector.names.empty()) {
    selector.unavailable = selector.algorithm->name() + " lists no algorithm to force";
  } else if (selector.unavailable.empty() && !selector.algorithm->writable()) {
    selector.unavailable = selector.algorithm->name() + " cannot be written after MPI_Init";
  }
  return selector;
}

}  // namespace

int Selector::value_of(const std::string& name) const {
  const auto at = std::find(names.begin(), names.end(), name);
  if (at == names.end()) throw std::out_of_range("no alltoall algorithm " + name + " here");
  return values[static_cast<std::size_t>(at - names.begin())];
}

const Selector& selector() {
  // Before MPI_Init (the unit tests, a command's parsing) MPI_T is not touched: starting it
  // alone made Open MPI register components whose buffers outlive the process.
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized) {
    static const Selector before_init = [] {
      Selector none;
      none.unavailable = "the MPI library's algorithms are read through MPI_T after MPI_Init";
      return none;
    }();
    return before_init;
  }
  static const Selector read = read_selector();
  return read;
}

mpi::Comm forced_communicator(MPI_Comm parent, std::optional<int> value) {
  if (!value || selector().forcing != Forcing::at_communicator_creation) {
    return mpi::Comm::duplicate(parent);
  }
  const mpi::ScopedSetting setting(*selector().algorithm, *value);
  return mpi::Comm::duplicate(parent);
}

// Open MPI forces through tuned, which serves a communicator only where it outranks the other
// coll components (OMPI_MCA_coll, coll_*_priority); elsewhere a forced value is silently
// ignored. What shows it: a communicator created with two_proc forced must refuse an alltoall
// of 3 or more ranks. Probed once per process, on the first forced plan of 3 or more ranks;
// agreed over `parent`. Collective.
std::string tuned_refusal(MPI_Comm parent) {
  static std::optional<std::string> seen;
  int ranks = 0;
  MPI_Comm_size(parent, &ranks);
  const auto two_proc = std::find(selector().names.begin(), selector().names.end(), "two_proc");
  if (seen || ranks < 3 || two_proc == selector().names.end()) return seen.value_or("");
  const mpi::Comm probe = forced_communicator(parent, selector().value_of("two_proc"));
  std::vector<std::byte> send(static_cast<std::size_t>(ranks)), recv(send.size());
  const int rc = MPI_Alltoall(send.data(), 1, MPI_BYTE, recv.data(), 1, MPI_BYTE, probe.get());
  const std::string local =
      rc == MPI_SUCCESS ? "Open MPI's tuned module does not serve this communicator (another "
                          "coll component outranks it: OMPI_MCA_coll, coll_tuned_priority), so "
                          "its forced algorithm would be ignored"
                        : "";
  seen = mpi::agreed_message(local, parent).text;
  return *seen;
}

ForcedCall::ForcedCall(std::optional<int> value) {
  if (!value || selector().forcing != Forcing::at_call) return;
  algorithm_.emplace(*selector().algorithm, *value);
  fallback_.emplace(*selector().fallback, selector().fallback_error);
}

}  // namespace vendor

namespace {

using vendor::Forcing;
using vendor::selector;

// The algorithm a spec forces, or nullopt for the library's own choice.
struct Forced {
  std::string name;
  int value = 0;
};

// Checks `alg` (UsageError for a name the library does not list) and returns it with why the
// layout cannot force it ("" when it can).
Resolved<std::optional<Forced>> settings(const RankLayout& layout, const Params& params) {
  // The library's choice reads no MPI_T: Open MPI's cvar lookup costs 0.2 s at the first plan.
  const std::string* text = params.spec().find("alg");
  if (text == nullptr || *text == "auto") return {std::nullopt, ""};
  const vendor::Selector& library = selector();
  if (library.names.empty()) return {std::nullopt, library.unavailable};
  // A name the library does not list is an error even where nothing can be forced.
  const std::string name(params.word("alg", "auto", library.names));
  if (!library.unavailable.empty()) return {std::nullopt, library.unavailable};
  const Forced forced{name, library.value_of(name)};
  std::string why;
  if (library.forcing == Forcing::at_communicator_creation && layout.size() == 1) {
    why =
        "Open MPI serves one-rank communicators with coll/self, not tuned, so no algorithm "
        "can be forced there";
  } else if (library.forcing == Forcing::at_communicator_creation && name == "two_proc" &&
             layout.size() != 2) {
    why = "Open MPI's two_proc serves exactly 2 ranks (MPI_ERR_UNSUPPORTED_OPERATION on " +
          std::to_string(layout.size()) + ")";
  } else if (library.forcing == Forcing::at_launch && name != library.in_effect) {
    why =
        "SimGrid SMPI runs one alltoall algorithm for the whole simulation, chosen at launch, "
        "and this simulation runs " +
        library.in_effect + "; relaunch with scripts/simulate --alltoall " + name +
        " (SimGrid's --cfg=smpi/alltoall:" + name + ") to run this row";
  } else if (library.forcing == Forcing::at_call && name == "pairwise_sendrecv_replace") {
    why =
        "MPICH's pairwise_sendrecv_replace serves only MPI_IN_PLACE, and an exchange's send "
        "and receive buffers are distinct";
  }
  return {forced, why};
}

// The forced algorithm's value, if any.
std::optional<int> value_of(const std::optional<Forced>& forced) {
  return forced ? std::optional<int>(forced->value) : std::nullopt;
}

class VendorExchange final : public ExchangePlan {
 public:
  VendorExchange(const ExchangeProblem& problem, std::optional<Forced> forced)
      : comm_(vendor::forced_communicator(problem.topology.comm(), value_of(forced))),
        block_(problem.block_bytes),
        forced_(std::move(forced)),
        split_phase_crashes_(simulator::all_at_once_crashes(problem.topology.size())) {}

  std::string describe() const override {
    if (!forced_) return "mpi";
    // In simulation nothing is forced: the algorithm is the whole simulation's.
    const bool whole_run = selector().forcing == Forcing::at_launch;
    return "mpi(alg=" + forced_->name + (whole_run ? ", the simulation's smpi/alltoall)" : ")");
  }

  void run(const std::byte* send, std::byte* recv) override {
    const auto timed = phase("alltoall");
    const vendor::ForcedCall forcing(value_of(forced_));
    alltoall(send, recv);
  }

  bool overlaps() const override { return !forced_; }

 protected:
  void start_exchange(const std::byte* send, std::byte* recv) override {
    if (forced_) {
      run(send, recv);
      return;
    }
    // Every rank has the same size, so every rank throws: an error, not the simulator's crash.
    if (split_phase_crashes_) {
      throw UsageError(
          "mpi's split phase (start()/finish(): MPI_Ialltoall) cannot run in simulation on " +
          std::to_string(comm_.size()) +
          " ranks: SimGrid SMPI 3.32's flow solver crashes (SIGSEGV) on MPI_Ialltoall from " +
          std::to_string(simulator::kCrashRanks) + " ranks; use run()");
    }
    const auto timed = phase("alltoall");
    mpi::check(MPI_Ialltoall(send, block_.count(), block_.type(), recv, block_.count(),
                             block_.type(), comm_.get(), &request_),
               "MPI_Ialltoall");
  }
  void finish_exchange() override {
    if (forced_) return;
    const auto timed = phase("alltoall");
    mpi::check(MPI_Wait(&request_, MPI_STATUS_IGNORE), "MPI_Wait(MPI_Ialltoall)");
  }
  bool test_exchange() override {
    int done = 0;
    mpi::check(MPI_Test(&request_, &done, MPI_STATUS_IGNORE), "MPI_Test(MPI_Ialltoall)");
    return done != 0;
  }

 private:
  void alltoall(const std::byte* send, std::byte* recv) {
    mpi::check(MPI_Alltoall(send, block_.count(), block_.type(), recv, block_.count(),
                            block_.type(), comm_.get()),
               "MPI_Alltoall");
  }

  mpi::Comm comm_;
  mpi::ContiguousBytes block_;
  std::optional<Forced> forced_;
  bool split_phase_crashes_;
  MPI_Request request_ = MPI_REQUEST_NULL;
};

std::unique_ptr<ExchangePlan> make_vendor(const ExchangeProblem& problem, const Params& params) {
  std::optional<Forced> forced = settings(problem.topology.layout(), params).settings;
  if (forced && selector().forcing == Forcing::at_communicator_creation) {
    if (const std::string why = vendor::tuned_refusal(problem.topology.comm()); !why.empty()) {
      throw UsageError(params.spec().to_string() + " cannot run here: " + why);
    }
  }
  return std::make_unique<VendorExchange>(problem, std::move(forced));
}

// mpi:alg=NAME for every algorithm the running library lists (whether or not it can be forced
// here: a refused row says why).
std::vector<std::string> offered() {
  std::vector<std::string> specs;
  for (const std::string& name : selector().names)
    specs.push_back("mpi:alg=" + name);
  return specs;
}

// The library's choice and each of its own algorithms: auto times them beside a2afft's
// backends (it leaves out those the layout refuses). Each costs one MPI_Comm_dup to plan and
// its share of auto's time budget, as every other candidate does.
std::vector<Spec> vendor_candidates(const RankLayout&, std::size_t) {
  std::vector<Spec> specs{Spec{"mpi", {}}};
  for (const std::string& text : offered())
    specs.push_back(parse_spec(text));
  return specs;
}

// The model's price of a vendor spec: only a named schedule, since the library's own choice is
// unknown to it. alg=pair: SMPI's pair (partners rank XOR step, P a power of two); alg=ring:
// SMPI's ring (shifts, pairwise's schedule).
schedule::ModelResult vendor_cost(const schedule::ModelInputs& inputs, const Params& params) {
  const std::string* text = params.spec().find("alg");
  const std::string alg = text == nullptr ? "auto" : *text;
  if (alg == "ring") return schedule::model_direct(inputs, "mpi(alg=ring)");
  if (alg != "pair") {
    throw UsageError(
        "the cost model prices mpi only with its schedule named: mpi:alg=pair (SMPI's pair, "
        "partners rank XOR step, P a power of two) or mpi:alg=ring (shifts); the library's own "
        "choice (alg=" +
        alg + ") is unknown to it");
  }
  try {
    return schedule::model_xor_pairs(inputs, "mpi(alg=pair)");
  } catch (const std::invalid_argument& error) {
    throw UsageError(error.what());
  }
}

constexpr std::string_view kName = "mpi";
constexpr std::string_view kExamples[] = {"mpi"};
constexpr ParamInfo kParams[] = {
    {"alg", "auto",
     "force one of the MPI library's own algorithms, as its MPI_T control variable lists them "
     "(`a2afft list` shows which); auto: the library's choice"},
};

}  // namespace

extern const ExchangeInfo kVendorExchange = {
    .name = kName,
    .summary = "the MPI library's own MPI_Alltoall (the reference), or one of its algorithms",
    .source = "vendor",
    .layouts = "any",
    .params = kParams,
    .examples = kExamples,
    .offered = offered,
    .validate = refusal_of<settings>,
    .make = make_vendor,
    .scratch = {},
    .auto_candidates = vendor_candidates,
    .cost = vendor_cost,
    .cost_needs_named_schedule = true,
    .split_phase = SplitPhase::yes,
};

}  // namespace a2afft::detail::algorithms
