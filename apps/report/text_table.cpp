#include "report/text_table.hpp"

#include <algorithm>
#include <iomanip>

namespace a2afft::report {
namespace {

// Columns on a terminal: one per UTF-8 character, so a describe() such as `auto→tra(radix=4)`
// (the arrow is three bytes) lines up with its column.
std::size_t display_width(const std::string& text) {
  return static_cast<std::size_t>(std::count_if(text.begin(), text.end(), [](char c) {
    return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  }));
}

}  // namespace

void TextTable::print(std::ostream& out) const {
  std::vector<std::size_t> widths;
  for (const Column& column : columns_)
    widths.push_back(display_width(column.header));
  for (const auto& row : rows_) {
    for (std::size_t c = 0; c < row.size() && c < widths.size(); ++c) {
      widths[c] = std::max(widths[c], display_width(row[c]));
    }
  }
  const auto print_row = [&](const auto& cell_of) {
    std::string line;
    for (std::size_t c = 0; c < columns_.size(); ++c) {
      const std::string cell = cell_of(c);
      const std::string padding(widths[c] - std::min(widths[c], display_width(cell)), ' ');
      line += (c == 0 ? "" : "  ") + (columns_[c].right_aligned ? padding + cell : cell + padding);
    }
    while (!line.empty() && line.back() == ' ')
      line.pop_back();
    out << line << '\n';
  };
  print_row([&](std::size_t c) { return columns_[c].header; });
  for (const auto& row : rows_) {
    print_row([&](std::size_t c) { return c < row.size() ? row[c] : std::string(); });
  }
}

}  // namespace a2afft::report
