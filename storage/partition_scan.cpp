#include "storage/partition_scan.h"

#include <algorithm>

#include "storage/item_codec.h"
#include "storage/key_codec.h"

namespace dynamod {

PartitionScan::PartitionScan(const lmdb::TxnBase& txn, lmdb::Dbi dbi, std::string prefix, std::size_t image_offset,
                             bool forward)
    : cursor_(txn.cursor(dbi)), prefix_(std::move(prefix)), image_offset_(image_offset), forward_(forward) {}

void PartitionScan::start(std::optional<std::string_view> from, bool inclusive) {
  inclusive_ = inclusive;
  if (from) from_ = std::string(*from);
  std::string full = prefix_ + (from_ ? *from_ : std::string());
  if (forward_) {
    // The first 495 bytes of a key never sort after its stored form: a safe start.
    if (full.size() > keys::kTruncatedPrefix) full.resize(keys::kTruncatedPrefix);
    pending_ = cursor_.seek(full);
  } else {
    std::string after;
    if (!from_) {
      after = keys::prefix_successor(prefix_);
    } else if (full.size() > keys::kTruncatedPrefix) {
      // Past every stored key whose first 495 bytes are at most `full`'s.
      full.resize(keys::kTruncatedPrefix);
      after = full + std::string(keys::kHashSize + 1, '\xFF');
    } else {
      // Components are self-delimiting: every one <= from sorts below from + 0xFF.
      after = full + '\xFF';
    }
    std::optional<lmdb::Cursor::Entry> found = after.empty() ? std::nullopt : cursor_.seek(after);
    pending_ = found ? cursor_.prev() : cursor_.last();
  }
}

bool PartitionScan::in_partition(std::string_view key) const {
  return key.size() >= prefix_.size() && key.compare(0, prefix_.size(), prefix_) == 0;
}

std::string_view PartitionScan::component_of(std::string_view key, std::string_view record) const {
  if (!keys::is_truncated(key)) return key.substr(prefix_.size());
  return items::key_image(record).substr(image_offset_);
}

bool PartitionScan::before_start(std::string_view component) const {
  if (!from_) return false;
  int c = component.compare(*from_);
  if (c == 0) return !inclusive_;
  return forward_ ? c < 0 : c > 0;
}

std::optional<lmdb::Cursor::Entry> PartitionScan::step() {
  std::optional<lmdb::Cursor::Entry> raw = pending_;
  if (raw) pending_ = forward_ ? cursor_.next() : cursor_.prev();
  return raw;
}

std::optional<PartitionScan::Entry> PartitionScan::take(lmdb::Cursor::Entry raw) {
  auto [key, record] = raw;
  if (!keys::is_truncated(key)) return Entry{key, component_of(key, record), record};
  // Read the whole run of truncated keys sharing these first 495 bytes, then order it.
  group_.clear();
  group_pos_ = 0;
  std::string_view run = key.substr(0, keys::kTruncatedPrefix);
  group_.push_back({key, component_of(key, record), record});
  while (pending_ && keys::is_truncated(pending_->first) && pending_->first.substr(0, keys::kTruncatedPrefix) == run) {
    auto next = *step();
    group_.push_back({next.first, component_of(next.first, next.second), next.second});
  }
  std::sort(group_.begin(), group_.end(), [this](const Entry& a, const Entry& b) {
    return forward_ ? a.component < b.component : a.component > b.component;
  });
  return group_[group_pos_++];
}

std::optional<PartitionScan::Entry> PartitionScan::next() {
  while (!done_) {
    std::optional<Entry> entry;
    if (group_pos_ < group_.size()) {
      entry = group_[group_pos_++];
    } else {
      std::optional<lmdb::Cursor::Entry> raw = step();
      if (!raw || !in_partition(raw->first)) {
        done_ = true;
        break;
      }
      entry = take(*raw);
    }
    if (before_start(entry->component)) continue;
    return entry;
  }
  return std::nullopt;
}

}  // namespace dynamod
