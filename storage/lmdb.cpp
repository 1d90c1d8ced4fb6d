#include "storage/lmdb.h"

#include <cstdint>

namespace dynamod::lmdb {

namespace {

// Journal records: an op byte, the database handle, the key, and for a put the
// value, each length a varint. Handles are stable between runs because the
// store opens its databases in one fixed order before any replay.
constexpr char kPut = 'P';
constexpr char kDel = 'D';
constexpr char kClear = 'C';

void append_varint(std::string& out, std::uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<char>(v | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<char>(v));
}

std::uint64_t read_varint(std::string_view& in) {
  std::uint64_t v = 0;
  for (int shift = 0; shift < 64 && !in.empty(); shift += 7) {
    auto byte = static_cast<unsigned char>(in.front());
    in.remove_prefix(1);
    v |= static_cast<std::uint64_t>(byte & 0x7f) << shift;
    if ((byte & 0x80) == 0) return v;
  }
  throw std::runtime_error("journal: truncated or overlong length");
}

std::string_view read_bytes(std::string_view& in) {
  std::uint64_t n = read_varint(in);
  if (n > in.size()) throw std::runtime_error("journal: a field runs past the end");
  std::string_view bytes = in.substr(0, n);
  in.remove_prefix(n);
  return bytes;
}

}  // namespace

Error::Error(int code, const std::string& what)
    : std::runtime_error(what + ": " + mdb_strerror(code)), code_(code) {}

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

void Env::sync() { check(mdb_env_sync(env_, 1), "mdb_env_sync"); }

std::size_t Env::last_txnid() const {
  MDB_envinfo info;
  check(mdb_env_info(env_, &info), "mdb_env_info");
  return info.me_last_txnid;
}

std::size_t Env::last_page() const {
  MDB_envinfo info;
  check(mdb_env_info(env_, &info), "mdb_env_info");
  return info.me_last_pgno;
}

unsigned Env::page_size() const {
  MDB_stat stat;
  check(mdb_env_stat(env_, &stat), "mdb_env_stat");
  return stat.ms_psize;
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
  if (txn_ != nullptr) pool_->give_back(txn_);
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

Snapshot::Snapshot(Env& env) : TxnBase(nullptr) {
  check(mdb_txn_begin(env.get(), nullptr, MDB_RDONLY, &txn_), "mdb_txn_begin(snapshot)");
}

Snapshot::~Snapshot() {
  if (txn_ != nullptr) mdb_txn_abort(txn_);
}

WriteTxn::WriteTxn(Env& env, Journal journal) : TxnBase(nullptr), journaled_(journal == Journal::On) {
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
  if (journaled_) record(kPut, dbi, key, value);
}

bool WriteTxn::del(Dbi dbi, std::string_view key) {
  MDB_val k = to_val(key);
  int rc = mdb_del(txn_, dbi, &k, nullptr);
  if (rc == MDB_NOTFOUND) return false;
  check(rc, "mdb_del");
  if (journaled_) record(kDel, dbi, key);
  return true;
}

void WriteTxn::del(Cursor& cursor) {
  if (journaled_) {
    // The key is journaled first: once deleted, its bytes may be gone from the page.
    MDB_val k{};
    MDB_val v{};
    check(mdb_cursor_get(cursor.cursor_, &k, &v, MDB_GET_CURRENT), "mdb_cursor_get");
    record(kDel, mdb_cursor_dbi(cursor.cursor_), to_view(k));
  }
  check(mdb_cursor_del(cursor.cursor_, 0), "mdb_cursor_del");
}

void WriteTxn::clear(Dbi dbi) {
  check(mdb_drop(txn_, dbi, 0), "mdb_drop");
  if (journaled_) record(kClear, dbi, {});
}

void WriteTxn::record(char op, Dbi dbi, std::string_view key, std::string_view value) {
  journal_.push_back(op);
  append_varint(journal_, dbi);
  append_varint(journal_, key.size());
  journal_.append(key);
  if (op == kPut) {
    append_varint(journal_, value.size());
    journal_.append(value);
  }
}

void WriteTxn::replay(std::string_view journal) {
  while (!journal.empty()) {
    const char op = journal.front();
    journal.remove_prefix(1);
    const auto dbi = static_cast<Dbi>(read_varint(journal));
    const std::string_view key = read_bytes(journal);
    switch (op) {
      case kPut: put(dbi, key, read_bytes(journal)); break;
      case kDel: del(dbi, key); break;
      case kClear: clear(dbi); break;
      default: throw std::runtime_error("journal: unknown operation");
    }
  }
}

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

}  // namespace dynamod::lmdb
