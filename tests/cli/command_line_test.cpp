// The command line in process (run_command_line, exactly what main() runs), one mpirun per
// rank count for many cases (ctest cli.command_line.np<N>):
// - bad input: each case runs `a2afft ARGS...` on every rank and must give exit code 2 on every
//   rank and exactly one `a2afft: error:` line, on rank 0, matching the case's regex: one clear
//   line, never a hang, a crash or a silent success. A few also run end to end through the real
//   binary (cli.error.* in tests/CMakeLists.txt).
// - the shipped decks pass `a2afft run --dry-run` at the 4 ranks they are written for.

#include <mpi.h>
#include <stdlib.h>

#include <gtest/gtest.h>

#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "command_line.hpp"

namespace {

// An environment variable set around one case (the virtual layout variables).
struct EnvVar {
  const char* name = nullptr;
  const char* value = nullptr;
};

struct ErrorCase {
  const char* name;
  int ranks;  // the world size the case runs at; cli.errors.np<ranks> must be registered
  EnvVar env;
  std::vector<std::string> args;
  const char* regex;  // ECMAScript, searched in the error line
};

// clang-format off
const std::vector<ErrorCase>& error_cases() {
  static const std::vector<ErrorCase> cases = {
    {"unknown_exchange", 2, {}, {"alltoall", "--exchange", "mpi,bogus"},
     R"re(unknown exchange 'bogus'; valid: mpi)re"},
    {"unknown_key", 2, {}, {"alltoall", "--exchange", "nonblocking:bach=2"},
     R"re(nonblocking has no parameter 'bach'; valid: batch)re"},
    {"bad_value", 2, {}, {"alltoall", "--exchange", "nonblocking:batch=0"},
     R"re(batch=0 is not valid; expected a whole number from 1 to)re"},
    {"bad_spec", 1, {}, {"alltoall", "--exchange", "tra:radix"},
     R"re(bad exchange spec 'tra:radix')re"},
    {"zero_size", 2, {}, {"alltoall", "--sizes", "0"},
     R"re(--sizes=0 is not valid: zero bytes)re"},
    {"garbled_size", 1, {}, {"alltoall", "--sizes", "16,12q"},
     R"re(--sizes=12q is not valid: not a number)re"},
    {"negative_size", 1, {}, {"alltoall", "--sizes=-4"},
     R"re(--sizes=-4 is not valid)re"},
    {"node_sizes_sum", 3, {"A2AFFT_NODE_SIZES", "2,2"}, {"alltoall"},
     R"re(A2AFFT_NODE_SIZES=2,2 adds up to 4 ranks, but the job has 3)re"},
    {"node_sizes_garbled", 2, {}, {"topology", "--node-sizes", "1,x"},
     R"re(--node-sizes=1,x is not valid)re"},
    {"ranks_per_node_zero", 2, {"A2AFFT_RANKS_PER_NODE", "0"}, {"topology"},
     R"re(A2AFFT_RANKS_PER_NODE=0 is not valid)re"},
    {"numa_too_many", 2, {}, {"topology", "--numa-per-node", "3"},
     R"re(--numa-per-node=3 asks for more NUMA domains)re"},
    {"size_overflows_buffer", 2, {}, {"alltoall", "--sizes", "1,9223372036854775807"},
     R"re(--sizes=9223372036854775807 times 2 ranks does not fit in one buffer)re"},
    {"named_spec_in_a_list_with_all", 3, {}, {"alltoall", "--exchange", "all,tra2", "--node-sizes", "1,2"},
     R"re(tra2 cannot run on 3 ranks, 2 nodes of 1\+2)re"},
    {"iters_zero", 1, {}, {"alltoall", "--iters", "0"},
     R"re(--iters)re"},
    {"unknown_option", 1, {}, {"alltoall", "--frobnicate"},
     R"re(--frobnicate)re"},
    {"fold_memory_needs_simulation", 2, {}, {"alltoall", "--fold-memory"},
     R"re(--fold-memory needs the simulated build \(SimGrid SMPI)re"},
    {"fold_memory_with_validate", 1, {}, {"alltoall", "--fold-memory", "--validate"},
     R"re(--validate and --fold-memory cannot be combined)re"},
    // --plan-only runs no exchange: an option about runs beside it is one error naming both.
    {"plan_only_with_validate", 2, {}, {"alltoall", "--plan-only", "--validate"},
     R"re(--validate and --plan-only cannot be combined: --plan-only builds and measures every plan .* but runs no exchange)re"},
    {"plan_only_with_iters", 1, {}, {"alltoall", "--iters", "3", "--plan-only"},
     R"re(--iters and --plan-only cannot be combined)re"},
    {"memory_fft3d", 2, {}, {"fft3d", "--size", "4096"},
     R"re(fft3d --size=4096x4096x4096 on a 2x1 grid needs about .* per rank \(plans' arrays .*for certain for the 2 ranks on host .* available \(.*\); use smaller sizes)re"},
    // Rank 0 gathers FFTW-MPI's output as the reference too, where the build has the engine
    // (not with MPICH): the default engines differ, so does the estimate.
    {"memory_fft1d", 2, {}, {"fft1d", "--n", "2^40"},
     A2AFFT_HAVE_FFTW_MPI
         ? R"re(fft1d --n=1099511627776 needs about .* on rank 0 \(gathered output and reference 32.0 TiB\))re"
         : R"re(fft1d --n=1099511627776 needs about .* on rank 0 \(gathered output 16.0 TiB\))re"},
    // FFTW-MPI asked for alone on a case it cannot run (issue 30): one line, exit 2; beside
    // a2afft's rows it is skipped instead (cli.fftw_mpi_refusals_skipped).
    {"fftw_mpi_alone_1x1x1", 2, {}, {"fft3d", "--size", "1x1x1", "--engine", "fftw-mpi"},
     A2AFFT_HAVE_FFTW_MPI
         ? R"re(error: fftw-mpi: FFTW-MPI is not run on 1x1x1 over 2 ranks: it needs at least one plane per rank along n0 and n1 \(here 1 and 1\); with fewer, FFTW-MPI 3.3.10 fails to plan)re"
         : R"re(--engine=fftw-mpi is not in this build)re"},
    {"fftw_mpi_alone_natural_r2c_float", 2, {}, {"fft3d", "--size", "2x1x1", "--output", "natural", "--kind", "r2c", "--precision", "float", "--engine", "fftw-mpi"},
     A2AFFT_HAVE_FFTW_MPI ? R"re(error: fftw-mpi: FFTW-MPI is not run on 2x1x1 over 2 ranks: .*\(here 2 and 1\))re"
                          : R"re(--engine=fftw-mpi is not in this build)re"},
    {"fftw_mpi_alone_2d", 3, {}, {"fft2d", "--size", "2x8", "--engine", "fftw-mpi"},
     A2AFFT_HAVE_FFTW_MPI ? R"re(error: fftw-mpi: FFTW-MPI is not run on 2x8 over 3 ranks: .*\(here 2 and 8\))re"
                          : R"re(--engine=fftw-mpi is not in this build)re"},
    {"memory_alltoall", 2, {}, {"alltoall", "--sizes", "1024G", "--exchange", "mpi"},
     R"re(alltoall --sizes=1099511627776 needs about .*send pattern 2.0 TiB)re"},
    {"radix_too_large", 2, {}, {"alltoall", "--exchange", "tra:radix=3"},
     R"re(tra: radix=3 is not valid; expected a whole number from 2 to 2)re"},
    {"radix_one", 1, {}, {"alltoall", "--exchange", "tra:radix=1"},
     R"re(tra: radix=1 is not valid)re"},
    {"tra2_uneven_nodes", 3, {}, {"alltoall", "--exchange", "tra2", "--node-sizes", "2,1"},
     R"re(tra2 needs nodes of equal size; factor runs on any layout)re"},
    {"model_radix", 1, {}, {"model", "-P", "16", "--radix", "17"},
     R"re(--radix=17 is not valid; expected a tra radix from 2 to 16)re"},
    {"model_ranks_per_node", 1, {}, {"model", "-P", "16", "-Q", "3"},
     R"re(-Q=3 is not valid; expected ranks per node that divide P=16)re"},
    {"model_ranks_missing", 1, {}, {"model"},
     R"re(model: -P \(the number of ranks\) is required, unless --measure takes it from the MPI job)re"},
    {"model_measure_and_alpha", 1, {}, {"model", "--measure", "--alpha-inter-us", "3"},
     R"re(--alpha-inter-us excludes --measure)re"},
    {"model_ranks", 1, {}, {"model", "-P", "0"},
     R"re(-P=0 is not valid; expected 1 to 1000000)re"},
    {"model_exchange_unpriced", 1, {}, {"model", "-P", "16", "-Q", "4", "--exchange", "auto"},
     R"re(the cost model does not price auto; it prices mpi, pairwise, nonblocking, factor, factor-hier, tra)re"},
    {"model_exchange_vendor_unnamed", 1, {}, {"model", "-P", "16", "-Q", "4", "--exchange", "mpi"},
     R"re(the cost model prices mpi only with its schedule named: mpi:alg=pair)re"},
    {"model_exchange_vendor_pair_power_of_two", 1, {}, {"model", "-P", "12", "-Q", "4", "--exchange", "mpi:alg=pair"},
     R"re(mpi\(alg=pair\): XOR pairs need P a power of two, not P=12)re"},
    {"model_exchange_ppl", 1, {}, {"model", "-P", "16", "-Q", "4", "--exchange", "multileader:ppl=3"},
     R"re(multileader\(ppl=3,inner=pairwise\): ppl=3 does not divide Q=4)re"},
    {"model_exchange_and_radix", 1, {}, {"model", "-P", "16", "--exchange", "tra", "--radix", "4"},
     R"re(--radix, --r1 and --r2 set the default rows' parameters; with --exchange=tra give them in the specs)re"},
    {"fft3d_size_zero", 1, {}, {"fft3d", "--size", "0"},
     R"re(--size=0 is not valid)re"},
    {"fft3d_size_typo", 1, {}, {"fft3d", "--size", "64y64"},
     R"re(--size=64y64 is not valid)re"},
    {"fft3d_grid_product", 4, {}, {"fft3d", "--size", "16", "--grid", "3x1"},
     R"re(--grid=3x1 has 3 ranks but the job has 4)re"},
    // A grid with more parts than points (8x8x3 on 1x4) is valid since issue 19; a zero part
    // is still refused.
    {"fft3d_grid_zero", 4, {}, {"fft3d", "--size", "8x8x3", "--grid", "0x4"},
     R"re(--grid=0x4 is not valid; expected p0xp1 with p0 \* p1 = 4, e.g. 2x2)re"},
    {"fft3d_unknown_spec", 2, {}, {"fft3d", "--size", "16", "--exchange", "tra3"},
     R"re(unknown exchange 'tra3')re"},
    {"fft3d_unknown_engine", 1, {}, {"fft3d", "--size", "16", "--engine", "heffte"},
     R"re(--engine=heffte is not valid)re"},
    {"fft3d_batch_zero", 1, {}, {"fft3d", "--size", "8", "--batch", "0"},
     R"re(--batch=0 is not valid; expected the number of fields, at least 1)re"},
    {"fft3d_kind_unknown", 1, {}, {"fft3d", "--size", "8", "--kind", "r2r"},
     R"re(--kind=r2r is not valid; expected c2c or r2c)re"},
    {"fft3d_precision_unknown", 1, {}, {"fft3d", "--size", "8", "--precision", "half"},
     R"re(--precision=half is not valid; expected double or float)re"},
    {"fft2d_size_3d", 1, {}, {"fft2d", "--size", "8x8x8"},
     R"re(--size=8x8x8 is not valid; expected n or n0xn1)re"},
    {"fft1d_batch_zero", 1, {}, {"fft1d", "--n", "64", "--batch", "0"},
     R"re(--batch=0 is not valid; expected the number of fields, at least 1)re"},
    {"fft1d_hpcc_float", 1, {}, {"fft1d", "--hpcc", "--precision", "float"},
     R"re(--hpcc with --precision=float is not valid; HPCC's MPIFFT test is of double precision)re"},
    {"fft3d_order_unknown", 1, {}, {"fft3d", "--size", "8", "--order", "random"},
     R"re(--order=random is not valid; expected auto, interleaved or sequential)re"},
    {"family_uneven_nodes", 3, {}, {"alltoall", "--node-sizes", "1,2", "--exchange", "node-aware"},
     R"re(node-aware cannot run on 3 ranks, 2 nodes.*needs nodes of equal size)re"},
    {"family_ppl_not_dividing", 4, {}, {"alltoall", "--exchange", "multileader:ppl=3"},
     R"re(multileader: ppl=3 does not divide the 4 ranks per node)re"},
    {"family_inner_not_flat", 2, {}, {"alltoall", "--exchange", "node-aware:inner=hierarchical"},
     R"re(inner=hierarchical is not valid; inner takes a flat backend)re"},
    {"shared_leaders_too_many", 3, {}, {"alltoall", "--node-sizes", "2,1", "--exchange", "onmpml:leaders=2"},
     R"re(onmpml: leaders=2 exceeds the 1 rank of the smallest node; valid leaders: 1..1)re"},
    {"buffers_unknown", 1, {}, {"alltoall", "--buffers", "gpu"},
     R"re(--buffers)re"},
    // Issue 46: --stats and --format name the bad value and the valid ones.
    {"stats_unknown", 1, {}, {"alltoall", "--stats", "mean"},
     R"re(--stats: mean not in \{a2afft,osu\})re"},
    {"format_unknown", 2, {}, {"alltoall", "--format", "osu-json"},
     R"re(--format: osu-json not in \{table,osu\})re"},
    {"plan_only_with_stats", 1, {}, {"alltoall", "--plan-only", "--stats", "osu"},
     R"re(--stats and --plan-only cannot be combined)re"},
    {"fft1d_length_not_divisible", 3, {}, {"fft1d", "--n", "1000"},
     R"re(N=1000 on P=3 has no six-step split.*nearest valid N: 999 or 1008)re"},
    {"fft1d_length_garbled", 1, {}, {"fft1d", "--n", "2^x"},
     R"re(--n=2\^x is not valid; expected a length)re"},
    {"fft1d_length_zero", 1, {}, {"fft1d", "--n", "0"},
     R"re(--n=0 is not valid)re"},
    {"fft1d_bad_n1", 2, {}, {"fft1d", "--n", "64", "--n1", "3"},
     R"re(--n1=3 is not valid for N=64 on P=2.*valid N1: )re"},
    {"fft1d_output_unknown", 1, {}, {"fft1d", "--n", "64", "--output", "transposed"},
     R"re(--output=transposed is not valid; expected natural or scrambled)re"},
    {"fft1d_memory_fraction", 1, {}, {"fft1d", "--hpcc", "--memory-fraction", "2"},
     R"re(--memory-fraction=2 is not valid)re"},
    {"fft3d_wisdom_not_wisdom", 1, {}, {"fft3d", "--size", "8", "--exchange", "mpi", "--wisdom", A2AFFT_BINARY_DIR "/CMakeCache.txt"},
     R"re(--wisdom=.*CMakeCache.txt is not an FFTW wisdom file)re"},
    {"model_node_sizes_sum", 1, {}, {"model", "-P", "6", "--node-sizes", "1,2"},
     R"re(--node-sizes=1,2 adds up to 3 ranks, but -P=6)re"},
    {"run_deck_typo", 1, {}, {"run", A2AFFT_SOURCE_DIR "/tests/golden/deck_typo.toml"},
     R"re(deck_typo.toml:6: unknown key 'iter' in a fft3d \[\[run\]\]; valid: )re"},
    {"run_deck_bad_value", 2, {}, {"run", A2AFFT_SOURCE_DIR "/tests/golden/deck_bad_value.toml"},
     R"re(deck_bad_value.toml:7: \[\[run\]\] 2 \(alltoall 2\): unknown exchange 'tra3')re"},
    {"alltoall_csv_unwritable", 1, {}, {"alltoall", "--exchange", "mpi", "--sizes", "16", "--iters", "1", "--csv", "/nonexistent/out.csv"},
     R"re(/nonexistent/out.csv could not be written)re"},
    {"wisdom_directory", 2, {"A2AFFT_WISDOM", A2AFFT_BINARY_DIR}, {"alltoall", "-x", "auto", "--sizes", "8"},
     R"re(A2AFFT_WISDOM=[^ ]+ is a directory; expected the path of a JSON file)re"},
  };
  return cases;
}
// clang-format on

int world_size() {
  int size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return size;
}

int world_rank() {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

std::vector<std::string> error_lines(const std::string& output) {
  std::vector<std::string> lines;
  std::istringstream in(output);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("a2afft: error:", 0) == 0) lines.push_back(line);
  }
  return lines;
}

// Every case at this world size, one after another in the same processes: a case that left a
// rank behind in a collective would hang the next one (and the ctest TIMEOUT fails it).
TEST(CliErrors, EveryCaseAtThisRankCount) {
  const int ranks = world_size();
  const bool printing = world_rank() == 0;
  int cases_run = 0;
  for (const ErrorCase& error_case : error_cases()) {
    if (error_case.ranks != ranks) continue;
    SCOPED_TRACE(error_case.name);
    if (error_case.env.name != nullptr) setenv(error_case.env.name, error_case.env.value, 1);
    std::ostringstream err;
    const int code = a2afft::commands::run_command_line(error_case.args, err);
    if (error_case.env.name != nullptr) unsetenv(error_case.env.name);
    ++cases_run;

    int lowest_code = 0;
    int highest_code = 0;
    MPI_Allreduce(&code, &lowest_code, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(&code, &highest_code, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    EXPECT_EQ(lowest_code, a2afft::commands::kUsageExit) << "the exit code on some rank";
    EXPECT_EQ(highest_code, a2afft::commands::kUsageExit) << "the exit code on some rank";

    const std::vector<std::string> lines = error_lines(err.str());
    if (!printing) {
      EXPECT_TRUE(err.str().empty()) << "only rank 0 prints, this rank printed: " << err.str();
      continue;
    }
    // EXPECT, not ASSERT: rank 0 must not leave the loop while the others run the next case.
    EXPECT_EQ(lines.size(), 1u) << "expected one 'a2afft: error:' line, got:\n" << err.str();
    if (lines.size() != 1) continue;
    EXPECT_TRUE(std::regex_search(lines.front(), std::regex(error_case.regex)))
        << lines.front() << "\ndoes not match: " << error_case.regex;
  }
  EXPECT_GT(cases_run, 0) << "no case for " << ranks << " ranks: register only rank counts "
                          << "the table uses";
}

// The table's rank counts are the ones tests/CMakeLists.txt registers, so no case goes unrun.
TEST(CliErrors, EveryCaseHasARegisteredRankCount) {
  for (const ErrorCase& error_case : error_cases()) {
    EXPECT_TRUE(error_case.ranks >= 1 && error_case.ranks <= A2AFFT_ERROR_CASE_MAX_RANKS)
        << error_case.name << " runs at " << error_case.ranks << " ranks";
  }
}

// Every shipped deck expands to commands that parse and whose values check, at 4 ranks (its
// grids are for 4); the decks' runs themselves are cli.deck_*_runs. In a build without FFTW-MPI
// (another MPI than FFTW-MPI's) the decks that name the fftw-mpi engine are refused up front,
// saying why.
TEST(ShippedDecks, pass_the_dry_run_at_four_ranks) {
  if (world_size() != 4) GTEST_SKIP() << "the shipped decks are for 4 ranks: cli.command_line.np4";
  const std::pair<std::string, bool> decks[] = {
      {"demo", true}, {"radix-sweep", false}, {"hpcc-fft", true}, {"compare-all", false}};
  for (const auto& [deck, names_fftw_mpi] : decks) {
    SCOPED_TRACE(deck);
    std::ostringstream err;
    const std::string path = std::string(A2AFFT_SOURCE_DIR) + "/inputs/" + deck + ".toml";
    const int code = a2afft::commands::run_command_line({"run", path, "--dry-run"}, err);
    int highest_code = 0;
    MPI_Allreduce(&code, &highest_code, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (names_fftw_mpi && !A2AFFT_HAVE_FFTW_MPI) {
      EXPECT_EQ(highest_code, 2);
      if (world_rank() == 0) {
        EXPECT_NE(err.str().find("--engine=fftw-mpi is not in this build: " A2AFFT_FFTW_MPI_WHY),
                  std::string::npos)
            << err.str();
      }
      continue;
    }
    EXPECT_EQ(highest_code, 0) << err.str();
    EXPECT_EQ(err.str(), "");
  }
}

}  // namespace
