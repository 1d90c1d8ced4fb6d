#include "storage/partiql_transaction_ops.h"

#include <set>

#include "protocol/attribute_json.h"
#include "protocol/expr/projection.h"
#include "protocol/json_writer.h"
#include "protocol/key_paths.h"
#include "protocol/key_validation.h"
#include "protocol/partiql/item_json.h"
#include "protocol/partiql/key_types.h"
#include "protocol/partiql/parser.h"
#include "protocol/partiql/statement_checks.h"

namespace dynamod::ops {
namespace {

using partiql::StatementKind;

std::string prefix(std::size_t i) { return "Validation failed in TransactStatements[" + std::to_string(i) + "]: "; }

// What a statement asks for, for ClientRequestToken replays: equal requests
// have equal digests (and never equal a TransactWriteItems request's).
std::string digest_of(const partiql::ExecuteTransactionRequest& request) {
  JsonWriter out;
  out.begin_array();
  out.string("ExecuteTransaction");
  for (const auto& s : request.statements) {
    out.begin_array();
    out.string(s.statement);
    for (const auto& p : s.parameters) encode_attribute_value(out, p);
    out.boolean(s.return_old_on_condition_failure);
    out.end_array();
  }
  out.end_array();
  return out.take();
}

// The reads cancelled for read `failed`: a ValidationError reason for it, None for the others.
ApiError read_cancelled(std::size_t reads, std::size_t failed, const ApiError& e) {
  std::vector<CancellationReason> reasons(reads);
  reasons[failed] = {"ValidationError", e.message(), {}};
  return transaction_cancelled(reasons);
}

TransactWriteAction::Kind action_kind(StatementKind kind) {
  switch (kind) {
    case StatementKind::Insert: return TransactWriteAction::Kind::Put;
    case StatementKind::Update: return TransactWriteAction::Kind::Update;
    case StatementKind::Exists: return TransactWriteAction::Kind::ConditionCheck;
    default: return TransactWriteAction::Kind::Delete;
  }
}

}  // namespace

PreparedStatementTransaction prepare_statement_transaction(Store& store, const Scope& scope,
                                                           const partiql::ExecuteTransactionRequest& request,
                                                           std::int64_t now_ms) {
  // An empty statement fails the whole transaction, before any is parsed (a statement has a
  // length of 1 at least; DynamoDB Local's text).
  for (const auto& s : request.statements) {
    if (s.statement.empty()) throw ApiError::validation("ExecutePartiQLTransaction can not have empty statement.");
  }
  std::vector<partiql::Statement> parsed;
  parsed.reserve(request.statements.size());
  for (const auto& s : request.statements) {
    parsed.push_back(partiql::parse(s.statement));
    if (parsed.back().wrapped_select) throw ApiError::validation("Unsupported operation in transaction.");
    s.check_parameters();
  }
  std::size_t reads = 0;
  for (const auto& s : parsed) reads += s.kind() == StatementKind::Select;
  if (reads != 0 && reads != parsed.size()) {
    throw ApiError::validation(
        "ExecuteTransaction API does not support both read and write operations in the same request.");
  }

  PreparedStatementTransaction t;
  t.reads = reads != 0;
  t.writes.return_consumed_capacity = request.return_consumed_capacity;
  t.writes.now_ms = now_ms;
  t.gets.return_consumed_capacity = request.return_consumed_capacity;
  if (request.client_request_token && !t.reads) {
    t.writes.token_key = std::string(scope.ns()) + '\0' + *request.client_request_token;
    t.writes.digest = digest_of(request);
  }
  std::set<std::pair<std::uint32_t, std::string>> items;
  // A path into a key (the table's or an index's) is refused once every
  // statement has passed its own checks, without a statement's place, unless
  // a key's type cancels the transaction first (DynamoDB Local): the first
  // one found. (EXISTS refuses a path into the table's key as its own error.)
  std::optional<ApiError> key_path;
  std::optional<ApiError> empty_read_key;
  // A second statement on one item is refused once every statement has passed
  // its own checks (a later statement's invalid operand is named first), and
  // before a path into a key, unless a write's key type cancels the
  // transaction first (DynamoDB Local).
  std::optional<ApiError> repeated_item;
  for (std::size_t i = 0; i < parsed.size(); ++i) {
    const partiql::Statement& s = parsed[i];
    const partiql::StatementRequest& r = request.statements[i];
    // An alias, an empty name, the select list: first. (prepare_statement checks them
    // again, unprefixed.)
    try {
      partiql::check_parsed(s);
    } catch (ApiError& e) {
      throw ApiError::validation(prefix(i) + e.message());
    }
    if (s.kind() == StatementKind::Select && s.table().index) {
      throw ApiError::validation(prefix(i) + "Reads on indices are not supported within transactions.");
    }
    partiql::Inputs inputs{r.parameters,
                           false,
                           std::nullopt,
                           std::nullopt,
                           r.return_old_on_condition_failure,
                           partiql::kTransactionSelectKey};
    std::optional<PreparedStatement> prepared;
    try {
      prepared = prepare_statement(store, scope, s, inputs);
    } catch (ApiError& e) {
      if (e.code() != ErrorCode::ValidationException) throw;
      // A read's key of the wrong type cancels the reads as a write's does
      // below; an empty one once every read has passed its own checks, as
      // TransactGetItems finds it (DynamoDB Local).
      if (t.reads && partiql::is_key_error(e)) {
        t.read_failure = read_cancelled(parsed.size(), i, e);
        key_path.reset();
        break;
      }
      if (t.reads && is_empty_key_error(e)) {
        if (!empty_read_key) empty_read_key = read_cancelled(parsed.size(), i, e);
        continue;
      }
      // An empty key value fails a write transaction as a whole, as it fails
      // TransactWriteItems (unprefixed; DynamoDB Local).
      if (!t.reads && is_empty_key_error(e)) throw;
      if (!t.reads && partiql::is_key_error(e)) {
        // A write's key missing or of the wrong type cancels the transaction
        // with a ValidationError reason for it and None for the others, as a
        // TransactWriteItems action's key does; the statements after it are
        // not looked at (DynamoDB Local; the service's reasons are the
        // statements' own errors).
        PreparedTransaction::Action failed;
        failed.kind = action_kind(s.kind());
        failed.validation_error = std::move(e);
        t.writes.actions.push_back(std::move(failed));
        for (std::size_t rest = i + 1; rest < parsed.size(); ++rest) {
          t.writes.actions.push_back(PreparedTransaction::Action{.kind = action_kind(parsed[rest].kind())});
        }
        key_path.reset();
        repeated_item.reset();
        break;
      }
      if (!is_key_path_error(e)) throw ApiError::validation(prefix(i) + e.message());
      if (!key_path) key_path = std::move(e);
      // (Its place among the reasons, should a later key cancel the transaction.)
      if (!t.reads) t.writes.actions.push_back(PreparedTransaction::Action{.kind = action_kind(s.kind())});
    }
    // (After the statement's own errors, DELETE's invalid RETURNING among them.)
    if (s.returning())
      throw ApiError::validation(prefix(i) + "RETURNING clause is not supported in ExecuteTransaction.");
    if (!prepared) continue;
    if (t.reads) {
      TransactGetAction get;
      get.table_name = prepared->table->schema.name;
      get.key = std::move(prepared->read->key);
      t.gets.actions.push_back(std::move(get));
      const ReadSpec& spec = prepared->read->spec;
      t.select_lists.emplace_back(spec.projection.value_or(std::vector<expr::Path>{}), spec.projection_names);
      continue;
    }
    const ItemLocation& at = prepared->write().location;
    if (!items.insert({at.table->schema.id, at.stored_key}).second) {
      if (!repeated_item) {
        repeated_item = ApiError::validation("Transaction request cannot include multiple operations on one item");
      }
      // (Its place among the reasons, should a later key cancel the transaction.)
      t.writes.actions.push_back(PreparedTransaction::Action{.kind = action_kind(s.kind())});
      continue;
    }
    PreparedTransaction::Action action;
    action.kind = action_kind(s.kind());
    action.put = std::move(prepared->put);
    action.update = std::move(prepared->update);
    action.del = std::move(prepared->del);
    t.writes.actions.push_back(std::move(action));
  }
  if (repeated_item) throw std::move(*repeated_item);
  if (key_path) throw std::move(*key_path);
  if (!t.read_failure) t.read_failure = std::move(empty_read_key);
  return t;
}

TransactGetResult run_transaction_reads(Store& store, const Scope& scope, const PreparedStatementTransaction& t) {
  if (t.read_failure) {
    TransactGetResult cancelled;
    cancelled.failure = t.read_failure;
    return cancelled;
  }
  TransactGetResult result = transact_get(store, scope, t.gets);
  for (std::size_t i = 0; i < result.items.size(); ++i) {
    const auto& [paths, names] = t.select_lists[i];
    std::optional<std::string>& item = result.items[i];
    if (!item || names.empty()) continue;
    // transact_get returns whole items; a select list names its paths as PartiQL does.
    std::optional<Item> whole = partiql::parse_item_json(*item);
    if (!whole) throw ApiError::internal("Internal server error");
    Item selected = expr::project_named(*whole, paths, names);
    if (selected.empty()) {
      item.reset();
      continue;
    }
    JsonWriter out;
    encode_item(out, selected);
    item = out.take();
  }
  return result;
}

}  // namespace dynamod::ops
