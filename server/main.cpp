// dynamod: Amazon DynamoDB's API on your own machine.

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <thread>
#include <vector>

#include "metering/prices.h"
#include "server/auth.h"
#include "server/config.h"
#include "server/faults_client.h"
#include "server/heavy_lane.h"
#include "server/http_server.h"
#include "server/import_client.h"
#include "server/report_client.h"
#include "server/seed.h"
#include "server/service.h"
#include "storage/bucket_store.h"
#include "storage/export_runner.h"
#include "storage/index_builds.h"
#include "storage/ledger.h"
#include "storage/maintenance.h"
#include "storage/store.h"
#include "storage/vector_builds.h"
#include "storage/write_queue.h"

namespace {

dynamod::metering::PriceTable load_prices(const std::string& path) {
  std::ifstream file(path);
  if (!file) throw std::runtime_error("--prices: cannot read " + path);
  std::stringstream text;
  text << file.rdbuf();
  try {
    return dynamod::metering::parse_price_table(text.str());
  } catch (const std::runtime_error& e) {
    throw std::runtime_error("--prices " + path + ": " + e.what());
  }
}

int run(const dynamod::Config& config) {
  using namespace dynamod;
  spdlog::set_default_logger(spdlog::stderr_color_mt("dynamod"));
  spdlog::set_level(spdlog::level::from_str(config.log_level));
  spdlog::set_pattern("%Y-%m-%dT%H:%M:%S.%e %^%l%$ %v");

  std::optional<CredentialStore> credentials;
  if (!config.credentials_file.empty()) credentials = CredentialStore::load(config.credentials_file);
  const bool verifying_signatures = credentials.has_value();  // `credentials` moves into the Service

  StoreOptions store_options;
  store_options.path = config.data_dir;
  store_options.in_memory = config.in_memory;
  store_options.durability =
      config.durability == "relaxed" ? StoreOptions::Durability::Relaxed : StoreOptions::Durability::Full;
  store_options.map_size = config.map_size;
  store_options.item_collection_limit = config.item_collection_limit;
  store_options.ttl_cooldown_ms = static_cast<std::int64_t>(config.ttl_cooldown_seconds * 1000);
  store_options.contributor_insights_rule_limit = config.contributor_insights_rule_limit;
  store_options.consistency_lag_ms = config.consistency_lag_ms;
  store_options.vector_search = config.vector_search;
  store_options.resource_policy_cooldown_ms = static_cast<std::int64_t>(config.resource_policy_cooldown_seconds * 1000);
  metering::PriceTable prices;
  if (!config.prices_file.empty()) prices = load_prices(config.prices_file);

  Store store(store_options);
  // In memory there is no fsync for a group to share: requests write on their
  // own I/O thread when nothing else is writing.
  WriteQueue writer(store, config.in_memory ? WriteQueue::RequestWrites::on_caller_when_idle
                                            : WriteQueue::RequestWrites::on_writer_thread);
  resume_index_jobs(store, writer);
  resume_vector_index_jobs(store, writer);
  Ledger ledger(store, config.metering);
  Maintenance maintenance(store, writer, ledger,
                          std::chrono::milliseconds(static_cast<std::int64_t>(config.ttl_interval_seconds * 1000)));

  // One io_context per I/O thread (each run by that thread alone, which asio's
  // concurrency hint 1 tells it); the writer thread posts into them.
  std::vector<std::unique_ptr<asio::io_context>> contexts;
  std::vector<asio::io_context*> context_ptrs;
  for (unsigned i = 0; i < config.threads; ++i) {
    contexts.push_back(std::make_unique<asio::io_context>(1));
    context_ptrs.push_back(contexts.back().get());
  }
  asio::io_context& io = *contexts.front();
  // The local bucket store (storage/bucket_store.h): --s3-dir, else beside the
  // data, else (in memory) a temporary folder that goes with the process.
  std::optional<storage::TemporaryFolder> scratch_buckets;
  std::filesystem::path s3_dir = config.s3_dir;
  if (s3_dir.empty() && config.in_memory) {
    scratch_buckets.emplace("dynamod-s3-");
    s3_dir = scratch_buckets->path();
  } else if (s3_dir.empty()) {
    s3_dir = store.path() / "s3";
  }
  std::filesystem::create_directories(s3_dir);
  storage::BucketStore buckets(s3_dir);
  spdlog::info("bucket store (s3://bucket/key) in {}", s3_dir.string());
  ExportRunner exports(store, writer, buckets, [] {
    using namespace std::chrono;
    return duration<double>(system_clock::now().time_since_epoch()).count();
  });
  exports.resume();
  // ImportTable's error logs (CloudWatchLogGroupArn): beside the data, or in
  // memory in a temporary folder that goes with the process.
  std::optional<storage::TemporaryFolder> scratch_logs;
  std::filesystem::path import_logs = store.path() / "import-logs";
  if (config.in_memory) {
    scratch_logs.emplace("dynamod-import-logs-");
    import_logs = scratch_logs->path();
  }
  ImportJobs imports(store, writer, buckets, import_logs);
  if (!config.seed_dir.empty()) {
    SeedTotals seeded =
        seed_tables(store, writer, Scope{config.seed_region, config.account_id, config.shared_db}, config.seed_dir);
    spdlog::info("seed: {} tables created ({} items, {} records not loaded), {} kept", seeded.tables_created,
                 seeded.items, seeded.errors, seeded.tables_kept);
  }
  // Big requests' own threads (server/heavy_lane): half as many as the I/O
  // threads, so that big bodies never take every core from the small requests.
  HeavyLane heavy_lane(kHeavyLaneSlots, std::max(1u, config.threads / 2));
  Service service(store, writer, ledger, buckets, exports, imports, heavy_lane, config,
                  Authenticator(std::move(credentials)), std::move(prices));
  HttpServer server(
      context_ptrs, heavy_lane, asio::ip::tcp::endpoint(asio::ip::make_address(config.host), config.port), HttpLimits{},
      [&service](HttpRequest& request) { return service.handle(request); },
      [&service](const HttpRequest& request) { return service.too_large(request); });
  server.start();

  asio::signal_set signals(io, SIGINT, SIGTERM);
  signals.async_wait([&](const boost::system::error_code& ec, int signal) {
    if (ec) return;
    spdlog::info("signal {}: finishing requests in flight", signal);
    server.stop();
  });

  spdlog::info("dynamod {} listening on http://{}:{} ({}, {} I/O threads{}{})", DYNAMOD_VERSION, config.host,
               server.port(), config.in_memory ? "in memory" : "data in " + store.path().string(), config.threads,
               config.shared_db ? ", shared namespace" : "", verifying_signatures ? ", verifying signatures" : "");
  // A machine-readable line for scripts and test fixtures (useful with --port 0).
  std::printf("dynamod listening on %s:%u\n", config.host.c_str(), server.port());
  std::fflush(stdout);

  // The other contexts keep running while they have no connection; the first
  // stops them once it has nothing left to do (after stop(), its acceptor is
  // closed and its connections are done).
  std::vector<asio::executor_work_guard<asio::io_context::executor_type>> guards;
  std::vector<std::thread> threads;
  for (unsigned i = 1; i < config.threads; ++i) {
    guards.emplace_back(asio::make_work_guard(*contexts[i]));
    threads.emplace_back([context = contexts[i].get()] { context->run(); });
  }
  io.run();
  for (auto& guard : guards) guard.reset();
  for (auto& t : threads) t.join();
  imports.stop();  // (their batches are writer jobs)
  maintenance.stop();
  exports.stop();
  // The ledger's last usage, before the writer stops.
  writer.run_sync([&ledger](WriteContext& w) {
    ledger.save(w);
    return true;
  });
  writer.stop();
  spdlog::info("stopped");
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  // `dynamod cost` and `dynamod patterns` ask a running server for its reports.
  if (argc > 1 && (std::string_view(argv[1]) == "cost" || std::string_view(argv[1]) == "patterns")) {
    return dynamod::run_report_command(argc, argv);
  }
  if (argc > 1 && std::string_view(argv[1]) == "faults") return dynamod::run_faults_command(argc, argv);
  if (argc > 1 && std::string_view(argv[1]) == "import") return dynamod::run_import_command(argc, argv);
  try {
    std::optional<dynamod::Config> config = dynamod::parse_config(argc, argv);
    if (!config) return 0;
    return run(*config);
  } catch (const std::exception& e) {
    std::cerr << "dynamod: " << e.what() << "\n";
    return 1;
  }
}
