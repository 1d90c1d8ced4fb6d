#pragma once
// ConsumedCapacity as a response reports it: units against one table and its
// indexes; and ItemCollectionMetrics. metering/ computes the units;
// protocol/ renders them.

#include <cstdint>
#include <string>
#include <vector>

#include "protocol/attribute_value.h"

namespace dynamod {

enum class ReturnConsumedCapacity : std::uint8_t { None, Total, Indexes };

struct ConsumedCapacity {
  struct IndexUnits {
    std::string index_name;
    double read_units = 0;
    double write_units = 0;
    double total() const { return read_units + write_units; }
  };
  // Transactions also report ReadCapacityUnits or WriteCapacityUnits.
  enum class Detail : std::uint8_t { None, Read, Write };
  Detail detail = Detail::None;
  std::string table_name;
  double table_read_units = 0;
  double table_write_units = 0;
  std::vector<IndexUnits> global_indexes;
  std::vector<IndexUnits> local_indexes;
  // Vector indexes are metered in bytes, apart from the units (VectorCapacity).
  struct VectorBytes {
    std::string index_name;
    double write_bytes = 0;
    double search_bytes = 0;
  };
  std::vector<VectorBytes> vector_indexes;

  double table_units() const { return table_read_units + table_write_units; }
  double total() const {
    double sum = table_units();
    for (const auto& i : global_indexes) sum += i.total();
    for (const auto& i : local_indexes) sum += i.total();
    return sum;
  }
  // The entry of an index, added on first use.
  IndexUnits& index(std::string_view name, bool global) {
    auto& family = global ? global_indexes : local_indexes;
    for (auto& i : family) {
      if (i.index_name == name) return i;
    }
    family.push_back({std::string(name)});
    return family.back();
  }
  VectorBytes& vector_index(std::string_view name) {
    for (auto& i : vector_indexes) {
      if (i.index_name == name) return i;
    }
    vector_indexes.push_back({std::string(name)});
    return vector_indexes.back();
  }
};

// ItemCollectionMetrics of a write to a table with local secondary indexes.
struct ItemCollectionMetrics {
  Item key;  // the partition key attribute
  double lower_gb = 0;
  double upper_gb = 0;
};

}  // namespace dynamod
