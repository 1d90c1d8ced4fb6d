#pragma once
// The control endpoints under /dynamod/ that test suites drive:
//   POST   /dynamod/faults              add a fault rule (or a list) -> {"id": "..."}
//   GET    /dynamod/faults              the rules, each with its "fired" count
//   DELETE /dynamod/faults[/ID]         remove one rule, or all
//   POST   /dynamod/reset               delete (or, "keep_tables", empty) the tables
//                                       of every region or of one ("region")
//   POST   /dynamod/snapshots/NAME      save the whole store in memory
//   POST   /dynamod/snapshots/NAME/restore   return to it
//   GET    /dynamod/snapshots           the snapshots
//   DELETE /dynamod/snapshots/NAME      drop one
//   POST   /dynamod/consistency         set the consistency lag, of every table or one
//   GET    /dynamod/consistency         the lags set
//   POST   /dynamod/cost/reset          start the usage ledger over
// With --credentials every POST and DELETE under /dynamod/ must be signed
// (SigV4, service dynamodb) by a listed key; --control off refuses them all.

#include <boost/asio.hpp>

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <variant>

#include "protocol/api_error.h"
#include "server/auth.h"
#include "server/fault_rules.h"
#include "server/http_server.h"
#include "storage/ledger.h"
#include "storage/snapshots.h"
#include "storage/store.h"
#include "storage/write_queue.h"

namespace dynamod {

struct ControlAnswer {
  http::status status = http::status::ok;
  std::string body;  // JSON
};

class ControlEndpoints {
 public:
  ControlEndpoints(Store& store, WriteQueue& writer, Ledger& ledger, FaultRules& faults,
                   const Authenticator& authenticator, bool enabled, bool shared_db);

  // Whether `path` (after "/dynamod/") is one of these endpoints.
  static bool handles(std::string_view path);
  // Every request that changes state is authenticated first (with --credentials).
  asio::awaitable<std::variant<ControlAnswer, ApiError>> handle(const HttpRequest& request, std::string_view path);

 private:
  struct Snapshot {
    std::shared_ptr<const StoreImage> image;
    std::int64_t created_ms = 0;
    double took_ms = 0;
  };

  using Answer = std::variant<ControlAnswer, ApiError>;
  std::variant<ControlAnswer, ApiError> faults(const HttpRequest& request, std::string_view rest);
  asio::awaitable<std::variant<ControlAnswer, ApiError>> reset(const HttpRequest& request);
  asio::awaitable<std::variant<ControlAnswer, ApiError>> snapshots(const HttpRequest& request, std::string_view rest);
  std::string snapshot_list() const;
  Answer consistency(const HttpRequest& request);

  Store& store_;
  WriteQueue& writer_;
  Ledger& ledger_;
  FaultRules& faults_;
  const Authenticator& authenticator_;
  const bool enabled_;
  const bool shared_db_;  // one namespace: a reset of one region is a reset of all
  mutable std::mutex snapshots_mutex_;
  std::map<std::string, Snapshot, std::less<>> snapshots_;
};

}  // namespace dynamod
