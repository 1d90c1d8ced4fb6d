#pragma once
// Point-in-time recovery's history: while a table has it enabled, every item
// change first records the item as it was in "pitr_log":
//   table id ‖ change time in ms (u64 BE) ‖ the item's key after the table id
//   (in LMDB's truncated form when too long, see key_codec.h)
//   -> 00 (no item) or 01, the item's key length (u16 BE), key, record
// (the first change of an item in a millisecond keeps its entry: that is the
// state before the millisecond). A restore to time T takes the table's
// items as they are now and, for every item changed after T, the state its
// first later change recorded. The upkeep job trims entries older than the
// recovery period; disabling recovery or dropping the table drops them all.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "storage/write_queue.h"

namespace dynamod::pitr {

// Records the item at `stored_key` as it is before the change being applied.
void record_change(WriteContext& ctx, std::uint32_t table_id, std::string_view stored_key, std::int64_t now_ms);

// Drops the entries of `table_id` older than `before_ms`.
void trim(WriteContext& ctx, std::uint32_t table_id, std::int64_t before_ms);
// Drops all of them (recovery turned off, the table dropped).
void drop(WriteContext& ctx, std::uint32_t table_id);

// For every item changed after `after_ms`: its key (after the table id) and its
// record then (nullopt: it did not exist).
std::map<std::string, std::optional<std::string>> states_before_changes(const lmdb::TxnBase& txn, const Databases& dbs,
                                                                        std::uint32_t table_id, std::int64_t after_ms);

}  // namespace dynamod::pitr
