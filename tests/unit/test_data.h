#pragma once
// Test data files under tests/unit/data.

#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

namespace dynamod::test {

inline std::string data_path(const std::string& relative) { return std::string(DYNAMOD_TEST_DATA) + "/" + relative; }

inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

}  // namespace dynamod::test
