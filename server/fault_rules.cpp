#include "server/fault_rules.h"

#include <fmt/format.h>
#include <simdjson.h>

#include <algorithm>
#include <limits>

#include "metering/throughput_model.h"
#include "protocol/json_writer.h"
#include "server/operations.h"
#include "server/throttler.h"
#include "storage/transaction_ops.h"

namespace dynamod {
namespace {

using simdjson::dom::element;

struct ErrorName {
  std::string_view name;
  ErrorCode code;  // unused for ServiceUnavailable
};

constexpr std::string_view kServiceUnavailable = "ServiceUnavailable";

// The errors a rule may answer with: the service's transient and capacity
// failures, which SDKs retry or hand to the caller.
constexpr ErrorName kFaultErrors[] = {
    {"InternalServerError", ErrorCode::InternalServerError},
    {kServiceUnavailable, ErrorCode::InternalServerError},
    {"ThrottlingException", ErrorCode::ThrottlingException},
    {"ProvisionedThroughputExceededException", ErrorCode::ProvisionedThroughputExceededException},
    {"RequestLimitExceeded", ErrorCode::RequestLimitExceeded},
    {"TransactionConflictException", ErrorCode::TransactionConflictException},
    {"TransactionCanceledException", ErrorCode::TransactionCanceledException},
    {"ItemCollectionSizeLimitExceededException", ErrorCode::ItemCollectionSizeLimitExceededException},
};

constexpr std::string_view kMembers =
    "operations, tables, index, key_prefix, probability, every, times, seed, latency_ms, error, message, "
    "conflict_item, unprocessed, close";

ApiError bad_rule(std::string_view what) { return ApiError::validation("Invalid fault rule: " + std::string(what)); }

std::vector<std::string> string_list(element value, std::string_view member) {
  std::vector<std::string> out;
  std::string_view one;
  if (value.get(one) == simdjson::SUCCESS) {
    out.emplace_back(one);
    return out;
  }
  simdjson::dom::array array;
  if (value.get(array) != simdjson::SUCCESS) throw bad_rule(std::string(member) + " must be a list of strings");
  for (element e : array) {
    if (e.get(one) != simdjson::SUCCESS) throw bad_rule(std::string(member) + " must be a list of strings");
    out.emplace_back(one);
  }
  return out;
}

std::uint64_t positive(element value, std::string_view member) {
  std::uint64_t n = 0;
  if (value.get(n) != simdjson::SUCCESS || n == 0) throw bad_rule(std::string(member) + " must be a positive integer");
  return n;
}

std::chrono::milliseconds millis(element value) {
  double ms = 0;
  std::int64_t i = 0;
  if (value.get(i) == simdjson::SUCCESS) {
    ms = static_cast<double>(i);
  } else if (value.get(ms) != simdjson::SUCCESS) {
    throw bad_rule("latency_ms must be a number of milliseconds or a [min, max] pair");
  }
  if (!(ms >= 0 && ms <= 600000)) throw bad_rule("latency_ms must be between 0 and 600000");
  return std::chrono::milliseconds(static_cast<std::int64_t>(ms));
}

std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

bool is_read(std::string_view operation) {
  return operation == "GetItem" || operation == "Query" || operation == "Scan" || operation == "BatchGetItem" ||
         operation == "TransactGetItems";
}

}  // namespace

std::unique_ptr<FaultRule> parse_fault_rule(std::string_view json) {
  simdjson::dom::parser parser;
  element root;
  if (parser.parse(json.data(), json.size()).get(root) != simdjson::SUCCESS) throw bad_rule("not JSON");
  simdjson::dom::object object;
  if (root.get(object) != simdjson::SUCCESS) throw bad_rule("a rule is a JSON object");
  auto rule = std::make_unique<FaultRule>();
  rule->seed = splitmix64(reinterpret_cast<std::uintptr_t>(rule.get()));
  bool has_latency = false;
  for (auto [key, value] : object) {
    if (key == "operations") {
      rule->operations = string_list(value, key);
      for (const std::string& op : rule->operations) {
        // A misspelt name would match nothing, silently.
        if (find_operation(op) == nullptr && find_stream_operation(op) == nullptr) {
          throw bad_rule("operation '" + op + "' is not one of dynamod's operations");
        }
      }
    } else if (key == "tables") {
      rule->tables = string_list(value, key);
    } else if (key == "index" || key == "key_prefix" || key == "message") {
      std::string_view text;
      if (value.get(text) != simdjson::SUCCESS) throw bad_rule(std::string(key) + " must be a string");
      (key == "index" ? rule->index : key == "key_prefix" ? rule->key_prefix : rule->message) = std::string(text);
    } else if (key == "probability") {
      double p = 0;
      std::int64_t i = 0;
      if (value.get(i) == simdjson::SUCCESS) p = static_cast<double>(i);
      else if (value.get(p) != simdjson::SUCCESS) throw bad_rule("probability must be a number");
      if (!(p > 0 && p <= 1)) throw bad_rule("probability must be above 0 and at most 1");
      rule->probability = p;
    } else if (key == "every") {
      rule->every = positive(value, key);
    } else if (key == "times") {
      rule->times = positive(value, key);
    } else if (key == "seed") {
      if (value.get(rule->seed) != simdjson::SUCCESS) throw bad_rule("seed must be an unsigned integer");
    } else if (key == "latency_ms") {
      simdjson::dom::array range;
      if (value.get(range) == simdjson::SUCCESS) {
        if (range.size() != 2) throw bad_rule("latency_ms as a range is [min, max]");
        rule->latency_min = millis(range.at(0));
        rule->latency_max = millis(range.at(1));
        if (rule->latency_max < rule->latency_min) throw bad_rule("latency_ms: max is below min");
      } else {
        rule->latency_min = rule->latency_max = millis(value);
      }
      has_latency = true;
    } else if (key == "error") {
      std::string_view name;
      if (value.get(name) != simdjson::SUCCESS) throw bad_rule("error must be a string");
      auto it = std::find_if(std::begin(kFaultErrors), std::end(kFaultErrors),
                             [&](const ErrorName& e) { return e.name == name; });
      if (it == std::end(kFaultErrors)) {
        std::string names;
        for (const ErrorName& e : kFaultErrors) names += (names.empty() ? "" : ", ") + std::string(e.name);
        throw bad_rule("error '" + std::string(name) + "' is not one of " + names);
      }
      if (rule->action != FaultRule::Action::None) throw bad_rule("give one of error, unprocessed, close");
      rule->action = name == kServiceUnavailable ? FaultRule::Action::Unavailable : FaultRule::Action::Error;
      rule->error = it->code;
    } else if (key == "conflict_item") {
      std::uint64_t n = 0;
      if (value.get(n) != simdjson::SUCCESS || n > 100) throw bad_rule("conflict_item must be an integer from 0 to 99");
      rule->conflict_item = static_cast<std::size_t>(n);
    } else if (key == "unprocessed") {
      bool flag = false;
      if (value.get(flag) == simdjson::SUCCESS) {
        if (!flag) throw bad_rule("unprocessed must be true or a positive integer");
      } else {
        rule->unprocessed = static_cast<std::size_t>(positive(value, key));
      }
      if (rule->action != FaultRule::Action::None) throw bad_rule("give one of error, unprocessed, close");
      rule->action = FaultRule::Action::Unprocessed;
    } else if (key == "close") {
      bool flag = false;
      if (value.get(flag) != simdjson::SUCCESS || !flag) throw bad_rule("close must be true");
      if (rule->action != FaultRule::Action::None) throw bad_rule("give one of error, unprocessed, close");
      rule->action = FaultRule::Action::Close;
    } else {
      throw bad_rule("unknown member '" + std::string(key) + "' (members: " + std::string(kMembers) + ")");
    }
  }
  if (rule->action == FaultRule::Action::None && !has_latency) {
    throw bad_rule("a rule needs error, latency_ms, unprocessed or close");
  }
  if (rule->action == FaultRule::Action::Unprocessed) {
    for (const std::string& op : rule->operations) {
      if (op != "BatchWriteItem" && op != "BatchGetItem") {
        throw bad_rule("unprocessed applies to BatchWriteItem and BatchGetItem only, not " + op);
      }
    }
    if (rule->operations.empty()) rule->operations = {"BatchWriteItem", "BatchGetItem"};
  }
  return rule;
}

std::vector<std::unique_ptr<FaultRule>> parse_fault_rules(std::string_view json) {
  simdjson::dom::parser parser;
  element root;
  if (parser.parse(json.data(), json.size()).get(root) != simdjson::SUCCESS) throw bad_rule("not JSON");
  simdjson::dom::array array;
  element rules;
  if (root.get(array) != simdjson::SUCCESS) {
    if (root["rules"].get(rules) == simdjson::SUCCESS && rules.get(array) == simdjson::SUCCESS) {
      // {"rules": [...]}
    } else {
      std::vector<std::unique_ptr<FaultRule>> one;
      one.push_back(parse_fault_rule(json));
      return one;
    }
  }
  std::vector<std::unique_ptr<FaultRule>> out;
  for (element e : array) out.push_back(parse_fault_rule(simdjson::to_string(e)));
  return out;
}

bool FaultRule::matches(const RequestFacts& facts) const {
  if (!tables.empty()) {
    bool named = std::any_of(facts.tables.begin(), facts.tables.end(), [&](const std::string& t) {
      return std::find(tables.begin(), tables.end(), t) != tables.end();
    });
    if (!named) return false;
  }
  if (!index.empty() && facts.index != index) return false;
  if (!key_prefix.empty()) {
    return std::any_of(facts.partition_keys.begin(), facts.partition_keys.end(),
                       [&](const std::string& k) { return k.starts_with(key_prefix); });
  }
  return true;
}

bool FaultRule::fire() {
  const std::uint64_t n = matched.fetch_add(1, std::memory_order_relaxed) + 1;
  if (n % every != 0) return false;
  if (probability < 1) {
    // Deterministic per match number and seed: a seeded rule fires on the same matches every run.
    const double draw = static_cast<double>(splitmix64(seed ^ n) >> 11) * 0x1.0p-53;
    if (draw >= probability) return false;
  }
  std::uint64_t f = fired.load(std::memory_order_relaxed);
  do {
    if (times && f >= *times) return false;
  } while (!fired.compare_exchange_weak(f, f + 1, std::memory_order_relaxed));
  return true;
}

std::string_view FaultRule::kind() const {
  switch (action) {
    case Action::Error: return error_type_name(error);
    case Action::Unavailable: return kServiceUnavailable;
    case Action::Unprocessed: return "unprocessed";
    case Action::Close: return "close";
    case Action::None: break;
  }
  return "latency";
}

std::string FaultRule::to_json() const {
  JsonWriter out;
  out.begin_object();
  out.key("id");
  out.string(std::to_string(id));
  auto list = [&](std::string_view name, const std::vector<std::string>& values) {
    if (values.empty()) return;
    out.key(name);
    out.begin_array();
    for (const auto& v : values) out.string(v);
    out.end_array();
  };
  list("operations", operations);
  list("tables", tables);
  if (!index.empty()) {
    out.key("index");
    out.string(index);
  }
  if (!key_prefix.empty()) {
    out.key("key_prefix");
    out.string(key_prefix);
  }
  if (probability < 1) {
    out.key("probability");
    out.real(probability);
    out.key("seed");
    out.unsigned_integer(seed);
  }
  if (every != 1) {
    out.key("every");
    out.unsigned_integer(every);
  }
  if (times) {
    out.key("times");
    out.unsigned_integer(*times);
  }
  if (latency_max.count() != 0) {
    out.key("latency_ms");
    if (latency_min == latency_max) {
      out.integer(latency_min.count());
    } else {
      out.begin_array();
      out.integer(latency_min.count());
      out.integer(latency_max.count());
      out.end_array();
    }
  }
  switch (action) {
    case Action::Error:
      out.key("error");
      out.string(error_type_name(error));
      if (!message.empty()) {
        out.key("message");
        out.string(message);
      }
      if (error == ErrorCode::TransactionCanceledException) {
        out.key("conflict_item");
        out.unsigned_integer(conflict_item);
      }
      break;
    case Action::Unavailable:
      out.key("error");
      out.string(kServiceUnavailable);
      if (!message.empty()) {
        out.key("message");
        out.string(message);
      }
      break;
    case Action::Unprocessed:
      out.key("unprocessed");
      if (unprocessed) out.unsigned_integer(*unprocessed);
      else out.boolean(true);
      break;
    case Action::Close:
      out.key("close");
      out.boolean(true);
      break;
    case Action::None: break;
  }
  out.key("matched");
  out.unsigned_integer(matched.load(std::memory_order_relaxed));
  out.key("fired");
  out.unsigned_integer(fired.load(std::memory_order_relaxed));
  out.end_object();
  return out.take();
}

OperationRules::OperationRules(std::vector<std::shared_ptr<FaultRule>> rules)
    : rules_(std::move(rules)),
      needs_keys_(std::any_of(rules_.begin(), rules_.end(), [](const auto& r) { return !r->key_prefix.empty(); })) {}

FaultPlan OperationRules::evaluate(const RequestFacts& facts) const {
  FaultPlan plan;
  for (const auto& rule : rules_) {
    if (!rule->matches(facts) || !rule->fire()) continue;
    plan.fired.push_back(rule->id);
    if (rule->latency_max.count() != 0) {
      auto span = static_cast<std::uint64_t>((rule->latency_max - rule->latency_min).count());
      auto extra = span == 0 ? 0 : splitmix64(rule->seed ^ rule->fired.load(std::memory_order_relaxed)) % (span + 1);
      plan.delay += rule->latency_min + std::chrono::milliseconds(extra);
    }
    const bool decided = plan.error || plan.unavailable || plan.close || plan.unprocessed;
    if (decided) continue;
    switch (rule->action) {
      case FaultRule::Action::Error: plan.error = fault_error(*rule, facts); break;
      case FaultRule::Action::Unavailable:
        plan.unavailable = true;
        plan.message = rule->message;
        break;
      case FaultRule::Action::Close: plan.close = true; break;
      case FaultRule::Action::Unprocessed:
        plan.unprocessed = rule->unprocessed.value_or(std::numeric_limits<std::size_t>::max());
        break;
      case FaultRule::Action::None: break;
    }
  }
  return plan;
}

std::shared_ptr<const OperationRules> FaultRules::for_operation(std::string_view operation) const {
  std::shared_ptr<const Index> index = index_.load(std::memory_order_acquire);
  auto it = index->by_operation.find(operation);
  return it != index->by_operation.end() ? it->second : index->any_operation;
}

void FaultRules::publish(RuleList rules) {
  // Under mutex_. Each operation's list keeps the rules' order, those naming
  // no operation included, since the first action that fires decides.
  rules_ = std::move(rules);
  std::map<std::string, RuleList, std::less<>> lists;
  for (const auto& rule : rules_) {
    for (const std::string& op : rule->operations) lists.try_emplace(op);
  }
  RuleList any;
  for (const auto& rule : rules_) {
    if (rule->operations.empty()) {
      any.push_back(rule);
      for (auto& [op, list] : lists) list.push_back(rule);
      continue;
    }
    for (auto& [op, list] : lists) {
      if (std::find(rule->operations.begin(), rule->operations.end(), op) != rule->operations.end()) {
        list.push_back(rule);
      }
    }
  }
  auto index = std::make_shared<Index>();
  for (auto& [op, list] : lists) index->by_operation.emplace(op, std::make_shared<OperationRules>(std::move(list)));
  if (!any.empty()) index->any_operation = std::make_shared<OperationRules>(std::move(any));
  index_.store(std::move(index), std::memory_order_release);
  active_.store(!rules_.empty(), std::memory_order_relaxed);
}

std::uint64_t FaultRules::add(std::unique_ptr<FaultRule> rule) {
  std::lock_guard lock(mutex_);
  rule->id = next_id_++;
  const std::uint64_t id = rule->id;
  RuleList next = rules_;
  next.push_back(std::shared_ptr<FaultRule>(std::move(rule)));
  publish(std::move(next));
  return id;
}

bool FaultRules::remove(std::uint64_t id) {
  std::lock_guard lock(mutex_);
  RuleList next = rules_;
  auto it = std::find_if(next.begin(), next.end(), [id](const auto& r) { return r->id == id; });
  if (it == next.end()) return false;
  next.erase(it);
  publish(std::move(next));
  return true;
}

void FaultRules::clear() {
  std::lock_guard lock(mutex_);
  publish({});
}

std::string FaultRules::list_json() const {
  std::lock_guard lock(mutex_);
  std::string out = "{\"rules\":[";
  for (std::size_t i = 0; i < rules_.size(); ++i) {
    if (i > 0) out += ',';
    out += rules_[i]->to_json();
  }
  out += "]}";
  return out;
}

void FaultRules::render_metrics(std::string& out) const {
  std::lock_guard lock(mutex_);
  const RuleList& list = rules_;
  out +=
      "# HELP dynamod_faults_fired_total Injected faults fired, per rule (see /dynamod/faults).\n"
      "# TYPE dynamod_faults_fired_total counter\n";
  for (const auto& rule : list) {
    fmt::format_to(std::back_inserter(out), "dynamod_faults_fired_total{{rule=\"{}\",kind=\"{}\"}} {}\n", rule->id,
                   rule->kind(), rule->fired.load(std::memory_order_relaxed));
  }
  out +=
      "# HELP dynamod_faults_matched_total Requests that matched an injected fault's rule, fired or not.\n"
      "# TYPE dynamod_faults_matched_total counter\n";
  for (const auto& rule : list) {
    fmt::format_to(std::back_inserter(out), "dynamod_faults_matched_total{{rule=\"{}\",kind=\"{}\"}} {}\n", rule->id,
                   rule->kind(), rule->matched.load(std::memory_order_relaxed));
  }
}

std::string service_unavailable_body(std::string_view message) {
  // The API reference's words for it unless the rule gives its own; the service's text varies.
  JsonWriter out;
  out.begin_object();
  out.key("__type");
  out.string("com.amazonaws.dynamodb.v20120810#ServiceUnavailable");
  out.key("message");
  out.string(message.empty() ? "The request has failed due to a temporary failure of the server." : message);
  out.end_object();
  return out.take();
}

ApiError fault_error(const FaultRule& rule, const RequestFacts& facts) {
  auto with_message = [&](ErrorCode code, std::string_view service_message) {
    return ApiError(code, rule.message.empty() ? std::string(service_message) : rule.message);
  };
  switch (rule.error) {
    case ErrorCode::InternalServerError: return with_message(rule.error, "Internal server error");
    case ErrorCode::ThrottlingException:
    case ErrorCode::ProvisionedThroughputExceededException:
    case ErrorCode::RequestLimitExceeded: {
      metering::Throttle t;
      t.read = is_read(facts.operation);
      t.index = facts.index;
      t.limit = rule.error == ErrorCode::ThrottlingException    ? metering::Throttle::Limit::OnDemand
                : rule.error == ErrorCode::RequestLimitExceeded ? metering::Throttle::Limit::TableQuota
                                                                : metering::Throttle::Limit::Provisioned;
      t.provisioned_table = rule.error == ErrorCode::ProvisionedThroughputExceededException;
      ApiError error =
          throttle_error(t, facts.tables.empty() ? std::string() : table_arn(facts.arn, facts.tables.front()));
      if (!rule.message.empty()) {
        ApiError reworded(error.code(), rule.message);
        reworded.set_extra_json(error.extra_json());
        return reworded;
      }
      return error;
    }
    case ErrorCode::TransactionConflictException:
      return with_message(rule.error, "Transaction is ongoing for the item");
    case ErrorCode::TransactionCanceledException: {
      // One reason per item of the request; the conflicting one names the conflict.
      std::vector<ops::CancellationReason> reasons(std::max<std::size_t>(facts.transact_items, 1));
      for (std::size_t i = 0; i < reasons.size(); ++i) {
        if (i == std::min(rule.conflict_item, reasons.size() - 1)) {
          reasons[i] = {"TransactionConflict", "Transaction is ongoing for the item", {}};
        } else {
          reasons[i] = {"None", "", {}};
        }
      }
      return ops::transaction_cancelled(reasons);
    }
    case ErrorCode::ItemCollectionSizeLimitExceededException:
      return with_message(rule.error, "Collection size exceeded.");
    default: break;
  }
  return with_message(rule.error, "");
}

}  // namespace dynamod
