#pragma once
// RAII wrappers over LMDB: move-only Env, ReadTxn, WriteTxn and Cursor.
// Destructors abort; commit() clears the handle before mdb_txn_commit (LMDB
// frees the transaction even when commit fails). Not-found is a return value;
// every other LMDB failure throws lmdb::Error.
//
// Values read are string_views into the map: copy them before the txn ends.

#include <lmdb.h>

#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dynamod::lmdb {

class Error : public std::runtime_error {
 public:
  Error(int code, const std::string& what);
  int code() const { return code_; }

 private:
  int code_;
};

void check(int rc, const char* what);

inline MDB_val to_val(std::string_view s) { return MDB_val{s.size(), const_cast<char*>(s.data())}; }
inline std::string_view to_view(const MDB_val& v) { return {static_cast<const char*>(v.mv_data), v.mv_size}; }

using Dbi = MDB_dbi;

class Env {
 public:
  struct Options {
    std::string path;
    unsigned flags = 0;
    std::size_t map_size = 0;
    unsigned max_dbs = 24;
    unsigned max_readers = 256;
  };
  explicit Env(const Options& options);
  ~Env();
  Env(const Env&) = delete;
  Env& operator=(const Env&) = delete;

  MDB_env* get() const { return env_; }
  std::size_t max_key_size() const { return static_cast<std::size_t>(mdb_env_get_maxkeysize(env_)); }

 private:
  MDB_env* env_ = nullptr;
};

class Cursor;

// Shared read operations of both transaction kinds.
class TxnBase {
 public:
  TxnBase(const TxnBase&) = delete;
  TxnBase& operator=(const TxnBase&) = delete;

  std::optional<std::string_view> get(Dbi dbi, std::string_view key) const;
  Cursor cursor(Dbi dbi) const;
  MDB_txn* get() const { return txn_; }

 protected:
  explicit TxnBase(MDB_txn* txn) : txn_(txn) {}
  TxnBase(TxnBase&& other) noexcept : txn_(std::exchange(other.txn_, nullptr)) {}
  ~TxnBase() = default;
  MDB_txn* txn_;
};

class ReadTxnPool;

// A read-only transaction borrowed from a ReadTxnPool; returned (reset, not
// freed) when it goes out of scope, so the next reader only renews it.
class ReadTxn : public TxnBase {
 public:
  ReadTxn(ReadTxn&& other) noexcept : TxnBase(std::move(other)), pool_(other.pool_), hold_(std::move(other.hold_)) {}
  ~ReadTxn();

  // A transaction someone else owns (an older view of the store kept for
  // --consistency-lag), used while `hold` lives: `hold` keeps the transaction
  // open and gives this reader the use of it alone.
  static ReadTxn borrowed(MDB_txn* txn, std::shared_ptr<void> hold) { return ReadTxn(txn, nullptr, std::move(hold)); }

 private:
  friend class ReadTxnPool;
  ReadTxn(MDB_txn* txn, ReadTxnPool* pool, std::shared_ptr<void> hold = nullptr)
      : TxnBase(txn), pool_(pool), hold_(std::move(hold)) {}
  ReadTxnPool* pool_;
  std::shared_ptr<void> hold_;
};

class ReadTxnPool {
 public:
  explicit ReadTxnPool(Env& env) : env_(env) {}
  ~ReadTxnPool();
  ReadTxnPool(const ReadTxnPool&) = delete;
  ReadTxnPool& operator=(const ReadTxnPool&) = delete;

  ReadTxn begin();

 private:
  friend class ReadTxn;
  void give_back(MDB_txn* txn);

  Env& env_;
  std::mutex mutex_;
  std::vector<MDB_txn*> idle_;
};

class WriteTxn : public TxnBase {
 public:
  explicit WriteTxn(Env& env);
  WriteTxn(WriteTxn&& other) noexcept : TxnBase(std::move(other)) {}
  ~WriteTxn();

  // Opens (creating if needed) a named database.
  Dbi open_db(const char* name);
  void put(Dbi dbi, std::string_view key, std::string_view value);
  // Puts an entry whose key sorts after every key of the database (MDB_APPEND:
  // no search; a restore refills databases this way).
  void append(Dbi dbi, std::string_view key, std::string_view value);
  // Returns false if the key was not there.
  bool del(Dbi dbi, std::string_view key);
  // Deletes every entry of a database (keeping the database).
  void clear(Dbi dbi);
  void commit();
  void abort();
};

class Cursor {
 public:
  Cursor(MDB_txn* txn, Dbi dbi);
  ~Cursor();
  Cursor(Cursor&& other) noexcept : cursor_(std::exchange(other.cursor_, nullptr)) {}
  Cursor(const Cursor&) = delete;
  Cursor& operator=(const Cursor&) = delete;

  using Entry = std::pair<std::string_view, std::string_view>;
  // First entry with key >= the given one.
  std::optional<Entry> seek(std::string_view key);
  std::optional<Entry> first();
  std::optional<Entry> last();
  std::optional<Entry> next();
  std::optional<Entry> prev();
  // Deletes the entry under the cursor (write transactions only).
  void del();

 private:
  std::optional<Entry> move(MDB_cursor_op op, MDB_val* key = nullptr);
  MDB_cursor* cursor_;
};

}  // namespace dynamod::lmdb
