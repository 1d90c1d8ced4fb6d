#include "storage/store.h"

#include <spdlog/spdlog.h>

#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <system_error>

#include "storage/key_codec.h"
#include "storage/schema_codec.h"
#include "storage/vector_memory.h"

namespace dynamod {
namespace {

constexpr std::string_view kFormatKey = "format";
// 2: item records may refer to the attribute name dictionary. A format 1
// directory is upgraded in place (its records stay readable), and a dynamod
// that reads only format 1 then refuses it instead of misreading records.
constexpr std::string_view kFormatVersion = "2";
constexpr std::string_view kFormatBeforeNames = "1";

std::filesystem::path make_temp_dir() {
  // tmpfs when there is one: an in-memory database should not touch a disk.
  std::string base = "/dev/shm";
  if (access(base.c_str(), W_OK) != 0) {
    const char* tmp = std::getenv("TMPDIR");
    base = tmp != nullptr ? tmp : "/tmp";
  }
  std::string pattern = base + "/dynamod-XXXXXX";
  if (mkdtemp(pattern.data()) == nullptr) {
    throw std::system_error(errno, std::generic_category(), "cannot create a temporary directory in " + base);
  }
  return pattern;
}

unsigned env_flags(const StoreOptions& options) {
  if (options.in_memory) return MDB_NOSYNC | MDB_WRITEMAP;
  switch (options.durability) {
    case StoreOptions::Durability::Full: return 0;
    case StoreOptions::Durability::Relaxed: return MDB_NOMETASYNC;
    case StoreOptions::Durability::None: return MDB_NOSYNC;
  }
  return 0;
}

}  // namespace

namespace {

// Sequence numbers start at 10^18: 19 digits, increasing as numbers and as text.
constexpr std::uint64_t kFirstSequenceNumber = 1000000000000000000ull;
constexpr std::string_view kNextSequenceKey = "next_sequence";

}  // namespace

Store::Store(const StoreOptions& options)
    : item_collection_limit_(options.item_collection_limit),
      ttl_cooldown_ms_(options.ttl_cooldown_ms),
      contributor_insights_rule_limit_(options.contributor_insights_rule_limit),
      resource_policy_cooldown_ms_(options.resource_policy_cooldown_ms),
      clock_(options.clock_ms ? options.clock_ms : [] {
        using namespace std::chrono;
        return static_cast<std::int64_t>(duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count());
      }) {
  if (options.in_memory) {
    path_ = make_temp_dir();
  } else {
    path_ = options.path;
    std::filesystem::create_directories(path_);
    lock_.emplace(path_);
  }
  try {
    env_ =
        std::make_unique<lmdb::Env>(lmdb::Env::Options{path_.string(), env_flags(options), options.map_size, 24, 512});
    if (env_->max_key_size() < keys::kMaxKeySize) {
      throw std::runtime_error("LMDB was built with a key limit below " + std::to_string(keys::kMaxKeySize) + " bytes");
    }
    read_pool_ = std::make_unique<lmdb::ReadTxnPool>(*env_);
    lmdb::WriteTxn txn(*env_);
    dbs_.meta = txn.open_db("meta");
    dbs_.catalog = txn.open_db("catalog");
    dbs_.stats = txn.open_db("stats");
    dbs_.items = txn.open_db("items");
    dbs_.indexes = txn.open_db("indexes");
    dbs_.collections = txn.open_db("collections");
    dbs_.tokens = txn.open_db("tokens");
    dbs_.streams = txn.open_db("streams");
    dbs_.stream_records = txn.open_db("stream_records");
    dbs_.ledger = txn.open_db("ledger");
    dbs_.names = txn.open_db("names");
    dbs_.backups = txn.open_db("backups");
    dbs_.backup_items = txn.open_db("backup_items");
    dbs_.pitr_log = txn.open_db("pitr_log");
    dbs_.vectors = txn.open_db("vectors");
    dbs_.exports = txn.open_db("exports");
    next_sequence_ = kFirstSequenceNumber;
    if (auto stored = txn.get(dbs_.meta, kNextSequenceKey); stored && stored->size() == 8) {
      std::uint64_t v = 0;
      std::memcpy(&v, stored->data(), 8);
      next_sequence_ = v;
    }
    auto format = txn.get(dbs_.meta, kFormatKey);
    if (!format || *format == kFormatBeforeNames) {
      txn.put(dbs_.meta, kFormatKey, kFormatVersion);
    } else if (*format != kFormatVersion) {
      throw std::runtime_error("data directory " + path_.string() + " has format " + std::string(*format) +
                               ", this dynamod reads formats " + std::string(kFormatBeforeNames) + " and " +
                               std::string(kFormatVersion));
    }
    names_.load(txn, dbs_.names);
    txn.commit();
    load_catalog();
    // After the databases exist: its views are read transactions that must see them.
    lagged_reads_ = std::make_unique<LaggedReads>(*env_, options.consistency_lag_ms, clock_);
    vector_memory_ = std::make_unique<vectors::VectorMemory>(options.vector_search);
  } catch (...) {
    lagged_reads_.reset();
    read_pool_.reset();
    env_.reset();
    if (options.in_memory) std::filesystem::remove_all(path_);
    throw;
  }
  // LMDB keeps its files open and mapped: unlinked now, they vanish with the
  // process however it ends, so a killed test server leaves no tmpfs behind.
  if (options.in_memory) std::filesystem::remove_all(path_);
}

// Out of line: VectorMemory is complete only here.
Store::~Store() = default;

lmdb::ReadTxn Store::read_eventually(const Table& table) {
  if (!lagged_reads_->active()) return read();
  const std::int64_t lag = lagged_reads_->lag_of(table.ns, table.schema.name);
  return lag > 0 ? lagged_reads_->view(lag) : read();
}

void Store::save_sequence_number(lmdb::WriteTxn& txn) const {
  std::uint64_t v = next_sequence_.load();
  txn.put(dbs_.meta, kNextSequenceKey, std::string_view(reinterpret_cast<const char*>(&v), 8));
}

std::string Store::catalog_key(std::string_view ns, std::string_view name) {
  std::string key(ns);
  key.push_back('\0');
  key += name;
  return key;
}

std::string Store::stats_key(std::uint32_t table_id) {
  std::string key;
  keys::append_table_id(key, table_id);
  return key;
}

std::shared_ptr<TableStats> Store::load_stats(const lmdb::TxnBase& txn, std::uint32_t key_space) const {
  auto stats = std::make_shared<TableStats>();
  if (auto stored = txn.get(dbs_.stats, stats_key(key_space)); stored && stored->size() == 16) {
    std::int64_t count = 0;
    std::int64_t bytes = 0;
    std::memcpy(&count, stored->data(), 8);
    std::memcpy(&bytes, stored->data() + 8, 8);
    stats->item_count = count;
    stats->size_bytes = bytes;
  }
  return stats;
}

void Store::load_catalog() {
  auto txn = read();
  for (TablePtr& table : read_catalog(txn)) catalog_.put(std::move(table));
}

std::vector<TablePtr> Store::read_catalog(const lmdb::TxnBase& txn) const {
  std::vector<TablePtr> tables;
  auto cursor = txn.cursor(dbs_.catalog);
  for (auto entry = cursor.first(); entry; entry = cursor.next()) {
    std::string_view key = entry->first;
    std::size_t sep = key.find('\0');
    auto table = std::make_shared<Table>();
    table->ns = std::string(key.substr(0, sep));
    table->schema = decode_schema(entry->second);
    table->stats = load_stats(txn, table->schema.id);
    for (const auto* family : {&table->schema.local_indexes, &table->schema.global_indexes}) {
      for (const auto& index : *family) table->index_stats[index.id] = load_stats(txn, index.id);
    }
    for (const auto& index : table->schema.vector_indexes) table->index_stats[index.id] = load_stats(txn, index.id);
    tables.push_back(std::move(table));
  }
  return tables;
}

}  // namespace dynamod
