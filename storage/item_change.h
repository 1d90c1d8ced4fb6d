#pragma once
// ItemChange: one item's change (put, replace or delete) and everything that
// follows from it: the table's record, each secondary index's entry, the item
// collection's size (tables with local secondary indexes), the counters, and
// the write capacity the indexes consume.
//
// plan() computes everything and enforces the limits (item size with its
// local index entries, item collection size) before anything is written;
// apply() then writes. Put, update, delete, batches and transactions share it.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "protocol/consumed_capacity.h"
#include "storage/index_entries.h"
#include "storage/item_ops.h"
#include "storage/vector_entries.h"
#include "storage/write_queue.h"

namespace dynamod {

// Item collection sizes as one job sees them while it plans several changes:
// the stored size, updated by the changes planned so far. Planning every
// change of a batch or transaction before applying any keeps the job
// all-or-nothing.
class CollectionSizes {
 public:
  std::uint64_t get(WriteContext& ctx, const std::string& key);
  void set(const std::string& key, std::uint64_t size) { sizes_[key] = size; }

 private:
  std::map<std::string, std::uint64_t> sizes_;
};

class ItemChange {
 public:
  ItemChange(const Table& table, const ops::ItemLocation& location) : table_(table), at_(location) {}

  // The item before and after (absent: none). `record` is the new item's
  // encoding. The old item need only be decoded for tables with indexes or a
  // stream. The change keeps the items: a planned change outlives its planner.
  void set_old(bool exists, std::optional<Item> item, std::uint64_t size) {
    old_exists_ = exists;
    old_ = std::move(item);
    old_size_ = size;
  }
  void set_new(std::optional<Item> item, std::string record, std::uint64_t size) {
    new_ = std::move(item);
    new_record_ = std::move(record);
    new_size_ = size;
  }

  // A delete by the TTL sweeper: its stream record names the service as the actor.
  void set_ttl_delete() { by_ttl_ = true; }

  // Computes index entries and collection sizes; throws the service's errors
  // (item or collection too large) before any write.
  void plan(WriteContext& ctx, CollectionSizes& sizes);
  void plan(WriteContext& ctx) {
    CollectionSizes sizes;
    plan(ctx, sizes);
  }
  void apply(WriteContext& ctx);

  // Adds the index writes to `consumed` (the table's own units are the caller's).
  void add_index_capacity(ConsumedCapacity& consumed, bool transactional) const;
  // For tables with local secondary indexes.
  std::optional<ItemCollectionMetrics> collection_metrics() const;

 private:
  struct IndexWrite {
    const IndexSchema* index = nullptr;
    bool global = false;
    std::optional<indexes::Entry> old_entry;
    std::optional<indexes::Entry> new_entry;
    int writes = 0;  // 0, 1 (put or delete) or 2 (moved between index keys)
  };

  struct VectorWrite {
    const VectorIndexSchema* index = nullptr;
    std::optional<vectors::Entry> old_entry;
    std::optional<vectors::Entry> new_entry;
    bool changed = false;
  };

  void plan_vectors(WriteContext& ctx);

  const Table& table_;
  const ops::ItemLocation& at_;
  bool old_exists_ = false;
  std::optional<Item> old_;
  std::uint64_t old_size_ = 0;
  std::optional<Item> new_;
  std::string new_record_;
  std::uint64_t new_size_ = 0;
  std::vector<IndexWrite> index_writes_;
  std::vector<VectorWrite> vector_writes_;
  std::optional<std::uint64_t> collection_size_;  // after the change
  std::string collection_key_;
  bool by_ttl_ = false;
};

}  // namespace dynamod
