#pragma once
// PartitionScan: walks one partition of a table or an index in the order of
// its sort key, forward or backward.
//
// Entries are ordered by their "component", the key bytes after the partition
// prefix in full (untruncated) form. LMDB holds most keys whole, in that
// order; keys stored truncated (see key_codec.h) sort among themselves by a
// hash tail, so a run of them is read as a group and sorted by the full
// component taken from the record's key image.
//
// Views returned stay valid for the read transaction's lifetime.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "storage/lmdb.h"

namespace dynamod {

class PartitionScan {
 public:
  struct Entry {
    std::string_view stored_key;
    std::string_view component;
    std::string_view record;
  };

  // `image_offset`: where the component starts in a record's key image.
  PartitionScan(const lmdb::TxnBase& txn, lmdb::Dbi dbi, std::string prefix, std::size_t image_offset, bool forward);

  // Positions the scan at the partition's start (forward) or end (backward),
  // or, given `from`, at the first entry not before it in scan order;
  // `inclusive` keeps an entry whose component equals `from`.
  void start(std::optional<std::string_view> from, bool inclusive);
  std::optional<Entry> next();

 private:
  std::optional<lmdb::Cursor::Entry> step();
  std::optional<Entry> take(lmdb::Cursor::Entry raw);
  bool in_partition(std::string_view key) const;
  std::string_view component_of(std::string_view key, std::string_view record) const;
  bool before_start(std::string_view component) const;

  lmdb::Cursor cursor_;
  std::string prefix_;
  std::size_t image_offset_;
  bool forward_;
  std::optional<std::string> from_;
  bool inclusive_ = true;
  std::optional<lmdb::Cursor::Entry> pending_;  // the entry under the cursor, not yet returned
  bool done_ = false;
  std::vector<Entry> group_;  // a sorted run of truncated keys
  std::size_t group_pos_ = 0;
};

}  // namespace dynamod
