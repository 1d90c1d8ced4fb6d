#include "storage/item_change.h"

#include <algorithm>
#include <cstring>

#include "metering/capacity.h"
#include "protocol/key_validation.h"
#include "storage/item_codec.h"
#include "storage/key_codec.h"
#include "storage/pitr.h"
#include "storage/streams.h"
#include "storage/vector_memory.h"

namespace dynamod {
namespace {

std::uint64_t read_u64(std::string_view bytes) {
  std::uint64_t v = 0;
  if (bytes.size() == 8) std::memcpy(&v, bytes.data(), 8);
  return v;
}

// Whether two images of an item hold the same attributes for `index`'s entry
// (comparing values is cheaper than building both entries: a write that leaves a
// 768-number vector as it was would convert it twice).
bool same_vector_entry(const TableSchema& table, const VectorIndexSchema& index, const Item& a, const Item& b) {
  for (const auto& [name, value] : a) {
    if (!vectors::projects(table, index, name)) continue;
    const AttributeValue* other = b.find(name);
    if (other == nullptr || !(*other == value)) return false;
  }
  for (const auto& [name, value] : b) {
    if (vectors::projects(table, index, name) && a.find(name) == nullptr) return false;
  }
  return true;
}

}  // namespace

std::uint64_t CollectionSizes::get(WriteContext& ctx, const std::string& key) {
  auto it = sizes_.find(key);
  if (it != sizes_.end()) return it->second;
  auto stored = ctx.txn().get(ctx.dbs().collections, key);
  return stored ? read_u64(*stored) : 0;
}

void ItemChange::plan_vectors(WriteContext& ctx) {
  vector_writes_.clear();
  for (const auto& index : table_.schema.vector_indexes) {
    if (index.status == IndexStatus::Deleting) continue;  // its entries are being removed
    if (old_ && new_ && same_vector_entry(table_.schema, index, *old_, *new_)) continue;
    VectorWrite w;
    w.index = &index;
    auto& names = ctx.store().names();
    if (old_) w.old_entry = vectors::entry_for(table_.schema, index, *old_, at_.stored_key, at_.key_image, names);
    if (new_) w.new_entry = vectors::entry_for(table_.schema, index, *new_, at_.stored_key, at_.key_image, names);
    w.changed = w.old_entry.has_value() != w.new_entry.has_value() ||
                (w.old_entry &&
                 (w.old_entry->stored_key != w.new_entry->stored_key || w.old_entry->value != w.new_entry->value));
    if (w.changed) vector_writes_.push_back(std::move(w));
  }
}

void ItemChange::plan(WriteContext& ctx, CollectionSizes& sizes) {
  const TableSchema& schema = table_.schema;
  std::uint64_t old_local_bytes = 0;
  std::uint64_t new_local_bytes = 0;
  index_writes_.clear();
  plan_vectors(ctx);
  for (bool global : {false, true}) {
    for (const auto& index : global ? schema.global_indexes : schema.local_indexes) {
      if (index.status == IndexStatus::Deleting) continue;  // its entries are being removed
      IndexWrite w;
      w.index = &index;
      w.global = global;
      if (old_) w.old_entry = indexes::entry_for(schema, index, *old_, ctx.store().names());
      if (new_) w.new_entry = indexes::entry_for(schema, index, *new_, ctx.store().names());
      if (w.old_entry && w.new_entry) {
        if (w.old_entry->stored_key != w.new_entry->stored_key) {
          w.writes = 2;
        } else if (w.old_entry->record != w.new_entry->record) {
          w.writes = 1;
        }
      } else if (w.old_entry || w.new_entry) {
        w.writes = 1;
      }
      if (!global) {
        if (w.old_entry) old_local_bytes += w.old_entry->size;
        if (w.new_entry) new_local_bytes += w.new_entry->size;
      }
      index_writes_.push_back(std::move(w));
    }
  }
  if (schema.local_indexes.empty()) return;
  // With local indexes, an item's size includes its local index entries.
  if (!new_record_.empty() && new_size_ + new_local_bytes > kMaxItemSize) {
    throw ApiError::validation(kItemTooLarge);
  }
  collection_key_ = keys::partition_prefix(schema.id, at_.key.partition);
  std::uint64_t current = sizes.get(ctx, collection_key_);
  std::uint64_t before = (old_exists_ ? old_size_ : 0) + old_local_bytes;
  std::uint64_t after = (new_record_.empty() ? 0 : new_size_) + new_local_bytes;
  std::uint64_t next = current - std::min(current, before) + after;
  // A write that grows a full collection fails; one that shrinks it succeeds.
  if (after > before && next > ctx.store().item_collection_limit()) {
    throw ApiError(ErrorCode::ItemCollectionSizeLimitExceededException, "Collection size exceeded.");
  }
  collection_size_ = next;
  sizes.set(collection_key_, next);
}

void ItemChange::apply(WriteContext& ctx) {
  auto& txn = ctx.txn();
  std::int64_t item_delta = (new_record_.empty() ? 0 : 1) - (old_exists_ ? 1 : 0);
  std::int64_t byte_delta = static_cast<std::int64_t>(new_record_.empty() ? 0 : new_size_) -
                            static_cast<std::int64_t>(old_exists_ ? old_size_ : 0);
  if (table_.schema.point_in_time_recovery.enabled) {
    pitr::record_change(ctx, table_.schema.id, at_.stored_key, ctx.store().now_ms());
  }
  if (!new_record_.empty()) {
    txn.put(ctx.dbs().items, at_.stored_key, new_record_);
  } else if (old_exists_) {
    txn.del(ctx.dbs().items, at_.stored_key);
  }
  ctx.add_stats(table_, item_delta, byte_delta);
  for (const IndexWrite& w : index_writes_) {
    if (w.writes == 0) continue;
    if (w.old_entry && (!w.new_entry || w.old_entry->stored_key != w.new_entry->stored_key)) {
      txn.del(ctx.dbs().indexes, w.old_entry->stored_key);
    }
    if (w.new_entry) txn.put(ctx.dbs().indexes, w.new_entry->stored_key, w.new_entry->record);
    std::int64_t entries = (w.new_entry ? 1 : 0) - (w.old_entry ? 1 : 0);
    std::int64_t bytes = static_cast<std::int64_t>(w.new_entry ? w.new_entry->size : 0) -
                         static_cast<std::int64_t>(w.old_entry ? w.old_entry->size : 0);
    ctx.add_stats(table_.stats_of(*w.index), w.index->id, entries, bytes);
  }
  auto& vector_memory = ctx.store().vector_memory();
  for (const VectorWrite& w : vector_writes_) {
    if (w.old_entry && (!w.new_entry || w.old_entry->stored_key != w.new_entry->stored_key)) {
      txn.del(ctx.dbs().vectors, w.old_entry->stored_key);
      vector_memory.stage_erase(ctx, w.index->id, w.old_entry->stored_key);
    }
    if (w.new_entry) {
      txn.put(ctx.dbs().vectors, w.new_entry->stored_key, w.new_entry->value);
      vector_memory.stage_upsert(ctx, *w.index, w.new_entry->stored_key,
                                 vectors::view(w.new_entry->value, w.index->dimensions).vector_bytes);
    }
    std::int64_t entries = (w.new_entry ? 1 : 0) - (w.old_entry ? 1 : 0);
    std::int64_t bytes = static_cast<std::int64_t>(w.new_entry ? w.new_entry->bytes : 0) -
                         static_cast<std::int64_t>(w.old_entry ? w.old_entry->bytes : 0);
    ctx.add_stats(table_.index_stats.at(w.index->id), w.index->id, entries, bytes);
  }
  if (table_.schema.stream && table_.schema.stream->enabled) {
    Item keys;
    keys.set(table_.schema.key.partition.name, at_.key.partition);
    if (table_.schema.key.sort) keys.set(table_.schema.key.sort->name, *at_.key.sort);
    // Writes prepared before the stream was enabled may not have kept their item.
    if (!new_ && !new_record_.empty()) new_ = items::decode(new_record_, ctx.store().names());
    // The old item is decoded whenever the table has a stream (see item_ops.cpp).
    streams::record_change(ctx, table_, keys, old_ ? &*old_ : nullptr, new_ ? &*new_ : nullptr, by_ttl_);
  }
  if (collection_size_) {
    if (*collection_size_ == 0) {
      txn.del(ctx.dbs().collections, collection_key_);
    } else {
      std::uint64_t v = *collection_size_;
      txn.put(ctx.dbs().collections, collection_key_, std::string_view(reinterpret_cast<const char*>(&v), 8));
    }
  }
}

void ItemChange::add_index_capacity(ConsumedCapacity& consumed, bool transactional) const {
  for (const IndexWrite& w : index_writes_) {
    if (w.writes == 0) continue;
    double units = 0;
    // A put is sized by the new entry, a delete by the old one; a move is both.
    if (w.writes == 2) {
      units = metering::write_units(w.old_entry->size, transactional) +
              metering::write_units(w.new_entry->size, transactional);
    } else if (w.new_entry && w.old_entry) {
      units = metering::write_units(std::max(w.old_entry->size, w.new_entry->size), transactional);
    } else {
      units = metering::write_units(w.new_entry ? w.new_entry->size : w.old_entry->size, transactional);
    }
    consumed.index(w.index->name, w.global).write_units += units;
  }
  // VectorWriteRequestBytes: what is replicated to the index, the new entry
  // (or, for a removal, the old one: dynamod's guess), at least 1,024 bytes an
  // index; a write that leaves the entry as it was costs none (the service,
  // tier2 vectorSearch/consumedCapacity.test.ts, measured 2026-08-18).
  for (const VectorWrite& w : vector_writes_) {
    std::uint64_t bytes = w.new_entry ? w.new_entry->bytes : w.old_entry->bytes;
    consumed.vector_index(w.index->name).write_bytes +=
        static_cast<double>(std::max(bytes, metering::kVectorWriteFloorBytes));
  }
}

std::optional<ItemCollectionMetrics> ItemChange::collection_metrics() const {
  if (!collection_size_) return std::nullopt;
  ItemCollectionMetrics metrics;
  metrics.key.set(table_.schema.key.partition.name, at_.key.partition);
  // The service reports a range around the size in GB: [floor, floor + 1].
  double gb = static_cast<double>(*collection_size_) / static_cast<double>(1ull << 30);
  metrics.lower_gb = static_cast<double>(static_cast<std::uint64_t>(gb));
  metrics.upper_gb = metrics.lower_gb + 1;
  return metrics;
}

}  // namespace dynamod
