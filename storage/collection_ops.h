#pragma once
// The largest item collections of a table (items sharing a partition key in a
// table with local secondary indexes), which may not grow past the store's
// item collection limit: what the console draws against that limit.

#include <cstdint>
#include <vector>

#include "protocol/attribute_value.h"
#include "storage/catalog.h"
#include "storage/store.h"

namespace dynamod::ops {

struct CollectionSize {
  AttributeValue partition;  // the collection's partition key value
  std::uint64_t bytes = 0;   // its items and local index entries, as DynamoDB sizes them
};

// At most `count` collections, the largest first. A table without local
// indexes has none. Reads every collection entry of the table once.
std::vector<CollectionSize> largest_item_collections(Store& store, const Table& table, std::size_t count);

}  // namespace dynamod::ops
