#pragma once
// How the service's Java collections order keys, where its error messages or
// the order of its checks show that order: java.util.HashMap iterates bucket
// by bucket, and within a bucket in insertion order.

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace dynamod::expr {

// Java's String.hashCode over UTF-16 code units.
std::uint32_t java_string_hash(std::string_view s);

// The buckets of a java.util.HashMap holding `count` keys: 16, doubled while
// count > 0.75 * capacity.
std::size_t java_hash_capacity(std::size_t count);

// The bucket such a map puts `key` in: (h ^ h >>> 16) & (capacity - 1).
std::size_t java_hash_bucket(std::string_view key, std::size_t count);

// Puts distinct keys, given in insertion order, in the order a
// java.util.HashSet holding exactly them iterates.
void java_hash_set_iteration_order(std::vector<std::string_view>& keys);

}  // namespace dynamod::expr
