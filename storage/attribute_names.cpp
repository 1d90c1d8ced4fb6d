#include "storage/attribute_names.h"

#include <xxhash.h>

#include <stdexcept>

namespace dynamod {
namespace {

std::size_t hash_name(std::string_view name) { return XXH3_64bits(name.data(), name.size()); }

std::string id_key(std::uint32_t id) {
  std::string key(4, '\0');
  for (int i = 0; i < 4; ++i) key[static_cast<std::size_t>(i)] = static_cast<char>((id >> (24 - 8 * i)) & 0xFF);
  return key;
}

}  // namespace

AttributeNames::AttributeNames() : slots_(new std::atomic<std::uint32_t>[kSlots]()) { names_.reserve(kCapacity); }

std::optional<std::uint32_t> AttributeNames::id_of(std::string_view name) {
  if (name.size() > kMaxNameLength) return std::nullopt;
  const std::size_t hash = hash_name(name);
  for (std::size_t i = hash & (kSlots - 1);; i = (i + 1) & (kSlots - 1)) {
    std::uint32_t slot = slots_[i].load(std::memory_order_acquire);
    if (slot == 0) break;
    if (names_[slot - 1] == name) return slot - 1;
  }
  return add(name, hash);
}

std::optional<std::uint32_t> AttributeNames::add(std::string_view name, std::size_t hash) {
  std::lock_guard lock(add_mutex_);
  std::size_t i = hash & (kSlots - 1);
  for (;; i = (i + 1) & (kSlots - 1)) {
    std::uint32_t slot = slots_[i].load(std::memory_order_relaxed);
    if (slot == 0) break;
    if (names_[slot - 1] == name) return slot - 1;
  }
  std::uint32_t id = count_.load(std::memory_order_relaxed);
  if (id == kCapacity) return std::nullopt;
  append(std::string(name), hash);
  return id;
}

void AttributeNames::append(std::string name, std::size_t hash) {
  std::size_t i = hash & (kSlots - 1);
  while (slots_[i].load(std::memory_order_relaxed) != 0) i = (i + 1) & (kSlots - 1);
  std::uint32_t id = count_.load(std::memory_order_relaxed);
  names_.push_back(std::move(name));
  count_.store(id + 1, std::memory_order_release);
  slots_[i].store(id + 1, std::memory_order_release);
}

std::string_view AttributeNames::name_of(std::uint32_t id) const {
  if (id >= count_.load(std::memory_order_acquire)) {
    throw std::runtime_error("corrupt item record: unknown attribute name number " + std::to_string(id));
  }
  return names_[id];
}

void AttributeNames::load(const lmdb::TxnBase& txn, lmdb::Dbi dbi) {
  std::lock_guard lock(add_mutex_);
  auto cursor = txn.cursor(dbi);
  for (auto entry = cursor.first(); entry; entry = cursor.next()) {
    std::uint32_t id = count_.load(std::memory_order_relaxed);
    if (entry->first != id_key(id) || id == kCapacity || entry->second.size() > kMaxNameLength) {
      throw std::runtime_error("corrupt attribute name dictionary at entry " + std::to_string(id));
    }
    append(std::string(entry->second), hash_name(entry->second));
  }
  saved_ = count_.load(std::memory_order_relaxed);
}

std::uint32_t AttributeNames::save(lmdb::WriteTxn& txn, lmdb::Dbi dbi) const {
  const std::uint32_t count = count_.load(std::memory_order_acquire);
  for (std::uint32_t id = saved_; id < count; ++id) txn.put(dbi, id_key(id), names_[id]);
  return count;
}

}  // namespace dynamod
