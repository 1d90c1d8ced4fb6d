#pragma once
// The stored form of an item: compact binary, not JSON.
//
//   u8 format (1) | u32 LE DynamoDB item size | varint length | key image
//   | varint count | attributes
//   attribute = varint name length | name | value
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
// billed without decoding.

#include <cstdint>
#include <string>
#include <string_view>

#include "protocol/attribute_value.h"
#include "protocol/json_writer.h"

namespace dynamod::items {

std::string encode(const Item& item, std::uint32_t metered_size, std::string_view key_image);
Item decode(std::string_view record);
std::uint32_t metered_size(std::string_view record);
std::string_view key_image(std::string_view record);
// Writes the item's DynamoDB JSON straight from the record.
void write_json(JsonWriter& out, std::string_view record);

}  // namespace dynamod::items
