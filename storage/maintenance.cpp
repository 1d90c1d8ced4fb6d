#include "storage/maintenance.h"

#include <spdlog/spdlog.h>

#include <cstring>

#include "protocol/key_validation.h"
#include "storage/backup_ops.h"
#include "storage/item_change.h"
#include "storage/item_codec.h"
#include "storage/key_codec.h"
#include "storage/pitr.h"
#include "storage/streams.h"

namespace dynamod {
namespace {

constexpr int kSweepChunk = 5000;  // items examined per table per round
constexpr int kTrimChunk = 10000;  // stream records removed per round
// TTL values further in the past than this are taken for a mistake (say,
// milliseconds), and the item is kept, as the service does.
constexpr std::int64_t kMaxTtlAgeSeconds = 5ll * 365 * 24 * 3600;

std::optional<std::int64_t> epoch_seconds(const Item& item, const std::string& attribute) {
  const AttributeValue* v = item.find(attribute);
  if (v == nullptr || v->type() != AttributeType::N) return std::nullopt;
  const Number& n = v->as_number();
  if (n.negative() || n.exponent() > 18) return std::nullopt;
  // Whole seconds of a non-negative number below 10^18.
  std::int64_t seconds = 0;
  const std::string& digits = n.digits();
  for (int i = 0; i < n.exponent(); ++i) {
    seconds = seconds * 10 + (static_cast<std::size_t>(i) < digits.size() ? digits[i] - '0' : 0);
  }
  return seconds;
}

}  // namespace

class Maintenance::Job final : public WriteJob {
 public:
  explicit Job(Maintenance& owner) : owner_(owner) {}
  void run(WriteContext& ctx) override { owner_.run_once(ctx); }
  void fail(ApiError error) override { spdlog::error("maintenance: {}", error.message()); }
  void complete() override { owner_.job_queued_ = false; }

 private:
  Maintenance& owner_;
};

Maintenance::Maintenance(Store& store, WriteQueue& queue, Ledger& ledger, std::chrono::milliseconds interval)
    : store_(store), queue_(queue), ledger_(ledger), interval_(interval), thread_([this] { loop(); }) {}

Maintenance::~Maintenance() { stop(); }

void Maintenance::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_one();
  if (thread_.joinable()) thread_.join();
}

void Maintenance::loop() {
  std::unique_lock lock(mutex_);
  while (!wake_.wait_for(lock, interval_, [this] { return stopping_; })) {
    // One round at a time: a slow round is not piled up behind itself.
    if (!job_queued_.exchange(true)) queue_.submit(std::make_unique<Job>(*this));
  }
}

void Maintenance::run_once(WriteContext& ctx) {
  const double now = static_cast<double>(ctx.store().now_ms()) / 1000.0;
  for (const TablePtr& table : store_.catalog().all()) {
    if (table->schema.ttl && table->schema.ttl->enabled) sweep_table(ctx, *table);
    const PointInTimeRecovery& recovery = table->schema.point_in_time_recovery;
    if (recovery.enabled) {
      pitr::trim(ctx, table->schema.id, static_cast<std::int64_t>(recovery.earliest_restorable(now) * 1000.0));
    }
  }
  trim_streams(ctx);
  purge_tokens(ctx);
  ops::expire_system_backups(ctx, now);
  ledger_.save(ctx);
}

void Maintenance::sweep_table(WriteContext& ctx, const Table& table) {
  const std::int64_t now = ctx.store().now_ms() / 1000;
  const std::string& attribute = table.schema.ttl->attribute;
  const std::string prefix = keys::key_space_prefix(table.schema.id);
  std::string& position = sweep_position_[table.schema.id];

  // Find expired items first; delete them once the cursor is done.
  std::vector<Item> expired;
  {
    auto cursor = ctx.txn().cursor(ctx.dbs().items);
    auto entry = cursor.seek(position.empty() ? prefix : position);
    if (entry && entry->first == position) entry = cursor.next();
    int seen = 0;
    for (; entry && entry->first.substr(0, prefix.size()) == prefix && seen < kSweepChunk;
         entry = cursor.next(), ++seen) {
      position = std::string(entry->first);
      Item item = items::decode(entry->second, ctx.store().names());
      std::optional<std::int64_t> expiry = epoch_seconds(item, attribute);
      if (expiry && *expiry < now && now - *expiry <= kMaxTtlAgeSeconds) expired.push_back(std::move(item));
    }
    if (seen < kSweepChunk) position.clear();  // the table is done: the next round starts over
  }
  for (Item& item : expired) {
    PrimaryKey key = key_from_item(table.schema.key, item);
    ops::ItemLocation at = ops::locate(ctx.find_table(table.ns, table.schema.name), key);
    auto record = ctx.txn().get(ctx.dbs().items, at.stored_key);
    if (!record) continue;
    ItemChange change(table, at);
    change.set_old(true, std::move(item), items::metered_size(*record));
    change.set_ttl_delete();
    change.plan(ctx);
    change.apply(ctx);
  }
}

void Maintenance::trim_streams(WriteContext& ctx) {
  const std::int64_t horizon = ctx.store().now_ms() - streams::kRetentionMs;
  int removed = 0;
  for (streams::StreamInfo& s : streams::all_streams(ctx.txn(), ctx.dbs().streams)) {
    std::string prefix = streams::stream_key(s.id);
    std::uint64_t trimmed = s.trimmed_before;
    auto cursor = ctx.txn().cursor(ctx.dbs().stream_records);
    for (auto e = cursor.seek(prefix); e && e->first.substr(0, prefix.size()) == prefix && removed < kTrimChunk;
         e = cursor.seek(prefix)) {
      std::int64_t written = 0;
      std::memcpy(&written, e->second.data(), 8);
      if (written >= horizon) break;
      trimmed = keys::read_u64(e->first.substr(prefix.size())) + 1;
      cursor.del();
      ++removed;
    }
    if (trimmed != s.trimmed_before) {
      s.trimmed_before = trimmed;
      ctx.txn().put(ctx.dbs().streams, streams::stream_key(s.id), streams::encode_info(s));
    }
  }
}

void Maintenance::purge_tokens(WriteContext& ctx) {
  const std::int64_t now = ctx.store().now_ms();
  std::vector<std::string> expired;
  {
    auto cursor = ctx.txn().cursor(ctx.dbs().tokens);
    for (auto e = cursor.first(); e; e = cursor.next()) {
      std::int64_t expires = 0;
      if (e->second.size() >= 8) std::memcpy(&expires, e->second.data(), 8);
      if (expires <= now) expired.emplace_back(e->first);
    }
  }
  for (const auto& key : expired) ctx.txn().del(ctx.dbs().tokens, key);
}

}  // namespace dynamod
