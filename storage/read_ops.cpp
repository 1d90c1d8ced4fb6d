#include "storage/read_ops.h"

#include <algorithm>
#include <span>
#include <variant>

#include "metering/capacity.h"
#include "protocol/attribute_json.h"
#include "protocol/expr/evaluate.h"
#include "protocol/expr/projection.h"
#include "protocol/json_writer.h"
#include "protocol/key_validation.h"
#include "storage/index_entries.h"
#include "storage/index_key_range.h"
#include "storage/item_codec.h"
#include "storage/item_ops.h"
#include "storage/key_codec.h"
#include "storage/partition_scan.h"

namespace dynamod::ops {
namespace {

std::string sortable_of(const AttributeValue& v) {
  std::string out;
  keys::append_sortable(out, v);
  return out;
}

// What a read walks: the table's items or one index's entries.
struct Target {
  const TableSchema& table;
  const IndexSchema* index;
  lmdb::Dbi dbi;

  std::uint32_t key_space() const { return index != nullptr ? index->id : table.id; }
  const KeyDef& key() const { return index != nullptr ? index->key : table.key; }

  // The key attributes a LastEvaluatedKey holds: the table's, plus the index's.
  Item last_key(const Item& item) const {
    Item out = key_attributes(table.key, item);
    if (index != nullptr) {
      for (const auto& [name, value] : key_attributes(index->key, item)) out.set(name, value);
    }
    return out;
  }
};

Target target_of(Store& store, const TableSchema& table, const ReadSpec& spec) {
  return Target{table, spec.index, spec.index != nullptr ? store.dbs().indexes : store.dbs().items};
}

// Collects one page: counts what is read, applies the filter and the
// projection to what is returned, and stops at Limit or 1 MB.
class Page {
 public:
  Page(const ReadSpec& spec, const Target& target, const lmdb::TxnBase& txn, Store& store)
      : spec_(spec), target_(target), txn_(txn), items_(store.dbs().items), names_(store.names()) {
    if (spec.select != Select::Count) out_.begin_array();
  }

  // Takes one item (or index entry) read; returns false when the page is full after it.
  bool add(std::string_view record) {
    ++scanned_;
    bytes_ += items::metered_size(record);
    last_record_ = record;
    std::string_view returned = record;
    if (spec_.fetch_table_items) {
      auto table_record = fetch_table_item(record);
      if (!table_record) return !full();  // the entry outlived its item: not possible in one transaction
      returned = *table_record;
    }
    bool needs_item = !spec_.filter.empty() || spec_.projection;
    std::optional<Item> item;
    if (needs_item) item = items::decode(returned, names_);
    if (spec_.filter.empty() || expr::evaluate(spec_.filter, &*item)) {
      ++count_;
      if (spec_.select != Select::Count) {
        JsonWriter& out = spec_.page_order ? held_.emplace_back(partition_of(returned)).json : out_;
        if (spec_.projection) {
          encode_item(out, spec_.projection_names.empty()
                               ? expr::project(*item, *spec_.projection)
                               : expr::project_named(*item, *spec_.projection, spec_.projection_names));
        } else {
          items::write_json(out, returned, names_);
        }
      }
    }
    return !full();
  }

  ReadResult finish(bool stopped_early) {
    ReadResult result;
    if (spec_.select != Select::Count) {
      if (spec_.page_order) write_in_page_order();
      out_.end_array();
      result.items_json = out_.take();
    }
    result.count = count_;
    result.scanned = scanned_;
    if (stopped_early && last_record_) {
      JsonWriter key;
      encode_item(key, target_.last_key(items::decode(*last_record_, names_)));
      result.last_evaluated_key_json = key.take();
    }
    // One rounding over everything the page read, on what was read.
    result.consumed.table_name = target_.table.name;
    double units = metering::read_units(bytes_, mode());
    if (target_.index == nullptr) {
      result.consumed.table_read_units = units;
    } else {
      result.consumed.index(target_.index->name, target_.table.is_global(*target_.index)).read_units = units;
      result.consumed.table_read_units = table_fetch_units_;
    }
    return result;
  }

 private:
  bool full() const { return (spec_.limit && scanned_ >= *spec_.limit) || bytes_ >= kPageBytes; }
  metering::ReadMode mode() const {
    return spec_.consistent ? metering::ReadMode::Strong : metering::ReadMode::Eventual;
  }

  // The table item behind a local index entry; each such read is billed on its own.
  std::optional<std::string_view> fetch_table_item(std::string_view entry) {
    Item key = key_attributes(target_.table.key, items::decode(entry, names_));
    const AttributeValue* partition = key.find(target_.table.key.partition.name);
    const AttributeValue* sort = target_.table.key.sort ? key.find(target_.table.key.sort->name) : nullptr;
    auto record = txn_.get(items_, keys::to_stored_key(keys::encode_primary_key(target_.table.id, *partition, sort)));
    table_fetch_units_ += metering::read_units(record ? items::metered_size(*record) : 0, mode());
    return record;
  }

  // An item of a page that ORDER BY sorts, rendered, with its partition key.
  struct HeldItem {
    explicit HeldItem(AttributeValue p) : partition(std::move(p)) {}
    AttributeValue partition;
    JsonWriter json;
  };

  AttributeValue partition_of(std::string_view record) const {
    Item item = items::decode(record, names_);
    return *item.find(target_.key().partition.name);
  }

  // The held items, read in key order, with their partitions and each
  // partition's items reversed as ORDER BY asks.
  void write_in_page_order() {
    std::vector<std::pair<std::size_t, std::size_t>> runs;  // [begin, end) of each partition's items
    for (std::size_t i = 0; i < held_.size(); ++i) {
      if (i == 0 || !(held_[i].partition == held_[i - 1].partition)) runs.emplace_back(i, i);
      runs.back().second = i + 1;
    }
    if (spec_.page_order->partitions_descending) std::reverse(runs.begin(), runs.end());
    for (auto [begin, end] : runs) {
      for (std::size_t k = 0; k < end - begin; ++k) {
        out_.raw(held_[spec_.page_order->sort_descending ? end - 1 - k : begin + k].json.take());
      }
    }
  }

  const ReadSpec& spec_;
  const Target& target_;
  const lmdb::TxnBase& txn_;
  lmdb::Dbi items_;
  const AttributeNames& names_;
  JsonWriter out_;
  std::int64_t count_ = 0;
  std::int64_t scanned_ = 0;
  std::uint64_t bytes_ = 0;
  double table_fetch_units_ = 0;
  std::optional<std::string_view> last_record_;
  std::vector<HeldItem> held_;  // with ORDER BY
};

// Byte-wise tests of an encoded sort key against a key condition.
class SortRange {
 public:
  explicit SortRange(const std::optional<expr::SortCondition>& condition) {
    if (!condition) return;
    using expr::SortOp;
    switch (condition->op) {
      case SortOp::Eq: lower_ = upper_ = sortable_of(condition->value); break;
      case SortOp::Lt:
        upper_ = sortable_of(condition->value);
        upper_inclusive_ = false;
        break;
      case SortOp::Le: upper_ = sortable_of(condition->value); break;
      case SortOp::Gt:
        lower_ = sortable_of(condition->value);
        lower_inclusive_ = false;
        break;
      case SortOp::Ge: lower_ = sortable_of(condition->value); break;
      case SortOp::Between:
        lower_ = sortable_of(condition->value);
        upper_ = sortable_of(*condition->upper);
        break;
      case SortOp::BeginsWith: {
        const AttributeValue& v = condition->value;
        begins_ = keys::sortable_prefix(v.type() == AttributeType::S ? v.as_string() : v.as_binary());
        lower_ = begins_;
        break;
      }
    }
  }

  // Where a scan in this direction starts (nullopt: the partition's edge).
  std::optional<std::string> start(bool forward) const {
    if (forward) return lower_;
    if (begins_ || !upper_) return std::nullopt;  // backward over a prefix: from the end
    // Index components go on after the sort key with a hash that may start with FF: start past
    // every component that begins with the bound (locate() skips what lies above it).
    std::string past = keys::prefix_successor(*upper_);
    if (past.empty()) return std::nullopt;
    return past;
  }

  // Position of an encoded sort key relative to the range in scan order:
  // -1 not reached yet, 0 inside, 1 past it (the scan can stop).
  int locate(std::string_view sort_key, bool forward) const {
    bool below = lower_ && (lower_inclusive_ ? sort_key < *lower_ : sort_key <= *lower_);
    bool above = upper_ && (upper_inclusive_ ? sort_key > *upper_ : sort_key >= *upper_);
    if (begins_) {
      bool match = sort_key.substr(0, begins_->size()) == *begins_;
      above = !match && sort_key > *begins_;
      below = !match && !above;
    }
    if (!below && !above) return 0;
    return forward ? (above ? 1 : -1) : (below ? 1 : -1);
  }

 private:
  std::optional<std::string> lower_;
  std::optional<std::string> upper_;
  std::optional<std::string> begins_;
  bool lower_inclusive_ = true;
  bool upper_inclusive_ = true;
};

// Scan segment i of n covers hash values [i * 2^64 / n, (i + 1) * 2^64 / n).
std::string segment_bound(std::uint32_t key_space, std::int64_t segment, std::int64_t total) {
  std::string key;
  if (segment >= total) {
    keys::append_table_id(key, key_space + 1);  // the next key space
    return key;
  }
  keys::append_table_id(key, key_space);
  unsigned __int128 start = (static_cast<unsigned __int128>(segment) << 64) / static_cast<unsigned __int128>(total);
  auto position = static_cast<std::uint64_t>(start);
  keys::append_u64(key, position);
  return key;
}

// The stored key of the item (or index entry) an ExclusiveStartKey names.
std::string start_key_of(const Target& target, const Item& start) {
  const KeyDef& key = target.key();
  if (target.index == nullptr) {
    const AttributeValue* sort = key.sort ? start.find(key.sort->name) : nullptr;
    return keys::to_stored_key(keys::encode_primary_key(target.key_space(), *start.find(key.partition.name), sort));
  }
  return keys::to_stored_key(
      keys::partition_prefix(target.key_space(), indexes::partition_values(*target.index, start)) +
      indexes::component(target.table, *target.index, start));
}

// The sortable encoding of the sort key an entry holds, from the start of its
// component. In an index entry of index_key_format 1 the component goes on
// with the 128-bit hash of the table's partition key: an S or B sort key's
// final 00 followed by a hash that starts with FF reads like an escaped zero
// byte, so where the bytes hold 00 FF (one entry in 256, or a key with a zero
// byte) the key comes from the record instead.
std::string_view sort_part(const Target& target, const PartitionScan::Entry& entry, const AttributeNames& names,
                           std::string& scratch) {
  const KeyElement& sort_key = *target.key().sort;
  std::string_view component = entry.component;
  std::string_view part = component.substr(0, keys::sortable_length(component, to_attribute_type(sort_key.type)));
  if (target.index == nullptr || target.table.index_key_format >= 2 ||
      part.find(std::string_view("\0\xFF", 2)) == std::string_view::npos) {
    return part;
  }
  Item item = items::decode(entry.record, names);
  scratch.clear();
  keys::append_sortable(scratch, *item.find(sort_key.name));
  return scratch;
}

}  // namespace

// What a Query reads of each partition: the sort key's range, or a
// multi-attribute key's range of components.
using QueryRange = std::variant<SortRange, IndexKeyRange>;

// Reads the items of one partition (the values of its key attributes) within
// `range` into the page, after `start_after` (a stored key) when given; false
// once the page is full.
bool read_partition(const lmdb::TxnBase& txn, const Target& target, std::span<const AttributeValue* const> partition,
                    const QueryRange& range, const ReadSpec& spec, const std::optional<std::string>& start_after,
                    const AttributeNames& names, Page& page) {
  const bool sorted = target.key().sort.has_value();
  std::string partition_image;
  for (const AttributeValue* v : partition) keys::append_sortable(partition_image, *v);
  PartitionScan scan(txn, target.dbi, keys::partition_prefix(target.key_space(), partition), partition_image.size(),
                     spec.forward);
  if (start_after) {
    scan.start(start_after->substr(keys::kTableIdSize + keys::kHashSize), false);
  } else {
    scan.start(std::visit([&](const auto& r) { return r.start(spec.forward); }, range), true);
  }
  std::string scratch;
  while (auto entry = scan.next()) {
    // The partition hash matched; make sure the value does too.
    if (items::key_image(entry->record).substr(0, partition_image.size()) != partition_image) continue;
    if (sorted) {
      const auto* multi = std::get_if<IndexKeyRange>(&range);
      int where = multi != nullptr
                      ? multi->locate(entry->component, spec.forward)
                      : std::get<SortRange>(range).locate(sort_part(target, *entry, names, scratch), spec.forward);
      if (where > 0) break;
      if (where < 0) continue;
    }
    if (!page.add(entry->record)) return false;
  }
  return true;
}

ReadResult run_query(Store& store, const Table& table, const ReadSpec& spec) {
  Target target = target_of(store, table.schema, spec);
  const expr::KeyCondition& kc = *spec.key_condition;
  const QueryRange range =
      target.key().multi_attribute() ? QueryRange(IndexKeyRange(kc)) : QueryRange(SortRange(kc.sort));
  // A multi-attribute key's partition is the values of all its partition-key attributes.
  std::vector<const AttributeValue*> multi_partition{&kc.partition};
  for (const expr::KeyEquality& e : kc.more_partition) multi_partition.push_back(&e.value);
  // Several partitions (PartiQL's IN) are read one after the other; a page
  // goes on from the one its ExclusiveStartKey is in.
  const std::span<const AttributeValue> partitions =
      spec.partitions.empty() ? std::span(&kc.partition, 1) : std::span(spec.partitions);
  auto partition = partitions.begin();
  std::optional<std::string> start_after;
  if (spec.exclusive_start_key) {
    partition =
        std::find(partitions.begin(), partitions.end(), *spec.exclusive_start_key->find(target.key().partition.name));
    start_after = start_key_of(target, *spec.exclusive_start_key);
  }

  auto txn = spec.consistent ? store.read() : store.read_eventually(table);
  Page page(spec, target, txn, store);
  bool stopped_early = false;
  for (; partition != partitions.end() && !stopped_early; ++partition) {
    const AttributeValue* one[] = {&*partition};
    const std::span<const AttributeValue* const> values = kc.more_partition.empty()
                                                              ? std::span<const AttributeValue* const>(one)
                                                              : std::span<const AttributeValue* const>(multi_partition);
    stopped_early = !read_partition(txn, target, values, range, spec, start_after, store.names(), page);
    start_after.reset();
  }
  return page.finish(stopped_early);
}

ReadResult run_scan(Store& store, const Table& table, const ReadSpec& spec) {
  Target target = target_of(store, table.schema, spec);

  std::string begin = segment_bound(target.key_space(), spec.segment, spec.total_segments);
  std::string end = segment_bound(target.key_space(), spec.segment + 1, spec.total_segments);
  std::optional<std::string> start_after;
  if (spec.exclusive_start_key) {
    start_after = start_key_of(target, *spec.exclusive_start_key);
    if (*start_after < begin || *start_after >= end) {
      throw ApiError::validation("Exclusive start key must lie within the segment");
    }
  }

  auto txn = spec.consistent ? store.read() : store.read_eventually(table);
  auto cursor = txn.cursor(target.dbi);
  auto entry = cursor.seek(start_after ? *start_after : begin);
  if (entry && start_after && entry->first == *start_after) entry = cursor.next();
  Page page(spec, target, txn, store);
  bool stopped_early = false;
  for (; entry && entry->first < end; entry = cursor.next()) {
    if (!page.add(entry->second)) {
      stopped_early = true;
      break;
    }
  }
  return page.finish(stopped_early);
}

}  // namespace dynamod::ops
