#pragma once
// AttributeNames: the store-wide dictionary of top-level attribute names.
//
// Applications give their items the same few attribute names over and over;
// spelling each name out in every record made names a fifth of a typical
// item's bytes on disk. A record refers to a name in this dictionary by its
// number instead (see item_codec.h). Names are numbered in the order they are
// first written and never renumbered or removed, so a number read from any
// record stays valid. The dictionary has a fixed capacity: once full, or for a
// name longer than kMaxNameLength, records spell the name out, so data whose
// attribute names are themselves data cannot grow it without bound.
//
// Threads: id_of() and name_of() are called by every I/O thread and never
// block once a name is known (an open-addressing table of atomics over an
// append-only array); a new name takes a mutex. Only the writer thread calls
// save() and saved(); database "names" holds id (4 bytes, big-endian) -> name,
// and every name a record uses is saved in that record's write transaction or
// an earlier one (the writer saves all names numbered before its group ran).

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "storage/lmdb.h"

namespace dynamod {

class AttributeNames {
 public:
  static constexpr std::uint32_t kCapacity = 4096;
  static constexpr std::size_t kMaxNameLength = 64;

  AttributeNames();
  AttributeNames(const AttributeNames&) = delete;
  AttributeNames& operator=(const AttributeNames&) = delete;

  // The name's number, numbering it if it is new and there is room;
  // nullopt: the record spells the name out.
  std::optional<std::uint32_t> id_of(std::string_view name);
  // Throws std::runtime_error for a number never given out (a damaged record).
  std::string_view name_of(std::uint32_t id) const;
  std::uint32_t size() const { return count_.load(std::memory_order_acquire); }

  // Reads the saved dictionary (at open, before any other use).
  void load(const lmdb::TxnBase& txn, lmdb::Dbi dbi);
  // Writes the names numbered since the last saved() into the transaction and
  // returns how many names that makes; pass it to saved() once committed.
  std::uint32_t save(lmdb::WriteTxn& txn, lmdb::Dbi dbi) const;
  void saved(std::uint32_t count) { saved_ = count; }

 private:
  static constexpr std::uint32_t kSlots = kCapacity * 2;  // a power of two, at most half full
  // Adds the name under the mutex (or finds it, if another thread just did).
  std::optional<std::uint32_t> add(std::string_view name, std::size_t hash);
  void append(std::string name, std::size_t hash);

  // names_ is reserved to kCapacity up front and only appended to, so an
  // element never moves while readers look at it.
  std::vector<std::string> names_;
  std::atomic<std::uint32_t> count_{0};
  // id + 1 per slot, 0 for empty; published after the name it points to.
  std::unique_ptr<std::atomic<std::uint32_t>[]> slots_;
  std::mutex add_mutex_;
  std::uint32_t saved_ = 0;  // writer thread only
};

}  // namespace dynamod
