#pragma once
// UpdateTimeToLive and DescribeTimeToLive requests.

#include <optional>
#include <string>

#include "protocol/json_reader.h"

namespace dynamod {

struct UpdateTimeToLiveRequest {
  std::optional<std::string> table_name;
  bool has_specification = false;
  std::optional<bool> enabled;
  std::optional<std::string> attribute_name;
};

UpdateTimeToLiveRequest decode_update_time_to_live(json::object body);

}  // namespace dynamod
