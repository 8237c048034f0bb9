// `a2afft model`: K, D, bytes, inter-node messages and alpha-beta time of each algorithm for
// any P (up to 10^6) without running anything: [tra-2024] Fig. 4 and §III-A as a tool. With
// --measure, alpha and beta (and P and Q unless given) come from ping-pongs in the MPI job it
// runs in, so its ranking can be set against `a2afft alltoall` on the same machine. The model's
// terms (latency, overhead, bandwidth, the node's shared injection and copy rates: the max-rate
// model, [max-rate-2016]) are the registry rows' costs (transpose/schedule/cost_model.hpp); the
// table gives each term's share of every prediction.

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <numeric>
#include <optional>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include <a2afft/backends.hpp>
#include <a2afft/error.hpp>
#include <a2afft/tools/model.hpp>
#include <a2afft/tools/topology.hpp>

#include "commands.hpp"
#include "options.hpp"
#include "report/context.hpp"
#include "report/text_table.hpp"

namespace a2afft::commands {
namespace {

constexpr long kMaxRanks = 1000000;
// The flat factor schedule is counted pair by pair, P^2 work, up to this P.
constexpr long kFactorCountRanks = 8192;
// Beyond this many radices the sweep samples them geometrically (always keeping the knee).
constexpr long kWholeSweepRanks = 65536;

struct ModelOptions {
  long ranks = -1;  // -1: not given
  long ranks_per_node = 1;
  std::string node_sizes;  // uneven nodes, for the factor table
  std::string block_bytes = "1K";
  long radix = 0;  // 0: ceil(sqrt P)
  long intra_radix = 0;
  long inter_radix = 0;
  double alpha_intra_us = 0.5;
  double beta_intra_ns = 0.05;
  double alpha_inter_us = 2.0;
  double beta_inter_ns = 0.1;
  double injection_gbps = 0;      // R_N, GB/s; 0: no node limit
  double copy_gbps = 0;           // the node's copy rate, GB/s; 0: no node limit
  double overhead_us = 0;         // o per further message of a round
  double round_overhead_us = 0;   // each round's own cost
  double host_copy_gbps = 0;      // one rank's memcpy rate, GB/s; 0: copies' bytes free
  double host_copy_call_ns = 0;   // what a memcpy call costs beyond its bytes
  double node_sync_stage_us = 0;  // a stage of a node's shared-memory sync; 0: a message
  // A simulated platform's network model (--parameters only): SMPI's factors by message size,
  // the reverse flows' share of a link, and the switch level (nodes per switch, link rate).
  std::vector<model::SizeFactor> latency_factors;
  std::vector<model::SizeFactor> bandwidth_factors;
  double reverse_flow_share = 0;
  long nodes_per_switch = 0;
  double switch_link_gbps = 0;
  std::string parameters_path;  // a machine's parameters (JSON), e.g. written by --measure --json
  std::string exchanges;        // specs to price instead of every backend at its defaults
  bool radix_sweep = false;
  bool measure = false;
  std::string json_path;
};

// The job's own machine for --measure: its ranks, its ranks per node, and its links.
struct MeasuredMachine {
  RankMap ranks;
  model::MeasuredLinks links;
};

MeasuredMachine measure_machine() {
  const LayoutRequest layout = LayoutRequest::from_environment();
  MeasuredMachine machine{map_ranks(MPI_COMM_WORLD, layout),
                          measure_link_costs(MPI_COMM_WORLD, layout)};
  return machine;
}

std::string fixed(double value, const char* pattern = "%.2f") {
  char text[64];
  std::snprintf(text, sizeof text, pattern, value);
  return text;
}

void check_radix(const char* option, long radix, long ranks, const char* what) {
  if (radix == 0 || (radix >= 2 && radix <= std::max(2L, ranks))) return;
  throw UsageError(std::string(option) + "=" + std::to_string(radix) + " is not valid; expected " +
                   what + " radix from 2 to " + std::to_string(std::max(2L, ranks)));
}

nlohmann::json to_json(const model::ModelResult& result) {
  return {{"algorithm", result.algorithm},
          {"rounds", result.rounds},
          {"blocks", result.blocks},
          {"bytes_per_rank", result.bytes_per_rank},
          {"inter_node_messages_per_node", result.inter_node_messages_per_node},
          {"inter_node_bytes_per_node", result.inter_node_bytes_per_node},
          {"seconds", result.seconds},
          {"terms",
           {{"latency_seconds", result.terms.latency_seconds},
            {"overhead_seconds", result.terms.overhead_seconds},
            {"bandwidth_seconds", result.terms.bandwidth_seconds},
            {"injection_seconds", result.terms.injection_seconds},
            {"copy_seconds", result.terms.copy_seconds},
            {"host_copy_seconds", result.terms.host_copy_seconds}}}};
}

// The factor algorithms on nodes of `sizes` (ranks numbered node by node): steps, and how often
// a node's network port is busy. factor-hier's counts are Theorem 1's closed forms (the unit
// tests check them against its simulated schedule); factor's are counted.
struct FactorRow : model::FactorNodeLoad {
  std::string algorithm;
  bool counted = true;
};

std::vector<FactorRow> factor_rows(const std::vector<int>& sizes) {
  const long ranks = std::accumulate(sizes.begin(), sizes.end(), 0L);
  FactorRow flat;
  flat.algorithm = "factor";
  flat.counted = ranks <= kFactorCountRanks;
  if (flat.counted) {
    static_cast<model::FactorNodeLoad&>(flat) = model::factor_node_load(sizes);
  } else {
    flat.steps = model::factor_rounds(static_cast<int>(ranks));
  }
  FactorRow clustered;
  static_cast<model::FactorNodeLoad&>(clustered) = model::clustered_node_load(sizes);
  clustered.algorithm = "factor-hier";
  return {flat, clustered};
}

// "0.35 us + 0.040 ns/B", and where the numbers come from.
std::string describe_link(const model::LinkCost& link, const std::string& origin) {
  return fixed(link.alpha_seconds * 1e6) + " us + " +
         fixed(link.beta_seconds_per_byte * 1e9, "%.3f") + " ns/B" +
         (origin.empty() ? "" : " (" + origin + ")");
}

std::vector<long> sweep_radices(long ranks) {
  std::vector<long> radices;
  const long knee = model::default_radix(ranks);
  const long top = std::max(2L, ranks);
  if (top <= kWholeSweepRanks) {
    for (long radix = 2; radix <= top; ++radix)
      radices.push_back(radix);
    return radices;
  }
  for (double radix = 2; radix <= static_cast<double>(top); radix *= 1.01) {
    const long whole = std::lround(radix);
    if (radices.empty() || whole != radices.back()) radices.push_back(whole);
  }
  if (radices.back() != top) radices.push_back(top);
  radices.insert(std::lower_bound(radices.begin(), radices.end(), knee), knee);
  radices.erase(std::unique(radices.begin(), radices.end()), radices.end());
  return radices;
}

// Every backend the model prices (its registry row's cost), at its defaults, with --radix, --r1
// and --r2 set on whichever backend declares that key.
std::vector<model::ModelResult> backend_results(const model::ModelInputs& inputs,
                                                const ModelOptions& options) {
  if (!options.exchanges.empty()) {  // --exchange: these specs, as given
    std::vector<model::ModelResult> results;
    for (const std::string& spec : split_specs(options.exchanges))
      results.push_back(model::spec_cost(inputs, spec));
    return results;
  }
  const std::pair<const char*, long> overrides[] = {
      {"radix", options.radix}, {"r1", options.intra_radix}, {"r2", options.inter_radix}};
  const std::vector<BackendInfo> infos = backends();
  std::vector<model::ModelResult> results;
  for (const std::string& name : model::modelled_backends()) {
    const auto info = std::find_if(infos.begin(), infos.end(),
                                   [&](const BackendInfo& row) { return row.name == name; });
    std::string spec = name;
    for (const auto& [key, value] : overrides) {
      // Clang 14 cannot capture a structured binding, so the lambda gets a copy.
      const std::string wanted(key);
      const bool declared =
          std::any_of(info->parameters.begin(), info->parameters.end(),
                      [&](const BackendParameter& parameter) { return parameter.key == wanted; });
      if (value == 0 || !declared) continue;
      spec += (spec == name ? ":" : ",") + std::string(key) + "=" + std::to_string(value);
    }
    results.push_back(model::spec_cost(inputs, spec));
  }
  return results;
}

// --measure: P and Q (unless given) and the links from this MPI job.
void take_measured_machine(ModelOptions& options, const MeasuredMachine& machine) {
  const RankMap& ranks = machine.ranks;
  const bool equal_nodes = std::all_of(ranks.node_sizes.begin(), ranks.node_sizes.end(),
                                       [&](int size) { return size == ranks.node_sizes[0]; });
  if (options.ranks < 0) {
    options.ranks = ranks.size();
    if (!equal_nodes) {
      throw UsageError("model --measure: this job has nodes of unequal sizes (" + ranks.layout +
                       "); the alpha-beta table needs equal nodes, so give -P and -Q");
    }
    options.ranks_per_node = ranks.node_sizes[0];
  }
  options.alpha_intra_us = machine.links.intra.alpha_seconds * 1e6;
  options.beta_intra_ns = machine.links.intra.beta_seconds_per_byte * 1e9;
  options.alpha_inter_us = machine.links.inter.alpha_seconds * 1e6;
  options.beta_inter_ns = machine.links.inter.beta_seconds_per_byte * 1e9;
  options.injection_gbps = machine.links.node_injection_bytes_per_second * 1e-9;
  options.copy_gbps = machine.links.node_copy_bytes_per_second * 1e-9;
  options.overhead_us = machine.links.message_overhead_seconds * 1e6;
  options.round_overhead_us = machine.links.round_overhead_seconds * 1e6;
  options.host_copy_gbps = machine.links.host_copy_bytes_per_second * 1e-9;
  options.host_copy_call_ns = machine.links.host_copy_call_seconds * 1e9;
  options.node_sync_stage_us = machine.links.node_sync_stage_seconds * 1e6;
  options.latency_factors = machine.links.latency_factors;
  options.bandwidth_factors = machine.links.bandwidth_factors;
}

// SMPI's "threshold:value;threshold:value" (smpi/lat-factor, smpi/bw-factor) as SizeFactors.
std::vector<model::SizeFactor> parse_size_factors(const std::string& text,
                                                  const std::string& where) {
  std::vector<model::SizeFactor> factors;
  std::stringstream entries(text);
  std::string entry;
  while (std::getline(entries, entry, ';')) {
    const std::size_t colon = entry.find(':');
    char* end = nullptr;
    const double threshold = colon == std::string::npos ? -1 : std::strtod(entry.c_str(), &end);
    const bool threshold_ok = end == entry.c_str() + colon && threshold >= 0;
    const double factor = threshold_ok ? std::strtod(entry.c_str() + colon + 1, &end) : 0;
    if (!threshold_ok || *end != '\0' || !(factor > 0) || !std::isfinite(factor)) {
      throw UsageError(where + " has \"" + entry +
                       "\"; expected threshold:factor entries separated by ';' (SMPI's "
                       "smpi/lat-factor format), thresholds >= 0 and factors > 0");
    }
    factors.push_back({threshold, factor});
  }
  return factors;
}

std::string format_size_factors(const std::vector<model::SizeFactor>& factors) {
  std::string text;
  for (const model::SizeFactor& entry : factors)
    text += (text.empty() ? "" : ";") + fixed(entry.above_bytes, "%.0f") + ":" +
            fixed(entry.factor, "%g");
  return text;
}

// The optional keys of a simulated platform's network model (ModelOptions).
void take_network_model(ModelOptions& options, const nlohmann::json& p) {
  const std::string where = "--parameters=" + options.parameters_path;
  for (const auto& [key, target] : {std::pair{"latency_factors", &options.latency_factors},
                                    std::pair{"bandwidth_factors", &options.bandwidth_factors}}) {
    if (!p.contains(key)) continue;
    if (!p[key].is_string()) throw UsageError(where + ": \"" + key + "\" is not a string");
    *target = parse_size_factors(p[key].get<std::string>(), where + " \"" + key + "\"");
  }
  const std::pair<const char*, double*> numbers[] = {
      {"reverse_flow_share", &options.reverse_flow_share},
      {"switch_link_bytes_per_second", &options.switch_link_gbps}};
  for (const auto& [key, target] : numbers) {
    if (!p.contains(key)) continue;
    if (!p[key].is_number()) throw UsageError(where + ": \"" + key + "\" is not a number");
    *target = p[key].get<double>();
  }
  options.switch_link_gbps *= 1e-9;
  if (p.contains("nodes_per_switch")) {
    if (!p["nodes_per_switch"].is_number_integer() || p["nodes_per_switch"].get<long>() < 0)
      throw UsageError(where + ": \"nodes_per_switch\" is not a whole number >= 0");
    options.nodes_per_switch = p["nodes_per_switch"].get<long>();
  }
}

// --parameters: the machine from a JSON file, either a parameters object or a --json report
// whose "inputs" holds one (what `model --measure --json` writes). Keys as --json writes them.
void take_parameters_file(ModelOptions& options) {
  std::ifstream in(options.parameters_path);
  if (!in) throw UsageError("--parameters=" + options.parameters_path + " cannot be read");
  nlohmann::json document;
  try {
    document = nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& error) {
    throw UsageError("--parameters=" + options.parameters_path + " is not JSON: " + error.what());
  }
  const nlohmann::json& p = document.contains("inputs") ? document["inputs"] : document;
  const std::pair<const char*, double*> keys[] = {
      {"alpha_intra_seconds", &options.alpha_intra_us},
      {"beta_intra_seconds_per_byte", &options.beta_intra_ns},
      {"alpha_inter_seconds", &options.alpha_inter_us},
      {"beta_inter_seconds_per_byte", &options.beta_inter_ns},
      {"node_injection_bytes_per_second", &options.injection_gbps},
      {"node_copy_bytes_per_second", &options.copy_gbps},
      {"message_overhead_seconds", &options.overhead_us}};
  const double scale[] = {1e6, 1e9, 1e6, 1e9, 1e-9, 1e-9, 1e6};
  for (std::size_t k = 0; k < std::size(keys); ++k) {
    if (!p.contains(keys[k].first) || !p[keys[k].first].is_number()) {
      throw UsageError("--parameters=" + options.parameters_path + " has no number \"" +
                       keys[k].first + "\"; expected the keys model --measure --json writes");
    }
    *keys[k].second = p[keys[k].first].get<double>() * scale[k];
  }
  // Optional: files written before it was measured, and platforms that cannot state it.
  const std::tuple<const char*, double*, double> optional[] = {
      {"round_overhead_seconds", &options.round_overhead_us, 1e6},
      {"host_copy_bytes_per_second", &options.host_copy_gbps, 1e-9},
      {"host_copy_call_seconds", &options.host_copy_call_ns, 1e9},
      {"node_sync_stage_seconds", &options.node_sync_stage_us, 1e6}};
  for (const auto& [key, target, unit] : optional) {
    if (!p.contains(key)) continue;
    if (!p[key].is_number())
      throw UsageError("--parameters=" + options.parameters_path + ": \"" + key +
                       "\" is not a number");
    *target = p[key].get<double>() * unit;
  }
  take_network_model(options, p);
}

// Checks the options and returns the model's machine; throws UsageError naming the option.
model::ModelInputs checked_inputs(const ModelOptions& options) {
  if (options.ranks < 0) {
    throw UsageError(
        "model: -P (the number of ranks) is required, unless --measure takes it "
        "from the MPI job");
  }
  if (options.ranks < 1 || options.ranks > kMaxRanks) {
    throw UsageError("-P=" + std::to_string(options.ranks) + " is not valid; expected 1 to " +
                     std::to_string(kMaxRanks) + " ranks");
  }
  if (options.ranks_per_node < 1 || options.ranks % options.ranks_per_node != 0) {
    throw UsageError(
        "-Q=" + std::to_string(options.ranks_per_node) +
        " is not valid; expected ranks per node that divide P=" + std::to_string(options.ranks));
  }
  const long nodes = options.ranks / options.ranks_per_node;
  if (!options.exchanges.empty() &&
      (options.radix != 0 || options.intra_radix != 0 || options.inter_radix != 0)) {
    throw UsageError("--radix, --r1 and --r2 set the default rows' parameters; with --exchange=" +
                     options.exchanges + " give them in the specs (e.g. tra:radix=8)");
  }
  check_radix("--radix", options.radix, options.ranks, "a tra");
  check_radix("--r1", options.intra_radix, options.ranks_per_node, "an intra-node");
  check_radix("--r2", options.inter_radix, nodes, "an inter-node");
  for (const double value :
       {options.alpha_intra_us, options.beta_intra_ns, options.alpha_inter_us,
        options.beta_inter_ns, options.injection_gbps, options.copy_gbps, options.overhead_us,
        options.round_overhead_us, options.reverse_flow_share, options.switch_link_gbps,
        options.host_copy_gbps, options.host_copy_call_ns, options.node_sync_stage_us}) {
    if (!(value >= 0) || !std::isfinite(value)) {
      throw UsageError("alpha, beta, rates and overhead must be finite and not negative; got " +
                       fixed(value, "%g"));
    }
  }
  model::ModelInputs inputs{options.ranks,
                            options.ranks_per_node,
                            cli::parse_byte_size(options.block_bytes, "--block-bytes"),
                            {options.alpha_intra_us * 1e-6, options.beta_intra_ns * 1e-9},
                            {options.alpha_inter_us * 1e-6, options.beta_inter_ns * 1e-9}};
  inputs.node_injection_bytes_per_second = options.injection_gbps * 1e9;
  inputs.node_copy_bytes_per_second = options.copy_gbps * 1e9;
  inputs.message_overhead_seconds = options.overhead_us * 1e-6;
  inputs.round_overhead_seconds = options.round_overhead_us * 1e-6;
  inputs.host_copy_bytes_per_second = options.host_copy_gbps * 1e9;
  inputs.host_copy_call_seconds = options.host_copy_call_ns * 1e-9;
  inputs.node_sync_stage_seconds = options.node_sync_stage_us * 1e-6;
  inputs.latency_factors = options.latency_factors;
  inputs.bandwidth_factors = options.bandwidth_factors;
  inputs.reverse_flow_share = options.reverse_flow_share;
  inputs.nodes_per_switch = options.nodes_per_switch;
  inputs.switch_link_bytes_per_second = options.switch_link_gbps * 1e9;
  return inputs;
}

// The node sizes of the factor table: --node-sizes, or N nodes of Q.
std::vector<int> model_node_sizes(const ModelOptions& options) {
  const long ranks = options.ranks;
  const long per_node = options.ranks_per_node;
  const long nodes = ranks / per_node;
  std::vector<int> node_sizes(static_cast<std::size_t>(nodes), static_cast<int>(per_node));
  if (!options.node_sizes.empty()) {
    node_sizes = model::parse_node_sizes({"--node-sizes", options.node_sizes});
    const long sum = std::accumulate(node_sizes.begin(), node_sizes.end(), 0L);
    if (sum != ranks) {
      throw UsageError("--node-sizes=" + options.node_sizes + " adds up to " + std::to_string(sum) +
                       " ranks, but -P=" + std::to_string(ranks));
    }
  }
  return node_sizes;
}

void print_header(const ModelOptions& options, const model::ModelInputs& inputs,
                  const MeasuredMachine* machine, const report::RunContext* context) {
  const long ranks = inputs.ranks;
  const long per_node = inputs.ranks_per_node;
  const long nodes = ranks / per_node;
  const bool uneven = !options.node_sizes.empty();
  std::cout << "# a2afft model: P=" << ranks << ", "
            << (uneven ? "nodes of " + options.node_sizes + " ranks"
                       : "Q=" + std::to_string(per_node) +
                             " ranks per node (N=" + std::to_string(nodes) + " nodes)")
            << ", block " << inputs.block_bytes << " B\n"
            << "# alpha-beta per message: intra-node "
            << describe_link(inputs.intra, !machine                        ? ""
                                           : machine->links.intra_measured ? "measured"
                                                                           : "copied from inter")
            << ", inter-node "
            << describe_link(inputs.inter, !machine                        ? ""
                                           : machine->links.inter_measured ? "measured"
                                                                           : "copied from intra")
            << "; a round costs its slowest message\n"
            << "# node terms (max-rate): injection "
            << (inputs.node_injection_bytes_per_second > 0
                    ? fixed(inputs.node_injection_bytes_per_second * 1e-9) + " GB/s"
                    : std::string("unlimited"))
            << ", copy "
            << (inputs.node_copy_bytes_per_second > 0
                    ? fixed(inputs.node_copy_bytes_per_second * 1e-9) + " GB/s"
                    : std::string("unlimited"))
            << " per node; overhead " << fixed(inputs.message_overhead_seconds * 1e6, "%.3f")
            << " us per further message of a round, "
            << fixed(inputs.round_overhead_seconds * 1e6, "%.3f") << " us per round\n"
            << "# host copies (packing, unpacking, leaders' aggregation): "
            << (inputs.host_copy_bytes_per_second > 0
                    ? fixed(inputs.host_copy_bytes_per_second * 1e-9) + " GB/s"
                    : std::string("bytes free"))
            << " and " << fixed(inputs.host_copy_call_seconds * 1e9, "%.1f")
            << " ns per memcpy call; node sync (shared-memory leaders) "
            << (inputs.node_sync_stage_seconds > 0
                    ? fixed(inputs.node_sync_stage_seconds * 1e6, "%.3f") + " us"
                    : std::string("a zero-byte intra-node message"))
            << " per barrier stage\n";
  if (machine && !inputs.latency_factors.empty()) {
    std::cout << "# measured bends of that line (ping-pongs of 64 B to 256 KiB, on the inter-node "
                 "link where there is one; bytes:factor, from the next byte on): latency "
              << format_size_factors(inputs.latency_factors) << ", bandwidth "
              << format_size_factors(inputs.bandwidth_factors) << "\n";
  } else if (!inputs.latency_factors.empty() || !inputs.bandwidth_factors.empty() ||
             inputs.reverse_flow_share > 0 || inputs.nodes_per_switch > 0) {
    std::cout << "# network model (simulated platform): factors by message size, latency "
              << inputs.latency_factors.size() << " and bandwidth "
              << inputs.bandwidth_factors.size() << " entries; reverse flows take "
              << fixed(inputs.reverse_flow_share) << " of a link; "
              << (inputs.nodes_per_switch > 0
                      ? std::to_string(inputs.nodes_per_switch) + " nodes per switch, " +
                            fixed(inputs.switch_link_bytes_per_second * 1e-9) +
                            " GB/s to each other switch"
                      : std::string("no switch level"))
              << "\n";
  }
  if (machine) {
    std::cout << "# measured by ping-pong (8 B and 1 MiB; rank 0 with its first node neighbour "
                 "and with another node's first rank) in this job:\n";
    report::print_context(std::cout, *context);
  }
}

void print_backend_table(const std::vector<model::ModelResult>& results) {
  report::TextTable table({{"algorithm"},
                           {"K rounds", true},
                           {"D blocks", true},
                           {"bytes/rank", true},
                           {"inter-node msgs/node", true},
                           {"inter-node bytes/node", true},
                           {"predicted [us]", true},
                           {"latency %", true},
                           {"overhead %", true},
                           {"bandwidth %", true},
                           {"injection %", true},
                           {"copy %", true},
                           {"host copy %", true}});
  for (const auto& result : results) {
    const auto share = [&](double seconds) {
      return fixed(result.seconds > 0 ? 100 * seconds / result.seconds : 0, "%.0f");
    };
    const model::ModelTerms& t = result.terms;
    table.add_row({result.algorithm, std::to_string(result.rounds), std::to_string(result.blocks),
                   fixed(result.bytes_per_rank, "%.0f"),
                   std::to_string(result.inter_node_messages_per_node),
                   fixed(result.inter_node_bytes_per_node, "%.0f"), fixed(result.seconds * 1e6),
                   share(t.latency_seconds), share(t.overhead_seconds), share(t.bandwidth_seconds),
                   share(t.injection_seconds), share(t.copy_seconds), share(t.host_copy_seconds)});
  }
  table.print(std::cout);
}

// Prints the factor table; returns its rows as JSON.
nlohmann::json print_factor_table(const std::vector<int>& node_sizes, bool uneven) {
  const std::vector<FactorRow> factor = factor_rows(node_sizes);
  std::cout << (uneven ? "" : "\n")
            << "# factor algorithms: steps, and steps in which a node sends off-node (over nodes, "
               "fewest-most)"
            << (factor[0].counted
                    ? ""
                    : "; factor is counted only up to P = " + std::to_string(kFactorCountRanks))
            << '\n';
  report::TextTable factor_table({{"algorithm"},
                                  {"steps", true},
                                  {"inter-node steps per node", true},
                                  {"off-node ranks at once", true}});
  nlohmann::json factor_json = nlohmann::json::array();
  for (const FactorRow& row : factor) {
    const std::string busy = !row.counted ? "-"
                             : row.fewest_inter_node_steps == row.most_inter_node_steps
                                 ? std::to_string(row.most_inter_node_steps)
                                 : std::to_string(row.fewest_inter_node_steps) + "-" +
                                       std::to_string(row.most_inter_node_steps);
    factor_table.add_row({row.algorithm, std::to_string(row.steps), busy,
                          row.counted ? std::to_string(row.most_off_node_at_once) : "-"});
    nlohmann::json item = {{"algorithm", row.algorithm}, {"steps", row.steps}};
    if (row.counted) {
      item["inter_node_steps_per_node"] = {row.fewest_inter_node_steps, row.most_inter_node_steps};
      item["most_off_node_ranks_at_once"] = row.most_off_node_at_once;
    }
    factor_json.push_back(item);
  }
  factor_table.print(std::cout);
  return factor_json;
}

// Prints tra's radix sweep; returns its points as JSON.
nlohmann::json print_radix_sweep(const model::ModelInputs& inputs) {
  const long ranks = inputs.ranks;
  nlohmann::json sweep = nlohmann::json::array();
  const long knee = model::default_radix(ranks);
  std::cout << "\n# tra radix sweep (Fig. 4): K rises and D falls with r; the knee is at "
               "r = ceil(sqrt P) = "
            << knee << (ranks > kWholeSweepRanks ? "; radices sampled 1% apart" : "") << '\n';
  report::TextTable curve(
      {{"radix", true}, {"K rounds", true}, {"D blocks", true}, {"predicted [us]", true}, {""}});
  for (const long r : sweep_radices(ranks)) {
    const model::ModelResult point = model::tra_cost(inputs, r);
    curve.add_row({std::to_string(r), std::to_string(point.rounds), std::to_string(point.blocks),
                   fixed(point.seconds * 1e6), r == knee ? "<- knee, ceil(sqrt P)" : ""});
    nlohmann::json row = to_json(point);
    row["radix"] = r;
    row["knee"] = r == knee;
    sweep.push_back(std::move(row));
  }
  curve.print(std::cout);
  return sweep;
}

void write_model_json(const ModelOptions& options, const model::ModelInputs& inputs,
                      const MeasuredMachine* machine, const report::RunContext* context,
                      const std::vector<model::ModelResult>& results, nlohmann::json factor_json,
                      nlohmann::json sweep) {
  const long ranks = inputs.ranks;
  const long per_node = inputs.ranks_per_node;
  nlohmann::json algorithms = nlohmann::json::array();
  for (const auto& result : results)
    algorithms.push_back(to_json(result));
  nlohmann::json document = {
      {"inputs",
       {{"ranks", ranks},
        {"ranks_per_node", per_node},
        {"block_bytes", inputs.block_bytes},
        {"alpha_intra_seconds", inputs.intra.alpha_seconds},
        {"beta_intra_seconds_per_byte", inputs.intra.beta_seconds_per_byte},
        {"alpha_inter_seconds", inputs.inter.alpha_seconds},
        {"beta_inter_seconds_per_byte", inputs.inter.beta_seconds_per_byte},
        {"node_injection_bytes_per_second", inputs.node_injection_bytes_per_second},
        {"node_copy_bytes_per_second", inputs.node_copy_bytes_per_second},
        {"message_overhead_seconds", inputs.message_overhead_seconds},
        {"round_overhead_seconds", inputs.round_overhead_seconds},
        {"host_copy_bytes_per_second", inputs.host_copy_bytes_per_second},
        {"host_copy_call_seconds", inputs.host_copy_call_seconds},
        {"node_sync_stage_seconds", inputs.node_sync_stage_seconds},
        {"latency_factors", format_size_factors(inputs.latency_factors)},
        {"bandwidth_factors", format_size_factors(inputs.bandwidth_factors)},
        {"reverse_flow_share", inputs.reverse_flow_share},
        {"nodes_per_switch", inputs.nodes_per_switch},
        {"switch_link_bytes_per_second", inputs.switch_link_bytes_per_second},
        {"measured", options.measure},
        {"intra_measured", machine && machine->links.intra_measured},
        {"inter_measured", machine && machine->links.inter_measured}}},
      {"algorithms", algorithms},
      {"factor", factor_json},
      {"radix_sweep", sweep}};
  if (context) document["context"] = report::to_json(*context);
  std::ofstream out(options.json_path);
  out << document.dump(2) << '\n';
  if (!out) throw UsageError("--json=" + options.json_path + " could not be written");
}

// parse (options, --measure) -> plan (inputs, node sizes) -> run (the rows' costs) -> report.
int run_model(ModelOptions options) {
  std::optional<MeasuredMachine> machine;
  if (options.measure) {
    machine = measure_machine();
    take_measured_machine(options, *machine);
  }
  if (!options.parameters_path.empty()) take_parameters_file(options);
  const model::ModelInputs inputs = checked_inputs(options);
  const std::vector<int> node_sizes = model_node_sizes(options);
  if (!is_printing_rank()) return 0;
  std::optional<report::RunContext> context;
  if (machine) context = report::collect_context(machine->ranks, "a2afft model --measure");
  const MeasuredMachine* measured = machine ? &*machine : nullptr;
  const report::RunContext* run_context = context ? &*context : nullptr;
  const std::vector<model::ModelResult> results = backend_results(inputs, options);
  print_header(options, inputs, measured, run_context);
  const bool uneven = !options.node_sizes.empty();
  // The alpha-beta table assumes equal nodes; on uneven ones only the factor table applies.
  if (!uneven) print_backend_table(results);
  nlohmann::json factor_json = print_factor_table(node_sizes, uneven);
  nlohmann::json sweep = options.radix_sweep ? print_radix_sweep(inputs) : nlohmann::json::array();
  if (!options.json_path.empty()) {
    write_model_json(options, inputs, measured, run_context, results, std::move(factor_json),
                     std::move(sweep));
  }
  return 0;
}

}  // namespace

Runner add_model(CLI::App& app) {
  auto* command = app.add_subcommand(
      "model", "Predict K, D, bytes and time of each algorithm, term by term (no MPI run needed)");
  auto options = std::make_shared<ModelOptions>();
  command->add_option("-P,--ranks", options->ranks,
                      "Number of ranks P, 1 to 10^6 (required unless --measure takes the job's)");
  command
      ->add_option("-Q,--ranks-per-node", options->ranks_per_node,
                   "Ranks per node Q (must divide P)")
      ->capture_default_str();
  command->add_option("--block-bytes", options->block_bytes, "Bytes per block, e.g. 64 or 4K")
      ->capture_default_str();
  command
      ->add_option("--node-sizes", options->node_sizes,
                   "Uneven nodes, e.g. 1,2,3 (must add up to P): only the factor table, which "
                   "handles them")
      ->excludes("-Q");
  command->add_option(
      "--exchange", options->exchanges,
      "Price these specs (comma list, parameters as in `alltoall --exchange`, e.g. "
      "multileader:ppl=4,locality-aware:groups=28) instead of every modelled backend at its "
      "defaults; a backend the model does not price is an error naming those it does");
  command->add_option("--radix", options->radix, "tra radix, 2..P (default ceil(sqrt P))");
  command->add_option("--r1", options->intra_radix, "tra2 intra-node radix (default ceil(sqrt Q))");
  command->add_option("--r2", options->inter_radix, "tra2 inter-node radix (default N)");
  command
      ->add_option("--alpha-intra-us", options->alpha_intra_us,
                   "Latency of a message inside a node, microseconds")
      ->capture_default_str();
  command
      ->add_option("--beta-intra-ns", options->beta_intra_ns,
                   "Time per byte inside a node, nanoseconds (0.05 = 20 GB/s)")
      ->capture_default_str();
  command
      ->add_option("--alpha-inter-us", options->alpha_inter_us,
                   "Latency of a message between nodes, microseconds")
      ->capture_default_str();
  command
      ->add_option("--beta-inter-ns", options->beta_inter_ns,
                   "Time per byte between nodes, nanoseconds (0.1 = 10 GB/s)")
      ->capture_default_str();
  auto* measure = command->add_flag(
      "--measure", options->measure,
      "Measure the parameters in this MPI job (run it under mpirun, across the nodes to model): "
      "ping-pongs of 8 B and 1 MiB between rank 0 and its node neighbour and another node's "
      "first rank, and of 64 B to 256 KiB for the line's bends (size factors); all ranks of rank "
      "0's node swapping 1 MiB with another node's at once "
      "(injection) and in pairs inside it (copy); 32 8 B messages in flight at once (overhead); "
      "pairwise with 1 B blocks (each round's own cost); rank 0's memcpy of 64 MiB and its node's "
      "ranks' memcpys of 8 B blocks at once (host copies); MPI_Win_sync, a node barrier, "
      "MPI_Win_sync on rank 0's node (node sync); as auto:mode=estimate does. P and Q default to "
      "the job's; --json writes the parameters");
  command
      ->add_option("--injection-gbps", options->injection_gbps,
                   "The node's injection rate R_N shared by its ranks sending off-node at once, "
                   "GB/s (max-rate model; 0: unlimited)")
      ->capture_default_str();
  command
      ->add_option("--copy-gbps", options->copy_gbps,
                   "The node's shared-memory rate shared by its ranks copying inside it at once, "
                   "GB/s (0: unlimited)")
      ->capture_default_str();
  command
      ->add_option("--overhead-us", options->overhead_us,
                   "Overhead o of each further message a rank sends in one round, microseconds")
      ->capture_default_str();
  command
      ->add_option("--round-overhead-us", options->round_overhead_us,
                   "What each round of an exchange costs beyond its messages (its own work), "
                   "microseconds")
      ->capture_default_str();
  command
      ->add_option("--host-copy-gbps", options->host_copy_gbps,
                   "One rank's memcpy rate for the exchanges' own packing, unpacking and "
                   "leaders' aggregation, GB/s (0: those copies' bytes are free)")
      ->capture_default_str();
  command
      ->add_option("--host-copy-call-ns", options->host_copy_call_ns,
                   "What one memcpy call of the exchanges costs beyond its bytes, nanoseconds")
      ->capture_default_str();
  command
      ->add_option("--node-sync-us", options->node_sync_stage_us,
                   "What each of the ceil(log2 Q) stages of a node's shared-memory "
                   "synchronisation (MPI_Win_sync, node barrier, MPI_Win_sync; the mpml family's) "
                   "costs, microseconds (0: a zero-byte intra-node message each)")
      ->capture_default_str();
  auto* parameters = command->add_option(
      "--parameters", options->parameters_path,
      "Read the machine's parameters from a JSON file (what --measure --json writes under "
      "\"inputs\", or a platform's published specifications; inputs/platforms/*.json)");
  for (const char* name :
       {"--alpha-intra-us", "--beta-intra-ns", "--alpha-inter-us", "--beta-inter-ns",
        "--injection-gbps", "--copy-gbps", "--overhead-us", "--round-overhead-us",
        "--host-copy-gbps", "--host-copy-call-ns", "--node-sync-us"}) {
    measure->excludes(command->get_option(name));
    parameters->excludes(command->get_option(name));
  }
  measure->excludes(parameters);
  command->add_flag("--radix-sweep", options->radix_sweep,
                    "Also print K, D and time of tra for every radix 2..P, marking the knee");
  command->add_option("--json", options->json_path, "Also write the results as JSON to FILE");
  command->footer(
      "Defaults are typical of shared memory inside a node and an InfiniBand-class network "
      "between nodes, with no node limits; measure your own (--measure --json) and pass them in "
      "(--parameters).");
  return [options] { return run_model(*options); };
}

}  // namespace a2afft::commands
