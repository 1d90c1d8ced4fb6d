#pragma once
// Store: the LMDB environment of one data directory, its databases, and the
// in-memory catalog loaded from it.
//
// Databases: "meta" (format version, next key-space id), "catalog"
// (namespace \0 table name -> schema JSON), "stats" (table id -> counters),
// "items" (encoded primary key -> item record).

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>

#include "storage/catalog.h"
#include "storage/lmdb.h"

namespace dynamod {

struct StoreOptions {
  enum class Durability : std::uint8_t { Full, Relaxed, None };
  std::string path;        // ignored when in_memory
  bool in_memory = false;  // a temporary environment removed on close
  Durability durability = Durability::Full;
  std::size_t map_size = 64ull << 30;
};

struct Databases {
  lmdb::Dbi meta;
  lmdb::Dbi catalog;
  lmdb::Dbi stats;
  lmdb::Dbi items;
};

class Store {
 public:
  explicit Store(const StoreOptions& options);
  ~Store();
  Store(const Store&) = delete;
  Store& operator=(const Store&) = delete;

  lmdb::Env& env() { return *env_; }
  const Databases& dbs() const { return dbs_; }
  Catalog& catalog() { return catalog_; }
  lmdb::ReadTxn read() { return read_pool_->begin(); }
  const std::filesystem::path& path() const { return path_; }

  static std::string catalog_key(std::string_view ns, std::string_view name);
  static std::string stats_key(std::uint32_t table_id);

 private:
  void load_catalog();

  std::filesystem::path path_;
  bool remove_on_close_ = false;
  std::unique_ptr<lmdb::Env> env_;
  std::unique_ptr<lmdb::ReadTxnPool> read_pool_;
  Databases dbs_{};
  Catalog catalog_;
};

}  // namespace dynamod
