#pragma once
// Order-preserving key encoding.
//
// A table's item key is   table id (4 bytes, big-endian)
//                       ‖ 128-bit hash of the partition key
//                       ‖ encoded sort key (tables with a sort key)
// so one partition is contiguous and sorted by sort key, and Scan walks
// partitions in hash order, as DynamoDB does. Equal numbers (1000, 1e3) encode
// to equal bytes because Numbers are normalised first.
//
// LMDB keys are at most 511 bytes, while a sort key may be 1,024 bytes. A key
// longer than the limit is stored as its first kTruncatedPrefix bytes plus a
// 128-bit hash of the whole key, so a stored key of exactly kMaxKeySize bytes
// is always a truncated one. Point lookups stay exact (the hash tail), and
// readers that need order restore it among keys sharing a truncated prefix
// from the full key kept in the record.

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "protocol/attribute_value.h"

namespace dynamod::keys {

inline constexpr std::size_t kMaxKeySize = 511;
inline constexpr std::size_t kHashSize = 16;
inline constexpr std::size_t kTruncatedPrefix = kMaxKeySize - kHashSize;
inline constexpr std::size_t kTableIdSize = 4;

using Hash128 = std::array<char, kHashSize>;

// Appends a self-delimiting, order-preserving encoding of a scalar (S, N or B).
// Byte order of encodings equals DynamoDB's order of values of one type.
void append_sortable(std::string& out, const AttributeValue& value);

// The length of the sortable encoding at the start of `encoded` (encodings are
// self-delimiting); `type` says which kind of value it encodes.
std::size_t sortable_length(std::string_view encoded, AttributeType type);

// The bytes of the S or B value whose sortable encoding starts `encoded`: a
// view into `encoded` when the value has no zero byte, else into `scratch`.
std::string_view sortable_bytes(std::string_view encoded, std::string& scratch);

// The smallest key greater than every key starting with `prefix`; empty if none.
std::string prefix_successor(std::string prefix);

// The sortable encoding of a prefix of an S or B value, without terminator:
// every value starting with `prefix` encodes to bytes starting with this.
std::string sortable_prefix(std::string_view prefix);

// 128-bit hash of a partition key value (type and normalised value).
Hash128 hash_partition_key(const AttributeValue& value);
// The same over the values of a multi-attribute partition key, in key order:
// each value's type and sortable encoding in turn (one value hashes as above).
Hash128 hash_partition_key(std::span<const AttributeValue* const> values);

void append_table_id(std::string& out, std::uint32_t table_id);
std::uint32_t read_table_id(std::string_view key);
// The 4 bytes every key of one key space (table, index, stream, backup) starts with.
std::string key_space_prefix(std::uint32_t id);

// A u64 as 8 big-endian bytes, so that byte order is numeric order (sequence
// numbers, times); read_u64 reads the first 8 bytes of `bytes`.
void append_u64(std::string& out, std::uint64_t value);
std::uint64_t read_u64(std::string_view bytes);

// The leading bytes every stored key of one partition shares.
std::string partition_prefix(std::uint32_t key_space, const AttributeValue& partition);
std::string partition_prefix(std::uint32_t key_space, std::span<const AttributeValue* const> partition);

// The full (possibly over-long) encoded primary key.
std::string encode_primary_key(std::uint32_t table_id, const AttributeValue& partition, const AttributeValue* sort);

// The key image kept in an item's record: sortable(partition) ‖ sortable(sort).
std::string key_image(const AttributeValue& partition, const AttributeValue* sort);

// The key as stored in LMDB: the full key, or its truncated form.
std::string to_stored_key(std::string full_key);
inline bool is_truncated(std::string_view stored_key) { return stored_key.size() == kMaxKeySize; }

}  // namespace dynamod::keys
