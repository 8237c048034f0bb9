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

TEST(BlockSizes, buffers_that_cannot_be_addressed_are_refused) {
  EXPECT_NO_THROW(check_buffer_fits(std::size_t{1} << 40, 8, "--sizes"));
  try {
    check_buffer_fits(std::size_t{1} << 61, 8, "--sizes");
    FAIL() << "a size whose P blocks overflow was accepted";
  } catch (const UsageError& error) {
    EXPECT_NE(std::string(error.what()).find("--sizes=2305843009213693952 times 8 ranks"),
              std::string::npos)
        << error.what();
  }
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
  EXPECT_EQ(specs, (std::vector<ExchangeChoice>{
                       {"mpi", false}, {"nonblocking:batch=2", false}, {"factor", false}}));
  // `all` inside a list marks only what it stood for; a named spec stays named.
  const auto mixed = expand_exchange_specs({"all,tra2:r1=2"});
  ASSERT_GE(mixed.size(), 5u);
  EXPECT_TRUE(mixed.front().from_all);
  EXPECT_EQ(mixed.back(), (ExchangeChoice{"tra2:r1=2", false}));
  EXPECT_THROW(expand_exchange_specs({"mpi,pairwize"}), UsageError);
}

}  // namespace
}  // namespace a2afft::cli
