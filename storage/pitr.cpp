#include "storage/pitr.h"

#include <limits>

#include "storage/key_codec.h"

namespace dynamod::pitr {
namespace {

constexpr std::size_t kTimeSize = 8;
constexpr char kExisted = 1;
constexpr char kAbsent = 0;

}  // namespace

void record_change(WriteContext& ctx, std::uint32_t table_id, std::string_view stored_key, std::int64_t now_ms) {
  const std::string_view item_key = stored_key.substr(keys::kTableIdSize);
  std::string key = keys::key_space_prefix(table_id);
  keys::append_u64(key, static_cast<std::uint64_t>(now_ms));
  key = keys::to_stored_key(key + std::string(item_key));
  if (ctx.txn().get(ctx.dbs().pitr_log, key)) return;  // an earlier change in this millisecond has it
  std::string value(1, kAbsent);
  value.push_back(static_cast<char>(item_key.size() >> 8));
  value.push_back(static_cast<char>(item_key.size() & 0xff));
  value += item_key;
  if (auto current = ctx.txn().get(ctx.dbs().items, stored_key)) {
    value[0] = kExisted;
    value += *current;
  }
  ctx.txn().put(ctx.dbs().pitr_log, key, value);
}

void trim(WriteContext& ctx, std::uint32_t table_id, std::int64_t before_ms) {
  const std::string prefix = keys::key_space_prefix(table_id);
  auto cursor = ctx.txn().cursor(ctx.dbs().pitr_log);
  for (auto entry = cursor.seek(prefix); entry && entry->first.substr(0, prefix.size()) == prefix;
       entry = cursor.seek(prefix)) {
    if (keys::read_u64(entry->first.substr(prefix.size())) >= static_cast<std::uint64_t>(before_ms)) break;
    cursor.del();
  }
}

void drop(WriteContext& ctx, std::uint32_t table_id) { trim(ctx, table_id, std::numeric_limits<std::int64_t>::max()); }

std::map<std::string, std::optional<std::string>> states_before_changes(const lmdb::TxnBase& txn, const Databases& dbs,
                                                                        std::uint32_t table_id, std::int64_t after_ms) {
  std::string start = keys::key_space_prefix(table_id);
  const std::string prefix = start;
  keys::append_u64(start, static_cast<std::uint64_t>(after_ms) + 1);
  std::map<std::string, std::optional<std::string>> states;
  auto cursor = txn.cursor(dbs.pitr_log);
  // Oldest first: an item's first change after the time holds its state then.
  for (auto entry = cursor.seek(start); entry && entry->first.substr(0, prefix.size()) == prefix;
       entry = cursor.next()) {
    std::string_view value = entry->second;
    const std::size_t length = (static_cast<unsigned char>(value[1]) << 8) | static_cast<unsigned char>(value[2]);
    std::string item_key(value.substr(3, length));
    if (states.contains(item_key)) continue;
    std::optional<std::string> record;
    if (value[0] == kExisted) record.emplace(value.substr(3 + length));
    states.emplace(std::move(item_key), std::move(record));
  }
  return states;
}

}  // namespace dynamod::pitr
