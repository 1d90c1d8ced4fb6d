#include "storage/vector_builds.h"

#include <spdlog/spdlog.h>

#include <set>

#include "storage/index_job.h"
#include "storage/item_codec.h"
#include "storage/key_codec.h"
#include "storage/table_ops.h"
#include "storage/vector_entries.h"
#include "storage/vector_memory.h"

namespace dynamod {
namespace {

VectorIndexSchema* find(TableSchema& schema, std::uint32_t id) {
  for (auto& i : schema.vector_indexes) {
    if (i.id == id) return &i;
  }
  return nullptr;
}

class VectorIndexJob final : public IndexJobFrame<VectorIndexJob> {
 public:
  using IndexJobFrame::IndexJobFrame;

  bool step(WriteContext& ctx, const Table& table) {
    TableSchema schema = table.schema;
    const VectorIndexSchema* index = find(schema, index_id_);
    if (index == nullptr) return true;  // the index went away
    return index->status == IndexStatus::Creating ? backfill(ctx, table) : drop(ctx, table);
  }

 private:
  bool backfill(WriteContext& ctx, const Table& table) {
    TableSchema schema = table.schema;
    VectorIndexSchema& index = *find(schema, index_id_);
    if (!index.backfilling) {
      index.backfilling = true;
      ops::replace_schema(ctx, table, schema);
    }
    const std::string table_prefix = keys::key_space_prefix(table_id_);
    auto cursor = ctx.txn().cursor(ctx.dbs().items);
    auto entry = cursor.seek(resume_after_.empty() ? table_prefix : resume_after_);
    if (entry && entry->first == resume_after_) entry = cursor.next();
    // Collect the chunk first: writing while a cursor walks the same transaction is not allowed.
    std::vector<vectors::Entry> entries;
    int seen = 0;
    for (; entry && entry->first.substr(0, table_prefix.size()) == table_prefix && seen < kIndexJobChunk;
         entry = cursor.next(), ++seen) {
      resume_after_ = std::string(entry->first);
      Item item = items::decode(entry->second, ctx.store().names());
      // Items whose vector does not fit the new index are left out of it.
      if (auto e = vectors::entry_for(schema, index, item, entry->first, items::key_image(entry->second),
                                      ctx.store().names())) {
        entries.push_back(std::move(*e));
      }
    }
    bool finished = seen < kIndexJobChunk;
    for (const auto& e : entries) {
      if (ctx.txn().get(ctx.dbs().vectors, e.stored_key)) continue;  // already written by a client write
      ctx.txn().put(ctx.dbs().vectors, e.stored_key, e.value);
      ctx.store().vector_memory().stage_upsert(ctx, index, e.stored_key,
                                               vectors::view(e.value, index.dimensions).vector_bytes);
      ctx.add_stats(table.index_stats.at(index_id_), index_id_, 1, static_cast<std::int64_t>(e.bytes));
    }
    if (!finished) return false;
    index.status = IndexStatus::Active;
    index.backfilling = false;
    spdlog::info("vector index {} of table {} is ACTIVE", index.name, schema.name);
    ops::replace_schema(ctx, table, std::move(schema));
    return true;
  }

  bool drop(WriteContext& ctx, const Table& table) {
    ctx.store().vector_memory().stage_forget(ctx, index_id_);
    if (!delete_chunk(ctx, ctx.dbs().vectors, keys::key_space_prefix(index_id_))) return false;
    TableSchema schema = table.schema;
    std::string name = find(schema, index_id_)->name;
    std::erase_if(schema.vector_indexes, [&](const VectorIndexSchema& i) { return i.id == index_id_; });
    drop_unused_definitions(schema);
    ctx.txn().del(ctx.dbs().stats, Store::stats_key(index_id_));
    // The index's counters go with it (a Table keeps one per index id).
    Table without{table.ns, table.schema, table.stats, table.index_stats};
    without.index_stats.erase(index_id_);
    ops::replace_schema(ctx, without, std::move(schema));
    spdlog::info("vector index {} of table {} is deleted", name, table.schema.name);
    return true;
  }

  // Attribute definitions no key and no search schema uses any more leave the table.
  static void drop_unused_definitions(TableSchema& schema) {
    std::set<std::string> used = vector_search_attributes(schema);
    used.insert(schema.key.partition.name);
    if (schema.key.sort) used.insert(schema.key.sort->name);
    for (const auto* family : {&schema.local_indexes, &schema.global_indexes}) {
      for (const auto& i : *family) {
        used.insert(i.key.partition.name);
        if (i.key.sort) used.insert(i.key.sort->name);
      }
    }
    std::erase_if(schema.attribute_definitions, [&](const AttributeDefinition& a) { return !used.contains(a.name); });
  }
};

}  // namespace

std::optional<std::uint32_t> apply_vector_index_change(WriteContext& ctx, VectorIndexChange change, TableSchema& next,
                                                       std::map<std::uint32_t, std::shared_ptr<TableStats>>& stats) {
  if (change.create) {
    VectorIndexSchema index = std::move(*change.create);
    index.id = ops::allocate_id(ctx);
    index.status = IndexStatus::Creating;
    index.backfilling = false;
    stats[index.id] = std::make_shared<TableStats>();
    for (auto& d : change.new_definitions) next.attribute_definitions.push_back(std::move(d));
    std::uint32_t id = index.id;
    next.vector_indexes.push_back(std::move(index));
    return id;
  }
  if (change.delete_name) {
    for (auto& index : next.vector_indexes) {
      if (index.name == *change.delete_name) {
        index.status = IndexStatus::Deleting;
        return index.id;
      }
    }
  }
  return std::nullopt;
}

void schedule_vector_index_job(WriteQueue& queue, const std::string& ns, const std::string& table,
                               std::uint32_t table_id, std::uint32_t index_id) {
  queue.submit(std::make_unique<VectorIndexJob>(queue, ns, table, table_id, index_id));
}

void resume_vector_index_jobs(Store& store, WriteQueue& queue) {
  for (const TablePtr& table : store.catalog().all()) {
    for (const auto& index : table->schema.vector_indexes) {
      if (index.status == IndexStatus::Creating || index.status == IndexStatus::Deleting) {
        schedule_vector_index_job(queue, table->ns, table->schema.name, table->schema.id, index.id);
      } else {
        // Searched indexes are loaded on their first search; those that exist
        // at start are loaded at once, so the first search finds them ready.
        store.vector_memory().load(queue, index);
      }
    }
  }
}

}  // namespace dynamod
