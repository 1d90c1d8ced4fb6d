#include "storage/key_codec.h"

#include <xxhash.h>

namespace dynamod::keys {
namespace {

void append_escaped_bytes(std::string& out, std::string_view bytes) {
  // 0x00 becomes 0x00 0xFF and the string ends with 0x00, so a prefix sorts
  // before its extensions and the encoding is self-delimiting. The runs
  // between zero bytes are copied whole (most values have none).
  for (std::size_t zero = bytes.find('\0'); zero != std::string_view::npos; zero = bytes.find('\0')) {
    out.append(bytes.substr(0, zero + 1));
    out.push_back('\xFF');
    bytes.remove_prefix(zero + 1);
  }
  out.append(bytes);
  out.push_back('\0');
}

// Numbers: one byte for the sign class (negative < zero < positive), one for
// the exponent, then the digits two per byte as nibbles (digit + 1, 0 pads).
// Positive numbers end with 0x00; negative ones have exponent and digit bytes
// inverted and end with 0xFF, so larger magnitudes sort first.
void append_number(std::string& out, const Number& n) {
  if (n.is_zero()) {
    out.push_back('\x80');
    return;
  }
  const bool negative = n.negative();
  auto emit = [&](unsigned byte) { out.push_back(static_cast<char>(negative ? (~byte & 0xFF) : byte)); };
  out.push_back(negative ? '\x7F' : '\x81');
  emit(static_cast<unsigned>(n.exponent() - Number::kMinExponent));
  const std::string& digits = n.digits();
  for (std::size_t i = 0; i < digits.size(); i += 2) {
    unsigned hi = static_cast<unsigned>(digits[i] - '0') + 1;
    unsigned lo = i + 1 < digits.size() ? static_cast<unsigned>(digits[i + 1] - '0') + 1 : 0;
    emit((hi << 4) | lo);
  }
  out.push_back(negative ? '\xFF' : '\0');
}

Hash128 hash_bytes(std::string_view bytes) {
  XXH128_hash_t h = XXH3_128bits(bytes.data(), bytes.size());
  Hash128 out;
  for (int i = 0; i < 8; ++i) {
    out[static_cast<std::size_t>(i)] = static_cast<char>(h.high64 >> (56 - 8 * i));
    out[static_cast<std::size_t>(8 + i)] = static_cast<char>(h.low64 >> (56 - 8 * i));
  }
  return out;
}

}  // namespace

void append_sortable(std::string& out, const AttributeValue& value) {
  switch (value.type()) {
    case AttributeType::S: append_escaped_bytes(out, value.as_string()); break;
    case AttributeType::B: append_escaped_bytes(out, value.as_binary()); break;
    case AttributeType::N: append_number(out, value.as_number()); break;
    default: break;  // key attributes are scalars; validated before encoding
  }
}

Hash128 hash_partition_key(const AttributeValue& value) {
  const AttributeValue* values[] = {&value};
  return hash_partition_key(values);
}

Hash128 hash_partition_key(std::span<const AttributeValue* const> values) {
  std::string buffer;
  buffer.reserve(64 * values.size());
  for (const AttributeValue* value : values) {
    buffer.push_back(static_cast<char>(value->type()));
    append_sortable(buffer, *value);
  }
  return hash_bytes(buffer);
}

std::size_t sortable_length(std::string_view encoded, AttributeType type) {
  if (type == AttributeType::N) {
    if (encoded.empty() || encoded[0] == '\x80') return encoded.empty() ? 0 : 1;
    const char terminator = encoded[0] == '\x7F' ? '\xFF' : '\0';
    // Sign byte and exponent byte (which may hold any value), then digits up to the terminator.
    std::size_t end = encoded.find(terminator, 2);
    return end == std::string_view::npos ? encoded.size() : end + 1;
  }
  for (std::size_t i = 0; i < encoded.size(); ++i) {
    if (encoded[i] != '\0') continue;
    if (i + 1 < encoded.size() && encoded[i + 1] == '\xFF') {
      ++i;  // an escaped zero byte
      continue;
    }
    return i + 1;
  }
  return encoded.size();
}

std::string_view sortable_bytes(std::string_view encoded, std::string& scratch) {
  std::size_t zero = encoded.find('\0');
  if (zero == std::string_view::npos) return encoded;  // not an encoding; callers check lengths
  if (zero + 1 == encoded.size() || encoded[zero + 1] != '\xFF') return encoded.substr(0, zero);
  scratch.clear();
  for (std::size_t i = 0; i < encoded.size(); ++i) {
    if (encoded[i] != '\0') {
      scratch.push_back(encoded[i]);
    } else if (i + 1 < encoded.size() && encoded[i + 1] == '\xFF') {
      scratch.push_back('\0');
      ++i;
    } else {
      break;
    }
  }
  return scratch;
}

std::string prefix_successor(std::string prefix) {
  while (!prefix.empty()) {
    auto& last = reinterpret_cast<unsigned char&>(prefix.back());
    if (last != 0xFF) {
      ++last;
      return prefix;
    }
    prefix.pop_back();
  }
  return prefix;
}

std::string sortable_prefix(std::string_view prefix) {
  std::string out;
  append_escaped_bytes(out, prefix);
  out.pop_back();  // no terminator: a prefix of every extension's encoding
  return out;
}

std::string partition_prefix(std::uint32_t key_space, const AttributeValue& partition) {
  const AttributeValue* values[] = {&partition};
  return partition_prefix(key_space, values);
}

std::string partition_prefix(std::uint32_t key_space, std::span<const AttributeValue* const> partition) {
  std::string key;
  key.reserve(kTableIdSize + kHashSize + 32);
  append_table_id(key, key_space);
  Hash128 h = hash_partition_key(partition);
  key.append(h.data(), h.size());
  return key;
}

void append_table_id(std::string& out, std::uint32_t table_id) {
  for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<char>((table_id >> shift) & 0xFF));
}

std::string key_space_prefix(std::uint32_t id) {
  std::string prefix;
  append_table_id(prefix, id);
  return prefix;
}

void append_u64(std::string& out, std::uint64_t value) {
  for (int shift = 56; shift >= 0; shift -= 8) out.push_back(static_cast<char>((value >> shift) & 0xFF));
}

std::uint64_t read_u64(std::string_view bytes) {
  std::uint64_t value = 0;
  for (std::size_t i = 0; i < 8 && i < bytes.size(); ++i) value = (value << 8) | static_cast<unsigned char>(bytes[i]);
  return value;
}

std::uint32_t read_table_id(std::string_view key) {
  std::uint32_t id = 0;
  for (std::size_t i = 0; i < kTableIdSize && i < key.size(); ++i) {
    id = (id << 8) | static_cast<unsigned char>(key[i]);
  }
  return id;
}

std::string encode_primary_key(std::uint32_t table_id, const AttributeValue& partition, const AttributeValue* sort) {
  std::string key = partition_prefix(table_id, partition);
  if (sort != nullptr) append_sortable(key, *sort);
  return key;
}

std::string key_image(const AttributeValue& partition, const AttributeValue* sort) {
  std::string image;
  append_sortable(image, partition);
  if (sort != nullptr) append_sortable(image, *sort);
  return image;
}

std::string to_stored_key(std::string full_key) {
  if (full_key.size() <= kTruncatedPrefix) return full_key;
  Hash128 h = hash_bytes(full_key);
  full_key.resize(kTruncatedPrefix);
  full_key.append(h.data(), h.size());
  return full_key;
}

}  // namespace dynamod::keys
