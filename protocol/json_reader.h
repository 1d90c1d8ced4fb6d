#pragma once
// Helpers for decoding requests with simdjson's on-demand API: typed reads of
// one field that turn a JSON value of the wrong type into the service's
// SerializationException. JSON null counts as an absent member, as on the service.

#include <simdjson.h>

#include <cstdint>
#include <string>
#include <string_view>

#include "protocol/api_error.h"

namespace dynamod::json {

using simdjson::ondemand::array;
using simdjson::ondemand::object;
using simdjson::ondemand::value;

// The service's message for a JSON value of the wrong type.
ApiError type_mismatch(value& v, std::string_view expected);

// The request body's top-level object, as every decoder takes it; `doc` holds
// the parse (padding is reserved behind `body`). Throws a SerializationException
// (no message, as the service's) unless the body is a well-formed JSON object,
// all of it: the decoders pass over members they do not know without reading
// them, and simdjson's on-demand API checks a value only when it is read, while
// the service's parser reads the whole body before anything looks at it.
object request_object(simdjson::ondemand::parser& parser, std::string& body, simdjson::ondemand::document& doc);

bool is_null(value& v);
std::string_view read_string(value& v);
bool read_bool(value& v);
std::int64_t read_integer(value& v);
object read_object(value& v);
array read_array(value& v);

}  // namespace dynamod::json
