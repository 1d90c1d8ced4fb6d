#pragma once
// The subset of Amazon Ion's text format that DynamoDB's exports and imports
// use (the developer guide's "DynamoDB table export output format"): structs,
// lists, strings, symbols, ints, decimals, floats, blobs, booleans, nulls and
// annotations, with sets written as lists annotated $dynamodb_SS,
// $dynamodb_NS or $dynamodb_BS. No Ion library is packaged for Debian, so
// this is dynamod's own. Timestamps, clobs and s-expressions are refused.
//
// Writing: an item is a struct of its attributes, each value in its Ion form
// (S string, N decimal, B blob, BOOL bool, NULL null, L list, M struct, sets
// annotated lists). Reading turns Ion text back into values; nesting is
// bounded (kMaxDepth), so hostile text cannot exhaust the stack.

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "protocol/attribute_value.h"

namespace dynamod::ion {

// Deeper than any item (DynamoDB nests 32 levels) plus the export's wrappers.
inline constexpr int kMaxDepth = 64;

// ---------------------------------------------------------------- writing

// {name:value,...}: the Ion struct of an item's attributes.
void write_item(std::string& out, const Item& item);
std::string item_text(const Item& item);
void write_value(std::string& out, const AttributeValue& value);
// A struct field name or symbol: bare when it is an identifier, 'quoted' otherwise.
void write_symbol(std::string& out, std::string_view name);
// DynamoDB's numbers as Ion decimals, as the service writes them: 103., 6d2, 1.5, -2d-40.
void write_decimal(std::string& out, const Number& number);

// ---------------------------------------------------------------- reading

struct Field;

struct Value {
  enum class Kind { Null, Bool, Int, Decimal, Float, String, Symbol, Blob, List, Struct };
  Kind kind = Kind::Null;
  std::vector<std::string> annotations;
  std::string text;  // String and Symbol: the characters; Blob: the bytes; Int, Decimal, Float: the number as written
  bool boolean = false;
  std::vector<Value> items;   // List
  std::vector<Field> fields;  // Struct, in order (a named type: clang's library needs
                              // the element complete where a std::pair's would not be)
  // The value of a struct's first field of that name, or nullptr.
  const Value* field(std::string_view name) const;
};

struct Field {
  std::string name;
  Value value;
};

// Every top-level value of an Ion text stream, in order ($ion_1_0 version
// markers are dropped). Throws a ValidationException ApiError naming the
// offset of the first thing it cannot read.
std::vector<Value> parse(std::string_view text);

// The attribute value an Ion value stands for (a string is S, a decimal N, a
// list annotated $dynamodb_SS an SS, ...). Throws a ValidationException
// ApiError for what no attribute value is (a symbol, a mixed set...).
AttributeValue to_attribute_value(const Value& value);
// An item from an Ion struct.
Item to_item(const Value& value);
// One item's struct text ({...}) to its attributes: the reverse of item_text.
Item read_item(std::string_view text);

}  // namespace dynamod::ion
