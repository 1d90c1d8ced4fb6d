#pragma once
// The stored form of an item: compact binary, not JSON.
//
//   u8 format (2) | varint DynamoDB item size | varint length | key image
//   | varint count | top-level attributes
//   top-level attribute = varint n | (n = 0: varint name length | name)
//                         | (value | u8 0x80 + type (S or B) | varint offset)
//                         where n - 1 is the name's number in AttributeNames,
//                         and a key attribute's S or B value is the one whose
//                         sortable encoding starts at offset in the key image
//   attribute = varint name length | name | value      (the members of a map)
//   value     = u8 type tag (AttributeType) | payload
//   S, B      = varint length | bytes        N = varint length | canonical text
//   BOOL      = u8                            NULL = nothing
//   SS, NS, BS= varint count | (varint length | bytes)*
//   L         = varint count | value*         M = varint count | attribute*
//
// The key image is the sortable encoding of the partition key value followed
// by that of the sort key value: readers compare it with the key they looked
// up (a hash collision is detected, not merged) and order truncated keys by it.
// Numbers are kept as their canonical text so that responses copy them
// straight out. The item's metered size rides in the header so reads are
// billed without decoding. Records of format 1, written before the name
// dictionary, differ in two places (a u32 LE size, and top-level attributes
// spelled out like map members, key values held twice) and are still read.

#include <cstdint>
#include <string>
#include <string_view>

#include "protocol/attribute_value.h"
#include "protocol/json_writer.h"
#include "protocol/table_schema.h"
#include "storage/attribute_names.h"

namespace dynamod::items {

// The attributes whose values make up the key image: sortable(partition)
// then, if `sort` is not empty, sortable(sort). Their values are not stored
// again when the image holds them.
struct KeyNames {
  std::string_view partition;
  std::string_view sort;
};
// Views of the schema's own strings: `key.sort ? key.sort->name : ""` would be a
// temporary std::string, and the view would dangle.
inline KeyNames key_names(const KeyDef& key) {
  return {key.partition.name, key.sort ? std::string_view{key.sort->name} : std::string_view{}};
}

// Numbers new top-level names in `names` as a side effect.
std::string encode(const Item& item, std::uint32_t metered_size, std::string_view key_image, KeyNames key,
                   AttributeNames& names);
Item decode(std::string_view record, const AttributeNames& names);
std::uint32_t metered_size(std::string_view record);
std::string_view key_image(std::string_view record);
// Writes the item's DynamoDB JSON straight from the record.
void write_json(JsonWriter& out, std::string_view record, const AttributeNames& names);

}  // namespace dynamod::items
