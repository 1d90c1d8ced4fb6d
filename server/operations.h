#pragma once
// One handler per DynamoDB operation: decode the request, run it in storage/
// (reads here, writes on the writer thread), encode the answer.

#include <boost/asio.hpp>

#include <chrono>
#include <functional>
#include <span>
#include <string>
#include <string_view>

#include "protocol/json_reader.h"
#include "protocol/outcome.h"
#include "storage/bucket_store.h"
#include "storage/ledger.h"
#include "storage/scope.h"
#include "storage/store.h"
#include "storage/transaction_ops.h"
#include "storage/write_queue.h"

namespace dynamod {

// What a handler may use; filled by the Service for each request.
class Throttler;
class ExportRunner;
class ImportJobs;

struct OperationContext {
  Store& store;
  WriteQueue& writer;
  Ledger& ledger;                       // consumed capacity and access patterns
  Throttler& throttler;                 // --throttle (admits everything when off)
  const storage::BucketStore& buckets;  // s3:// locations of exports and imports (--s3-dir)
  ExportRunner& exports;                // runs ExportTableToPointInTime's exports in the background
  ImportJobs& imports;                  // ImportTable's imports (server/imports.h)
  Scope scope;
  std::function<double()> clock;           // epoch seconds
  std::function<std::string()> make_uuid;  // TableId
  std::string host;                        // the request's Host header
  std::string table_name;                  // for the request log line
};

// A handler's answer: the JSON body, or an error that is an expected outcome
// (a failed condition) returned as a value. Validation errors are thrown.
using Reply = Outcome<std::string>;

// A handler must read everything it needs from `body` before its first
// co_await (the JSON parser is reused afterwards).
using OperationHandler = boost::asio::awaitable<Reply> (*)(OperationContext& ctx, json::object body);

struct NamedOperation {
  std::string_view name;
  OperationHandler handler;
};

// The operations of each group, defined beside their handlers.
std::span<const NamedOperation> data_operations();      // tables, items, reads, batches, transactions
std::span<const NamedOperation> settings_operations();  // TTL, tags, limits, endpoints
std::span<const NamedOperation> backup_operations();    // on-demand backups and restores, point-in-time recovery
std::span<const NamedOperation> partiql_operations();   // ExecuteStatement, BatchExecuteStatement, ExecuteTransaction
std::span<const NamedOperation> vector_operations();    // SearchVectors
std::span<const NamedOperation> export_operations();    // ExportTableToPointInTime, DescribeExport, ListExports
std::span<const NamedOperation> import_operations();    // ImportTable, DescribeImport, ListImports

// TransactGetItems' answer (also ExecuteTransaction's for reads).
Reply transact_get_answer(const ops::TransactGetResult& result);

// The handler of "DynamoDB_20120810.<name>", or nullptr.
OperationHandler find_operation(std::string_view name);
std::span<const NamedOperation> stream_operations();  // DynamoDBStreams_20120810

// The handler of "DynamoDBStreams_20120810.<name>", or nullptr.
OperationHandler find_stream_operation(std::string_view name);

}  // namespace dynamod
