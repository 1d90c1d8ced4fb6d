#include "storage/item_codec.h"

#include <stdexcept>

namespace dynamod::items {
namespace {

constexpr std::uint8_t kFormat = 1;

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
  explicit Reader(std::string_view data) : data_(data) {}

  std::uint8_t byte() {
    need(1);
    return static_cast<std::uint8_t>(data_[pos_++]);
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
  // Reads the header and returns the key image.
  std::string_view header() {
    if (byte() != kFormat) throw std::runtime_error("corrupt item record: format");
    u32();
    return bytes();
  }

 private:
  void need(std::uint64_t n) const {
    if (n > data_.size() - pos_) throw std::runtime_error("corrupt item record: truncated");
  }
  std::string_view data_;
  std::size_t pos_ = 0;
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

std::string encode(const Item& item, std::uint32_t metered_size, std::string_view key_image) {
  std::string out;
  out.reserve(64 + key_image.size());
  out.push_back(static_cast<char>(kFormat));
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>((metered_size >> (8 * i)) & 0xFF));
  put_bytes(out, key_image);
  put_attributes(out, item);
  return out;
}

Item decode(std::string_view record) {
  Reader in(record);
  in.header();
  return read_attributes(in);
}

std::string_view key_image(std::string_view record) {
  Reader in(record);
  return in.header();
}

std::uint32_t metered_size(std::string_view record) {
  Reader in(record);
  if (in.byte() != kFormat) throw std::runtime_error("corrupt item record: format");
  return in.u32();
}

void write_json(JsonWriter& out, std::string_view record) {
  Reader in(record);
  in.header();
  write_attributes_json(out, in);
}

}  // namespace dynamod::items
