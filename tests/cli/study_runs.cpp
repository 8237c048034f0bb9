// usage: study_runs RESULTS.json RESULTS.csv
// Prints "N of M runs" for an `a2afft run` results pair and fails unless the JSON parses, is an
// a2afft-study/1 document whose runs are numbered 1..N with N <= M, and the CSV holds exactly
// the rows of those runs (each run's results, under the header): what an interrupted or resumed
// study must leave behind.
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: study_runs RESULTS.json RESULTS.csv\n";
    return 2;
  }
  std::ifstream json_file(argv[1]);
  const nlohmann::json document = nlohmann::json::parse(json_file, nullptr, false);
  if (document.is_discarded() || !document.is_object() ||
      document.value("schema", "") != "a2afft-study/1" || !document["runs"].is_array()) {
    std::cerr << "FAILED: " << argv[1] << " is not a valid a2afft-study/1 document\n";
    return 1;
  }
  const nlohmann::json& runs = document["runs"];
  const std::size_t planned = document["study"].value("runs", std::size_t{0});
  std::size_t expected_rows = 0;
  for (std::size_t k = 0; k < runs.size(); ++k) {
    if (runs[k].value("index", 0) != static_cast<int>(k + 1) || !runs[k]["results"].is_array()) {
      std::cerr << "FAILED: run " << k + 1 << " of " << argv[1] << " is not run " << k + 1
                << " with results\n";
      return 1;
    }
    expected_rows += runs[k]["results"].size();
  }
  std::ifstream csv_file(argv[2]);
  std::string line;
  std::size_t rows = 0;
  bool header = false;
  while (std::getline(csv_file, line)) {
    if (!header) {
      header = line.rfind("run,label,kind,", 0) == 0;
      if (!header) break;
      continue;
    }
    const std::size_t run = std::stoul(line.substr(0, line.find(',')));
    if (run < 1 || run > runs.size()) {
      std::cerr << "FAILED: a CSV row of run " << run << ", not in the JSON\n";
      return 1;
    }
    ++rows;
  }
  if (!header || rows != expected_rows) {
    std::cerr << "FAILED: " << argv[2] << (header ? "" : " has no header;") << " has " << rows
              << " rows, the JSON's runs have " << expected_rows << " results\n";
    return 1;
  }
  if (runs.size() > planned) {
    std::cerr << "FAILED: " << runs.size() << " runs, more than the " << planned << " planned\n";
    return 1;
  }
  std::cout << runs.size() << " of " << planned << " runs, " << rows << " CSV rows\n";
  return 0;
}
