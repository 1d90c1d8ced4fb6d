#pragma once
// Command-line and environment configuration. Every flag --some-flag has the
// environment variable DYNAMOD_SOME_FLAG; the command line wins.

#include <cstdint>
#include <optional>
#include <string>

#include "storage/vector_search_mode.h"

namespace dynamod {

struct Config {
  std::string host = "127.0.0.1";
  std::uint16_t port = 8000;
  std::string data_dir = "./data";
  bool in_memory = false;
  std::string s3_dir;    // the local bucket store; empty: <data-dir>/s3, or a temporary folder with --in-memory
  std::string seed_dir;  // --seed: CreateTable files and their data, loaded at start (server/seed.h)
  std::string seed_region = "us-east-1";  // the region seeded tables are created in
  std::string durability = "full";        // full | relaxed
  std::string log_level = "info";
  unsigned threads = 0;  // 0: one per hardware thread
  bool shared_db = false;
  std::string credentials_file;
  std::string account_id = "000000000000";
  std::uint64_t map_size = 64ull << 30;
  std::uint64_t item_collection_limit = 10ull << 30;
  double ttl_interval_seconds = 5;                     // how often the Time to Live sweeper runs
  double ttl_cooldown_seconds = 1860;                  // refusal window after a Time to Live change
  std::int64_t contributor_insights_rule_limit = 100;  // CloudWatch's default quota per region
  double resource_policy_cooldown_seconds = 15;        // refusal window after a resource policy change
  bool throttle = false;                               // simulate DynamoDB's throughput limits
  bool metering = true;                                // the ledger, access patterns and request metrics
  std::string prices_file;                             // JSON price table for the cost report (default us-east-1)
  std::string cors_origins = "*";                      // comma-separated origins browsers may call from, or *
  std::string faults_file;                             // fault rules to start with (docs/testing-companion.md)
  std::int64_t consistency_lag_ms = 0;                 // eventually consistent reads see the store this much older
  bool control = true;  // the control endpoints under /dynamod/ (faults, reset, snapshots)
  bool console = true;  // the web console at /dynamod/console
  // How SearchVectors searches partitions of 10,000 vectors or more (smaller ones are always exact).
  // Exact by default: approximate recall at scale is not yet good enough (bench/RESULTS.md).
  vectors::SearchMode vector_search = vectors::SearchMode::Exact;
};

// "64KB", "1MB", "10GB", "512" (bytes; units are powers of 1024).
std::uint64_t parse_size(const std::string& text);

// Parses argv and the environment. Returns nullopt after printing --help or
// --version; throws std::runtime_error with a readable message on bad input.
std::optional<Config> parse_config(int argc, char** argv);

}  // namespace dynamod
