#include "server/control.h"

#include <simdjson.h>
#include <spdlog/spdlog.h>

#include <charconv>
#include <chrono>

#include "protocol/json_writer.h"
#include "server/async_write.h"

namespace dynamod {
namespace {

double elapsed_ms(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - since).count();
}

std::int64_t now_ms() {
  using namespace std::chrono;
  return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

ApiError not_found(std::string message) { return ApiError::resource_not_found(std::move(message)); }

ApiError method_not_allowed(const HttpRequest& request, std::string_view path) {
  return ApiError::validation(std::string(request.method_string()) + " /dynamod/" + std::string(path) +
                              " is not one of dynamod's control endpoints");
}

// Letters, digits, '-', '_' and '.', as a table name may use.
bool valid_snapshot_name(std::string_view name) {
  if (name.empty() || name.size() > 255) return false;
  for (char c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_' && c != '.') return false;
  }
  return true;
}

}  // namespace

ControlEndpoints::ControlEndpoints(Store& store, WriteQueue& writer, Ledger& ledger, FaultRules& faults,
                                   const Authenticator& authenticator, bool enabled, bool shared_db)
    : store_(store),
      writer_(writer),
      ledger_(ledger),
      faults_(faults),
      authenticator_(authenticator),
      enabled_(enabled),
      shared_db_(shared_db) {}

bool ControlEndpoints::handles(std::string_view path) {
  return path == "faults" || path.starts_with("faults/") || path == "reset" || path == "snapshots" ||
         path.starts_with("snapshots/") || path == "consistency" || path == "cost/reset";
}

asio::awaitable<ControlEndpoints::Answer> ControlEndpoints::handle(const HttpRequest& request, std::string_view path) {
  const bool changes_state = request.method() != http::verb::get;
  if (changes_state) {
    if (!enabled_) {
      co_return ControlAnswer{http::status::forbidden,
                              "{\"message\":\"dynamod's control endpoints are off (--control off)\"}"};
    }
    // Strict mode lets no one change state without a listed key.
    if (authenticator_.verifies()) {
      auto auth = authenticator_.authenticate(request, std::chrono::system_clock::now());
      if (auto* error = std::get_if<ApiError>(&auth)) co_return std::move(*error);
    }
  }
  if (path == "faults" || path.starts_with("faults/")) co_return faults(request, path.substr(6));
  if (path == "reset") co_return co_await reset(request);
  if (path == "consistency") co_return consistency(request);
  if (path == "snapshots" || path.starts_with("snapshots/")) co_return co_await snapshots(request, path.substr(9));
  if (request.method() != http::verb::post) co_return method_not_allowed(request, path);
  // cost/reset: the usage ledger starts over.
  const std::int64_t now = now_ms();
  auto job = write_job([this, now](WriteContext& w) {
    ledger_.reset(w, now);
    return true;
  });
  co_await async_write(writer_, std::move(job));
  co_return ControlAnswer{http::status::ok, "{}"};
}

ControlEndpoints::Answer ControlEndpoints::faults(const HttpRequest& request, std::string_view rest) {
  // rest: "" or "/ID"
  if (rest.empty()) {
    switch (request.method()) {
      case http::verb::get: return ControlAnswer{http::status::ok, faults_.list_json()};
      case http::verb::post: {
        std::vector<std::unique_ptr<FaultRule>> rules = parse_fault_rules(request.body());
        JsonWriter out;
        out.begin_object();
        if (rules.size() == 1) {
          out.key("id");
          out.string(std::to_string(faults_.add(std::move(rules.front()))));
        } else {
          out.key("ids");
          out.begin_array();
          for (auto& rule : rules) out.string(std::to_string(faults_.add(std::move(rule))));
          out.end_array();
        }
        out.end_object();
        spdlog::info("fault rules added: {}", request.body());
        return ControlAnswer{http::status::ok, out.take()};
      }
      case http::verb::delete_:
        faults_.clear();
        spdlog::info("fault rules cleared");
        return ControlAnswer{http::status::ok, "{}"};
      default: return method_not_allowed(request, "faults");
    }
  }
  const std::string_view id_text = rest.substr(1);
  std::uint64_t id = 0;
  auto [end, ec] = std::from_chars(id_text.data(), id_text.data() + id_text.size(), id);
  if (request.method() != http::verb::delete_) return method_not_allowed(request, "faults/ID");
  if (ec != std::errc() || end != id_text.data() + id_text.size() || !faults_.remove(id)) {
    return not_found("No fault rule with id " + std::string(id_text));
  }
  return ControlAnswer{http::status::ok, "{}"};
}

asio::awaitable<ControlEndpoints::Answer> ControlEndpoints::reset(const HttpRequest& request) {
  if (request.method() != http::verb::post) co_return method_not_allowed(request, "reset");
  ResetScope scope;
  if (!request.body().empty()) {
    simdjson::dom::parser parser;
    simdjson::dom::object options;
    if (parser.parse(request.body()).get(options) != simdjson::SUCCESS) {
      co_return ApiError::validation(
          "POST /dynamod/reset takes {\"region\": \"...\", \"keep_tables\": true} or nothing");
    }
    for (auto [key, value] : options) {
      std::string_view region;
      bool keep = false;
      if (key == "region" && value.get(region) == simdjson::SUCCESS) {
        // With --shared-db every region shares one namespace.
        scope.ns = shared_db_ ? std::string() : std::string(region);
      } else if (key == "keep_tables" && value.get(keep) == simdjson::SUCCESS) {
        scope.keep_tables = keep;
      } else {
        co_return ApiError::validation("POST /dynamod/reset: unknown or mistyped member '" + std::string(key) +
                                       "' (members: region, a string; keep_tables, a boolean)");
      }
    }
  }
  const auto started = std::chrono::steady_clock::now();
  auto job = write_job([scope](WriteContext& w) { return reset_store(w, scope); });
  const std::size_t tables = co_await async_write(writer_, std::move(job));
  const double took = elapsed_ms(started);
  spdlog::info("reset: {} tables {} ({}) in {:.2f} ms", tables, scope.keep_tables ? "emptied" : "deleted",
               scope.ns ? "region " + *scope.ns : std::string("every region"), took);
  JsonWriter out;
  out.begin_object();
  out.key("tables");
  out.unsigned_integer(tables);
  out.key("milliseconds");
  out.real(took);
  out.end_object();
  co_return ControlAnswer{http::status::ok, out.take()};
}

ControlEndpoints::Answer ControlEndpoints::consistency(const HttpRequest& request) {
  LaggedReads& lag = store_.lagged_reads();
  if (request.method() == http::verb::get) return ControlAnswer{http::status::ok, lag.settings_json()};
  if (request.method() != http::verb::post) return method_not_allowed(request, "consistency");
  constexpr std::string_view kForm =
      "POST /dynamod/consistency takes {\"lag_ms\": N} (every table without a lag of its own) or "
      "{\"table\": \"name\", \"region\": \"us-east-1\", \"lag_ms\": N or null}";
  simdjson::dom::parser parser;
  simdjson::dom::object options;
  if (parser.parse(request.body()).get(options) != simdjson::SUCCESS) return ApiError::validation(std::string(kForm));
  std::optional<std::string> table;
  std::string region = "us-east-1";
  std::optional<std::int64_t> lag_ms;
  bool lag_given = false;
  for (auto [key, value] : options) {
    std::string_view text;
    std::int64_t ms = 0;
    if (key == "table" && value.get(text) == simdjson::SUCCESS) {
      table = std::string(text);
    } else if (key == "region" && value.get(text) == simdjson::SUCCESS) {
      region = std::string(text);
    } else if (key == "lag_ms" && value.is_null()) {
      lag_given = true;
    } else if (key == "lag_ms" && value.get(ms) == simdjson::SUCCESS && ms >= 0 && ms <= 3600000) {
      lag_ms = ms;
      lag_given = true;
    } else {
      return ApiError::validation(std::string(kForm) + "; lag_ms from 0 to 3600000");
    }
  }
  if (!lag_given || (!table && !lag_ms)) return ApiError::validation(std::string(kForm));
  if (table) {
    lag.set_table_lag(shared_db_ ? std::string() : region, *table, lag_ms);
  } else {
    lag.set_default_lag(*lag_ms);
  }
  spdlog::info("consistency lag set: {}", lag.settings_json());
  return ControlAnswer{http::status::ok, lag.settings_json()};
}

std::string ControlEndpoints::snapshot_list() const {
  std::lock_guard lock(snapshots_mutex_);
  JsonWriter out;
  out.begin_object();
  out.key("snapshots");
  out.begin_array();
  for (const auto& [name, snapshot] : snapshots_) {
    out.begin_object();
    out.key("name");
    out.string(name);
    out.key("created_ms");
    out.integer(snapshot.created_ms);
    out.key("tables");
    out.unsigned_integer(snapshot.image->tables());
    out.key("items");
    out.unsigned_integer(snapshot.image->items());
    out.key("bytes");
    out.unsigned_integer(snapshot.image->bytes());
    out.key("milliseconds");
    out.real(snapshot.took_ms);
    out.end_object();
  }
  out.end_array();
  out.end_object();
  return out.take();
}

asio::awaitable<ControlEndpoints::Answer> ControlEndpoints::snapshots(const HttpRequest& request,
                                                                      std::string_view rest) {
  if (rest.empty()) {
    if (request.method() != http::verb::get) co_return method_not_allowed(request, "snapshots");
    co_return ControlAnswer{http::status::ok, snapshot_list()};
  }
  std::string_view name = rest.substr(1);
  bool restore = false;
  if (name.ends_with("/restore")) {
    name.remove_suffix(8);
    restore = true;
  }
  if (!valid_snapshot_name(name)) {
    co_return ApiError::validation("A snapshot's name is 1 to 255 letters, digits, '-', '_' or '.'");
  }
  const auto started = std::chrono::steady_clock::now();
  JsonWriter out;
  out.begin_object();
  out.key("name");
  out.string(name);
  if (restore) {
    if (request.method() != http::verb::post) co_return method_not_allowed(request, "snapshots/NAME/restore");
    std::shared_ptr<const StoreImage> image;
    {
      std::lock_guard lock(snapshots_mutex_);
      auto it = snapshots_.find(name);
      if (it == snapshots_.end()) co_return not_found("No snapshot named " + std::string(name));
      image = it->second.image;
    }
    auto job = write_job([image](WriteContext& w) {
      image->restore(w);
      return true;
    });
    co_await async_write(writer_, std::move(job));
    const double took = elapsed_ms(started);
    spdlog::info("snapshot {} restored ({} items) in {:.2f} ms", name, image->items(), took);
    out.key("items");
    out.unsigned_integer(image->items());
    out.key("milliseconds");
    out.real(took);
  } else if (request.method() == http::verb::post) {
    // One read transaction's view, copied on this thread; writes go on meanwhile.
    auto image = std::make_shared<const StoreImage>(StoreImage::take(store_));
    const double took = elapsed_ms(started);
    {
      std::lock_guard lock(snapshots_mutex_);
      snapshots_.insert_or_assign(std::string(name), Snapshot{image, now_ms(), took});
    }
    spdlog::info("snapshot {} taken ({} items, {} bytes) in {:.2f} ms", name, image->items(), image->bytes(), took);
    out.key("tables");
    out.unsigned_integer(image->tables());
    out.key("items");
    out.unsigned_integer(image->items());
    out.key("bytes");
    out.unsigned_integer(image->bytes());
    out.key("milliseconds");
    out.real(took);
  } else if (request.method() == http::verb::delete_) {
    std::lock_guard lock(snapshots_mutex_);
    auto it = snapshots_.find(name);
    if (it == snapshots_.end()) co_return not_found("No snapshot named " + std::string(name));
    snapshots_.erase(it);
  } else {
    co_return method_not_allowed(request, "snapshots/NAME");
  }
  out.end_object();
  co_return ControlAnswer{http::status::ok, out.take()};
}

}  // namespace dynamod
