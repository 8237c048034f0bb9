#include "options.hpp"

#include <gtest/gtest.h>

#include "error.hpp"

namespace a2afft::cli {
namespace {

TEST(BlockSizes, lists_units_and_ranges) {
  EXPECT_EQ(parse_block_sizes("1,3,16,1000,65536", "--sizes"),
            (std::vector<std::size_t>{1, 3, 16, 1000, 65536}));
  EXPECT_EQ(parse_block_sizes("16:64K", "--sizes"),
            (std::vector<std::size_t>{16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384,
                                      32768, 65536}));
  EXPECT_EQ(parse_block_sizes("3:20,4KiB,1M,2G", "--sizes"),
            (std::vector<std::size_t>{3, 6, 12, 4096, 1 << 20, std::size_t{2} << 30}));
  EXPECT_EQ(parse_block_sizes("8:8", "--sizes"), (std::vector<std::size_t>{8}));
}

TEST(BlockSizes, bad_values_name_the_option_and_the_text) {
  for (const char* bad : {"0", "-4", "abc", "", "4x", "1,,2", "64:16", "K", "99999999999999999999",
                          "18446744073709551615K", "+5", "4.5"}) {
    try {
      parse_block_sizes(bad, "--sizes");
      ADD_FAILURE() << "accepted '" << bad << "'";
    } catch (const UsageError& error) {
      EXPECT_NE(std::string(error.what()).find("--sizes="), std::string::npos) << error.what();
    }
  }
}

TEST(ExchangeSpecs, all_expands_to_the_registry_and_typos_fail_early) {
  const auto specs = expand_exchange_specs({"mpi,nonblocking:batch=2", "factor"});
  EXPECT_EQ(specs, (std::vector<std::string>{"mpi", "nonblocking:batch=2", "factor"}));
  EXPECT_GE(expand_exchange_specs({"all"}).size(), 4u);
  EXPECT_THROW(expand_exchange_specs({"mpi,pairwize"}), UsageError);
}

}  // namespace
}  // namespace a2afft::cli
