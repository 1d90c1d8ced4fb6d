#include "server/config.h"

#include <boost/program_options.hpp>

#include <iostream>
#include <stdexcept>
#include <thread>

namespace dynamod {
namespace po = boost::program_options;

namespace {

// DYNAMOD_DATA_DIR -> data-dir
std::string env_to_option(const std::string& variable) {
  static constexpr std::string_view kPrefix = "DYNAMOD_";
  if (variable.rfind(kPrefix, 0) != 0) return {};
  std::string name = variable.substr(kPrefix.size());
  for (char& c : name) c = c == '_' ? '-' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return name;
}

}  // namespace

std::uint64_t parse_size(const std::string& text) {
  std::size_t digits = 0;
  while (digits < text.size() && std::isdigit(static_cast<unsigned char>(text[digits])) != 0) ++digits;
  if (digits == 0 || digits > 15) throw std::runtime_error("invalid size '" + text + "' (examples: 64KB, 1MB, 10GB)");
  std::uint64_t value = std::stoull(text.substr(0, digits));
  std::string unit = text.substr(digits);
  for (char& c : unit) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (unit.empty() || unit == "B") return value;
  if (unit == "KB" || unit == "K") return value << 10;
  if (unit == "MB" || unit == "M") return value << 20;
  if (unit == "GB" || unit == "G") return value << 30;
  throw std::runtime_error("invalid size '" + text + "' (examples: 64KB, 1MB, 10GB)");
}

std::optional<Config> parse_config(int argc, char** argv) {
  Config config;
  unsigned port = config.port;
  std::string item_collection_limit = "10GB";
  std::string metering = "on";
  std::string control = "on";
  std::string console = "on";
  std::string vector_search = "exact";
  po::options_description desc(
      "dynamod: Amazon DynamoDB's API on your own machine.\n"
      "Every flag can also be set with an environment variable: --data-dir is DYNAMOD_DATA_DIR.\n\n"
      "Options");
  // clang-format off
  desc.add_options()
    ("help,h", "Print this help and exit.")
    ("version", "Print the version and exit.")
    ("host", po::value(&config.host)->default_value(config.host), "Address to listen on (0.0.0.0 for all interfaces).")
    ("port", po::value(&port)->default_value(port), "TCP port to listen on (0 picks a free one and prints it).")
    ("data-dir", po::value(&config.data_dir)->default_value(config.data_dir), "Directory of the LMDB database (created if missing).")
    ("in-memory", po::bool_switch(&config.in_memory), "Keep data in a temporary database that disappears with the process, however it ends (for test suites); no fsync.")
    ("s3-dir", po::value(&config.s3_dir),
        "The local bucket store: s3://bucket/key is DIR/bucket/key, for exports and imports "
        "(default <data-dir>/s3; with --in-memory a temporary folder removed at exit).")
    ("seed", po::value(&config.seed_dir),
        "A folder of tables to create at start, before the first request: NAME.table.json (a CreateTable request) "
        "and its items in NAME.json, .csv, .json.gz... (docs/exports-imports.md#seeding). Existing tables are kept.")
    ("seed-region", po::value(&config.seed_region)->default_value(config.seed_region),
        "The region --seed creates its tables in (the one clients sign their requests for).")
    ("durability", po::value(&config.durability)->default_value(config.durability),
        "full: every acknowledged write is fsynced (default). relaxed: metadata not synced per commit "
        "(MDB_NOMETASYNC): a crash may lose the last commits, never corrupts.")
    ("log-level", po::value(&config.log_level)->default_value(config.log_level), "trace, debug, info, warn, error or off. debug logs one line per request.")
    ("threads", po::value(&config.threads)->default_value(config.threads), "I/O threads (0: one per hardware thread). Writes run on one extra writer thread.")
    ("shared-db", po::bool_switch(&config.shared_db), "One table namespace for all regions (like DynamoDB Local's -sharedDb). By default each region has its own tables.")
    ("credentials", po::value(&config.credentials_file), "File of 'ACCESS_KEY_ID SECRET_ACCESS_KEY' lines. When given, every request's SigV4 signature is verified; otherwise any credentials are accepted.")
    ("account-id", po::value(&config.account_id)->default_value(config.account_id), "12-digit account id used in ARNs.")
    ("map-size", po::value(&config.map_size)->default_value(config.map_size), "Maximum database size in bytes (LMDB map size).")
    ("item-collection-limit", po::value(&item_collection_limit)->default_value(item_collection_limit),
        "Largest item collection (items sharing a partition key in a table with local secondary indexes), as DynamoDB's 10GB; lower it (64KB, 1MB) to test ItemCollectionSizeLimitExceededException.")
    ("ttl-interval", po::value(&config.ttl_interval_seconds)->default_value(config.ttl_interval_seconds),
        "Seconds between two passes of the Time to Live sweeper, which deletes expired items (the service takes up to days; fractions allowed).")
    ("ttl-cooldown", po::value(&config.ttl_cooldown_seconds)->default_value(config.ttl_cooldown_seconds),
        "Seconds after an UpdateTimeToLive change during which another is refused, as the service does (about 31 minutes); 0 turns it off.")
    ("contributor-insights-rule-limit", po::value(&config.contributor_insights_rule_limit)->default_value(config.contributor_insights_rule_limit),
        "Contributor Insights rules a region may have (CloudWatch's default quota, 100: 2 per table or global index, 4 with a sort key); "
        "past it UpdateContributorInsights ENABLE ends FAILED, as on the service. Raise it as you would the quota.")
    ("resource-policy-cooldown", po::value(&config.resource_policy_cooldown_seconds)->default_value(config.resource_policy_cooldown_seconds),
        "Seconds after a change of a resource-based policy during which another change of it is refused, as the service does (15); 0 turns it off.")
    ("throttle", po::bool_switch(&config.throttle),
        "Simulate DynamoDB's throughput limits: provisioned capacity with 300 seconds of burst, GSI back-pressure, "
        "on-demand scaling, 3,000 RCU / 1,000 WCU per partition key value. Throttled requests get the service's errors.")
    ("metering", po::value(&metering)->default_value(metering),
        "on: record consumed capacity, access patterns and request metrics for /dynamod/* and `dynamod cost`. "
        "off: record nothing (to measure what metering costs).")
    ("prices", po::value(&config.prices_file),
        "JSON price table for /dynamod/cost (another region's prices); by default us-east-1's.")
    ("cors-origins", po::value(&config.cors_origins)->default_value(config.cors_origins),
        "Origins a browser may call dynamod from: * (any, as the service allows) or a comma-separated list.")
    ("consistency-lag", po::value(&config.consistency_lag_ms)->default_value(config.consistency_lag_ms),
        "Milliseconds of eventual consistency: global secondary index entries and stream records appear, and eventually "
        "consistent reads see writes, only that long after the write; strongly consistent reads see every write at once. "
        "0 (default): every read sees every acknowledged write. Per table at run time: POST /dynamod/consistency.")
    ("faults", po::value(&config.faults_file),
        "JSON file of fault rules to start with, as POST /dynamod/faults takes them (docs/testing-companion.md).")
    ("control", po::value(&control)->default_value(control),
        "on: the control endpoints (/dynamod/faults, /dynamod/reset, /dynamod/snapshots) accept changes; with "
        "--credentials only SigV4-signed ones by a listed key. off: every POST and DELETE under /dynamod/ is refused.")
    ("console", po::value(&console)->default_value(console),
        "on: serve the web console at /dynamod/console (it signs its requests when --credentials is given). off: no console.")
    ("vector-search", po::value(&vector_search)->default_value(vector_search),
        "exact (default): SearchVectors scores every vector, for deterministic, complete answers. approximate: a "
        "partition of 10,000 vectors or more is searched through an HNSW graph, as the service's index is approximate. "
        "Smaller partitions are always searched exactly.");
  // clang-format on
  po::variables_map vm;
  try {
    po::store(po::parse_command_line(argc, argv, desc), vm);
    // Unknown DYNAMOD_* variables are ignored rather than refused.
    po::store(po::parse_environment(desc,
                                    [&desc](const std::string& variable) -> std::string {
                                      std::string option = env_to_option(variable);
                                      if (option.empty() || desc.find_nothrow(option, false) == nullptr)
                                        return std::string();
                                      return option;
                                    }),
              vm);
    po::notify(vm);
  } catch (const po::error& e) {
    throw std::runtime_error(std::string(e.what()) + " (see --help)");
  }
  if (vm.count("help") != 0) {
    std::cout << desc << "\n";
    return std::nullopt;
  }
  if (vm.count("version") != 0) {
    std::cout << "dynamod " << DYNAMOD_VERSION << "\n";
    return std::nullopt;
  }
  if (port > 65535) throw std::runtime_error("--port must be at most 65535");
  config.port = static_cast<std::uint16_t>(port);
  if (config.durability != "full" && config.durability != "relaxed") {
    throw std::runtime_error("--durability must be 'full' or 'relaxed'");
  }
  if (config.account_id.size() != 12 || config.account_id.find_first_not_of("0123456789") != std::string::npos) {
    throw std::runtime_error("--account-id must be 12 digits");
  }
  config.item_collection_limit = parse_size(item_collection_limit);
  if (metering != "on" && metering != "off") throw std::runtime_error("--metering must be 'on' or 'off'");
  config.metering = metering == "on";
  if (control != "on" && control != "off") throw std::runtime_error("--control must be 'on' or 'off'");
  config.control = control == "on";
  if (config.consistency_lag_ms < 0 || config.consistency_lag_ms > 3600000) {
    throw std::runtime_error("--consistency-lag must be from 0 to 3600000 milliseconds");
  }
  if (console != "on" && console != "off") throw std::runtime_error("--console must be 'on' or 'off'");
  config.console = console == "on";
  if (vector_search != "exact" && vector_search != "approximate") {
    throw std::runtime_error("--vector-search must be 'exact' or 'approximate'");
  }
  config.vector_search = vector_search == "exact" ? vectors::SearchMode::Exact : vectors::SearchMode::Approximate;
  if (!(config.ttl_interval_seconds > 0))
    throw std::runtime_error("--ttl-interval must be a positive number of seconds");
  if (!(config.ttl_cooldown_seconds >= 0)) throw std::runtime_error("--ttl-cooldown must be zero or more seconds");
  if (!(config.resource_policy_cooldown_seconds >= 0)) {
    throw std::runtime_error("--resource-policy-cooldown must be zero or more seconds");
  }
  if (config.contributor_insights_rule_limit < 0) {
    throw std::runtime_error("--contributor-insights-rule-limit must be zero or more");
  }
  if (config.threads == 0) config.threads = std::max(1u, std::thread::hardware_concurrency());
  return config;
}

}  // namespace dynamod
