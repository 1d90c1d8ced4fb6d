#include "storage/index_builds.h"

#include <spdlog/spdlog.h>

#include <set>

#include "protocol/vector_index.h"
#include "storage/index_entries.h"
#include "storage/index_job.h"
#include "storage/item_codec.h"
#include "storage/key_codec.h"
#include "storage/schema_codec.h"

namespace dynamod {
namespace {

class IndexJob final : public IndexJobFrame<IndexJob> {
 public:
  using IndexJobFrame::IndexJobFrame;

  bool step(WriteContext& ctx, const Table& table) {
    const IndexSchema* index = find(table.schema);
    if (index == nullptr) return true;  // the index went away
    return index->status == IndexStatus::Creating ? backfill(ctx, table, *index) : drop(ctx, table, *index);
  }

 private:
  const IndexSchema* find(const TableSchema& schema) const {
    for (const auto& i : schema.global_indexes) {
      if (i.id == index_id_) return &i;
    }
    return nullptr;
  }

  std::string start_key() const {
    if (!resume_after_.empty()) return resume_after_;
    return keys::key_space_prefix(index_id_);
  }

  // Publishes a changed schema (status, backfilling) for the table.
  static void save(WriteContext& ctx, const Table& table, TableSchema schema,
                   std::map<std::uint32_t, std::shared_ptr<TableStats>> index_stats) {
    auto next = std::make_shared<Table>(Table{table.ns, std::move(schema), table.stats, std::move(index_stats)});
    ctx.txn().put(ctx.dbs().catalog, Store::catalog_key(next->ns, next->schema.name), encode_schema(next->schema));
    ctx.stage_table(std::move(next));
  }

  bool backfill(WriteContext& ctx, const Table& table, const IndexSchema& index) {
    if (!index.backfilling) {
      TableSchema schema = table.schema;
      for (auto& i : schema.global_indexes) {
        if (i.id == index_id_) i.backfilling = true;
      }
      save(ctx, table, std::move(schema), table.index_stats);
    }
    const std::string table_prefix = keys::key_space_prefix(table_id_);
    auto cursor = ctx.txn().cursor(ctx.dbs().items);
    auto entry = cursor.seek(resume_after_.empty() ? table_prefix : resume_after_);
    if (entry && entry->first == resume_after_) entry = cursor.next();
    // Collect the chunk first: writing while a cursor walks the same transaction is not allowed.
    std::vector<indexes::Entry> entries;
    int seen = 0;
    for (; entry && entry->first.substr(0, table_prefix.size()) == table_prefix && seen < kIndexJobChunk;
         entry = cursor.next(), ++seen) {
      resume_after_ = std::string(entry->first);
      Item item = items::decode(entry->second, ctx.store().names());
      try {
        indexes::check_index_keys(table.schema, item);
      } catch (const ApiError&) {
        continue;  // keys that do not fit the new index: not indexed (the service skips them too)
      }
      if (auto e = indexes::entry_for(table.schema, index, item, ctx.store().names())) entries.push_back(std::move(*e));
    }
    bool finished = seen < kIndexJobChunk;
    for (const auto& e : entries) {
      if (ctx.txn().get(ctx.dbs().indexes, e.stored_key)) continue;  // already written by a client write
      ctx.txn().put(ctx.dbs().indexes, e.stored_key, e.record);
      ctx.add_stats(table.stats_of(index), index.id, 1, static_cast<std::int64_t>(e.size));
    }
    if (!finished) return false;
    TableSchema schema = table.schema;
    for (auto& i : schema.global_indexes) {
      if (i.id == index_id_) {
        i.status = IndexStatus::Active;
        i.backfilling = false;
      }
    }
    save(ctx, table, std::move(schema), table.index_stats);
    spdlog::info("index {} of table {} is ACTIVE", index.name, table.schema.name);
    return true;
  }

  bool drop(WriteContext& ctx, const Table& table, const IndexSchema& index) {
    if (!delete_chunk(ctx, ctx.dbs().indexes, keys::key_space_prefix(index_id_))) return false;
    // All entries gone: the index leaves the schema, and so do attribute
    // definitions no remaining key uses.
    TableSchema schema = table.schema;
    std::erase_if(schema.global_indexes, [&](const IndexSchema& i) { return i.id == index_id_; });
    std::set<std::string> used = vector_search_attributes(schema);
    used.insert(schema.key.partition.name);
    if (schema.key.sort) used.insert(schema.key.sort->name);
    for (const auto* family : {&schema.local_indexes, &schema.global_indexes}) {
      for (const auto& i : *family) {
        for (const KeyElement* k : i.key.partition_elements()) used.insert(k->name);
        for (const KeyElement* k : i.key.sort_elements()) used.insert(k->name);
      }
    }
    std::erase_if(schema.attribute_definitions, [&](const AttributeDefinition& a) { return !used.contains(a.name); });
    auto stats = table.index_stats;
    stats.erase(index_id_);
    ctx.txn().del(ctx.dbs().stats, Store::stats_key(index_id_));
    save(ctx, table, std::move(schema), std::move(stats));
    spdlog::info("index {} of table {} is deleted", index.name, table.schema.name);
    return true;
  }
};

}  // namespace

void schedule_index_job(WriteQueue& queue, const std::string& ns, const std::string& table, std::uint32_t table_id,
                        std::uint32_t index_id) {
  queue.submit(std::make_unique<IndexJob>(queue, ns, table, table_id, index_id));
}

void resume_index_jobs(Store& store, WriteQueue& queue) {
  for (const TablePtr& table : store.catalog().all()) {
    for (const auto& index : table->schema.global_indexes) {
      if (index.status == IndexStatus::Creating || index.status == IndexStatus::Deleting) {
        schedule_index_job(queue, table->ns, table->schema.name, table->schema.id, index.id);
      }
    }
  }
}

}  // namespace dynamod
