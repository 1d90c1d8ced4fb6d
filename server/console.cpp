#include "server/console.h"

namespace dynamod {
namespace {

constexpr std::string_view kIndex = "index.html";

std::string_view path_of(std::string_view target) {
  std::size_t query = target.find('?');
  return query == std::string_view::npos ? target : target.substr(0, query);
}

}  // namespace

bool is_console_target(std::string_view target) {
  std::string_view path = path_of(target);
  if (!path.starts_with(kConsolePath)) return false;
  std::string_view rest = path.substr(kConsolePath.size());
  return rest.empty() || rest.front() == '/';
}

std::optional<ConsoleAsset> find_console_asset(std::string_view target) {
  std::string_view rest = path_of(target).substr(kConsolePath.size());
  if (!rest.empty()) rest.remove_prefix(1);  // the '/'
  if (rest.empty()) rest = kIndex;
  for (const ConsoleAsset& asset : console_assets()) {
    if (asset.name == rest) return asset;
  }
  return std::nullopt;
}

std::string_view console_content_type(std::string_view name) {
  if (name.ends_with(".html")) return "text/html; charset=utf-8";
  if (name.ends_with(".js")) return "text/javascript; charset=utf-8";
  if (name.ends_with(".css")) return "text/css; charset=utf-8";
  if (name.ends_with(".svg")) return "image/svg+xml";
  if (name.ends_with(".png")) return "image/png";
  return "application/octet-stream";
}

}  // namespace dynamod
