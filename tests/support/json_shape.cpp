// usage: json_shape ACTUAL.json GOLDEN_SHAPE.json [--write]
// Compares the shape of a JSON document (its keys, and the type of every value; an array's
// shape is the set of its elements' shapes) with a golden shape file, so that a results
// schema cannot change by accident while the numbers in it may. --write regenerates the golden
// file after an intended change.
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <set>

namespace {

nlohmann::json shape_of(const nlohmann::json& value) {
  if (value.is_object()) {
    nlohmann::json shape = nlohmann::json::object();
    for (const auto& [key, item] : value.items())
      shape[key] = shape_of(item);
    return shape;
  }
  if (value.is_array()) {
    std::set<std::string> seen;
    nlohmann::json shape = nlohmann::json::array();
    for (const nlohmann::json& item : value) {
      nlohmann::json element = shape_of(item);
      if (seen.insert(element.dump()).second) shape.push_back(std::move(element));
    }
    return shape;
  }
  if (value.is_number()) return "number";
  if (value.is_string()) return "string";
  if (value.is_boolean()) return "boolean";
  return "null";
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::cerr << "usage: json_shape ACTUAL.json GOLDEN_SHAPE.json [--write]\n";
    return 2;
  }
  std::ifstream actual_file(argv[1]);
  const nlohmann::json actual = nlohmann::json::parse(actual_file, nullptr, false);
  if (actual.is_discarded()) {
    std::cerr << argv[1] << ": not JSON\n";
    return 1;
  }
  const nlohmann::json shape = shape_of(actual);
  if (argc > 3 && std::string(argv[3]) == "--write") {
    std::ofstream(argv[2]) << shape.dump(2) << '\n';
    return 0;
  }
  std::ifstream golden_file(argv[2]);
  const nlohmann::json golden = nlohmann::json::parse(golden_file, nullptr, false);
  if (shape == golden) {
    std::cout << "ok: " << argv[1] << " has the golden shape " << argv[2] << '\n';
    return 0;
  }
  std::cout << "FAILED: " << argv[1] << " differs from the golden shape " << argv[2] << ":\n"
            << nlohmann::json::diff(golden, shape).dump(2) << '\n';
  return 1;
}
