#include "server/service.h"

#include "server/random_uuid.h"

#include <spdlog/spdlog.h>
#include <zlib.h>

#include <fmt/ranges.h>

#include <chrono>
#include <fstream>
#include <random>
#include <sstream>

#include "protocol/json_reader.h"
#include "protocol/json_writer.h"
#include "server/async_write.h"
#include "server/console.h"
#include "server/console_reports.h"
#include "server/content_encoding.h"
#include "server/cors.h"
#include "server/fault_batch.h"
#include "server/fault_facts.h"
#include "server/operations.h"
#include "server/reports.h"
#include "server/unimplemented_operations.h"

namespace dynamod {
namespace {

constexpr std::string_view kTargetPrefix = "DynamoDB_20120810.";
constexpr std::string_view kStreamsTargetPrefix = "DynamoDBStreams_20120810.";
constexpr std::string_view kReportPrefix = "/dynamod/";
constexpr std::size_t kMaxPooledParserCapacity = 1 << 20;
// The service compresses answers above about 4 KB when the client accepts it.
constexpr std::size_t kCompressionThreshold = 4096;

std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

double epoch_seconds() {
  using namespace std::chrono;
  return duration<double>(system_clock::now().time_since_epoch()).count();
}

// A header sent several times, as one list (RFC 9110 section 5.3: its lines joined by commas).
std::string joined_values(const HttpRequest& request, http::field name) {
  std::string value;
  for (auto [it, end] = request.equal_range(name); it != end; ++it) {
    if (!value.empty()) value += ", ";
    value += it->value();
  }
  return value;
}

std::string error_body(const ApiError& error) {
  std::string body = "{\"__type\":\"";
  body += error_namespace(error.code());
  body += error_type_name(error.code());
  body += '"';
  if (!error.message().empty()) {
    // The service capitalises this one member for TransactionCanceledException.
    body += error.code() == ErrorCode::TransactionCanceledException ? ",\"Message\":\"" : ",\"message\":\"";
    JsonWriter::append_escaped(body, error.message());
    body += '"';
  }
  if (!error.extra_json().empty()) {
    body += ',';
    body += error.extra_json();
  }
  body += '}';
  return body;
}

}  // namespace

std::unique_ptr<simdjson::ondemand::parser> Service::ParserPool::acquire() {
  {
    std::lock_guard lock(mutex_);
    if (!idle_.empty()) {
      auto parser = std::move(idle_.back());
      idle_.pop_back();
      return parser;
    }
  }
  return std::make_unique<simdjson::ondemand::parser>();
}

void Service::ParserPool::release(std::unique_ptr<simdjson::ondemand::parser> parser) {
  // A parser that took a huge request keeps its buffers; let it go.
  if (parser->capacity() > kMaxPooledParserCapacity) return;
  std::lock_guard lock(mutex_);
  idle_.push_back(std::move(parser));
}

// Every operation name a request can be counted under.
std::vector<std::string> operation_names() {
  std::vector<std::string> names;
  for (auto group : {data_operations(), settings_operations(), backup_operations(), partiql_operations(),
                     stream_operations(), vector_operations(), export_operations(), import_operations()}) {
    for (const auto& op : group) names.emplace_back(op.name);
  }
  return names;
}

Service::Service(Store& store, WriteQueue& writer, Ledger& ledger, const storage::BucketStore& buckets,
                 ExportRunner& exports, ImportJobs& imports, const HeavyLane& lane, const Config& config,
                 Authenticator authenticator, metering::PriceTable prices)
    : store_(store),
      writer_(writer),
      ledger_(ledger),
      buckets_(buckets),
      exports_(exports),
      imports_(imports),
      lane_(lane),
      config_(config),
      authenticator_(std::move(authenticator)),
      prices_(std::move(prices)),
      throttler_(config.throttle),
      cors_(config.cors_origins),
      metrics_(operation_names()),
      control_(store, writer, ledger, faults_, authenticator_, config.control, config.shared_db) {
  if (!config.faults_file.empty()) {
    std::ifstream file(config.faults_file);
    if (!file) throw std::runtime_error("--faults: cannot read " + config.faults_file);
    std::stringstream text;
    text << file.rdbuf();
    try {
      for (auto& rule : parse_fault_rules(text.str())) faults_.add(std::move(rule));
    } catch (const ApiError& e) {
      throw std::runtime_error("--faults " + config.faults_file + ": " + e.message());
    }
  }
  std::random_device rd;
  id_seed_ = (std::uint64_t(rd()) << 32) ^ rd();
}

std::string Service::next_request_id() {
  // 52 characters of [0-9A-Z], the shape of the service's request ids.
  static constexpr char kAlphabet[] = "0123456789ABCDEFGHIJKLMNOPQRSTUV";
  std::uint64_t n = id_counter_.fetch_add(1, std::memory_order_relaxed);
  std::string id(52, '0');
  std::uint64_t bits = 0;
  int available = 0;
  std::uint64_t state = id_seed_ ^ n;
  for (char& c : id) {
    if (available < 5) {
      state = splitmix64(state);
      bits = state;
      available = 64;
    }
    c = kAlphabet[bits & 31];
    bits >>= 5;
    available -= 5;
  }
  return id;
}

HttpResponse Service::answer(const HttpRequest& request, http::status status, std::string body) {
  HttpResponse response(status, request.version());
  // The service answers in the content type the client used.
  auto content_type = request[http::field::content_type];
  response.set(http::field::content_type,
               content_type == "application/json" ? "application/json" : "application/x-amz-json-1.0");
  response.set("x-amzn-RequestId", next_request_id());
  response.set(http::field::server, kServerHeader);
  response.set(http::field::date, date_.now());
  if (body.size() > kCompressionThreshold) {
    ContentCoding coding = negotiate_response_coding(joined_values(request, http::field::accept_encoding));
    if (coding != ContentCoding::Identity) {
      body = compress_body(body, coding);
      response.set(http::field::content_encoding, coding_name(coding));
    }
  }
  // Over the bytes sent, compressed or not (SDKs check it before decompressing).
  auto crc = crc32(0L, reinterpret_cast<const Bytef*>(body.data()), static_cast<uInt>(body.size()));
  response.set("x-amz-crc32", std::to_string(crc));
  add_cors_headers(cors_, request, response);
  response.body() = std::move(body);
  return response;
}

HttpResponse Service::error_answer(const HttpRequest& request, const ApiError& error) {
  return answer(request, static_cast<http::status>(http_status(error.code())), error_body(error));
}

HttpResponse Service::too_large(const HttpRequest& request) {
  return answer(request, http::status::payload_too_large, "");
}

asio::awaitable<HttpResponse> Service::report(const HttpRequest& request) {
  const std::string_view path = std::string_view(request.target()).substr(kReportPrefix.size());
  const std::int64_t now_ms = static_cast<std::int64_t>(epoch_seconds() * 1000);
  if (ControlEndpoints::handles(path)) {
    std::variant<ControlAnswer, ApiError> outcome;
    try {
      outcome = co_await control_.handle(request, path);
    } catch (ApiError& e) {
      outcome = std::move(e);
    }
    if (auto* error = std::get_if<ApiError>(&outcome)) co_return error_answer(request, *error);
    auto& [status, body] = std::get<ControlAnswer>(outcome);
    HttpResponse response = answer(request, status, std::move(body));
    response.set(http::field::content_type, "application/json");
    co_return response;
  }
  const std::size_t query_at = path.find('?');
  const std::string_view name = path.substr(0, query_at);
  const std::string_view query = query_at == std::string_view::npos ? std::string_view() : path.substr(query_at + 1);
  const bool console_report = name == "series" || name == "hot-keys" || name == "collections";
  if (request.method() != http::verb::get ||
      (path != "metrics" && path != "cost" && path != "patterns" && !console_report)) {
    HttpResponse response = answer(request, http::status::not_found,
                                   "Not found. dynamod's reports: GET /dynamod/metrics, /dynamod/cost, "
                                   "/dynamod/patterns, /dynamod/series, /dynamod/hot-keys, /dynamod/collections; "
                                   "POST /dynamod/cost/reset. Its control endpoints: "
                                   "/dynamod/faults, /dynamod/reset, /dynamod/snapshots (docs/testing-companion.md)\n");
    response.set(http::field::content_type, "text/plain");
    co_return response;
  }
  if (console_report) {
    // They show key values: with --credentials, to signed requests only.
    if (authenticator_.verifies()) {
      auto auth = authenticator_.authenticate(request, std::chrono::system_clock::now());
      if (auto* error = std::get_if<ApiError>(&auth)) co_return error_answer(request, *error);
    }
    std::string body;
    if (name == "series") {
      auto resolution = series_resolution(query);
      if (!resolution) {
        co_return error_answer(request,
                               ApiError(ErrorCode::ValidationException, "resolution must be second or minute"));
      }
      body = series_report(ledger_, *resolution, now_ms);
    } else if (name == "hot-keys") {
      body = hot_keys_report(ledger_);
    } else {
      body = collections_report(store_, store_.catalog().all());
    }
    HttpResponse response = answer(request, http::status::ok, std::move(body));
    response.set(http::field::content_type, "application/json");
    co_return response;
  }
  Ledger::Snapshot snapshot = ledger_.snapshot();
  ReportInputs inputs{snapshot, store_.catalog().all(), now_ms, writer_.totals(), &store_.vector_memory()};
  std::string body = path == "metrics" ? metrics_report(inputs, metrics_)
                     : path == "cost"  ? cost_report(inputs, prices_)
                                       : patterns_report(inputs);
  if (path == "metrics") {
    faults_.render_metrics(body);
    lane_.render_metrics(body);
  }
  HttpResponse response = answer(request, http::status::ok, std::move(body));
  response.set(http::field::content_type, path == "metrics" ? "text/plain; version=0.0.4" : "application/json");
  co_return response;
}

FaultPlan Service::evaluate_faults(HttpRequest& request, std::string_view operation, const Scope& scope,
                                   const OperationRules& rules, simdjson::ondemand::parser& parser,
                                   ParsedBody& parsed) {
  RequestFacts facts;
  facts.operation = operation;
  try {
    parsed.object = json::request_object(parser, request.body(), parsed.doc);
    facts = request_facts(operation, parsed.object,
                          FactsContext{store_.catalog(), scope.ns(), ArnContext{scope.region, scope.account_id}},
                          rules.needs_keys());
    parsed.doc.rewind();
    parsed.object = parsed.doc.get_object();
    parsed.ready = true;
  } catch (const ApiError&) {
    // Not JSON: the rules see the operation alone.
  } catch (const simdjson::simdjson_error&) {
  }
  FaultPlan plan = rules.evaluate(facts);
  if (!plan.any()) return plan;
  spdlog::debug("fault rule {} fired on {} table={}{}{}{}", fmt::join(plan.fired, ","), operation,
                facts.tables.empty() ? std::string() : facts.tables.front(),
                plan.delay.count() != 0 ? " delay=" + std::to_string(plan.delay.count()) + "ms" : std::string(),
                plan.error         ? " " + std::string(error_type_name(plan.error->code()))
                : plan.unavailable ? std::string(" ServiceUnavailable")
                                   : std::string(),
                plan.close         ? " close"
                : plan.unprocessed ? " unprocessed"
                                   : "");
  return plan;
}

HttpResponse Service::console(const HttpRequest& request) {
  std::optional<ConsoleAsset> asset = find_console_asset(request.target());
  if (request.method() != http::verb::get || !asset) {
    HttpResponse response = answer(request, http::status::not_found, "Not found in dynamod's console\n");
    response.set(http::field::content_type, "text/plain");
    return response;
  }
  // The files change only with the binary: a browser revalidates by digest.
  const bool unchanged = request[http::field::if_none_match] == asset->etag;
  HttpResponse response = answer(request, unchanged ? http::status::not_modified : http::status::ok,
                                 unchanged ? std::string() : std::string(asset->bytes));
  response.set(http::field::content_type, console_content_type(asset->name));
  response.set(http::field::etag, asset->etag);
  response.set(http::field::cache_control, "no-cache");
  // The console's scripts come from dynamod alone and call nothing else.
  response.set("Content-Security-Policy",
               "default-src 'self'; connect-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
               "frame-ancestors 'none'");
  response.set("X-Content-Type-Options", "nosniff");
  return response;
}

asio::awaitable<HttpResponse> Service::handle(HttpRequest& request) {
  const auto started = std::chrono::steady_clock::now();
  if (is_cors_preflight(request)) co_return answer(request, http::status::ok, "");
  if (request.method() == http::verb::get && request.target() == "/") {
    // The service names the host it was reached at.
    HttpResponse response = answer(request, http::status::ok, "healthy: " + std::string(request[http::field::host]));
    response.set(http::field::content_type, "text/plain");
    co_return response;
  }
  if (config_.console && is_console_target(request.target())) co_return console(request);
  if (request.target().starts_with(kReportPrefix)) co_return co_await report(request);
  // Not a POST, or a body that is not the JSON protocol's (no Content-Type, text/plain, a form):
  // the service's 404 for what it cannot route.
  if (request.method() != http::verb::post ||
      (!request.body().empty() && !is_json_protocol(request[http::field::content_type]))) {
    HttpResponse response = answer(request, http::status::not_found, "<UnknownOperationException/>\n");
    response.set(http::field::content_type, "text/xml");
    co_return response;
  }

  std::string_view target(request["x-amz-target"]);
  std::string_view operation;
  OperationHandler handler = nullptr;
  if (target.rfind(kTargetPrefix, 0) == 0) {
    operation = target.substr(kTargetPrefix.size());
    handler = find_operation(operation);
    if (handler == nullptr) {
      // An operation of the service's model that dynamod leaves out says so.
      if (auto message = unimplemented_operation_message(operation)) {
        co_return error_answer(request, ApiError(ErrorCode::UnknownOperationException, std::move(*message)));
      }
    }
  } else if (target.rfind(kStreamsTargetPrefix, 0) == 0) {
    operation = target.substr(kStreamsTargetPrefix.size());
    handler = find_stream_operation(operation);
  }
  if (handler == nullptr) co_return error_answer(request, ApiError(ErrorCode::UnknownOperationException, ""));

  auto auth = authenticator_.authenticate(request, std::chrono::system_clock::now());
  if (auto* error = std::get_if<ApiError>(&auth)) co_return error_answer(request, *error);
  const AuthResult& identity = std::get<AuthResult>(auth);
  // After authentication: the signature covers the body as sent, compressed.
  // Nothing runs when the body cannot be decoded.
  const std::string_view encoding = request[http::field::content_encoding];
  switch (decode_request_body(encoding, request.body(), kMaxRequestBody)) {
    case BodyDecoding::Ok: break;
    case BodyDecoding::TooLarge: co_return too_large(request);
    case BodyDecoding::UnknownCoding:
      co_return error_answer(request, ApiError::internal("Unsupported Content-Encoding: " + std::string(encoding)));
    case BodyDecoding::Invalid:
      co_return error_answer(request,
                             ApiError::internal("The request body is not valid " + std::string(encoding) + " data"));
  }

  OperationContext ctx{store_,
                       writer_,
                       ledger_,
                       throttler_,
                       buckets_,
                       exports_,
                       imports_,
                       Scope{identity.region, config_.account_id, config_.shared_db},
                       epoch_seconds,
                       random_uuid,
                       std::string(request[http::field::host]),
                       {}};
  std::optional<ApiError> failure;
  std::optional<BatchHoldback> held_back;
  auto parser = parsers_.acquire();
  ParsedBody parsed;
  // With no fault rules, this branch is all they cost; with rules, a request
  // whose operation none names costs one lookup more.
  if (faults_.active()) [[unlikely]] {
    if (std::shared_ptr<const OperationRules> rules = faults_.for_operation(operation)) {
      FaultPlan plan = evaluate_faults(request, operation, ctx.scope, *rules, *parser, parsed);
      if (plan.delay.count() != 0) {
        asio::steady_timer timer(co_await asio::this_coro::executor, plan.delay);
        co_await timer.async_wait(asio::use_awaitable);
      }
      // The connection closes without an answer, as when the service's end goes away.
      if (plan.close) throw DropConnection{};
      if (plan.unavailable) {
        parsers_.release(std::move(parser));
        co_return answer(request, static_cast<http::status>(kServiceUnavailableStatus),
                         service_unavailable_body(plan.message));
      }
      failure = std::move(plan.error);
      if (plan.unprocessed) {
        held_back = hold_back(operation, request.body(), *plan.unprocessed);
        if (held_back) {
          request.body() = held_back->request_body;
          parsed.ready = false;  // the handler reads the smaller batch
        }
      }
    }
  }
  std::string result;
  if (!failure) {
    try {
      if (!parsed.ready) parsed.object = json::request_object(*parser, request.body(), parsed.doc);
      Reply reply = co_await handler(ctx, parsed.object);
      if (reply.ok()) {
        result = std::move(reply.value());
      } else {
        failure = std::move(reply.error());
      }
    } catch (ApiError& e) {
      failure = std::move(e);
    } catch (const simdjson::simdjson_error&) {
      failure = ApiError::serialization("");
    } catch (const std::exception& e) {
      spdlog::error("{} failed: {}", operation, e.what());
      failure = ApiError::internal("Internal server error");
    }
    if (held_back && !failure) result = add_unprocessed(operation, result, *held_back);
  }
  parsers_.release(std::move(parser));

  HttpResponse response =
      failure ? error_answer(request, *failure) : answer(request, http::status::ok, std::move(result));
  const auto elapsed = std::chrono::steady_clock::now() - started;
  if (auto slot = config_.metering ? metrics_.slot(operation) : std::nullopt) {
    metrics_.record(*slot, elapsed, failure ? std::optional<ErrorCode>(failure->code()) : std::nullopt);
  }
  if (spdlog::should_log(spdlog::level::debug)) {
    auto micros = std::chrono::duration_cast<std::chrono::microseconds>(elapsed).count();
    spdlog::debug("{} table={} status={} {}us{}", operation, ctx.table_name, response.result_int(), micros,
                  failure ? " " + std::string(error_type_name(failure->code())) : std::string());
  }
  co_return response;
}

}  // namespace dynamod
