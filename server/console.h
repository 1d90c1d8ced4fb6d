#pragma once
// The web console's routes: GET /dynamod/console is its page, GET
// /dynamod/console/<file> its scripts and styles, all from the binary
// (server/console_assets.h). The console itself talks to the DynamoDB API and
// the /dynamod/* reports like any client, signing its requests when dynamod
// verifies signatures, so serving it grants nothing.

#include <optional>
#include <string_view>

#include "server/console_assets.h"

namespace dynamod {

inline constexpr std::string_view kConsolePath = "/dynamod/console";

// Whether a request target (path and query) is the console's.
bool is_console_target(std::string_view target);

// The asset a console target names (the page for the bare path), if any.
std::optional<ConsoleAsset> find_console_asset(std::string_view target);

// The Content-Type of an asset, from its name's extension.
std::string_view console_content_type(std::string_view name);

}  // namespace dynamod
