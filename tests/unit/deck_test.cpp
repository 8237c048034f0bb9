#include "deck.hpp"

#include <gtest/gtest.h>

#include <filesystem>

#include "error.hpp"

namespace a2afft::deck {
namespace {

using Args = std::vector<std::string>;

// The message of the UsageError that parsing `text` throws, or "" when it parses.
std::string error_of(const std::string& text) {
  try {
    parse_deck(text, "deck.toml");
  } catch (const UsageError& error) {
    return error.what();
  }
  return "";
}

TEST(Deck, runs_expand_to_the_commands_they_stand_for) {
  const Study study = parse_deck(R"(
[study]
name = "mine"

[[run]]
kind = "alltoall"
exchanges = ["mpi", "tra:radix=4,rotation=copied"]
sizes = [16, "4K"]
validate = true
radix_sweep = false
iters = 7

[[run]]
kind = "fft3d"
name = "cubes"
sizes = ["32", 64]
grids = ["2x1", "1x2"]
engines = ["a2afft", "fftw-mpi"]
node_sizes = [1, 1]
)",
                                 "study.toml");
  EXPECT_EQ(study.name, "mine");
  EXPECT_EQ(study.output, "results/study");
  ASSERT_EQ(study.invocations.size(), 5u);
  const Invocation& first = study.invocations[0];
  EXPECT_EQ(first.run, 1);
  EXPECT_EQ(first.line, 5);
  EXPECT_EQ(first.label, "alltoall 1");
  EXPECT_EQ(first.args, (Args{"alltoall", "-x", "mpi", "-x", "tra:radix=4,rotation=copied",
                              "--iters", "7", "--sizes", "16,4K", "--validate"}));
  // Every combination of the expanded keys (sizes x grids), the rest shared.
  EXPECT_EQ(study.invocations[1].args, (Args{"fft3d", "--grid", "2x1", "--size", "32", "--engine",
                                             "a2afft,fftw-mpi", "--node-sizes", "1,1"}));
  EXPECT_EQ(study.invocations[4].args[2], "1x2");
  EXPECT_EQ(study.invocations[4].args[4], "64");
  EXPECT_EQ(study.invocations[4].label, "cubes");
  EXPECT_EQ(study.invocations[4].line, 13);
  EXPECT_EQ(first.command_line(),
            "a2afft alltoall -x mpi -x tra:radix=4,rotation=copied --iters 7 --sizes 16,4K "
            "--validate");
}

// The transform keys: `fft_kind` (since `kind` names the command), precision and batch, for
// the 3D, 2D and 1D commands (no fft_kind in 1D, which is c2c only).
TEST(Deck, transform_keys_reach_every_fft_command) {
  const Study study = parse_deck(R"(
[[run]]
kind = "fft3d"
sizes = ["16"]
fft_kind = "r2c"
precision = "float"
batch = 3

[[run]]
kind = "fft2d"
sizes = ["24x17"]
fft_kind = "r2c"

[[run]]
kind = "fft1d"
lengths = ["2^10"]
precision = "float"
batch = 2
)",
                                 "kinds.toml");
  ASSERT_EQ(study.invocations.size(), 3u);
  // (Keys in toml++'s order, the same on every run.)
  EXPECT_EQ(study.invocations[0].args, (Args{"fft3d", "--size", "16", "--batch", "3", "--kind",
                                             "r2c", "--precision", "float"}));
  EXPECT_EQ(study.invocations[1].args, (Args{"fft2d", "--size", "24x17", "--kind", "r2c"}));
  EXPECT_EQ(study.invocations[2].args,
            (Args{"fft1d", "--n", "2^10", "--batch", "2", "--precision", "float"}));
  EXPECT_NE(error_of("[[run]]\nkind = \"fft1d\"\nfft_kind = \"r2c\"\n")
                .find("unknown key 'fft_kind' in a fft1d [[run]]"),
            std::string::npos);
}

// `threads` (issue 45): the a2afft rows' threads per rank, for every FFT command, not alltoall;
// a list sweeps them, one invocation each; "auto" times the counts.
TEST(Deck, threads_reach_every_fft_command_and_only_them) {
  const Study study = parse_deck(R"(
[[run]]
kind = "fft3d"
sizes = ["16"]
threads = 2

[[run]]
kind = "fft1d"
lengths = ["2^10"]
threads = [1, 2]

[[run]]
kind = "fft2d"
sizes = ["16"]
threads = "auto"
)",
                                 "threads.toml");
  ASSERT_EQ(study.invocations.size(), 4u);
  EXPECT_EQ(study.invocations[0].args, (Args{"fft3d", "--size", "16", "--threads", "2"}));
  EXPECT_EQ(study.invocations[1].args, (Args{"fft1d", "--n", "2^10", "--threads", "1"}));
  EXPECT_EQ(study.invocations[2].args, (Args{"fft1d", "--n", "2^10", "--threads", "2"}));
  EXPECT_EQ(study.invocations[3].args, (Args{"fft2d", "--size", "16", "--threads", "auto"}));
  EXPECT_NE(error_of("[[run]]\nkind = \"fft3d\"\nthreads = \"two\"\n")
                .find("threads must be an integer, \"auto\", or a list of them"),
            std::string::npos);
  EXPECT_NE(error_of("[[run]]\nkind = \"alltoall\"\nthreads = 2\n")
                .find("unknown key 'threads' in a alltoall [[run]]"),
            std::string::npos);
}

TEST(Deck, mistakes_name_file_line_and_what_is_valid) {
  EXPECT_NE(error_of("[[run]]\nkind = \"fft3d\"\niter = 5\n")
                .find("deck.toml:3: unknown key 'iter' in a fft3d [[run]]; valid: kind, name, "
                      "exchanges, iters, warmup"),
            std::string::npos);
  EXPECT_NE(error_of("[[run]]\nkind = \"alltoall\"\n\niters = \"ten\"\n")
                .find("deck.toml:4: iters must be an integer"),
            std::string::npos);
  EXPECT_NE(error_of("[[run]]\nkind = \"alltoall\"\nexchanges = [1, 2]\n")
                .find("deck.toml:3: exchanges must be a string or a list of strings"),
            std::string::npos);
  EXPECT_NE(error_of("[[run]]\niters = 3\n").find("deck.toml:1: [[run]] 1 needs kind"),
            std::string::npos);
  EXPECT_NE(error_of("[[run]]\nkind = \"fft4d\"\n")
                .find("deck.toml:2: kind = \"fft4d\" is not valid; expected alltoall, fft1d, "
                      "fft2d or fft3d"),
            std::string::npos);
  EXPECT_NE(error_of("[[run]]\nkind = \"fft1d\"\nlengths = [\n").find("deck.toml:"),
            std::string::npos);  // TOML syntax
  EXPECT_NE(error_of("[study]\nnmae = \"x\"\n[[run]]\nkind = \"fft1d\"\n")
                .find("deck.toml:2: unknown key 'nmae' in [study]; valid: name, output"),
            std::string::npos);
  EXPECT_NE(error_of("runs = 3\n").find("deck.toml:1: unknown entry 'runs'"), std::string::npos);
  EXPECT_NE(error_of("[study]\nname = \"x\"\n").find("the deck has no [[run]]"), std::string::npos);
  // A key of another kind is unknown here.
  EXPECT_NE(
      error_of("[[run]]\nkind = \"alltoall\"\ngrids = [\"2x1\"]\n").find("unknown key 'grids'"),
      std::string::npos);
}

TEST(Deck, the_shipped_decks_parse) {
  int decks = 0;
  for (const auto& entry : std::filesystem::directory_iterator(A2AFFT_SOURCE_DIR "/inputs")) {
    if (entry.path().extension() != ".toml") continue;
    ++decks;
    const Study study = parse_deck_file(entry.path().string());
    EXPECT_FALSE(study.invocations.empty()) << entry.path();
  }
  // demo, compare-all, radix-sweep and hpcc-fft for real machines; sim-* (nine, two of them the
  // 48-per-node studies of the cost model's validation) for simulated clusters: a deck that stops
  // being found here stops being checked.
  EXPECT_EQ(decks, 13);
}

}  // namespace
}  // namespace a2afft::deck
