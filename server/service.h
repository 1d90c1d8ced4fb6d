#pragma once
// Service: turns an HTTP request into a DynamoDB answer. Health check, CORS
// preflight, target dispatch, authentication, request body decompression,
// JSON parsing, the error body, response compression, and the headers every
// answer carries (x-amzn-RequestId, x-amz-crc32, CORS ones for an Origin).

#include <simdjson.h>

#include <atomic>
#include <memory>
#include <mutex>
#include <vector>

#include "metering/prices.h"
#include "protocol/json_reader.h"
#include "server/auth.h"
#include "server/config.h"
#include "server/control.h"
#include "server/cors.h"
#include "server/fault_rules.h"
#include "server/heavy_lane.h"
#include "server/http_headers.h"
#include "server/http_server.h"
#include "server/imports.h"
#include "server/request_metrics.h"
#include "server/throttler.h"
#include "storage/bucket_store.h"
#include "storage/export_runner.h"
#include "storage/ledger.h"
#include "storage/scope.h"
#include "storage/store.h"
#include "storage/write_queue.h"

namespace dynamod {

class Service {
 public:
  Service(Store& store, WriteQueue& writer, Ledger& ledger, const storage::BucketStore& buckets, ExportRunner& exports,
          ImportJobs& imports, const HeavyLane& lane, const Config& config, Authenticator authenticator,
          metering::PriceTable prices);

  asio::awaitable<HttpResponse> handle(HttpRequest& request);
  // The answer to a request whose body exceeds the limit.
  HttpResponse too_large(const HttpRequest& request);

 private:
  // simdjson parsers are reused across requests (they keep their buffers).
  class ParserPool {
   public:
    std::unique_ptr<simdjson::ondemand::parser> acquire();
    void release(std::unique_ptr<simdjson::ondemand::parser> parser);

   private:
    std::mutex mutex_;
    std::vector<std::unique_ptr<simdjson::ondemand::parser>> idle_;
  };

  HttpResponse answer(const HttpRequest& request, http::status status, std::string body);
  HttpResponse error_answer(const HttpRequest& request, const ApiError& error);
  // GET /dynamod/metrics, /dynamod/cost, /dynamod/patterns; the control endpoints (server/control).
  asio::awaitable<HttpResponse> report(const HttpRequest& request);
  // A request body parsed once, for the fault rules and then the handler.
  struct ParsedBody {
    simdjson::ondemand::document doc;
    json::object object;
    bool ready = false;  // `object` is the body's, read from its start
  };
  // The fault rules of the request's operation that fire on it (logged at
  // debug level). Parses the body into `parsed` unless it is not JSON, which
  // the handler's parse then answers.
  FaultPlan evaluate_faults(HttpRequest& request, std::string_view operation, const Scope& scope,
                            const OperationRules& rules, simdjson::ondemand::parser& parser, ParsedBody& parsed);
  // GET /dynamod/console and its files (server/console.h).
  HttpResponse console(const HttpRequest& request);
  std::string next_request_id();

  Store& store_;
  WriteQueue& writer_;
  Ledger& ledger_;
  const storage::BucketStore& buckets_;
  ExportRunner& exports_;
  ImportJobs& imports_;
  const HeavyLane& lane_;  // for its metrics
  const Config& config_;
  Authenticator authenticator_;
  metering::PriceTable prices_;
  Throttler throttler_;
  CorsPolicy cors_;
  RequestMetrics metrics_;
  ParserPool parsers_;
  DateHeader date_;
  FaultRules faults_;
  ControlEndpoints control_;
  std::uint64_t id_seed_;
  std::atomic<std::uint64_t> id_counter_{0};
};

}  // namespace dynamod
