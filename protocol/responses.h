#pragma once
// Rendering of the response members shared by several operations:
// TableDescription and ConsumedCapacity.

#include <map>
#include <string>
#include <string_view>

#include "protocol/consumed_capacity.h"
#include "protocol/json_writer.h"
#include "protocol/table_schema.h"

namespace dynamod {

// What ARNs are made of: the request's region and the configured account.
struct ArnContext {
  std::string_view region;
  std::string_view account_id;
};

std::string table_arn(const ArnContext& arn, std::string_view table_name);

enum class DescriptionShape : std::uint8_t {
  Full,     // CreateTable, DescribeTable, UpdateTable
  Deleted,  // DeleteTable: no key schema, definitions, indexes or creation time
};

// "KeySchema" and "Projection" values, as every description writes them.
void encode_key_schema(JsonWriter& out, const KeyDef& key);
void encode_projection(JsonWriter& out, const Projection& projection);
// An index's "IndexName", "KeySchema" and "Projection" members.
void encode_index_definition(JsonWriter& out, const IndexSchema& index);

// Counters of each index, by index id.
using IndexCounters = std::map<std::uint32_t, TableCounters>;

void encode_table_description(JsonWriter& out, const TableSchema& schema, const TableCounters& counters,
                              const IndexCounters& index_counters, const ArnContext& arn, DescriptionShape shape);

// Writes the "ConsumedCapacity" member when `mode` asks for it.
void encode_consumed_capacity(JsonWriter& out, const ConsumedCapacity& consumed, ReturnConsumedCapacity mode);
// One ConsumedCapacity object (for the lists of batch and transaction answers).
void encode_consumed_capacity_object(JsonWriter& out, const ConsumedCapacity& consumed, ReturnConsumedCapacity mode);
// "ConsumedCapacity": [...] of batches and transactions, one entry per table (nothing for NONE).
void encode_consumed_capacity_list(JsonWriter& out, const std::vector<ConsumedCapacity>& consumed,
                                   ReturnConsumedCapacity mode);

// One ItemCollectionMetrics object.
void encode_item_collection_metrics(JsonWriter& out, const ItemCollectionMetrics& metrics);

}  // namespace dynamod
