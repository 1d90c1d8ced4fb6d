#pragma once
// The web console's files (server/console/*), compiled into the binary by
// server/embed_assets.cmake: nothing is read from disk or the network.

#include <span>
#include <string_view>

namespace dynamod {

struct ConsoleAsset {
  std::string_view name;  // the file's name in server/console/
  std::string_view etag;  // quoted digest of its bytes
  std::string_view bytes;
};

std::span<const ConsoleAsset> console_assets();

}  // namespace dynamod
