#pragma once
// ConsumedCapacity as a response reports it: units against one table and its
// indexes. metering/ computes the units; protocol/ renders them.

#include <cstdint>
#include <string>
#include <vector>

namespace dynamod {

enum class ReturnConsumedCapacity : std::uint8_t { None, Total, Indexes };

struct ConsumedCapacity {
  struct IndexUnits {
    std::string index_name;
    double read_units = 0;
    double write_units = 0;
    double total() const { return read_units + write_units; }
  };
  std::string table_name;
  double table_read_units = 0;
  double table_write_units = 0;
  std::vector<IndexUnits> global_indexes;
  std::vector<IndexUnits> local_indexes;

  double table_units() const { return table_read_units + table_write_units; }
  double total() const {
    double sum = table_units();
    for (const auto& i : global_indexes) sum += i.total();
    for (const auto& i : local_indexes) sum += i.total();
    return sum;
  }
};

}  // namespace dynamod
