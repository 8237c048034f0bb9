#include "registry.hpp"

#include <gtest/gtest.h>

#include <set>

#include "error.hpp"

namespace a2afft {
namespace {

TEST(Registry, names_are_unique_and_rows_complete) {
  std::set<std::string_view> names;
  for (const ExchangeInfo* info : registered_exchanges()) {
    EXPECT_TRUE(names.insert(info->name).second) << info->name;
    EXPECT_FALSE(info->summary.empty()) << info->name;
    EXPECT_FALSE(info->source.empty()) << info->name;
    EXPECT_NE(info->make, nullptr) << info->name;
    ASSERT_FALSE(info->examples.empty()) << info->name;
    for (std::string_view example : info->examples) {
      const Spec spec = parse_spec(example);
      EXPECT_EQ(spec.name, info->name) << example;
      for (const SpecParam& param : spec.params) {
        bool declared = false;
        for (const ParamInfo& known : info->params)
          declared |= known.key == param.key;
        EXPECT_TRUE(declared) << example << " uses undeclared key " << param.key;
      }
    }
  }
  for (const char* required : {"mpi", "pairwise", "nonblocking", "factor"}) {
    EXPECT_TRUE(names.count(required)) << required;
  }
}

TEST(Registry, unknown_names_list_the_valid_ones) {
  try {
    find_exchange("pairwize");
    FAIL() << "found a backend that does not exist";
  } catch (const UsageError& error) {
    const std::string text = error.what();
    EXPECT_NE(text.find("unknown exchange 'pairwize'"), std::string::npos) << text;
    EXPECT_NE(text.find("pairwise"), std::string::npos) << text;
  }
  EXPECT_EQ(find_exchange("factor").name, "factor");
}

TEST(Registry, unknown_keys_list_the_valid_ones) {
  try {
    check_spec(parse_spec("nonblocking:bach=2"));
    FAIL() << "accepted an unknown key";
  } catch (const UsageError& error) {
    EXPECT_STREQ(error.what(), "nonblocking has no parameter 'bach'; valid: batch");
  }
  EXPECT_THROW(check_spec(parse_spec("mpi:radix=2")), UsageError);
  EXPECT_NO_THROW(check_spec(parse_spec("nonblocking:batch=2")));
}

}  // namespace
}  // namespace a2afft
