#pragma once
// AttributeValue <-> DynamoDB JSON ({"S":"x"}, {"N":"1"}, {"M":{...}} ...).
// Decoding validates and normalises (numbers, sets) with the service's messages.

#include "protocol/attribute_value.h"
#include "protocol/json_reader.h"
#include "protocol/json_writer.h"

namespace dynamod {

// DynamoDB allows 32 levels of nested lists and maps.
inline constexpr int kMaxNestingDepth = 32;
// What a value nested deeper is refused with (ValidationException).
inline constexpr std::string_view kNestingLimitMessage =
    "Nesting Levels have exceeded supported limits: Attributes in the item have nested levels beyond supported limit";

AttributeValue decode_attribute_value(json::value& v);
// A map of attribute name -> AttributeValue (an Item, a Key, ExpressionAttributeValues).
Item decode_item(json::value& v);

void encode_attribute_value(JsonWriter& out, const AttributeValue& value);
void encode_item(JsonWriter& out, const Item& item);

// The service's ValidationException for a bad number string.
ApiError number_error(Number::ParseError error, std::string_view text);
Number parse_number_or_throw(std::string_view text);

}  // namespace dynamod
