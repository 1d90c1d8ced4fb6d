#include "storage/lmdb.h"

namespace dynamod::lmdb {

Error::Error(int code, const std::string& what) : std::runtime_error(what + ": " + mdb_strerror(code)), code_(code) {}

void check(int rc, const char* what) {
  if (rc != MDB_SUCCESS) throw Error(rc, what);
}

Env::Env(const Options& options) {
  check(mdb_env_create(&env_), "mdb_env_create");
  try {
    check(mdb_env_set_maxdbs(env_, options.max_dbs), "mdb_env_set_maxdbs");
    check(mdb_env_set_maxreaders(env_, options.max_readers), "mdb_env_set_maxreaders");
    if (options.map_size != 0) check(mdb_env_set_mapsize(env_, options.map_size), "mdb_env_set_mapsize");
    check(mdb_env_open(env_, options.path.c_str(), options.flags | MDB_NOTLS, 0644), "mdb_env_open");
  } catch (...) {
    mdb_env_close(env_);
    throw;
  }
}

Env::~Env() {
  if (env_ != nullptr) mdb_env_close(env_);
}

std::optional<std::string_view> TxnBase::get(Dbi dbi, std::string_view key) const {
  MDB_val k = to_val(key);
  MDB_val v;
  int rc = mdb_get(txn_, dbi, &k, &v);
  if (rc == MDB_NOTFOUND) return std::nullopt;
  check(rc, "mdb_get");
  return to_view(v);
}

Cursor TxnBase::cursor(Dbi dbi) const { return Cursor(txn_, dbi); }

ReadTxn::~ReadTxn() {
  if (txn_ != nullptr && pool_ != nullptr) pool_->give_back(txn_);
}

ReadTxnPool::~ReadTxnPool() {
  for (MDB_txn* txn : idle_) mdb_txn_abort(txn);
}

ReadTxn ReadTxnPool::begin() {
  MDB_txn* txn = nullptr;
  {
    std::lock_guard lock(mutex_);
    if (!idle_.empty()) {
      txn = idle_.back();
      idle_.pop_back();
    }
  }
  if (txn != nullptr) {
    int rc = mdb_txn_renew(txn);
    if (rc != MDB_SUCCESS) {
      mdb_txn_abort(txn);
      check(rc, "mdb_txn_renew");
    }
  } else {
    check(mdb_txn_begin(env_.get(), nullptr, MDB_RDONLY, &txn), "mdb_txn_begin(read)");
  }
  return ReadTxn(txn, this);
}

void ReadTxnPool::give_back(MDB_txn* txn) {
  mdb_txn_reset(txn);
  std::lock_guard lock(mutex_);
  idle_.push_back(txn);
}

WriteTxn::WriteTxn(Env& env) : TxnBase(nullptr) {
  check(mdb_txn_begin(env.get(), nullptr, 0, &txn_), "mdb_txn_begin(write)");
}

WriteTxn::~WriteTxn() { abort(); }

Dbi WriteTxn::open_db(const char* name) {
  Dbi dbi;
  check(mdb_dbi_open(txn_, name, MDB_CREATE, &dbi), "mdb_dbi_open");
  return dbi;
}

void WriteTxn::put(Dbi dbi, std::string_view key, std::string_view value) {
  MDB_val k = to_val(key);
  MDB_val v = to_val(value);
  check(mdb_put(txn_, dbi, &k, &v, 0), "mdb_put");
}

void WriteTxn::append(Dbi dbi, std::string_view key, std::string_view value) {
  MDB_val k = to_val(key);
  MDB_val v = to_val(value);
  check(mdb_put(txn_, dbi, &k, &v, MDB_APPEND), "mdb_put(MDB_APPEND)");
}

bool WriteTxn::del(Dbi dbi, std::string_view key) {
  MDB_val k = to_val(key);
  int rc = mdb_del(txn_, dbi, &k, nullptr);
  if (rc == MDB_NOTFOUND) return false;
  check(rc, "mdb_del");
  return true;
}

void WriteTxn::clear(Dbi dbi) { check(mdb_drop(txn_, dbi, 0), "mdb_drop"); }

void WriteTxn::commit() {
  MDB_txn* txn = std::exchange(txn_, nullptr);
  check(mdb_txn_commit(txn), "mdb_txn_commit");
}

void WriteTxn::abort() {
  if (txn_ != nullptr) mdb_txn_abort(std::exchange(txn_, nullptr));
}

Cursor::Cursor(MDB_txn* txn, Dbi dbi) { check(mdb_cursor_open(txn, dbi, &cursor_), "mdb_cursor_open"); }

Cursor::~Cursor() {
  if (cursor_ != nullptr) mdb_cursor_close(cursor_);
}

std::optional<Cursor::Entry> Cursor::move(MDB_cursor_op op, MDB_val* key) {
  MDB_val k{};
  if (key != nullptr) k = *key;
  MDB_val v{};
  int rc = mdb_cursor_get(cursor_, &k, &v, op);
  if (rc == MDB_NOTFOUND) return std::nullopt;
  check(rc, "mdb_cursor_get");
  return Entry{to_view(k), to_view(v)};
}

std::optional<Cursor::Entry> Cursor::seek(std::string_view key) {
  MDB_val k = to_val(key);
  return move(MDB_SET_RANGE, &k);
}
std::optional<Cursor::Entry> Cursor::first() { return move(MDB_FIRST); }
std::optional<Cursor::Entry> Cursor::last() { return move(MDB_LAST); }
std::optional<Cursor::Entry> Cursor::next() { return move(MDB_NEXT); }
std::optional<Cursor::Entry> Cursor::prev() { return move(MDB_PREV); }

void Cursor::del() { check(mdb_cursor_del(cursor_, 0), "mdb_cursor_del"); }

}  // namespace dynamod::lmdb
