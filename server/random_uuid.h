#pragma once
// Random version-4 UUIDs (RFC 4122): TableIds.

#include <string>

namespace dynamod {

std::string random_uuid();

}  // namespace dynamod
