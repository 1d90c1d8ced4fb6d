#include "storage/ledger.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "storage/store.h"
#include "storage/write_queue.h"

namespace dynamod {
namespace {

constexpr char kUsageTag = 'u';
constexpr char kPatternTag = 'p';
constexpr std::string_view kSinceKey = "s";

// Fixed-width fields, in the machine's byte order (the file never leaves it).
template <class T>
void put(std::string& out, T v) {
  out.append(reinterpret_cast<const char*>(&v), sizeof v);
}

template <class T>
T take(std::string_view& in) {
  T v{};
  if (in.size() < sizeof v) throw std::runtime_error("ledger: truncated record");
  std::memcpy(&v, in.data(), sizeof v);
  in.remove_prefix(sizeof v);
  return v;
}

std::string_view take_part(std::string_view& in) {
  std::size_t end = in.find('\0');
  std::string_view part = in.substr(0, end);
  in.remove_prefix(end == std::string_view::npos ? in.size() : end + 1);
  return part;
}

std::string usage_key(const UsageKey& k) {
  std::string out(1, kUsageTag);
  for (const std::string* part : {&k.ns, &k.table, &k.index}) {
    out += *part;
    out += '\0';
  }
  out += k.operation;
  return out;
}

std::string pattern_key(const PatternKey& k) {
  std::string out(1, kPatternTag);
  out += k.ns;
  out += '\0';
  out += k.table;
  out += '\0';
  out += k.shape;
  return out;
}

std::string encode(const UsageTotals& t) {
  std::string out;
  put(out, t.requests);
  put(out, t.read_units);
  put(out, t.write_units);
  put(out, t.peak_read_per_second);
  put(out, t.peak_write_per_second);
  put(out, t.vector_search_bytes);
  put(out, t.vector_write_bytes);
  return out;
}

UsageTotals decode_usage(std::string_view in) {
  UsageTotals t;
  t.requests = take<std::uint64_t>(in);
  t.read_units = take<double>(in);
  t.write_units = take<double>(in);
  t.peak_read_per_second = take<double>(in);
  t.peak_write_per_second = take<double>(in);
  // Totals saved before vector indexes end here.
  if (!in.empty()) {
    t.vector_search_bytes = take<double>(in);
    t.vector_write_bytes = take<double>(in);
  }
  return t;
}

std::string encode(const PatternTotals& t) {
  std::string out;
  put(out, t.count);
  put(out, t.read_units);
  put(out, t.write_units);
  put(out, t.items_read);
  put(out, t.items_returned);
  out += t.operation;
  out += '\0';
  out += t.index;
  out += '\0';
  put(out, t.vector_search_bytes);
  put(out, t.vector_write_bytes);
  return out;
}

PatternTotals decode_pattern(std::string_view in) {
  PatternTotals t;
  t.count = take<std::uint64_t>(in);
  t.read_units = take<double>(in);
  t.write_units = take<double>(in);
  t.items_read = take<std::uint64_t>(in);
  t.items_returned = take<std::uint64_t>(in);
  t.operation = std::string(take_part(in));
  // Totals saved before vector indexes end with the index's name.
  t.index = std::string(take_part(in));
  if (!in.empty()) {
    t.vector_search_bytes = take<double>(in);
    t.vector_write_bytes = take<double>(in);
  }
  return t;
}

}  // namespace

Ledger::Ledger(Store& store, bool recording) : store_(store), recording_(recording) {
  auto txn = store.read();
  since_ms_ = store.now_ms();
  since_dirty_ = true;
  if (auto since = txn.get(store.dbs().ledger, kSinceKey); since && since->size() == 8) {
    std::string_view v = *since;
    since_ms_ = take<std::int64_t>(v);
    since_dirty_ = false;
  }
  auto cursor = txn.cursor(store.dbs().ledger);
  for (auto e = cursor.first(); e; e = cursor.next()) {
    std::string_view key = e->first;
    if (key.empty()) continue;
    const char tag = key.front();
    key.remove_prefix(1);
    if (tag == kUsageTag) {
      UsageKey k;
      k.ns = take_part(key);
      k.table = take_part(key);
      k.index = take_part(key);
      k.operation = std::string(key);
      usage_[std::move(k)].totals = decode_usage(e->second);
    } else if (tag == kPatternTag) {
      PatternKey k;
      k.ns = take_part(key);
      k.table = take_part(key);
      k.shape = std::string(key);
      patterns_[std::move(k)].totals = decode_pattern(e->second);
    }
  }
}

Ledger::LiveUsage& Ledger::entry(const UsageView& key) {
  auto it = usage_.find(key);
  if (it == usage_.end()) {
    it = usage_
             .emplace(UsageKey{std::string(key.ns), std::string(key.table), std::string(key.index),
                               std::string(key.operation)},
                      LiveUsage{})
             .first;
  }
  return it->second;
}

Ledger::LiveUsage& Ledger::all_operations(std::string_view ns, std::string_view table, std::string_view index) {
  LiveUsage& live = entry({ns, table, index, kAllOperations});
  if (!live.series) live.series = std::make_unique<metering::UsageSeries>();
  return live;
}

void Ledger::add(LiveUsage& live, double read, double write, bool count_request, std::int64_t second) {
  if (live.second != second) {
    live.second = second;
    live.second_read = 0;
    live.second_write = 0;
  }
  live.second_read += read;
  live.second_write += write;
  UsageTotals& t = live.totals;
  t.requests += count_request ? 1 : 0;
  t.read_units += read;
  t.write_units += write;
  t.peak_read_per_second = std::max(t.peak_read_per_second, live.second_read);
  t.peak_write_per_second = std::max(t.peak_write_per_second, live.second_write);
  ++live.version;
}

void Ledger::record(std::string_view ns, std::string_view operation, const ConsumedCapacity& consumed,
                    std::int64_t now_ms, const AttributeValue* partition_key) {
  if (!recording_ || consumed.table_name.empty()) return;  // (or failed before it reached a table)
  const std::int64_t second = now_ms / 1000;
  const std::string_view table = consumed.table_name;
  std::lock_guard lock(mutex_);
  add(entry({ns, table, {}, operation}), consumed.table_read_units, consumed.table_write_units, true, second);
  // The all-operations entries give each table's and index's busiest second.
  // Local indexes use the table's capacity, so theirs count in the table's.
  double table_read = consumed.table_read_units;
  double table_write = consumed.table_write_units;
  for (const auto& index : consumed.local_indexes) {
    add(entry({ns, table, index.index_name, operation}), index.read_units, index.write_units, false, second);
    table_read += index.read_units;
    table_write += index.write_units;
  }
  LiveUsage& whole = all_operations(ns, table, {});
  add(whole, table_read, table_write, true, second);
  whole.series->add(now_ms, table_read, table_write, true);
  if (partition_key != nullptr) {
    if (!whole.hot_keys) whole.hot_keys = std::make_unique<metering::HotKeys>();
    whole.hot_keys->add(*partition_key, consumed.total());
  }
  for (const auto& index : consumed.global_indexes) {
    add(entry({ns, table, index.index_name, operation}), index.read_units, index.write_units, false, second);
    LiveUsage& global = all_operations(ns, table, index.index_name);
    add(global, index.read_units, index.write_units, false, second);
    global.series->add(now_ms, index.read_units, index.write_units, false);
  }
  for (const auto& index : consumed.vector_indexes) {
    for (LiveUsage* live :
         {&entry({ns, table, index.index_name, operation}), &all_operations(ns, table, index.index_name)}) {
      live->totals.vector_search_bytes += index.search_bytes;
      live->totals.vector_write_bytes += index.write_bytes;
      ++live->version;
    }
  }
}

void Ledger::record_throttled(std::string_view ns, std::string_view table, std::string_view index,
                              std::int64_t now_ms) {
  if (!recording_) return;
  std::lock_guard lock(mutex_);
  all_operations(ns, table, index).series->add_throttled(now_ms);
}

void Ledger::record_pattern(std::string_view ns, PatternUse use, const ConsumedCapacity& consumed) {
  if (!recording_) return;
  PatternKey key{std::string(ns), std::string(use.table), std::move(use.shape)};
  std::lock_guard lock(mutex_);
  LivePattern& live = patterns_[std::move(key)];
  PatternTotals& t = live.totals;
  if (t.operation.empty()) {
    t.operation = use.operation;
    t.index = use.index;
  }
  t.count += 1;
  t.read_units += consumed.table_read_units;
  t.write_units += consumed.table_write_units;
  for (const auto* family : {&consumed.global_indexes, &consumed.local_indexes}) {
    for (const auto& index : *family) {
      t.read_units += index.read_units;
      t.write_units += index.write_units;
    }
  }
  for (const auto& index : consumed.vector_indexes) {
    t.vector_search_bytes += index.search_bytes;
    t.vector_write_bytes += index.write_bytes;
  }
  t.items_read += use.items_read;
  t.items_returned += use.items_returned;
  ++live.version;
}

void Ledger::save(WriteContext& ctx) {
  // An entry counts as saved once the commit holding it succeeded; changes
  // made in between keep it due for the next save.
  std::vector<std::pair<const UsageKey*, std::uint64_t>> saved_usage;
  std::vector<std::pair<const PatternKey*, std::uint64_t>> saved_patterns;
  std::lock_guard lock(mutex_);
  lmdb::WriteTxn& txn = ctx.txn();
  const lmdb::Dbi db = ctx.dbs().ledger;
  if (since_dirty_) {
    std::string v;
    put(v, since_ms_);
    txn.put(db, kSinceKey, v);
  }
  for (const auto& [key, live] : usage_) {
    if (live.version == live.saved_version) continue;
    txn.put(db, usage_key(key), encode(live.totals));
    saved_usage.emplace_back(&key, live.version);
  }
  for (const auto& [key, live] : patterns_) {
    if (live.version == live.saved_version) continue;
    txn.put(db, pattern_key(key), encode(live.totals));
    saved_patterns.emplace_back(&key, live.version);
  }
  // Entries are never erased except by reset(), which runs on the writer too,
  // so the keys saved here are still in the maps after the commit.
  ctx.after_commit([this, generation = generation_, saved_usage = std::move(saved_usage),
                    saved_patterns = std::move(saved_patterns)] {
    std::lock_guard lock(mutex_);
    if (generation != generation_) return;  // reset in between: the keys are gone
    since_dirty_ = false;
    for (const auto& [key, version] : saved_usage) usage_.find(*key)->second.saved_version = version;
    for (const auto& [key, version] : saved_patterns) patterns_.find(*key)->second.saved_version = version;
  });
}

void Ledger::reset(WriteContext& ctx, std::int64_t now_ms) {
  std::lock_guard lock(mutex_);
  ctx.txn().clear(ctx.dbs().ledger);
  ++generation_;
  usage_.clear();
  patterns_.clear();
  since_ms_ = now_ms;
  std::string v;
  put(v, since_ms_);
  ctx.txn().put(ctx.dbs().ledger, kSinceKey, v);
  since_dirty_ = false;
}

Ledger::Snapshot Ledger::snapshot() const {
  std::lock_guard lock(mutex_);
  Snapshot s;
  s.since_ms = since_ms_;
  for (const auto& [key, live] : usage_) s.usage.emplace(key, live.totals);
  for (const auto& [key, live] : patterns_) s.patterns.emplace(key, live.totals);
  return s;
}

std::vector<Ledger::SeriesLine> Ledger::series(metering::UsageSeries::Resolution resolution,
                                               std::int64_t now_ms) const {
  std::vector<SeriesLine> out;
  std::lock_guard lock(mutex_);
  for (const auto& [key, live] : usage_) {
    if (!live.series) continue;
    out.push_back(SeriesLine{key.ns, key.table, key.index, live.series->points(resolution, now_ms)});
  }
  return out;
}

std::vector<Ledger::HotKeysLine> Ledger::hot_keys() const {
  std::vector<HotKeysLine> out;
  std::lock_guard lock(mutex_);
  for (const auto& [key, live] : usage_) {
    if (live.hot_keys) out.push_back(HotKeysLine{key.ns, key.table, live.hot_keys->top()});
  }
  return out;
}

}  // namespace dynamod
