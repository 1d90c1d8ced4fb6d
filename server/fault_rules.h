#pragma once
// Injected faults (POST /dynamod/faults, --faults FILE): rules that match
// requests by operation, table, index and partition key prefix, and fire with
// a probability, on every Nth match or for the next N matches. A rule that
// fires answers with one of the service's errors as the service sends it,
// delays the real answer, holds back part of a batch as UnprocessedItems /
// UnprocessedKeys, or closes the connection without an answer.
//
// The request path asks active() first: with no rules that is one relaxed
// atomic load and a branch. Then for_operation() finds the rules that can match
// the request's operation (an index by operation, rebuilt whole on each change
// and swapped atomically): a request whose operation no rule names costs that
// lookup and nothing more, and only one that some rule can match has its body
// read for tables and keys (server/fault_facts). Rule counters are atomics.

#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/api_error.h"
#include "protocol/responses.h"

namespace dynamod {

// What a request names, as far as rules look: read from its body only when
// some rule can match its operation (server/fault_facts).
struct RequestFacts {
  std::string_view operation;
  std::vector<std::string> tables;
  ArnContext arn;  // for the table ARN a throttling error names (the first table's)
  std::string index;
  std::vector<std::string> partition_keys;  // S and N values as text, B as base64
  std::size_t transact_items = 0;           // TransactWriteItems / TransactGetItems / ExecuteTransaction
};

struct FaultRule {
  // Unavailable: ServiceUnavailable (503), which is no ApiError: the service's
  // front end sends it, never an operation.
  enum class Action : std::uint8_t { None, Error, Unavailable, Unprocessed, Close };

  std::uint64_t id = 0;
  // Matching: an empty list matches every operation / table.
  std::vector<std::string> operations;
  std::vector<std::string> tables;
  std::string index;
  std::string key_prefix;
  // Firing.
  double probability = 1;
  std::uint64_t every = 1;
  std::optional<std::uint64_t> times;
  std::uint64_t seed = 0;
  // What it does: an optional delay, then at most one action.
  std::chrono::milliseconds latency_min{0};
  std::chrono::milliseconds latency_max{0};
  Action action = Action::None;
  ErrorCode error = ErrorCode::InternalServerError;
  std::string message;                     // the service's message unless given
  std::size_t conflict_item = 0;           // TransactionCanceledException: the item whose reason is TransactionConflict
  std::optional<std::size_t> unprocessed;  // how many requests / keys to hold back (nullopt: half)

  std::atomic<std::uint64_t> matched{0};
  std::atomic<std::uint64_t> fired{0};

  // Tables, index and key prefix. Not the operation: FaultRules::for_operation
  // chose the rules of the request's operation.
  bool matches(const RequestFacts& facts) const;
  // Counts a match and tells whether the rule fires on it.
  bool fire();
  // The rule as GET /dynamod/faults lists it, with its counters.
  std::string to_json() const;
  std::string_view kind() const;
};

// Parses one rule; throws ApiError (ValidationException) naming what is wrong.
std::unique_ptr<FaultRule> parse_fault_rule(std::string_view json);
// One rule object, or an array of them, or {"rules": [...]} (a --faults file).
std::vector<std::unique_ptr<FaultRule>> parse_fault_rules(std::string_view json);

// What the rules that fired on a request ask for.
struct FaultPlan {
  std::chrono::milliseconds delay{0};
  std::optional<ApiError> error;
  bool unavailable = false;  // answer ServiceUnavailable (service_unavailable_body)
  std::string message;       // its message, when the rule gives one
  bool close = false;
  std::optional<std::size_t> unprocessed;  // hold back part of the batch (SIZE_MAX: half)
  std::vector<std::uint64_t> fired;        // the rules' ids, for the log
  bool any() const { return !fired.empty(); }
};

// The rules that can match one operation, in the order they were added.
class OperationRules {
 public:
  explicit OperationRules(std::vector<std::shared_ptr<FaultRule>> rules);
  // True when one of them has a key prefix: only then are the request's
  // partition keys read.
  bool needs_keys() const { return needs_keys_; }

  // Every rule that matches counts the match; the first action of one that
  // fires decides the outcome, and the delays of those that fire add up.
  FaultPlan evaluate(const RequestFacts& facts) const;

 private:
  std::vector<std::shared_ptr<FaultRule>> rules_;
  bool needs_keys_ = false;
};

class FaultRules {
 public:
  // With no rules: one relaxed load (the only cost on the request path).
  bool active() const { return active_.load(std::memory_order_relaxed); }
  // The rules that can match `operation`: those naming it and those naming no
  // operation. Null when there are none.
  std::shared_ptr<const OperationRules> for_operation(std::string_view operation) const;

  std::uint64_t add(std::unique_ptr<FaultRule> rule);
  bool remove(std::uint64_t id);
  void clear();
  // {"rules": [...]} with each rule's counters.
  std::string list_json() const;

  // Prometheus text: dynamod_faults_fired_total per rule.
  void render_metrics(std::string& out) const;

 private:
  using RuleList = std::vector<std::shared_ptr<FaultRule>>;
  // What the request path reads: immutable, replaced whole.
  struct Index {
    std::map<std::string, std::shared_ptr<const OperationRules>, std::less<>> by_operation;
    std::shared_ptr<const OperationRules> any_operation;  // rules naming no operation; null if none
  };
  // Under mutex_: the rules become `rules`, and the index follows.
  void publish(RuleList rules);

  mutable std::mutex mutex_;  // serialises changes; the request path never takes it
  RuleList rules_;
  std::uint64_t next_id_ = 1;
  std::atomic<std::shared_ptr<const Index>> index_{std::make_shared<const Index>()};
  std::atomic<bool> active_{false};
};

// ServiceUnavailable's status and body.
inline constexpr unsigned kServiceUnavailableStatus = 503;
std::string service_unavailable_body(std::string_view message);

// The service's answer for an error rule (its message, and the
// CancellationReasons of a TransactionCanceledException).
ApiError fault_error(const FaultRule& rule, const RequestFacts& facts);

}  // namespace dynamod
