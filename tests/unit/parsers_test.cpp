// The tools' parsers (include/a2afft/tools/fft_tools.hpp): what they accept, and errors that name
// the value as the caller calls it (the API's word by default, a flag when a command passes one).

#include <gtest/gtest.h>

#include <a2afft/tools/fft_tools.hpp>

#include <string>

namespace a2afft {
namespace {

using Shape3 = std::array<std::size_t, 3>;

TEST(ParseGrid, accepts_p0xp1_multiplying_to_the_ranks) {
  EXPECT_EQ(parse_grid("4x1", 4), (std::array<int, 2>{4, 1}));
  EXPECT_EQ(parse_grid("2x3", 6), (std::array<int, 2>{2, 3}));
  for (const char* bad : {"3x1", "2x", "x2", "0x4", "2y2", "", "-2x-2", "4"}) {
    EXPECT_THROW(parse_grid(bad, 4), UsageError) << bad;
  }
  try {
    parse_grid("3x1", 4);
    ADD_FAILURE() << "accepted 3x1 on 4 ranks";
  } catch (const UsageError& error) {
    EXPECT_NE(std::string(error.what()).find("p0 * p1 = 4, e.g. 2x2"), std::string::npos)
        << error.what();
    EXPECT_EQ(std::string(error.what()).rfind("grid=3x1 has 3 ranks", 0), 0u) << error.what();
  }
}

TEST(Shape, cubes_triples_and_bad_sizes) {
  EXPECT_EQ(parse_shape("128"), (Shape3{128, 128, 128}));
  EXPECT_EQ(parse_shape("64x96x80"), (Shape3{64, 96, 80}));
  for (const char* bad :
       {"0", "64x0x8", "12x10", "1x2x3x4", "abc", "", "8x8x", "-8", "4294967296"}) {
    try {
      parse_shape(bad);
      ADD_FAILURE() << "accepted " << bad;
    } catch (const UsageError& error) {
      // By default the parser speaks of a shape, never of a command's flag.
      EXPECT_EQ(std::string(error.what()).rfind(std::string("shape=") + bad, 0), 0u)
          << error.what();
      EXPECT_EQ(std::string(error.what()).find("--"), std::string::npos) << error.what();
    }
  }
  try {
    parse_shape("12x10", "--size");
    ADD_FAILURE() << "accepted 12x10";
  } catch (const UsageError& error) {
    EXPECT_EQ(std::string(error.what()).rfind("--size=12x10 is not valid", 0), 0u) << error.what();
  }
}

TEST(ParseLength, accepts_plain_numbers_powers_and_products) {
  EXPECT_EQ(parse_length("1048576"), std::size_t{1} << 20);
  EXPECT_EQ(parse_length("2^24"), std::size_t{1} << 24);
  EXPECT_EQ(parse_length("2^4*3^2*5"), std::size_t{720});
  EXPECT_EQ(parse_length("7"), std::size_t{7});
  EXPECT_EQ(parse_length("2^40"), std::size_t{1} << 40);
  // One to any power is one, at once (the fuzzer found 1^huge looping for minutes).
  EXPECT_EQ(parse_length("1^18446744073709551615*3"), std::size_t{3});
}

TEST(ParseLength, rejects_zero_garbage_and_overflow_naming_the_option) {
  for (const char* bad :
       {"0", "", "2^", "^4", "2^x", "2**3", "-4", "1e6", "2^41", "3^30", "0^2", "4*", "2^64*2"}) {
    try {
      parse_length(bad, "--n");
      FAIL() << bad << " was accepted";
    } catch (const UsageError& error) {
      EXPECT_EQ(std::string(error.what()).rfind(std::string("--n=") + bad + " is not valid", 0), 0u)
          << error.what();
    }
  }
}

TEST(ParseRigor, accepts_the_three_words_and_names_the_option) {
  EXPECT_EQ(parse_rigor("estimate"), Rigor::estimate);
  EXPECT_EQ(parse_rigor("measure"), Rigor::measure);
  EXPECT_EQ(parse_rigor("patient"), Rigor::patient);
  try {
    parse_rigor("exhaustive");
    ADD_FAILURE() << "accepted exhaustive";
  } catch (const UsageError& error) {
    EXPECT_EQ(std::string(error.what()),
              "rigor=exhaustive is not valid; expected estimate, measure or patient");
  }
}

}  // namespace
}  // namespace a2afft
