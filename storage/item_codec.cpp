#include "storage/item_codec.h"

#include <stdexcept>

#include "storage/key_codec.h"

namespace dynamod::items {
namespace {

// Format 1 (before the name dictionary): a u32 size and every name spelled out.
constexpr std::uint8_t kFormatSpelledNames = 1;
constexpr std::uint8_t kFormat = 2;
// A top-level S or B key attribute's tag: its value is in the key image.
constexpr std::uint8_t kKeyPartFlag = 0x80;

void put_varint(std::string& out, std::uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<char>((v & 0x7F) | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<char>(v));
}

void put_bytes(std::string& out, std::string_view bytes) {
  put_varint(out, bytes.size());
  out.append(bytes);
}

void put_value(std::string& out, const AttributeValue& value);

void put_attributes(std::string& out, const Map& map) {
  put_varint(out, map.size());
  for (const auto& [name, value] : map) {
    put_bytes(out, name);
    put_value(out, value);
  }
}

// Where a key attribute's value sits in the key image, if the record can
// refer to it there instead of holding it twice: S and B values only (N keys
// are short, and rendering one from its sortable form would cost every read).
// The image is read here exactly as the reader will read it, so a part the
// reader would misread (its final 00 followed by a byte FF) stays a value.
std::optional<std::size_t> key_part_offset(const AttributeValue& value, std::string_view key_image,
                                           std::size_t offset) {
  if (value.type() != AttributeType::S && value.type() != AttributeType::B) return std::nullopt;
  if (offset > key_image.size()) return std::nullopt;
  std::string scratch;
  std::string_view in_image = keys::sortable_bytes(key_image.substr(offset), scratch);
  if (in_image != (value.type() == AttributeType::S ? value.as_string() : value.as_binary())) return std::nullopt;
  return offset;
}

void put_top_level_attributes(std::string& out, const Map& map, std::string_view key_image, KeyNames key,
                              AttributeNames& names) {
  // The sort key's encoding follows the partition key's in the image.
  std::size_t sort_offset = 0;
  if (!key.sort.empty()) {
    if (const AttributeValue* partition = map.find(key.partition)) {
      sort_offset = keys::sortable_length(key_image, partition->type());
    }
  }
  put_varint(out, map.size());
  for (const auto& [name, value] : map) {
    if (std::optional<std::uint32_t> id = names.id_of(name)) {
      put_varint(out, std::uint64_t{*id} + 1);
    } else {
      out.push_back(0);
      put_bytes(out, name);
    }
    std::optional<std::size_t> offset;
    if (!key.partition.empty() && name == key.partition) offset = key_part_offset(value, key_image, 0);
    if (!key.sort.empty() && name == key.sort) offset = key_part_offset(value, key_image, sort_offset);
    if (offset) {
      out.push_back(static_cast<char>(kKeyPartFlag | static_cast<std::uint8_t>(value.type())));
      put_varint(out, *offset);
    } else {
      put_value(out, value);
    }
  }
}

void put_value(std::string& out, const AttributeValue& value) {
  out.push_back(static_cast<char>(value.type()));
  switch (value.type()) {
    case AttributeType::S: put_bytes(out, value.as_string()); break;
    case AttributeType::N: put_bytes(out, value.as_number().to_string()); break;
    case AttributeType::B: put_bytes(out, value.as_binary()); break;
    case AttributeType::BOOL: out.push_back(value.as_bool() ? 1 : 0); break;
    case AttributeType::NUL: break;
    case AttributeType::SS:
      put_varint(out, value.as_string_set().values.size());
      for (const auto& s : value.as_string_set().values) put_bytes(out, s);
      break;
    case AttributeType::NS:
      put_varint(out, value.as_number_set().values.size());
      for (const auto& n : value.as_number_set().values) put_bytes(out, n.to_string());
      break;
    case AttributeType::BS:
      put_varint(out, value.as_binary_set().values.size());
      for (const auto& b : value.as_binary_set().values) put_bytes(out, b);
      break;
    case AttributeType::L:
      put_varint(out, value.as_list().values.size());
      for (const auto& e : value.as_list().values) put_value(out, e);
      break;
    case AttributeType::M: put_attributes(out, value.as_map()); break;
  }
}

// Reads a record; throws on corruption (which would be a bug or a damaged file).
class Reader {
 public:
  Reader(std::string_view data, const AttributeNames* names) : data_(data), names_(names) {}

  std::uint8_t byte() {
    need(1);
    return static_cast<std::uint8_t>(data_[pos_++]);
  }
  std::uint8_t peek() {
    need(1);
    return static_cast<std::uint8_t>(data_[pos_]);
  }
  std::uint64_t varint() {
    std::uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      std::uint8_t b = byte();
      v |= std::uint64_t(b & 0x7F) << shift;
      if ((b & 0x80) == 0) return v;
    }
    throw std::runtime_error("corrupt item record: varint");
  }
  std::string_view bytes() {
    std::uint64_t n = varint();
    need(n);
    std::string_view s = data_.substr(pos_, n);
    pos_ += n;
    return s;
  }
  std::uint32_t u32() {
    need(4);
    std::uint32_t v = 0;
    for (int i = 3; i >= 0; --i) v = (v << 8) | static_cast<std::uint8_t>(data_[pos_ + static_cast<std::size_t>(i)]);
    pos_ += 4;
    return v;
  }
  AttributeType tag() {
    std::uint8_t t = byte();
    if (t > static_cast<std::uint8_t>(AttributeType::M)) throw std::runtime_error("corrupt item record: tag");
    return static_cast<AttributeType>(t);
  }
  // Reads the format byte and the metered size.
  std::uint32_t size_header() {
    format_ = byte();
    if (format_ == kFormat) return static_cast<std::uint32_t>(varint());
    if (format_ == kFormatSpelledNames) return u32();
    throw std::runtime_error("corrupt item record: format");
  }
  // Reads the header and returns the key image.
  std::string_view header() {
    size_header();
    image_ = bytes();
    return image_;
  }
  // A top-level value that refers to the key image: its type and its bytes.
  std::optional<std::pair<AttributeType, std::string_view>> key_part(std::string& scratch) {
    if (format_ == kFormatSpelledNames || (peek() & kKeyPartFlag) == 0) return std::nullopt;
    auto type = static_cast<AttributeType>(byte() & ~kKeyPartFlag);
    std::uint64_t offset = varint();
    if ((type != AttributeType::S && type != AttributeType::B) || offset >= image_.size() ||
        image_.find('\0', offset) == std::string_view::npos) {
      throw std::runtime_error("corrupt item record: key part");
    }
    return std::pair{type, keys::sortable_bytes(image_.substr(offset), scratch)};
  }
  // The name of a top-level attribute: a dictionary number (+1), or 0 and the name.
  std::string_view top_level_name() {
    if (format_ == kFormatSpelledNames) return bytes();
    std::uint64_t ref = varint();
    if (ref == 0) return bytes();
    if (names_ == nullptr || ref > UINT32_MAX) throw std::runtime_error("corrupt item record: name number");
    return names_->name_of(static_cast<std::uint32_t>(ref - 1));
  }

 private:
  void need(std::uint64_t n) const {
    if (n > data_.size() - pos_) throw std::runtime_error("corrupt item record: truncated");
  }
  std::string_view data_;
  const AttributeNames* names_;
  std::string_view image_;
  std::size_t pos_ = 0;
  std::uint8_t format_ = kFormat;
};

AttributeValue read_value(Reader& in);

Map read_attributes(Reader& in) {
  Map map;
  std::uint64_t n = in.varint();
  map.reserve(n);
  for (std::uint64_t i = 0; i < n; ++i) {
    std::string name(in.bytes());
    map.append_sorted(std::move(name), read_value(in));
  }
  return map;
}

Map read_top_level_attributes(Reader& in) {
  Map map;
  std::uint64_t n = in.varint();
  map.reserve(n);
  std::string scratch;
  for (std::uint64_t i = 0; i < n; ++i) {
    std::string name(in.top_level_name());
    if (auto part = in.key_part(scratch)) {
      std::string bytes(part->second);
      map.append_sorted(std::move(name), part->first == AttributeType::S ? AttributeValue::string(std::move(bytes))
                                                                         : AttributeValue::binary(std::move(bytes)));
    } else {
      map.append_sorted(std::move(name), read_value(in));
    }
  }
  return map;
}

AttributeValue read_value(Reader& in) {
  switch (in.tag()) {
    case AttributeType::S: return AttributeValue::string(std::string(in.bytes()));
    case AttributeType::N: return AttributeValue::number(Number::from_canonical(in.bytes()));
    case AttributeType::B: return AttributeValue::binary(std::string(in.bytes()));
    case AttributeType::BOOL: return AttributeValue::boolean(in.byte() != 0);
    case AttributeType::NUL: return AttributeValue::null();
    case AttributeType::SS: {
      StringSet set;
      std::uint64_t n = in.varint();
      for (std::uint64_t i = 0; i < n; ++i) set.values.emplace_back(in.bytes());
      return AttributeValue::string_set(std::move(set));
    }
    case AttributeType::NS: {
      NumberSet set;
      std::uint64_t n = in.varint();
      for (std::uint64_t i = 0; i < n; ++i) set.values.push_back(Number::from_canonical(in.bytes()));
      return AttributeValue::number_set(std::move(set));
    }
    case AttributeType::BS: {
      BinarySet set;
      std::uint64_t n = in.varint();
      for (std::uint64_t i = 0; i < n; ++i) set.values.emplace_back(in.bytes());
      return AttributeValue::binary_set(std::move(set));
    }
    case AttributeType::L: {
      List list;
      std::uint64_t n = in.varint();
      list.values.reserve(n);
      for (std::uint64_t i = 0; i < n; ++i) list.values.push_back(read_value(in));
      return AttributeValue::list(std::move(list));
    }
    case AttributeType::M: return AttributeValue::map(read_attributes(in));
  }
  throw std::runtime_error("corrupt item record: tag");
}

void write_value_json(JsonWriter& out, Reader& in);

void write_attributes_json(JsonWriter& out, Reader& in) {
  out.begin_object();
  std::uint64_t n = in.varint();
  for (std::uint64_t i = 0; i < n; ++i) {
    out.key(in.bytes());
    write_value_json(out, in);
  }
  out.end_object();
}

void write_top_level_attributes_json(JsonWriter& out, Reader& in) {
  out.begin_object();
  std::uint64_t n = in.varint();
  std::string scratch;
  for (std::uint64_t i = 0; i < n; ++i) {
    out.key(in.top_level_name());
    if (auto part = in.key_part(scratch)) {
      out.begin_object();
      out.key(type_name(part->first));
      if (part->first == AttributeType::S) {
        out.string(part->second);
      } else {
        out.base64(part->second);
      }
      out.end_object();
    } else {
      write_value_json(out, in);
    }
  }
  out.end_object();
}

void write_value_json(JsonWriter& out, Reader& in) {
  AttributeType type = in.tag();
  out.begin_object();
  out.key(type_name(type));
  switch (type) {
    case AttributeType::S:
    case AttributeType::N: out.string(in.bytes()); break;
    case AttributeType::B: out.base64(in.bytes()); break;
    case AttributeType::BOOL: out.boolean(in.byte() != 0); break;
    case AttributeType::NUL: out.boolean(true); break;
    case AttributeType::SS:
    case AttributeType::NS:
    case AttributeType::BS: {
      out.begin_array();
      std::uint64_t n = in.varint();
      for (std::uint64_t i = 0; i < n; ++i) {
        if (type == AttributeType::BS) {
          out.base64(in.bytes());
        } else {
          out.string(in.bytes());
        }
      }
      out.end_array();
      break;
    }
    case AttributeType::L: {
      out.begin_array();
      std::uint64_t n = in.varint();
      for (std::uint64_t i = 0; i < n; ++i) write_value_json(out, in);
      out.end_array();
      break;
    }
    case AttributeType::M: write_attributes_json(out, in); break;
  }
  out.end_object();
}

}  // namespace

std::string encode(const Item& item, std::uint32_t metered_size, std::string_view key_image, KeyNames key,
                   AttributeNames& names) {
  std::string out;
  out.reserve(64 + key_image.size());
  out.push_back(static_cast<char>(kFormat));
  put_varint(out, metered_size);
  put_bytes(out, key_image);
  put_top_level_attributes(out, item, key_image, key, names);
  return out;
}

Item decode(std::string_view record, const AttributeNames& names) {
  Reader in(record, &names);
  in.header();
  return read_top_level_attributes(in);
}

std::string_view key_image(std::string_view record) {
  Reader in(record, nullptr);
  return in.header();
}

std::uint32_t metered_size(std::string_view record) {
  Reader in(record, nullptr);
  return in.size_header();
}

void write_json(JsonWriter& out, std::string_view record, const AttributeNames& names) {
  Reader in(record, &names);
  in.header();
  write_top_level_attributes_json(out, in);
}

}  // namespace dynamod::items
