#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace a2afft::report {

/// A plain-text table for the console: a header row, columns as wide as their widest cell,
/// numbers right-aligned.
class TextTable {
 public:
  struct Column {
    std::string header;
    bool right_aligned = false;
  };

  explicit TextTable(std::vector<Column> columns) : columns_(std::move(columns)) {}
  void add_row(std::vector<std::string> cells) { rows_.push_back(std::move(cells)); }
  void print(std::ostream& out) const;

 private:
  std::vector<Column> columns_;
  std::vector<std::vector<std::string>> rows_;
};

}  // namespace a2afft::report
