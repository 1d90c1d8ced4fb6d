#pragma once
// AttributeValue: a typed variant of DynamoDB's ten attribute types, validated
// and normalised once when decoded. Sets are kept sorted and duplicate-free, so
// equal sets compare equal; maps are sorted by name.

#include <compare>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "protocol/number.h"

namespace dynamod {

// The order is persisted in the item codec's tags: never reorder.
enum class AttributeType : std::uint8_t { S, N, B, BOOL, NUL, SS, NS, BS, L, M };

// "S", "N", ... as on the wire.
std::string_view type_name(AttributeType type);

class AttributeValue;

struct Binary {
  std::string bytes;
  friend bool operator==(const Binary&, const Binary&) = default;
};
struct Null {
  friend bool operator==(const Null&, const Null&) = default;
};
struct StringSet {
  std::vector<std::string> values;  // sorted by bytes, unique
  friend bool operator==(const StringSet&, const StringSet&) = default;
};
struct NumberSet {
  std::vector<Number> values;  // sorted numerically, unique
  friend bool operator==(const NumberSet&, const NumberSet&) = default;
};
struct BinarySet {
  std::vector<std::string> values;  // sorted by bytes, unique
  friend bool operator==(const BinarySet&, const BinarySet&) = default;
};
struct List {
  std::vector<AttributeValue> values;
  friend bool operator==(const List&, const List&);
};

// A map from attribute name to value, kept sorted by name (small maps are the
// norm: a sorted vector beats a tree on every operation we need).
class Map {
 public:
  using Entry = std::pair<std::string, AttributeValue>;
  using const_iterator = std::vector<Entry>::const_iterator;

  const AttributeValue* find(std::string_view name) const;
  AttributeValue* find(std::string_view name);
  // Inserts or replaces. Returns true if the name was new.
  bool set(std::string name, AttributeValue value);
  bool erase(std::string_view name);
  // For decoders that may meet a name twice: false if it was already present.
  bool insert_new(std::string name, AttributeValue value);

  bool empty() const;
  std::size_t size() const;
  const_iterator begin() const;
  const_iterator end() const;
  void reserve(std::size_t n);
  // Appends an entry known to sort after every present one (decoding sorted data).
  void append_sorted(std::string name, AttributeValue value);

  friend bool operator==(const Map&, const Map&);

 private:
  std::vector<Entry>::iterator lower_bound(std::string_view name);
  std::vector<Entry>::const_iterator lower_bound(std::string_view name) const;
  std::vector<Entry> entries_;
};

// An item is a top-level map.
using Item = Map;

class AttributeValue {
 public:
  using Storage = std::variant<std::string, Number, Binary, bool, Null, StringSet, NumberSet, BinarySet, List, Map>;

  AttributeValue() : v_(Null{}) {}
  static AttributeValue string(std::string s) { return AttributeValue(Storage(std::in_place_index<0>, std::move(s))); }
  static AttributeValue number(Number n) { return AttributeValue(Storage(std::move(n))); }
  static AttributeValue binary(std::string bytes) { return AttributeValue(Storage(Binary{std::move(bytes)})); }
  static AttributeValue boolean(bool b) { return AttributeValue(Storage(b)); }
  static AttributeValue null() { return AttributeValue(Storage(Null{})); }
  static AttributeValue string_set(StringSet s) { return AttributeValue(Storage(std::move(s))); }
  static AttributeValue number_set(NumberSet s) { return AttributeValue(Storage(std::move(s))); }
  static AttributeValue binary_set(BinarySet s) { return AttributeValue(Storage(std::move(s))); }
  static AttributeValue list(List l) { return AttributeValue(Storage(std::move(l))); }
  static AttributeValue map(Map m) { return AttributeValue(Storage(std::move(m))); }

  AttributeType type() const { return static_cast<AttributeType>(v_.index()); }

  const std::string& as_string() const { return std::get<0>(v_); }
  const Number& as_number() const { return std::get<Number>(v_); }
  const std::string& as_binary() const { return std::get<Binary>(v_).bytes; }
  bool as_bool() const { return std::get<bool>(v_); }
  const StringSet& as_string_set() const { return std::get<StringSet>(v_); }
  const NumberSet& as_number_set() const { return std::get<NumberSet>(v_); }
  const BinarySet& as_binary_set() const { return std::get<BinarySet>(v_); }
  const List& as_list() const { return std::get<List>(v_); }
  List& as_list() { return std::get<List>(v_); }
  const Map& as_map() const { return std::get<Map>(v_); }
  Map& as_map() { return std::get<Map>(v_); }

  const Storage& storage() const { return v_; }

  friend bool operator==(const AttributeValue&, const AttributeValue&) = default;

 private:
  explicit AttributeValue(Storage v) : v_(std::move(v)) {}
  Storage v_;
};

// Defined here, where AttributeValue is complete (some standard libraries
// need that for std::vector's members).
inline bool Map::empty() const { return entries_.empty(); }
inline std::size_t Map::size() const { return entries_.size(); }
inline Map::const_iterator Map::begin() const { return entries_.begin(); }
inline Map::const_iterator Map::end() const { return entries_.end(); }
inline void Map::reserve(std::size_t n) { entries_.reserve(n); }

// Sorts and checks a set's members; returns false if two members are equal.
bool normalize_set(std::vector<std::string>& values);
bool normalize_set(std::vector<Number>& values);

}  // namespace dynamod
